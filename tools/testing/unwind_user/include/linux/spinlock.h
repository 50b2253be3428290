/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/spinlock.h>: the locks the cache takes. */
#ifndef _UNWIND_TEST_LINUX_SPINLOCK_H
#define _UNWIND_TEST_LINUX_SPINLOCK_H

#include <stdatomic.h>
#include <stdbool.h>

typedef struct {
	atomic_bool	locked;
} spinlock_t;

static inline void spin_lock_init(spinlock_t *lock)
{
	atomic_init(&lock->locked, false);
}

static inline bool spin_trylock(spinlock_t *lock)
{
	return !atomic_exchange_explicit(&lock->locked, true,
					 memory_order_acquire);
}

static inline void spin_lock(spinlock_t *lock)
{
	while (!spin_trylock(lock))
		;
}

static inline void spin_unlock(spinlock_t *lock)
{
	atomic_store_explicit(&lock->locked, false, memory_order_release);
}

/* The cache's lock is raw in the kernel: the same here. */
typedef spinlock_t raw_spinlock_t;
#define raw_spin_lock_init	spin_lock_init
#define raw_spin_trylock	spin_trylock
#define raw_spin_lock		spin_lock
#define raw_spin_unlock		spin_unlock

#endif
