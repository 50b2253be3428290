/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DWARF call frame information: evaluate an FDE's instructions into the
 * row for one pc, and that row into frame rules.  Two calls, so that the
 * caller can drop the decoded FDE from its stack before the second.
 */
#ifndef _KERNEL_UNWIND_CFI_H
#define _KERNEL_UNWIND_CFI_H

#include <linux/unwind_user.h>

#include "eh_frame.h"

enum cfi_rule_type {
	CFI_RULE_SAME,		/* no rule, or DW_CFA_same_value */
	CFI_RULE_UNDEFINED,	/* no value; for the CFA: not defined yet */
	CFI_RULE_OFFSET,	/* saved at CFA + off */
	CFI_RULE_VAL_OFFSET,	/* value is CFA + off */
	CFI_RULE_REGISTER,	/* value is in register reg */
	CFI_RULE_EXPR,		/* saved at the address an expression computes */
	CFI_RULE_VAL_EXPR,	/* value is what an expression computes */
	CFI_RULE_CFA_REG,	/* CFA only: register reg + off */
	CFI_RULE_CFA_EXPR,	/* CFA only: what an expression computes */
};

/*
 * A rule, kept to 8 bytes.  An expression is kept as its place in .eh_frame
 * and only read if it is in the final row.
 */
struct cfi_rule {
	u8		type;		/* enum cfi_rule_type */
	union {
		u16	reg;		/* DWARF register */
		u16	expr_len;	/* expression length, capped at U16_MAX */
	};
	union {
		s32	off;		/* offset */
		s32	expr_off;	/* expression offset in .eh_frame */
	};
};

/* The three cells of a row the walk needs... */
struct cfi_cells {
	struct cfi_rule	cfa;
	struct cfi_rule	ra;
	struct cfi_rule	fp;
};

/* ... and what else the frame rules need. */
struct cfi_row {
	struct cfi_cells cells;
	bool		signal;		/* the CIE has 'S' */
};

int cfi_find_row(const struct eh_frame_section *sec,
		 const struct eh_frame_regs *regs,
		 const struct eh_frame_fde *fde, unsigned long pc,
		 struct cfi_row *row, unsigned int *budget);
int cfi_row_frame(const struct eh_frame_section *sec,
		  const struct eh_frame_regs *regs, const struct cfi_row *row,
		  unsigned long pc, struct unwind_user_frame *frame);

#endif /* _KERNEL_UNWIND_CFI_H */
