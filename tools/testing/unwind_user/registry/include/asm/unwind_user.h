/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the registry takes from an architecture's <asm/unwind_user.h>: the
 * DWARF numbers of the stack pointer, frame pointer and return address
 * column, from the kernel tree's x86 header (x86-64, and i386 for 32-bit
 * tasks).
 */
#ifndef _REGISTRY_TEST_ASM_UNWIND_USER_H
#define _REGISTRY_TEST_ASM_UNWIND_USER_H

struct pt_regs;

#include "../../../../../../arch/x86/include/asm/unwind_user_dwarf.h"

#endif
