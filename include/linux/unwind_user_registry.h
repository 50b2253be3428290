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

struct seq_file;
struct unwind_user_frame;

/*
 * An object's text and where its .eh_frame_hdr and .eh_frame are mapped.
 * Ends are exclusive.  [eh_frame_start, eh_frame_end) is the memory that
 * holds .eh_frame: the section, or for an ELF object the PT_LOAD segment
 * that holds PT_GNU_EH_FRAME; no read of the table leaves it.
 */
struct unwind_user_eh_frame {
	unsigned long	text_start;
	unsigned long	text_end;
	unsigned long	eh_frame_start;
	unsigned long	eh_frame_end;
	unsigned long	hdr_start;
	unsigned long	hdr_end;
	unsigned int	ptr_size;	/* 8, or 4 for a 32-bit object */
};

/*
 * What the table lookups of one walk may spend together, in CFI instructions
 * run.  A lookup runs at most 16384 of them and a walk has up to 510 frames;
 * typical walks spend a few thousand.  Two lookups at the bound, no more.
 */
#define UNWIND_USER_TABLE_BUDGET	32768

#ifdef CONFIG_UNWIND_USER_EH_FRAME

/* Does the unwinder have anything to look up in @mm? */
static inline bool unwind_user_mm_has_tables(struct mm_struct *mm)
{
	return !mtree_empty(&mm->unwind_user_mt);
}

void unwind_user_mm_init(struct mm_struct *mm);
int unwind_user_mm_dup(struct mm_struct *mm, struct mm_struct *oldmm);
void unwind_user_mm_exit(struct mm_struct *mm);
void unwind_user_mm_unmap(struct mm_struct *mm, unsigned long start,
			  unsigned long end);
void unwind_user_mm_move(struct mm_struct *mm, unsigned long old_start,
			 unsigned long old_end, unsigned long new_start);
void unwind_user_mm_show(struct seq_file *m, struct mm_struct *mm);

int unwind_user_add_eh_frame(struct mm_struct *mm,
			     const struct unwind_user_eh_frame *desc);
int unwind_user_add_eh_frame_locked(struct mm_struct *mm,
				    const struct unwind_user_eh_frame *desc,
				    const void *hdr_data);
int unwind_user_remove(struct mm_struct *mm, unsigned int format,
		       unsigned long start, unsigned long end);

int unwind_user_eh_frame_prctl(int option, const void __user *uarg,
			       unsigned long usize);

int unwind_user_registry_find_frame(unsigned long pc, unsigned int ws,
				    unsigned int *budget,
				    struct unwind_user_frame *frame);
int unwind_user_cache_flush(struct mm_struct *mm);

#else /* !CONFIG_UNWIND_USER_EH_FRAME */

static inline bool unwind_user_mm_has_tables(struct mm_struct *mm)
{
	return false;
}

static inline int unwind_user_registry_find_frame(unsigned long pc,
						  unsigned int ws,
						  unsigned int *budget,
						  struct unwind_user_frame *frame)
{
	return -ENOENT;
}

static inline int unwind_user_eh_frame_prctl(int option,
					     const void __user *uarg,
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

static inline void unwind_user_mm_exit(struct mm_struct *mm) {}
static inline void unwind_user_mm_unmap(struct mm_struct *mm,
					unsigned long start,
					unsigned long end) {}
static inline void unwind_user_mm_move(struct mm_struct *mm,
				       unsigned long old_start,
				       unsigned long old_end,
				       unsigned long new_start) {}

static inline int unwind_user_add_eh_frame(struct mm_struct *mm,
					   const struct unwind_user_eh_frame *desc)
{
	return -EOPNOTSUPP;
}

static inline int
unwind_user_add_eh_frame_locked(struct mm_struct *mm,
				const struct unwind_user_eh_frame *desc,
				const void *hdr_data)
{
	return -EOPNOTSUPP;
}

#endif /* CONFIG_UNWIND_USER_EH_FRAME */

#endif /* _LINUX_UNWIND_USER_REGISTRY_H */
