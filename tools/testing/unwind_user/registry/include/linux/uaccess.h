/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the registry takes of <linux/uaccess.h>: whether the task may fault,
 * which a test says as the kernel's pagefault_disable() does, per task
 * (test thread).
 */
#ifndef _REGISTRY_TEST_LINUX_UACCESS_H
#define _REGISTRY_TEST_LINUX_UACCESS_H

#include <stdbool.h>
#include <linux/sched.h>

static inline void pagefault_disable(void)
{
	current->pagefault_disabled++;
}

static inline void pagefault_enable(void)
{
	current->pagefault_disabled--;
}

static inline bool pagefault_disabled(void)
{
	return current->pagefault_disabled != 0;
}

#endif
