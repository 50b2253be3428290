/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User space stand-in for <linux/uaccess.h>: "user memory" is the fake
 * address space of fake_user.c, where anything not mapped faults.
 */
#ifndef _UNWIND_TEST_LINUX_UACCESS_H
#define _UNWIND_TEST_LINUX_UACCESS_H

#include <errno.h>
#include <linux/types.h>

/* Like the kernel's: copies what it can, returns the bytes not copied. */
unsigned long copy_from_user(void *to, const void __user *from,
			     unsigned long n);

#define get_user(x, ptr) ({						\
	__typeof__(*(ptr)) __gu_val;					\
	int __gu_err = copy_from_user(&__gu_val, (ptr), sizeof(__gu_val)) ? \
		       -EFAULT : 0;					\
	(x) = __gu_err ? 0 : __gu_val;					\
	__gu_err;							\
})

#endif
