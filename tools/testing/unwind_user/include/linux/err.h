/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/err.h>: errors in pointers. */
#ifndef _UNWIND_TEST_LINUX_ERR_H
#define _UNWIND_TEST_LINUX_ERR_H

#include <stdbool.h>

#define MAX_ERRNO	4095

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return (unsigned long)ptr >= (unsigned long)-MAX_ERRNO;
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR(ptr);
}

#endif
