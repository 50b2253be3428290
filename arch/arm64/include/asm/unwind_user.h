/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_ARM64_UNWIND_USER_H
#define _ASM_ARM64_UNWIND_USER_H

#ifdef CONFIG_UNWIND_USER

#include <linux/errno.h>
#include <linux/unwind_user_types.h>
#include <asm/compiler.h>
#include <asm/ptrace.h>

/*
 * AArch32 tasks keep frame records of another layout, and no AArch64
 * tables describe them: they are not walked.
 */
static inline int unwind_user_word_size(struct pt_regs *regs)
{
	return compat_user_mode(regs) ? 0 : sizeof(long);
}

/*
 * bl pushes nothing, it leaves the return address in x30: at a function's
 * first instruction the CFA is sp itself.
 */
static inline unsigned long unwind_user_entry_cfa_off(unsigned int ws)
{
	return 0;
}

#define unwind_user_entry_cfa_off unwind_user_entry_cfa_off

/*
 * Code built with -mbranch-protection=pac-ret signs x30 before it saves
 * it; a return address that is not signed comes back as it is.
 */
static inline unsigned long unwind_user_strip_ra(unsigned long ra)
{
	return ptrauth_strip_user_insn_pac(ra);
}

#define unwind_user_strip_ra unwind_user_strip_ra

/*
 * A register of the topmost frame, by DWARF number: 0-30 are x0-x30, 31
 * is sp.  The frame-pointer walk needs x30 at a function's entry too.
 */
static inline int unwind_user_get_reg(struct pt_regs *regs, unsigned int regno,
				      unsigned long *val)
{
	if (regno < 31)
		*val = regs->regs[regno];
	else if (regno == 31)
		*val = regs->sp;
	else
		return -EINVAL;
	return 0;
}

#define unwind_user_get_reg unwind_user_get_reg

#endif /* CONFIG_UNWIND_USER */

#ifdef CONFIG_HAVE_UNWIND_USER_FP

/*
 * The frame record {x29, x30} that x29 points to holds the caller's x29 and
 * the return address.  x29 + 16 is the caller's sp where the record is at
 * the top of the frame (clang), and below it where the record is at the
 * bottom (GCC): a lower bound.
 */
static inline void unwind_user_fp_frame(struct unwind_user_frame *frame,
					unsigned int ws)
{
	*frame = (struct unwind_user_frame) {
		.cfa = { .type = UNWIND_USER_RULE_REG_OFF,
			 .reg = UNWIND_USER_REG_FP, .off = 2 * ws },
		.ra  = { .type = UNWIND_USER_RULE_CFA_OFF_DEREF, .off = -1 * ws },
		.fp  = { .type = UNWIND_USER_RULE_CFA_OFF_DEREF, .off = -2 * ws },
		.cfa_low = true,
	};
}

/*
 * At a function's first instruction, and at a call through a bad pointer,
 * nothing is saved: the CFA is sp, the return address is in x30.
 */
static inline void unwind_user_fp_entry_frame(struct unwind_user_frame *frame,
					      unsigned int ws)
{
	*frame = (struct unwind_user_frame) {
		.cfa = { .type = UNWIND_USER_RULE_REG_OFF,
			 .reg = UNWIND_USER_REG_SP, .off = 0 },
		.ra  = { .type = UNWIND_USER_RULE_REG_OFF,
			 .reg = UNWIND_USER_REG_OTHER, .regno = 30, .off = 0 },
		.fp  = { .type = UNWIND_USER_RULE_RETAIN },
	};
}

#define unwind_user_fp_entry_frame unwind_user_fp_entry_frame

#ifdef CONFIG_UPROBES
/* arch/arm64/kernel/probes/uprobes.c */
bool is_uprobe_at_func_entry(struct pt_regs *regs);
#else
static inline bool is_uprobe_at_func_entry(struct pt_regs *regs)
{
	return false;
}
#endif

static inline bool unwind_user_at_function_start(struct pt_regs *regs)
{
	return is_uprobe_at_func_entry(regs);
}

#define unwind_user_at_function_start unwind_user_at_function_start

#endif /* CONFIG_HAVE_UNWIND_USER_FP */

#ifdef CONFIG_HAVE_UNWIND_USER_EH_FRAME
#include <asm/unwind_user_dwarf.h>
#endif

#ifdef CONFIG_UNWIND_USER_EH_FRAME
/* The vDSO's sigreturn trampoline: see arch/arm64/kernel/signal.c. */
bool unwind_user_sigreturn_frame(unsigned long ip,
				 struct unwind_user_frame *frame,
				 unsigned long *sigregs_off);
int unwind_user_signal_reg(unsigned long sigregs, unsigned int regno,
			   unsigned long *val);

#define unwind_user_sigreturn_frame unwind_user_sigreturn_frame
#define unwind_user_signal_reg unwind_user_signal_reg
#endif

#endif /* _ASM_ARM64_UNWIND_USER_H */
