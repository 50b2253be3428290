// SPDX-License-Identifier: GPL-2.0
/*
 * The per-mm registry of user unwind tables.
 *
 * Each entry covers the text [start, end) of one mapped object and says
 * where that object's unwind table is: its .eh_frame (and .eh_frame_hdr),
 * or what the handler of another format keeps of it.  Entries live in a
 * maple tree in the mm, keyed by the text range, stored inclusive as
 * [start, end - 1].
 *
 * The tree has a lock of its own, mm->unwind_user_lock, a mutex
 * (MT_FLAGS_LOCK_EXTERN).  Every writer holds it, and holds the mmap lock
 * too, for reading or for writing: an insert checks its ranges against the
 * VMAs under the read lock, so no munmap() (which drops entries under the
 * write lock) can come between the check and the insert, and an entry is
 * removed by exactly one writer.  So what the kernel finds while it walks a
 * task's stack goes in without the mmap write lock: the task's own page
 * faults and mmap() calls do not queue behind the unwinder.  The order is
 * mmap lock, then unwind_user_lock; nothing takes the mmap lock under it.
 * The unwinder finds an entry under RCU, copies its description out and
 * takes a reference (on the entry, for its index; or on the handler's
 * module) before it reads the table, because those reads can fault and
 * sleep.  An entry removed meanwhile leaves the unwinder holding user
 * addresses and its own reference: at worst a read faults and that frame
 * is unwound another way.
 *
 * What describes an entry's table does not change once it is inserted:
 * fork shares entries with the child, which takes a reference on each,
 * instead of copying them.  Only the index built at the first lookup and
 * the flags below are set later, each once.
 *
 * Formats other than .eh_frame (the Windows x64 PE backend) have handlers
 * that may live in a module (struct unwind_user_format): an entry of such
 * a format holds a reference on the module, so the module cannot go while
 * a process has a table of its format registered.
 *
 * Entries come from user space (prctl) or from the kernel, which finds the
 * table of a mapped object at the first lookup that needs it (discover.c).
 * An object the kernel found no usable table for gets a marker instead of
 * an entry, so that it is not probed again at every lookup.  What user
 * space registers takes precedence: it replaces whatever the kernel found
 * over its range, and the kernel never finds anything over a registration.
 *
 * Every removal from the tree bumps the mm's generation, after the change
 * and under the same locks.  The frames found by lookups are cached per mm
 * (cache.c), each under the generation read before the lookup began; a
 * cached frame is used only while the generation is still the same.  A
 * new entry needs no new generation: frames are cached only for pcs that
 * an entry covered, and entries never overlap.  The frames of a table the
 * kernel found in a file go to the cache all processes share instead
 * (shared.c), keyed by the file's contents, not by a generation.  A pc that
 * an entry covers but no FDE describes (hand-written assembly, a runtime's
 * builtins) is a result too: it is cached like a frame, as a row that says
 * "none", so that a profiler sampling it again does not search the table
 * again.  Executable memory with no table at all has a marker in the tree.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kmod.h>
#include <linux/maple_tree.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysctl.h>
#include <linux/uaccess.h>
#include <linux/unwind_user.h>
#include <linux/unwind_user_registry.h>
#include <linux/workqueue.h>

#include "cache.h"
#include "cfi.h"
#include "eh_frame.h"
#include "registry.h"
#include "shared.h"

/* Enough for the largest programs seen (a few hundred objects) and Wine. */
static unsigned int unwind_tables_max = 4096;

/*
 * The indexes of one mm's tables, in KiB: some 2 KiB for glibc's, up to
 * 2 MiB for a table without a header.
 */
static unsigned int unwind_tables_index_max_kb = SZ_16K;

/* What a lookup copies out of an entry. */
struct unwind_user_table {
	unsigned long			start;	/* text covered: [start, end) */
	unsigned long			end;
	u64				id;	/* unique, never reused */
	unsigned int			format;	/* UNWIND_USER_FORMAT_* */
	enum unwind_user_origin		origin;
	/* The handler of another format than .eh_frame, or NULL */
	const struct unwind_user_format	*fmt;
	/* What shares its decoded frames with other processes (shared.c) */
	struct unwind_user_share	share;
	union {
		struct eh_frame_section	eh_frame;
		unsigned long		data[UNWIND_USER_FORMAT_DATA_SIZE /
					     sizeof(long)];
	};
};

struct unwind_user_entry {
	struct unwind_user_table	table;
	/* One per mm that holds it, and one per lookup that uses it. */
	refcount_t			ref;
	/*
	 * .eh_frame: the index the first lookup built (set once), or an
	 * ERR_PTR when it could not be built, and registry_changes then;
	 * shared like the entry.
	 */
	struct eh_frame_index		*index;
	u64				index_gen;
	/*
	 * ENTRY_DEAD, once a lookup found the table corrupt: lookups skip the
	 * entry, which stays until its range is unmapped or registered again.
	 * Set only on an entry no other mm holds (see registry_drop()).
	 */
	unsigned long			flags;
	struct rcu_head			rcu;
};

#define ENTRY_DEAD	0
/*
 * ENTRY_SHARE_CHECKED, once the header the entry holds was read again from
 * the file's own bytes (see shared.c): it need not be again.
 */
#define ENTRY_SHARE_CHECKED	1

static bool entry_is_dead(const struct unwind_user_entry *e)
{
	return test_bit(ENTRY_DEAD, &e->flags);
}

/*
 * Stands in the tree for an entry whose erase could not get the node it
 * needed: a store that replaces a range exactly needs none.  Lookups skip
 * it; an insert or a later removal over its range gets rid of it.
 */
static struct unwind_user_entry registry_tombstone;

/*
 * Stands in the tree over executable memory the kernel found no usable
 * table for (discover.c): lookups there fail at once; user space may
 * register over it, and an unmap drops it.
 */
static struct unwind_user_entry registry_none;

static atomic64_t registry_next_id;

/*
 * Changes of the trees of all mms, for tests that show that a process
 * nobody unwinds never changes its registry (debugfs: unwind_user/registry).
 */
static atomic_long_t registry_ops;

/*
 * Index builds of all mms and the bytes they read: a walk must not build
 * again what failed (debugfs: unwind_user/registry).
 */
static atomic_long_t registry_index_builds;
static atomic64_t registry_index_read;

/* What lookups found, for debugfs unwind_user/registry. */
enum {
	REGISTRY_SEARCHES,	/* table searches (FDE lookup, CFI run) */
	REGISTRY_SEARCHES_NONE,	/* ... that found no FDE for the pc */
	REGISTRY_NONE_CACHED,	/* "no FDE" answered by a cached row */
	REGISTRY_MARKER,	/* answered by a marker (or a dropped table) */
	REGISTRY_NR_STATS,
};

static atomic_long_t registry_stats[REGISTRY_NR_STATS];

/*
 * Removals from any mm's tree: when a failed index build may be tried
 * again.  Entries are shared across fork, so not the generation of one mm.
 */
static atomic64_t registry_changes;

/* The handlers of formats other than .eh_frame, by format. */
#define REGISTRY_MAX_FORMAT	7
static const struct unwind_user_format __rcu *registry_formats[REGISTRY_MAX_FORMAT + 1];
static DEFINE_MUTEX(registry_formats_lock);

/*
 * Loads of a handler's module: by format, whether modprobe was asked and
 * when, and which loads the worker has yet to ask for.
 */
#define REGISTRY_FORMAT_RETRY	(60 * HZ)
static DEFINE_SPINLOCK(registry_loads_lock);
static unsigned long registry_loads_asked;
static unsigned long registry_loads_at[REGISTRY_MAX_FORMAT + 1];
static unsigned long registry_loads_pending;
static atomic_long_t registry_module_requests;

/*
 * DWARF's CFA is the caller's stack pointer; an ABI may put it higher
 * (s390: past the register save area the caller allocates).
 */
#ifndef UNWIND_USER_DWARF_CFA_OFF
#define UNWIND_USER_DWARF_CFA_OFF	0
#endif

/* The DWARF numbers of the registers the generic frame rules know. */
#ifndef UNWIND_USER_DWARF_NEGATE_RA_STATE
#define UNWIND_USER_DWARF_NEGATE_RA_STATE	false
#endif

static const struct eh_frame_regs eh_frame_regs = {
	.sp = UNWIND_USER_DWARF_SP,
	.fp = UNWIND_USER_DWARF_FP,
	.ra = UNWIND_USER_DWARF_RA,
	.cfa_off = UNWIND_USER_DWARF_CFA_OFF,
	.negate_ra_state = UNWIND_USER_DWARF_NEGATE_RA_STATE,
};

#if defined(UNWIND_USER_DWARF_SP_32) && defined(CONFIG_COMPAT)
/* ... and for the 32-bit tasks of a 64-bit kernel, whose psABI differs. */
static const struct eh_frame_regs eh_frame_regs_32 = {
	.sp = UNWIND_USER_DWARF_SP_32,
	.fp = UNWIND_USER_DWARF_FP_32,
	.ra = UNWIND_USER_DWARF_RA_32,
};
#endif

/* The register numbering of tables for @ws-byte words, or NULL. */
static const struct eh_frame_regs *registry_regs(unsigned int ws)
{
	if (ws == sizeof(long))
		return &eh_frame_regs;
#if defined(UNWIND_USER_DWARF_SP_32) && defined(CONFIG_COMPAT)
	if (ws == 4)
		return &eh_frame_regs_32;
#endif
	return NULL;
}

/* A real entry: neither a tombstone nor a marker. */
static bool entry_is_live(const struct unwind_user_entry *e)
{
	return e && e != &registry_tombstone && e != &registry_none;
}

/* May a registration of @origin replace @old, which it overlaps? */
static bool entry_yields_to(const struct unwind_user_entry *old,
			    enum unwind_user_origin origin)
{
	if (old == &registry_tombstone)
		return true;
	/*
	 * User space registers over what the kernel found, and over a table
	 * found corrupt; never the reverse.
	 */
	return origin == UNWIND_USER_ORIGIN_PRCTL &&
	       (old == &registry_none || entry_is_dead(old) ||
		old->table.origin != UNWIND_USER_ORIGIN_PRCTL);
}

/*
 * The module of a format may go once its last entry is gone; a lookup that
 * still sees the entry under RCU cannot take a new reference any more, and
 * the module's unwind_user_unregister_format() waits for such readers.
 */
static void entry_put(struct unwind_user_entry *e)
{
	if (refcount_dec_and_test(&e->ref)) {
		if (e->table.fmt)
			module_put(e->table.fmt->owner);
		/* Lookups use the index only while they hold a reference. */
		if (!IS_ERR_OR_NULL(e->index))
			eh_frame_index_free(e->index);
		kfree_rcu(e, rcu);
	}
}

/*
 * Something left the tree of @mm: no frame cached before is valid any more.
 * The release orders the change before the new generation, for lookups
 * that read the generation with acquire and then walk the tree.
 */
static void registry_changed(struct mm_struct *mm)
{
	lockdep_assert_held(&mm->unwind_user_lock);
	atomic64_inc_return_release(&mm->unwind_user_gen);
	atomic64_inc(&registry_changes);
}

/**
 * unwind_user_registry_lock - take the locks of a writer of @mm's tree
 * @mm:		the mm
 *
 * The mmap lock for reading, so that the VMAs stay as a writer checks
 * them, then the tree's own lock (see the top of this file).
 *
 * Return: 0 or -EINTR.
 */
int unwind_user_registry_lock(struct mm_struct *mm)
{
	if (mmap_read_lock_killable(mm))
		return -EINTR;
	if (mutex_lock_killable(&mm->unwind_user_lock)) {
		mmap_read_unlock(mm);
		return -EINTR;
	}
	return 0;
}

void unwind_user_registry_unlock(struct mm_struct *mm)
{
	mutex_unlock(&mm->unwind_user_lock);
	mmap_read_unlock(mm);
}

/* What every writer of @mm's tree holds. */
static void registry_assert_locked(struct mm_struct *mm)
{
	mmap_assert_locked(mm);
	lockdep_assert_held(&mm->unwind_user_lock);
}

void unwind_user_mm_init(struct mm_struct *mm)
{
	mutex_init(&mm->unwind_user_lock);
	mt_init_flags(&mm->unwind_user_mt,
		      MT_FLAGS_LOCK_EXTERN | MT_FLAGS_USE_RCU);
	mt_set_external_lock(&mm->unwind_user_mt, &mm->unwind_user_lock);
	mm->unwind_user_nr = 0;
	/* 1: the empty rows of a new cache hold generation 0. */
	atomic64_set(&mm->unwind_user_gen, 1);
	/* A child at fork got its parent's pointer by memcpy(). */
	mm->unwind_user_cache = NULL;
	atomic_long_set(&mm->unwind_user_probes, 0);
	atomic64_set(&mm->unwind_user_walks, 0);
	atomic64_set(&mm->unwind_user_walks_known, 0);
	atomic64_set(&mm->unwind_user_walks_ip, 0);
	atomic64_set(&mm->unwind_user_walk_ns, 0);
}

/**
 * unwind_user_mm_has_tables - may the unwinder find tables in @mm?
 * @mm:		the mm of the task being unwound
 *
 * Those registered, or, while kernel.unwind_tables_discover allows it,
 * those of the objects the walk meets.
 */
bool unwind_user_mm_has_tables(struct mm_struct *mm)
{
	return !mtree_empty(&mm->unwind_user_mt) ||
	       unwind_user_discover_enabled();
}

/*
 * Take the entry (or marker, or tombstone) @mas points at out of @mm's
 * tree.  Erasing may need a new node; without one, a tombstone takes the
 * entry's place, which a store over exactly its range allows.  Either way
 * the entry is gone for lookups once this returns; false if the tree still
 * holds it.
 */
static bool registry_erase(struct mm_struct *mm, struct ma_state *mas,
			   struct unwind_user_entry *e)
{
	unsigned long first = mas->index, last = mas->last;

	atomic_long_inc(&registry_ops);
	if (mas_store_gfp(mas, NULL, GFP_KERNEL_ACCOUNT) &&
	    e != &registry_tombstone) {
		mas_set_range(mas, first, last);
		if (WARN_ON_ONCE(mas_store_gfp(mas, &registry_tombstone,
					       GFP_KERNEL_ACCOUNT))) {
			/*
			 * The tree still holds the entry: keep its reference
			 * and hide it from lookups, as a dropped one.
			 */
			if (entry_is_live(e))
				set_bit(ENTRY_DEAD, &e->flags);
			registry_changed(mm);
			return false;
		}
	}
	registry_changed(mm);
	if (entry_is_live(e)) {
		mm->unwind_user_nr--;
		entry_put(e);
	}
	return true;
}

/* Remove everything in @mm's tree that intersects [start, end). */
static void registry_erase_range(struct mm_struct *mm, unsigned long start,
				 unsigned long end)
{
	MA_STATE(mas, &mm->unwind_user_mt, start, start);
	struct unwind_user_entry *e;
	unsigned long addr = start;

	/* Each pass removes an entry or moves past a tombstone: it ends. */
	while (addr < end) {
		mas_set(&mas, addr);
		e = mas_find(&mas, end - 1);
		if (!e)
			break;
		addr = mas.last + 1;
		registry_erase(mm, &mas, e);
		if (!addr)
			break;
	}
}

/*
 * Is [start, end) mapped without holes, with all of @flags?  -ENOMEM for a
 * hole, as mprotect() and madvise() say it, -EACCES for a mapping that lacks
 * a flag.  The caller holds the mmap lock.
 */
static int range_check(struct mm_struct *mm, unsigned long start,
		       unsigned long end, vm_flags_t flags)
{
	VMA_ITERATOR(vmi, mm, start);
	struct vm_area_struct *vma;
	unsigned long addr = start;

	for_each_vma_range(vmi, vma, end) {
		if (vma->vm_start > addr)
			return -ENOMEM;
		if ((vma->vm_flags & flags) != flags)
			return -EACCES;
		addr = vma->vm_end;
		if (addr >= end)
			return 0;
	}
	return -ENOMEM;
}

/* The text must be executable, the tables readable. */
static int eh_frame_check_ranges(struct mm_struct *mm,
				 unsigned long text_start, unsigned long text_end,
				 unsigned long hdr_start, unsigned long hdr_end,
				 unsigned long eh_frame_start,
				 unsigned long eh_frame_end)
{
	int ret;

	ret = range_check(mm, text_start, text_end, VM_EXEC);
	if (!ret && hdr_start)
		ret = range_check(mm, hdr_start, hdr_end, VM_READ);
	if (!ret)
		ret = range_check(mm, eh_frame_start, eh_frame_end, VM_READ);
	return ret;
}

/*
 * Clear [start, end) for a registration of @origin: -EEXIST if anything in
 * there does not yield to it (see entry_yields_to()), -ENOSPC if the cap
 * leaves no room once what yields is gone (and then nothing goes), else
 * everything in there that is not a tombstone goes (tombstones are stored
 * over).
 */
static int registry_make_room(struct mm_struct *mm, unsigned long start,
			      unsigned long end, enum unwind_user_origin origin)
{
	MA_STATE(mas, &mm->unwind_user_mt, start, start);
	struct unwind_user_entry *old;
	unsigned long addr = start;
	unsigned int replaced = 0;

	/* Each pass moves past an item: they end. */
	while (addr < end) {
		mas_set(&mas, addr);
		old = mas_find(&mas, end - 1);
		if (!old)
			break;
		if (!entry_yields_to(old, origin))
			return -EEXIST;
		replaced += entry_is_live(old);
		addr = mas.last + 1;
		if (!addr)
			break;
	}
	if (mm->unwind_user_nr - replaced >= READ_ONCE(unwind_tables_max))
		return -ENOSPC;
	for (addr = start; addr < end; ) {
		mas_set(&mas, addr);
		old = mas_find(&mas, end - 1);
		if (!old)
			break;
		addr = mas.last + 1;
		/* The tree keeps what it could not erase: nothing goes over it. */
		if (old != &registry_tombstone &&
		    !registry_erase(mm, &mas, old))
			return -ENOMEM;
		if (!addr)
			break;
	}
	return 0;
}

/**
 * unwind_user_entry_check_locked - is @e's object mapped as @e says?
 * @mm:		the mm, locked by unwind_user_registry_lock()
 * @e:		an entry not in a tree yet
 *
 * Return: 0; -ENOMEM when a range is not mapped; -EACCES when the text is
 * not executable or a table not readable.
 */
int unwind_user_entry_check_locked(struct mm_struct *mm,
				   const struct unwind_user_entry *e)
{
	const struct eh_frame_section *sec = &e->table.eh_frame;

	mmap_assert_locked(mm);
	/*
	 * .eh_frame is read from where the header says it starts; a table of
	 * another format lies within the object, which must be readable.
	 */
	if (e->table.fmt)
		return range_check(mm, e->table.start, e->table.end, VM_READ);
	return eh_frame_check_ranges(mm, sec->text_start, sec->text_end,
				     sec->hdr_start, sec->hdr_end,
				     sec->eh_frame_start, sec->eh_frame_end);
}

/*
 * The one way into the tree, for user space and what the kernel finds
 * alike: the caller holds the mmap lock and the tree's, so that what was
 * checked here is still true when the entry goes in, and no munmap() can
 * miss it.
 */
static int registry_add_locked(struct mm_struct *mm,
			       struct unwind_user_entry *e)
{
	MA_STATE(mas, &mm->unwind_user_mt, e->table.start, e->table.start);
	int ret;

	registry_assert_locked(mm);
	ret = unwind_user_entry_check_locked(mm, e);
	if (ret)
		return ret;
	ret = registry_make_room(mm, e->table.start, e->table.end,
				 e->table.origin);
	if (ret)
		return ret;

	/*
	 * Without a node for it, what the kernel found there is gone: the
	 * next walk finds it again.
	 */
	mas_set_range(&mas, e->table.start, e->table.end - 1);
	ret = mas_store_gfp(&mas, e, GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret;
	mm->unwind_user_nr++;
	atomic_long_inc(&registry_ops);
	return 0;
}

/**
 * unwind_user_add_none_locked - mark executable memory that has no table
 * @mm:		the mm, locked by unwind_user_registry_lock()
 * @pc:		an address in it that nothing in @mm's registry covers
 * @start:	start of the memory to mark
 * @end:	its end (exclusive)
 *
 * The marker covers what is free around @pc within [@start, @end).  For
 * discover.c, which found no usable table there.
 *
 * Return: 0; -EEXIST when something covers @pc; -ENOMEM.
 */
int unwind_user_add_none_locked(struct mm_struct *mm, unsigned long pc,
				unsigned long start, unsigned long end)
{
	MA_STATE(mas, &mm->unwind_user_mt, pc, pc);
	struct unwind_user_entry *old;
	int ret;

	registry_assert_locked(mm);
	if (pc < start || pc >= end)
		return -EINVAL;
	/* Over a free range, the walk leaves its bounds in the state. */
	old = mas_walk(&mas);
	if (old && old != &registry_tombstone)
		return -EEXIST;
	mas_set_range(&mas, max(start, mas.index), min(end - 1, mas.last));
	ret = mas_store_gfp(&mas, &registry_none, GFP_KERNEL_ACCOUNT);
	if (!ret)
		atomic_long_inc(&registry_ops);
	return ret;
}

/**
 * unwind_user_range_readable - is memory mapped readable, all of it
 * @mm:		the mm, its mmap lock held
 * @start:	start of the range
 * @end:	its end (exclusive)
 *
 * For discover.c, to tell a read that faulted on memory that is there (an
 * I/O error of the file behind it) from one that met a hole.
 */
bool unwind_user_range_readable(struct mm_struct *mm, unsigned long start,
				unsigned long end)
{
	mmap_assert_locked(mm);
	return !range_check(mm, start, end, VM_READ);
}

/* A header is optional: hdr_start 0 (and hdr_end 0) says there is none. */
static int eh_frame_desc_valid(const struct unwind_user_eh_frame *desc)
{
	if (desc->text_start >= desc->text_end ||
	    (desc->hdr_start ? desc->hdr_start >= desc->hdr_end :
			       desc->hdr_end) ||
	    desc->eh_frame_start >= desc->eh_frame_end)
		return -EINVAL;
	if (desc->ptr_size != 4 && desc->ptr_size != sizeof(long))
		return -EINVAL;
	return 0;
}

/**
 * unwind_user_entry_create - a new entry, not in any tree yet
 * @desc:	the object's text and tables
 * @hdr_data:	a kernel copy of its .eh_frame_hdr, or NULL to read it from
 *		user memory
 * @origin:	who found the table
 *
 * The header is read and checked once, here, so that a bad one is refused
 * now and not found at every sample.  Must run in a context that may fault,
 * without the mmap lock unless @hdr_data is given.
 *
 * Return: the entry, or an ERR_PTR: -EINVAL for an invalid @desc, -ENOMEM,
 * -EFAULT, -ENOEXEC for a malformed header, -EOPNOTSUPP for one without a
 * usable search table.
 */
struct unwind_user_entry *
unwind_user_entry_create(const struct unwind_user_eh_frame *desc,
			 const void *hdr_data, enum unwind_user_origin origin)
{
	struct unwind_user_entry *e;
	int ret;

	ret = eh_frame_desc_valid(desc);
	if (ret)
		return ERR_PTR(ret);

	e = kzalloc_obj(*e, GFP_KERNEL_ACCOUNT);
	if (!e)
		return ERR_PTR(-ENOMEM);

	ret = eh_frame_section_init(&e->table.eh_frame, desc, hdr_data);
	if (ret) {
		kfree(e);
		/* The arguments were valid: what is wrong is the header. */
		return ERR_PTR(ret == -EINVAL ? -ENOEXEC : ret);
	}
	e->table.start = desc->text_start;
	e->table.end = desc->text_end;
	e->table.format = desc->hdr_start ? UNWIND_USER_FORMAT_EH_FRAME_HDR :
					    UNWIND_USER_FORMAT_EH_FRAME;
	e->table.origin = origin;
	e->table.id = atomic64_inc_return(&registry_next_id);
	refcount_set(&e->ref, 1);
	return e;
}

/**
 * unwind_user_entry_create_format - a new entry of another format, not in
 *				     any tree yet, for an object the kernel found
 * @fmt:	its handler, from unwind_user_format_find(): the entry takes
 *		over the reference on its module, also when this fails
 * @start:	where the object's headers are
 * @limit:	the end of what may be read to find its size
 * @pc:		an address in its code
 *
 * Must run in a context that may fault, without the mmap lock.
 *
 * Return: the entry, or an ERR_PTR: -EOPNOTSUPP when the format is not
 * found by the kernel, -ENOMEM, or the handler's errno.
 */
struct unwind_user_entry *
unwind_user_entry_create_format(const struct unwind_user_format *fmt,
				unsigned long start, unsigned long limit,
				unsigned long pc)
{
	struct unwind_user_entry *e;
	unsigned long end;
	int ret = -EOPNOTSUPP;

	if (!fmt->discover)
		goto put;
	e = kzalloc_obj(*e, GFP_KERNEL_ACCOUNT);
	ret = -ENOMEM;
	if (!e)
		goto put;
	ret = fmt->discover(e->table.data, start, limit, pc, &end);
	if (ret) {
		kfree(e);
		goto put;
	}
	e->table.start = start;
	e->table.end = end;
	e->table.format = fmt->format;
	e->table.origin = UNWIND_USER_ORIGIN_FILE;
	e->table.fmt = fmt;
	e->table.id = atomic64_inc_return(&registry_next_id);
	refcount_set(&e->ref, 1);
	return e;
put:
	module_put(fmt->owner);
	return ERR_PTR(ret);
}

/* Free an entry that unwind_user_entry_create*() made and no tree took. */
void unwind_user_entry_discard(struct unwind_user_entry *e)
{
	if (e->table.fmt)
		module_put(e->table.fmt->owner);
	kfree(e);
}

/**
 * unwind_user_entry_share - let @e share its decoded frames (shared.c)
 * @mm:		the mm, its mmap lock held
 * @e:		an .eh_frame entry, not in a tree yet
 * @file:	the file @e's table must be mapped from, or NULL: any file
 * @id:		that file, as unwind_user_share_id() saw it before the table
 *		was read; NULL: the file mapped at the header, as it is now
 *
 * Only a table whose .eh_frame_hdr is mapped from a file shares its frames:
 * not one in anonymous memory (JIT code, an image a loader copied).
 * shared.c checks again, before it keeps a frame, that it was decoded from
 * the file's own bytes.
 */
void unwind_user_entry_share(struct mm_struct *mm, struct unwind_user_entry *e,
			     const struct file *file,
			     const struct unwind_user_share *id)
{
	const struct eh_frame_section *sec = &e->table.eh_frame;
	struct unwind_user_share share;
	struct vm_area_struct *vma;

	mmap_assert_locked(mm);
	if (e->table.fmt || !sec->hdr_start)
		return;
	vma = vma_lookup(mm, sec->hdr_start);
	if (!vma || !vma->vm_file ||
	    (file && file_inode(vma->vm_file) != file_inode(file)))
		return;
	if (id)
		share = *id;
	else
		unwind_user_share_id(&share, vma->vm_file);
	unwind_user_share_set(&share, sec,
			      vma->vm_start - (vma->vm_pgoff << PAGE_SHIFT));
	e->table.share = share;
}

/**
 * unwind_user_add_entry_locked - put a new entry into @mm's tree
 * @mm:		the mm, locked by unwind_user_registry_lock()
 * @e:		from unwind_user_entry_create(); the tree takes it on success
 *
 * Return: 0; -ENOMEM when a range is not mapped (or memory is short);
 * -EACCES when the text is not executable or a table not readable; -ENOSPC
 * when @mm holds kernel.unwind_tables_max entries; -EEXIST when the text
 * overlaps an entry that does not yield to @e.
 */
int unwind_user_add_entry_locked(struct mm_struct *mm,
				 struct unwind_user_entry *e)
{
	return registry_add_locked(mm, e);
}

/**
 * unwind_user_add_eh_frame - register the .eh_frame of a mapped object
 * @mm:		current's mm
 * @desc:	the object's text and tables
 *
 * For user space (the prctl).  The ranges are checked before the header is
 * read, and again when the entry goes in.  Must run in a context that may
 * fault, without the mmap lock.
 *
 * Return: 0; -EINVAL for an invalid @desc; -EINTR; -ENOMEM when a range is
 * not mapped (or memory is short); -EACCES when the text is not executable
 * or a table not readable; -EFAULT when reading the header faulted;
 * -ENOEXEC for a malformed header; -EOPNOTSUPP for a header without a
 * usable search table; -ENOSPC when @mm holds kernel.unwind_tables_max
 * entries; -EEXIST when the text overlaps a registered range.  What the
 * kernel found over the range by itself gives way.
 */
int unwind_user_add_eh_frame(struct mm_struct *mm,
			     const struct unwind_user_eh_frame *desc)
{
	struct unwind_user_entry *e;
	int ret;

	ret = eh_frame_desc_valid(desc);
	if (ret)
		return ret;

	/*
	 * The ranges as given: an unmapped header is -ENOMEM like any range,
	 * not a fault when it is read.
	 */
	if (mmap_read_lock_killable(mm))
		return -EINTR;
	ret = eh_frame_check_ranges(mm, desc->text_start, desc->text_end,
				    desc->hdr_start, desc->hdr_end,
				    desc->eh_frame_start, desc->eh_frame_end);
	mmap_read_unlock(mm);
	if (ret)
		return ret;

	e = unwind_user_entry_create(desc, NULL, UNWIND_USER_ORIGIN_PRCTL);
	if (IS_ERR(e))
		return PTR_ERR(e);

	if (unwind_user_registry_lock(mm)) {
		kfree(e);
		return -EINTR;
	}
	unwind_user_entry_share(mm, e, NULL, NULL);
	ret = registry_add_locked(mm, e);
	unwind_user_registry_unlock(mm);
	if (ret)
		kfree(e);
	return ret;
}

/* The handler of @format with a reference on its module, or NULL. */
static const struct unwind_user_format *format_get(unsigned int format)
{
	const struct unwind_user_format *fmt = NULL;

	if (format > REGISTRY_MAX_FORMAT)
		return NULL;
	rcu_read_lock();
	fmt = rcu_dereference(registry_formats[format]);
	if (fmt && !try_module_get(fmt->owner))
		fmt = NULL;
	rcu_read_unlock();
	return fmt;
}

/*
 * Only a handler this kernel was built with as a module can be loaded:
 * nothing else is asked of modprobe, whatever user space names.
 */
static bool format_is_module(unsigned int format)
{
	return format == UNWIND_USER_FORMAT_PE && IS_MODULE(CONFIG_UNWIND_USER_PE);
}

/* Ask modprobe for the handlers wanted, away from the sampled task. */
static void format_load_work(struct work_struct *work)
{
	unsigned int format;

	for (format = 0; format <= REGISTRY_MAX_FORMAT; format++) {
		if (!test_bit(format, &registry_loads_pending))
			continue;
		request_module("unwind-user-format-%u", format);
		clear_bit(format, &registry_loads_pending);
	}
}

static DECLARE_WORK(registry_load_work, format_load_work);

/*
 * Ask the worker to load @format's module: at most once per
 * REGISTRY_FORMAT_RETRY and format, whoever asks (a registration, or
 * discovery on behalf of a task being sampled), so that a load that failed
 * is not tried again at every registration or sample.  Only the worker runs
 * modprobe: a sampled task never waits for it, and a registration that
 * does waits for the worker's load rather than start another.
 *
 * Return: -EAGAIN while a load is the worker's to make (queued now, or
 * already); -ENOPROTOOPT when none will be made now.
 */
static int format_load(unsigned int format)
{
	unsigned long now = jiffies;
	int ret = -ENOPROTOOPT;

	if (!format_is_module(format))
		return ret;
	spin_lock(&registry_loads_lock);
	if (test_bit(format, &registry_loads_pending)) {
		ret = -EAGAIN;
	} else if (!test_bit(format, &registry_loads_asked) ||
		   time_after(now, registry_loads_at[format] +
				   REGISTRY_FORMAT_RETRY)) {
		set_bit(format, &registry_loads_asked);
		registry_loads_at[format] = now;
		set_bit(format, &registry_loads_pending);
		atomic_long_inc(&registry_module_requests);
		ret = -EAGAIN;
	}
	spin_unlock(&registry_loads_lock);
	if (ret == -EAGAIN)
		queue_work(system_unbound_wq, &registry_load_work);
	return ret;
}

/**
 * unwind_user_format_find - the handler of a format, for discovery
 * @format:	UNWIND_USER_FORMAT_*, not .eh_frame's
 *
 * Never waits for a module to load: modprobe could take the sampled task
 * seconds.  The worker asks for it (see format_load()), and a later sample
 * finds the handler.
 *
 * Return: the handler, with a reference on its module; ERR_PTR(-EAGAIN)
 * while a module that may bring it is being asked for; ERR_PTR(-ENOPROTOOPT)
 * when none will come.
 */
const struct unwind_user_format *unwind_user_format_find(unsigned int format)
{
	const struct unwind_user_format *fmt = format_get(format);

	return fmt ?: ERR_PTR(format_load(format));
}

/* Give back the handler unwind_user_format_find() gave, unused. */
void unwind_user_format_put(const struct unwind_user_format *fmt)
{
	module_put(fmt->owner);
}

/**
 * unwind_user_add_table - register an object whose table has another format
 * @mm:		current's mm
 * @format:	UNWIND_USER_FORMAT_*, not .eh_frame's
 * @start:	where the object is mapped
 * @end:	its end (exclusive)
 *
 * The format's handler reads and checks the object's headers and table from
 * user memory, within [@start, @end).  Must run in a context that may fault,
 * without the mmap lock.
 *
 * Return: 0; -ENOPROTOOPT when no handler of @format is loaded, nor can be
 * (request_module() of "unwind-user-format-<format>", by a worker, for a
 * handler built as a module, at most once a minute); -EINVAL for an empty
 * range; -EINTR;
 * -ENOMEM when the range is not mapped throughout (or memory is short);
 * -EACCES when a part of it is not readable; the
 * handler's errno (-ENOEXEC for a malformed object, -EOPNOTSUPP for one it
 * does not unwind, -EFAULT); -ENOSPC and -EEXIST as
 * unwind_user_add_eh_frame().
 */
int unwind_user_add_table(struct mm_struct *mm, unsigned int format,
			  unsigned long start, unsigned long end)
{
	const struct unwind_user_format *fmt;
	struct unwind_user_entry *e;
	int ret;

	if (start >= end)
		return -EINVAL;
	if (mmap_read_lock_killable(mm))
		return -EINTR;
	ret = range_check(mm, start, end, VM_READ);
	mmap_read_unlock(mm);
	if (ret)
		return ret;

	fmt = format_get(format);
	/*
	 * Its handler may be a module nobody loaded yet (see the alias): the
	 * task registering waits for the worker's load, within format_load()'s
	 * rate.
	 */
	if (!fmt && format_load(format) == -EAGAIN) {
		flush_work(&registry_load_work);
		fmt = format_get(format);
	}
	if (!fmt)
		return -ENOPROTOOPT;

	e = kzalloc_obj(*e, GFP_KERNEL_ACCOUNT);
	if (!e) {
		ret = -ENOMEM;
		goto put;
	}
	ret = fmt->init(e->table.data, start, end);
	if (ret)
		goto free;
	e->table.start = start;
	e->table.end = end;
	e->table.format = format;
	e->table.origin = UNWIND_USER_ORIGIN_PRCTL;
	e->table.fmt = fmt;
	e->table.id = atomic64_inc_return(&registry_next_id);
	refcount_set(&e->ref, 1);

	if (unwind_user_registry_lock(mm)) {
		ret = -EINTR;
		goto free;
	}
	ret = registry_add_locked(mm, e);
	unwind_user_registry_unlock(mm);
	if (ret)
		goto free;
	/* The entry keeps the module reference. */
	return 0;
free:
	kfree(e);
put:
	module_put(fmt->owner);
	return ret;
}

static const struct unwind_user_format *registry_format_locked(unsigned int format)
{
	return rcu_dereference_protected(registry_formats[format],
					 lockdep_is_held(&registry_formats_lock));
}

/**
 * unwind_user_register_format - install the handler of a table format
 * @fmt:	the handler, which must stay until unregistered
 *
 * Return: 0; -EINVAL for a format the core handles or does not know;
 * -EBUSY when the format has a handler.
 */
int unwind_user_register_format(const struct unwind_user_format *fmt)
{
	int ret = 0;

	if (!fmt->format || fmt->format > REGISTRY_MAX_FORMAT ||
	    fmt->format == UNWIND_USER_FORMAT_EH_FRAME_HDR ||
	    fmt->format == UNWIND_USER_FORMAT_EH_FRAME ||
	    !fmt->init || !fmt->find_frame)
		return -EINVAL;
	mutex_lock(&registry_formats_lock);
	if (registry_format_locked(fmt->format))
		ret = -EBUSY;
	else
		rcu_assign_pointer(registry_formats[fmt->format], fmt);
	mutex_unlock(&registry_formats_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(unwind_user_register_format);

/**
 * unwind_user_unregister_format - remove the handler of a table format
 * @fmt:	the handler given to unwind_user_register_format()
 *
 * For the handler's module exit: as every entry of the format holds a
 * reference on the module, none is left.  Waits until no registration or
 * lookup can still see @fmt.
 */
void unwind_user_unregister_format(const struct unwind_user_format *fmt)
{
	mutex_lock(&registry_formats_lock);
	if (registry_format_locked(fmt->format) == fmt)
		rcu_assign_pointer(registry_formats[fmt->format], NULL);
	mutex_unlock(&registry_formats_lock);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(unwind_user_unregister_format);

/**
 * unwind_user_remove - remove the registration of exactly [@start, @end)
 * @mm:		current's mm
 * @format:	the format it was registered with (UNWIND_USER_FORMAT_*)
 * @start:	start of the text it covers
 * @end:	its end (exclusive)
 *
 * Return: 0; -EINTR; -ENOENT when no registration of that format covers
 * exactly that range.
 */
int unwind_user_remove(struct mm_struct *mm, unsigned int format,
		       unsigned long start, unsigned long end)
{
	MA_STATE(mas, &mm->unwind_user_mt, start, start);
	struct unwind_user_entry *e;
	int ret = -ENOENT;

	if (unwind_user_registry_lock(mm))
		return -EINTR;
	e = mas_walk(&mas);
	if (entry_is_live(e) && e->table.start == start &&
	    e->table.end == end && e->table.format == format) {
		registry_erase(mm, &mas, e);
		ret = 0;
	}
	unwind_user_registry_unlock(mm);
	return ret;
}

static const char *const registry_origins[] = {
	[UNWIND_USER_ORIGIN_PRCTL]	= "prctl",
	[UNWIND_USER_ORIGIN_FILE]	= "discovered",
	[UNWIND_USER_ORIGIN_VDSO]	= "vdso",
};

/*
 * One line per entry and marker, for /proc/<pid>/unwind_tables: its range,
 * where it came from, its table.
 */
void unwind_user_mm_show(struct seq_file *m, struct mm_struct *mm)
{
	MA_STATE(mas, &mm->unwind_user_mt, 0, 0);
	struct unwind_user_cache_stats stats;
	const struct eh_frame_section *sec;
	struct unwind_user_cache *cache;
	struct eh_frame_index *index;
	struct unwind_user_entry *e;

	/* Under the tree's lock: RCU would race with a writer emptying it. */
	if (mutex_lock_killable(&mm->unwind_user_lock))
		return;
	mas_for_each(&mas, e, ULONG_MAX) {
		if (e == &registry_none) {
			seq_printf(m, "%lx-%lx %s none\n", mas.index,
				   mas.last + 1,
				   registry_origins[UNWIND_USER_ORIGIN_FILE]);
			continue;
		}
		if (!entry_is_live(e))
			continue;
		seq_printf(m, "%lx-%lx %s ", e->table.start, e->table.end,
			   registry_origins[e->table.origin]);
		if (entry_is_dead(e)) {
			seq_puts(m, "dropped\n");
			continue;
		}
		/* A live entry keeps the module of its format. */
		if (e->table.fmt) {
			seq_printf(m, "%s\n", e->table.fmt->name);
			continue;
		}
		sec = &e->table.eh_frame;
		if (sec->hdr_start)
			seq_printf(m, "eh_frame_hdr %lx %lu ", sec->hdr_start,
				   sec->hdr_end - sec->hdr_start);
		seq_printf(m, "eh_frame %lx %lu", sec->eh_frame_start,
			   sec->eh_frame_end - sec->eh_frame_start);
		/* Pairs with the release that published it. */
		index = smp_load_acquire(&e->index);
		if (!IS_ERR_OR_NULL(index))
			seq_printf(m, " index %zu", eh_frame_index_bytes(index));
		if (e->table.share.tag)
			seq_puts(m, " shared");
		seq_putc(m, '\n');
	}
	mutex_unlock(&mm->unwind_user_lock);

	unwind_user_walks_show(m, mm);
	/* The caller holds mm_users: exit_mmap(), which frees it, waits. */
	cache = READ_ONCE(mm->unwind_user_cache);
	if (IS_ERR(cache)) {
		seq_puts(m, "cache none\n");
	} else if (cache) {
		unwind_user_cache_get_stats(cache, &stats);
		seq_printf(m, "cache %lu rows %lu bytes %lu hits %lu misses\n",
			   stats.rows, stats.bytes, stats.hits, stats.misses);
	}
}

/**
 * unwind_user_mm_dup - give a child at fork what its parent has registered
 * @mm:		the child's new mm
 * @oldmm:	the parent's
 *
 * dup_mmap() calls this with both mmap locks held for writing, before it
 * copies the VMAs; text it does not copy (VM_DONTCOPY) is then dropped as if
 * unmapped.  The entries are shared, one reference each.
 *
 * Return: 0 or -ENOMEM, and then @mm holds nothing.
 */
int unwind_user_mm_dup(struct mm_struct *mm, struct mm_struct *oldmm)
{
	MA_STATE(mas, &mm->unwind_user_mt, 0, 0);
	struct unwind_user_entry *e;
	int ret = 0;

	mmap_assert_write_locked(oldmm);
	mmap_assert_write_locked(mm);

	/* No writer can come: every one needs the mmap lock. */
	if (mtree_empty(&oldmm->unwind_user_mt))
		return 0;
	mutex_lock(&oldmm->unwind_user_lock);
	/* The child's, which nobody else can see yet. */
	mutex_lock_nested(&mm->unwind_user_lock, SINGLE_DEPTH_NESTING);
	atomic_long_inc(&registry_ops);
	ret = __mt_dup(&oldmm->unwind_user_mt, &mm->unwind_user_mt,
		       GFP_KERNEL_ACCOUNT);
	if (!ret) {
		mas_for_each(&mas, e, ULONG_MAX) {
			if (entry_is_live(e))
				refcount_inc(&e->ref);
		}
		mm->unwind_user_nr = oldmm->unwind_user_nr;
	}
	mutex_unlock(&mm->unwind_user_lock);
	mutex_unlock(&oldmm->unwind_user_lock);
	return ret;
}

/*
 * The address space is being torn down (exit_mmap(), mmap lock held for
 * writing): nobody looks anything up in @mm any more.
 */
void unwind_user_mm_exit(struct mm_struct *mm)
{
	MA_STATE(mas, &mm->unwind_user_mt, 0, 0);
	struct unwind_user_entry *e;

	mmap_assert_write_locked(mm);
	mutex_lock(&mm->unwind_user_lock);
	if (!mtree_empty(&mm->unwind_user_mt))
		atomic_long_inc(&registry_ops);
	mas_for_each(&mas, e, ULONG_MAX) {
		if (entry_is_live(e))
			entry_put(e);
	}
	/*
	 * No lookup can run any more (mm_users is 0), so the nodes can go at
	 * once, as exit_mmap() frees the VMA tree's: out of RCU mode first.
	 */
	mt_clear_in_rcu(&mm->unwind_user_mt);
	__mt_destroy(&mm->unwind_user_mt);
	mm->unwind_user_nr = 0;
	mutex_unlock(&mm->unwind_user_lock);
	if (!IS_ERR(mm->unwind_user_cache))
		unwind_user_cache_free(mm->unwind_user_cache);
	mm->unwind_user_cache = NULL;
}

/**
 * unwind_user_mm_unmap - text in [@start, @end) goes away
 * @mm:		the mm, its mmap lock held for writing
 * @start:	start of the range
 * @end:	its end (exclusive)
 *
 * Drop every entry whose text intersects the range, so that an object
 * mapped there later never meets a stale table.
 */
void unwind_user_mm_unmap(struct mm_struct *mm, unsigned long start,
			  unsigned long end)
{
	/*
	 * What every munmap() of a process without tables costs.  No writer
	 * can change that meanwhile: each holds the mmap lock.
	 */
	mmap_assert_write_locked(mm);
	if (mtree_empty(&mm->unwind_user_mt) || start >= end)
		return;

	mutex_lock(&mm->unwind_user_lock);
	registry_erase_range(mm, start, end);
	mutex_unlock(&mm->unwind_user_lock);
}

/**
 * unwind_user_mm_protect - the protection of executable memory changed
 * @mm:		the mm, its mmap lock held for writing
 * @start:	start of the range
 * @end:	its end (exclusive)
 *
 * The markers over the range go: memory in which the kernel found no table
 * may hold other code now (a JIT's, an image a loader copied in), to be
 * looked at again when a walk meets it.  Entries stay: a registered JIT
 * table outlives the W^X flips of its code.
 */
void unwind_user_mm_protect(struct mm_struct *mm, unsigned long start,
			    unsigned long end)
{
	MA_STATE(mas, &mm->unwind_user_mt, start, start);
	struct unwind_user_entry *e;
	unsigned long addr = start;

	mmap_assert_write_locked(mm);
	if (mtree_empty(&mm->unwind_user_mt) || start >= end)
		return;

	mutex_lock(&mm->unwind_user_lock);
	/* Each pass moves past an item: they end. */
	while (addr < end) {
		mas_set(&mas, addr);
		e = mas_find(&mas, end - 1);
		if (!e)
			break;
		addr = mas.last + 1;
		if (e == &registry_none)
			registry_erase(mm, &mas, e);
		if (!addr)
			break;
	}
	mutex_unlock(&mm->unwind_user_lock);
}

/*
 * mremap() moved [old_start, old_end) to @new_start: an entry whose text and
 * tables all lie in there moves with them.  One that lies there only in part
 * is left for the unmap of the old range to drop: a shared object keeps its
 * text and its table in separate mappings, and its text moved alone no
 * longer matches the addresses its table holds (those frames are then
 * unwound with frame pointers).
 */
void unwind_user_mm_move(struct mm_struct *mm, unsigned long old_start,
			 unsigned long old_end, unsigned long new_start)
{
	MA_STATE(mas, &mm->unwind_user_mt, old_start, old_start);
	struct unwind_user_entry *e, *moved;
	unsigned long delta = new_start - old_start;
	const struct eh_frame_section *sec;
	unsigned long addr = old_start;

	mmap_assert_write_locked(mm);
	if (mtree_empty(&mm->unwind_user_mt) || old_start >= old_end)
		return;

	mutex_lock(&mm->unwind_user_lock);
	while (addr < old_end) {
		mas_set(&mas, addr);
		e = mas_find(&mas, old_end - 1);
		if (!e)
			break;
		addr = mas.last + 1;
		/*
		 * Handlers of other formats keep their description to
		 * themselves: such an entry goes with the old range.
		 */
		if (!entry_is_live(e) || e->table.fmt)
			continue;

		/* A table without a header has only .eh_frame to move. */
		sec = &e->table.eh_frame;
		if (e->table.start < old_start || e->table.end > old_end ||
		    (sec->hdr_start && (sec->hdr_start < old_start ||
					sec->hdr_end > old_end)) ||
		    sec->eh_frame_start < old_start ||
		    sec->eh_frame_end > old_end)
			continue;

		moved = kmemdup(e, sizeof(*e), GFP_KERNEL_ACCOUNT);
		if (!moved)
			continue;
		eh_frame_section_move(&moved->table.eh_frame, delta);
		moved->table.start += delta;
		moved->table.end += delta;
		/* The same bytes of the same file, elsewhere. */
		moved->table.share.base += delta;
		moved->table.share.delta += delta;
		moved->table.id = atomic64_inc_return(&registry_next_id);
		refcount_set(&moved->ref, 1);
		/* The old entry's index goes with it; the next lookup builds one. */
		moved->index = NULL;

		registry_erase(mm, &mas, e);
		if (registry_add_locked(mm, moved))
			kfree(moved);
	}
	mutex_unlock(&mm->unwind_user_lock);
}

/*
 * The entry @e, which @mm's tree holds at @pc, as @mm's tree alone will
 * hold it from now on: dead (see registry_drop()).  In place if no other
 * mm holds it (its references: @mm's tree and the caller's, and no fork
 * can add one while @mm's registry lock is held), else a copy of it takes
 * its place in @mm's tree.
 */
static int registry_kill_locked(struct mm_struct *mm,
				struct unwind_user_entry *e, unsigned long pc)
{
	MA_STATE(mas, &mm->unwind_user_mt, pc, pc);
	struct unwind_user_entry *dead;

	if (mas_walk(&mas) != e || entry_is_dead(e))
		return -ENOENT;
	if (refcount_read(&e->ref) == 2) {
		set_bit(ENTRY_DEAD, &e->flags);
		return 0;
	}
	dead = kmemdup(e, sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!dead)
		return -ENOMEM;
	refcount_set(&dead->ref, 1);
	dead->index = NULL;
	dead->flags = BIT(ENTRY_DEAD);
	if (dead->table.fmt)
		__module_get(dead->table.fmt->owner);
	/* Over exactly the old entry's range: no new node is needed. */
	if (WARN_ON_ONCE(mas_store_gfp(&mas, dead, GFP_KERNEL_ACCOUNT))) {
		entry_put(dead);
		return -ENOMEM;
	}
	atomic_long_inc(&registry_ops);
	entry_put(e);
	return 0;
}

/*
 * Drop the entry @e, which the caller holds a reference on, that a lookup
 * of @pc found corrupt (or, without a header, too large to index): one bad
 * object costs one failed lookup, not one per sample.  @mm's lookups skip
 * it from now on; it stays in @mm's tree, in place of a marker, until a
 * writer takes it out.  Only @mm's: a fork relative that shares the entry
 * may have the table's bytes as the file has them, where @mm wrote its own
 * copy (a child that scribbles on its copy of a library must not disable
 * the library's table in its parent).  The registry's lock is taken as
 * discovery takes it, never the mmap lock for writing; a walk that may not
 * take it (a task on its way out, a walk of known tables only) finds the
 * table corrupt again next time.  The frames @mm cached from it go too: a
 * new generation only ever makes rows stale.
 */
static void registry_drop(struct mm_struct *mm, struct unwind_user_entry *e,
			  unsigned long pc, unsigned int flags, int err)
{
	const struct unwind_user_table *seen = &e->table;
	int ret;

	if ((flags & UNWIND_USER_LOOKUP_KNOWN) || pagefault_disabled() ||
	    unwind_user_registry_lock(mm))
		return;
	ret = registry_kill_locked(mm, e, pc);
	if (!ret)
		registry_changed(mm);
	unwind_user_registry_unlock(mm);
	if (ret)
		return;
	/*
	 * Others may read the kernel log: say which process, but keep its
	 * layout to dynamic debug.
	 */
	pr_info_ratelimited("unwind_user: %s[%d]: dropped %s unwind table (%d)\n",
			    current->comm, task_pid_nr(current),
			    err == -EFBIG ? "an unindexable" : "a corrupt", err);
	pr_debug("unwind_user: %s[%d]: bad table for %#lx-%#lx\n",
		 current->comm, task_pid_nr(current), seen->start, seen->end);
}

/**
 * unwind_user_cache_flush - forget the frames cached for @mm
 * @mm:		the mm, not locked
 *
 * For benchmarks of the cold path (kernel/unwind/bench.c): a new generation,
 * as a change of the registry makes.
 *
 * Return: 0 or -EINTR.
 */
int unwind_user_cache_flush(struct mm_struct *mm)
{
	if (unwind_user_registry_lock(mm))
		return -EINTR;
	registry_changed(mm);
	unwind_user_registry_unlock(mm);
	return 0;
}

/**
 * unwind_user_forget_found - drop what the kernel found by itself in @mm
 * @mm:		the mm, not locked
 *
 * For benchmarks of discovery (kernel/unwind/bench.c): the entries the
 * kernel found and its markers go, as an unmap would take them, and so
 * does the rate limit's count, so that the next walk finds them again.
 *
 * Return: 0 or -EINTR.
 */
int unwind_user_forget_found(struct mm_struct *mm)
{
	MA_STATE(mas, &mm->unwind_user_mt, 0, 0);
	struct unwind_user_entry *e;
	unsigned long addr = 0;

	if (unwind_user_registry_lock(mm))
		return -EINTR;
	do {
		mas_set(&mas, addr);
		e = mas_find(&mas, ULONG_MAX);
		if (!e)
			break;
		addr = mas.last + 1;
		if (e == &registry_none ||
		    (entry_is_live(e) &&
		     e->table.origin != UNWIND_USER_ORIGIN_PRCTL))
			registry_erase(mm, &mas, e);
	} while (addr);
	atomic_long_set(&mm->unwind_user_probes, 0);
	unwind_user_registry_unlock(mm);
	return 0;
}

/*
 * Keep a frame found under generation @gen, and what its lookup cost the
 * walk, creating @mm's cache at its first frame: most mms are never unwound
 * and need none.
 */
static void registry_cache_frame(struct mm_struct *mm,
				 struct unwind_user_cache *cache,
				 unsigned long pc, unsigned int ws, u64 gen,
				 const struct unwind_user_frame *frame,
				 unsigned int cost)
{
	struct unwind_user_cache *old, *new;

	if (!cache) {
		/*
		 * Without memory, the mm goes without a cache rather than
		 * try again at every lookup.
		 */
		new = unwind_user_cache_alloc();
		cache = new ?: ERR_PTR(-ENOMEM);
		/* Another thread of @mm may have been quicker. */
		old = cmpxchg(&mm->unwind_user_cache, NULL, cache);
		if (old) {
			unwind_user_cache_free(new);
			cache = old;
		}
	}
	if (!IS_ERR(cache))
		unwind_user_cache_insert(cache, pc, ws, gen, frame, cost);
}

/* Note where a shared frame came from, for the walk's next lookup. */
static void registry_hint(struct unwind_user_table_hint *hint,
			  const struct unwind_user_table *t, u64 gen,
			  unsigned int ws)
{
	if (!hint)
		return;
	hint->gen = gen;
	hint->start = t->start;
	hint->end = t->end;
	hint->base = t->share.base;
	hint->tag = t->share.tag;
	hint->ws = ws;
}

/*
 * A frame from a cache costs the walk what its decode cost: the walk ends
 * where it would have without the cache.  A row that says no FDE covers
 * the pc answers -ENOENT, as the search did.
 */
static int registry_charge(const struct unwind_user_frame *frame,
			   unsigned int cost, unsigned int *budget)
{
	if (cost > *budget) {
		*budget = 0;
		return -EOPNOTSUPP;
	}
	*budget -= cost;
	if (unwind_user_frame_is_none(frame)) {
		atomic_long_inc(&registry_stats[REGISTRY_NONE_CACHED]);
		return -ENOENT;
	}
	return 0;
}

/* What reading a table to index it costs the walk: a unit per 64 bytes. */
#define REGISTRY_INDEX_READ_UNIT	64

/* Failures of an index build that say nothing about the table itself. */
static bool registry_index_transient(long err)
{
	return err == -ENOMEM || err == -EFAULT || err == -EINTR ||
	       err == -ENOSPC;
}

/*
 * What the indexes of @mm's tables may still take under
 * kernel.unwind_tables_index_max_kb.  An index shared with a fork relative
 * counts in each mm that has it.
 */
static size_t registry_index_room(struct mm_struct *mm)
{
	MA_STATE(mas, &mm->unwind_user_mt, 0, 0);
	size_t max = (size_t)READ_ONCE(unwind_tables_index_max_kb) * SZ_1K;
	struct eh_frame_index *index;
	struct unwind_user_entry *e;
	size_t used = 0;

	/*
	 * Under the lock of the tree, not RCU: an iteration may not meet a
	 * writer emptying it.  A build is rare, and no lock is held for it.
	 */
	if (mutex_lock_killable(&mm->unwind_user_lock))
		return 0;
	mas_for_each(&mas, e, ULONG_MAX) {
		if (!entry_is_live(e))
			continue;
		/* Pairs with the release that published it. */
		index = smp_load_acquire(&e->index);
		if (!IS_ERR_OR_NULL(index))
			used += eh_frame_index_bytes(index);
	}
	mutex_unlock(&mm->unwind_user_lock);
	return used < max ? max - used : 0;
}

/*
 * The index of @e, built by the first lookup that needs it and can pay for
 * reading the table, or NULL while there is none.  A failed build is kept:
 * one that may pass (no memory, a fault, a signal, the cap) is tried again
 * once a registry has lost an entry, any other never, and a table without a
 * header is then of no use: -EFBIG or -EINVAL in *@err drops it.  The walk
 * pays for what the build read, all it has left if need be: a walk builds
 * at most one index that its budget cannot pay for.
 */
static struct eh_frame_index *registry_index(struct mm_struct *mm,
					     struct unwind_user_entry *e,
					     const struct eh_frame_section *sec,
					     unsigned int *budget, bool build,
					     int *err)
{
	struct eh_frame_index *index, *old;
	u64 gen = atomic64_read(&registry_changes);
	size_t read;

	*err = 0;
	/* Pairs with the cmpxchg_release() below: the index is built. */
	old = smp_load_acquire(&e->index);
	if (old && (!IS_ERR(old) || !registry_index_transient(PTR_ERR(old)) ||
		    READ_ONCE(e->index_gen) == gen)) {
		index = old;
		goto out;
	}
	/* Not by a walk that may use only the tables known so far. */
	if (!build) {
		*err = -EAGAIN;
		return NULL;
	}
	/*
	 * Nor from a walk that may not fault: its reads would fail, and the
	 * failure would be kept for the entry's other users.
	 */
	if (!*budget || pagefault_disabled())
		return NULL;
	index = eh_frame_index_build(sec, registry_index_room(mm), &read);
	atomic_long_inc(&registry_index_builds);
	atomic64_add(read, &registry_index_read);
	*budget -= min_t(size_t, *budget,
			 DIV_ROUND_UP(read, REGISTRY_INDEX_READ_UNIT));
	if (IS_ERR(index))
		WRITE_ONCE(e->index_gen, gen);
	/* Another thread of the mm, or of a fork relative, may be quicker. */
	if (!try_cmpxchg_release(&e->index, &old, index)) {
		if (!IS_ERR(index))
			kvfree(index);
		index = old;
	}
out:
	if (!IS_ERR(index))
		return index;
	if (!sec->table && !registry_index_transient(PTR_ERR(index)))
		*err = PTR_ERR(index);
	return NULL;
}

/*
 * The CFI row of @pc: find and decode its FDE, run its instructions.  Not
 * inlined: the decoded FDE leaves the stack with it.
 */
static noinline_for_stack int
registry_eh_frame_row(const struct eh_frame_section *sec,
		      struct eh_frame_index *index,
		      const struct eh_frame_regs *regs, unsigned long pc,
		      struct cfi_row *row, unsigned int *budget, bool *fresh)
{
	struct eh_frame_fde fde;
	bool absolute = false;
	int ret;

	if (*fresh)
		ret = eh_frame_find_fde_fresh(sec, index, pc, &fde, &absolute);
	else
		ret = eh_frame_find_fde(sec, index, pc, &fde);
	/* Where the table is mapped says what is found: not shareable. */
	if (absolute)
		*fresh = false;
	if (ret)
		return ret;
	return cfi_find_row(sec, regs, &fde, pc, row, budget);
}

/*
 * Does a search of the table's own header, without the index, find no FDE
 * for @pc either, whatever the table's address?  For a "none" that may be
 * shared (see the caller).
 */
static noinline_for_stack bool
registry_eh_frame_none_fresh(const struct eh_frame_section *sec,
			     unsigned long pc)
{
	struct eh_frame_fde fde;
	bool absolute = false;

	return sec->table &&
	       eh_frame_find_fde_fresh(sec, NULL, pc, &fde, &absolute) == -ENOENT &&
	       !absolute;
}

/*
 * The frame rules of @pc in @e's table: its index (built first, if need
 * be and @build), the row, the rules, one after the other on the stack.
 * *@fresh: read the CIE too, not the entry's copy of it (for a frame that
 * may be shared); cleared when what is found may not be shared.  A table
 * with a header is searched in place while it has no index; one without
 * needs its index.
 */
static int registry_eh_frame_lookup(struct mm_struct *mm,
				    struct unwind_user_entry *e,
				    const struct eh_frame_section *sec,
				    const struct eh_frame_regs *regs,
				    unsigned long pc,
				    struct unwind_user_frame *frame,
				    unsigned int *budget, unsigned int *cost,
				    bool *fresh, bool build)
{
	struct eh_frame_index *index;
	struct cfi_row row;
	unsigned int before;
	int ret;

	*cost = 0;
	if (pc < sec->text_start || pc >= sec->text_end)
		return -ENOENT;
	index = registry_index(mm, e, sec, budget, build, &ret);
	if (ret == -EFBIG || ret == -EINVAL)
		return ret;
	if (!index && !sec->table)
		return ret ? ret : -EOPNOTSUPP;
	/* What a cached frame costs: the row, not the build that came first. */
	before = *budget;
	ret = registry_eh_frame_row(sec, index, regs, pc, &row, budget, fresh);
	*cost = before - *budget;
	if (ret)
		return ret;
	return cfi_row_frame(sec, regs, &row, pc, frame);
}

/**
 * unwind_user_registry_find_frame - the frame rules at a user pc
 * @pc:		the instruction to describe (for a caller's frame, an address
 *		inside its call instruction)
 * @ws:		the task's word size
 * @flags:	UNWIND_USER_LOOKUP_*
 * @budget:	what the walk's lookups may still spend; this one's is taken
 * @hint:	the walk's, or NULL: the table of its last shared frame
 * @frame:	the rules, on success
 *
 * Return: 0; -ENOENT when no registered table covers @pc; -ENXIO when no
 * executable mapping holds it either (as far as a look for its table saw);
 * -EAGAIN, with UNWIND_USER_LOOKUP_KNOWN, when finding out would take a
 * discovery probe or an index build;
 * -EFAULT when a read of the table faulted; -EOPNOTSUPP for a construct the reader does not
 * handle, or when the budget is spent; -EINVAL when the table is corrupt
 * (and then it is dropped).
 */
int unwind_user_registry_find_frame(unsigned long pc, unsigned int ws,
				    unsigned int flags, unsigned int *budget,
				    struct unwind_user_table_hint *hint,
				    struct unwind_user_frame *frame)
{
	MA_STATE(mas, &current->mm->unwind_user_mt, pc, pc);
	struct mm_struct *mm = current->mm;
	const struct eh_frame_regs *regs;
	struct unwind_user_cache *cache;
	struct unwind_user_table seen;
	struct unwind_user_entry *e;
	bool discovered = false, share, checked;
	unsigned int cost, seq;
	u64 gen;
	int ret;

	regs = registry_regs(ws);
	if (!regs)
		return -ENOENT;

	/*
	 * Read before the tree: a frame found from a tree older than @gen
	 * cannot be cached under it (see registry_changed()).
	 */
	gen = atomic64_read_acquire(&mm->unwind_user_gen);
	cache = READ_ONCE(mm->unwind_user_cache);
	if (!IS_ERR_OR_NULL(cache) &&
	    unwind_user_cache_lookup(cache, pc, ws, gen, frame, &cost))
		return registry_charge(frame, cost, budget);

	/*
	 * In the object of the walk's last shared frame: no entry has gone
	 * since (the generation), so that entry is still the one here.
	 */
	if (hint && hint->gen == gen && pc - hint->start < hint->end - hint->start &&
	    hint->ws == ws &&
	    unwind_user_shared_lookup(hint->tag, hint->base, pc, ws, frame, &cost))
		return registry_charge(frame, cost, budget);

again:
	rcu_read_lock();
	mas_set(&mas, pc);
	e = mas_walk(&mas);
	/* A frame of a file's table that some process decoded already. */
	if (entry_is_live(e) && !e->table.fmt && !entry_is_dead(e) &&
	    e->table.eh_frame.ptr_size == ws &&
	    unwind_user_shared_lookup(e->table.share.tag, e->table.share.base,
				      pc, ws, frame, &cost)) {
		registry_hint(hint, &e->table, gen, ws);
		rcu_read_unlock();
		return registry_charge(frame, cost, budget);
	}
	if (entry_is_live(e)) {
		seen = e->table;
		/*
		 * The entry stays while the lookup runs, for its index; so does
		 * the module of its format's handler.
		 */
		if (entry_is_dead(e) || !refcount_inc_not_zero(&e->ref)) {
			e = &registry_none;
		} else if (seen.fmt && !try_module_get(seen.fmt->owner)) {
			/* Not the last reference: the tree still has one. */
			refcount_dec(&e->ref);
			e = &registry_none;
		}
	}
	rcu_read_unlock();
	if (!entry_is_live(e)) {
		if (e == &registry_none) {
			atomic_long_inc(&registry_stats[REGISTRY_MARKER]);
			return -ENOENT;
		}
		/*
		 * Nothing covers @pc yet: look for the table of what is mapped
		 * there, once.  Not from a walk that may not fault (a task on
		 * its way out): discovery reads and takes locks; nor from one
		 * that may use only the tables known so far.
		 */
		if (flags & UNWIND_USER_LOOKUP_KNOWN)
			return -EAGAIN;
		if (discovered || pagefault_disabled())
			return -ENOENT;
		ret = unwind_user_discover(mm, pc, budget);
		if (!ret) {
			discovered = true;
			goto again;
		}
		/* No code is mapped there: no frame either. */
		return ret == -ENXIO ? ret : -ENOENT;
	}

	if (seen.fmt) {
		/* Other formats are registered by 64-bit tasks only. */
		ret = ws == sizeof(long) ? 0 : -ENOENT;
		if (!ret && *budget < UNWIND_USER_FORMAT_LOOKUP_COST)
			ret = -EOPNOTSUPP;
		if (!ret)
			ret = seen.fmt->find_frame(seen.data, pc, flags, frame,
						   budget);
		module_put(seen.fmt->owner);
		if (ret == -EINVAL)
			registry_drop(mm, e, pc, flags, ret);
		entry_put(e);
		return ret;
	}

	/* A table for the other word size says nothing about this task. */
	if (seen.eh_frame.ptr_size != ws) {
		entry_put(e);
		return -ENOENT;
	}
	if (!*budget) {
		entry_put(e);
		return -EOPNOTSUPP;
	}
	share = seen.share.tag && unwind_user_shared_begin(mm, &seq);
	ret = registry_eh_frame_lookup(mm, e, &seen.eh_frame, regs, pc, frame,
				       budget, &cost, &share,
				       !(flags & UNWIND_USER_LOOKUP_KNOWN));
	atomic_long_inc(&registry_stats[REGISTRY_SEARCHES]);
	if (ret == -EINVAL || ret == -EFBIG)
		registry_drop(mm, e, pc, flags, ret);
	/*
	 * No FDE covers @pc: a result, kept like a frame.  One that may be
	 * shared must not come from the index, which a fork relative may have
	 * built from a copy of the table it wrote: the search table is read
	 * again without it.
	 */
	if (ret == -ENOENT) {
		atomic_long_inc(&registry_stats[REGISTRY_SEARCHES_NONE]);
		unwind_user_frame_set_none(frame);
		if (share)
			share = registry_eh_frame_none_fresh(&seen.eh_frame,
							     pc);
	}
	/* Shared if it may be, else kept for this mm only. */
	if ((!ret || ret == -ENOENT) && share) {
		checked = test_bit(ENTRY_SHARE_CHECKED, &e->flags);
		share = unwind_user_shared_insert(mm, &seen.share,
						  &seen.eh_frame, seq, pc, ws,
						  frame, cost, &checked);
		if (checked)
			set_bit(ENTRY_SHARE_CHECKED, &e->flags);
	}
	entry_put(e);
	if (ret && ret != -ENOENT)
		return ret;
	if (share)
		registry_hint(hint, &seen, gen, ws);
	else
		registry_cache_frame(mm, cache, pc, ws, gen, frame, cost);
	return ret;
}

static const struct ctl_table unwind_user_sysctls[] = {
	{
		.procname	= "unwind_tables_max",
		.data		= &unwind_tables_max,
		.maxlen		= sizeof(unwind_tables_max),
		.mode		= 0644,
		.proc_handler	= proc_douintvec,
	},
	{
		.procname	= "unwind_tables_index_max_kb",
		.data		= &unwind_tables_index_max_kb,
		.maxlen		= sizeof(unwind_tables_index_max_kb),
		.mode		= 0644,
		.proc_handler	= proc_douintvec,
	},
};

/**
 * unwind_user_debugfs_dir - the directory unwind_user/ in debugfs
 *
 * Return: its dentry (or an error pointer, which debugfs takes as well).
 */
struct dentry *unwind_user_debugfs_dir(void)
{
	static struct dentry *dir;
	static DEFINE_MUTEX(lock);

	mutex_lock(&lock);
	if (!dir)
		dir = debugfs_create_dir("unwind_user", NULL);
	mutex_unlock(&lock);
	return dir;
}

static int registry_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "ops %ld\n", atomic_long_read(&registry_ops));
	seq_printf(m, "index_builds %ld\n", atomic_long_read(&registry_index_builds));
	seq_printf(m, "index_read %lld\n", atomic64_read(&registry_index_read));
	seq_printf(m, "searches %ld\n",
		   atomic_long_read(&registry_stats[REGISTRY_SEARCHES]));
	seq_printf(m, "searches_none %ld\n",
		   atomic_long_read(&registry_stats[REGISTRY_SEARCHES_NONE]));
	seq_printf(m, "none_cached %ld\n",
		   atomic_long_read(&registry_stats[REGISTRY_NONE_CACHED]));
	seq_printf(m, "marker %ld\n",
		   atomic_long_read(&registry_stats[REGISTRY_MARKER]));
	seq_printf(m, "module_requests %ld\n",
		   atomic_long_read(&registry_module_requests));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(registry_stats);

static int __init unwind_user_sysctl_init(void)
{
	register_sysctl_init("kernel", unwind_user_sysctls);
	debugfs_create_file("registry", 0444, unwind_user_debugfs_dir(), NULL,
			    &registry_stats_fops);
	return 0;
}
late_initcall(unwind_user_sysctl_init);
