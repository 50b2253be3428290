/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_S390_UNWIND_USER_DWARF_H
#define _ASM_S390_UNWIND_USER_DWARF_H

/*
 * The DWARF register numbers that the .eh_frame unwinder follows from frame
 * to frame (s390x ELF ABI): r15 is the stack pointer, r11 the frame pointer
 * and r14 the return address.  Constants only, so that the user-space tests
 * of the unwinder (tools/testing/unwind_user) take them from here too.
 */
#define UNWIND_USER_DWARF_SP		15
#define UNWIND_USER_DWARF_FP		11
#define UNWIND_USER_DWARF_RA		14

/* The e_machine of the ELF objects whose tables use them: EM_S390 */
#define UNWIND_USER_ELF_MACHINE		22

/*
 * The CFA is the caller's r15 plus the register save area that every caller
 * allocates for its callee (STACK_FRAME_OVERHEAD).
 */
#define UNWIND_USER_DWARF_CFA_OFF	160

#endif /* _ASM_S390_UNWIND_USER_DWARF_H */
