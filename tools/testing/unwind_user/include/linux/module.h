/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User space stand-in for <linux/module.h>, for kernel/unwind/pe_user.c
 * compiled into the tests (pe_live.c): module macros that declare nothing.
 */
#ifndef _UNWIND_TEST_LINUX_MODULE_H
#define _UNWIND_TEST_LINUX_MODULE_H

struct module;

#define THIS_MODULE		((struct module *)0)
#define __init
#define __exit
#define module_init(fn)	\
	static int (*test_module_init)(void) __attribute__((unused)) = fn
#define module_exit(fn)	\
	static void (*test_module_exit)(void) __attribute__((unused)) = fn
#define MODULE_DESCRIPTION(s)
#define MODULE_LICENSE(s)
#define MODULE_ALIAS(s)

#endif
