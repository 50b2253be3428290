/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-mm registry of user text ranges whose unwind tables the kernel
 * knows: which object's .eh_frame covers an instruction pointer.
 */
#ifndef _LINUX_UNWIND_USER_REGISTRY_H
#define _LINUX_UNWIND_USER_REGISTRY_H

#include <linux/errno.h>
#include <linux/maple_tree.h>
#include <linux/mm_types.h>

struct pid;
struct pid_namespace;
struct seq_file;
struct task_struct;
struct unwind_user_frame;

#ifdef CONFIG_UNWIND_USER_EH_FRAME

/* Does the unwinder have anything to look up in @mm? */
static inline bool unwind_user_mm_has_tables(struct mm_struct *mm)
{
	return !mtree_empty(&mm->unwind_user_mt);
}

void unwind_user_mm_init(struct mm_struct *mm);
int unwind_user_mm_dup(struct mm_struct *mm, struct mm_struct *oldmm);
void unwind_user_mm_free(struct mm_struct *mm);
void unwind_user_mm_unmap(struct mm_struct *mm, unsigned long start,
			  unsigned long end);

int unwind_user_add_eh_frame(struct mm_struct *mm,
			     unsigned long text_start, unsigned long text_end,
			     unsigned long hdr_start, unsigned long hdr_size,
			     unsigned long data_end, unsigned int ptr_size);

int unwind_user_register_eh_frame(struct mm_struct *mm,
				  unsigned long text_start,
				  unsigned long text_end,
				  unsigned long hdr_start, unsigned long hdr_size,
				  unsigned long data_start,
				  unsigned long data_end, unsigned int ptr_size,
				  unsigned int max,
				  int (*check)(struct mm_struct *mm,
					       unsigned long start,
					       unsigned long end));
int unwind_user_unregister(struct mm_struct *mm, unsigned long start,
			   unsigned long end);
void unwind_user_mm_show(struct seq_file *m, struct mm_struct *mm);

int unwind_user_table_prctl(int option, const void __user *uarg,
			    unsigned long usize);
int proc_pid_unwind_tables(struct seq_file *m, struct pid_namespace *ns,
			   struct pid *pid, struct task_struct *task);

int unwind_user_registry_find_frame(unsigned long pc, unsigned int ws,
				    struct unwind_user_frame *frame);

#else /* !CONFIG_UNWIND_USER_EH_FRAME */

static inline bool unwind_user_mm_has_tables(struct mm_struct *mm)
{
	return false;
}

static inline int unwind_user_registry_find_frame(unsigned long pc,
						  unsigned int ws,
						  struct unwind_user_frame *frame)
{
	return -ENOENT;
}

static inline int unwind_user_table_prctl(int option, const void __user *uarg,
					  unsigned long usize)
{
	return -EINVAL;
}

static inline void unwind_user_mm_init(struct mm_struct *mm) {}
static inline int unwind_user_mm_dup(struct mm_struct *mm,
				     struct mm_struct *oldmm)
{
	return 0;
}

static inline void unwind_user_mm_free(struct mm_struct *mm) {}
static inline void unwind_user_mm_unmap(struct mm_struct *mm,
					unsigned long start,
					unsigned long end) {}

static inline int unwind_user_add_eh_frame(struct mm_struct *mm,
					   unsigned long text_start,
					   unsigned long text_end,
					   unsigned long hdr_start,
					   unsigned long hdr_size,
					   unsigned long data_end,
					   unsigned int ptr_size)
{
	return -EOPNOTSUPP;
}

#endif /* CONFIG_UNWIND_USER_EH_FRAME */

#endif /* _LINUX_UNWIND_USER_REGISTRY_H */
