/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User space stand-in for the allocator calls of kernel/unwind/cache.c and
 * eh_frame.c.
 */
#ifndef _UNWIND_TEST_LINUX_SLAB_H
#define _UNWIND_TEST_LINUX_SLAB_H

#include <stdlib.h>

typedef unsigned int gfp_t;

#define GFP_KERNEL		0U
#define GFP_KERNEL_ACCOUNT	1U

/* Set by a test: the next allocations fail while it is not 0. */
extern int slab_fail_next;

static inline void *kvzalloc(size_t size, gfp_t gfp)
{
	if (slab_fail_next) {
		slab_fail_next--;
		return NULL;
	}
	return calloc(1, size);
}

static inline void *kmalloc(size_t size, gfp_t gfp)
{
	if (slab_fail_next) {
		slab_fail_next--;
		return NULL;
	}
	return malloc(size);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#define kvzalloc_obj(obj, gfp)	kvzalloc(sizeof(obj), gfp)
#define kvzalloc_flex(obj, fam, n, gfp)				\
	kvzalloc(sizeof(obj) + sizeof((obj).fam[0]) * (n), gfp)

static inline void kvfree(const void *p)
{
	free((void *)p);
}

#endif
