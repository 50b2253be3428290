/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNWIND_TEST_LINUX_UNALIGNED_H
#define _UNWIND_TEST_LINUX_UNALIGNED_H

/* As the kernel does it: a load through a packed struct. */
#define get_unaligned(ptr) ({						\
	const struct { __typeof__(*(ptr)) x; } __attribute__((__packed__)) \
		*__p = (const void *)(ptr);				\
	__p->x;								\
})

#define put_unaligned(val, ptr) do {					\
	struct { __typeof__(*(ptr)) x; } __attribute__((__packed__))	\
		*__p = (void *)(ptr);					\
	__p->x = (val);							\
} while (0)

/* Little-endian fields of any alignment (PE headers and unwind data). */
#define get_unaligned_le16(ptr)						\
	((u16)(((const u8 *)(ptr))[0] | ((const u8 *)(ptr))[1] << 8))
#define get_unaligned_le32(ptr)						\
	((u32)get_unaligned_le16(ptr) |					\
	 (u32)get_unaligned_le16((const u8 *)(ptr) + 2) << 16)

#endif
