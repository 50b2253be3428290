/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/cache.h>. */
#ifndef _UNWIND_TEST_LINUX_CACHE_H
#define _UNWIND_TEST_LINUX_CACHE_H

#define ____cacheline_aligned_in_smp	__attribute__((__aligned__(64)))

#endif
