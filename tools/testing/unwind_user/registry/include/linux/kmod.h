/* SPDX-License-Identifier: GPL-2.0 */
/*
 * request_module() for the registry tests: a test may set a hook that
 * "loads" the module the registry asks for; without one, none exists.
 * Every call is counted (shim.c), in any thread.
 */
#ifndef _REGISTRY_TEST_LINUX_KMOD_H
#define _REGISTRY_TEST_LINUX_KMOD_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

extern int (*test_request_module)(const char *name);
extern long test_request_module_calls;

static inline __attribute__((format(printf, 1, 2)))
int request_module(const char *fmt, ...)
{
	char name[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	__atomic_add_fetch(&test_request_module_calls, 1, __ATOMIC_SEQ_CST);
	return test_request_module ? test_request_module(name) : -ENOENT;
}

#endif
