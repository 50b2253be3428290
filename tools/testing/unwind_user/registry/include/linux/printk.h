/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Messages and warnings of the code under test: counted (a test fails on
 * any warning) and printed as TAP comments, not to stdout as the tools'
 * <linux/kernel.h> would.
 */
#ifndef _REGISTRY_TEST_LINUX_PRINTK_H
#define _REGISTRY_TEST_LINUX_PRINTK_H

#include <linux/kernel.h>
#include <asm/bug.h>

void test_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool test_warn(const char *file, int line);

#undef pr_info
#undef pr_debug
#define pr_info(fmt, ...)		test_printk(fmt, ##__VA_ARGS__)
#define pr_info_ratelimited(fmt, ...)	test_printk(fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)						\
	do {								\
		if (0)							\
			test_printk(fmt, ##__VA_ARGS__);		\
	} while (0)

#undef WARN_ON_ONCE
#define WARN_ON_ONCE(cond)						\
	({								\
		bool __c = !!(cond);					\
		if (__c)						\
			test_warn(__FILE__, __LINE__);			\
		__c;							\
	})

#endif
