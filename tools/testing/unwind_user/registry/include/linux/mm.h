/* SPDX-License-Identifier: GPL-2.0 */
/* VMA lookups over the fake VMAs of the test mm (linux/mm_types.h). */
#ifndef _REGISTRY_TEST_LINUX_MM_H
#define _REGISTRY_TEST_LINUX_MM_H

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/mm_types.h>
#include <linux/mmap_lock.h>
#include <linux/printk.h>

struct vma_iterator {
	struct mm_struct	*mm;
	unsigned long		addr;
};

#define VMA_ITERATOR(name, __mm, __addr)				\
	struct vma_iterator name = { .mm = (__mm), .addr = (__addr) }

/* The first VMA that ends after vmi->addr and starts before @max. */
struct vm_area_struct *vma_find(struct vma_iterator *vmi, unsigned long max);

#define for_each_vma_range(__vmi, __vma, __end)				\
	while (((__vma) = vma_find(&(__vmi), (__end))) != NULL)

struct vm_area_struct *vma_lookup(struct mm_struct *mm, unsigned long addr);

#endif
