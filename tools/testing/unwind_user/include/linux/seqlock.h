/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User space stand-in for <linux/seqlock.h>: a sequence count whose readers
 * retry (or here, give up) when a writer came by, with C11 fences where the
 * kernel has smp_rmb() and smp_wmb().
 */
#ifndef _UNWIND_TEST_LINUX_SEQLOCK_H
#define _UNWIND_TEST_LINUX_SEQLOCK_H

#include <stdatomic.h>
#include <linux/compiler.h>
#include <linux/spinlock.h>

typedef struct {
	atomic_uint	sequence;
} seqcount_spinlock_t;

#define seqcount_spinlock_init(s, lock)	((void)(lock), atomic_init(&(s)->sequence, 0))
typedef seqcount_spinlock_t seqcount_raw_spinlock_t;
#define seqcount_raw_spinlock_init	seqcount_spinlock_init

static inline unsigned int read_seqcount_begin(seqcount_spinlock_t *s)
{
	unsigned int seq;

	while ((seq = atomic_load_explicit(&s->sequence,
					   memory_order_acquire)) & 1)
		;
	return seq;
}

static inline int read_seqcount_retry(seqcount_spinlock_t *s,
				      unsigned int start)
{
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(&s->sequence, memory_order_relaxed) != start;
}

static inline void write_seqcount_begin(seqcount_spinlock_t *s)
{
	atomic_fetch_add_explicit(&s->sequence, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
}

static inline void write_seqcount_end(seqcount_spinlock_t *s)
{
	atomic_fetch_add_explicit(&s->sequence, 1, memory_order_release);
}

#endif
