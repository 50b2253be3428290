/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel mutex over pthreads, for the registry tests.  shim.c keeps the
 * locks each thread holds, so that lockdep_assert_held() checks the calling
 * thread; a mutex has a class (the name it was defined or initialized
 * with, as lockdep keys a class by where the lock is set up), and shim.c
 * checks the order in which each thread takes mutexes and mmap locks, and
 * aborts on one that could deadlock (see lock_order_check()).  Never
 * interrupted: the _killable variants return 0.
 */
#ifndef _REGISTRY_TEST_LINUX_MUTEX_H
#define _REGISTRY_TEST_LINUX_MUTEX_H

#include <pthread.h>
#include <stdbool.h>

struct mutex {
	pthread_mutex_t	m;
	const char	*name;		/* its lock class */
};

#define SINGLE_DEPTH_NESTING	1

#define DEFINE_MUTEX(lname)						\
	struct mutex lname = { .m = PTHREAD_MUTEX_INITIALIZER, .name = #lname }
#define mutex_init(l)		test_mutex_init(l, #l)

void test_mutex_init(struct mutex *lock, const char *name);
void test_mutex_lock(struct mutex *lock, unsigned int subclass);
void mutex_unlock(struct mutex *lock);
/* Does the calling thread hold @lock? */
bool test_mutex_held(const struct mutex *lock);
/* Abort unless the calling thread holds @lock. */
void test_mutex_assert_held(const struct mutex *lock, const char *file,
			    int line);

#define mutex_lock(l)			test_mutex_lock(l, 0)
#define mutex_lock_nested(l, sub)	test_mutex_lock(l, sub)
#define mutex_lock_killable(l)		(test_mutex_lock(l, 0), 0)
#define lockdep_assert_held(l)						\
	test_mutex_assert_held(l, __FILE__, __LINE__)

#endif
