/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kernel/unwind/cache.c takes of <linux/seqlock.h> and <linux/spinlock.h>,
 * over the tools' pthread spinlock: sequence counts with C11 fences where the
 * kernel has smp_rmb() and smp_wmb().
 */
#ifndef _REGISTRY_TEST_LINUX_SEQLOCK_H
#define _REGISTRY_TEST_LINUX_SEQLOCK_H

#include <linux/spinlock.h>

#ifndef spin_trylock
#define spin_trylock(x)		(!pthread_mutex_trylock(x))
#endif
/* The cache's lock is raw in the kernel. */
#define raw_spinlock_t		spinlock_t
#define raw_spin_lock_init	spin_lock_init
#define raw_spin_trylock	spin_trylock
#define raw_spin_lock		spin_lock
#define raw_spin_unlock		spin_unlock
#ifndef data_race
/* The tests read the statistics single-threaded. */
#define data_race(expr)		(expr)
#endif

typedef struct {
	unsigned int	sequence;
} seqcount_spinlock_t;

#define seqcount_spinlock_init(s, lock)	((void)(lock), (s)->sequence = 0)
typedef seqcount_spinlock_t seqcount_raw_spinlock_t;
#define seqcount_raw_spinlock_init	seqcount_spinlock_init

static inline unsigned int read_seqcount_begin(seqcount_spinlock_t *s)
{
	unsigned int seq;

	while ((seq = __atomic_load_n(&s->sequence, __ATOMIC_ACQUIRE)) & 1)
		;
	return seq;
}

static inline int read_seqcount_retry(seqcount_spinlock_t *s,
				      unsigned int start)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&s->sequence, __ATOMIC_RELAXED) != start;
}

static inline void write_seqcount_begin(seqcount_spinlock_t *s)
{
	__atomic_add_fetch(&s->sequence, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void write_seqcount_end(seqcount_spinlock_t *s)
{
	__atomic_add_fetch(&s->sequence, 1, __ATOMIC_RELEASE);
}

#endif
