/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/uprobes.h>: no uprobe is ever active. */
#ifndef _UNWIND_TEST_LINUX_UPROBES_H
#define _UNWIND_TEST_LINUX_UPROBES_H

#define uprobe_get_trap_addr(regs)	instruction_pointer(regs)

#endif
