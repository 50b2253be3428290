/* SPDX-License-Identifier: GPL-2.0 */
/* The tools' <linux/refcount.h>, plus refcount_dec(), which it lacks. */
#ifndef _REGISTRY_TEST_LINUX_REFCOUNT_H
#define _REGISTRY_TEST_LINUX_REFCOUNT_H

#include_next <linux/refcount.h>

/* Not the last reference: the kernel's warns if it was. */
static inline void refcount_dec(refcount_t *r)
{
	if (refcount_dec_and_test(r))
		REFCOUNT_WARN(1, "refcount_t: decrement hit 0; leaking memory.\n");
}

#endif
