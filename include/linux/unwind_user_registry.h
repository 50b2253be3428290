/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-mm registry of user text ranges whose unwind tables the kernel
 * knows: which object's .eh_frame covers an instruction pointer.
 */
#ifndef _LINUX_UNWIND_USER_REGISTRY_H
#define _LINUX_UNWIND_USER_REGISTRY_H

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/maple_tree.h>
#include <linux/mm_types.h>

struct module;
struct seq_file;
struct unwind_user_frame;
struct unwind_user_table_hint;
struct vm_area_struct;

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
 * The formats of registered tables.  User space names them by the same
 * values, PR_EH_FRAME_FORMAT_*.
 */
#define UNWIND_USER_FORMAT_EH_FRAME_HDR	1	/* .eh_frame_hdr + .eh_frame */
#define UNWIND_USER_FORMAT_EH_FRAME	2	/* .eh_frame, indexed here */
#define UNWIND_USER_FORMAT_PE		3	/* a PE32+ image */

/*
 * What the table lookups of one walk may spend together, in CFI instructions
 * run.  A lookup runs at most 16384 of them and a walk has up to 510 frames;
 * typical walks spend a few thousand.  Two lookups at the bound, no more.
 */
#define UNWIND_USER_TABLE_BUDGET	32768

/*
 * What a lookup pays of that budget for each read of user memory, in a
 * table of another format (struct unwind_user_format), whose handler
 * charges it: a typical PE lookup makes a handful of reads.
 */
#define UNWIND_USER_READ_COST		4

/* The least a lookup of another format costs, what the walk checks first. */
#define UNWIND_USER_FORMAT_LOOKUP_COST	64

/* unwind_user_registry_find_frame() @flags */
/* The pc is that of the topmost frame: pt_regs hold its registers. */
#define UNWIND_USER_LOOKUP_TOPMOST	BIT(0)
/*
 * The thread is at the pc (topmost, or interrupted there): it is not a
 * return address moved back into its call.
 */
#define UNWIND_USER_LOOKUP_EXACT	BIT(1)
/*
 * Use only the tables known so far: -EAGAIN where a discovery probe or an
 * index build would be needed (each may read a whole file's headers or
 * table), not a lookup in a table already found and indexed.
 */
#define UNWIND_USER_LOOKUP_KNOWN	BIT(2)

/*
 * What a walk may use, as the share of its task's CPU that walks took so
 * far allows (kernel/unwind/throttle.c).
 */
enum unwind_user_walk {
	UNWIND_USER_WALK_TABLES,	/* unwind tables, then frame pointers */
	/*
	 * The same with the tables found and indexed so far: the walk ends
	 * where a lookup would have to probe a mapping or build an index.
	 */
	UNWIND_USER_WALK_KNOWN,
	UNWIND_USER_WALK_IP,		/* the task's ip alone */
};

/* What an entry of another format keeps: the handler's own description. */
#define UNWIND_USER_FORMAT_DATA_SIZE	32

/**
 * struct unwind_user_format - a table format handled outside the core
 * @owner:	the module of the handler; each entry of the format holds a
 *		reference, each lookup another while it runs
 * @format:	its UNWIND_USER_FORMAT_* value
 * @name:	its name in /proc/<pid>/unwind_tables
 * @init:	read and check the table of the object mapped at [start, end)
 *		from user memory (may fault and sleep) and describe it in
 *		@data, UNWIND_USER_FORMAT_DATA_SIZE bytes; 0 or a negative errno
 * @discover:	the same for an object the kernel found by itself, whose
 *		headers are at @start and hold @pc, the headers of which say
 *		where it ends (*@end); nothing at or beyond @limit is read.
 *		NULL if the kernel is not to look for objects of the format
 * @find_frame:	the rules of the frame at @pc (UNWIND_USER_LOOKUP_* @flags)
 *		from @data, taking UNWIND_USER_READ_COST from *@budget for
 *		each read of user memory and stopping with -EOPNOTSUPP when
 *		it is spent; errnos as unwind_user_registry_find_frame()
 */
struct unwind_user_format {
	struct module	*owner;
	unsigned int	format;
	const char	*name;
	int		(*init)(void *data, unsigned long start,
				unsigned long end);
	int		(*discover)(void *data, unsigned long start,
				    unsigned long limit, unsigned long pc,
				    unsigned long *end);
	int		(*find_frame)(const void *data, unsigned long pc,
				      unsigned int flags,
				      struct unwind_user_frame *frame,
				      unsigned int *budget);
};

/* For the handler's module (which depends on the registry): see registry.c */
int unwind_user_register_format(const struct unwind_user_format *fmt);
void unwind_user_unregister_format(const struct unwind_user_format *fmt);

#ifdef CONFIG_UNWIND_USER_EH_FRAME

bool unwind_user_mm_has_tables(struct mm_struct *mm);
void unwind_user_mm_init(struct mm_struct *mm);
int unwind_user_mm_dup(struct mm_struct *mm, struct mm_struct *oldmm);
void unwind_user_mm_exit(struct mm_struct *mm);
void unwind_user_mm_unmap(struct mm_struct *mm, unsigned long start,
			  unsigned long end);
void unwind_user_mm_protect(struct mm_struct *mm, unsigned long start,
			    unsigned long end);
void unwind_user_mm_move(struct mm_struct *mm, unsigned long old_start,
			 unsigned long old_end, unsigned long new_start);
void unwind_user_mm_show(struct seq_file *m, struct mm_struct *mm);

int unwind_user_add_eh_frame(struct mm_struct *mm,
			     const struct unwind_user_eh_frame *desc);
int unwind_user_remove(struct mm_struct *mm, unsigned int format,
		       unsigned long start, unsigned long end);
int unwind_user_add_table(struct mm_struct *mm, unsigned int format,
			  unsigned long start, unsigned long end);

int unwind_user_eh_frame_prctl(int option, const void __user *uarg,
			       unsigned long usize);

/*
 * The kernel's copy of the vDSO image that @vma maps, its size and where
 * it starts in user memory; false if @vma maps none.  Architecture code;
 * without it the vDSO is left to frame pointers.
 */
bool unwind_user_vdso_image(const struct vm_area_struct *vma,
			    const void **data, unsigned long *size,
			    unsigned long *start);

int unwind_user_registry_find_frame(unsigned long pc, unsigned int ws,
				    unsigned int flags, unsigned int *budget,
				    struct unwind_user_table_hint *hint,
				    struct unwind_user_frame *frame);
int unwind_user_cache_flush(struct mm_struct *mm);

/* The share of a task's CPU its walks take: see kernel/unwind/throttle.c */
enum unwind_user_walk unwind_user_walk_begin(u64 *start);
void unwind_user_walk_end(u64 start, enum unwind_user_walk walk);

#else /* !CONFIG_UNWIND_USER_EH_FRAME */

static inline bool unwind_user_mm_has_tables(struct mm_struct *mm)
{
	return false;
}

static inline int unwind_user_registry_find_frame(unsigned long pc,
						  unsigned int ws,
						  unsigned int flags,
						  unsigned int *budget,
						  struct unwind_user_table_hint *hint,
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

static inline enum unwind_user_walk unwind_user_walk_begin(u64 *start)
{
	return UNWIND_USER_WALK_TABLES;
}

static inline void unwind_user_walk_end(u64 start, enum unwind_user_walk walk) {}

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
static inline void unwind_user_mm_protect(struct mm_struct *mm,
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

#endif /* CONFIG_UNWIND_USER_EH_FRAME */

#endif /* _LINUX_UNWIND_USER_REGISTRY_H */
