/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/printk.h>: debug messages go nowhere. */
#ifndef _UNWIND_TEST_LINUX_PRINTK_H
#define _UNWIND_TEST_LINUX_PRINTK_H

#define pr_debug(...)	do { } while (0)

#endif
