/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNWIND_TEST_LINUX_UNALIGNED_H
#define _UNWIND_TEST_LINUX_UNALIGNED_H

/* As the kernel does it: a load through a packed struct. */
#define get_unaligned(ptr) ({						\
	const struct { __typeof__(*(ptr)) x; } __attribute__((__packed__)) \
		*__p = (const void *)(ptr);				\
	__p->x;								\
})

#endif
