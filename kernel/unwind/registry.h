/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registry's interface to the code that finds tables by itself
 * (discover.c): entries made outside the mmap lock and put into the tree
 * under the registry's lock.
 */
#ifndef _KERNEL_UNWIND_REGISTRY_H
#define _KERNEL_UNWIND_REGISTRY_H

#include <linux/types.h>

struct dentry;
struct file;
struct mm_struct;
struct seq_file;
struct unwind_user_eh_frame;
struct unwind_user_entry;
struct unwind_user_format;
struct unwind_user_share;

/* Who found a table; what user space registers takes precedence. */
enum unwind_user_origin {
	UNWIND_USER_ORIGIN_PRCTL,	/* user space, with the prctl */
	UNWIND_USER_ORIGIN_FILE,	/* the kernel, in the mapped file */
	UNWIND_USER_ORIGIN_VDSO,	/* the kernel, in its vDSO image */
};

/*
 * The locks of a writer: see registry.c.  The *_locked() functions below
 * need them.
 */
int unwind_user_registry_lock(struct mm_struct *mm);
void unwind_user_registry_unlock(struct mm_struct *mm);

struct unwind_user_entry *
unwind_user_entry_create(const struct unwind_user_eh_frame *desc,
			 const void *hdr_data, enum unwind_user_origin origin);
const struct unwind_user_format *unwind_user_format_find(unsigned int format);
void unwind_user_format_put(const struct unwind_user_format *fmt);
struct unwind_user_entry *
unwind_user_entry_create_format(const struct unwind_user_format *fmt,
				unsigned long start, unsigned long limit,
				unsigned long pc);
void unwind_user_entry_discard(struct unwind_user_entry *e);
void unwind_user_entry_share(struct mm_struct *mm, struct unwind_user_entry *e,
			     const struct file *file,
			     const struct unwind_user_share *id);
int unwind_user_entry_check_locked(struct mm_struct *mm,
				   const struct unwind_user_entry *e);
int unwind_user_add_entry_locked(struct mm_struct *mm,
				 struct unwind_user_entry *e);
int unwind_user_add_none_locked(struct mm_struct *mm, unsigned long pc,
				unsigned long start, unsigned long end);
bool unwind_user_range_readable(struct mm_struct *mm, unsigned long start,
				unsigned long end);

/*
 * Find the table of the object mapped at @pc, which nothing in @mm's
 * registry covers, and register it (discover.c).  0 when the lookup should
 * look again; else nothing was added.
 */
int unwind_user_discover(struct mm_struct *mm, unsigned long pc,
			 unsigned int *budget);
bool unwind_user_discover_enabled(void);

/* For benchmarks of discovery: forget what the kernel found in @mm. */
int unwind_user_forget_found(struct mm_struct *mm);

/* The walks of @mm's tasks, for /proc/<pid>/unwind_tables (throttle.c). */
void unwind_user_walks_show(struct seq_file *m, struct mm_struct *mm);

/* debugfs: unwind_user/, for the registry's and discovery's counters. */
struct dentry *unwind_user_debugfs_dir(void);

#endif /* _KERNEL_UNWIND_REGISTRY_H */
