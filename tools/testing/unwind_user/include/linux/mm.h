/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/mm.h>: the page size, for elf_table.c. */
#ifndef _UNWIND_TEST_LINUX_MM_H
#define _UNWIND_TEST_LINUX_MM_H

#include <linux/sched.h>

/* x86 and s390: 4 KiB pages (PAGE_SIZE itself comes from linux/sched.h). */
#define PAGE_SHIFT		12

#endif
