/* SPDX-License-Identifier: GPL-2.0 */
/* The tools' <linux/atomic.h>, plus the operations the registry uses. */
#ifndef _REGISTRY_TEST_LINUX_ATOMIC_H
#define _REGISTRY_TEST_LINUX_ATOMIC_H

#include_next <linux/atomic.h>

static inline int atomic_inc_return(atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
}

static inline void atomic_dec(atomic_t *v)
{
	__atomic_sub_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
}

typedef struct {
	long long counter;
} atomic64_t;

static inline long long atomic64_inc_return(atomic64_t *v)
{
	return __atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
}

static inline long long atomic64_inc_return_release(atomic64_t *v)
{
	return __atomic_add_fetch(&v->counter, 1, __ATOMIC_RELEASE);
}

static inline void atomic64_set(atomic64_t *v, long long i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic64_inc(atomic64_t *v)
{
	__atomic_add_fetch(&v->counter, 1, __ATOMIC_RELAXED);
}

static inline void atomic64_add(long long i, atomic64_t *v)
{
	__atomic_add_fetch(&v->counter, i, __ATOMIC_RELAXED);
}

static inline long long atomic64_read(const atomic64_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline long long atomic64_read_acquire(const atomic64_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE);
}

/*
 * atomic_long_t of the tools' <linux/types.h>: the tools' atomic.h only
 * declares atomic_long_set(), which no library here defines.
 */
static inline void test_atomic_long_set(atomic_long_t *v, long i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline long test_atomic_long_read(const atomic_long_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_long_inc(atomic_long_t *v)
{
	__atomic_add_fetch(&v->counter, 1, __ATOMIC_RELAXED);
}

#define atomic_long_set(v, i)	test_atomic_long_set(v, i)
#define atomic_long_read(v)	test_atomic_long_read(v)

/* The pointer exchanges of the registry's lazily built indexes. */
#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define cmpxchg_release(p, old, new)					\
	({								\
		__typeof__(*(p)) __old = (old);				\
		__atomic_compare_exchange_n(p, &__old, new, false,	\
					    __ATOMIC_RELEASE,		\
					    __ATOMIC_RELAXED);		\
		__old;							\
	})
/* As the kernel's: true if *@p held *@oldp, else *@oldp gets *@p. */
#define try_cmpxchg_release(p, oldp, new)				\
	__atomic_compare_exchange_n(p, oldp, new, false,		\
				    __ATOMIC_RELEASE, __ATOMIC_RELAXED)

#endif
