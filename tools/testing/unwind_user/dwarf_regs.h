/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DWARF numbers of the stack pointer, frame pointer and return address
 * column that the kernel follows, from the architectures' own headers
 * (arch/x86, arch/s390 and arch/arm64 asm/unwind_user_dwarf.h), for the tests of every
 * architecture in one program: each header's names are copied into enum
 * constants of its own, then undefined for the next.
 */
#ifndef _UNWIND_TEST_DWARF_REGS_H
#define _UNWIND_TEST_DWARF_REGS_H

#include "../../../arch/x86/include/asm/unwind_user_dwarf.h"
enum {
	X86_64_DWARF_SP	= UNWIND_USER_DWARF_SP,
	X86_64_DWARF_FP	= UNWIND_USER_DWARF_FP,
	X86_64_DWARF_RA	= UNWIND_USER_DWARF_RA,
	I386_DWARF_SP	= UNWIND_USER_DWARF_SP_32,
	I386_DWARF_FP	= UNWIND_USER_DWARF_FP_32,
	I386_DWARF_RA	= UNWIND_USER_DWARF_RA_32,
};

#undef UNWIND_USER_DWARF_SP
#undef UNWIND_USER_DWARF_FP
#undef UNWIND_USER_DWARF_RA
#undef UNWIND_USER_ELF_MACHINE

#include "../../../arch/s390/include/asm/unwind_user_dwarf.h"
enum {
	S390X_DWARF_SP		= UNWIND_USER_DWARF_SP,
	S390X_DWARF_FP		= UNWIND_USER_DWARF_FP,
	S390X_DWARF_RA		= UNWIND_USER_DWARF_RA,
	S390X_DWARF_CFA_OFF	= UNWIND_USER_DWARF_CFA_OFF,
};

#undef UNWIND_USER_DWARF_SP
#undef UNWIND_USER_DWARF_FP
#undef UNWIND_USER_DWARF_RA
#undef UNWIND_USER_DWARF_CFA_OFF
#undef UNWIND_USER_ELF_MACHINE

#include "../../../arch/arm64/include/asm/unwind_user_dwarf.h"
enum {
	AARCH64_DWARF_SP	= UNWIND_USER_DWARF_SP,
	AARCH64_DWARF_FP	= UNWIND_USER_DWARF_FP,
	AARCH64_DWARF_RA	= UNWIND_USER_DWARF_RA,
	AARCH64_NEGATE_RA_STATE	= UNWIND_USER_DWARF_NEGATE_RA_STATE,
};

#undef UNWIND_USER_DWARF_SP
#undef UNWIND_USER_DWARF_FP
#undef UNWIND_USER_DWARF_RA
#undef UNWIND_USER_DWARF_NEGATE_RA_STATE
#undef UNWIND_USER_ELF_MACHINE

#define DWARF_REGS_X86_64	{ .sp = X86_64_DWARF_SP, .fp = X86_64_DWARF_FP, \
				  .ra = X86_64_DWARF_RA }
#define DWARF_REGS_I386		{ .sp = I386_DWARF_SP, .fp = I386_DWARF_FP, \
				  .ra = I386_DWARF_RA }
#define DWARF_REGS_S390X	{ .sp = S390X_DWARF_SP, .fp = S390X_DWARF_FP, \
				  .ra = S390X_DWARF_RA, .cfa_off = S390X_DWARF_CFA_OFF }
#define DWARF_REGS_AARCH64	{ .sp = AARCH64_DWARF_SP, .fp = AARCH64_DWARF_FP, \
				  .ra = AARCH64_DWARF_RA, \
				  .negate_ra_state = AARCH64_NEGATE_RA_STATE }

#endif
