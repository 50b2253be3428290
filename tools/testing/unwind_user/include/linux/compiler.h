/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for the parts of <linux/compiler.h> the unwinder uses. */
#ifndef _UNWIND_TEST_LINUX_COMPILER_H
#define _UNWIND_TEST_LINUX_COMPILER_H

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)	(*(volatile __typeof__(x) *)&(x) = (val))
/* Statistics that may race: the tests read them single-threaded. */
#define data_race(expr)		(expr)

#endif
