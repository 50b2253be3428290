/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test stand-in for an architecture's <asm/unwind_user.h>: what
 * kernel/unwind/user.c needs of it (walk.c), for a 64-bit task.
 */
#ifndef _UNWIND_TEST_ASM_UNWIND_USER_H
#define _UNWIND_TEST_ASM_UNWIND_USER_H

#include <linux/types.h>

struct pt_regs;

/* For kernel/unwind/user.c (walk.c): a 64-bit task, registers in walk_task. */
#define instruction_pointer(regs)	((regs)->ip)
#define user_stack_pointer(regs)	((regs)->sp)
#define frame_pointer(regs)		((regs)->bp)

static inline bool user_mode(struct pt_regs *regs)
{
	return true;
}

static inline int unwind_user_word_size(struct pt_regs *regs)
{
	return sizeof(long);
}

/* Other registers of the topmost frame come from the walk's own hook. */
int walk_get_reg(struct pt_regs *regs, unsigned int regno, unsigned long *val);
#define unwind_user_get_reg walk_get_reg

#endif
