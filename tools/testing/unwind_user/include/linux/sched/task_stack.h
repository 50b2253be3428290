/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNWIND_TEST_LINUX_SCHED_TASK_STACK_H
#define _UNWIND_TEST_LINUX_SCHED_TASK_STACK_H

#include <linux/sched.h>

#define task_pt_regs(task)	(&(task)->regs)

#endif
