/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for the parts of <linux/kernel.h> the unwinder uses. */
#ifndef _UNWIND_TEST_LINUX_KERNEL_H
#define _UNWIND_TEST_LINUX_KERNEL_H

#include <limits.h>
#include <linux/kconfig.h>
#include <linux/types.h>

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define noinline		__attribute__((__noinline__))
#define noinline_for_stack	noinline
#define fallthrough		__attribute__((__fallthrough__))
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif

#define U8_MAX			((u8)~0U)
#define U16_MAX			((u16)~0U)
#define U32_MAX			((u32)~0U)
#define U64_MAX			((u64)~0ULL)
#define S32_MAX			((s32)(U32_MAX >> 1))
#define S32_MIN			((s32)(-S32_MAX - 1))
#define S64_MAX			((s64)(U64_MAX >> 1))
#define S64_MIN			((s64)(-S64_MAX - 1))

/* As <linux/build_bug.h>: the message is optional. */
#define static_assert(expr, ...) __static_assert(expr, ##__VA_ARGS__, #expr)
#define __static_assert(expr, msg, ...) _Static_assert(expr, msg)

#define WARN_ONCE(cond, ...)	({ !!(cond); })
#define BITS_PER_LONG		(8 * sizeof(long))
#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = 0; (bit) < (size); (bit)++)			\
		if (*(addr) & (1UL << (bit)))

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define ALIGN(x, a)		(((x) + ((__typeof__(x))(a) - 1)) & \
				 ~((__typeof__(x))(a) - 1))

#define min_t(type, x, y)	({ type __x = (x); type __y = (y);	\
				   __x < __y ? __x : __y; })
#define min(x, y)							\
	({								\
		__typeof__(x) __x = (x);				\
		__typeof__(y) __y = (y);				\
		__x < __y ? __x : __y;					\
	})
#define min3(x, y, z)		min(min(x, y), z)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define round_down(x, y)	((x) & ~((__typeof__(x))(y) - 1))
#define max_t(type, x, y)	({ type __x = (x); type __y = (y);	\
				   __x > __y ? __x : __y; })
#define swap(a, b)							\
	do {								\
		__typeof__(a) __tmp = (a);				\
		(a) = (b);						\
		(b) = __tmp;						\
	} while (0)

#endif
