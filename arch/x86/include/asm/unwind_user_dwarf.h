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

/* The e_machine of the ELF objects whose tables use them: EM_X86_64 */
#define UNWIND_USER_ELF_MACHINE		62
/* .eh_frame's section type from LLVM's assembler: SHT_X86_64_UNWIND */
#define UNWIND_USER_ELF_SHT_UNWIND	0x70000001

/* i386 psABI, for 32-bit tasks: %esp, %ebp, and the RA column */
#define UNWIND_USER_DWARF_SP_32		4
#define UNWIND_USER_DWARF_FP_32		5
#define UNWIND_USER_DWARF_RA_32		8
/* ... and the e_machine of their objects: EM_386 */
#define UNWIND_USER_ELF_MACHINE_32	3

#endif /* _ASM_X86_UNWIND_USER_DWARF_H */
