/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoded frames shared by the processes that map the same file
 * (shared.c).
 */
#ifndef _KERNEL_UNWIND_SHARED_H
#define _KERNEL_UNWIND_SHARED_H

#include <linux/types.h>

struct eh_frame_section;
struct file;
struct mm_struct;
struct unwind_user_frame;

/* Rows of the shared cache, a power of two: see shared.c. */
#define UNWIND_USER_SHARED_BITS	13

/* What an entry of a file's table keeps to share its decoded frames. */
struct unwind_user_share {
	/* Names the file's contents and the table in it; 0: not shared */
	u64			tag;
	/* The table's address: rows are kept by pc - base */
	unsigned long		base;
	/* Address - file offset, all over the table */
	unsigned long		delta;
	/* The file, as it was before its table was read */
	u64			ino;
	u64			version;	/* its i_version */
	u32			dev;
	u32			generation;
	bool			tracked;	/* the kernel counts its changes */
};

void unwind_user_share_id(struct unwind_user_share *s,
			  const struct file *file);
void unwind_user_share_set(struct unwind_user_share *s,
			   const struct eh_frame_section *sec,
			   unsigned long delta);
bool unwind_user_shared_enabled(void);
bool unwind_user_shared_lookup(u64 tag, unsigned long base, unsigned long pc,
			       unsigned int ws, struct unwind_user_frame *frame,
			       unsigned int *cost);
bool unwind_user_shared_begin(struct mm_struct *mm, unsigned int *seq);
bool unwind_user_shared_insert(struct mm_struct *mm,
			       const struct unwind_user_share *s,
			       const struct eh_frame_section *sec,
			       unsigned int seq, unsigned long pc,
			       unsigned int ws,
			       const struct unwind_user_frame *frame,
			       unsigned int cost, bool *header_checked);
void unwind_user_shared_flush(void);

#endif /* _KERNEL_UNWIND_SHARED_H */
