/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/hash.h>: hash_long() as the kernel has it. */
#ifndef _UNWIND_TEST_LINUX_HASH_H
#define _UNWIND_TEST_LINUX_HASH_H

#include <linux/types.h>

#define GOLDEN_RATIO_32 0x61C88647
#define GOLDEN_RATIO_64 0x61C8864680B583EBull

static inline u32 hash_32(u32 val, unsigned int bits)
{
	return (val * GOLDEN_RATIO_32) >> (32 - bits);
}

static inline u32 hash_64(u64 val, unsigned int bits)
{
	return val * GOLDEN_RATIO_64 >> (64 - bits);
}

#define hash_long(val, bits)						\
	(sizeof(long) == 8 ? hash_64(val, bits) : hash_32(val, bits))

#endif
