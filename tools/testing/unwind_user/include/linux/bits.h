/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/bits.h>: BIT() is in the types shim. */
#ifndef _UNWIND_TEST_LINUX_BITS_H
#define _UNWIND_TEST_LINUX_BITS_H

#include <linux/types.h>

#endif
