/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/stringify.h>. */
#ifndef _UNWIND_TEST_LINUX_STRINGIFY_H
#define _UNWIND_TEST_LINUX_STRINGIFY_H

#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)

#endif
