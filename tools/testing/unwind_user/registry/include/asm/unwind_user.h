/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the registry takes from an architecture's <asm/unwind_user.h>: the
 * DWARF numbers of the stack pointer, frame pointer and return address
 * column (x86-64 psABI, and i386 for 32-bit tasks).
 */
#ifndef _REGISTRY_TEST_ASM_UNWIND_USER_H
#define _REGISTRY_TEST_ASM_UNWIND_USER_H

struct pt_regs;

#define UNWIND_USER_DWARF_SP	7
#define UNWIND_USER_DWARF_FP	6
#define UNWIND_USER_DWARF_RA	16

#define UNWIND_USER_DWARF_SP_32	4
#define UNWIND_USER_DWARF_FP_32	5
#define UNWIND_USER_DWARF_RA_32	8

#endif
