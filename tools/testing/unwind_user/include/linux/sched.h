/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User space stand-in for <linux/sched.h>: the one task kernel/unwind/user.c
 * asks about, and its registers (see walk.c).
 */
#ifndef _UNWIND_TEST_LINUX_SCHED_H
#define _UNWIND_TEST_LINUX_SCHED_H

#include <linux/types.h>

#define PF_EXITING		0x00000004
#define PF_KTHREAD		0x00200000

/* x86-64 with 4-level page tables, as kernel/unwind/user.c sees it. */
#ifndef PAGE_SIZE
#define PAGE_SIZE		4096UL
#endif
#define TASK_SIZE		((1UL << 47) - PAGE_SIZE)

struct pt_regs {
	unsigned long	ip;
	unsigned long	sp;
	unsigned long	bp;
};

struct signal_struct;

struct task_struct {
	unsigned int	flags;
	struct mm_struct *mm;
	struct signal_struct *signal;
	struct pt_regs	regs;
};

extern struct task_struct walk_task;
#define current			(&walk_task)

/* One thread: nothing else to run. */
static inline void cond_resched(void)
{
}

#endif
