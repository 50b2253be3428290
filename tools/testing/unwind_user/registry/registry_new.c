// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/unwind/registry.c, unchanged, with stand-ins for the table reader
 * it calls (eh_frame.c), for the discovery of tables (discover.c), for
 * throttle.c and the interface the tests use (regtest.h).
 *
 * Built with REGISTRY_TEST_BASE (`make run_base`), the same for the
 * registry of commit 3ec176df9, before the tree had a lock of its own
 * (writers took the mmap lock for writing), before it kept "no FDE" results,
 * had an mprotect() hook, rate-limited module loads and found images of
 * other formats: the tests of those must fail on it.  Its files come from
 * git (see the Makefile); what it does not have, the stand-ins do as its
 * discover.c did, or (reg_protect_locked(), reg_format_find()) as little.
 */
/* The harness' base headers (tools/testing/shared), which come first. */
#include <shared.h>

/* <linux/compiler_types.h> of the kernel, which the tools' lack. */
#ifndef noinline_for_stack
#define noinline_for_stack	noinline
#endif

/*
 * What cache.c needs of <linux/percpu.h> and <linux/cache.h> beyond the
 * harness' shims (tools/testing/shared): one CPU.  The counters are
 * allocated as the cache is (shim.c), to fail on demand.
 */
#define __percpu
#define alloc_percpu_gfp(type, gfp)	((type *)test_kvzalloc(sizeof(type), \
							      gfp))
#define free_percpu(ptr)		free(ptr)
#define this_cpu_inc(var)		__atomic_add_fetch(&(var), 1, \
							   __ATOMIC_RELAXED)
#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < 1; (cpu)++)
#define num_possible_cpus()		1U
#define ____cacheline_aligned_in_smp	__attribute__((__aligned__(64)))

#ifdef REGISTRY_TEST_BASE
#include <kernel/unwind/registry.c>
#include <kernel/unwind/cache.c>
#else
#include "../../../../kernel/unwind/registry.c"
#include "../../../../kernel/unwind/cache.c"
#endif

#include "regtest.h"

#ifdef REGISTRY_TEST_BASE
const char reg_version[] = "kernel/unwind/registry.c of 3ec176df9";
#else
const char reg_version[] = "kernel/unwind/registry.c";
#endif

/* <linux/kmod.h>: what a test makes request_module() do (NULL: nothing). */
int (*test_request_module)(const char *name);

/*
 * The reader's stand-ins.  The header is not read: the section takes the
 * ranges of @desc, and a serial number in place of its search table, which
 * tells the tests which registration a lookup copied.  A section without a
 * header has no search table (the registry then needs an index): its
 * serial goes in fde_count, which only the real reader reads.
 */
int eh_frame_section_init(struct eh_frame_section *sec,
			  const struct unwind_user_eh_frame *desc,
			  const void *hdr_data)
{
	unsigned long serial = test_table_new_serial();

	*sec = (struct eh_frame_section){
		.text_start = desc->text_start,
		.text_end = desc->text_end,
		.hdr_start = desc->hdr_start,
		.hdr_end = desc->hdr_end,
		.eh_frame_start = desc->eh_frame_start,
		.eh_frame_end = desc->eh_frame_end,
		.table = desc->hdr_start ? serial : 0,
		.fde_count = desc->hdr_start ? 0 : serial,
		.ptr_size = desc->ptr_size,
	};
	return 0;
}

static unsigned long sec_serial(const struct eh_frame_section *sec)
{
	return sec->table ?: sec->fde_count;
}

/* As eh_frame.c's, but the serial in place of the table stays. */
void eh_frame_section_move(struct eh_frame_section *sec, unsigned long delta)
{
	sec->text_start += delta;
	sec->text_end += delta;
	if (sec->hdr_start) {
		sec->hdr_start += delta;
		sec->hdr_end += delta;
	}
	sec->eh_frame_start += delta;
	sec->eh_frame_end += delta;
}

/*
 * An index is a real allocation, so that a leak or a double free of it
 * shows under the sanitizers (but not among the registry's blocks, which
 * the tests count); it names the registration it was built for, and has
 * the size the test gave it (test_index_set()).
 */
struct eh_frame_index {
	struct rcu_head	rcu;
	unsigned long	table;
	size_t		bytes;
};

struct eh_frame_index *eh_frame_index_build(const struct eh_frame_section *sec,
					    size_t max_bytes, size_t *read)
{
	struct eh_frame_index *index;
	size_t got, bytes;
	int err;

	err = test_index_build(&got, &bytes);
	if (read)
		*read = got;
	if (err)
		return ERR_PTR(err);
	if (!bytes)
		bytes = sizeof(*index);
	if (bytes > max_bytes)
		return ERR_PTR(-ENOSPC);
	index = calloc(1, sizeof(*index));
	if (!index)
		return ERR_PTR(-ENOMEM);
	index->table = sec_serial(sec);
	index->bytes = bytes;
	return index;
}

size_t eh_frame_index_bytes(const struct eh_frame_index *index)
{
	return index->bytes;
}

static void eh_frame_index_free_rcu(struct rcu_head *head)
{
	free(container_of(head, struct eh_frame_index, rcu));
}

/* As eh_frame.c's: /proc and the cap's sum read indexes under RCU. */
void eh_frame_index_free(struct eh_frame_index *index)
{
	call_rcu(&index->rcu, eh_frame_index_free_rcu);
}

/*
 * The FDE names the registration it came from (and the frame, below), so
 * that one from the cache tells which registration it was found in.  The
 * index must be the registration's own.  A pc the test says no FDE covers
 * (test_table_add_nofde()) is -ENOENT, as eh_frame.c says it.  Each call is
 * a search, which the tests count (test_table_searches()).
 */
int eh_frame_find_fde(const struct eh_frame_section *sec,
		      struct eh_frame_index *index, unsigned long pc,
		      struct eh_frame_fde *fde)
{
	int ret = test_table_find_pc(sec->text_start, sec_serial(sec), pc);

	if (index && index->table != sec_serial(sec))
		return -EBADF;
	if (!ret)
		fde->pc_begin = sec_serial(sec);
	return ret;
}

int eh_frame_find_fde_fresh(const struct eh_frame_section *sec,
			    struct eh_frame_index *index, unsigned long pc,
			    struct eh_frame_fde *fde, bool *absolute)
{
	*absolute = false;
	return eh_frame_find_fde(sec, index, pc, fde);
}

/*
 * shared.c's stand-ins: the tables the tests declare are none of a file's,
 * whose frames processes share.
 */
void unwind_user_share_id(struct unwind_user_share *s, const struct file *file)
{
	abort();
}

void unwind_user_share_set(struct unwind_user_share *s,
			   const struct eh_frame_section *sec,
			   unsigned long delta)
{
	abort();
}

bool unwind_user_shared_lookup(u64 tag, unsigned long base, unsigned long pc,
			       unsigned int ws, struct unwind_user_frame *frame,
			       unsigned int *cost)
{
	return false;
}

bool unwind_user_shared_begin(struct mm_struct *mm, unsigned int *seq)
{
	return false;
}

bool unwind_user_shared_insert(struct mm_struct *mm,
			       const struct unwind_user_share *s,
			       const struct eh_frame_section *sec,
			       unsigned int seq, unsigned long pc,
			       unsigned int ws,
			       const struct unwind_user_frame *frame,
			       unsigned int cost, bool *header_checked)
{
	return false;
}

/* Without budget left, cfi.c's runs no instruction of the CIE: it fails. */
int cfi_find_row(const struct eh_frame_section *sec,
		 const struct eh_frame_regs *regs,
		 const struct eh_frame_fde *fde, unsigned long pc,
		 struct cfi_row *row, unsigned int *budget)
{
	if (budget && !*budget)
		return -EOPNOTSUPP;
	*row = (struct cfi_row){
		.cells.cfa.off = (u32)fde->pc_begin,
		.cells.ra.off = (u32)((u64)fde->pc_begin >> 32),
	};
	return 0;
}

/* As cfi.c's, a frame with a CFA rule: without one, it would say "none". */
int cfi_row_frame(const struct eh_frame_section *sec,
		  const struct eh_frame_regs *regs, const struct cfi_row *row,
		  unsigned long pc, struct unwind_user_frame *frame)
{
	*frame = (struct unwind_user_frame){
		.cfa.type = UNWIND_USER_RULE_REG_OFF,
		.cfa.reg = UNWIND_USER_REG_SP,
		.cfa.off = row->cells.cfa.off,
		.ra.off = row->cells.ra.off,
	};
	return 0;
}

#ifndef REGISTRY_TEST_BASE
/* throttle.c's, which /proc shows: nothing counts walks here. */
void unwind_user_walks_show(struct seq_file *m, struct mm_struct *mm)
{
	/* atomic64_t is long long here (linux/atomic.h) */
	unsigned long long walks = atomic64_read(&mm->unwind_user_walks);

	if (walks)
		seq_printf(m, "walks %llu known %llu ip %llu nsec %llu\n", walks,
			   atomic64_read(&mm->unwind_user_walks_known),
			   atomic64_read(&mm->unwind_user_walks_ip),
			   atomic64_read(&mm->unwind_user_walk_ns));
}
#endif

/*
 * The handler of PE images, a module (CONFIG_UNWIND_USER_PE=m) that "loads"
 * when a test says so (reg_pe_load()).  It describes any image by its range
 * alone; a frame it finds names the image's start.
 */
static struct module test_pe_module;

static int test_pe_init(void *data, unsigned long start, unsigned long end)
{
	unsigned long *d = data;

	d[0] = start;
	d[1] = end;
	return 0;
}

#ifndef REGISTRY_TEST_BASE
/* An image is a text of OBJ_TEXT_SIZE bytes at its headers. */
static int test_pe_discover(void *data, unsigned long start,
			    unsigned long limit, unsigned long pc,
			    unsigned long *end)
{
	*end = min(start + OBJ_TEXT_SIZE, limit);
	if (pc < start || pc >= *end)
		return -ENOEXEC;
	return test_pe_init(data, start, *end);
}
#endif

static int test_pe_find_frame(const void *data, unsigned long pc,
			      unsigned int flags,
			      struct unwind_user_frame *frame,
			      unsigned int *budget)
{
	const unsigned long *d = data;

	*budget -= min_t(unsigned int, *budget, UNWIND_USER_READ_COST);
	*frame = (struct unwind_user_frame){
		.cfa.type = UNWIND_USER_RULE_REG_OFF,
		.cfa.reg = UNWIND_USER_REG_SP,
		.cfa.off = (u32)d[0],
		.ra.off = (u32)((u64)d[0] >> 32),
	};
	return 0;
}

static const struct unwind_user_format test_pe_format = {
	.owner = &test_pe_module,
	.format = UNWIND_USER_FORMAT_PE,
	.name = "pe",
	.init = test_pe_init,
#ifndef REGISTRY_TEST_BASE
	.discover = test_pe_discover,
#endif
	.find_frame = test_pe_find_frame,
};

int reg_pe_load(void)
{
	return unwind_user_register_format(&test_pe_format);
}

void reg_pe_unload(void)
{
	unwind_user_unregister_format(&test_pe_format);
}

int reg_pe_module_refs(void)
{
	return __atomic_load_n(&test_pe_module.refs, __ATOMIC_SEQ_CST);
}

static struct unwind_user_eh_frame obj_desc(unsigned long base)
{
	return (struct unwind_user_eh_frame){
		.text_start = base,
		.text_end = base + OBJ_TEXT_SIZE,
		.hdr_start = OBJ_HDR(base),
		.hdr_end = OBJ_HDR(base) + OBJ_HDR_SIZE,
		.eh_frame_start = OBJ_HDR(base) + OBJ_HDR_SIZE,
		.eh_frame_end = OBJ_DATA_END(base),
		.ptr_size = sizeof(long),
	};
}

/*
 * discover.c's stand-in.  The objects the tests declare (by base, in every
 * mm) have a table to find, none, or are PE images; discovery finds nothing
 * elsewhere, as when it has nothing to probe (kernel.unwind_tables_discover
 * 0, the budget spent).  As discover.c (discover_insert()): the object is
 * read without any lock, then its entry, or a marker, goes in under the
 * locks of a writer (unwind_user_registry_lock(): the mmap lock for reading
 * and the registry's own) if the executable mapping is still there; a
 * registration that came first wins.  The registry of 3ec176df9 had no lock
 * of its own: its discover.c took the mmap lock for writing.
 */
#define MAX_DISCOVERABLE	64

static pthread_mutex_t found_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	unsigned long		base;
	enum reg_found		what;
} found[MAX_DISCOVERABLE];
static bool discover_off;
static long discover_calls;
void (*test_discover_hook)(struct mm_struct *mm, unsigned long pc);
void (*test_discover_locked_hook)(struct mm_struct *mm, unsigned long pc);
__thread enum reg_discovery reg_last_discovery;

void reg_set_discoverable(unsigned long base, enum reg_found what)
{
	int i, free_slot = -1;

	pthread_mutex_lock(&found_lock);
	for (i = 0; i < MAX_DISCOVERABLE; i++) {
		if (found[i].base == base)
			break;
		if (!found[i].base && free_slot < 0)
			free_slot = i;
	}
	if (i == MAX_DISCOVERABLE) {
		if (free_slot < 0)
			abort();
		i = free_slot;
	}
	found[i].base = what == REG_FOUND_NOTHING ? 0 : base;
	found[i].what = what;
	pthread_mutex_unlock(&found_lock);
}

void reg_set_discover_enabled(bool on)
{
	__atomic_store_n(&discover_off, !on, __ATOMIC_RELAXED);
}

long reg_discover_calls(void)
{
	return __atomic_load_n(&discover_calls, __ATOMIC_RELAXED);
}

static enum reg_found found_at(unsigned long pc, unsigned long *base)
{
	enum reg_found what = REG_FOUND_NOTHING;
	int i;

	pthread_mutex_lock(&found_lock);
	for (i = 0; i < MAX_DISCOVERABLE; i++) {
		if (found[i].base && pc >= found[i].base &&
		    pc < found[i].base + OBJ_TEXT_SIZE) {
			what = found[i].what;
			*base = found[i].base;
		}
	}
	pthread_mutex_unlock(&found_lock);
	return what;
}

bool unwind_user_discover_enabled(void)
{
	return !__atomic_load_n(&discover_off, __ATOMIC_RELAXED);
}

/* The locks of an insert. */
static int discover_lock(struct mm_struct *mm)
{
#ifdef REGISTRY_TEST_BASE
	return mmap_write_lock_killable(mm);
#else
	return unwind_user_registry_lock(mm);
#endif
}

static void discover_unlock(struct mm_struct *mm)
{
#ifdef REGISTRY_TEST_BASE
	mmap_write_unlock(mm);
#else
	unwind_user_registry_unlock(mm);
#endif
}

/*
 * As discover_format(): the handler of PE images, perhaps to be loaded (a
 * worker asks for it: -EAGAIN), and the entry it makes of the image.
 */
static int discover_pe(unsigned long base, unsigned long pc,
		       struct unwind_user_entry **ep)
{
#ifdef REGISTRY_TEST_BASE
	return -ENOPROTOOPT;
#else
	const struct unwind_user_format *fmt;
	struct unwind_user_entry *e;

	fmt = unwind_user_format_find(UNWIND_USER_FORMAT_PE);
	if (IS_ERR(fmt))
		return PTR_ERR(fmt);
	e = unwind_user_entry_create_format(fmt, base, base + OBJ_STRIDE, pc);
	if (IS_ERR(e))
		return PTR_ERR(e);
	*ep = e;
	return 0;
#endif
}

int unwind_user_discover(struct mm_struct *mm, unsigned long pc,
			 unsigned int *budget)
{
	struct unwind_user_entry *e = NULL;
	struct unwind_user_eh_frame desc;
	struct vm_area_struct *vma;
	unsigned long base = 0;
	enum reg_found what;
	int ret = 0;

	__atomic_add_fetch(&discover_calls, 1, __ATOMIC_RELAXED);
	reg_last_discovery = REG_DISC_NOTHING;
	if (!unwind_user_discover_enabled())
		return -ENOENT;
	what = found_at(pc, &base);
	if (what == REG_FOUND_NOTHING)
		return -ENOENT;
	if (what == REG_FOUND_TABLE) {
		desc = obj_desc(base);
		e = unwind_user_entry_create(&desc, NULL,
					     UNWIND_USER_ORIGIN_FILE);
		if (IS_ERR(e))
			return PTR_ERR(e);
	} else if (what == REG_FOUND_PE) {
		ret = discover_pe(base, pc, &e);
		/* Transient: nothing changes (a module being asked for). */
		if (ret == -EAGAIN || ret == -ENOMEM)
			return ret;
	}
	if (test_discover_hook)
		test_discover_hook(mm, pc);

	if (discover_lock(mm)) {
		ret = -EINTR;
		goto discard;
	}
	if (test_discover_locked_hook)
		test_discover_locked_hook(mm, pc);
	vma = vma_lookup(mm, pc);
	if (!vma || !(vma->vm_flags & VM_EXEC)) {
		reg_last_discovery = REG_DISC_GONE;
		ret = -EAGAIN;
		goto out;
	}
#ifndef REGISTRY_TEST_BASE
	/* Not mapped as it says: marked. */
	if (e && unwind_user_entry_check_locked(mm, e)) {
		unwind_user_entry_discard(e);
		e = NULL;
	}
#endif
	if (e) {
		ret = unwind_user_add_entry_locked(mm, e);
		if (!ret) {
			e = NULL;
			reg_last_discovery = REG_DISC_ENTRY;
			goto out;
		}
		if (ret == -ENOMEM || ret == -ENOSPC)
			goto out;
	}
	ret = unwind_user_add_none_locked(mm, pc, vma->vm_start, vma->vm_end);
	if (!ret) {
		reg_last_discovery = REG_DISC_MARKER;
	} else if (ret == -EEXIST) {
		reg_last_discovery = REG_DISC_COVERED;
		ret = 0;
	}
out:
	discover_unlock(mm);
discard:
	if (e)
		unwind_user_entry_discard(e);
	return ret;
}

/* The interface of regtest.h. */

void reg_mm_init(struct mm_struct *mm)
{
	unwind_user_mm_init(mm);
}

static enum reg_origin reg_origin_of(enum unwind_user_origin origin)
{
	switch (origin) {
	case UNWIND_USER_ORIGIN_PRCTL:
		return REG_PRCTL;
	case UNWIND_USER_ORIGIN_FILE:
		return REG_FILE;
	case UNWIND_USER_ORIGIN_VDSO:
		break;
	}
	return REG_VDSO;
}

int reg_add_found(struct mm_struct *mm, unsigned long base,
		  enum reg_origin origin)
{
	struct unwind_user_eh_frame desc = obj_desc(base);
	struct unwind_user_entry *e;
	int ret;

	e = unwind_user_entry_create(&desc, NULL,
				     origin == REG_VDSO ? UNWIND_USER_ORIGIN_VDSO :
				     UNWIND_USER_ORIGIN_FILE);
	if (IS_ERR(e))
		return PTR_ERR(e);
	discover_lock(mm);
	ret = unwind_user_add_entry_locked(mm, e);
	discover_unlock(mm);
	if (ret)
		unwind_user_entry_discard(e);
	return ret;
}

int reg_add_none(struct mm_struct *mm, unsigned long pc, unsigned long start,
		 unsigned long end)
{
	int ret;

	discover_lock(mm);
	ret = unwind_user_add_none_locked(mm, pc, start, end);
	discover_unlock(mm);
	return ret;
}

void reg_protect_locked(struct mm_struct *mm, unsigned long start,
			unsigned long end)
{
#ifndef REGISTRY_TEST_BASE
	unwind_user_mm_protect(mm, start, end);
#endif
}

int reg_add_table(struct mm_struct *mm, unsigned int format,
		  unsigned long start, unsigned long end)
{
	return unwind_user_add_table(mm, format, start, end);
}

int reg_format_find(unsigned int format)
{
	const struct unwind_user_format *fmt;

#ifdef REGISTRY_TEST_BASE
	/* No such thing: what it had was the handler if loaded. */
	fmt = format_get(format) ?: ERR_PTR(-ENOPROTOOPT);
#else
	fmt = unwind_user_format_find(format);
#endif
	if (IS_ERR(fmt))
		return PTR_ERR(fmt);
	module_put(fmt->owner);
	return 0;
}

int reg_format_of(struct mm_struct *mm, unsigned long base)
{
	MA_STATE(mas, &mm->unwind_user_mt, base, base);
	struct unwind_user_entry *e;
	int format = -1;

	rcu_read_lock();
	e = mas_walk(&mas);
	if (entry_is_live(e) && e->table.start == base)
		format = e->table.format;
	rcu_read_unlock();
	return format;
}

int reg_forget_found(struct mm_struct *mm)
{
	return unwind_user_forget_found(mm);
}

bool reg_has_tables(struct mm_struct *mm)
{
	return unwind_user_mm_has_tables(mm);
}

void reg_show(struct mm_struct *mm, char *buf, size_t size)
{
	struct seq_file m = { .buf = buf, .size = size };

	buf[0] = 0;
	unwind_user_mm_show(&m, mm);
}

long reg_ops(void)
{
	struct seq_file m;
	char buf[64];
	long ops;

	m = (struct seq_file){ .buf = buf, .size = sizeof(buf) };
	buf[0] = 0;
	registry_stats_fops.show(&m, NULL);
	if (sscanf(buf, "ops %ld\n", &ops) != 1)
		return -1;
	return ops;
}

long reg_stat(const char *name)
{
	char buf[512], *p;
	struct seq_file m;
	size_t len = strlen(name);
	long val;

	m = (struct seq_file){ .buf = buf, .size = sizeof(buf) };
	buf[0] = 0;
	registry_stats_fops.show(&m, NULL);
	for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, len) && p[len] == ' ' &&
		    sscanf(p + len, " %ld", &val) == 1)
			return val;
	return -1;
}

int reg_remove(struct mm_struct *mm, unsigned int format, unsigned long start,
	       unsigned long end)
{
	return unwind_user_remove(mm, format, start, end);
}

long long reg_generation(struct mm_struct *mm)
{
	return atomic64_read_acquire(&mm->unwind_user_gen);
}

int reg_none_markers(struct mm_struct *mm)
{
	MA_STATE(mas, &mm->unwind_user_mt, 0, 0);
	struct unwind_user_entry *e;
	int n = 0;

	rcu_read_lock();
	mas_for_each(&mas, e, ULONG_MAX)
		n += e == &registry_none;
	rcu_read_unlock();
	return n;
}

int reg_register(struct mm_struct *mm, unsigned long base)
{
	struct unwind_user_eh_frame desc = obj_desc(base);

	return unwind_user_add_eh_frame(mm, &desc);
}

int reg_register_bare(struct mm_struct *mm, unsigned long base)
{
	struct unwind_user_eh_frame desc = obj_desc(base);

	desc.hdr_start = 0;
	desc.hdr_end = 0;
	desc.eh_frame_start = OBJ_HDR(base);
	return unwind_user_add_eh_frame(mm, &desc);
}

void reg_move_locked(struct mm_struct *mm, unsigned long old_start,
		     unsigned long old_end, unsigned long new_start)
{
	unwind_user_mm_move(mm, old_start, old_end, new_start);
}

int reg_unregister(struct mm_struct *mm, unsigned long base)
{
	return unwind_user_remove(mm, UNWIND_USER_FORMAT_EH_FRAME_HDR, base,
				  base + OBJ_TEXT_SIZE);
}

void reg_unmap_locked(struct mm_struct *mm, unsigned long start,
		      unsigned long end)
{
	unwind_user_mm_unmap(mm, start, end);
}

int reg_lookup(struct mm_struct *mm, unsigned long pc)
{
	unsigned int budget = UNWIND_USER_TABLE_BUDGET;
	struct unwind_user_frame frame;

	int ret;

	current->mm = mm;
	ret = unwind_user_registry_find_frame(pc, sizeof(long), 0, &budget, NULL,
					      &frame);
	/* From the table or from the cache: which registration said it. */
	if (!ret)
		test_last_lookup_serial = (u32)frame.cfa.off |
					  (u64)(u32)frame.ra.off << 32;
	return ret;
}

const unsigned int reg_walk_budget = UNWIND_USER_TABLE_BUDGET;

unsigned int reg_walk(struct mm_struct *mm, const unsigned long *pcs, int nr,
		      int *rets)
{
	unsigned int budget = UNWIND_USER_TABLE_BUDGET;
	struct unwind_user_frame frame;
	int i;

	current->mm = mm;
	for (i = 0; i < nr; i++)
		rets[i] = unwind_user_registry_find_frame(pcs[i], sizeof(long),
							  0, &budget, NULL,
							  &frame);
	return budget;
}

void reg_set_index_max_kb(unsigned int kb)
{
	WRITE_ONCE(unwind_tables_index_max_kb, kb);
}

int reg_cache_stats(struct mm_struct *mm, unsigned long *hits,
		    unsigned long *misses)
{
	struct unwind_user_cache_stats stats;

	/* An ERR_PTR when it could not be allocated. */
	if (IS_ERR_OR_NULL(mm->unwind_user_cache))
		return -1;
	unwind_user_cache_get_stats(mm->unwind_user_cache, &stats);
	*hits = stats.hits;
	*misses = stats.misses;
	return 0;
}

int reg_fork_locked(struct mm_struct *child, struct mm_struct *parent)
{
	return unwind_user_mm_dup(child, parent);
}

void reg_exit_locked(struct mm_struct *mm)
{
	unwind_user_mm_exit(mm);
}

long reg_count(struct mm_struct *mm)
{
	return mm->unwind_user_nr;
}

int reg_contents(struct mm_struct *mm, struct reg_item *items, int max)
{
	MA_STATE(mas, &mm->unwind_user_mt, 0, 0);
	struct unwind_user_entry *e;
	int n = 0;

	rcu_read_lock();
	mas_for_each(&mas, e, ULONG_MAX) {
		if (!entry_is_live(e))
			continue;
		if (n < max)
			items[n] = (struct reg_item){
				.start = e->table.start,
				.end = e->table.end,
				.serial = sec_serial(&e->table.eh_frame),
				.refs = refcount_read(&e->ref),
				.keyed = mas.index == e->table.start &&
					 mas.last == e->table.end - 1,
				.origin = reg_origin_of(e->table.origin),
				.dead = entry_is_dead(e),
			};
		n++;
	}
	rcu_read_unlock();
	return n;
}

int reg_markers(struct mm_struct *mm)
{
	MA_STATE(mas, &mm->unwind_user_mt, 0, 0);
	struct unwind_user_entry *e;
	int n = 0;

	rcu_read_lock();
	mas_for_each(&mas, e, ULONG_MAX)
		n += e == &registry_tombstone;
	rcu_read_unlock();
	return n;
}
