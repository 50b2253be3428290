// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of kernel/unwind/registry.c in user space, over the real maple tree
 * (lib/maple_tree.c through tools/testing/shared), its node allocations
 * failing on demand.  Each test runs in a child process: a crash (an
 * AddressSanitizer report of a double free, say) fails that test only.
 * Prints TAP.
 *
 *	registry-test [-v] [NAME...]
 *
 * runs the tests named, or all; -v prints the registry's messages.
 */
/* The harness' base headers (tools/testing/shared), which come first. */
#include <shared.h>

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sanitizer/lsan_interface.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/mm_types.h>
#include <linux/mmap_lock.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/stringify.h>

#include "regtest.h"

static int failures;

/* A sanitizer's report ends the test with this status. */
#define SANITIZER_EXIT	66

const char *__asan_default_options(void)
{
	return "exitcode=" __stringify(SANITIZER_EXIT);
}

const char *__ubsan_default_options(void)
{
	return "exitcode=" __stringify(SANITIZER_EXIT) ":print_stacktrace=1";
}

#define CHECK(cond, fmt, ...)						\
	do {								\
		if (!(cond)) {						\
			printf("# %s:%d: " fmt "\n", __func__, __LINE__, \
			       ##__VA_ARGS__);				\
			failures++;					\
		}							\
	} while (0)

#define PC(base)	((base) + 0x10)

static void exit_mm(struct mm_struct *mm)
{
	mmap_write_lock(mm);
	reg_exit_locked(mm);
	mmap_write_unlock(mm);
	test_mm_free(mm);
}

/* What every test ends with: nothing left, nothing freed twice. */
static void check_clean(void)
{
	test_rcu_barrier();
	CHECK(test_bad_frees() == 0, "%ld registry blocks freed twice",
	      test_bad_frees());
	CHECK(test_blocks_live() == 0, "%ld registry blocks not freed",
	      test_blocks_live());
	/* Maple nodes, entries, anything: LeakSanitizer's report. */
	CHECK(!__lsan_do_recoverable_leak_check(), "memory leaked");
	CHECK(test_warnings() == 0, "%ld warnings", test_warnings());
}

static struct mm_struct *mm_with_objs(int nr)
{
	struct mm_struct *mm = test_mm_new();
	int i, ret;

	for (i = 0; i < nr; i++) {
		test_obj_map(mm, OBJ_BASE(i));
		ret = reg_register(mm, OBJ_BASE(i));
		CHECK(ret == 0, "registering object %d: %d", i, ret);
	}
	return mm;
}

/*
 * ---- Defect 1: two removers of one entry, with node allocations failing ----
 *
 * Erasing an entry from the RCU-mode tree needs a new node.  With the
 * harness's switch at 0 (mt_set_non_kernel(0)) every allocation that may
 * not sleep fails, so the erase allocates again, as in the kernel when
 * memory is short.  The second allocation calls the harness' callback
 * (mt_set_callback()): there, in the first remover's window, the second
 * remover runs until it is done or waits for the mmap lock.  Each entry
 * must then be freed once and counted out once.
 */
enum op { OP_UNREGISTER, OP_MUNMAP, OP_DROP };

static const char *const op_names[] = { "unregister", "munmap", "drop" };

static int run_op(struct mm_struct *mm, enum op op, unsigned long base)
{
	switch (op) {
	case OP_UNREGISTER:
		return reg_unregister(mm, base);
	case OP_MUNMAP:
		test_munmap(mm, base, OBJ_DATA_END(base));
		return 0;
	case OP_DROP:
		/* The table is corrupt: the lookup drops it. */
		return reg_lookup(mm, PC(base));
	}
	return -EINVAL;
}

struct racer {
	struct mm_struct	*mm;
	unsigned long		base;
	enum op			op;
	int			ret;
	bool			go;
	bool			done;
	struct test_waiter	w;	/* its lock and cond guard go, done */
};

static struct racer racer;
static __thread bool window_armed;
static int window_entered;

static void *racer_thread(void *arg)
{
	struct racer *r = arg;

	rcu_register_thread();
	test_lock_waiter = &r->w;
	pthread_mutex_lock(&r->w.lock);
	while (!r->go)
		pthread_cond_wait(&r->w.cond, &r->w.lock);
	pthread_mutex_unlock(&r->w.lock);

	r->ret = run_op(r->mm, r->op, r->base);

	pthread_mutex_lock(&r->w.lock);
	r->done = true;
	pthread_cond_broadcast(&r->w.cond);
	pthread_mutex_unlock(&r->w.lock);
	rcu_unregister_thread();
	return NULL;
}

static void racer_go(struct racer *r)
{
	pthread_mutex_lock(&r->w.lock);
	r->go = true;
	pthread_cond_broadcast(&r->w.cond);
	pthread_mutex_unlock(&r->w.lock);
}

/*
 * The maple tree's allocation callback: a node allocation that may not
 * sleep failed, and this thread allocates again.  In the armed thread, let
 * the racer run through its operation, or until it waits for a lock.
 */
static void race_window(void *unused)
{
	struct racer *r = &racer;

	if (!window_armed)
		return;
	window_armed = false;
	window_entered++;
	racer_go(r);
	pthread_mutex_lock(&r->w.lock);
	while (!r->done && !r->w.waiting)
		pthread_cond_wait(&r->w.cond, &r->w.lock);
	pthread_mutex_unlock(&r->w.lock);
}

static void run_race(enum op first, enum op second)
{
	struct mm_struct *mm = mm_with_objs(3);
	unsigned long base = OBJ_BASE(1);
	pthread_t thread;
	int ret, n;

	if (first == OP_DROP || second == OP_DROP)
		test_table_set_corrupt(base, true);
	mt_set_non_kernel(0);

	racer = (struct racer){
		.mm = mm, .base = base, .op = second,
		.w = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER },
	};
	pthread_create(&thread, NULL, racer_thread, &racer);
	mt_set_callback(race_window);

	window_armed = true;
	ret = run_op(mm, first, base);
	window_armed = false;

	racer_go(&racer);
	pthread_join(thread, NULL);
	mt_set_callback(NULL);

	printf("# %s vs %s: %d, %d; registry count %ld\n", op_names[first],
	       op_names[second], ret, racer.ret, reg_count(mm));
	CHECK(window_entered == 1,
	      "the %s did not allocate again after a failed allocation",
	      op_names[first]);
	CHECK(reg_count(mm) == 2, "registry count %ld, want 2",
	      reg_count(mm));
	n = reg_contents(mm, NULL, 0);
	CHECK(n == 2, "%d entries in the tree, want 2", n);
	CHECK(reg_lookup(mm, PC(base)) == -ENOENT, "the entry is still found");
	if (first == OP_UNREGISTER && second == OP_UNREGISTER)
		CHECK((ret == 0) + (racer.ret == 0) == 1,
		      "unregister returned %d and %d: one must succeed", ret,
		      racer.ret);
	else if (first == OP_UNREGISTER)
		CHECK(ret == 0 || ret == -ENOENT, "unregister: %d", ret);
	else if (second == OP_UNREGISTER)
		CHECK(racer.ret == 0 || racer.ret == -ENOENT,
		      "unregister: %d", racer.ret);
	/* Counted when freed; AddressSanitizer reports it a grace period on. */
	CHECK(test_bad_frees() == 0, "the entry was freed %ld time(s) too many",
	      test_bad_frees());
	test_rcu_barrier();
	CHECK(test_blocks_live() == 2, "%ld entries allocated, want 2",
	      test_blocks_live());

	exit_mm(mm);
	check_clean();
}

static void test_race_unregister_unregister(void)
{
	run_race(OP_UNREGISTER, OP_UNREGISTER);
}

static void test_race_munmap_unregister(void)
{
	run_race(OP_MUNMAP, OP_UNREGISTER);
}

static void test_race_unregister_munmap(void)
{
	run_race(OP_UNREGISTER, OP_MUNMAP);
}

static void test_race_drop_unregister(void)
{
	run_race(OP_DROP, OP_UNREGISTER);
}

static void test_race_unregister_drop(void)
{
	run_race(OP_UNREGISTER, OP_DROP);
}

/*
 * ---- Defect 5: a stale lookup must not drop a new registration ----
 *
 * A lookup copies the entry of a corrupt table; before it drops it, the
 * object is unregistered and registered again at the same range.  The
 * lookup's drop must leave the new entry alone.  The lookup holds a
 * reference on its entry, so the new one cannot even get the old one's
 * memory (as a slab hands out the object it freed last) while it runs: the
 * test checks that too.
 */
static unsigned long reuse_second_serial;

static void reuse_hook(unsigned long text_start, unsigned long serial)
{
	struct reg_item item;
	int ret;

	test_lookup_hook = NULL;
	test_table_set_corrupt(text_start, false);
	test_alloc_reuse_next();
	ret = reg_unregister(current->mm, text_start);
	CHECK(ret == 0, "unregister in the lookup: %d", ret);
	test_rcu_barrier();		/* the entry is freed now */
	ret = reg_register(current->mm, text_start);
	CHECK(ret == 0, "register again in the lookup: %d", ret);
	/*
	 * The lookup holds a reference on the entry it copied: its memory
	 * cannot go to the new entry while the lookup runs.
	 */
	CHECK(test_alloc_reused() == 0,
	      "the entry was freed under the lookup that holds it");
	CHECK(reg_contents(current->mm, &item, 1) == 1 &&
	      item.serial != serial, "no new entry");
	reuse_second_serial = item.serial;
}

static void test_stale_drop_after_reuse(void)
{
	struct mm_struct *mm = mm_with_objs(1);
	unsigned long base = OBJ_BASE(0);
	struct reg_item item;
	int ret, n;

	test_table_set_corrupt(base, true);
	test_lookup_hook = reuse_hook;
	ret = reg_lookup(mm, PC(base));
	CHECK(ret == -EINVAL, "the lookup in the corrupt table: %d", ret);
	CHECK(!test_lookup_hook, "the lookup did not read the table");

	n = reg_contents(mm, &item, 1);
	CHECK(n == 1, "%d entries after the stale drop, want the new one", n);
	CHECK(n != 1 || item.serial == reuse_second_serial,
	      "the entry is not the new registration");
	CHECK(reg_count(mm) == 1, "registry count %ld, want 1", reg_count(mm));
	ret = reg_lookup(mm, PC(base));
	CHECK(ret == 0, "a lookup in the new registration: %d", ret);

	exit_mm(mm);
	check_clean();
}

/*
 * ---- The frame cache: every change of the registry invalidates it ----
 *
 * Lookups of one pc in turn, each naming the registration its frame came
 * from (registry_new.c's reader puts the serial in the frame, which the
 * cache keeps): after an unregister and a new registration at the same
 * address (dlclose + dlopen), after munmap and a new mapping, after a
 * corrupt table elsewhere was dropped, after an unregister alone, the
 * answer must be the registry's as it is now.
 */
static unsigned long cache_lookup(struct mm_struct *mm, unsigned long base,
				  int *ret)
{
	test_last_lookup_serial = 0;
	*ret = reg_lookup(mm, PC(base));
	return *ret ? 0 : test_last_lookup_serial;
}

static unsigned long serial_of(struct mm_struct *mm, unsigned long base)
{
	struct reg_item items[4];
	int i, n = reg_contents(mm, items, 4);

	for (i = 0; i < n && i < 4; i++)
		if (items[i].start == base)
			return items[i].serial;
	return 0;
}

/* Look @base up twice: the registration's serial, the second from the cache. */
static void expect_cached(struct mm_struct *mm, unsigned long base,
			  const char *when)
{
	unsigned long want = serial_of(mm, base), hits0, hits1, misses0, misses1;
	unsigned long got;
	int ret, have;

	/* The first frame found creates the cache: no miss counted then. */
	have = !reg_cache_stats(mm, &hits0, &misses0);
	if (!have) {
		hits0 = 0;
		misses0 = 0;
	}
	got = cache_lookup(mm, base, &ret);
	CHECK(ret == 0 && want && got == want,
	      "%s: lookup %d, registration %lu, want %lu", when, ret, got, want);
	CHECK(!reg_cache_stats(mm, &hits1, &misses1) &&
	      misses1 == misses0 + have && hits1 == hits0,
	      "%s: not a miss in the cache", when);
	got = cache_lookup(mm, base, &ret);
	CHECK(ret == 0 && got == want,
	      "%s, again: lookup %d, registration %lu, want %lu", when, ret, got, want);
	CHECK(!reg_cache_stats(mm, &hits1, &misses1) && hits1 == hits0 + 1,
	      "%s, again: not a hit in the cache", when);
}

static void test_cache_invalidation(void)
{
	struct mm_struct *mm = mm_with_objs(2);
	unsigned long base = OBJ_BASE(0), other = OBJ_BASE(1), s;
	int ret;

	expect_cached(mm, base, "registered");
	s = serial_of(mm, base);

	/* dlclose, dlopen of another object at the same address */
	CHECK(reg_unregister(mm, base) == 0, "unregister");
	test_munmap(mm, base, OBJ_DATA_END(base));
	test_obj_map(mm, base);
	CHECK(reg_register(mm, base) == 0, "register again");
	CHECK(serial_of(mm, base) != s, "the same registration");
	expect_cached(mm, base, "another object at the same address");

	/* munmap of the text alone drops the entry */
	s = serial_of(mm, base);
	test_munmap(mm, base, base + OBJ_TEXT_SIZE);
	CHECK(cache_lookup(mm, base, &ret) == 0 && ret == -ENOENT,
	      "after munmap: lookup %d, from registration %lu", ret, s);
	test_munmap(mm, base, OBJ_DATA_END(base));
	test_obj_map(mm, base);
	CHECK(reg_register(mm, base) == 0, "register after munmap");
	expect_cached(mm, base, "mapped and registered again");

	/* a corrupt table dropped: a change like any other */
	test_table_set_corrupt(other, true);
	CHECK(reg_lookup(mm, PC(other)) == -EINVAL, "corrupt table not dropped");
	test_table_set_corrupt(other, false);
	CHECK(reg_count(mm) == 1, "%ld entries after the drop", reg_count(mm));
	expect_cached(mm, base, "after a drop");

	/* unregister alone: the cached frame must not answer */
	s = serial_of(mm, base);
	CHECK(reg_unregister(mm, base) == 0, "unregister");
	CHECK(cache_lookup(mm, base, &ret) == 0 && ret == -ENOENT,
	      "after unregister: lookup %d, registration %lu cached", ret, s);

	/* exit frees the cache: LeakSanitizer would say otherwise */
	exit_mm(mm);
	check_clean();
}

/* ---- Fork shares the entries ---- */

static void check_refs(struct mm_struct *mm, int nr, int refs, const char *when)
{
	struct reg_item items[8];
	int i, n = reg_contents(mm, items, 8);

	CHECK(n == nr, "%s: %d entries, want %d", when, n, nr);
	for (i = 0; i < n && i < 8; i++)
		CHECK(items[i].refs == refs, "%s: %#lx has %d references, want %d",
		      when, items[i].start, items[i].refs, refs);
}

static void test_fork_shares(void)
{
	struct mm_struct *parent = mm_with_objs(3), *child = test_mm_new();
	struct reg_item pitems[3], citems[3];
	int i, ret;

	mmap_write_lock(parent);
	mmap_write_lock(child);
	ret = reg_fork_locked(child, parent);
	mmap_write_unlock(child);
	mmap_write_unlock(parent);
	CHECK(ret == 0, "fork: %d", ret);

	CHECK(reg_contents(parent, pitems, 3) == 3, "parent lost entries");
	CHECK(reg_contents(child, citems, 3) == 3, "child has not 3 entries");
	for (i = 0; i < 3; i++)
		CHECK(pitems[i].serial == citems[i].serial &&
		      citems[i].keyed, "child entry %d differs", i);
	CHECK(test_blocks_live() == 3, "%ld entries allocated: copied, not shared",
	      test_blocks_live());
	CHECK(reg_count(child) == 3, "child count %ld", reg_count(child));
	check_refs(parent, 3, 2, "after fork");

	/* The child's changes are its own. */
	CHECK(reg_unregister(child, OBJ_BASE(0)) == 0, "child unregister");
	test_munmap(child, OBJ_BASE(1), OBJ_DATA_END(OBJ_BASE(1)));
	CHECK(reg_lookup(child, PC(OBJ_BASE(0))) == -ENOENT, "child lookup 0");
	CHECK(reg_lookup(child, PC(OBJ_BASE(1))) == -ENOENT, "child lookup 1");
	CHECK(reg_lookup(child, PC(OBJ_BASE(2))) == 0, "child lookup 2");
	CHECK(reg_count(child) == 1, "child count %ld", reg_count(child));
	for (i = 0; i < 3; i++)
		CHECK(reg_lookup(parent, PC(OBJ_BASE(i))) == 0,
		      "parent lookup %d", i);
	CHECK(reg_count(parent) == 3, "parent count %ld", reg_count(parent));

	exit_mm(child);
	test_rcu_barrier();
	check_refs(parent, 3, 1, "after the child exited");
	CHECK(test_blocks_live() == 3, "%ld entries allocated, want 3",
	      test_blocks_live());
	for (i = 0; i < 3; i++)
		CHECK(reg_lookup(parent, PC(OBJ_BASE(i))) == 0,
		      "parent lookup %d after the child exited", i);

	/* A fork whose tree copy fails leaves the child empty. */
	child = test_mm_new();
	mmap_write_lock(parent);
	mmap_write_lock(child);
	test_maple_fail_next(1);
	ret = reg_fork_locked(child, parent);
	test_maple_fail_next(0);
	mmap_write_unlock(child);
	mmap_write_unlock(parent);
	CHECK(ret == -ENOMEM, "fork without memory: %d", ret);
	CHECK(reg_contents(child, NULL, 0) == 0, "child holds entries");
	exit_mm(child);
	test_rcu_barrier();
	check_refs(parent, 3, 1, "after a failed fork");

	exit_mm(parent);
	check_clean();
}

/*
 * ---- Removing without memory for the tree: tombstones ----
 *
 * Every node allocation fails, so an erase cannot get the node it needs;
 * the entry must still be gone for lookups, freed once, and its range be
 * free for a new registration.
 */

static void test_unregister_nomem(void)
{
	struct mm_struct *mm = mm_with_objs(3);
	struct reg_item items[3];
	int ret;

	test_maple_fail_next(LONG_MAX);
	ret = reg_unregister(mm, OBJ_BASE(1));
	test_maple_fail_next(0);
	CHECK(ret == 0, "unregister without memory: %d", ret);
	CHECK(reg_markers(mm) == 1,
	      "%d tombstones: the erase did not run out of memory",
	      reg_markers(mm));
	CHECK(reg_lookup(mm, PC(OBJ_BASE(1))) == -ENOENT,
	      "the unregistered entry is found");
	CHECK(reg_count(mm) == 2, "count %ld, want 2", reg_count(mm));
	CHECK(reg_contents(mm, items, 3) == 2, "not 2 entries");
	test_rcu_barrier();
	CHECK(test_blocks_live() == 2, "%ld entries allocated, want 2",
	      test_blocks_live());

	/* A registration over what is left there. */
	ret = reg_register(mm, OBJ_BASE(1));
	CHECK(ret == 0, "register again: %d", ret);
	CHECK(reg_lookup(mm, PC(OBJ_BASE(1))) == 0, "lookup after register");
	CHECK(reg_count(mm) == 3, "count %ld, want 3", reg_count(mm));
	CHECK(reg_contents(mm, items, 3) == 3 && items[1].keyed,
	      "the new entry is not in the tree as registered");
	CHECK(reg_markers(mm) == 0, "the tombstone is left");

	/* Unregister without memory again, then munmap over it. */
	test_maple_fail_next(LONG_MAX);
	ret = reg_unregister(mm, OBJ_BASE(1));
	test_maple_fail_next(0);
	CHECK(ret == 0, "unregister without memory: %d", ret);
	CHECK(reg_markers(mm) == 1, "no tombstone");
	CHECK(reg_unregister(mm, OBJ_BASE(1)) == -ENOENT,
	      "a second unregister succeeded");
	test_munmap(mm, OBJ_BASE(1), OBJ_DATA_END(OBJ_BASE(1)));
	CHECK(reg_markers(mm) == 0, "munmap left the tombstone");
	CHECK(reg_count(mm) == 2, "count %ld, want 2", reg_count(mm));
	test_obj_map(mm, OBJ_BASE(1));
	CHECK(reg_register(mm, OBJ_BASE(1)) == 0, "register after munmap");
	CHECK(reg_lookup(mm, PC(OBJ_BASE(1))) == 0, "lookup after munmap");

	exit_mm(mm);
	check_clean();
}

static void test_munmap_nomem(void)
{
	struct mm_struct *mm = mm_with_objs(4);
	int i;

	/* Without memory, over three entries and the gaps between them. */
	test_maple_fail_next(LONG_MAX);
	test_munmap(mm, OBJ_BASE(0), OBJ_DATA_END(OBJ_BASE(2)));
	test_maple_fail_next(0);
	CHECK(reg_markers(mm) == 3,
	      "%d tombstones: the erases did not run out of memory",
	      reg_markers(mm));
	for (i = 0; i < 3; i++)
		CHECK(reg_lookup(mm, PC(OBJ_BASE(i))) == -ENOENT,
		      "entry %d found after munmap", i);
	CHECK(reg_lookup(mm, PC(OBJ_BASE(3))) == 0, "entry 3 lost");
	CHECK(reg_count(mm) == 1, "count %ld, want 1", reg_count(mm));
	test_rcu_barrier();
	CHECK(test_blocks_live() == 1, "%ld entries allocated, want 1",
	      test_blocks_live());

	/* Map and register there again, then unmap it all with memory. */
	for (i = 0; i < 3; i++) {
		test_obj_map(mm, OBJ_BASE(i));
		CHECK(reg_register(mm, OBJ_BASE(i)) == 0, "register %d", i);
	}
	CHECK(reg_count(mm) == 4, "count %ld, want 4", reg_count(mm));
	CHECK(reg_markers(mm) == 0, "registering left tombstones");
	test_munmap(mm, 0, ULONG_MAX);
	CHECK(reg_count(mm) == 0, "count %ld after unmapping all",
	      reg_count(mm));
	CHECK(reg_contents(mm, NULL, 0) == 0, "entries after unmapping all");

	exit_mm(mm);
	check_clean();
}

/*
 * ---- Stress: threads register, unregister, unmap, map, look up (and drop
 * corrupt tables) and fork, with allocations failing at random ----
 *
 * Every change to the registry happens under the mmap lock held for
 * writing, and the shim numbers those (epochs).  Each operation records its
 * epoch and result; replayed in epoch order over a model (per object: is it
 * mapped, which registration is there), each result must be the one the
 * model predicts, and the final tree must equal the model.
 */
#define STRESS_OBJS	16
#define STRESS_CORRUPT	3	/* objects 0..2: lookups find them corrupt */
#define STRESS_WRITERS	3
#define STRESS_OPS	20000

enum stress_op { S_REGISTER, S_UNREGISTER, S_MUNMAP, S_MAP, S_LOOKUP, S_FORK };

struct stress_rec {
	unsigned long	epoch;		/* of the write section, or 0 */
	enum stress_op	op;
	int		obj;
	int		nr;		/* S_MUNMAP: objects unmapped */
	int		ret;
	unsigned long	serial;		/* registered, or looked up */
	unsigned long	snap[STRESS_OBJS];	/* S_FORK: the child's */
};

struct stress_thread {
	pthread_t		thread;
	unsigned int		seed;
	struct stress_rec	*recs;
	int			nr_recs;
	int			errors;
};

static struct mm_struct *stress_mm;
static volatile bool stress_stop;
/* 1 in this many node (entry) allocations of the writers fail; 0: none. */
static unsigned int stress_maple_fail, stress_alloc_fail;

/*
 * Between a lookup's copy of an entry and its drop, let the others run now
 * and then: that is where a drop can come too late.
 */
static void stress_lookup_hook(unsigned long text_start, unsigned long serial)
{
	if (test_rand() % 4 == 0)
		sched_yield();
}

/* A whole object mapped anew over whatever was there (MAP_FIXED). */
static void stress_map(struct mm_struct *mm, unsigned long base)
{
	mmap_write_lock(mm);
	test_vma_unmap(mm, base, OBJ_DATA_END(base));
	reg_unmap_locked(mm, base, OBJ_DATA_END(base));
	test_vma_map(mm, base, base + OBJ_TEXT_SIZE, VM_READ | VM_EXEC);
	test_vma_map(mm, base + OBJ_TEXT_SIZE, OBJ_DATA_END(base), VM_READ);
	mmap_write_unlock(mm);
}

static int obj_of(unsigned long addr)
{
	return (addr - OBJ_BASE(0)) / OBJ_STRIDE;
}

static void stress_fork(struct stress_rec *rec)
{
	struct mm_struct *child = test_mm_new();
	struct reg_item items[STRESS_OBJS];
	int i, n;

	mmap_write_lock(stress_mm);
	rec->epoch = stress_mm->mmap_lock.epoch;
	mmap_write_lock(child);
	rec->ret = reg_fork_locked(child, stress_mm);
	mmap_write_unlock(child);
	mmap_write_unlock(stress_mm);

	n = reg_contents(child, items, STRESS_OBJS);
	for (i = 0; i < n && i < STRESS_OBJS; i++)
		rec->snap[obj_of(items[i].start)] = items[i].serial;
	if (n > STRESS_OBJS)
		rec->snap[0] = ULONG_MAX;	/* cannot match */

	/* The child unregisters, unmaps and looks up a little, and exits. */
	reg_unregister(child, OBJ_BASE(test_rand() % STRESS_OBJS));
	test_munmap(child, OBJ_BASE(test_rand() % STRESS_OBJS),
		    OBJ_DATA_END(OBJ_BASE(test_rand() % STRESS_OBJS)));
	reg_lookup(child, PC(OBJ_BASE(test_rand() % STRESS_OBJS)));
	exit_mm(child);
}

static void *stress_writer(void *arg)
{
	struct stress_thread *t = arg;
	unsigned long locks;
	int i;

	rcu_register_thread();
	test_srand(t->seed);
	test_maple_fail_ratio = stress_maple_fail;
	test_alloc_fail_ratio = stress_alloc_fail;
	for (i = 0; i < STRESS_OPS; i++) {
		struct stress_rec *rec = &t->recs[t->nr_recs++];
		unsigned int r = test_rand() % 100;
		/* A third of the operations go to the corrupt tables. */
		int obj = test_rand() % 3 ? test_rand() % STRESS_OBJS :
					    test_rand() % STRESS_CORRUPT;
		unsigned long base = OBJ_BASE(obj);

		memset(rec, 0, sizeof(*rec));
		rec->obj = obj;
		if (r < 5) {
			rec->op = S_FORK;
			stress_fork(rec);
			continue;
		}
		locks = test_write_locks;
		test_last_lookup_serial = 0;
		if (r < 35) {
			rec->op = S_REGISTER;
			rec->ret = reg_register(stress_mm, base);
		} else if (r < 55) {
			rec->op = S_UNREGISTER;
			rec->ret = reg_unregister(stress_mm, base);
		} else if (r < 62) {
			rec->op = S_MUNMAP;
			rec->nr = 1 + test_rand() % 3;
			if (obj + rec->nr > STRESS_OBJS)
				rec->nr = STRESS_OBJS - obj;
			test_munmap(stress_mm, base,
				    OBJ_DATA_END(OBJ_BASE(obj + rec->nr - 1)));
		} else if (r < 75) {
			rec->op = S_MAP;
			stress_map(stress_mm, base);
		} else {
			rec->op = S_LOOKUP;
			rec->ret = reg_lookup(stress_mm, PC(base));
		}
		if (rec->op == S_REGISTER)
			rec->serial = test_table_last_serial;
		if (rec->op == S_LOOKUP)
			rec->serial = test_last_lookup_serial;
		if (test_write_locks - locks > 1) {
			printf("# %s took the mmap lock %lu times\n",
			       rec->op == S_REGISTER ? "register" : "an operation",
			       test_write_locks - locks);
			t->errors++;
		}
		if (test_write_locks != locks)
			rec->epoch = test_last_write_epoch;
	}
	rcu_unregister_thread();
	return NULL;
}

/* Lookups of healthy objects, all along: RCU readers of what is freed. */
static void *stress_reader(void *arg)
{
	struct stress_thread *t = arg;
	int ret;

	rcu_register_thread();
	test_srand(t->seed);
	while (!__atomic_load_n(&stress_stop, __ATOMIC_ACQUIRE)) {
		ret = reg_lookup(stress_mm, PC(OBJ_BASE(STRESS_CORRUPT +
			test_rand() % (STRESS_OBJS - STRESS_CORRUPT))));
		if (ret && ret != -ENOENT) {
			printf("# lookup of a healthy table: %d\n", ret);
			t->errors++;
		}
	}
	rcu_unregister_thread();
	return NULL;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct stress_rec *x = *(struct stress_rec *const *)a;
	const struct stress_rec *y = *(struct stress_rec *const *)b;

	return x->epoch < y->epoch ? -1 : x->epoch > y->epoch;
}

struct model {
	bool		mapped[STRESS_OBJS];
	unsigned long	serial[STRESS_OBJS];	/* registered there, or 0 */
};

/* Check @rec against the model and apply it: false if it contradicts it. */
static bool model_apply(struct model *m, const struct stress_rec *rec)
{
	int i, obj = rec->obj;

	switch (rec->op) {
	case S_REGISTER:
		if (!rec->epoch)	/* refused before the write lock */
			return rec->ret == -ENOMEM;
		if (rec->ret == 0) {
			if (!m->mapped[obj] || m->serial[obj])
				return false;
			m->serial[obj] = rec->serial;
			return true;
		}
		if (rec->ret == -EEXIST)
			return m->serial[obj] != 0;
		/* An unmapped range, or no memory for the entry or the tree. */
		return rec->ret == -ENOMEM && !m->serial[obj];
	case S_UNREGISTER:
		if (!rec->epoch)
			return false;
		if (rec->ret == 0 && m->serial[obj]) {
			m->serial[obj] = 0;
			return true;
		}
		return rec->ret == -ENOENT && !m->serial[obj];
	case S_MUNMAP:
		for (i = obj; i < obj + rec->nr; i++) {
			m->mapped[i] = false;
			m->serial[i] = 0;
		}
		return true;
	case S_MAP:
		m->mapped[obj] = true;
		m->serial[obj] = 0;
		return true;
	case S_LOOKUP:
		if (rec->ret == 0)
			return !rec->epoch && obj >= STRESS_CORRUPT;
		if (rec->ret == -ENOENT)
			return !rec->epoch;
		if (rec->ret != -EINVAL || obj >= STRESS_CORRUPT ||
		    !rec->epoch || !rec->serial)
			return false;
		/* The drop removes the entry the lookup saw, no other. */
		if (m->serial[obj] == rec->serial)
			m->serial[obj] = 0;
		return true;
	case S_FORK:
		for (i = 0; i < STRESS_OBJS; i++)
			if (rec->snap[i] != (rec->ret ? 0 : m->serial[i]))
				return false;
		return rec->ret == 0 || rec->ret == -ENOMEM;
	}
	return false;
}

static const char *const stress_op_names[] = {
	"register", "unregister", "munmap", "map", "lookup", "fork",
};

/* @rec contradicts the model @m, before it. */
static void stress_report(const struct stress_rec *rec, const struct model *m)
{
	int i;

	printf("# write section %lu: %s", rec->epoch,
	       stress_op_names[rec->op]);
	if (rec->op == S_FORK) {
		printf(" returned %d; child, model:", rec->ret);
		for (i = 0; i < STRESS_OBJS; i++)
			printf(" %lu,%lu", rec->snap[i], m->serial[i]);
		printf("\n");
		return;
	}
	printf(" of object %d returned %d (table %lu); model: table %lu, %s\n",
	       rec->obj, rec->ret, rec->serial, m->serial[rec->obj],
	       m->mapped[rec->obj] ? "mapped" : "not mapped");
}

static void stress_round(unsigned int maple_fail, unsigned int alloc_fail)
{
	struct stress_thread threads[STRESS_WRITERS + 1] = {};
	struct stress_thread *reader = &threads[STRESS_WRITERS];
	struct stress_rec **all;
	struct reg_item items[STRESS_OBJS + 1];
	struct model m = {};
	int i, j, n, nr = 0, bad = 0, dropped = 0, stale = 0, nomem = 0;
	int ops[6] = {};

	stress_maple_fail = maple_fail;
	stress_alloc_fail = alloc_fail;
	stress_stop = false;
	stress_mm = mm_with_objs(STRESS_OBJS);
	for (i = 0; i < STRESS_OBJS; i++) {
		m.mapped[i] = true;
		if (i < STRESS_CORRUPT)
			test_table_set_corrupt(OBJ_BASE(i), true);
	}
	n = reg_contents(stress_mm, items, STRESS_OBJS);
	for (i = 0; i < n && i < STRESS_OBJS; i++)
		m.serial[obj_of(items[i].start)] = items[i].serial;
	mt_set_non_kernel(0);
	test_lookup_hook = stress_lookup_hook;

	for (i = 0; i <= STRESS_WRITERS; i++) {
		threads[i].seed = 0x9e3779b9U * (i + 1);
		threads[i].recs = calloc(STRESS_OPS, sizeof(struct stress_rec));
		if (!threads[i].recs)
			abort();
	}
	pthread_create(&reader->thread, NULL, stress_reader, reader);
	for (i = 0; i < STRESS_WRITERS; i++)
		pthread_create(&threads[i].thread, NULL, stress_writer,
			       &threads[i]);
	for (i = 0; i < STRESS_WRITERS; i++)
		pthread_join(threads[i].thread, NULL);
	__atomic_store_n(&stress_stop, true, __ATOMIC_RELEASE);
	pthread_join(reader->thread, NULL);

	all = calloc(STRESS_WRITERS * STRESS_OPS, sizeof(*all));
	if (!all)
		abort();
	for (i = 0; i <= STRESS_WRITERS; i++) {
		CHECK(threads[i].errors == 0, "thread %d: %d errors", i,
		      threads[i].errors);
		for (j = 0; j < threads[i].nr_recs; j++)
			all[nr++] = &threads[i].recs[j];
	}
	qsort(all, nr, sizeof(*all), rec_cmp);
	for (i = 0; i < nr; i++) {
		const struct stress_rec *rec = all[i];

		if (i && rec->epoch && rec->epoch == all[i - 1]->epoch) {
			printf("# two operations in write section %lu\n",
			       rec->epoch);
			bad++;
		}
		ops[rec->op]++;
		if (rec->op == S_LOOKUP && rec->ret == -EINVAL) {
			if (rec->serial == m.serial[rec->obj])
				dropped++;
			else if (m.serial[rec->obj])
				stale++;
		}
		if (rec->ret == -ENOMEM)
			nomem++;
		if (!model_apply(&m, rec) && bad++ < 5)
			stress_report(rec, &m);
	}
	CHECK(bad == 0, "%d operations against the model", bad);

	test_rcu_barrier();
	n = reg_contents(stress_mm, items, STRESS_OBJS + 1);
	for (i = 0, j = 0; i < STRESS_OBJS; i++) {
		if (!m.serial[i])
			continue;
		CHECK(j < n && items[j].start == OBJ_BASE(i) &&
		      items[j].serial == m.serial[i] && items[j].keyed,
		      "object %d: the tree does not hold registration %lu", i,
		      m.serial[i]);
		j++;
	}
	CHECK(n == j, "%d entries in the tree, the model has %d", n, j);
	CHECK(reg_count(stress_mm) == j, "registry count %ld, model %d",
	      reg_count(stress_mm), j);
	CHECK(test_blocks_live() == j, "%ld entries allocated, model %d",
	      test_blocks_live(), j);
	printf("# %d operations: %d register, %d unregister, %d munmap, ",
	       nr, ops[S_REGISTER], ops[S_UNREGISTER], ops[S_MUNMAP]);
	printf("%d map, %d lookup, %d fork; %d -ENOMEM\n", ops[S_MAP],
	       ops[S_LOOKUP], ops[S_FORK], nomem);
	printf("# %d corrupt tables dropped, %d drops came after a new ",
	       dropped, stale);
	printf("registration; %d entries left\n", n);

	exit_mm(stress_mm);
	check_clean();
	for (i = 0; i <= STRESS_WRITERS; i++)
		free(threads[i].recs);
	free(all);
}

/*
 * Node allocations that may not sleep always fail (mt_set_non_kernel(0));
 * of the others none, some, or many.
 */
static void test_stress(void)
{
	printf("# no other allocation fails\n");
	stress_round(0, 0);
	printf("# 1 in 16 node allocations fails, 1 in 32 entries\n");
	stress_round(16, 32);
	printf("# 1 in 3 node allocations fails, 1 in 8 entries\n");
	stress_round(3, 8);
}

/* ---- the runner ---- */

struct test {
	const char	*name;
	void		(*fn)(void);
};

static const struct test tests[] = {
	{ "race_unregister_unregister", test_race_unregister_unregister },
	{ "race_munmap_unregister", test_race_munmap_unregister },
	{ "race_unregister_munmap", test_race_unregister_munmap },
	{ "race_drop_unregister", test_race_drop_unregister },
	{ "race_unregister_drop", test_race_unregister_drop },
	{ "stale_drop_after_reuse", test_stale_drop_after_reuse },
	{ "fork_shares", test_fork_shares },
	{ "cache_invalidation", test_cache_invalidation },
	{ "unregister_nomem", test_unregister_nomem },
	{ "munmap_nomem", test_munmap_nomem },
	{ "stress", test_stress },
};

#define NR_TESTS	(sizeof(tests) / sizeof(tests[0]))

/* In a child: a crash or a hang fails this test, not the run. */
static bool run_test(const struct test *t)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return false;
	}
	if (!pid) {
		/* What it found before a sanitizer ends it must be seen. */
		setvbuf(stdout, NULL, _IOLBF, 0);
		alarm(120);
		rcu_register_thread();
		maple_tree_init();
		t->fn();
		rcu_unregister_thread();
		fflush(stdout);
		_exit(failures ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		return false;
	}
	if (WIFSIGNALED(status))
		printf("# %s: killed by signal %d%s\n", t->name,
		       WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
	else if (WEXITSTATUS(status) == SANITIZER_EXIT)
		printf("# %s: a sanitizer's report (on stderr)\n", t->name);
	else if (WEXITSTATUS(status) > 1)
		printf("# %s: exit status %d\n", t->name, WEXITSTATUS(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv)
{
	const struct test *run[NR_TESTS];
	unsigned int i, j, nr = 0, failed = 0;
	struct timespec t0, t1;

	if (argc > 1 && !strcmp(argv[1], "-v")) {
		setenv("REGTEST_VERBOSE", "1", 1);
		argc--;
		argv++;
	}
	for (i = 0; i < NR_TESTS; i++) {
		bool want = argc < 2;

		for (j = 1; j < (unsigned int)argc; j++)
			want |= !strcmp(argv[j], tests[i].name);
		if (want)
			run[nr++] = &tests[i];
	}

	printf("TAP version 13\n# registry: %s\n1..%u\n", reg_version, nr);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < nr; i++) {
		bool ok = run_test(run[i]);

		printf("%s %u - %s\n", ok ? "ok" : "not ok", i + 1,
		       run[i]->name);
		failed += !ok;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# %u of %u failed in %.1f s\n", failed, nr,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return failed ? 1 : 0;
}
