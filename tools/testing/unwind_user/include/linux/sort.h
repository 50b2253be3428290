/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/sort.h>: qsort(), which sorts the same. */
#ifndef _UNWIND_TEST_LINUX_SORT_H
#define _UNWIND_TEST_LINUX_SORT_H

#include <stdlib.h>

typedef int (*cmp_func_t)(const void *a, const void *b);

static inline void sort_nonatomic(void *base, size_t num, size_t size,
				  cmp_func_t cmp, void *swap)
{
	qsort(base, num, size, cmp);
}

#endif
