/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DWARF call frame information: evaluate an FDE's instructions into the frame
 * rules for one pc.
 */
#ifndef _KERNEL_UNWIND_CFI_H
#define _KERNEL_UNWIND_CFI_H

#include <linux/unwind_user.h>

#include "eh_frame.h"

int cfi_eval_frame(const struct eh_frame_section *sec,
		   const struct eh_frame_regs *regs,
		   const struct eh_frame_fde *fde, unsigned long pc,
		   struct unwind_user_frame *frame);

#ifndef unwind_user_eh_frame_expr
/**
 * unwind_user_eh_frame_expr - translate a DWARF expression into a frame rule
 * @op: the instruction that carried the expression:
 *	DW_CFA_def_cfa_expression: the result is the CFA;
 *	DW_CFA_expression: the register is saved at the address computed
 *	(the CFA is pushed on the DWARF stack first);
 *	DW_CFA_val_expression: the register's value is the result (likewise)
 * @expr: the expression, copied in from user space
 * @len: its length in bytes
 * @pc: the pc the rule is for (x86 PLT entries compute the CFA from it)
 * @ptr_size: 8 or 4 (ELF64 or ELF32: DWARF register numbers differ)
 * @rule: the rule to fill in.  For the CFA it must be REG_OFF or
 *	REG_OFF_DEREF.
 *
 * No general expression evaluator runs in the kernel.  An architecture
 * recognises the few fixed expression shapes its toolchains emit (signal
 * trampolines, PLT stubs, stack realignment) by defining this hook in
 * <asm/unwind_user.h>.
 *
 * Return: 0, or -EOPNOTSUPP for an expression that has no rule equivalent.
 */
static inline int unwind_user_eh_frame_expr(u8 op, const u8 *expr,
					    unsigned int len, unsigned long pc,
					    unsigned int ptr_size,
					    struct unwind_user_rule *rule)
{
	return -EOPNOTSUPP;
}

#define unwind_user_eh_frame_expr unwind_user_eh_frame_expr
#endif

#endif /* _KERNEL_UNWIND_CFI_H */
