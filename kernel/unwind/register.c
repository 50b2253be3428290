// SPDX-License-Identifier: GPL-2.0
/*
 * User space registration of unwind tables: prctl(PR_REGISTER_UNWIND_TABLE)
 * and PR_UNREGISTER_UNWIND_TABLE, the per-mm cap on registrations
 * (kernel.unwind_tables_max) and /proc/<pid>/unwind_tables.
 *
 * Exec registers the executable, its interpreter and the vDSO by itself; the
 * dynamic loader uses this interface for the objects it maps.  Everything in
 * the argument is untrusted: the ranges must be mapped with the right
 * permissions, and the header is read and checked here, once, so that a bad
 * one is refused with an errno instead of failing at every sample.  See
 * Documentation/userspace-api/unwind_tables.rst.
 */
#include <linux/compat.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/prctl.h>
#include <linux/ptrace.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/sysctl.h>
#include <linux/uaccess.h>
#include <linux/unwind_user_registry.h>

/* Enough for the largest programs seen (a few hundred objects) and Wine. */
static unsigned int unwind_tables_max = 4096;

/*
 * The most VMAs the data holding .eh_frame_hdr and .eh_frame may span: one
 * read-only segment, maybe split by mprotect().
 */
#define DATA_MAX_VMAS	16

/*
 * Is [start, end) mapped without holes, with all of @flags?  -EFAULT for a
 * hole, -EACCES for a mapping that lacks a flag.  Takes no lock.
 */
static int range_check(struct mm_struct *mm, unsigned long start,
		       unsigned long end, vm_flags_t flags)
{
	VMA_ITERATOR(vmi, mm, start);
	struct vm_area_struct *vma;
	unsigned long addr = start;

	for_each_vma_range(vmi, vma, end) {
		if (vma->vm_start > addr)
			return -EFAULT;
		if ((vma->vm_flags & flags) != flags)
			return -EACCES;
		addr = vma->vm_end;
		if (addr >= end)
			return 0;
	}
	return -EFAULT;
}

static int text_check(struct mm_struct *mm, unsigned long start,
		      unsigned long end)
{
	return range_check(mm, start, end, VM_EXEC);
}

/* Do @prev and @next, both readable, follow each other in one object? */
static bool data_continues(const struct vm_area_struct *prev,
			   const struct vm_area_struct *next)
{
	return prev->vm_end == next->vm_start &&
	       prev->vm_file == next->vm_file &&
	       (prev->vm_flags & next->vm_flags & VM_READ);
}

/*
 * The readable mapping that holds @addr, as [*start, *end): .eh_frame must
 * lie in there, and reads of it stop at the end.  Adjacent mappings of the
 * same file (or of anonymous memory) continue it, as after an mprotect()
 * that split a segment.
 */
static void data_range(struct mm_struct *mm, unsigned long addr,
		       unsigned long *start, unsigned long *end)
{
	struct vm_area_struct *vma, *first, *last, *other;
	int i;

	vma = vma_lookup(mm, addr);
	if (!vma) {
		*start = *end = addr;
		return;
	}
	first = vma;
	last = vma;
	for (i = 1; i < DATA_MAX_VMAS; i++) {
		find_vma_prev(mm, first->vm_start, &other);
		if (!other || !data_continues(other, first))
			break;
		first = other;
	}
	for (i = 1; i < DATA_MAX_VMAS; i++) {
		other = find_vma(mm, last->vm_end);
		if (!other || !data_continues(last, other))
			break;
		last = other;
	}
	*start = first->vm_start;
	*end = last->vm_end;
}

/* Copy in and check what both operations share. */
static int table_from_user(struct prctl_unwind_table *t,
			   const void __user *uarg, unsigned long usize)
{
	int ret;

	if (usize < PRCTL_UNWIND_TABLE_SIZE_VER0)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	ret = copy_struct_from_user(t, sizeof(*t), uarg, usize);
	if (ret)
		return ret;

	if (t->format != PR_UNWIND_TABLE_EH_FRAME_HDR || t->flags)
		return -EINVAL;
	if (t->text_start >= t->text_end)
		return -EINVAL;
	/* Nothing is mapped beyond the task's address space. */
	if (t->text_end > TASK_SIZE)
		return -EFAULT;
	return 0;
}

static int table_register(struct mm_struct *mm,
			  const struct prctl_unwind_table *t)
{
	u64 hdr_end = t->table_start + t->table_size;
	unsigned long start = 0, end = 0;
	int ret;

	if (!t->table_size || hdr_end < t->table_start)
		return -EINVAL;
	if (hdr_end > TASK_SIZE)
		return -EFAULT;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	ret = text_check(mm, t->text_start, t->text_end);
	if (!ret)
		ret = range_check(mm, t->table_start, hdr_end, VM_READ);
	if (!ret)
		data_range(mm, t->table_start, &start, &end);
	mmap_read_unlock(mm);
	if (ret)
		return ret;

	return unwind_user_register_eh_frame(mm, t->text_start, t->text_end,
					     t->table_start, t->table_size,
					     start, end,
					     in_compat_syscall() ? 4 : sizeof(long),
					     READ_ONCE(unwind_tables_max),
					     text_check);
}

/**
 * unwind_user_table_prctl - PR_REGISTER_UNWIND_TABLE, PR_UNREGISTER_UNWIND_TABLE
 * @option:	which of the two
 * @uarg:	the user's struct prctl_unwind_table
 * @usize:	its size as the user knows it
 *
 * Return: 0 or a negative errno, as listed in
 * Documentation/userspace-api/unwind_tables.rst.  A failed call changes
 * nothing.
 */
int unwind_user_table_prctl(int option, const void __user *uarg,
			    unsigned long usize)
{
	struct mm_struct *mm = current->mm;
	struct prctl_unwind_table t;
	int ret;

	ret = table_from_user(&t, uarg, usize);
	if (ret)
		return ret;

	if (option == PR_REGISTER_UNWIND_TABLE)
		return table_register(mm, &t);

	/* The text range names the registration; the rest must be empty. */
	if (t.table_start || t.table_size)
		return -EINVAL;
	return unwind_user_unregister(mm, t.text_start, t.text_end);
}

/* /proc/<pid>/unwind_tables: what the unwinder knows about the task's text. */
int proc_pid_unwind_tables(struct seq_file *m, struct pid_namespace *ns,
			   struct pid *pid, struct task_struct *task)
{
	struct mm_struct *mm;

	mm = mm_access(task, PTRACE_MODE_READ_FSCREDS);
	if (IS_ERR(mm))
		return PTR_ERR(mm);
	if (!mm)
		return 0;
	unwind_user_mm_show(m, mm);
	mmput(mm);
	return 0;
}

static const struct ctl_table unwind_user_sysctls[] = {
	{
		.procname	= "unwind_tables_max",
		.data		= &unwind_tables_max,
		.maxlen		= sizeof(unwind_tables_max),
		.mode		= 0644,
		.proc_handler	= proc_douintvec,
	},
};

static int __init unwind_user_sysctl_init(void)
{
	register_sysctl_init("kernel", unwind_user_sysctls);
	return 0;
}
late_initcall(unwind_user_sysctl_init);
