/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test stand-in for an architecture's <asm/unwind_user.h>.
 *
 * Built with UNWIND_TEST_EXPR_HOOK (the unit tests), it routes
 * unwind_user_eh_frame_expr() to a test double that records its arguments.
 * Built without (the oracle), the generic fallback of kernel/unwind/cfi.h is
 * used, as on an architecture that translates no expressions.
 */
#ifndef _UNWIND_TEST_ASM_UNWIND_USER_H
#define _UNWIND_TEST_ASM_UNWIND_USER_H

#include <linux/types.h>

struct pt_regs;
struct unwind_user_rule;

#ifdef UNWIND_TEST_EXPR_HOOK
int test_eh_frame_expr(u8 op, const u8 *expr, unsigned int len,
		       unsigned long pc, unsigned int ptr_size,
		       struct unwind_user_rule *rule);
#define unwind_user_eh_frame_expr test_eh_frame_expr
#endif

#endif
