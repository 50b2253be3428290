/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User space stand-in for <linux/sched.h>: the one task kernel/unwind/user.c
 * asks about, and its registers (see walk.c).
 */
#ifndef _UNWIND_TEST_LINUX_SCHED_H
#define _UNWIND_TEST_LINUX_SCHED_H

#include <linux/types.h>

#define PF_KTHREAD		0x00200000

struct pt_regs {
	unsigned long	ip;
	unsigned long	sp;
	unsigned long	bp;
};

struct task_struct {
	unsigned int	flags;
	struct mm_struct *mm;
	struct pt_regs	regs;
};

extern struct task_struct walk_task;
#define current			(&walk_task)

#endif
