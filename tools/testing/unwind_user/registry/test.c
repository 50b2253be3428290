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
 * runs the tests named, or all of them; -v prints the registry's messages.
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

#include <linux/jiffies.h>
#include <linux/kmod.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/mmap_lock.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/stringify.h>
#include <linux/uaccess.h>

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
 * remover runs until it is done or waits for a lock (the mmap lock, or the
 * registry's own, which an unregister takes under the mmap read lock).
 * Each entry must then be freed once and counted out once.
 *
 * A lookup that finds the table corrupt (the drop) used to erase the entry
 * too; now it marks it dead in its own mm's tree, under the registry's
 * lock as discovery takes it (the mmap lock for reading, then the tree's
 * own), never the mmap lock for writing.  Its window is then between the
 * lookup's copy of the entry and its verdict (the lookup hook); as the
 * second operation it waits for the first one's registry lock, and finds
 * the entry gone.
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
	unsigned long		locks;	/* mmap write locks its operation took */
	unsigned long		mutexes;	/* and mutexes */
	bool			go;
	bool			done;
	struct test_waiter	w;	/* its lock and cond guard go, done */
};

static struct racer racer;
static __thread bool window_armed;
static int window_entered;
static bool window_racer_done;	/* the racer was done when the window closed */

static void *racer_thread(void *arg)
{
	struct racer *r = arg;

	rcu_register_thread();
	test_lock_waiter = &r->w;
	pthread_mutex_lock(&r->w.lock);
	while (!r->go)
		pthread_cond_wait(&r->w.cond, &r->w.lock);
	pthread_mutex_unlock(&r->w.lock);

	r->locks = test_write_locks;
	r->mutexes = test_mutex_locks;
	r->ret = run_op(r->mm, r->op, r->base);
	r->locks = test_write_locks - r->locks;
	r->mutexes = test_mutex_locks - r->mutexes;

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
	window_racer_done = r->done;
	pthread_mutex_unlock(&r->w.lock);
}

/* The drop's window: its lookup has copied the entry, found it corrupt. */
static void drop_window(unsigned long text_start, unsigned long serial)
{
	race_window(NULL);
}

static void run_race(enum op first, enum op second)
{
	struct mm_struct *mm = mm_with_objs(3);
	unsigned long base = OBJ_BASE(1), locks, mutexes;
	pthread_t thread;
	int ret, n;

	/*
	 * The table's index is built first, by a lookup elsewhere in it: a
	 * build takes the registry's lock (registry_index_room(); older
	 * registries the mmap lock for reading), the drop that follows none.
	 */
	if (first == OP_DROP || second == OP_DROP) {
		CHECK(reg_lookup(mm, PC(base) + 1) == 0, "the first lookup");
		test_table_set_corrupt(base, true);
	}
	mt_set_non_kernel(0);

	racer = (struct racer){
		.mm = mm, .base = base, .op = second,
		.w = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER },
	};
	pthread_create(&thread, NULL, racer_thread, &racer);
	mt_set_callback(race_window);
	if (first == OP_DROP)
		test_lookup_hook = drop_window;

	window_armed = true;
	locks = test_write_locks;
	mutexes = test_mutex_locks;
	ret = run_op(mm, first, base);
	locks = test_write_locks - locks;
	mutexes = test_mutex_locks - mutexes;
	window_armed = false;
	test_lookup_hook = NULL;

	racer_go(&racer);
	pthread_join(thread, NULL);
	mt_set_callback(NULL);

	printf("# %s vs %s: %d, %d; registry count %ld\n", op_names[first],
	       op_names[second], ret, racer.ret, reg_count(mm));
	CHECK(window_entered == 1, "the %s did not %s", op_names[first],
	      first == OP_DROP ? "read the table" :
	      "allocate again after a failed allocation");
	if (first == OP_DROP) {
		CHECK(ret == -EINVAL, "drop: %d", ret);
		CHECK(!locks, "the drop took the mmap lock %lu times", locks);
		CHECK(mutexes <= 1, "the drop took a mutex %lu times", mutexes);
	}
	if (second == OP_DROP) {
		CHECK(racer.ret == -EINVAL || racer.ret == -ENOENT, "drop: %d",
		      racer.ret);
		CHECK(!racer.locks, "the drop took the mmap lock %lu times",
		      racer.locks);
		CHECK(racer.mutexes <= 1, "the drop took a mutex %lu times",
		      racer.mutexes);
	}
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

#ifndef REGISTRY_TEST_OLD
/*
 * Not against the old registry: it passes there.  In this order its drop,
 * which erased the entry after the lookup, finds it gone and does nothing;
 * the two removers this test had it race need the drop to remove, which
 * it no longer does.  What it checks now (the drop takes the mmap lock
 * for reading at most, and the entry is freed once, by the remover) holds
 * there too.
 */
static void test_race_drop_unregister(void)
{
	run_race(OP_DROP, OP_UNREGISTER);
}
#endif

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
 * ---- The frame cache: every removal from the registry invalidates it ----
 *
 * Lookups of one pc in turn, each naming the registration its frame came
 * from (registry_new.c's reader puts the serial in the frame, which the
 * cache keeps): after an unregister and a new registration at the same
 * address (dlclose + dlopen), after munmap and a new mapping, after an
 * unregister alone, the answer must be the registry's as it is now.  A
 * corrupt table elsewhere, dropped, removes nothing: it is marked dead
 * (until its range is unmapped), which no cached frame depends on, and
 * the frames cached stay good.
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

#ifdef REGISTRY_TEST_DISCOVERY
/*
 * Look @base up once: the registration's serial, from the cache.  For the
 * tests of discovery.
 */
static void expect_hit(struct mm_struct *mm, unsigned long base,
		       const char *when)
{
	unsigned long want = serial_of(mm, base), hits0, hits1, misses0, misses1;
	unsigned long got;
	int ret;

	CHECK(!reg_cache_stats(mm, &hits0, &misses0), "%s: no cache", when);
	got = cache_lookup(mm, base, &ret);
	CHECK(ret == 0 && want && got == want,
	      "%s: lookup %d, registration %lu, want %lu", when, ret, got, want);
	CHECK(!reg_cache_stats(mm, &hits1, &misses1) && hits1 == hits0 + 1 &&
	      misses1 == misses0, "%s: not a hit in the cache", when);
}
#endif

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

	/*
	 * A corrupt table dropped: marked dead, it stays in the tree (and
	 * counts) until unmapped, and the mm's cached frames go with a new
	 * generation, taken without the mmap lock.
	 */
	test_table_set_corrupt(other, true);
	CHECK(reg_lookup(mm, PC(other)) == -EINVAL, "corrupt table not dropped");
	test_table_set_corrupt(other, false);
	CHECK(reg_count(mm) == 2, "%ld entries after the drop, want 2",
	      reg_count(mm));
	CHECK(reg_lookup(mm, PC(other)) == -ENOENT, "the dropped table is used");
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
 * Every change to the registry's tree happens in a section that excludes
 * every other: under the mmap lock held for writing, or under the mmap
 * lock for reading and the registry's own lock (older registries: always
 * the former), and the shim numbers those sections (epochs).  Each
 * operation records its epoch and result; replayed in epoch order over a
 * model (per object: is it mapped, which registration is there), each
 * result must be the one the model predicts, and the final tree must equal
 * the model.
 *
 * A drop is a section of its own: it marks the entry dead, which stays in
 * the tree, and a registration replaces a dead entry where it would meet
 * -EEXIST over a live one.  A lookup that found its table corrupt records
 * its drop's section: a registration replaces the entry from the next
 * section on.  A child's drop marks the entry dead in the child's tree
 * only (a copy takes its place there): stress_mm's stays.
 */
#define STRESS_OBJS	16
#define STRESS_CORRUPT	3	/* objects 0..2: lookups find them corrupt */
#define STRESS_WRITERS	3
#define STRESS_OPS	20000

enum stress_op { S_REGISTER, S_UNREGISTER, S_MUNMAP, S_MAP, S_LOOKUP, S_FORK };

struct stress_rec {
	unsigned long	epoch;		/* of its section, or 0 */
	/*
	 * S_LOOKUP, and the lookup of an S_FORK's child: the sections of
	 * stress_mm begun before it, and once it was done; the child's
	 * result and the table it saw (it shares the parent's entries).
	 */
	unsigned long	before, after;
	int		child_ret;
	unsigned long	child_serial;
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
static bool stress_stop;	/* __atomic_*() while the threads run */
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

/* The sections of stress_mm begun so far. */
static unsigned long stress_epoch(void)
{
	return __atomic_load_n(&stress_mm->mmap_lock.epoch, __ATOMIC_ACQUIRE);
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
	test_last_lookup_serial = 0;
	rec->before = stress_epoch();
	rec->child_ret = reg_lookup(child,
				    PC(OBJ_BASE(test_rand() % STRESS_OBJS)));
	rec->after = stress_epoch();
	rec->child_serial = test_last_lookup_serial;
	exit_mm(child);
}

static void *stress_writer(void *arg)
{
	struct stress_thread *t = arg;
	unsigned long sections;
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
		sections = test_sections;
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
			rec->before = stress_epoch();
			rec->ret = reg_lookup(stress_mm, PC(base));
			rec->after = stress_epoch();
		}
		if (rec->op == S_REGISTER)
			rec->serial = test_table_last_serial;
		if (rec->op == S_LOOKUP)
			rec->serial = test_last_lookup_serial;
		if (test_sections - sections > 1) {
			printf("# %s took %lu sections\n",
			       rec->op == S_REGISTER ? "register" : "an operation",
			       test_sections - sections);
			t->errors++;
		}
		if (test_sections != sections)
			rec->epoch = test_last_section;
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

/* A lookup that found the table @serial corrupt, and when. */
struct stress_drop {
	unsigned long	serial;
	unsigned long	before, after;
};

struct model {
	bool		mapped[STRESS_OBJS];
	unsigned long	serial[STRESS_OBJS];	/* registered there, or 0 */
	/* The drops in stress_mm (a child's leave its entries alone). */
	struct stress_drop *drops;
	int		nr_drops;
	int		replaced;		/* dead entries registered over */
	/*
	 * Entry allocations fail: so may a drop's, of the copy that takes the
	 * place of an entry a child shares, and then it drops nothing.
	 */
	bool		drop_may_fail;
};

/*
 * Did a drop of the entry @serial begin before write section @epoch ended
 * (it began after @before sections had begun, and the lock does not keep
 * it out of section @before), or (@surely) end before that section began?
 */
static bool model_dropped(const struct model *m, unsigned long serial,
			  unsigned long epoch, bool surely)
{
	int i;

	for (i = 0; i < m->nr_drops; i++)
		if (m->drops[i].serial == serial &&
		    (surely ? m->drops[i].after < epoch :
			      m->drops[i].before <= epoch))
			return true;
	return false;
}

/* Check @rec against the model and apply it: false if it contradicts it. */
static bool model_apply(struct model *m, const struct stress_rec *rec)
{
	int i, obj = rec->obj;

	switch (rec->op) {
	case S_REGISTER:
		if (!rec->epoch)	/* refused before its section */
			return rec->ret == -ENOMEM;
		/* Over a live entry: -EEXIST; over a dead one, in its place. */
		if (m->serial[obj] && rec->ret == -EEXIST)
			return !model_dropped(m, m->serial[obj], rec->epoch,
					      true) || m->drop_may_fail;
		if (m->serial[obj] &&
		    !model_dropped(m, m->serial[obj], rec->epoch, false))
			return false;
		if (m->serial[obj])
			m->replaced++;
		if (rec->ret == 0) {
			if (!m->mapped[obj])
				return false;
			m->serial[obj] = rec->serial;
			return true;
		}
		/*
		 * An unmapped range, or no memory for the entry or the tree
		 * (the dead entry went all the same).
		 */
		m->serial[obj] = 0;
		return rec->ret == -ENOMEM;
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
		/* Without a section, but to drop. */
		if (rec->ret == 0)
			return !rec->epoch && obj >= STRESS_CORRUPT;
		if (rec->ret == -ENOENT)
			return !rec->epoch;
		return rec->ret == -EINVAL && obj < STRESS_CORRUPT &&
		       rec->epoch && rec->serial;
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

	printf("# section %lu: %s", rec->epoch,
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
	struct model m = { .drop_may_fail = alloc_fail != 0 };
	int i, j, n, nr = 0, bad = 0, nomem = 0;
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
	m.drops = calloc(STRESS_WRITERS * STRESS_OPS, sizeof(*m.drops));
	if (!all || !m.drops)
		abort();
	for (i = 0; i <= STRESS_WRITERS; i++) {
		CHECK(threads[i].errors == 0, "thread %d: %d errors", i,
		      threads[i].errors);
		for (j = 0; j < threads[i].nr_recs; j++) {
			struct stress_rec *rec = &threads[i].recs[j];

			all[nr++] = rec;
			if (rec->op == S_LOOKUP && rec->ret == -EINVAL)
				m.drops[m.nr_drops++] = (struct stress_drop){
					rec->serial, rec->epoch, rec->epoch,
				};
		}
	}
	qsort(all, nr, sizeof(*all), rec_cmp);
	for (i = 0; i < nr; i++) {
		const struct stress_rec *rec = all[i];

		if (i && rec->epoch && rec->epoch == all[i - 1]->epoch) {
			printf("# two operations in section %lu\n",
			       rec->epoch);
			bad++;
		}
		ops[rec->op]++;
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
	printf("# %d lookups dropped a corrupt table, %d registrations ",
	       m.nr_drops, m.replaced);
	printf("replaced one; %d entries left\n", n);

	exit_mm(stress_mm);
	check_clean();
	for (i = 0; i <= STRESS_WRITERS; i++)
		free(threads[i].recs);
	free(all);
	free(m.drops);
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

/*
 * ---- A corrupt table: dropped without the mmap lock, kept until unmapped
 * or registered over ----
 *
 * A lookup that finds a table corrupt marks its entry dead: lookups skip it
 * from then on, without the mmap write lock and without looking for the
 * table again; the entry stays in the tree (and in /proc, "dropped") until
 * its range is unmapped, or user space registers the object again.  Runs
 * against the old registry too, which erased the entry under the lock.
 */
static void test_dead_entry(void)
{
	struct mm_struct *mm = mm_with_objs(2);
	unsigned long base = OBJ_BASE(0), locks, s;
	struct reg_item items[2];
	int ret;
#ifdef REGISTRY_TEST_DISCOVERY
	long long gen = reg_generation(mm);
	long calls = reg_discover_calls();
	char buf[512], line[128];
#endif

	test_table_set_corrupt(base, true);
	locks = test_write_locks;
	ret = reg_lookup(mm, PC(base));
	CHECK(ret == -EINVAL, "the lookup in the corrupt table: %d", ret);
	CHECK(test_write_locks == locks, "the drop took the mmap lock");
	test_table_set_corrupt(base, false);
	CHECK(reg_count(mm) == 2, "%ld entries after the drop, want 2",
	      reg_count(mm));
	CHECK(reg_contents(mm, items, 2) == 2 && items[0].start == base &&
	      items[0].dead && !items[1].dead, "the entry is not kept, dead");

	/* Skipped, though the table would read well now. */
	ret = reg_lookup(mm, PC(base));
	CHECK(ret == -ENOENT, "a lookup in the dropped table: %d", ret);
	CHECK(test_write_locks == locks, "a lookup took the mmap lock");
	CHECK(reg_lookup(mm, PC(OBJ_BASE(1))) == 0, "the other table lost");
#ifdef REGISTRY_TEST_DISCOVERY
	CHECK(reg_discover_calls() == calls, "a dropped table was looked for");
	/* The frames cached from it go (without the lock: see the drop). */
	CHECK(reg_generation(mm) == gen + 1,
	      "the drop made no new generation");
	reg_show(mm, buf, sizeof(buf));
	snprintf(line, sizeof(line), "%lx-%lx prctl dropped\n", base,
		 base + OBJ_TEXT_SIZE);
	CHECK(strstr(buf, line), "/proc shows:\n%s", buf);
#endif

	/* User space registers it again: the new entry takes its place. */
	s = serial_of(mm, base);
	ret = reg_register(mm, base);
	CHECK(ret == 0, "registering over the dropped table: %d", ret);
	CHECK(serial_of(mm, base) != s, "the dropped entry is still there");
	CHECK(reg_lookup(mm, PC(base)) == 0, "a lookup in the new table");
	CHECK(reg_count(mm) == 2, "%ld entries, want 2", reg_count(mm));
#ifdef REGISTRY_TEST_DISCOVERY
	CHECK(reg_generation(mm) == gen + 2,
	      "the dropped entry went without a new generation");
#endif

	/* Dropped again (at a pc not cached), then unmapped: gone, freed. */
	test_table_set_corrupt(base, true);
	CHECK(reg_lookup(mm, PC(base) + 1) == -EINVAL, "not dropped");
	test_table_set_corrupt(base, false);
	test_munmap(mm, base, OBJ_DATA_END(base));
	CHECK(reg_count(mm) == 1, "%ld entries after munmap, want 1",
	      reg_count(mm));
	CHECK(reg_contents(mm, items, 2) == 1 && items[0].start == OBJ_BASE(1),
	      "munmap left the dropped entry");
	test_rcu_barrier();
	CHECK(test_blocks_live() == 1, "%ld entries allocated, want 1",
	      test_blocks_live());

	exit_mm(mm);
	check_clean();
}

#ifndef REGISTRY_TEST_OLD
/*
 * The tests below are of what the old registry of da05eb2 does not have
 * (index builds, their cap, the frame cache, mremap).  They fail on the
 * registry of 6d475fa79 (`make run_prev`), each for the defect it names.
 */

static struct mm_struct *mm_with_maps(int nr)
{
	struct mm_struct *mm = test_mm_new();
	int i;

	for (i = 0; i < nr; i++)
		test_obj_map(mm, OBJ_BASE(i));
	return mm;
}

static struct reg_item item_of(struct mm_struct *mm, unsigned long base)
{
	struct reg_item items[128], none = {};
	int i, n = reg_contents(mm, items, ARRAY_SIZE(items));

	for (i = 0; i < n && i < (int)ARRAY_SIZE(items); i++)
		if (items[i].start == base)
			return items[i];
	return none;
}

/*
 * ---- Index builds: paid by the walk, their failures remembered ----
 *
 * A table without a header is of no use until the kernel has indexed it,
 * which reads all of it.  A build that failed for a reason that may pass
 * (-EFAULT, -ENOMEM, -EINTR, -ENOSPC) was tried again at every lookup, and
 * outside the walk's budget: one sample through 510 frames of a static
 * executable whose .eh_frame faults on its last page read all of it 510
 * times.  Now a walk pays for what a build reads, with all it has left if
 * need be; a failure stays until the mm's registry changes.
 */
#define WALK_FRAMES	510
/* The largest bare .eh_frame eh_frame.c indexes, failing on its last page. */
#define BIG_TABLE_READ	((unsigned long)SZ_32M - SZ_4K)
/* What a build costs the walk: a unit per 64 bytes read (registry.c). */
#define READ_COST(bytes)	(((bytes) + 63) / 64)

struct walk {
	long			builds;		/* of indexes, in the walk */
	unsigned long long	read;		/* by those builds */
	unsigned int		left;		/* of the walk's budget */
	int			found;		/* frames */
	int			unsupported;	/* lookups: -EOPNOTSUPP */
	int			other;		/* lookups: another error */
};

static unsigned long walk_pcs[WALK_FRAMES];
static int walk_rets[WALK_FRAMES];

/* @nr pcs, the i-th in the text of @bases[i % @nr_bases], all different. */
static void walk_fill(const unsigned long *bases, int nr_bases, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		walk_pcs[i] = PC(bases[i % nr_bases]) + i / nr_bases;
}

/* The walk of walk_pcs[0..@nr): what it built, what it found. */
static struct walk walk(struct mm_struct *mm, int nr)
{
	long builds = test_index_builds();
	unsigned long long read = test_index_read();
	struct walk w = {};
	int i;

	w.left = reg_walk(mm, walk_pcs, nr, walk_rets);
	w.builds = test_index_builds() - builds;
	w.read = test_index_read() - read;
	for (i = 0; i < nr; i++) {
		w.found += !walk_rets[i];
		w.unsupported += walk_rets[i] == -EOPNOTSUPP;
		w.other += walk_rets[i] && walk_rets[i] != -EOPNOTSUPP;
	}
	return w;
}

static const char *errno_name(int err)
{
	switch (err) {
	case -EFAULT:
		return "-EFAULT";
	case -ENOMEM:
		return "-ENOMEM";
	case -EINTR:
		return "-EINTR";
	case -ENOSPC:
		return "-ENOSPC";
	case -EINVAL:
		return "-EINVAL";
	case -EFBIG:
		return "-EFBIG";
	}
	return "?";
}

/*
 * A walk through a bare table whose build fails with @err: one build, and
 * none in the next walk; one more after a change of the registry.
 */
static void index_fails(int err)
{
	struct mm_struct *mm = mm_with_maps(3);
	unsigned long a = OBJ_BASE(0);
	struct walk w;

	CHECK(reg_register_bare(mm, a) == 0, "registering the bare table");
	CHECK(reg_register(mm, OBJ_BASE(1)) == 0, "registering object 1");
	CHECK(reg_register(mm, OBJ_BASE(2)) == 0, "registering object 2");
	walk_fill(&a, 1, WALK_FRAMES);
	test_index_set(err, BIG_TABLE_READ, 0);

	w = walk(mm, WALK_FRAMES);
	printf("# %s: a walk of %d frames: %ld build(s), %.1f MiB read\n",
	       errno_name(err), WALK_FRAMES, w.builds, w.read / 1048576.0);
	CHECK(w.builds == 1, "%ld builds in one walk, want 1", w.builds);
	CHECK(w.read == BIG_TABLE_READ, "%llu bytes read, want %lu", w.read,
	      BIG_TABLE_READ);
	/* The walk unwinds those frames with frame pointers. */
	CHECK(w.unsupported == WALK_FRAMES && !w.left,
	      "%d of %d lookups -EOPNOTSUPP, %u of the budget left",
	      w.unsupported, WALK_FRAMES, w.left);

	w = walk(mm, WALK_FRAMES);
	CHECK(w.builds == 0, "the next walk: %ld builds, want 0", w.builds);
	CHECK(w.unsupported == WALK_FRAMES && w.left == reg_walk_budget,
	      "the next walk: %d lookups -EOPNOTSUPP, %u of the budget spent",
	      w.unsupported, reg_walk_budget - w.left);

	/* A change of the registry (a dlclose()): tried once more. */
	CHECK(reg_unregister(mm, OBJ_BASE(1)) == 0, "unregister");
	w = walk(mm, WALK_FRAMES);
	CHECK(w.builds == 1, "after a change: %ld builds, want 1", w.builds);
	w = walk(mm, WALK_FRAMES);
	CHECK(w.builds == 0, "the walk after: %ld builds, want 0", w.builds);

	/* The table reads well now: indexed at the next change. */
	test_index_set(0, SZ_64K, 0);
	w = walk(mm, WALK_FRAMES);
	CHECK(w.builds == 0, "before a change: %ld builds, want 0", w.builds);
	CHECK(reg_unregister(mm, OBJ_BASE(2)) == 0, "unregister");
	w = walk(mm, WALK_FRAMES);
	CHECK(w.builds == 1 && w.found == WALK_FRAMES,
	      "indexed: %ld builds, %d frames found", w.builds, w.found);

	test_index_set(0, 0, 0);
	exit_mm(mm);
}

static void test_index_build_fails(void)
{
	static const int errs[] = { -EFAULT, -ENOMEM, -EINTR, -ENOSPC };
	unsigned long a = OBJ_BASE(0);
	struct mm_struct *mm;
	unsigned int i;
	struct walk w;

	for (i = 0; i < ARRAY_SIZE(errs); i++)
		index_fails(errs[i]);

	/*
	 * With a header the lookups go on without the index (a binary
	 * search of the header's table), which a walk tries to build once.
	 */
	mm = mm_with_objs(1);
	walk_fill(&a, 1, WALK_FRAMES);
	test_index_set(-EFAULT, SZ_256K, 0);
	w = walk(mm, WALK_FRAMES);
	printf("# with a header: %ld build(s), %llu KiB read, %d frames found\n",
	       w.builds, w.read >> 10, w.found);
	CHECK(w.builds == 1, "%ld builds in one walk, want 1", w.builds);
	CHECK(w.found == WALK_FRAMES, "%d frames found, want %d", w.found,
	      WALK_FRAMES);
	CHECK(w.left == reg_walk_budget - READ_COST(SZ_256K),
	      "%u of the budget left, want %u", w.left,
	      reg_walk_budget - READ_COST(SZ_256K));
	test_index_set(0, 0, 0);
	exit_mm(mm);
	check_clean();
}

/*
 * ---- A table without a header that cannot be indexed is dropped ----
 *
 * As before: corrupt (-EINVAL) or too large (-EFBIG), it fails one lookup
 * and is then skipped, even after a change of the registry.
 */
static void test_index_build_invalid(void)
{
	static const int errs[] = { -EINVAL, -EFBIG };
	unsigned long a = OBJ_BASE(0);
	struct mm_struct *mm;
	struct reg_item it;
	unsigned int i;
	struct walk w;

	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		mm = mm_with_maps(2);
		CHECK(reg_register_bare(mm, a) == 0, "registering");
		CHECK(reg_register(mm, OBJ_BASE(1)) == 0, "registering");
		walk_fill(&a, 1, WALK_FRAMES);
		test_index_set(errs[i], 4096, 0);
		w = walk(mm, WALK_FRAMES);
		CHECK(walk_rets[0] == errs[i], "%s: the first lookup: %d",
		      errno_name(errs[i]), walk_rets[0]);
		CHECK(w.builds == 1 && w.other == WALK_FRAMES,
		      "%s: %ld builds, %d lookups failed", errno_name(errs[i]),
		      w.builds, w.other);
		CHECK(reg_unregister(mm, OBJ_BASE(1)) == 0, "unregister");
		w = walk(mm, WALK_FRAMES);
		CHECK(w.builds == 0 && w.other == WALK_FRAMES,
		      "%s, after a change: %ld builds, %d lookups failed",
		      errno_name(errs[i]), w.builds, w.other);
		/* Dead until unmapped (gone, in the registry of 6d475fa79). */
		it = item_of(mm, a);
		CHECK(!it.serial || it.dead, "%s: the table is not dropped",
		      errno_name(errs[i]));
		test_index_set(0, 0, 0);
		exit_mm(mm);
	}
	check_clean();
}

/*
 * ---- A build costs the walk what it read ----
 *
 * A unit of the budget per 64 bytes.  A build that costs more than is left
 * takes it all: the walk goes on with frame pointers, and starts no other
 * build.  The index stays: the next walk finds its frames.
 */
static void test_index_build_charged(void)
{
	struct mm_struct *mm = mm_with_maps(3);
	unsigned long a = OBJ_BASE(0), bc[2] = { OBJ_BASE(1), OBJ_BASE(2) };
	struct walk w;
	int i;

	for (i = 0; i < 3; i++)
		CHECK(reg_register_bare(mm, OBJ_BASE(i)) == 0, "registering");
	test_index_set(0, SZ_64K, 0);
	walk_fill(&a, 1, 16);
	w = walk(mm, 16);
	CHECK(w.builds == 1 && w.found == 16, "%ld builds, %d frames found",
	      w.builds, w.found);
	CHECK(w.left == reg_walk_budget - READ_COST(SZ_64K),
	      "a build of 64 KiB cost %u, want %u", reg_walk_budget - w.left,
	      READ_COST(SZ_64K));

	/* 64 MiB: more than the whole budget pays for. */
	test_index_set(0, SZ_64M, 0);
	walk_fill(bc, 2, 16);
	w = walk(mm, 16);
	printf("# a build of 64 MiB: %ld build(s), %d frames found, %u left\n",
	       w.builds, w.found, w.left);
	CHECK(w.builds == 1, "%ld builds, want 1", w.builds);
	CHECK(w.unsupported == 16 && !w.left,
	      "%d lookups -EOPNOTSUPP, %u of the budget left", w.unsupported,
	      w.left);

	walk_fill(bc, 1, 16);
	w = walk(mm, 16);
	CHECK(w.builds == 0 && w.found == 16 && w.left == reg_walk_budget,
	      "the next walk: %ld builds, %d frames found, %u spent",
	      w.builds, w.found, reg_walk_budget - w.left);

	test_index_set(0, 0, 0);
	exit_mm(mm);
	check_clean();
}

/*
 * ---- Per mm, the indexes are capped (kernel.unwind_tables_index_max_kb)
 * ----
 *
 * Over the cap a build fails with -ENOSPC, which is remembered as the
 * other failures.  A lower cap leaves the indexes built alone; a child at
 * fork counts those it shares with its parent.
 */
#define CAP_TABLES	64
#define CAP_INDEX	SZ_1M
#define CAP_KB		16384UL

/* What the indexes of @mm take, as /proc shows them, and how many. */
static size_t index_memory(struct mm_struct *mm, int *nr)
{
	static char buf[16384];
	size_t sum = 0, bytes;
	char *p;

	reg_show(mm, buf, sizeof(buf));
	*nr = 0;
	for (p = buf; (p = strstr(p, " index ")); p++) {
		if (sscanf(p, " index %zu", &bytes) == 1) {
			sum += bytes;
			(*nr)++;
		}
	}
	return sum;
}

static void test_index_memory_cap(void)
{
	struct mm_struct *mm = mm_with_objs(CAP_TABLES), *child;
	size_t used, now;
	int i, nr, ret;
	long builds;

	reg_set_index_max_kb(CAP_KB);
	test_index_set(0, 0, CAP_INDEX);
	for (i = 0; i < CAP_TABLES; i++)
		CHECK(reg_lookup(mm, PC(OBJ_BASE(i))) == 0, "lookup in %d", i);
	used = index_memory(mm, &nr);
	printf("# %d tables of %d KiB of index: %zu KiB in %d, cap %lu KiB\n",
	       CAP_TABLES, CAP_INDEX >> 10, used >> 10, nr, CAP_KB);
	printf("# without the cap: %d KiB\n", CAP_TABLES * (CAP_INDEX >> 10));
	CHECK(used <= CAP_KB << 10, "%zu KiB of indexes over the cap",
	      used >> 10);
	CHECK(nr == (CAP_KB << 10) / CAP_INDEX, "%d indexes, want %lu", nr,
	      (CAP_KB << 10) / CAP_INDEX);

	/* -ENOSPC is remembered: lookups elsewhere in those tables. */
	builds = test_index_builds();
	for (i = 0; i < CAP_TABLES; i++)
		CHECK(reg_lookup(mm, PC(OBJ_BASE(i)) + 1) == 0, "lookup %d", i);
	CHECK(test_index_builds() == builds, "%ld builds over the cap",
	      test_index_builds() - builds);

	/* A lower cap, and a change that makes them try again. */
	reg_set_index_max_kb(1024);
	CHECK(reg_unregister(mm, OBJ_BASE(CAP_TABLES - 1)) == 0, "unregister");
	for (i = 0; i < CAP_TABLES - 1; i++)
		CHECK(reg_lookup(mm, PC(OBJ_BASE(i)) + 2) == 0, "lookup %d", i);
	now = index_memory(mm, &ret);
	CHECK(now == used && ret == nr,
	      "a lower cap: %zu KiB in %d indexes, were %zu KiB in %d",
	      now >> 10, ret, used >> 10, nr);

	/*
	 * A child shares the indexes, which count against its cap: it
	 * builds none, and four once it has unmapped four that have one.
	 */
	reg_set_index_max_kb(CAP_KB);
	child = test_mm_new();
	mmap_write_lock(mm);
	mmap_write_lock(child);
	ret = reg_fork_locked(child, mm);
	mmap_write_unlock(child);
	mmap_write_unlock(mm);
	CHECK(ret == 0, "fork: %d", ret);
	CHECK(reg_unregister(child, OBJ_BASE(CAP_TABLES - 2)) == 0,
	      "unregister in the child");
	for (i = 0; i < CAP_TABLES - 2; i++)
		CHECK(reg_lookup(child, PC(OBJ_BASE(i)) + 3) == 0,
		      "lookup %d in the child", i);
	now = index_memory(child, &ret);
	CHECK(now == used && ret == nr,
	      "the child: %zu KiB in %d indexes, want %zu KiB in %d",
	      now >> 10, ret, used >> 10, nr);

	for (i = 0; i < 4; i++)
		test_munmap(child, OBJ_BASE(i), OBJ_DATA_END(OBJ_BASE(i)));
	for (i = 4; i < CAP_TABLES - 2; i++)
		CHECK(reg_lookup(child, PC(OBJ_BASE(i)) + 4) == 0,
		      "lookup %d in the child", i);
	now = index_memory(child, &ret);
	CHECK(now <= CAP_KB << 10 && ret == nr,
	      "the child: %zu KiB in %d indexes, cap %lu KiB", now >> 10, ret,
	      CAP_KB);
	now = index_memory(mm, &ret);
	printf("# the parent, which the child's builds count in: %zu KiB in %d\n",
	       now >> 10, ret);

	test_index_set(0, 0, 0);
	exit_mm(child);
	exit_mm(mm);
	check_clean();
}

/*
 * ---- An erase whose tombstone cannot be stored either ----
 *
 * Without a node for the erase, a tombstone is stored over the entry's
 * range, which needs none and so cannot fail; if it did all the same, the
 * registry of 6d475fa79 put the entry while the tree still held it (a use
 * after free at the next lookup).  The entry stays now, dead, counted, and
 * the frames cached from it go; the next removal takes it.
 */
static void erase_both_fail(struct mm_struct *mm, unsigned long base,
			    bool munmap)
{
	long long gen = reg_generation(mm);
	long nr = reg_count(mm), live;
	struct reg_item it;
	int ret = 0;

	test_rcu_barrier();
	live = test_blocks_live();
	test_maple_fail_next(LONG_MAX);
	test_store_fail_nth(2);
	if (munmap)
		test_munmap(mm, base, OBJ_DATA_END(base));
	else
		ret = reg_unregister(mm, base);
	test_store_fail_nth(0);
	test_maple_fail_next(0);
	CHECK(ret == 0, "unregister: %d", ret);
	CHECK(test_warnings_take() == 1, "the failed store did not warn");
	test_rcu_barrier();

	/* The frame cached for PC(base), and a lookup in the tree. */
	CHECK(reg_lookup(mm, PC(base)) == -ENOENT, "the cached frame is used");
	CHECK(reg_lookup(mm, PC(base) + 1) == -ENOENT, "the entry is found");
	it = item_of(mm, base);
	CHECK(it.serial && it.dead && it.keyed,
	      "the entry is not kept in the tree, dead");
	CHECK(reg_markers(mm) == 0, "%d tombstones", reg_markers(mm));
	CHECK(reg_count(mm) == nr && test_blocks_live() == live,
	      "%ld entries counted, %ld allocated; want %ld and %ld",
	      reg_count(mm), test_blocks_live(), nr, live);
	CHECK(reg_generation(mm) > gen, "no new generation");
}

static void test_erase_stores_fail(void)
{
	struct mm_struct *mm = mm_with_objs(3);
	int i;

	/* Each with its index, and a frame cached. */
	for (i = 0; i < 3; i++)
		CHECK(reg_lookup(mm, PC(OBJ_BASE(i))) == 0, "lookup %d", i);

	erase_both_fail(mm, OBJ_BASE(1), false);
	CHECK(reg_lookup(mm, PC(OBJ_BASE(0))) == 0, "object 0 lost");
	/* Unmapped, with memory: erased, freed once. */
	test_munmap(mm, OBJ_BASE(1), OBJ_DATA_END(OBJ_BASE(1)));
	CHECK(reg_count(mm) == 2 && reg_contents(mm, NULL, 0) == 2,
	      "%ld entries counted, %d in the tree, want 2", reg_count(mm),
	      reg_contents(mm, NULL, 0));
	test_rcu_barrier();
	CHECK(test_blocks_live() == 2, "%ld entries allocated, want 2",
	      test_blocks_live());

	/* The same in munmap(); then unregistered. */
	erase_both_fail(mm, OBJ_BASE(2), true);
	CHECK(reg_unregister(mm, OBJ_BASE(2)) == 0, "unregister");
	CHECK(reg_count(mm) == 1 && reg_contents(mm, NULL, 0) == 1,
	      "%ld entries counted, %d in the tree, want 1", reg_count(mm),
	      reg_contents(mm, NULL, 0));
	CHECK(reg_lookup(mm, PC(OBJ_BASE(0))) == 0, "object 0 lost");

	exit_mm(mm);
	check_clean();
}

/*
 * ---- The frame cache, without memory for it ----
 *
 * The mm goes without a cache: its lookups work, uncached, and do not try
 * to allocate it again (the registry of 6d475fa79 did, at every lookup
 * that found a frame); /proc says "cache none"; exit frees nothing it did
 * not allocate.  The same when the per-CPU counters fail.  @nth: which
 * allocation of the first lookup fails (the cache's, the counters'); @scarce:
 * memory stays short for the later ones too.
 */
static void cache_alloc_fails(int nth, bool scarce)
{
	struct mm_struct *mm = mm_with_objs(2);
	unsigned long hits, misses, base;
	long calls = test_kvzalloc_calls();
	char buf[512];
	int i, ret;

	test_kvzalloc_fail_nth(nth);
	CHECK(reg_lookup(mm, PC(OBJ_BASE(0))) == 0, "the first lookup");
	CHECK(test_kvzalloc_calls() == calls + nth,
	      "%ld allocations for the cache, want %d",
	      test_kvzalloc_calls() - calls, nth);
	for (i = 0; i < 16; i++) {
		if (scarce)
			test_kvzalloc_fail_nth(1);
		base = OBJ_BASE(i % 2);
		test_last_lookup_serial = 0;
		ret = reg_lookup(mm, PC(base) + i / 2);
		CHECK(ret == 0 && test_last_lookup_serial == item_of(mm, base).serial,
		      "lookup %d: %d, from table %lu", i, ret,
		      test_last_lookup_serial);
	}
	test_kvzalloc_fail_nth(0);
	printf("# 17 lookups, %s failing %s: %ld allocations tried\n",
	       nth == 1 ? "the cache" : "its counters",
	       scarce ? "at every try" : "once",
	       test_kvzalloc_calls() - calls);
	CHECK(test_kvzalloc_calls() == calls + nth,
	      "%ld allocations for the cache, want %d",
	      test_kvzalloc_calls() - calls, nth);
	CHECK(reg_cache_stats(mm, &hits, &misses) < 0, "a cache");
	reg_show(mm, buf, sizeof(buf));
	CHECK(strstr(buf, "\ncache none\n"), "/proc shows:\n%s", buf);
	exit_mm(mm);
}

static void test_cache_alloc_fails(void)
{
	cache_alloc_fails(1, false);
	cache_alloc_fails(2, false);
	cache_alloc_fails(1, true);
	check_clean();
}

/*
 * ---- mremap() moves an entry with its text and table ----
 *
 * Whatever it moves lies in one mapping: the entry moves when its text and
 * tables all do.  A table without a header (gcc -static) was never moved,
 * its header's start (0) being below any range.  A shared object's text
 * moved alone, its table in another mapping that stays, loses its entry:
 * the table's addresses no longer match the text, and the walk unwinds
 * those frames with frame pointers.
 */
static void mremap_one(bool bare)
{
	struct mm_struct *mm = test_mm_new();
	unsigned long a = OBJ_BASE(0), to = OBJ_BASE(8), s;
	const char *what = bare ? "without a header" : "with a header";
	struct reg_item it;
	int ret;

	/* One mapping, as a static executable's without -z separate-code. */
	mmap_write_lock(mm);
	CHECK(test_vma_map(mm, a, OBJ_DATA_END(a), VM_READ | VM_EXEC) == 0,
	      "map");
	mmap_write_unlock(mm);
	ret = bare ? reg_register_bare(mm, a) : reg_register(mm, a);
	CHECK(ret == 0, "registering %s: %d", what, ret);
	s = item_of(mm, a).serial;
	CHECK(reg_lookup(mm, PC(a)) == 0, "lookup %s", what);

	test_mremap(mm, a, OBJ_DATA_END(a), to);
	test_last_lookup_serial = 0;
	ret = reg_lookup(mm, PC(to));
	CHECK(ret == 0 && test_last_lookup_serial == s,
	      "%s, moved: lookup %d, from table %lu, want %lu", what, ret,
	      test_last_lookup_serial, s);
	CHECK(reg_lookup(mm, PC(a)) == -ENOENT, "%s: found at the old place",
	      what);
	it = item_of(mm, to);
	CHECK(it.serial == s && it.keyed && it.end == to + OBJ_TEXT_SIZE,
	      "%s: the entry is not where its text went", what);
	CHECK(reg_count(mm) == 1 && reg_contents(mm, NULL, 0) == 1,
	      "%s: %ld entries counted, %d in the tree", what, reg_count(mm),
	      reg_contents(mm, NULL, 0));
	test_rcu_barrier();
	CHECK(test_blocks_live() == 1, "%s: %ld entries allocated, want 1",
	      what, test_blocks_live());
	exit_mm(mm);
}

static void test_mremap_bare(void)
{
	mremap_one(true);
	mremap_one(false);
	check_clean();
}

static void test_mremap_text_alone(void)
{
	struct mm_struct *mm = mm_with_objs(1);
	unsigned long a = OBJ_BASE(0), to = OBJ_BASE(8);

	CHECK(reg_lookup(mm, PC(a)) == 0, "lookup");
	test_mremap(mm, a, a + OBJ_TEXT_SIZE, to);
	CHECK(reg_lookup(mm, PC(to)) == -ENOENT,
	      "the text moved alone is looked up in its table");
	CHECK(reg_lookup(mm, PC(a)) == -ENOENT, "the old text is looked up");
	CHECK(reg_count(mm) == 0 && reg_contents(mm, NULL, 0) == 0,
	      "%ld entries counted, %d in the tree", reg_count(mm),
	      reg_contents(mm, NULL, 0));
	exit_mm(mm);
	check_clean();
}

/*
 * ---- Found by these tests, and fixed ----
 *
 * A frame found by the lookup that built the index was cached with what the
 * build cost, which every walk that hit it paid again: a warm walk ended
 * sooner than a cold one, and not where it would without the cache (see
 * cache.c).  The row costs what the row did.
 */
static void test_index_cost_cached(void)
{
	struct mm_struct *mm = mm_with_maps(1);
	unsigned long a = OBJ_BASE(0);
	unsigned int cold;
	struct walk w;

	CHECK(reg_register_bare(mm, a) == 0, "registering");
	test_index_set(0, SZ_1M, 0);
	walk_fill(&a, 1, 1);
	w = walk(mm, 1);
	CHECK(w.builds == 1 && w.found == 1, "the build");
	walk_pcs[0] = PC(a) + 1;
	cold = reg_walk_budget - walk(mm, 1).left;
	walk_pcs[0] = PC(a);
	w = walk(mm, 1);
	printf("# a lookup costs %u, its frame from the cache %u\n", cold,
	       reg_walk_budget - w.left);
	CHECK(reg_walk_budget - w.left == cold,
	      "a frame from the cache costs %u, its lookup %u",
	      reg_walk_budget - w.left, cold);
	test_index_set(0, 0, 0);
	exit_mm(mm);
	check_clean();
}

/*
 * A failed build was remembered under the generation of the mm that tried
 * it, which a fork relative sharing the entry compared with its own: a
 * change of its registry went unseen when its generation came to equal
 * that number, and the walks of two relatives in turn each built again.
 * It is remembered under a count of all registries' removals now.
 */
static void test_index_failure_forked(void)
{
	struct mm_struct *mm = mm_with_maps(3), *child = test_mm_new();
	unsigned long a = OBJ_BASE(0);
	long builds = 0;
	int i, ret;

	CHECK(reg_register_bare(mm, a) == 0, "registering");
	for (i = 1; i < 3; i++)
		CHECK(reg_register(mm, OBJ_BASE(i)) == 0, "registering");
	CHECK(reg_unregister(mm, OBJ_BASE(1)) == 0, "unregister");
	mmap_write_lock(mm);
	mmap_write_lock(child);
	ret = reg_fork_locked(child, mm);
	mmap_write_unlock(child);
	mmap_write_unlock(mm);
	CHECK(ret == 0, "fork: %d", ret);
	test_index_set(-EFAULT, BIG_TABLE_READ, 0);
	walk_fill(&a, 1, WALK_FRAMES);
	for (i = 0; i < 6; i++)
		builds += walk(i % 2 ? child : mm, WALK_FRAMES).builds;
	printf("# six walks, parent and child in turn: %ld build(s)\n", builds);
	CHECK(builds <= 2, "%ld builds, want one per mm at most", builds);

	/* A failure in the parent, then a change in the child. */
	walk(mm, WALK_FRAMES);
	CHECK(reg_unregister(child, OBJ_BASE(2)) == 0, "unregister");
	builds = walk(child, WALK_FRAMES).builds;
	printf("# the child's walk after a change of its registry: %ld build(s)\n",
	       builds);
	CHECK(builds == 1, "the child's walk: %ld builds, want 1", builds);
	test_index_set(0, 0, 0);
	exit_mm(child);
	exit_mm(mm);
	check_clean();
}

/*
 * A registration over an entry whose erase kept it (see
 * test_erase_stores_fail()) stored the new entry over it: the old one was
 * neither put nor uncounted.  It fails with -ENOMEM now.
 */
static void test_register_over_kept_entry(void)
{
	struct mm_struct *mm = mm_with_objs(1);
	unsigned long a = OBJ_BASE(0);
	int ret;

	test_table_set_corrupt(a, true);
	CHECK(reg_lookup(mm, PC(a)) == -EINVAL, "not dropped");
	test_table_set_corrupt(a, false);
	test_maple_fail_next(LONG_MAX);
	test_store_fail_nth(2);
	ret = reg_register(mm, a);
	test_store_fail_nth(0);
	test_maple_fail_next(0);
	test_warnings_take();
	printf("# registering over the kept entry: %d\n", ret);
	CHECK(reg_count(mm) == reg_contents(mm, NULL, 0),
	      "%ld entries counted, %d in the tree", reg_count(mm),
	      reg_contents(mm, NULL, 0));
	test_rcu_barrier();
	CHECK(test_blocks_live() == reg_contents(mm, NULL, 0),
	      "%ld entries allocated, %d in the tree", test_blocks_live(),
	      reg_contents(mm, NULL, 0));
	exit_mm(mm);
	check_clean();
}
#endif /* !REGISTRY_TEST_OLD */

#ifdef REGISTRY_TEST_DISCOVERY
/*
 * The tests below are of what the registries of da05eb2 and 6d475fa79 do
 * not have at all: tables the kernel finds by itself (discovery, entries of
 * another origin, markers), /proc's origins and the debugfs counter.
 * Against them they would run the test's own stand-ins, not the registry,
 * so `make run_old` and `make run_prev` leave them out rather than count
 * their failures.
 */

/* @mm shows a line that starts with @start-@end and then says @what. */
static bool shows(struct mm_struct *mm, unsigned long start,
		  unsigned long end, const char *what)
{
	char buf[1024], line[128];

	reg_show(mm, buf, sizeof(buf));
	snprintf(line, sizeof(line), "%lx-%lx %s", start, end, what);
	return strstr(buf, line) && strstr(buf, line)[strlen(line)] != '-';
}

/*
 * ---- What the kernel found gives way to what user space registers ----
 *
 * A lookup in an object nobody registered finds its table (one call of
 * discovery), caches the frame, and needs no new generation.  A prctl
 * registration over it replaces it, and the frame cached from it goes:
 * the next lookup answers from the registration.  The same over a vDSO's
 * entry; a registration over a registration is still -EEXIST.
 */
static void test_discovered_replaced(void)
{
	struct mm_struct *mm = mm_with_maps(2);
	unsigned long a = OBJ_BASE(0), b = OBJ_BASE(1), s;
	long calls = reg_discover_calls();
	long long gen = reg_generation(mm);
	struct reg_item it;

	reg_set_discoverable(a, REG_FOUND_TABLE);
	CHECK(reg_lookup(mm, PC(a)) == 0, "lookup of the object found");
	expect_hit(mm, a, "discovered");
	CHECK(reg_discover_calls() == calls + 1, "%ld calls of discovery",
	      reg_discover_calls() - calls);
	it = item_of(mm, a);
	CHECK(it.serial && it.origin == REG_FILE && it.keyed,
	      "no entry of origin file");
	CHECK(reg_generation(mm) == gen, "an insert made a new generation");
	CHECK(shows(mm, a, a + OBJ_TEXT_SIZE, "discovered eh_frame_hdr "),
	      "/proc does not show the discovered table");

	s = it.serial;
	CHECK(reg_register(mm, a) == 0, "registering over a discovered table");
	it = item_of(mm, a);
	CHECK(it.origin == REG_PRCTL && it.serial != s,
	      "the registration did not replace the discovered table");
	CHECK(reg_generation(mm) == gen + 1, "no new generation");
	CHECK(reg_count(mm) == 1, "%ld entries, want 1", reg_count(mm));
	expect_cached(mm, a, "registered over the discovered table");
	CHECK(reg_discover_calls() == calls + 1, "discovery called again");
	CHECK(shows(mm, a, a + OBJ_TEXT_SIZE, "prctl eh_frame_hdr "),
	      "/proc does not show the registration");
	CHECK(reg_register(mm, a) == -EEXIST, "a registration replaced one");

	/* The vDSO's entry gives way too. */
	CHECK(reg_add_found(mm, b, REG_VDSO) == 0, "the vDSO's entry");
	CHECK(shows(mm, b, b + OBJ_TEXT_SIZE, "vdso eh_frame_hdr "),
	      "/proc does not show the vDSO's table");
	s = serial_of(mm, b);
	CHECK(reg_register(mm, b) == 0, "registering over the vDSO");
	it = item_of(mm, b);
	CHECK(it.origin == REG_PRCTL && it.serial != s,
	      "the registration did not replace the vDSO's table");
	CHECK(reg_count(mm) == 2, "%ld entries, want 2", reg_count(mm));

	reg_set_discoverable(a, REG_FOUND_NOTHING);
	exit_mm(mm);
	check_clean();
}

/* A registration made while discovery reads the object: it wins. */
static void register_in_discovery(struct mm_struct *mm, unsigned long pc)
{
	test_discover_hook = NULL;
	CHECK(reg_register(mm, pc & ~(OBJ_TEXT_SIZE - 1)) == 0,
	      "registering while discovery reads");
}

/*
 * ---- What the kernel finds never replaces anything ----
 *
 * Neither over a registration (which discovery never even looks for,
 * lookups find it), nor over another found entry or a marker; and a
 * registration that comes while discovery reads the object stays, the
 * lookup answering from it.  Entries refused are freed.
 */
static void test_discovery_yields(void)
{
	struct mm_struct *mm = mm_with_objs(1);
	unsigned long a = OBJ_BASE(0), b = OBJ_BASE(1), c = OBJ_BASE(2);
	unsigned long d = OBJ_BASE(3), s = serial_of(mm, a);
	long calls = reg_discover_calls();
	struct reg_item it;

	test_obj_map(mm, b);
	test_obj_map(mm, c);
	test_obj_map(mm, d);
	reg_set_discoverable(a, REG_FOUND_TABLE);
	CHECK(reg_lookup(mm, PC(a)) == 0, "lookup of the registration");
	CHECK(reg_discover_calls() == calls, "discovery over a registration");
	CHECK(reg_add_found(mm, a, REG_FILE) == -EEXIST,
	      "a found table over a registration");
	CHECK(reg_add_found(mm, a, REG_VDSO) == -EEXIST,
	      "the vDSO's table over a registration");
	CHECK(reg_add_none(mm, PC(a), a, a + OBJ_TEXT_SIZE) == -EEXIST,
	      "a marker over a registration");
	it = item_of(mm, a);
	CHECK(it.serial == s && it.origin == REG_PRCTL,
	      "the registration was replaced");

	CHECK(reg_add_found(mm, b, REG_FILE) == 0, "a found table");
	s = serial_of(mm, b);
	CHECK(reg_add_found(mm, b, REG_FILE) == -EEXIST,
	      "a found table over another");
	CHECK(reg_add_found(mm, b, REG_VDSO) == -EEXIST,
	      "the vDSO's table over a found one");
	CHECK(serial_of(mm, b) == s, "the found table was replaced");
	CHECK(reg_add_none(mm, PC(c), c, c + OBJ_TEXT_SIZE) == 0, "a marker");
	CHECK(reg_add_found(mm, c, REG_FILE) == -EEXIST,
	      "a found table over a marker");
	CHECK(reg_none_markers(mm) == 1, "%d markers, want 1",
	      reg_none_markers(mm));
	test_rcu_barrier();
	CHECK(test_blocks_live() == 2, "%ld entries allocated, want 2",
	      test_blocks_live());

	reg_set_discoverable(d, REG_FOUND_TABLE);
	test_discover_hook = register_in_discovery;
	calls = reg_discover_calls();
	CHECK(reg_lookup(mm, PC(d)) == 0, "lookup after the race");
	CHECK(!test_discover_hook, "discovery did not read the object");
	it = item_of(mm, d);
	CHECK(it.origin == REG_PRCTL && test_last_lookup_serial == it.serial,
	      "the lookup did not answer from the registration");
	CHECK(reg_discover_calls() == calls + 1, "%ld calls of discovery",
	      reg_discover_calls() - calls);
	CHECK(reg_none_markers(mm) == 1, "a marker over the registration");

	reg_set_discoverable(a, REG_FOUND_NOTHING);
	reg_set_discoverable(d, REG_FOUND_NOTHING);
	exit_mm(mm);
	check_clean();
}

/*
 * ---- A table found does not invalidate the frames cached ----
 *
 * Frames are cached only for pcs that an entry covered, and entries never
 * overlap: an object found (or marked) later cannot change them.  (Every
 * insert made a new generation before discovery, which would make each
 * object found cost every cached frame.)
 */
static void test_discovered_keeps_cache(void)
{
	struct mm_struct *mm = mm_with_objs(1);
	unsigned long a = OBJ_BASE(0), b = OBJ_BASE(1), c = OBJ_BASE(2);
	long long gen;

	test_obj_map(mm, b);
	test_obj_map(mm, c);
	reg_set_discoverable(b, REG_FOUND_TABLE);
	reg_set_discoverable(c, REG_FOUND_NONE);
	expect_cached(mm, a, "registered");
	gen = reg_generation(mm);

	CHECK(reg_lookup(mm, PC(b)) == 0, "lookup of the object found");
	CHECK(item_of(mm, b).origin == REG_FILE, "nothing found");
	expect_hit(mm, a, "after a table was found");
	CHECK(reg_lookup(mm, PC(c)) == -ENOENT, "lookup in the object marked");
	CHECK(reg_none_markers(mm) == 1, "no marker");
	expect_hit(mm, a, "after an object was marked");
	CHECK(reg_generation(mm) == gen, "a new generation");
	expect_hit(mm, b, "found");

	reg_set_discoverable(b, REG_FOUND_NOTHING);
	reg_set_discoverable(c, REG_FOUND_NOTHING);
	exit_mm(mm);
	check_clean();
}

/*
 * ---- Markers: no table there, and nothing to look for ----
 *
 * An object with no usable table gets a marker over its executable
 * mapping: lookups there fail at once, discovery is not called again.
 * Fork copies markers; unmap drops them (and discovery looks again if the
 * address is mapped again); a registration replaces one.  A marker covers
 * what is free around the pc, within the mapping.
 */
static void test_markers(void)
{
	struct mm_struct *mm = mm_with_maps(1), *child = test_mm_new();
	unsigned long a = OBJ_BASE(0), x = OBJ_BASE(4);
	long calls = reg_discover_calls();
	long long gen;
	int ret;

	reg_set_discoverable(a, REG_FOUND_NONE);
	CHECK(reg_lookup(mm, PC(a)) == -ENOENT, "lookup in an unusable object");
	CHECK(reg_discover_calls() == calls + 1, "%ld calls of discovery",
	      reg_discover_calls() - calls);
	CHECK(reg_none_markers(mm) == 1, "%d markers, want 1",
	      reg_none_markers(mm));
	CHECK(shows(mm, a, a + OBJ_TEXT_SIZE, "discovered none\n"),
	      "/proc does not show the marker");
	CHECK(reg_lookup(mm, PC(a)) == -ENOENT, "second lookup");
	CHECK(reg_lookup(mm, a + OBJ_TEXT_SIZE - 1) == -ENOENT,
	      "lookup at the end");
	CHECK(reg_discover_calls() == calls + 1, "the marker was looked past");
	CHECK(reg_count(mm) == 0, "a marker counts as an entry");

	/* Fork copies it. */
	mmap_write_lock(mm);
	mmap_write_lock(child);
	ret = reg_fork_locked(child, mm);
	mmap_write_unlock(child);
	mmap_write_unlock(mm);
	test_obj_map(child, a);
	CHECK(ret == 0, "fork: %d", ret);
	CHECK(reg_none_markers(child) == 1, "the child has no marker");
	CHECK(reg_lookup(child, PC(a)) == -ENOENT, "lookup in the child");
	CHECK(reg_discover_calls() == calls + 1, "the child looked for it");
	exit_mm(child);

	/* Unmap drops it: mapped again, the object is looked at again. */
	test_munmap(mm, a, OBJ_DATA_END(a));
	CHECK(reg_none_markers(mm) == 0, "munmap left the marker");
	test_obj_map(mm, a);
	CHECK(reg_lookup(mm, PC(a)) == -ENOENT, "lookup after munmap");
	CHECK(reg_discover_calls() == calls + 2, "not looked for again");
	CHECK(reg_none_markers(mm) == 1, "no new marker");

	/* A registration replaces it, and makes a new generation. */
	gen = reg_generation(mm);
	CHECK(reg_register(mm, a) == 0, "registering over a marker");
	CHECK(reg_none_markers(mm) == 0, "the marker is left");
	CHECK(reg_generation(mm) == gen + 1, "no new generation");
	expect_cached(mm, a, "registered over a marker");

	/*
	 * One executable mapping of four pages, an object registered in its
	 * second half: the marker covers the first.
	 */
	mmap_write_lock(mm);
	CHECK(test_vma_map(mm, x, x + 4 * OBJ_TEXT_SIZE, VM_READ | VM_EXEC) == 0,
	      "map");
	mmap_write_unlock(mm);
	CHECK(reg_register(mm, x + 2 * OBJ_TEXT_SIZE) == 0, "register");
	reg_set_discoverable(x, REG_FOUND_NONE);
	CHECK(reg_lookup(mm, PC(x)) == -ENOENT, "lookup in the mapping");
	CHECK(shows(mm, x, x + 2 * OBJ_TEXT_SIZE, "discovered none\n"),
	      "the marker is not where it should be");
	CHECK(reg_lookup(mm, x + 2 * OBJ_TEXT_SIZE + 0x10) == 0,
	      "lookup in the object");

	reg_set_discoverable(a, REG_FOUND_NOTHING);
	reg_set_discoverable(x, REG_FOUND_NOTHING);
	exit_mm(mm);
	check_clean();
}

/*
 * ---- A corrupt table in a fork child: dead in the child only ----
 *
 * Fork shares entries.  A child that wrote its own copy of a library's
 * table finds it corrupt; its drop must not disable the table in its
 * parent, whose copy is the file's: a copy of the entry, dead, takes the
 * entry's place in the child's tree, and the parent's stays live.
 */
static void test_dead_in_child(void)
{
	struct mm_struct *parent = mm_with_objs(2), *child = test_mm_new();
	unsigned long base = OBJ_BASE(0), locks;
	struct reg_item pitems[2], citems[2];
	int ret;

	mmap_write_lock(parent);
	mmap_write_lock(child);
	ret = reg_fork_locked(child, parent);
	mmap_write_unlock(child);
	mmap_write_unlock(parent);
	CHECK(ret == 0, "fork: %d", ret);

	test_table_set_corrupt(base, true);
	locks = test_write_locks;
	ret = reg_lookup(child, PC(base));
	CHECK(ret == -EINVAL, "the child's lookup in its corrupt copy: %d", ret);
	CHECK(test_write_locks == locks, "the drop took the mmap lock");
	test_table_set_corrupt(base, false);

	CHECK(reg_lookup(parent, PC(base)) == 0,
	      "the parent's table was dropped by its child");
	CHECK(reg_lookup(child, PC(base)) == -ENOENT,
	      "the child still uses the table it found corrupt");
	CHECK(reg_contents(parent, pitems, 2) == 2 && !pitems[0].dead &&
	      !pitems[1].dead, "the parent's entries are not both live");
	CHECK(reg_contents(child, citems, 2) == 2 && citems[0].dead &&
	      !citems[1].dead && citems[0].serial == pitems[0].serial,
	      "the child's entry is not its own dead copy");
	CHECK(reg_count(child) == 2 && reg_count(parent) == 2,
	      "counts %ld and %ld, want 2 and 2", reg_count(child),
	      reg_count(parent));

	/* The parent's own drop, now that no other mm shares the entry. */
	exit_mm(child);
	test_rcu_barrier();
	CHECK(test_blocks_live() == 2, "%ld entries allocated, want 2",
	      test_blocks_live());
	test_table_set_corrupt(base, true);
	/* A pc whose frame the parent has not cached. */
	CHECK(reg_lookup(parent, PC(base) + 1) == -EINVAL, "the parent's lookup");
	test_table_set_corrupt(base, false);
	CHECK(reg_lookup(parent, PC(base)) == -ENOENT,
	      "the parent still uses the table it found corrupt");
	CHECK(test_blocks_live() == 2, "%ld entries allocated: the drop copied",
	      test_blocks_live());
	exit_mm(parent);
	check_clean();
}

/*
 * ---- A table found corrupt: skipped, not looked for again ----
 *
 * As a registered one (test_dead_entry): dead until unmapped or registered
 * over.  Discovery does not look at it again meanwhile.  The frames cached
 * from it before the drop are still used.
 */
static void test_dead_discovered(void)
{
	struct mm_struct *mm = mm_with_maps(1);
	unsigned long a = OBJ_BASE(0), locks;
	long calls = reg_discover_calls();

	reg_set_discoverable(a, REG_FOUND_TABLE);
	CHECK(reg_lookup(mm, PC(a)) == 0, "lookup of the object found");
	/* A pc whose frame is not cached. */
	test_table_set_corrupt(a, true);
	locks = test_write_locks;
	CHECK(reg_lookup(mm, PC(a) + 1) == -EINVAL, "the corrupt table");
	test_table_set_corrupt(a, false);
	CHECK(reg_lookup(mm, PC(a) + 2) == -ENOENT,
	      "lookup in the dropped table");
	CHECK(test_write_locks == locks, "the drop took the mmap lock");
	/*
	 * A frame cached from it before goes too: the drop makes a new
	 * generation, so that the frames of the table are unwound another
	 * way from then on, as the documentation says.
	 */
	CHECK(reg_lookup(mm, PC(a)) == -ENOENT,
	      "the frame cached before the drop is still used");
	CHECK(reg_discover_calls() == calls + 1, "%ld calls of discovery",
	      reg_discover_calls() - calls);
	CHECK(item_of(mm, a).dead, "the entry is not kept, dead");
	CHECK(shows(mm, a, a + OBJ_TEXT_SIZE, "discovered dropped\n"),
	      "/proc does not show the dropped table");

	/* Unmapped and mapped again: found again. */
	test_munmap(mm, a, OBJ_DATA_END(a));
	test_obj_map(mm, a);
	CHECK(reg_lookup(mm, PC(a)) == 0, "lookup after munmap");
	CHECK(reg_discover_calls() == calls + 2, "not looked for again");
	CHECK(!item_of(mm, a).dead, "no new entry");

	reg_set_discoverable(a, REG_FOUND_NOTHING);
	exit_mm(mm);
	check_clean();
}

/*
 * ---- An mm nobody unwinds a table of never changes the registry ----
 *
 * Mappings, lookups (discovery finding nothing), fork, munmap and exit of
 * such an mm leave registry_ops (debugfs unwind_user/registry) where it
 * was.  The same with one registration changes it at each step.
 */
static void quiet_life(bool with_table)
{
	struct mm_struct *mm = mm_with_maps(3), *child = test_mm_new();
	int i, ret;

	if (with_table)
		CHECK(reg_register(mm, OBJ_BASE(1)) == 0, "register");
	for (i = 0; i < 3; i++)
		reg_lookup(mm, PC(OBJ_BASE(i)));
	mmap_write_lock(mm);
	mmap_write_lock(child);
	ret = reg_fork_locked(child, mm);
	mmap_write_unlock(child);
	mmap_write_unlock(mm);
	CHECK(ret == 0, "fork: %d", ret);
	for (i = 0; i < 3; i++)
		test_obj_map(child, OBJ_BASE(i));
	reg_lookup(child, PC(OBJ_BASE(0)));
	test_munmap(child, OBJ_BASE(0), OBJ_DATA_END(OBJ_BASE(0)));
	exit_mm(child);
	test_munmap(mm, OBJ_BASE(0), OBJ_DATA_END(OBJ_BASE(2)));
	exit_mm(mm);
}

static void test_registry_ops_quiet(void)
{
	long ops = reg_ops();

	CHECK(ops >= 0, "no counter");
	quiet_life(false);
	CHECK(reg_ops() == ops, "%ld changes of the registry, want none",
	      reg_ops() - ops);
	/* Insert, fork, the child's exit, munmap: the tree is empty at exit. */
	quiet_life(true);
	CHECK(reg_ops() == ops + 4, "%ld changes of the registry, want 4",
	      reg_ops() - ops);
	check_clean();
}

/*
 * ---- Forgetting what the kernel found (benchmarks of discovery) ----
 *
 * Found entries (of a file, of the vDSO, dead or not) and markers go, as
 * an unmap would take them; registrations stay; the rate limit starts
 * again; the next lookup finds the table again.
 */
static void test_forget_found(void)
{
	struct mm_struct *mm = mm_with_objs(1);
	unsigned long a = OBJ_BASE(0), b = OBJ_BASE(1), c = OBJ_BASE(2);
	unsigned long d = OBJ_BASE(3), e = OBJ_BASE(4), s = serial_of(mm, a);
	long calls;
	long long gen;
	int i;

	for (i = 1; i < 5; i++)
		test_obj_map(mm, OBJ_BASE(i));
	reg_set_discoverable(b, REG_FOUND_TABLE);
	reg_set_discoverable(c, REG_FOUND_NONE);
	reg_set_discoverable(e, REG_FOUND_TABLE);
	CHECK(reg_lookup(mm, PC(b)) == 0, "lookup of the object found");
	CHECK(reg_lookup(mm, PC(c)) == -ENOENT, "lookup of the object marked");
	CHECK(reg_add_found(mm, d, REG_VDSO) == 0, "the vDSO's entry");
	CHECK(reg_lookup(mm, PC(e)) == 0, "lookup of the object found");
	test_table_set_corrupt(e, true);
	CHECK(reg_lookup(mm, PC(e) + 1) == -EINVAL, "not dropped");
	test_table_set_corrupt(e, false);
	CHECK(reg_count(mm) == 4 && reg_none_markers(mm) == 1,
	      "%ld entries and %d markers, want 4 and 1", reg_count(mm),
	      reg_none_markers(mm));
	mm->unwind_user_probes.counter = 7;
	gen = reg_generation(mm);
	calls = reg_discover_calls();

	CHECK(reg_forget_found(mm) == 0, "forget");
	CHECK(reg_count(mm) == 1 && serial_of(mm, a) == s,
	      "%ld entries left, want the registration", reg_count(mm));
	CHECK(reg_none_markers(mm) == 0, "the marker is left");
	CHECK(reg_generation(mm) > gen, "no new generation");
	CHECK(!mm->unwind_user_probes.counter, "the rate limit's count is left");
	CHECK(reg_lookup(mm, PC(b)) == 0 && item_of(mm, b).origin == REG_FILE,
	      "not found again");
	CHECK(reg_discover_calls() == calls + 1, "%ld calls of discovery",
	      reg_discover_calls() - calls);
	test_rcu_barrier();
	CHECK(test_blocks_live() == 2, "%ld entries allocated, want 2",
	      test_blocks_live());

	reg_set_discoverable(b, REG_FOUND_NOTHING);
	reg_set_discoverable(c, REG_FOUND_NOTHING);
	reg_set_discoverable(e, REG_FOUND_NOTHING);
	exit_mm(mm);
	check_clean();
}

/* Lookups happen while a table is registered, or one may be found. */
static void test_has_tables(void)
{
	struct mm_struct *mm = mm_with_maps(1);

	CHECK(reg_has_tables(mm), "an empty mm, discovery on: no tables");
	reg_set_discover_enabled(false);
	CHECK(!reg_has_tables(mm), "an empty mm, discovery off: tables");
	reg_set_discoverable(OBJ_BASE(0), REG_FOUND_TABLE);
	CHECK(reg_lookup(mm, PC(OBJ_BASE(0))) == -ENOENT,
	      "found a table with discovery off");
	CHECK(reg_register(mm, OBJ_BASE(0)) == 0, "register");
	CHECK(reg_has_tables(mm), "a registration, discovery off: no tables");
	reg_set_discover_enabled(true);
	reg_set_discoverable(OBJ_BASE(0), REG_FOUND_NOTHING);
	exit_mm(mm);
	check_clean();
}

/*
 * ==== The registry's own lock, "none" rows, mprotect(), module loads and
 * walks that may not fault ====
 *
 * The tests below fail on the registry of 3ec176df9, before the tree had a
 * lock of its own (`make run_base`), each for the reason it names.
 */

/*
 * ---- What is found goes in under the mmap lock for reading ----
 *
 * The tree has a lock of its own (unwind_user_lock): what the kernel finds
 * while it walks a stack goes in under the mmap lock for reading and that
 * lock, and so do a prctl registration and its removal; none takes the
 * mmap lock for writing, so the task's page faults and mmap() calls do not
 * queue behind the unwinder (the registry of 3ec176df9 needed the write
 * lock for every change: discovery took it).  A munmap() (under the write
 * lock) still cannot come between the insert's check of the mapping and
 * the insert: it waits for the insert, then drops the entry; one that
 * comes first leaves nothing to insert.
 */
struct unmapper {
	struct mm_struct	*mm;
	unsigned long		base;
	bool			done;
	struct test_waiter	w;	/* its lock guards done */
};

static struct unmapper unmapper;
static pthread_t unmapper_thread;
static bool unmapper_waited;

static void *unmapper_fn(void *arg)
{
	struct unmapper *u = arg;

	rcu_register_thread();
	test_lock_waiter = &u->w;
	test_munmap(u->mm, u->base, OBJ_DATA_END(u->base));
	pthread_mutex_lock(&u->w.lock);
	u->done = true;
	pthread_cond_broadcast(&u->w.cond);
	pthread_mutex_unlock(&u->w.lock);
	rcu_unregister_thread();
	return NULL;
}

/*
 * In discovery's insert, its locks held: another thread unmaps the object,
 * which must wait.
 */
static void unmap_in_insert(struct mm_struct *mm, unsigned long pc)
{
	struct unmapper *u = &unmapper;

	test_discover_locked_hook = NULL;
	*u = (struct unmapper){
		.mm = mm, .base = pc & ~(OBJ_TEXT_SIZE - 1),
		.w = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER },
	};
	pthread_create(&unmapper_thread, NULL, unmapper_fn, u);
	pthread_mutex_lock(&u->w.lock);
	while (!u->done && !u->w.waiting)
		pthread_cond_wait(&u->w.cond, &u->w.lock);
	unmapper_waited = !u->done;
	pthread_mutex_unlock(&u->w.lock);
}

/* Between discovery's read of the object and its insert: a munmap(). */
static void unmap_before_insert(struct mm_struct *mm, unsigned long pc)
{
	unsigned long base = pc & ~(OBJ_TEXT_SIZE - 1);

	test_discover_hook = NULL;
	test_munmap(mm, base, OBJ_DATA_END(base));
}

static void test_discovery_read_locked(void)
{
	struct mm_struct *mm = mm_with_maps(3);
	unsigned long a = OBJ_BASE(0), b = OBJ_BASE(1), c = OBJ_BASE(2);
	unsigned long locks, sections;
	int ret;

	reg_set_discoverable(a, REG_FOUND_TABLE);
	reg_set_discoverable(c, REG_FOUND_TABLE);

	locks = test_write_locks;
	sections = test_sections;
	CHECK(reg_lookup(mm, PC(a)) == 0, "lookup of the object found");
	CHECK(reg_last_discovery == REG_DISC_ENTRY, "nothing found");
	CHECK(test_write_locks == locks,
	      "discovery took the mmap lock for writing %lu time(s)",
	      test_write_locks - locks);
	CHECK(test_sections == sections + 1, "discovery took %lu sections",
	      test_sections - sections);

	locks = test_write_locks;
	CHECK(reg_register(mm, b) == 0, "register");
	CHECK(reg_unregister(mm, b) == 0, "unregister");
	CHECK(test_write_locks == locks,
	      "a registration and its removal took the mmap lock for writing %lu time(s)",
	      test_write_locks - locks);

	/* A munmap() while the entry goes in. */
	test_discover_locked_hook = unmap_in_insert;
	ret = reg_lookup(mm, PC(c));
	CHECK(!test_discover_locked_hook, "discovery did not come to insert");
	pthread_join(unmapper_thread, NULL);
	/* The lookup that follows the insert may come after the munmap(). */
	CHECK((ret == 0 || ret == -ENOENT) &&
	      reg_last_discovery == REG_DISC_ENTRY, "the insert: %d, %d", ret,
	      reg_last_discovery);
	CHECK(unmapper_waited, "the munmap() did not wait for the insert");
	CHECK(!item_of(mm, c).serial, "the entry outlived the munmap()");
	CHECK(reg_lookup(mm, PC(c)) == -ENOENT &&
	      reg_last_discovery == REG_DISC_GONE,
	      "a lookup after the munmap(): %d", reg_last_discovery);

	/* A munmap() between the read and the insert. */
	test_obj_map(mm, c);
	test_discover_hook = unmap_before_insert;
	CHECK(reg_lookup(mm, PC(c)) == -ENOENT,
	      "a lookup in an object unmapped meanwhile");
	CHECK(!test_discover_hook, "discovery did not read the object");
	CHECK(reg_last_discovery == REG_DISC_GONE, "discovery: %d",
	      reg_last_discovery);
	CHECK(reg_contents(mm, NULL, 0) == 1 && reg_none_markers(mm) == 0,
	      "%d entries and %d markers, want a's alone",
	      reg_contents(mm, NULL, 0), reg_none_markers(mm));
	test_rcu_barrier();
	CHECK(test_blocks_live() == 1, "%ld entries allocated, want 1",
	      test_blocks_live());

	reg_set_discoverable(a, REG_FOUND_NOTHING);
	reg_set_discoverable(c, REG_FOUND_NOTHING);
	exit_mm(mm);
	check_clean();
}

/*
 * The same with threads: two look up (and so find tables, or mark objects
 * that have none) while a third unmaps and maps the objects again.  Every
 * change of the tree or of the mappings is in a section that excludes the
 * others (see linux/mm_types.h); replayed in their order over a model (per
 * object: mapped or not; nothing, an entry or a marker over it), each
 * insert must have found what the model says, and the tree at the end must
 * equal it.  Meanwhile, under the mmap read lock, every entry lies over an
 * executable mapping; and no lookup ever takes the mmap lock for writing.
 */
#define DSTRESS_OBJS	8
#define DSTRESS_NONE	6	/* objects 6, 7: no table (markers) */
#define DSTRESS_LOOKERS	2
#define DSTRESS_OPS	20000

enum dstress_op { D_LOOKUP, D_MAP, D_MUNMAP };

struct dstress_rec {
	unsigned long		epoch;		/* of its section, or 0 */
	enum dstress_op		op;
	int			obj;
	enum reg_discovery	disc;
};

struct dstress_thread {
	pthread_t		thread;
	unsigned int		seed;
	struct dstress_rec	*recs;
	int			nr_recs;
	int			errors;
	unsigned long		write_locks;
};

static struct mm_struct *dstress_mm;
static bool dstress_stop;
static unsigned int dstress_maple_fail;

static void dstress_yield(struct mm_struct *mm, unsigned long pc)
{
	if (test_rand() % 4 == 0)
		sched_yield();
}

static void *dstress_looker(void *arg)
{
	struct dstress_thread *t = arg;
	unsigned long sections;
	int i;

	rcu_register_thread();
	test_srand(t->seed);
	test_maple_fail_ratio = dstress_maple_fail;
	for (i = 0; i < DSTRESS_OPS; i++) {
		struct dstress_rec *rec = &t->recs[t->nr_recs++];
		int obj = test_rand() % DSTRESS_OBJS, ret;

		*rec = (struct dstress_rec){ .op = D_LOOKUP, .obj = obj };
		sections = test_sections;
		reg_last_discovery = REG_DISC_NOTHING;
		ret = reg_lookup(dstress_mm, PC(OBJ_BASE(obj)) +
					     test_rand() % 0x100);
		rec->disc = reg_last_discovery;
		if (test_sections - sections > 1) {
			printf("# a lookup took %lu sections\n",
			       test_sections - sections);
			t->errors++;
		}
		if (test_sections != sections)
			rec->epoch = test_last_section;
		if (ret && ret != -ENOENT) {
			printf("# a lookup: %d\n", ret);
			t->errors++;
		}
	}
	t->write_locks = test_write_locks;
	rcu_unregister_thread();
	return NULL;
}

/* Under the mmap read lock: every entry lies over an executable mapping. */
static int dstress_check(struct mm_struct *mm)
{
	struct reg_item items[DSTRESS_OBJS + 1];
	struct vm_area_struct *vma;
	int i, n, bad = 0;

	mmap_read_lock(mm);
	n = reg_contents(mm, items, DSTRESS_OBJS + 1);
	for (i = 0; i < n && i <= DSTRESS_OBJS; i++) {
		vma = vma_lookup(mm, items[i].start);
		if (!vma || !(vma->vm_flags & VM_EXEC) ||
		    vma->vm_end < items[i].end) {
			printf("# an entry at %#lx over no executable mapping\n",
			       items[i].start);
			bad++;
		}
	}
	mmap_read_unlock(mm);
	return bad;
}

static void *dstress_mapper(void *arg)
{
	struct dstress_thread *t = arg;
	unsigned long base;
	int obj, n = 0;

	rcu_register_thread();
	test_srand(t->seed);
	while (!__atomic_load_n(&dstress_stop, __ATOMIC_ACQUIRE)) {
		struct dstress_rec *rec = &t->recs[t->nr_recs++];

		obj = test_rand() % DSTRESS_OBJS;
		base = OBJ_BASE(obj);
		*rec = (struct dstress_rec){ .obj = obj };
		if (test_rand() % 2) {
			rec->op = D_MUNMAP;
			test_munmap(dstress_mm, base, OBJ_DATA_END(base));
		} else {
			rec->op = D_MAP;
			stress_map(dstress_mm, base);
		}
		rec->epoch = test_last_section;
		if (++n % 8 == 0)
			t->errors += dstress_check(dstress_mm);
		if (t->nr_recs == DSTRESS_OPS)
			break;
		sched_yield();
	}
	rcu_unregister_thread();
	return NULL;
}

static int dstress_cmp(const void *a, const void *b)
{
	const struct dstress_rec *x = *(struct dstress_rec *const *)a;
	const struct dstress_rec *y = *(struct dstress_rec *const *)b;

	return x->epoch < y->epoch ? -1 : x->epoch > y->epoch;
}

enum dstress_state { D_EMPTY, D_ENTRY, D_MARKER };

static void dstress_round(unsigned int maple_fail)
{
	struct dstress_thread threads[DSTRESS_LOOKERS + 1] = {};
	struct dstress_thread *mapper = &threads[DSTRESS_LOOKERS];
	enum dstress_state state[DSTRESS_OBJS] = {};
	bool mapped[DSTRESS_OBJS];
	struct dstress_rec **all;
	int i, j, nr = 0, bad = 0, entries = 0, markers = 0;
	int found[5] = {};

	dstress_maple_fail = maple_fail;
	dstress_stop = false;
	dstress_mm = mm_with_maps(DSTRESS_OBJS);
	for (i = 0; i < DSTRESS_OBJS; i++) {
		mapped[i] = true;
		reg_set_discoverable(OBJ_BASE(i), i < DSTRESS_NONE ?
				     REG_FOUND_TABLE : REG_FOUND_NONE);
	}
	mt_set_non_kernel(0);
	test_discover_hook = dstress_yield;
	test_discover_locked_hook = dstress_yield;
	for (i = 0; i <= DSTRESS_LOOKERS; i++) {
		threads[i].seed = 0x61c88647U * (i + 1);
		threads[i].recs = calloc(DSTRESS_OPS, sizeof(struct dstress_rec));
		if (!threads[i].recs)
			abort();
	}
	pthread_create(&mapper->thread, NULL, dstress_mapper, mapper);
	for (i = 0; i < DSTRESS_LOOKERS; i++)
		pthread_create(&threads[i].thread, NULL, dstress_looker,
			       &threads[i]);
	for (i = 0; i < DSTRESS_LOOKERS; i++)
		pthread_join(threads[i].thread, NULL);
	__atomic_store_n(&dstress_stop, true, __ATOMIC_RELEASE);
	pthread_join(mapper->thread, NULL);
	test_discover_hook = NULL;
	test_discover_locked_hook = NULL;

	all = calloc((DSTRESS_LOOKERS + 1) * DSTRESS_OPS, sizeof(*all));
	if (!all)
		abort();
	for (i = 0; i <= DSTRESS_LOOKERS; i++) {
		CHECK(threads[i].errors == 0, "thread %d: %d errors", i,
		      threads[i].errors);
		if (i < DSTRESS_LOOKERS)
			CHECK(!threads[i].write_locks,
			      "lookups took the mmap lock for writing %lu times",
			      threads[i].write_locks);
		for (j = 0; j < threads[i].nr_recs; j++) {
			struct dstress_rec *rec = &threads[i].recs[j];

			if (rec->epoch)
				all[nr++] = rec;
			else if (rec->disc != REG_DISC_NOTHING && bad++ < 5)
				printf("# discovery changed the tree without a section\n");
			if (rec->op == D_LOOKUP)
				found[rec->disc]++;
		}
	}
	qsort(all, nr, sizeof(*all), dstress_cmp);
	for (i = 0; i < nr; i++) {
		const struct dstress_rec *rec = all[i];
		int o = rec->obj;
		bool ok = true;

		if (i && rec->epoch == all[i - 1]->epoch)
			ok = false;
		switch (rec->op) {
		case D_MAP:
			mapped[o] = true;
			state[o] = D_EMPTY;
			break;
		case D_MUNMAP:
			mapped[o] = false;
			state[o] = D_EMPTY;
			break;
		case D_LOOKUP:
			switch (rec->disc) {
			case REG_DISC_ENTRY:
				ok = mapped[o] && state[o] == D_EMPTY &&
				     o < DSTRESS_NONE;
				state[o] = D_ENTRY;
				break;
			case REG_DISC_MARKER:
				ok = mapped[o] && state[o] == D_EMPTY;
				state[o] = D_MARKER;
				break;
			case REG_DISC_COVERED:
				ok = mapped[o] && state[o] != D_EMPTY;
				break;
			case REG_DISC_GONE:
				ok = !mapped[o];
				break;
			case REG_DISC_NOTHING:
				/* No memory to insert: nothing changed. */
				break;
			}
			break;
		}
		if (!ok && bad++ < 5)
			printf("# section %lu: %s of object %d (discovery %d); model: %s, %d\n",
			       rec->epoch, rec->op == D_LOOKUP ? "lookup" :
			       rec->op == D_MAP ? "map" : "munmap", o,
			       rec->disc, mapped[o] ? "mapped" : "unmapped",
			       state[o]);
	}
	CHECK(bad == 0, "%d sections against the model", bad);

	for (i = 0; i < DSTRESS_OBJS; i++) {
		struct reg_item it = item_of(dstress_mm, OBJ_BASE(i));

		CHECK(!it.serial == (state[i] != D_ENTRY),
		      "object %d: entry %lu, model %d", i, it.serial, state[i]);
		entries += state[i] == D_ENTRY;
		markers += state[i] == D_MARKER;
	}
	CHECK(reg_count(dstress_mm) == entries &&
	      reg_none_markers(dstress_mm) == markers,
	      "%ld entries, %d markers; model %d, %d", reg_count(dstress_mm),
	      reg_none_markers(dstress_mm), entries, markers);
	test_rcu_barrier();
	CHECK(test_blocks_live() == entries, "%ld entries allocated, model %d",
	      test_blocks_live(), entries);
	printf("# %d sections; lookups: %d found nothing to do, %d tables,",
	       nr, found[REG_DISC_NOTHING], found[REG_DISC_ENTRY]);
	printf(" %d marked, %d covered, %d unmapped\n",
	       found[REG_DISC_MARKER], found[REG_DISC_COVERED],
	       found[REG_DISC_GONE]);

	for (i = 0; i < DSTRESS_OBJS; i++)
		reg_set_discoverable(OBJ_BASE(i), REG_FOUND_NOTHING);
	exit_mm(dstress_mm);
	check_clean();
	for (i = 0; i <= DSTRESS_LOOKERS; i++)
		free(threads[i].recs);
	free(all);
}

static void test_discovery_munmap_stress(void)
{
	printf("# no allocation fails\n");
	dstress_round(0);
	printf("# 1 in 8 node allocations of the inserts fails\n");
	dstress_round(8);
}

/*
 * ---- A pc that no FDE covers is searched once ----
 *
 * A lookup whose search finds no FDE for the pc (hand-written assembly, a
 * runtime's builtins) keeps that as it keeps a frame: the same pc again is
 * answered from the cache, not searched (the registry of 3ec176df9
 * searched at every sample).  The answer goes with the generation, as a
 * frame does: after a removal the pc is searched again, and a table that
 * comes at the same address (dlclose(), dlopen()) is asked.  The same for
 * a table without a header, searched through its index.
 */
static void test_none_cached(void)
{
	struct mm_struct *mm = mm_with_objs(2);
	unsigned long a = OBJ_BASE(0), b = OBJ_BASE(1), c = OBJ_BASE(2);
	unsigned long pc = PC(a) + 0x100, hits0, misses0, hits, misses;
	long searches, cached = reg_stat("none_cached");
	int i, n, ret;

	test_table_add_nofde(pc, pc + 0x100);
	searches = test_table_searches();
	ret = reg_lookup(mm, pc);
	CHECK(ret == -ENOENT, "a pc no FDE covers: %d", ret);
	CHECK(test_table_searches() == searches + 1, "%ld searches, want 1",
	      test_table_searches() - searches);
	CHECK(!reg_cache_stats(mm, &hits0, &misses0),
	      "nothing cached for a pc no FDE covers");
	for (i = 0, n = 0; i < 100; i++)
		n += reg_lookup(mm, pc) == -ENOENT;
	CHECK(n == 100, "%d of 100 lookups -ENOENT", n);
	printf("# 101 lookups of a pc no FDE covers: %ld search(es)\n",
	       test_table_searches() - searches);
	CHECK(test_table_searches() == searches + 1,
	      "%ld searches for 101 lookups, want 1",
	      test_table_searches() - searches);
	CHECK(!reg_cache_stats(mm, &hits, &misses) && hits == hits0 + 100,
	      "not answered from the cache");
	if (cached >= 0)
		CHECK(reg_stat("none_cached") == cached + 100,
		      "debugfs none_cached %ld, want %ld",
		      reg_stat("none_cached"), cached + 100);
	CHECK(reg_lookup(mm, pc + 0x100) == 0 && reg_lookup(mm, PC(a)) == 0,
	      "the frames around it");

	/* A removal elsewhere: searched again, once. */
	CHECK(reg_unregister(mm, b) == 0, "unregister");
	searches = test_table_searches();
	CHECK(reg_lookup(mm, pc) == -ENOENT && reg_lookup(mm, pc) == -ENOENT,
	      "after a removal");
	CHECK(test_table_searches() == searches + 1,
	      "after a removal: %ld searches, want 1",
	      test_table_searches() - searches);

	/* Another object at the same address, which has an FDE there. */
	test_table_clear_nofde();
	CHECK(reg_unregister(mm, a) == 0, "unregister");
	test_munmap(mm, a, OBJ_DATA_END(a));
	test_obj_map(mm, a);
	CHECK(reg_register(mm, a) == 0, "register again");
	test_last_lookup_serial = 0;
	ret = reg_lookup(mm, pc);
	CHECK(ret == 0 && test_last_lookup_serial == serial_of(mm, a),
	      "the new object: %d, from table %lu, want %lu", ret,
	      test_last_lookup_serial, serial_of(mm, a));

	/* Without a header: the index says it. */
	test_obj_map(mm, c);
	CHECK(reg_register_bare(mm, c) == 0, "registering without a header");
	test_table_add_nofde(PC(c), PC(c) + 1);
	searches = test_table_searches();
	for (i = 0, n = 0; i < 10; i++)
		n += reg_lookup(mm, PC(c)) == -ENOENT;
	CHECK(n == 10, "%d of 10 lookups -ENOENT", n);
	CHECK(test_table_searches() == searches + 1,
	      "without a header: %ld searches, want 1",
	      test_table_searches() - searches);
	/* The table goes: its "none" too. */
	test_table_clear_nofde();
	test_munmap(mm, c, c + OBJ_TEXT_SIZE);
	CHECK(reg_lookup(mm, PC(c)) == -ENOENT, "unmapped");
	test_munmap(mm, c, OBJ_DATA_END(c));
	test_obj_map(mm, c);
	CHECK(reg_register_bare(mm, c) == 0, "registering again");
	CHECK(reg_lookup(mm, PC(c)) == 0, "the new table's frame");

	exit_mm(mm);
	check_clean();
}

/*
 * ---- mprotect() to executable drops markers, not entries ----
 *
 * Memory in which the kernel found no table may hold other code once its
 * protection changed (a JIT's, an image a loader copied): its marker goes,
 * and the next lookup there probes it again.  Entries stay (a registered
 * JIT table outlives the W^X flips of its code), and so do markers outside
 * the range; where there is no marker, nothing changes, not even the
 * generation; an mm without tables takes no lock.  The registry of
 * 3ec176df9 had no such hook: the marker stayed.
 */
static void test_protect_markers(void)
{
	struct mm_struct *mm = mm_with_maps(4), *empty = mm_with_maps(1);
	unsigned long a = OBJ_BASE(0), b = OBJ_BASE(1), c = OBJ_BASE(2);
	unsigned long d = OBJ_BASE(3), sb, sc, mutexes;
	long calls;
	long long gen;

	reg_set_discoverable(a, REG_FOUND_NONE);
	reg_set_discoverable(c, REG_FOUND_TABLE);
	reg_set_discoverable(d, REG_FOUND_NONE);
	CHECK(reg_register(mm, b) == 0, "register");
	CHECK(reg_lookup(mm, PC(a)) == -ENOENT && reg_lookup(mm, PC(b)) == 0 &&
	      reg_lookup(mm, PC(c)) == 0 && reg_lookup(mm, PC(d)) == -ENOENT,
	      "the first lookups");
	CHECK(reg_none_markers(mm) == 2, "%d markers, want 2",
	      reg_none_markers(mm));
	sb = serial_of(mm, b);
	sc = serial_of(mm, c);
	calls = reg_discover_calls();

	/* Code with a table there now. */
	reg_set_discoverable(a, REG_FOUND_TABLE);
	test_mprotect(mm, a, OBJ_DATA_END(c), VM_READ | VM_EXEC);
	CHECK(!shows(mm, a, a + OBJ_TEXT_SIZE, "discovered none\n"),
	      "the marker in the range is left");
	CHECK(shows(mm, d, d + OBJ_TEXT_SIZE, "discovered none\n"),
	      "the marker outside the range went");
	CHECK(serial_of(mm, b) == sb && item_of(mm, b).origin == REG_PRCTL,
	      "the registration went");
	CHECK(serial_of(mm, c) == sc && item_of(mm, c).origin == REG_FILE,
	      "the table found went");
	CHECK(reg_count(mm) == 2, "%ld entries, want 2", reg_count(mm));
	test_last_lookup_serial = 0;
	CHECK(reg_lookup(mm, PC(b)) == 0 && test_last_lookup_serial == sb,
	      "the registration's frame");
	CHECK(reg_lookup(mm, PC(c)) == 0, "the found table's frame");
	CHECK(reg_discover_calls() == calls, "%ld calls of discovery",
	      reg_discover_calls() - calls);
	CHECK(reg_lookup(mm, PC(a)) == 0 && item_of(mm, a).origin == REG_FILE,
	      "not looked at again");
	CHECK(reg_lookup(mm, PC(d)) == -ENOENT &&
	      reg_discover_calls() == calls + 1, "%ld calls of discovery",
	      reg_discover_calls() - calls);

	/* Over entries alone: the frames cached stay. */
	gen = reg_generation(mm);
	test_mprotect(mm, b, b + OBJ_TEXT_SIZE, VM_READ | VM_EXEC);
	CHECK(reg_generation(mm) == gen, "a new generation");
	expect_hit(mm, b, "after mprotect() over a registration");

	mutexes = test_mutex_locks;
	test_mprotect(empty, OBJ_BASE(0), OBJ_BASE(0) + OBJ_TEXT_SIZE,
		      VM_READ | VM_EXEC);
	CHECK(test_mutex_locks == mutexes,
	      "mprotect() of an mm without tables took the registry's lock");

	reg_set_discoverable(a, REG_FOUND_NOTHING);
	reg_set_discoverable(c, REG_FOUND_NOTHING);
	reg_set_discoverable(d, REG_FOUND_NOTHING);
	exit_mm(empty);
	exit_mm(mm);
	check_clean();
}

/*
 * ---- The module of a format's handler: asked for at most once a minute ----
 *
 * A registration of a format whose handler is not loaded asks modprobe for
 * it (request_module()) only if this kernel has it as a module, at most
 * once a minute whoever asks, and only for a range that is mapped: 1000
 * registrations of a PE image whose module never appears ask once a
 * minute (the registry of 3ec176df9 asked at each, for any format, even
 * for a range not mapped).  A module that loads serves the registration
 * that asked, and the entries hold references on it.  jiffies wrap within
 * that minute.
 */
static int pe_load_hook(const char *name)
{
	char want[32];

	snprintf(want, sizeof(want), "unwind-user-format-%d", REG_FORMAT_PE);
	if (strcmp(name, want))
		return -ENOENT;
	/* Loaded already (-EBUSY): modprobe says 0. */
	reg_pe_load();
	return 0;
}

static long module_requests(void)
{
	return __atomic_load_n(&test_request_module_calls, __ATOMIC_SEQ_CST);
}

static int register_images(struct mm_struct *mm, unsigned int format,
			   unsigned long base, int nr)
{
	int i, n = 0;

	for (i = 0; i < nr; i++)
		n += reg_add_table(mm, format, base, OBJ_DATA_END(base)) ==
		     -ENOPROTOOPT;
	return n;
}

static void test_format_load_rate(void)
{
	struct mm_struct *mm = mm_with_maps(2);
	unsigned long a = OBJ_BASE(0), b = OBJ_BASE(1), hole = OBJ_BASE(9);
	long calls = module_requests();
	int n, ret;

	jiffies = -(unsigned long)(10 * HZ);
	n = register_images(mm, REG_FORMAT_PE, a, 1000);
	printf("# 1000 registrations of a module that never loads: %ld request(s)\n",
	       module_requests() - calls);
	CHECK(n == 1000, "%d of 1000 registrations -ENOPROTOOPT", n);
	CHECK(module_requests() == calls + 1,
	      "1000 registrations asked for the module %ld times, want 1",
	      module_requests() - calls);
	jiffies += 30 * HZ;
	CHECK(register_images(mm, REG_FORMAT_PE, a, 1000) == 1000 &&
	      module_requests() == calls + 1,
	      "30 s on (jiffies wrapped): %ld requests, want 1",
	      module_requests() - calls);
	jiffies += 31 * HZ;
	CHECK(register_images(mm, REG_FORMAT_PE, a, 1000) == 1000 &&
	      module_requests() == calls + 2,
	      "61 s on: %ld requests, want 2", module_requests() - calls);

	CHECK(register_images(mm, REG_FORMAT_UNKNOWN, a, 1000) == 1000,
	      "registrations of a format without a handler");
	CHECK(module_requests() == calls + 2,
	      "a format this kernel has no module of was asked for");

	jiffies += 61 * HZ;
	ret = reg_add_table(mm, REG_FORMAT_PE, hole, hole + OBJ_TEXT_SIZE);
	CHECK(ret == -ENOMEM, "a range not mapped: %d", ret);
	CHECK(module_requests() == calls + 2,
	      "the module was asked for before the range was checked");

	test_request_module = pe_load_hook;
	ret = reg_add_table(mm, REG_FORMAT_PE, a, OBJ_DATA_END(a));
	CHECK(ret == 0 && module_requests() == calls + 3,
	      "a module that loads: %d, %ld requests", ret,
	      module_requests() - calls);
	CHECK(reg_format_of(mm, a) == REG_FORMAT_PE &&
	      item_of(mm, a).origin == REG_PRCTL, "no entry of the format");
	CHECK(shows(mm, a, OBJ_DATA_END(a), "prctl pe\n"),
	      "/proc does not show the image");
	CHECK(reg_add_table(mm, REG_FORMAT_PE, b, OBJ_DATA_END(b)) == 0 &&
	      module_requests() == calls + 3, "a second image");
	CHECK(reg_pe_module_refs() == 2, "%d references on the module, want 2",
	      reg_pe_module_refs());
	test_last_lookup_serial = 0;
	CHECK(reg_lookup(mm, PC(b)) == 0 && test_last_lookup_serial == b,
	      "a lookup in the image: from %#lx", test_last_lookup_serial);
	CHECK(reg_remove(mm, REG_FORMAT_PE, a, OBJ_DATA_END(a)) == 0,
	      "unregister");
	test_munmap(mm, b, OBJ_DATA_END(b));
	test_rcu_barrier();
	CHECK(reg_pe_module_refs() == 0, "%d references left on the module",
	      reg_pe_module_refs());

	reg_pe_unload();
	test_request_module = NULL;
	exit_mm(mm);
	check_clean();
}

/*
 * ---- Discovery never waits for a module: a worker asks ----
 *
 * unwind_user_format_find() (discovery's way to a handler) queues a worker
 * that asks modprobe, and says -EAGAIN while it is to; once it ran and
 * nothing came, -ENOPROTOOPT for a minute; once the module came, the
 * handler.  A PE image met meanwhile is probed again later (not marked),
 * then marked once none will come; once its handler is there, an image is
 * found by a lookup, as an entry of the format that holds a reference on
 * the module, also dropped when the entry cannot go in (the registry of
 * 3ec176df9 had no such way: -ENOPROTOOPT at once).
 */
static void test_format_find_worker(void)
{
	struct mm_struct *mm = mm_with_maps(3);
	unsigned long a = OBJ_BASE(0), b = OBJ_BASE(1), c = OBJ_BASE(2);
	long calls = module_requests();
	int i, n, ret;

	ret = reg_format_find(REG_FORMAT_PE);
	CHECK(ret == -EAGAIN, "the handler of a module not loaded: %d", ret);
	CHECK(test_work_queued() == 1, "%d items of work queued",
	      test_work_queued());
	CHECK(module_requests() == calls, "discovery asked for the module itself");
	CHECK(reg_format_find(REG_FORMAT_PE) == -EAGAIN &&
	      test_work_queued() == 1, "asked again: %d items queued",
	      test_work_queued());

	reg_set_discoverable(a, REG_FOUND_PE);
	CHECK(reg_lookup(mm, PC(a)) == -ENOENT, "a lookup in the image");
	CHECK(!reg_contents(mm, NULL, 0) && !reg_none_markers(mm),
	      "the image is marked while its module is asked for");

	CHECK(test_run_work() == 1, "the worker did not run");
	CHECK(module_requests() == calls + 1, "the worker: %ld requests",
	      module_requests() - calls);
	for (i = 0, n = 0; i < 100; i++)
		n += reg_format_find(REG_FORMAT_PE) == -ENOPROTOOPT;
	CHECK(n == 100 && !test_work_queued() && module_requests() == calls + 1,
	      "nothing came: %d of 100 -ENOPROTOOPT, %d queued, %ld requests",
	      n, test_work_queued(), module_requests() - calls);
	CHECK(reg_format_find(REG_FORMAT_UNKNOWN) == -ENOPROTOOPT &&
	      !test_work_queued(), "a format without a module");
	CHECK(reg_lookup(mm, PC(a)) == -ENOENT && reg_none_markers(mm) == 1,
	      "the image is not marked once no handler will come");

	/* A minute on, the module comes when asked for. */
	jiffies += 61 * HZ;
	test_request_module = pe_load_hook;
	CHECK(reg_format_find(REG_FORMAT_PE) == -EAGAIN, "not asked again");
	CHECK(test_run_work() == 1 && module_requests() == calls + 2,
	      "the worker: %ld requests", module_requests() - calls);
	CHECK(reg_format_find(REG_FORMAT_PE) == 0, "no handler once loaded");
	CHECK(reg_pe_module_refs() == 0, "%d references on the module",
	      reg_pe_module_refs());

	reg_set_discoverable(b, REG_FOUND_PE);
	test_last_lookup_serial = 0;
	ret = reg_lookup(mm, PC(b));
	CHECK(ret == 0 && test_last_lookup_serial == b,
	      "a lookup in an image: %d, from %#lx", ret,
	      test_last_lookup_serial);
	CHECK(reg_format_of(mm, b) == REG_FORMAT_PE &&
	      item_of(mm, b).origin == REG_FILE, "no entry of the format");
	CHECK(shows(mm, b, b + OBJ_TEXT_SIZE, "discovered pe\n"),
	      "/proc does not show the image found");
	CHECK(reg_pe_module_refs() == 1, "%d references on the module, want 1",
	      reg_pe_module_refs());

	/* Found, but no memory to put it in: its reference goes. */
	reg_set_discoverable(c, REG_FOUND_PE);
	test_store_fail_nth(1);
	CHECK(reg_lookup(mm, PC(c)) == -ENOENT, "a lookup without memory");
	test_store_fail_nth(0);
	CHECK(reg_format_of(mm, c) < 0, "an entry without memory");
	CHECK(reg_pe_module_refs() == 1,
	      "%d references on the module after an entry was discarded",
	      reg_pe_module_refs());

	test_munmap(mm, a, OBJ_DATA_END(c));
	test_rcu_barrier();
	CHECK(reg_pe_module_refs() == 0, "%d references left on the module",
	      reg_pe_module_refs());
	reg_set_discoverable(a, REG_FOUND_NOTHING);
	reg_set_discoverable(b, REG_FOUND_NOTHING);
	reg_set_discoverable(c, REG_FOUND_NOTHING);
	reg_pe_unload();
	test_request_module = NULL;
	exit_mm(mm);
	check_clean();
}

/*
 * ---- Registrations while the worker is to ask for a module ----
 *
 * "At most one load per minute and format, whoever asks": discovery has
 * the worker ask, and registrations meanwhile must not ask modprobe again,
 * each of them.  They wait for the worker's load instead, and use the
 * module if it came.
 */
static void test_format_load_pending(void)
{
	struct mm_struct *mm = mm_with_maps(1);
	unsigned long a = OBJ_BASE(0);
	long calls = module_requests();
	int n, ret;

	CHECK(reg_format_find(REG_FORMAT_PE) == -EAGAIN, "no worker queued");
	n = register_images(mm, REG_FORMAT_PE, a, 1000);
	test_run_work();
	printf("# 1000 registrations while the worker was to ask: %ld request(s)\n",
	       module_requests() - calls);
	CHECK(n == 1000, "%d of 1000 registrations -ENOPROTOOPT", n);
	CHECK(module_requests() == calls + 1,
	      "%ld requests of the module within a minute, want 1",
	      module_requests() - calls);

	jiffies += 61 * HZ;
	test_request_module = pe_load_hook;
	CHECK(reg_format_find(REG_FORMAT_PE) == -EAGAIN, "no worker queued");
	ret = reg_add_table(mm, REG_FORMAT_PE, a, OBJ_DATA_END(a));
	CHECK(ret == 0, "a registration while the module loads: %d", ret);
	test_run_work();
	CHECK(module_requests() == calls + 2,
	      "%ld requests of the module in two minutes, want 2",
	      module_requests() - calls);

	test_munmap(mm, a, OBJ_DATA_END(a));
	reg_pe_unload();
	test_request_module = NULL;
	exit_mm(mm);
	check_clean();
}

/*
 * ---- A walk that may not fault neither probes nor indexes ----
 *
 * The walk of an exiting task runs with page faults disabled: a lookup
 * then does not look for the table of what is mapped (discovery reads and
 * takes locks) and does not build an index (its reads would fail, and the
 * failure be kept for the entry's other users): -ENOENT, -EOPNOTSUPP, and
 * nothing counted against the entry; a table with a header is searched
 * without the index.  The next walk that may fault does both.  (The
 * registry of 3ec176df9 did both with faults disabled.)
 */
static void test_pagefault_disabled(void)
{
	struct mm_struct *mm = mm_with_maps(3);
	unsigned long a = OBJ_BASE(0), b = OBJ_BASE(1), c = OBJ_BASE(2);
	long calls, builds;
	int ret;

	reg_set_discoverable(a, REG_FOUND_TABLE);
	CHECK(reg_register_bare(mm, b) == 0, "registering without a header");
	CHECK(reg_register(mm, c) == 0, "registering");
	calls = reg_discover_calls();
	builds = test_index_builds();

	pagefault_disable();
	ret = reg_lookup(mm, PC(a));
	CHECK(ret == -ENOENT, "a lookup in an object not found yet: %d", ret);
	CHECK(reg_discover_calls() == calls,
	      "discovery was called with page faults disabled");
	CHECK(!item_of(mm, a).serial && !reg_none_markers(mm),
	      "found with page faults disabled");
	ret = reg_lookup(mm, PC(b));
	CHECK(ret == -EOPNOTSUPP, "a lookup in a table without an index: %d",
	      ret);
	ret = reg_lookup(mm, PC(c));
	CHECK(ret == 0, "a lookup in a table with a header: %d", ret);
	CHECK(test_index_builds() == builds,
	      "%ld indexes built with page faults disabled",
	      test_index_builds() - builds);
	pagefault_enable();

	CHECK(reg_lookup(mm, PC(a)) == 0 && reg_discover_calls() == calls + 1,
	      "not found once faults are allowed");
	CHECK(reg_lookup(mm, PC(b)) == 0, "not indexed once faults are allowed");
	/* The object found and the table without a header. */
	CHECK(test_index_builds() == builds + 2, "%ld indexes built, want 2",
	      test_index_builds() - builds);

	reg_set_discoverable(a, REG_FOUND_NOTHING);
	exit_mm(mm);
	check_clean();
}

/*
 * ---- The shim's lock order check is live ----
 *
 * Not a test of the registry (it passes on any): an mmap lock taken under
 * unwind_user_lock, two mutexes taken in both orders, a mutex asserted held
 * that is not, each ends its process.
 */
static DEFINE_MUTEX(order_x);
static DEFINE_MUTEX(order_y);

static bool aborts(int what, struct mm_struct *mm)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (!pid) {
		/* Its message is expected: not on the test's stderr. */
		if (!freopen("/dev/null", "w", stderr))
			_exit(2);
		switch (what) {
		case 0:
			mutex_lock(&mm->unwind_user_lock);
			mmap_read_lock(mm);
			break;
		case 1:
			mutex_lock(&order_x);
			mutex_lock(&order_y);
			mutex_unlock(&order_y);
			mutex_unlock(&order_x);
			mutex_lock(&order_y);
			mutex_lock(&order_x);
			break;
		case 2:
			lockdep_assert_held(&mm->unwind_user_lock);
			break;
		case 3:
			/* The right order passes. */
			mmap_read_lock(mm);
			mutex_lock(&mm->unwind_user_lock);
			lockdep_assert_held(&mm->unwind_user_lock);
			mmap_assert_locked(mm);
			mutex_unlock(&mm->unwind_user_lock);
			mmap_read_unlock(mm);
			_exit(0);
		}
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return false;
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void test_lock_order_checked(void)
{
	struct mm_struct *mm = test_mm_new();

	CHECK(aborts(0, mm), "an mmap lock taken under unwind_user_lock");
	CHECK(aborts(1, mm), "two mutexes taken in both orders");
	CHECK(aborts(2, mm), "a mutex not held asserted held");
	CHECK(!aborts(3, mm), "the order of the registry's writers");
	exit_mm(mm);
	check_clean();
}

#endif /* REGISTRY_TEST_DISCOVERY */

/* ---- the runner ---- */

struct test {
	const char	*name;
	void		(*fn)(void);
};

static const struct test tests[] = {
	{ "race_unregister_unregister", test_race_unregister_unregister },
	{ "race_munmap_unregister", test_race_munmap_unregister },
	{ "race_unregister_munmap", test_race_unregister_munmap },
#ifndef REGISTRY_TEST_OLD
	{ "race_drop_unregister", test_race_drop_unregister },
#endif
	{ "race_unregister_drop", test_race_unregister_drop },
	{ "stale_drop_after_reuse", test_stale_drop_after_reuse },
	{ "fork_shares", test_fork_shares },
	{ "cache_invalidation", test_cache_invalidation },
	{ "unregister_nomem", test_unregister_nomem },
	{ "munmap_nomem", test_munmap_nomem },
	{ "dead_entry", test_dead_entry },
	{ "dead_in_child", test_dead_in_child },
#ifndef REGISTRY_TEST_OLD
	{ "index_build_fails", test_index_build_fails },
	{ "index_build_invalid", test_index_build_invalid },
	{ "index_build_charged", test_index_build_charged },
	{ "index_memory_cap", test_index_memory_cap },
	{ "erase_stores_fail", test_erase_stores_fail },
	{ "cache_alloc_fails", test_cache_alloc_fails },
	{ "mremap_bare", test_mremap_bare },
	{ "mremap_text_alone", test_mremap_text_alone },
	{ "index_cost_cached", test_index_cost_cached },
	{ "index_failure_forked", test_index_failure_forked },
	{ "register_over_kept_entry", test_register_over_kept_entry },
#endif
#ifdef REGISTRY_TEST_DISCOVERY
	/* Not against the old registry: see above test_discovered_replaced. */
	{ "discovered_replaced", test_discovered_replaced },
	{ "discovery_yields", test_discovery_yields },
	{ "discovered_keeps_cache", test_discovered_keeps_cache },
	{ "markers", test_markers },
	{ "dead_discovered", test_dead_discovered },
	{ "registry_ops_quiet", test_registry_ops_quiet },
	{ "has_tables", test_has_tables },
	{ "forget_found", test_forget_found },
	/* Each fails on the registry of 3ec176df9 (make run_base). */
	{ "discovery_read_locked", test_discovery_read_locked },
	{ "discovery_munmap_stress", test_discovery_munmap_stress },
	{ "none_cached", test_none_cached },
	{ "protect_markers", test_protect_markers },
	{ "format_load_rate", test_format_load_rate },
	{ "format_find_worker", test_format_find_worker },
	{ "format_load_pending", test_format_load_pending },
	{ "pagefault_disabled", test_pagefault_disabled },
	/* The shim's, not the registry's: passes on any. */
	{ "lock_order_checked", test_lock_order_checked },
#endif
	{ "stress", test_stress },
};

#define NR_TESTS	ARRAY_SIZE(tests)

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
