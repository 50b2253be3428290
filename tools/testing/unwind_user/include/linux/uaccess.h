/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User space stand-in for <linux/uaccess.h>: "user memory" is the fake
 * address space of fake_user.c, where anything not mapped faults.
 */
#ifndef _UNWIND_TEST_LINUX_UACCESS_H
#define _UNWIND_TEST_LINUX_UACCESS_H

#include <linux/types.h>

/* Like the kernel's: copies what it can, returns the bytes not copied. */
unsigned long copy_from_user(void *to, const void __user *from,
			     unsigned long n);

#endif
