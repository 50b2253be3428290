/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/minmax.h>: min() and friends. */
#ifndef _UNWIND_TEST_LINUX_MINMAX_H
#define _UNWIND_TEST_LINUX_MINMAX_H

#include <linux/kernel.h>

#endif
