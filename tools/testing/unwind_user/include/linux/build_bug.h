/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/build_bug.h>: static_assert(). */
#ifndef _UNWIND_TEST_LINUX_BUILD_BUG_H
#define _UNWIND_TEST_LINUX_BUILD_BUG_H

#include <linux/kernel.h>

#endif
