/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User space stand-in for the RCU calls of kernel/unwind/eh_frame.c: the
 * tests that use it free nothing that another thread still reads.
 */
#ifndef _UNWIND_TEST_LINUX_RCUPDATE_H
#define _UNWIND_TEST_LINUX_RCUPDATE_H

#include <linux/slab.h>

struct rcu_head {
	void	*next;
};

/* No reader runs in another thread: free at once. */
#define kvfree_rcu(ptr, ...)	kvfree(ptr)

#endif
