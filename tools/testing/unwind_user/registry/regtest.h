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
 *   (registry_old.c,	table reader it calls, and the reg_*() interface
 *   registry_prev.c)	below; registry_old.c does the same for the registry
 *			of commit da05eb2, registry_prev.c for that of
 *			6d475fa79, to show the tests fail there; built with
 *			REGISTRY_TEST_BASE, registry_new.c does it for the
 *			registry of 3ec176df9 (before its own lock)
 *   test.c		the tests, through reg_*() only
 */
#ifndef _REGISTRY_TEST_H
#define _REGISTRY_TEST_H

#include <pthread.h>
#include <stdbool.h>
#include <linux/slab.h>
#include <linux/types.h>

struct list_lru;
struct ma_state;
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

/* Who registered an entry (enum unwind_user_origin of registry.h). */
enum reg_origin { REG_PRCTL, REG_FILE, REG_VDSO };

struct reg_item {
	unsigned long	start;
	unsigned long	end;
	unsigned long	serial;	/* test_table_new_serial() at its creation */
	int		refs;	/* its reference count, or -1 if it has none */
	bool		keyed;	/* the tree's range for it is [start, end) */
	enum reg_origin	origin;	/* the old registry: REG_PRCTL */
	bool		dead;	/* a lookup found it corrupt (not the old one) */
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

#ifndef REGISTRY_TEST_OLD
/* ---- registry_new.c and registry_prev.c, not the old registry ---- */

/*
 * Register the object at @base as a gcc -static executable has it: no
 * .eh_frame_hdr, its .eh_frame at OBJ_HDR(base) to OBJ_DATA_END(base).
 */
int reg_register_bare(struct mm_struct *mm, unsigned long base);
/* mremap() moved [old_start, old_end) to @new_start; mmap lock held. */
void reg_move_locked(struct mm_struct *mm, unsigned long old_start,
		     unsigned long old_end, unsigned long new_start);
/*
 * One walk of a stack, as the kernel's (user.c) in @mm as current's: @pcs
 * looked up in turn, all paying from one budget of reg_walk_budget units,
 * whatever each finds (a frame not found is unwound with frame pointers).
 * Each lookup's result in @rets; returns what is left of the budget.
 */
unsigned int reg_walk(struct mm_struct *mm, const unsigned long *pcs, int nr,
		      int *rets);
extern const unsigned int reg_walk_budget;
/* kernel.unwind_tables_index_max_kb (6d475fa79 has no such cap) */
void reg_set_index_max_kb(unsigned int kb);
/* What /proc/PID/unwind_tables shows of @mm (unwind_user_mm_show()). */
void reg_show(struct mm_struct *mm, char *buf, size_t size);
/* The generation of @mm's registry, under which frames are cached. */
long long reg_generation(struct mm_struct *mm);
#endif

/* Discovery came after 6d475fa79: neither older registry has it. */
#if !defined(REGISTRY_TEST_OLD) && !defined(REGISTRY_TEST_PREV)
#define REGISTRY_TEST_DISCOVERY
#endif

#ifdef REGISTRY_TEST_DISCOVERY
/*
 * ---- What the kernel finds by itself, and what it shows of it
 * (registry_new.c only) ----
 */

/*
 * What discovery finds at the object at @base: a table, none, nothing, or
 * a PE image (an entry of that format if its handler is there).
 */
enum reg_found {
	REG_FOUND_NOTHING, REG_FOUND_TABLE, REG_FOUND_NONE,
	REG_FOUND_PE,	/* a PE image, whose handler may have to be loaded */
};

/*
 * Declare what discovery (registry_new.c's stand-in of discover.c) finds
 * for the object at @base, in any mm: its table (an entry of origin
 * REG_FILE), no usable table (a marker over its executable mapping), or
 * nothing at all (discovery leaves the registry alone: the default).
 */
void reg_set_discoverable(unsigned long base, enum reg_found what);
/* kernel.unwind_tables_discover */
void reg_set_discover_enabled(bool on);
/* The calls of unwind_user_discover() so far, in any thread. */
long reg_discover_calls(void);
/* Called by discovery between its read of the object and its insert. */
extern void (*test_discover_hook)(struct mm_struct *mm, unsigned long pc);
/*
 * What the last call of discovery in this thread did: nothing (it found
 * nothing to look at, or was not called), put in an entry or a marker,
 * found @pc covered already when it came to put one in, or found the
 * mapping gone (or changed) by then.
 */
enum reg_discovery {
	REG_DISC_NOTHING, REG_DISC_ENTRY, REG_DISC_MARKER, REG_DISC_COVERED,
	REG_DISC_GONE,
};

extern __thread enum reg_discovery reg_last_discovery;
/*
 * Called by discovery once it holds the locks it inserts under, before it
 * checks the mapping again.
 */
extern void (*test_discover_locked_hook)(struct mm_struct *mm,
					 unsigned long pc);
/*
 * Put in the entry the kernel would make for the object at @base, found in
 * its file or (REG_VDSO) the vDSO's image (unwind_user_entry_create() and
 * unwind_user_add_entry_locked(), the locks of a writer taken here): 0 or
 * -errno.
 */
int reg_add_found(struct mm_struct *mm, unsigned long base,
		  enum reg_origin origin);
/* unwind_user_add_none_locked(), the locks taken here. */
int reg_add_none(struct mm_struct *mm, unsigned long pc, unsigned long start,
		 unsigned long end);
/* The markers over memory without a table (not the tombstones). */
int reg_none_markers(struct mm_struct *mm);
/* unwind_user_forget_found(), for benchmarks of discovery */
int reg_forget_found(struct mm_struct *mm);
/* unwind_user_mm_has_tables() */
bool reg_has_tables(struct mm_struct *mm);
/* The changes of every tree (debugfs: unwind_user/registry), or -1. */
long reg_ops(void);
/* Another counter of unwind_user/registry, by name, or -1 if it has none. */
long reg_stat(const char *name);

/*
 * The protection of [start, end) changed to one with VM_EXEC; mmap lock
 * held for writing (unwind_user_mm_protect(): the registry of 3ec176df9 had
 * no such hook, nothing happens there).
 */
void reg_protect_locked(struct mm_struct *mm, unsigned long start,
			unsigned long end);

/*
 * Tables of another format (PE images): UNWIND_USER_FORMAT_PE, whose
 * handler the kernel under test has as a module (CONFIG_UNWIND_USER_PE=m),
 * and a format no handler (and no module) is known for.
 */
#define REG_FORMAT_PE		3
#define REG_FORMAT_UNKNOWN	7
/* unwind_user_add_table(): register the image at [start, end) of @format. */
int reg_add_table(struct mm_struct *mm, unsigned int format,
		  unsigned long start, unsigned long end);
/* unwind_user_remove(): unregister what @format registered at [start, end). */
int reg_remove(struct mm_struct *mm, unsigned int format, unsigned long start,
	       unsigned long end);
/*
 * unwind_user_format_find() as discovery calls it: 0 when the handler is
 * there (its module reference is dropped again), else its errno.
 */
int reg_format_find(unsigned int format);
/*
 * The module of the PE handler "loads" (unwind_user_register_format() of a
 * fake handler that describes any image it is given) or goes; the
 * references on it.
 */
int reg_pe_load(void);
void reg_pe_unload(void);
int reg_pe_module_refs(void);
/* The format of the live entry at @base, or -1. */
int reg_format_of(struct mm_struct *mm, unsigned long base);
#endif

/* ---- the fake table reader, shared by the stubs ---- */

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
/* The same for @pc: -ENOENT, no FDE, for a pc test_table_add_nofde() named. */
int test_table_find_pc(unsigned long text_start, unsigned long serial,
		       unsigned long pc);
void test_table_set_corrupt(unsigned long text_start, bool corrupt);
/* No table has an FDE for [start, end), until test_table_clear_nofde(). */
void test_table_add_nofde(unsigned long start, unsigned long end);
void test_table_clear_nofde(void);
/* The FDE searches of the stand-ins so far (test_table_find*()), any thread. */
long test_table_searches(void);
/* Called in every lookup, between the registry's copy and its verdict. */
extern void (*test_lookup_hook)(unsigned long text_start,
				unsigned long serial);
/* The serial of the table the calling thread last looked up, or 0. */
extern __thread unsigned long test_last_lookup_serial;

/*
 * What eh_frame_index_build() does, for every table until set again:
 * "read" @read bytes of the table, then fail with @err, or (@err 0) build
 * an index that eh_frame_index_bytes() says is @bytes long (0: the
 * stand-in's own size).
 */
void test_index_set(int err, size_t read, size_t bytes);
/* For the stand-ins: a build; what it reads and makes, and its errno. */
int test_index_build(size_t *read, size_t *bytes);
/* The builds so far, and the bytes they read, in any thread. */
long test_index_builds(void);
unsigned long long test_index_read(void);

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
#ifndef REGISTRY_TEST_OLD
/*
 * mremap() of [old_start, old_end), which must lie in one mapping, to
 * @new_start, under the mmap lock: the new mapping, the registry's move,
 * then the unmap of the old range, as move_vma() does them.
 */
void test_mremap(struct mm_struct *mm, unsigned long old_start,
		 unsigned long old_end, unsigned long new_start);
#endif

#ifdef REGISTRY_TEST_DISCOVERY
/*
 * mprotect() of [start, end), which must be mapped, to @flags, under the
 * mmap lock: the VMAs, then (to one with VM_EXEC) the registry's hook.
 */
void test_mprotect(struct mm_struct *mm, unsigned long start,
		   unsigned long end, unsigned long flags);
#endif

/*
 * What this thread took: write acquisitions of any mmap lock; acquisitions
 * of any mutex (the registry's own, unwind_user_lock, among them); the
 * sections in which an mm's VMAs or registry may change (a write
 * acquisition of its mmap lock, or its unwind_user_lock taken under the
 * read lock: see linux/mm_types.h), and the number of the last one in its
 * mm (mmap_lock.epoch).
 */
extern __thread unsigned long test_write_locks;
extern __thread unsigned long test_mutex_locks;
extern __thread unsigned long test_sections;
extern __thread unsigned long test_last_section;

/*
 * The work queued (queue_work()): run it all now, in this thread, and the
 * number of items run; the number of items queued.
 */
int test_run_work(void);
int test_work_queued(void);

/*
 * A thread that wants to know when another one waits for an mmap lock or a
 * mutex points that thread's test_lock_waiter at a struct test_waiter.
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
/* The warnings counted so far, which no longer count. */
long test_warnings_take(void);
/*
 * Keep the next block freed and hand it to the next allocation of its size,
 * as a slab reuses an object; test_alloc_reused() counts the times it did.
 */
void test_alloc_reuse_next(void);
long test_alloc_reused(void);
/* Make 1 in @ratio registry allocations fail in this thread (0: none). */
extern __thread unsigned int test_alloc_fail_ratio;
/*
 * The frame cache's allocations (kvzalloc_obj(), alloc_percpu_gfp()) tried
 * so far, in any thread; make the @n-th next one fail (0: none).
 */
long test_kvzalloc_calls(void);
void test_kvzalloc_fail_nth(long n);

/*
 * Maple tree node allocations (any gfp): fail the next @n of them in any
 * thread; and in this thread, 1 in @ratio of them (0: none).  Independent of
 * the harness's own switch, mt_set_non_kernel(), which only governs
 * allocations that may not sleep.
 */
void test_maple_fail_next(long n);
extern __thread unsigned int test_maple_fail_ratio;
/*
 * Make the @n-th next mas_store_gfp() of the registry fail with -ENOMEM, in
 * any thread (0: none): a store that needs no node, which no allocation
 * failure reaches.
 */
void test_store_fail_nth(long n);

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
int __real_mas_store_gfp(struct ma_state *mas, void *entry, gfp_t gfp);
int __wrap_mas_store_gfp(struct ma_state *mas, void *entry, gfp_t gfp);

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
