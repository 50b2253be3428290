/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_UNWIND_USER_DWARF_H
#define _ASM_X86_UNWIND_USER_DWARF_H

/*
 * The DWARF register numbers that the .eh_frame unwinder follows from frame
 * to frame: the stack pointer, the frame pointer and the return address
 * column.  Constants only, so that the user-space tests of the unwinder
 * (tools/testing/unwind_user) take them from here too.
 */

/* x86-64 psABI: %rsp, %rbp, and the RA column */
#define UNWIND_USER_DWARF_SP		7
#define UNWIND_USER_DWARF_FP		6
#define UNWIND_USER_DWARF_RA		16

/* i386 psABI, for 32-bit tasks: %esp, %ebp, and the RA column */
#define UNWIND_USER_DWARF_SP_32		4
#define UNWIND_USER_DWARF_FP_32		5
#define UNWIND_USER_DWARF_RA_32		8

#endif /* _ASM_X86_UNWIND_USER_DWARF_H */
