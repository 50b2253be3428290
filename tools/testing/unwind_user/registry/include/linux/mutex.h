/* SPDX-License-Identifier: GPL-2.0 */
/* A kernel mutex over pthreads, for the registry tests. */
#ifndef _REGISTRY_TEST_LINUX_MUTEX_H
#define _REGISTRY_TEST_LINUX_MUTEX_H

#include <pthread.h>

struct mutex {
	pthread_mutex_t	m;
};

#define DEFINE_MUTEX(name)	struct mutex name = { PTHREAD_MUTEX_INITIALIZER }
#define mutex_lock(l)		pthread_mutex_lock(&(l)->m)
#define mutex_unlock(l)		pthread_mutex_unlock(&(l)->m)

#endif
