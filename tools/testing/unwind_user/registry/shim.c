// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel provides registry.c, in user space: an mm with its mmap
 * lock and fake VMAs, current, the registry's allocator (tracked, so that a
 * second free is seen at once), kfree_rcu() over liburcu, and failures of
 * the maple tree's node allocations, of the registry's stores into its
 * tree and of the frame cache's allocations.
 */
/* The harness' base headers (tools/testing/shared), which come first. */
#include <shared.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/jiffies.h>
#include <linux/kmod.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/workqueue.h>

#include "regtest.h"

__thread struct task_struct test_current_task = { .comm = "regtest" };

/* ---- VMAs ---- */

struct vm_area_struct *vma_find(struct vma_iterator *vmi, unsigned long max)
{
	struct mm_struct *mm = vmi->mm;
	unsigned int i;

	for (i = 0; i < mm->nr_vmas; i++) {
		struct vm_area_struct *vma = &mm->vmas[i];

		if (vma->vm_end <= vmi->addr)
			continue;
		if (vma->vm_start >= max)
			return NULL;
		vmi->addr = vma->vm_end;
		return vma;
	}
	return NULL;
}

struct vm_area_struct *vma_lookup(struct mm_struct *mm, unsigned long addr)
{
	VMA_ITERATOR(vmi, mm, addr);
	struct vm_area_struct *vma = vma_find(&vmi, addr + 1);

	return vma && vma->vm_start <= addr ? vma : NULL;
}

/* Split the VMAs at @addr, so that none crosses it. */
static int vma_split(struct mm_struct *mm, unsigned long addr)
{
	unsigned int i;

	for (i = 0; i < mm->nr_vmas; i++) {
		struct vm_area_struct *vma = &mm->vmas[i];

		if (vma->vm_start >= addr)
			return 0;
		if (vma->vm_end <= addr)
			continue;
		if (mm->nr_vmas == TEST_MM_MAX_VMAS)
			return -ENOMEM;
		memmove(vma + 1, vma, (mm->nr_vmas - i) * sizeof(*vma));
		mm->nr_vmas++;
		vma->vm_end = addr;
		vma[1].vm_start = addr;
		return 0;
	}
	return 0;
}

void test_vma_unmap(struct mm_struct *mm, unsigned long start,
		    unsigned long end)
{
	unsigned int i, n = 0;

	mmap_assert_write_locked(mm);
	if (vma_split(mm, start) || vma_split(mm, end)) {
		fprintf(stderr, "regtest: too many VMAs\n");
		abort();
	}
	for (i = 0; i < mm->nr_vmas; i++) {
		if (mm->vmas[i].vm_start >= start && mm->vmas[i].vm_end <= end)
			continue;
		mm->vmas[n++] = mm->vmas[i];
	}
	mm->nr_vmas = n;
}

int test_vma_map(struct mm_struct *mm, unsigned long start, unsigned long end,
		 unsigned long flags)
{
	unsigned int i;

	mmap_assert_write_locked(mm);
	test_vma_unmap(mm, start, end);
	if (mm->nr_vmas == TEST_MM_MAX_VMAS)
		return -ENOMEM;
	for (i = 0; i < mm->nr_vmas; i++)
		if (mm->vmas[i].vm_start >= end)
			break;
	memmove(&mm->vmas[i + 1], &mm->vmas[i],
		(mm->nr_vmas - i) * sizeof(mm->vmas[0]));
	mm->nr_vmas++;
	mm->vmas[i] = (struct vm_area_struct){
		.vm_start = start, .vm_end = end, .vm_flags = flags,
	};
	return 0;
}

void test_obj_map(struct mm_struct *mm, unsigned long base)
{
	mmap_write_lock(mm);
	if (test_vma_map(mm, base, base + OBJ_TEXT_SIZE, VM_READ | VM_EXEC) ||
	    test_vma_map(mm, base + OBJ_TEXT_SIZE, OBJ_DATA_END(base),
			 VM_READ)) {
		fprintf(stderr, "regtest: too many VMAs\n");
		abort();
	}
	mmap_write_unlock(mm);
}

/* As munmap() does it: VMAs, then the registry, in one write lock. */
void test_munmap(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	mmap_write_lock(mm);
	test_vma_unmap(mm, start, end);
	reg_unmap_locked(mm, start, end);
	mmap_write_unlock(mm);
}

#ifndef REGISTRY_TEST_OLD
void test_mremap(struct mm_struct *mm, unsigned long old_start,
		 unsigned long old_end, unsigned long new_start)
{
	struct vm_area_struct *vma;

	mmap_write_lock(mm);
	/* mremap() moves one mapping at a time. */
	vma = vma_lookup(mm, old_start);
	if (!vma || vma->vm_end < old_end ||
	    test_vma_map(mm, new_start, new_start + old_end - old_start,
			 vma->vm_flags)) {
		fprintf(stderr, "regtest: mremap of %#lx-%#lx: not one mapping\n",
			old_start, old_end);
		abort();
	}
	reg_move_locked(mm, old_start, old_end, new_start);
	test_vma_unmap(mm, old_start, old_end);
	reg_unmap_locked(mm, old_start, old_end);
	mmap_write_unlock(mm);
}
#endif

#ifdef REGISTRY_TEST_DISCOVERY
void test_mprotect(struct mm_struct *mm, unsigned long start,
		   unsigned long end, unsigned long flags)
{
	unsigned int i;

	mmap_write_lock(mm);
	if (vma_split(mm, start) || vma_split(mm, end)) {
		fprintf(stderr, "regtest: too many VMAs\n");
		abort();
	}
	for (i = 0; i < mm->nr_vmas; i++)
		if (mm->vmas[i].vm_start >= start && mm->vmas[i].vm_end <= end)
			mm->vmas[i].vm_flags = flags;
	if (flags & VM_EXEC)
		reg_protect_locked(mm, start, end);
	mmap_write_unlock(mm);
}
#endif

struct mm_struct *test_mm_new(void)
{
	struct mm_struct *mm = calloc(1, sizeof(*mm));

	if (!mm)
		abort();
	pthread_rwlock_init(&mm->mmap_lock.rw, NULL);
	/* Of its class for any registry, if the registry does not init it. */
	mutex_init(&mm->unwind_user_lock);
	reg_mm_init(mm);
	return mm;
}

void test_mm_free(struct mm_struct *mm)
{
	pthread_rwlock_destroy(&mm->mmap_lock.rw);
	free(mm);
}

/* ---- lock order: what each thread holds ---- */

/*
 * As lockdep, in little: a lock's class is its name (an mmap lock's is
 * "mmap_lock", a mutex's the name it was defined or initialized with, so
 * every mm's unwind_user_lock is one class), and with the subclass of a
 * nested acquisition a node of a graph.  Each acquisition while a thread
 * holds other locks adds an edge from each of them; one that would close a
 * cycle (two threads could each wait for the other) aborts the test, as
 * does a class taken again without a subclass.  The mmap locks of two mms
 * (fork: the parent's, then the child's) are nested implicitly, as the
 * kernel's dup_mmap() says with mmap_write_lock_nested().  On top of that,
 * the rule registry.c states: nothing takes an mmap lock while it holds an
 * unwind_user_lock.
 */
#define LOCK_MAX_HELD		8
#define LOCK_MAX_CLASSES	16
#define LOCK_MAX_SUB		4
#define LOCK_NODES		(LOCK_MAX_CLASSES * LOCK_MAX_SUB)

struct held_lock {
	const void		*lock;
	int			cls;
	unsigned int		sub;
	struct mm_struct	*mm;	/* an mmap lock's mm, else NULL */
	bool			write;
};

static __thread struct held_lock held[LOCK_MAX_HELD];
static __thread int nr_held;

static pthread_mutex_t order_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *class_names[LOCK_MAX_CLASSES];
static int nr_classes;
/* [a][b]: node b was taken while node a was held */
static bool order_after[LOCK_NODES][LOCK_NODES];

/* Under order_lock. */
static int lock_class(const char *name)
{
	int i;

	for (i = 0; i < nr_classes; i++)
		if (!strcmp(class_names[i], name))
			return i;
	if (nr_classes == LOCK_MAX_CLASSES) {
		fprintf(stderr, "regtest: too many lock classes\n");
		abort();
	}
	class_names[nr_classes] = name;
	return nr_classes++;
}

static bool class_is(int cls, const char *what)
{
	return strstr(class_names[cls], what);
}

/* Under order_lock: is @to reachable from @from? */
static bool order_reaches(int from, int to, bool *seen)
{
	int i;

	if (from == to)
		return true;
	seen[from] = true;
	for (i = 0; i < LOCK_NODES; i++)
		if (order_after[from][i] && !seen[i] &&
		    order_reaches(i, to, seen))
			return true;
	return false;
}

static void __attribute__((noreturn))
lock_order_violation(const char *what, const struct held_lock *h, int cls,
		     unsigned int sub)
{
	fprintf(stderr, "regtest: lock order: %s/%u taken while holding %s/%u: %s\n",
		class_names[cls], sub, class_names[h->cls], h->sub, what);
	abort();
}

/*
 * Before the calling thread waits for @lock (of class @name, subclass
 * @sub): check the order against what it holds, and record it.
 */
static void lock_order_check(const void *lock, const char *name,
			     unsigned int *sub, bool is_mmap)
{
	bool seen[LOCK_NODES];
	int i, cls, node;

	pthread_mutex_lock(&order_lock);
	cls = lock_class(name);
	if (is_mmap)
		for (i = 0, *sub = 0; i < nr_held; i++)
			*sub += !!held[i].mm;
	if (*sub >= LOCK_MAX_SUB) {
		fprintf(stderr, "regtest: subclass %u of %s\n", *sub, name);
		abort();
	}
	node = cls * LOCK_MAX_SUB + *sub;
	for (i = 0; i < nr_held; i++) {
		const struct held_lock *h = &held[i];
		int from = h->cls * LOCK_MAX_SUB + h->sub;

		if (h->lock == lock)
			lock_order_violation("it is held already", h, cls, *sub);
		if (is_mmap && class_is(h->cls, "unwind_user_lock"))
			lock_order_violation("the mmap lock comes first", h,
					     cls, *sub);
		if (from == node)
			lock_order_violation("the same class, not nested", h,
					     cls, *sub);
		memset(seen, 0, sizeof(seen));
		if (!order_after[from][node] && order_reaches(node, from, seen))
			lock_order_violation("the reverse order was seen", h,
					     cls, *sub);
		order_after[from][node] = true;
	}
	pthread_mutex_unlock(&order_lock);
}

static void lock_held_push(const void *lock, const char *name,
			   unsigned int sub, struct mm_struct *mm, bool write)
{
	int cls;

	if (nr_held == LOCK_MAX_HELD) {
		fprintf(stderr, "regtest: too many locks held\n");
		abort();
	}
	pthread_mutex_lock(&order_lock);
	cls = lock_class(name);
	pthread_mutex_unlock(&order_lock);
	held[nr_held++] = (struct held_lock){
		.lock = lock, .cls = cls, .sub = sub, .mm = mm, .write = write,
	};
}

static void lock_held_pop(const void *lock, const char *name)
{
	int i;

	for (i = nr_held - 1; i >= 0; i--) {
		if (held[i].lock != lock)
			continue;
		memmove(&held[i], &held[i + 1],
			(nr_held - i - 1) * sizeof(held[0]));
		nr_held--;
		return;
	}
	fprintf(stderr, "regtest: %s released, not held\n", name);
	abort();
}

static const struct held_lock *lock_held_find(const void *lock)
{
	int i;

	for (i = 0; i < nr_held; i++)
		if (held[i].lock == lock)
			return &held[i];
	return NULL;
}

/* ---- the mmap lock ---- */

__thread unsigned long test_write_locks;
__thread unsigned long test_mutex_locks;
__thread unsigned long test_sections;
__thread unsigned long test_last_section;
__thread struct test_waiter *test_lock_waiter;

/* Tell whoever watches this thread that it waits for a lock now. */
static void note_waiting(void)
{
	struct test_waiter *w = test_lock_waiter;

	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->waiting = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* A section in which @mm's VMAs or registry may change begins. */
static void section_begin(struct mm_struct *mm)
{
	test_last_section = __atomic_add_fetch(&mm->mmap_lock.epoch, 1,
					       __ATOMIC_ACQ_REL);
	test_sections++;
}

void mmap_write_lock(struct mm_struct *mm)
{
	struct test_mmap_lock *l = &mm->mmap_lock;
	unsigned int sub = 0;

	lock_order_check(l, "mmap_lock", &sub, true);
	if (pthread_rwlock_trywrlock(&l->rw)) {
		note_waiting();
		pthread_rwlock_wrlock(&l->rw);
	}
	lock_held_push(l, "mmap_lock", sub, mm, true);
	l->writer = pthread_self();
	__atomic_store_n(&l->write_held, true, __ATOMIC_RELEASE);
	section_begin(mm);
	test_write_locks++;
}

void mmap_write_unlock(struct mm_struct *mm)
{
	mmap_assert_write_locked(mm);
	__atomic_store_n(&mm->mmap_lock.write_held, false, __ATOMIC_RELEASE);
	lock_held_pop(&mm->mmap_lock, "mmap_lock");
	pthread_rwlock_unlock(&mm->mmap_lock.rw);
}

void mmap_read_lock(struct mm_struct *mm)
{
	unsigned int sub = 0;

	lock_order_check(&mm->mmap_lock, "mmap_lock", &sub, true);
	if (pthread_rwlock_tryrdlock(&mm->mmap_lock.rw)) {
		note_waiting();
		pthread_rwlock_rdlock(&mm->mmap_lock.rw);
	}
	lock_held_push(&mm->mmap_lock, "mmap_lock", sub, mm, false);
}

bool mmap_read_trylock(struct mm_struct *mm)
{
	unsigned int sub = 0;
	int i;

	/* A trylock waits for nothing: no order to check. */
	if (pthread_rwlock_tryrdlock(&mm->mmap_lock.rw))
		return false;
	for (i = 0; i < nr_held; i++)
		sub += !!held[i].mm;
	lock_held_push(&mm->mmap_lock, "mmap_lock", sub, mm, false);
	return true;
}

void mmap_read_unlock(struct mm_struct *mm)
{
	const struct held_lock *h = lock_held_find(&mm->mmap_lock);

	if (!h || h->write) {
		fprintf(stderr, "regtest: mmap lock of %p not held for reading\n",
			mm);
		abort();
	}
	lock_held_pop(&mm->mmap_lock, "mmap_lock");
	pthread_rwlock_unlock(&mm->mmap_lock.rw);
}

/* Only the writer itself reads these fields while write_held is true. */
void mmap_assert_write_locked(struct mm_struct *mm)
{
	struct test_mmap_lock *l = &mm->mmap_lock;

	if (!__atomic_load_n(&l->write_held, __ATOMIC_ACQUIRE) ||
	    !pthread_equal(l->writer, pthread_self())) {
		fprintf(stderr, "regtest: mmap lock of %p not held for writing\n",
			mm);
		abort();
	}
}

void mmap_assert_locked(struct mm_struct *mm)
{
	if (!lock_held_find(&mm->mmap_lock)) {
		fprintf(stderr, "regtest: mmap lock of %p not held\n", mm);
		abort();
	}
}

/* ---- mutexes ---- */

void test_mutex_init(struct mutex *lock, const char *name)
{
	pthread_mutex_init(&lock->m, NULL);
	lock->name = name;
}

void test_mutex_lock(struct mutex *lock, unsigned int subclass)
{
	const char *name = lock->name ? lock->name : "mutex";
	int i;

	lock_order_check(lock, name, &subclass, false);
	if (pthread_mutex_trylock(&lock->m)) {
		note_waiting();
		pthread_mutex_lock(&lock->m);
	}
	lock_held_push(lock, name, subclass, NULL, true);
	test_mutex_locks++;
	/*
	 * The registry's lock under the mmap read lock: a writer of the tree
	 * (under the write lock, the section began with it).
	 */
	for (i = 0; i < nr_held; i++)
		if (held[i].mm && !held[i].write &&
		    lock == &held[i].mm->unwind_user_lock)
			section_begin(held[i].mm);
}

void mutex_unlock(struct mutex *lock)
{
	lock_held_pop(lock, lock->name ? lock->name : "mutex");
	pthread_mutex_unlock(&lock->m);
}

bool test_mutex_held(const struct mutex *lock)
{
	return lock_held_find(lock);
}

void test_mutex_assert_held(const struct mutex *lock, const char *file,
			    int line)
{
	if (!test_mutex_held(lock)) {
		fprintf(stderr, "regtest: %s:%d: %s not held\n", file, line,
			lock->name ? lock->name : "mutex");
		abort();
	}
}

/* ---- jiffies, work items, modules asked for ---- */

volatile unsigned long jiffies = INITIAL_JIFFIES;
long test_request_module_calls;

struct workqueue_struct {
	int	unused;
};

static struct workqueue_struct test_wq;
struct workqueue_struct *system_wq = &test_wq;
struct workqueue_struct *system_unbound_wq = &test_wq;

static pthread_mutex_t work_lock = PTHREAD_MUTEX_INITIALIZER;
static struct work_struct *work_head;

bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	struct work_struct **p;
	bool queued = false;

	pthread_mutex_lock(&work_lock);
	if (!work->pending) {
		work->pending = true;
		work->next = NULL;
		for (p = &work_head; *p; p = &(*p)->next)
			;
		*p = work;
		queued = true;
	}
	pthread_mutex_unlock(&work_lock);
	return queued;
}

/* Take @work (or, NULL, the first) off the queue: what to run, or NULL. */
static struct work_struct *work_take(struct work_struct *work)
{
	struct work_struct **p, *w = NULL;

	pthread_mutex_lock(&work_lock);
	for (p = &work_head; *p; p = &(*p)->next) {
		if (work && *p != work)
			continue;
		w = *p;
		*p = w->next;
		/* As the kernel's: queued again from now on, even by itself. */
		w->pending = false;
		break;
	}
	pthread_mutex_unlock(&work_lock);
	return w;
}

bool flush_work(struct work_struct *work)
{
	struct work_struct *w = work_take(work);

	if (w)
		w->func(w);
	return w;
}

int test_run_work(void)
{
	struct work_struct *w;
	int n = 0;

	while ((w = work_take(NULL))) {
		w->func(w);
		n++;
	}
	return n;
}

int test_work_queued(void)
{
	struct work_struct *w;
	int n = 0;

	pthread_mutex_lock(&work_lock);
	for (w = work_head; w; w = w->next)
		n++;
	pthread_mutex_unlock(&work_lock);
	return n;
}

/* ---- the registry's allocator ---- */

/*
 * Every block the registry allocates is in this table until freed: a free
 * of a block that is not (freed twice, or never allocated) is counted and
 * then passed on, for AddressSanitizer to report with both stacks.
 */
#define BLOCK_BUCKETS	4096

struct block {
	struct block	*next;
	const void	*p;
	size_t		size;
	bool		rcu_pending;
};

/*
 * Count @nth down, in any thread: true at the call that takes it from 1 to
 * 0, the n-th since it was set.
 */
static bool nth_call(long *nth)
{
	long n = __atomic_load_n(nth, __ATOMIC_SEQ_CST);

	while (n > 0) {
		if (__atomic_compare_exchange_n(nth, &n, n - 1, false,
						__ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return n == 1;
	}
	return false;
}

static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static struct block *blocks[BLOCK_BUCKETS];
static long blocks_live, bad_frees, reused;
static bool reuse_armed;	/* keep the next block freed */
static void *reuse_block;	/* the block kept */
static size_t reuse_size;	/* and its size */
__thread unsigned int test_alloc_fail_ratio;

static struct block **block_slot(const void *p)
{
	struct block **b = &blocks[((unsigned long)p >> 4) % BLOCK_BUCKETS];

	while (*b && (*b)->p != p)
		b = &(*b)->next;
	return b;
}

void test_alloc_reuse_next(void)
{
	pthread_mutex_lock(&blocks_lock);
	reuse_armed = true;
	pthread_mutex_unlock(&blocks_lock);
}

long test_alloc_reused(void)
{
	return __atomic_load_n(&reused, __ATOMIC_RELAXED);
}

long test_blocks_live(void)
{
	return __atomic_load_n(&blocks_live, __ATOMIC_RELAXED);
}

long test_bad_frees(void)
{
	return __atomic_load_n(&bad_frees, __ATOMIC_RELAXED);
}

void *test_kzalloc(size_t size, gfp_t gfp)
{
	struct block *b;
	void *p = NULL;

	if (test_alloc_fail_ratio && test_rand() % test_alloc_fail_ratio == 0)
		return NULL;
	b = malloc(sizeof(*b));
	if (!b)
		return NULL;
	pthread_mutex_lock(&blocks_lock);
	if (reuse_block && size == reuse_size) {
		p = reuse_block;
		reuse_block = NULL;
		reused++;
	}
	pthread_mutex_unlock(&blocks_lock);
	if (!p)
		p = malloc(size);
	if (!p) {
		free(b);
		return NULL;
	}
	memset(p, 0, size);
	*b = (struct block){ .p = p, .size = size };
	pthread_mutex_lock(&blocks_lock);
	b->next = blocks[((unsigned long)p >> 4) % BLOCK_BUCKETS];
	blocks[((unsigned long)p >> 4) % BLOCK_BUCKETS] = b;
	blocks_live++;
	pthread_mutex_unlock(&blocks_lock);
	return p;
}

/*
 * The frame cache, which is not an entry: not among the blocks (a test
 * counts entries), LeakSanitizer watches it.
 */
static long kvzalloc_calls, kvzalloc_fail;

long test_kvzalloc_calls(void)
{
	return __atomic_load_n(&kvzalloc_calls, __ATOMIC_RELAXED);
}

void test_kvzalloc_fail_nth(long n)
{
	__atomic_store_n(&kvzalloc_fail, n, __ATOMIC_SEQ_CST);
}

void *test_kvzalloc(size_t size, gfp_t gfp)
{
	__atomic_add_fetch(&kvzalloc_calls, 1, __ATOMIC_RELAXED);
	if (nth_call(&kvzalloc_fail))
		return NULL;
	return calloc(1, size);
}

void *test_kmemdup(const void *src, size_t size, gfp_t gfp)
{
	void *p = test_kzalloc(size, gfp);

	if (p)
		memcpy(p, src, size);
	return p;
}

/* Forget @p, or count a bad free; false for a bad one. */
static bool block_forget(const void *p, bool from_rcu, size_t *size)
{
	struct block **slot, *b;

	pthread_mutex_lock(&blocks_lock);
	slot = block_slot(p);
	b = *slot;
	if (!b || b->rcu_pending != from_rcu) {
		bad_frees++;
		pthread_mutex_unlock(&blocks_lock);
		fprintf(stderr, "regtest: registry block %p freed twice\n", p);
		return false;
	}
	*slot = b->next;
	blocks_live--;
	*size = b->size;
	pthread_mutex_unlock(&blocks_lock);
	free(b);
	return true;
}

/* Free @p, or keep it for the next allocation of its size. */
static void block_release(void *p, size_t size)
{
	pthread_mutex_lock(&blocks_lock);
	if (reuse_armed) {
		reuse_armed = false;
		reuse_block = p;
		reuse_size = size;
		p = NULL;
	}
	pthread_mutex_unlock(&blocks_lock);
	free(p);
}

void test_kfree(const void *p)
{
	size_t size = 0;

	if (!p)
		return;
	if (block_forget(p, false, &size))
		block_release((void *)p, size);
	else
		free((void *)p);	/* AddressSanitizer's report */
}

struct rcu_free {
	struct rcu_head	head;
	void		*p;
	bool		bad;	/* a second free: straight to free() */
};

static void rcu_free_cb(struct rcu_head *head)
{
	struct rcu_free *f = caa_container_of(head, struct rcu_free, head);
	size_t size = 0;

	if (f->bad || !block_forget(f->p, true, &size))
		free(f->p);	/* AddressSanitizer's report */
	else
		block_release(f->p, size);
	free(f);
}

/*
 * kfree_rcu(): the block is freed after a grace period.  A wrapper carries
 * it, so that a block queued twice cannot corrupt liburcu's queue.  A second
 * free is counted here, and passed on after the grace period (after the
 * first, callbacks run in order) for AddressSanitizer to report.
 */
void test_kfree_rcu(void *p, size_t rcu_offset)
{
	struct rcu_free *f;
	struct block *b;
	bool bad = false;

	pthread_mutex_lock(&blocks_lock);
	b = *block_slot(p);
	if (b && rcu_offset >= b->size) {
		fprintf(stderr, "regtest: kfree_rcu(%p): no rcu_head in it\n", p);
		abort();
	}
	if (!b || b->rcu_pending) {
		bad_frees++;
		bad = true;
	} else {
		b->rcu_pending = true;
	}
	pthread_mutex_unlock(&blocks_lock);
	if (bad)
		fprintf(stderr, "regtest: registry block %p freed twice (kfree_rcu)\n",
			p);
	f = malloc(sizeof(*f));
	if (!f)
		abort();
	*f = (struct rcu_free){ .p = p, .bad = bad };
	call_rcu(&f->head, rcu_free_cb);
}

void test_rcu_barrier(void)
{
	rcu_barrier();
}

/* ---- maple tree node allocations ---- */

static long maple_fail_next;
__thread unsigned int test_maple_fail_ratio;

void test_maple_fail_next(long n)
{
	__atomic_store_n(&maple_fail_next, n, __ATOMIC_SEQ_CST);
}

static bool maple_alloc_fails(void)
{
	long n = __atomic_load_n(&maple_fail_next, __ATOMIC_SEQ_CST);

	while (n > 0) {
		if (__atomic_compare_exchange_n(&maple_fail_next, &n, n - 1,
						false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return true;
	}
	return test_maple_fail_ratio &&
	       test_rand() % test_maple_fail_ratio == 0;
}

/*
 * The harness' slab (tools/testing/shared/linux.c) fails only allocations
 * that may not sleep; these wrappers (ld --wrap) fail the others too.
 */
void *__wrap_kmem_cache_alloc_lru(struct kmem_cache *cachep,
				  struct list_lru *lru, int gfp)
{
	if (maple_alloc_fails())
		return NULL;
	return __real_kmem_cache_alloc_lru(cachep, lru, gfp);
}

struct slab_sheaf *__wrap_kmem_cache_prefill_sheaf(struct kmem_cache *s,
						   gfp_t gfp,
						   unsigned int size)
{
	if (maple_alloc_fails())
		return NULL;
	return __real_kmem_cache_prefill_sheaf(s, gfp, size);
}

int __wrap_kmem_cache_refill_sheaf(struct kmem_cache *s, gfp_t gfp,
				   struct slab_sheaf **sheafp,
				   unsigned int size)
{
	if (maple_alloc_fails())
		return -ENOMEM;
	return __real_kmem_cache_refill_sheaf(s, gfp, sheafp, size);
}

/*
 * The registry's stores into its tree.  An exact-fit store (a tombstone over
 * an entry) needs no node, so failed node allocations never fail it.
 */
static long store_fail;

void test_store_fail_nth(long n)
{
	__atomic_store_n(&store_fail, n, __ATOMIC_SEQ_CST);
}

int __wrap_mas_store_gfp(struct ma_state *mas, void *entry, gfp_t gfp)
{
	if (nth_call(&store_fail))
		return -ENOMEM;
	return __real_mas_store_gfp(mas, entry, gfp);
}

/* ---- messages, sysctl, seq_file ---- */

static long warnings, messages;

bool test_warn(const char *file, int line)
{
	__atomic_add_fetch(&warnings, 1, __ATOMIC_RELAXED);
	printf("# WARNING at %s:%d\n", file, line);
	return true;
}

long test_warnings(void)
{
	return __atomic_load_n(&warnings, __ATOMIC_RELAXED);
}

long test_warnings_take(void)
{
	return __atomic_exchange_n(&warnings, 0, __ATOMIC_RELAXED);
}

void test_printk(const char *fmt, ...)
{
	va_list ap;

	__atomic_add_fetch(&messages, 1, __ATOMIC_RELAXED);
	if (!getenv("REGTEST_VERBOSE"))
		return;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

long test_messages(void)
{
	return __atomic_load_n(&messages, __ATOMIC_RELAXED);
}

int proc_douintvec(const struct ctl_table *table, int write, void *buffer,
		   size_t *lenp, long long *ppos)
{
	return -EOPNOTSUPP;
}

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (m->count >= m->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->count, m->size - m->count, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->count += n;
}

void seq_putc(struct seq_file *m, char c)
{
	seq_printf(m, "%c", c);
}

void seq_puts(struct seq_file *m, const char *s)
{
	seq_printf(m, "%s", s);
}

/* ---- the fake table reader's state ---- */

#define MAX_CORRUPT	64
#define MAX_NOFDE	16

static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long corrupt[MAX_CORRUPT];	/* text starts, 0: free */
static struct {
	unsigned long	start, end;
} nofde[MAX_NOFDE];				/* [start, end), end 0: free */
static long table_searches;
static unsigned long table_serial;
void (*test_lookup_hook)(unsigned long text_start, unsigned long serial);
__thread unsigned long test_last_lookup_serial;
__thread unsigned long test_table_last_serial;

unsigned long test_table_new_serial(void)
{
	test_table_last_serial = __atomic_add_fetch(&table_serial, 1,
						    __ATOMIC_SEQ_CST);
	return test_table_last_serial;
}

void test_table_set_corrupt(unsigned long text_start, bool bad)
{
	int i, free_slot = -1;

	pthread_mutex_lock(&tables_lock);
	for (i = 0; i < MAX_CORRUPT; i++) {
		if (corrupt[i] == text_start) {
			if (!bad)
				corrupt[i] = 0;
			break;
		}
		if (!corrupt[i] && free_slot < 0)
			free_slot = i;
	}
	if (i == MAX_CORRUPT && bad) {
		if (free_slot < 0)
			abort();
		corrupt[free_slot] = text_start;
	}
	pthread_mutex_unlock(&tables_lock);
}

void test_table_add_nofde(unsigned long start, unsigned long end)
{
	int i;

	pthread_mutex_lock(&tables_lock);
	for (i = 0; i < MAX_NOFDE && nofde[i].end; i++)
		;
	if (i == MAX_NOFDE)
		abort();
	nofde[i].start = start;
	nofde[i].end = end;
	pthread_mutex_unlock(&tables_lock);
}

void test_table_clear_nofde(void)
{
	pthread_mutex_lock(&tables_lock);
	memset(nofde, 0, sizeof(nofde));
	pthread_mutex_unlock(&tables_lock);
}

long test_table_searches(void)
{
	return __atomic_load_n(&table_searches, __ATOMIC_SEQ_CST);
}

/* The verdict is taken before the hook runs: the table as it was read. */
int test_table_find_pc(unsigned long text_start, unsigned long serial,
		       unsigned long pc)
{
	bool bad = false, none = false;
	int i;

	__atomic_add_fetch(&table_searches, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_lock(&tables_lock);
	for (i = 0; i < MAX_CORRUPT; i++)
		if (corrupt[i] == text_start)
			bad = true;
	for (i = 0; i < MAX_NOFDE; i++)
		if (pc >= nofde[i].start && pc < nofde[i].end)
			none = true;
	pthread_mutex_unlock(&tables_lock);
	test_last_lookup_serial = serial;
	if (test_lookup_hook)
		test_lookup_hook(text_start, serial);
	return bad ? -EINVAL : none ? -ENOENT : 0;
}

int test_table_find(unsigned long text_start, unsigned long serial)
{
	return test_table_find_pc(text_start, serial, 0);
}

/* What the index builds do (test_index_set()), and what they did. */
static pthread_mutex_t index_lock = PTHREAD_MUTEX_INITIALIZER;
static int index_err;
static size_t index_read, index_bytes;
static long index_builds;
static unsigned long long index_read_total;

void test_index_set(int err, size_t read, size_t bytes)
{
	pthread_mutex_lock(&index_lock);
	index_err = err;
	index_read = read;
	index_bytes = bytes;
	pthread_mutex_unlock(&index_lock);
}

int test_index_build(size_t *read, size_t *bytes)
{
	int err;

	pthread_mutex_lock(&index_lock);
	index_builds++;
	index_read_total += index_read;
	*read = index_read;
	*bytes = index_bytes;
	err = index_err;
	pthread_mutex_unlock(&index_lock);
	return err;
}

long test_index_builds(void)
{
	long n;

	pthread_mutex_lock(&index_lock);
	n = index_builds;
	pthread_mutex_unlock(&index_lock);
	return n;
}

unsigned long long test_index_read(void)
{
	unsigned long long n;

	pthread_mutex_lock(&index_lock);
	n = index_read_total;
	pthread_mutex_unlock(&index_lock);
	return n;
}

/* ---- random numbers ---- */

static __thread unsigned int rand_state = 2463534242U;

void test_srand(unsigned int seed)
{
	rand_state = seed ? seed : 2463534242U;
}

unsigned int test_rand(void)
{
	unsigned int x = rand_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rand_state = x;
	return x;
}
