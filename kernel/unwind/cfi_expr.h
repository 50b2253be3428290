/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frame rule a DWARF expression of a CFI row amounts to, found without
 * running it: see cfi_expr.c for the accepted subset.
 */
#ifndef _KERNEL_UNWIND_CFI_EXPR_H
#define _KERNEL_UNWIND_CFI_EXPR_H

#include <linux/types.h>
#include <linux/unwind_user_types.h>

#include "eh_frame.h"

/* Operators one expression may have, and values on its stack. */
#define CFI_EXPR_MAX_OPS	16
#define CFI_EXPR_MAX_STACK	8

int cfi_expr_rule(u8 op, const u8 *expr, unsigned int len, unsigned long pc,
		  const struct eh_frame_regs *regs, struct unwind_user_rule *rule,
		  u16 *regno);

#endif /* _KERNEL_UNWIND_CFI_EXPR_H */
