/* SPDX-License-Identifier: GPL-2.0 */
/* current: one task per test thread, its mm set by the test. */
#ifndef _REGISTRY_TEST_LINUX_SCHED_H
#define _REGISTRY_TEST_LINUX_SCHED_H

struct mm_struct;

struct task_struct {
	struct mm_struct	*mm;
	char			comm[16];
	int			pid;
	/* pagefault_disable() depth (linux/uaccess.h) */
	int			pagefault_disabled;
};

extern __thread struct task_struct test_current_task;
#define current (&test_current_task)

static inline int task_pid_nr(struct task_struct *tsk)
{
	return tsk->pid;
}

static inline void cond_resched(void)
{
}

#endif
