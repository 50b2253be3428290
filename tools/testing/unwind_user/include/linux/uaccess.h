/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User space stand-in for <linux/uaccess.h>: "user memory" is the fake
 * address space of fake_user.c, where anything not mapped faults.
 */
#ifndef _UNWIND_TEST_LINUX_UACCESS_H
#define _UNWIND_TEST_LINUX_UACCESS_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <linux/types.h>

/* Like the kernel's: copies what it can, returns the bytes not copied. */
unsigned long copy_from_user(void *to, const void __user *from,
			     unsigned long n);

/*
 * A user access window is one access, as fake_user_copies counts them; the
 * reads in it are not counted again, but fault as copy_from_user() does.
 */
bool fake_user_access_begin(const void __user *ptr, unsigned long len);
int fake_user_read(void *to, const void __user *from, unsigned long n);

/* The window user_read_access_begin() opened, if it is mapped throughout. */
extern unsigned long fake_window_start, fake_window_end;
extern const unsigned char *fake_window_data;

#define user_read_access_begin(ptr, len)	fake_user_access_begin(ptr, len)
#define user_read_access_end()		do { } while (0)
#define unsafe_get_user(x, ptr, label)					\
	do {								\
		unsigned long __a = (unsigned long)(ptr);		\
									\
		if (__a >= fake_window_start &&				\
		    __a + sizeof(*(ptr)) <= fake_window_end)		\
			memcpy(&(x), fake_window_data + (__a - fake_window_start), \
			       sizeof(*(ptr)));				\
		else if (fake_user_read(&(x), (ptr), sizeof(*(ptr))))	\
			goto label;					\
	} while (0)

/* One task, never exiting while it walks: nothing is kept from faulting. */
static inline void pagefault_disable(void)
{
}

static inline void pagefault_enable(void)
{
}

#define get_user(x, ptr) ({						\
	__typeof__(*(ptr)) __gu_val;					\
	int __gu_err = copy_from_user(&__gu_val, (ptr), sizeof(__gu_val)) ? \
		       -EFAULT : 0;					\
	(x) = __gu_err ? 0 : __gu_val;					\
	__gu_err;							\
})

#endif
