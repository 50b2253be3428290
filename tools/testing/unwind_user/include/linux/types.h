/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/types.h>: the kernel's short type names. */
#ifndef _UNWIND_TEST_LINUX_TYPES_H
#define _UNWIND_TEST_LINUX_TYPES_H

/* The uapi header: __u8 and friends, for system headers that want them. */
#include_next <linux/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifdef __CHECKER__
#define __user			__attribute__((noderef, address_space(__user)))
#else
#define __user
#endif

#define BIT(nr)			(1UL << (nr))

#endif
