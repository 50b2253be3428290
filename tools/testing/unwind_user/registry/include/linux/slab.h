/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tools' <linux/slab.h>, with the registry's own allocations going to
 * the test allocator (shim.c): it tracks every block, reports a second free
 * of one, and can hand a freed block out again (as a slab would).
 */
#ifndef _REGISTRY_TEST_LINUX_SLAB_H
#define _REGISTRY_TEST_LINUX_SLAB_H

#include_next <linux/slab.h>
#include <linux/rcupdate.h>

void *test_kzalloc(size_t size, gfp_t gfp);
void *test_kvzalloc(size_t size, gfp_t gfp);
void *test_kmemdup(const void *p, size_t size, gfp_t gfp);
void test_kfree(const void *p);
void test_kfree_rcu(void *p, size_t rcu_offset);

#undef kzalloc
#define kzalloc(size, gfp)		test_kzalloc(size, gfp)
#define kmemdup(p, size, gfp)		test_kmemdup(p, size, gfp)
#define kfree(p)			test_kfree(p)
/* The frame cache: counted, and failed on demand (shim.c). */
#define kvzalloc_obj(obj, gfp)		test_kvzalloc(sizeof(obj), gfp)
#define kvzalloc_flex(obj, fam, n, gfp)				\
	test_kvzalloc(sizeof(obj) + sizeof((obj).fam[0]) * (n), gfp)
#define kvfree(p)			free(p)
#define kfree_rcu(p, field)					\
	test_kfree_rcu(p, offsetof(typeof(*(p)), field))

#endif
