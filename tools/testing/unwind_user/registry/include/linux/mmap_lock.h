/* SPDX-License-Identifier: GPL-2.0 */
/* The mmap lock of the test mm (linux/mm_types.h); never interrupted. */
#ifndef _REGISTRY_TEST_LINUX_MMAP_LOCK_H
#define _REGISTRY_TEST_LINUX_MMAP_LOCK_H

#include <linux/mm_types.h>

void mmap_write_lock(struct mm_struct *mm);
void mmap_write_unlock(struct mm_struct *mm);
void mmap_read_lock(struct mm_struct *mm);
bool mmap_read_trylock(struct mm_struct *mm);
void mmap_read_unlock(struct mm_struct *mm);
void mmap_assert_write_locked(struct mm_struct *mm);
/* For reading or for writing, by the calling thread. */
void mmap_assert_locked(struct mm_struct *mm);

static inline int mmap_write_lock_killable(struct mm_struct *mm)
{
	mmap_write_lock(mm);
	return 0;
}

static inline int mmap_read_lock_killable(struct mm_struct *mm)
{
	mmap_read_lock(mm);
	return 0;
}

#endif
