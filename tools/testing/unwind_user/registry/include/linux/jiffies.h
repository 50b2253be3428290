/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jiffies for the registry tests: a counter only the tests move (shim.c
 * starts it where the kernel does, five minutes before a 32-bit wrap).
 */
#ifndef _REGISTRY_TEST_LINUX_JIFFIES_H
#define _REGISTRY_TEST_LINUX_JIFFIES_H

#define HZ		250
#define INITIAL_JIFFIES	((unsigned long)(unsigned int)(-300 * HZ))

extern volatile unsigned long jiffies;

#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

#endif
