/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/sched/signal.h>: no signals arrive. */
#ifndef _UNWIND_TEST_LINUX_SCHED_SIGNAL_H
#define _UNWIND_TEST_LINUX_SCHED_SIGNAL_H

#include <linux/sched.h>

#define fatal_signal_pending(task)	0

#endif
