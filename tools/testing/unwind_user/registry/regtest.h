/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registry test: kernel/unwind/registry.c over the real maple tree in
 * user space.  This header joins three parts:
 *
 *   shim.c		what the kernel would provide: the mm and its mmap
 *			lock, fake VMAs, current, an allocator that tracks the
 *			registry's blocks, RCU frees, failure injection into
 *			the maple tree's node allocations
 *   registry_new.c	registry.c itself (#included unchanged), stubs of the
 *   (registry_old.c)	table reader it calls, and the reg_*() interface
 *			below; registry_old.c does the same for the registry
 *			of commit da05eb2, to show the tests fail there
 *   test.c		the tests, through reg_*() only
 */
#ifndef _REGISTRY_TEST_H
#define _REGISTRY_TEST_H

#include <pthread.h>
#include <stdbool.h>
#include <linux/slab.h>
#include <linux/types.h>

struct list_lru;
struct mm_struct;

/*
 * A fake object at @base: text [base, base + OBJ_TEXT_SIZE), executable;
 * then its .eh_frame_hdr and .eh_frame in one readable mapping of the same
 * size.  Objects sit OBJ_STRIDE apart.
 */
#define OBJ_TEXT_SIZE	0x1000UL
#define OBJ_STRIDE	0x10000UL
#define OBJ_BASE(i)	(0x10000000UL + (unsigned long)(i) * OBJ_STRIDE)
#define OBJ_HDR(base)	((base) + OBJ_TEXT_SIZE)
#define OBJ_HDR_SIZE	0x100UL
#define OBJ_DATA_END(base)	((base) + 2 * OBJ_TEXT_SIZE)

/* ---- the registry under test (registry_new.c or registry_old.c) ---- */

extern const char reg_version[];

void reg_mm_init(struct mm_struct *mm);
/* Register the object at @base as the prctl would: 0 or -errno. */
int reg_register(struct mm_struct *mm, unsigned long base);
/* Unregister it as the prctl would: 0 or -errno. */
int reg_unregister(struct mm_struct *mm, unsigned long base);
/* Tell the registry [start, end) was unmapped; mmap lock held for writing. */
void reg_unmap_locked(struct mm_struct *mm, unsigned long start,
		      unsigned long end);
/* Look @pc up as the unwinder would, in @mm as current's: 0 or -errno. */
int reg_lookup(struct mm_struct *mm, unsigned long pc);
/*
 * The frame cache of @mm: its hits and misses so far.  -1 if it has none
 * (nothing found yet) or the registry has no cache.
 */
int reg_cache_stats(struct mm_struct *mm, unsigned long *hits,
		    unsigned long *misses);
/* Fork: give @child what @parent has; both mmap locks held for writing. */
int reg_fork_locked(struct mm_struct *child, struct mm_struct *parent);
/* The address space goes away; mmap lock held for writing. */
void reg_exit_locked(struct mm_struct *mm);
/* The registry's own count of its entries (the cap's counter). */
long reg_count(struct mm_struct *mm);

struct reg_item {
	unsigned long	start;
	unsigned long	end;
	unsigned long	serial;	/* test_table_new_serial() at its creation */
	int		refs;	/* its reference count, or -1 if it has none */
	bool		keyed;	/* the tree's range for it is [start, end) */
};

/*
 * The live entries in @mm's tree, in address order (at most @max): their
 * number.  Tombstones and other markers are not entries.
 */
int reg_contents(struct mm_struct *mm, struct reg_item *items, int max);
/*
 * What stands in @mm's tree for entries whose erase found no memory (the
 * registry's tombstones): how many ranges it covers.
 */
int reg_markers(struct mm_struct *mm);

/* ---- the fake table reader, shared by both stubs ---- */

/*
 * A unique number for each table the registry reads a header of; the last
 * one this thread handed out.
 */
unsigned long test_table_new_serial(void);
extern __thread unsigned long test_table_last_serial;
/*
 * What a lookup in the table @serial of the object at @text_start answers:
 * 0, or -EINVAL if the test marked that object corrupt.  Runs the lookup
 * hook first, if one is set.
 */
int test_table_find(unsigned long text_start, unsigned long serial);
void test_table_set_corrupt(unsigned long text_start, bool corrupt);
/* Called in every lookup, between the registry's copy and its verdict. */
extern void (*test_lookup_hook)(unsigned long text_start,
				unsigned long serial);
/* The serial of the table the calling thread last looked up, or 0. */
extern __thread unsigned long test_last_lookup_serial;

/* ---- shim.c ---- */

struct mm_struct *test_mm_new(void);
void test_mm_free(struct mm_struct *mm);
/* Map or unmap [start, end); mmap lock held for writing. */
int test_vma_map(struct mm_struct *mm, unsigned long start, unsigned long end,
		 unsigned long flags);
void test_vma_unmap(struct mm_struct *mm, unsigned long start,
		    unsigned long end);
/* Map the object at @base (text and tables); takes the mmap lock. */
void test_obj_map(struct mm_struct *mm, unsigned long base);
/* munmap() of [start, end): VMAs and registry, under the mmap lock. */
void test_munmap(struct mm_struct *mm, unsigned long start,
		 unsigned long end);

/* Write acquisitions of any mmap lock by this thread, and the last one's. */
extern __thread unsigned long test_write_locks;
extern __thread unsigned long test_last_write_epoch;

/*
 * A thread that wants to know when another one waits for an mmap lock
 * points that thread's test_lock_waiter at a struct test_waiter.
 */
struct test_waiter {
	pthread_mutex_t	lock;
	pthread_cond_t	cond;
	bool		waiting;
};

extern __thread struct test_waiter *test_lock_waiter;

/* The registry's blocks (entries): allocated and not yet freed. */
long test_blocks_live(void);
/* Blocks freed twice, or freed that were never allocated. */
long test_bad_frees(void);
/* Warnings (WARN_ON_ONCE) and messages of the code under test. */
long test_warnings(void);
long test_messages(void);
/*
 * Keep the next block freed and hand it to the next allocation of its size,
 * as a slab reuses an object; test_alloc_reused() counts the times it did.
 */
void test_alloc_reuse_next(void);
long test_alloc_reused(void);
/* Make 1 in @ratio registry allocations fail in this thread (0: none). */
extern __thread unsigned int test_alloc_fail_ratio;

/*
 * Maple tree node allocations (any gfp): fail the next @n of them in any
 * thread; and in this thread, 1 in @ratio of them (0: none).  Independent of
 * the harness's own switch, mt_set_non_kernel(), which only governs
 * allocations that may not sleep.
 */
void test_maple_fail_next(long n);
extern __thread unsigned int test_maple_fail_ratio;

/*
 * The shim's wrappers (ld --wrap) around the harness' slab, and what they
 * wrap.
 */
void *__real_kmem_cache_alloc_lru(struct kmem_cache *cachep,
				  struct list_lru *lru, int gfp);
struct slab_sheaf *__real_kmem_cache_prefill_sheaf(struct kmem_cache *s,
						   gfp_t gfp,
						   unsigned int size);
int __real_kmem_cache_refill_sheaf(struct kmem_cache *s, gfp_t gfp,
				   struct slab_sheaf **sheafp,
				   unsigned int size);
void *__wrap_kmem_cache_alloc_lru(struct kmem_cache *cachep,
				  struct list_lru *lru, int gfp);
struct slab_sheaf *__wrap_kmem_cache_prefill_sheaf(struct kmem_cache *s,
						   gfp_t gfp,
						   unsigned int size);
int __wrap_kmem_cache_refill_sheaf(struct kmem_cache *s, gfp_t gfp,
				   struct slab_sheaf **sheafp,
				   unsigned int size);

/* Wait for every pending RCU free. */
void test_rcu_barrier(void);

/* ---- the harness (tools/testing/shared, lib/maple_tree.c for tests) ---- */

void maple_tree_init(void);
/* Let the next @val node allocations that may not sleep succeed. */
void mt_set_non_kernel(unsigned int val);
/* Called at the next allocation after one that may not sleep failed. */
void mt_set_callback(void (*callback)(void *));

/* A per-thread xorshift generator. */
unsigned int test_rand(void);
void test_srand(unsigned int seed);

#endif
