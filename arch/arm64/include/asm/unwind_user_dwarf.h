/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_ARM64_UNWIND_USER_DWARF_H
#define _ASM_ARM64_UNWIND_USER_DWARF_H

/*
 * The DWARF register numbers that the .eh_frame unwinder follows from frame
 * to frame (AAPCS64, DWARF for the Arm 64-bit architecture): sp is 31, x29
 * the frame pointer and x30 the return address column.  Constants only, so
 * that the user-space tests of the unwinder (tools/testing/unwind_user)
 * take them from here too.
 */
#define UNWIND_USER_DWARF_SP		31
#define UNWIND_USER_DWARF_FP		29
#define UNWIND_USER_DWARF_RA		30

/* The e_machine of the ELF objects whose tables use them: EM_AARCH64 */
#define UNWIND_USER_ELF_MACHINE		183

/*
 * DW_CFA 0x2d is DW_CFA_AARCH64_negate_ra_state, which code built with
 * -mbranch-protection=pac-ret emits where it signs x30.  The walk strips
 * every return address, so the reader skips it.
 */
#define UNWIND_USER_DWARF_NEGATE_RA_STATE	1

#endif /* _ASM_ARM64_UNWIND_USER_DWARF_H */
