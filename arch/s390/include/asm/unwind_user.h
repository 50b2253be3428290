/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_S390_UNWIND_USER_H
#define _ASM_S390_UNWIND_USER_H

#ifdef CONFIG_UNWIND_USER

#include <linux/fpu.h>
#include <linux/sched.h>
#include <linux/unwind_user_types.h>
#include <asm/ptrace.h>

/* s390 has no compat tasks: every user word is 64 bits. */
static inline int unwind_user_word_size(struct pt_regs *regs)
{
	return sizeof(long);
}

/*
 * A call pushes nothing: at a function's first instruction the CFA lies
 * the register save area above r15.
 */
static inline unsigned long unwind_user_entry_cfa_off(unsigned int ws)
{
	return STACK_FRAME_OVERHEAD;
}

#define unwind_user_entry_cfa_off unwind_user_entry_cfa_off

#endif /* CONFIG_UNWIND_USER */

#ifdef CONFIG_HAVE_UNWIND_USER_EH_FRAME

#include <asm/unwind_user_dwarf.h>

static_assert(UNWIND_USER_DWARF_CFA_OFF == STACK_FRAME_OVERHEAD);

/*
 * DWARF numbers 0-15 are r0-r15, 16-31 the floating-point registers in the
 * order f0, f2, f4, f6, f1, f3, f5, f7, f8, f10, f12, f14, f9, f11, f13,
 * f15.  The return address stays in r14 until a function saves it; leaf
 * functions that need r11 or r14 for something else keep them in
 * floating-point registers.  The number of the FPR that @regno names, or -1.
 */
static inline int unwind_user_dwarf_fpr(unsigned int regno)
{
	static const u8 fprs[] = { 0, 2, 4, 6, 1, 3, 5, 7,
				   8, 10, 12, 14, 9, 11, 13, 15 };

	if (regno < NUM_GPRS || regno - NUM_GPRS >= ARRAY_SIZE(fprs))
		return -1;
	return fprs[regno - NUM_GPRS];
}

/* A register of the topmost frame, by DWARF number. */
static inline int unwind_user_get_reg(struct pt_regs *regs, unsigned int regno,
				      unsigned long *val)
{
	int fpr;

	if (regno < NUM_GPRS) {
		*val = regs->gprs[regno];
		return 0;
	}
	fpr = unwind_user_dwarf_fpr(regno);
	if (fpr < 0)
		return -EINVAL;
	/* The user's registers may still be live: store them first. */
	save_user_fpu_regs();
	*val = ((freg_t *)&current->thread.ufpu.vxrs[fpr])->ui;
	return 0;
}

#define unwind_user_get_reg unwind_user_get_reg

#ifdef CONFIG_UNWIND_USER_EH_FRAME
/* The vDSO's sigreturn trampolines: see arch/s390/kernel/signal.c. */
bool unwind_user_sigreturn_frame(unsigned long ip,
				 struct unwind_user_frame *frame,
				 unsigned long *sigregs_off);
int unwind_user_signal_reg(unsigned long sigregs, unsigned int regno,
			   unsigned long *val);

#define unwind_user_sigreturn_frame unwind_user_sigreturn_frame
#define unwind_user_signal_reg unwind_user_signal_reg
#endif

#endif /* CONFIG_HAVE_UNWIND_USER_EH_FRAME */

#endif /* _ASM_S390_UNWIND_USER_H */
