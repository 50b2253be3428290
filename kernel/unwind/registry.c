// SPDX-License-Identifier: GPL-2.0
/*
 * The per-mm registry of user unwind tables.
 *
 * Each entry covers the text [start, end) of one mapped object and says
 * where that object's unwind table is (for now its .eh_frame_hdr and
 * .eh_frame).  Entries live in a maple tree in the mm, keyed by the text
 * range, stored inclusive as [start, end - 1].
 *
 * Writers (exec, prctl, fork, munmap, mm teardown, a lookup that finds a
 * corrupt table) use the tree's own lock.  mm->unwind_user_nr counts the
 * entries for the per-mm cap; it may run ahead of the tree for a moment
 * while an insert is in flight, never behind it.  The unwinder reads under RCU and copies
 * the entry out before it reads the table, because those reads can fault and
 * sleep.  An entry removed meanwhile leaves the unwinder holding only user
 * addresses: at worst a read faults and the walk ends early.
 */
#include <linux/file.h>
#include <linux/maple_tree.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/unwind_user.h>
#include <linux/unwind_user_registry.h>

#include "eh_frame.h"

enum unwind_user_entry_type {
	UNWIND_USER_ENTRY_EH_FRAME,
};

struct unwind_user_entry {
	unsigned long			start;	/* text covered: [start, end) */
	unsigned long			end;
	enum unwind_user_entry_type	type;
	union {
		struct eh_frame_section	eh_frame;
	};
	struct rcu_head			rcu;
};

/*
 * DWARF's CFA is the caller's stack pointer; an ABI may put it higher
 * (s390: past the register save area the caller allocates).
 */
#ifndef UNWIND_USER_DWARF_CFA_OFF
#define UNWIND_USER_DWARF_CFA_OFF	0
#endif

/* The DWARF numbers of the registers the generic frame rules know. */
static const struct eh_frame_regs eh_frame_regs = {
	.sp = UNWIND_USER_DWARF_SP,
	.fp = UNWIND_USER_DWARF_FP,
	.ra = UNWIND_USER_DWARF_RA,
	.cfa_off = UNWIND_USER_DWARF_CFA_OFF,
};

#ifdef UNWIND_USER_DWARF_SP_32
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
#ifdef UNWIND_USER_DWARF_SP_32
	if (ws == 4)
		return &eh_frame_regs_32;
#endif
	return NULL;
}

void unwind_user_mm_init(struct mm_struct *mm)
{
	mt_init_flags(&mm->unwind_user_mt, MT_FLAGS_USE_RCU);
	atomic_set(&mm->unwind_user_nr, 0);
}

/*
 * Insert @e, or free it.  An overlap with an existing entry is -EEXIST; an mm
 * that already holds @max entries gets -ENOSPC.
 */
static int registry_insert(struct mm_struct *mm, struct unwind_user_entry *e,
			   unsigned int max)
{
	int ret;

	if (atomic_inc_return(&mm->unwind_user_nr) > max) {
		ret = -ENOSPC;
	} else {
		ret = mtree_insert_range(&mm->unwind_user_mt, e->start,
					 e->end - 1, e, GFP_KERNEL_ACCOUNT);
	}
	if (ret) {
		atomic_dec(&mm->unwind_user_nr);
		kfree(e);
	}
	return ret;
}

/* Allocate an entry for @text_start..@text_end and read its header. */
static struct unwind_user_entry *
eh_frame_entry(unsigned long text_start, unsigned long text_end,
	       unsigned long hdr_start, unsigned long hdr_size,
	       unsigned long data_end, unsigned int ptr_size)
{
	struct unwind_user_entry *e;
	int ret;

	if (text_start >= text_end)
		return ERR_PTR(-EINVAL);

	e = kzalloc_obj(*e, GFP_KERNEL_ACCOUNT);
	if (!e)
		return ERR_PTR(-ENOMEM);

	ret = eh_frame_section_init(&e->eh_frame, hdr_start, hdr_size,
				    text_start, text_end, data_end, ptr_size);
	if (ret) {
		kfree(e);
		return ERR_PTR(ret);
	}
	e->type = UNWIND_USER_ENTRY_EH_FRAME;
	e->start = text_start;
	e->end = text_end;
	return e;
}

/**
 * unwind_user_add_eh_frame - register the .eh_frame of a mapped object
 * @mm:		the mm the object is mapped in (current's)
 * @text_start:	start of the object's text
 * @text_end:	end of the object's text (exclusive)
 * @hdr_start:	user address of its .eh_frame_hdr
 * @hdr_size:	size of the .eh_frame_hdr
 * @data_end:	end of the mapped data that holds .eh_frame (reads stop there)
 * @ptr_size:	the object's address size: 8 (ELF64) or 4 (ELF32)
 *
 * For exec and the vDSO, which map the object themselves; user space goes
 * through unwind_user_register_eh_frame().  Reads and checks the header now,
 * so that a bad one is refused here and not found at every sample.  Must run
 * in a context that may fault.
 *
 * Return: 0, -EEXIST when the range overlaps a registered one, -ENOMEM, or
 * the error eh_frame_section_init() found in the header.
 */
int unwind_user_add_eh_frame(struct mm_struct *mm,
			     unsigned long text_start, unsigned long text_end,
			     unsigned long hdr_start, unsigned long hdr_size,
			     unsigned long data_end, unsigned int ptr_size)
{
	struct unwind_user_entry *e;

	e = eh_frame_entry(text_start, text_end, hdr_start, hdr_size, data_end,
			   ptr_size);
	if (IS_ERR(e))
		return PTR_ERR(e);
	return registry_insert(mm, e, UINT_MAX);
}

/**
 * unwind_user_register_eh_frame - register an .eh_frame for user space
 * @mm:		current's mm
 * @text_start:	start of the text the table describes
 * @text_end:	its end (exclusive)
 * @hdr_start:	user address of the .eh_frame_hdr
 * @hdr_size:	its size
 * @data_start:	start of the readable mapping around the header
 * @data_end:	its end: .eh_frame must lie in [@data_start, @data_end)
 * @ptr_size:	the caller's address size
 * @max:	the most entries @mm may hold
 * @check:	called with the mmap lock held for reading, to check again
 *		that the text is still mapped: an unmap that ran before this
 *		insert could not have dropped it
 *
 * The header is read before the mmap lock is taken (the reads may fault);
 * the insert happens under it, so that a concurrent munmap() either removes
 * the text first, and @check fails, or waits and then drops the new entry.
 *
 * Return: 0; -EINTR; -ENOMEM; -ENOSPC when @mm holds @max entries; -EEXIST
 * on overlap; what @check returns; -ENOEXEC for a malformed header;
 * -EOPNOTSUPP for a header without a usable search table; -EFAULT when
 * reading it faulted.
 */
int unwind_user_register_eh_frame(struct mm_struct *mm,
				  unsigned long text_start,
				  unsigned long text_end,
				  unsigned long hdr_start, unsigned long hdr_size,
				  unsigned long data_start,
				  unsigned long data_end, unsigned int ptr_size,
				  unsigned int max,
				  int (*check)(struct mm_struct *mm,
					       unsigned long start,
					       unsigned long end))
{
	struct unwind_user_entry *e;
	int ret;

	e = eh_frame_entry(text_start, text_end, hdr_start, hdr_size, data_end,
			   ptr_size);
	if (IS_ERR(e)) {
		ret = PTR_ERR(e);
		return ret == -EINVAL ? -ENOEXEC : ret;
	}
	/* The reader bounds .eh_frame above; bound it below too. */
	if (e->eh_frame.eh_frame_start < data_start) {
		kfree(e);
		return -ENOEXEC;
	}

	if (mmap_read_lock_killable(mm)) {
		kfree(e);
		return -EINTR;
	}
	ret = check(mm, text_start, text_end);
	if (ret)
		kfree(e);
	else
		ret = registry_insert(mm, e, max);
	mmap_read_unlock(mm);
	return ret;
}

/**
 * unwind_user_unregister - remove the entry for exactly [@start, @end)
 * @mm:		current's mm
 * @start:	start of the text it covers
 * @end:	its end (exclusive)
 *
 * Return: 0, or -ENOENT when no entry covers exactly that range.
 */
int unwind_user_unregister(struct mm_struct *mm, unsigned long start,
			   unsigned long end)
{
	MA_STATE(mas, &mm->unwind_user_mt, start, start);
	struct unwind_user_entry *e;
	int ret = -ENOENT;

	mas_lock(&mas);
	e = mas_walk(&mas);
	if (e && e->start == start && e->end == end) {
		mas_erase(&mas);
		atomic_dec(&mm->unwind_user_nr);
		ret = 0;
	}
	mas_unlock(&mas);
	if (!ret)
		kfree_rcu(e, rcu);
	return ret;
}

/* One line per entry, for /proc/<pid>/unwind_tables. */
void unwind_user_mm_show(struct seq_file *m, struct mm_struct *mm)
{
	MA_STATE(mas, &mm->unwind_user_mt, 0, 0);
	struct unwind_user_entry *e;

	rcu_read_lock();
	mas_for_each(&mas, e, ULONG_MAX) {
		switch (e->type) {
		case UNWIND_USER_ENTRY_EH_FRAME:
			seq_printf(m, "%lx-%lx eh_frame_hdr %lx %lu\n",
				   e->start, e->end, e->eh_frame.hdr_start,
				   e->eh_frame.hdr_end - e->eh_frame.hdr_start);
			break;
		}
	}
	rcu_read_unlock();
}

/*
 * Copy @oldmm's registry into the new @mm at fork.  On failure the entries
 * copied so far stay in @mm and go with it in unwind_user_mm_free().
 */
int unwind_user_mm_dup(struct mm_struct *mm, struct mm_struct *oldmm)
{
	struct unwind_user_entry *e, *copy, tmp;
	unsigned long index = 0;
	int ret;

	/*
	 * One entry at a time: copy it out under RCU, then allocate, which
	 * may sleep.  mt_find() moves @index past each entry, so this ends.
	 */
	for (;;) {
		rcu_read_lock();
		e = mt_find(&oldmm->unwind_user_mt, &index, ULONG_MAX);
		if (e)
			tmp = *e;
		rcu_read_unlock();
		if (!e)
			return 0;

		copy = kmemdup(&tmp, sizeof(tmp), GFP_KERNEL_ACCOUNT);
		if (!copy)
			return -ENOMEM;
		ret = registry_insert(mm, copy, UINT_MAX);
		if (ret)
			return ret;
		if (!index)	/* the entry ended at ULONG_MAX */
			return 0;
	}
}

/* The mm is gone: nobody can look anything up any more. */
void unwind_user_mm_free(struct mm_struct *mm)
{
	MA_STATE(mas, &mm->unwind_user_mt, 0, 0);
	struct unwind_user_entry *e;

	mas_lock(&mas);
	mas_for_each(&mas, e, ULONG_MAX)
		kfree(e);
	mas_unlock(&mas);
	mtree_destroy(&mm->unwind_user_mt);
}

/*
 * Text in [start, end) was unmapped: drop every entry that covered any of
 * it, so that an object mapped there later never meets a stale table.
 */
void unwind_user_mm_unmap(struct mm_struct *mm, unsigned long start,
			  unsigned long end)
{
	MA_STATE(mas, &mm->unwind_user_mt, start, start);
	struct unwind_user_entry *e;

	if (mtree_empty(&mm->unwind_user_mt) || start >= end)
		return;

	mas_lock(&mas);
	mas_for_each(&mas, e, end - 1) {
		mas_erase(&mas);
		atomic_dec(&mm->unwind_user_nr);
		kfree_rcu(e, rcu);
	}
	mas_unlock(&mas);
}

/* Name the object of a corrupt table, once per object (it is dropped). */
static void registry_report(struct mm_struct *mm,
			    const struct unwind_user_entry *e, int err)
{
	struct vm_area_struct *vma;
	struct file *file = NULL;

	if (mmap_read_trylock(mm)) {
		vma = vma_lookup(mm, e->start);
		if (vma && vma->vm_file)
			file = get_file(vma->vm_file);
		mmap_read_unlock(mm);
	}
	if (file) {
		pr_info_ratelimited("unwind_user: %s[%d]: bad unwind table for %pD (%#lx-%#lx): %d, dropped\n",
				    current->comm, task_pid_nr(current), file,
				    e->start, e->end, err);
		fput(file);
	} else {
		pr_info_ratelimited("unwind_user: %s[%d]: bad unwind table for %#lx-%#lx: %d, dropped\n",
				    current->comm, task_pid_nr(current),
				    e->start, e->end, err);
	}
}

/*
 * Drop the entry a lookup found corrupt, unless someone else already
 * removed it: one bad object costs one failed lookup, not one per sample.
 */
static void registry_drop(struct mm_struct *mm, struct unwind_user_entry *e,
			  const struct unwind_user_entry *seen, int err)
{
	MA_STATE(mas, &mm->unwind_user_mt, seen->start, seen->start);
	bool dropped = false;

	mas_lock(&mas);
	if (mas_walk(&mas) == e) {
		mas_erase(&mas);
		atomic_dec(&mm->unwind_user_nr);
		dropped = true;
	}
	mas_unlock(&mas);
	if (dropped) {
		kfree_rcu(e, rcu);
		registry_report(mm, seen, err);
	}
}

/**
 * unwind_user_registry_find_frame - the frame rules at a user pc
 * @pc:		the instruction to describe (for a caller's frame, an address
 *		inside its call instruction)
 * @ws:		the task's word size
 * @frame:	the rules, on success
 *
 * Return: 0; -ENOENT when no registered table covers @pc; -EFAULT when a
 * read of the table faulted; -EOPNOTSUPP for a construct the reader does not
 * handle; -EINVAL when the table is corrupt (and then it is dropped).
 */
int unwind_user_registry_find_frame(unsigned long pc, unsigned int ws,
				    struct unwind_user_frame *frame)
{
	MA_STATE(mas, &current->mm->unwind_user_mt, pc, pc);
	struct mm_struct *mm = current->mm;
	const struct eh_frame_regs *regs;
	struct unwind_user_entry *e, seen;
	int ret;

	regs = registry_regs(ws);
	if (!regs)
		return -ENOENT;

	rcu_read_lock();
	e = mas_walk(&mas);
	if (e)
		seen = *e;
	rcu_read_unlock();
	/* A table for the other word size says nothing about this task. */
	if (!e || seen.eh_frame.ptr_size != ws)
		return -ENOENT;

	/* The seam for a cache of decoded CIEs and rows (keyed by entry). */
	ret = eh_frame_find_frame(&seen.eh_frame, regs, pc, frame);
	if (ret == -EINVAL)
		registry_drop(mm, e, &seen, ret);
	return ret;
}
