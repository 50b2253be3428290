/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User space stand-in for <linux/sched/signal.h>: no signal arrives unless
 * a test sends one (fake_user.c has the flag).
 */
#ifndef _UNWIND_TEST_LINUX_SCHED_SIGNAL_H
#define _UNWIND_TEST_LINUX_SCHED_SIGNAL_H

#include <linux/sched.h>

extern bool fake_fatal_signal;

/* sizeof: @task (current) is not evaluated, walk.c need not be linked. */
#define fatal_signal_pending(task)	((void)sizeof(task), fake_fatal_signal)

/* No other thread takes the task down while it walks. */
#define SIGNAL_GROUP_EXIT		0x00000004

struct signal_struct {
	unsigned int	flags;
};

#endif
