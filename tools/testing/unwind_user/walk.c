// SPDX-License-Identifier: GPL-2.0
/*
 * A user space copy of the generic rule application of kernel/unwind/user.c
 * (unwind_user_reg(), unwind_user_apply_rule(), unwind_user_next_common()),
 * for the fuzzer and the benchmark.  Keep it in step with the kernel: the
 * fuzzer's point is to feed it whatever eh_frame_find_frame() can return.
 */
#include <errno.h>

#include <linux/uaccess.h>

#include "walk.h"

/* get_user() of a word of @ws bytes at @base + @off; compat words are u32. */
static int get_user_word(unsigned long *word, unsigned long base, int off,
			 unsigned int ws)
{
	unsigned long addr = base + off;

	if (ws == sizeof(u32)) {
		u32 data;

		if (copy_from_user(&data, (const void __user *)addr, sizeof(data)))
			return -EFAULT;
		*word = data;
		return 0;
	}
	if (copy_from_user(word, (const void __user *)addr, sizeof(*word)))
		return -EFAULT;
	return 0;
}

static int walk_reg(struct walk_state *state,
		    const struct unwind_user_rule *rule, unsigned long *val)
{
	switch (rule->reg) {
	case UNWIND_USER_REG_SP:
		*val = state->sp;
		return 0;
	case UNWIND_USER_REG_FP:
		*val = state->fp;
		return 0;
	case UNWIND_USER_REG_OTHER:
		/* Only pt_regs knows other registers, and only for the topmost frame. */
		if (!state->topmost || !state->get_reg)
			return -EINVAL;
		return state->get_reg(rule->regno, val);
	}
	return -EINVAL;
}

static int walk_apply_rule(struct walk_state *state,
			   const struct unwind_user_rule *rule,
			   unsigned long cfa, unsigned long *val)
{
	unsigned long base;

	switch (rule->type) {
	case UNWIND_USER_RULE_CFA_OFF:
		*val = cfa + rule->off;
		return 0;
	case UNWIND_USER_RULE_CFA_OFF_DEREF:
		return get_user_word(val, cfa, rule->off, state->ws);
	case UNWIND_USER_RULE_REG_OFF:
		if (walk_reg(state, rule, &base))
			return -EINVAL;
		*val = base + rule->off;
		return 0;
	case UNWIND_USER_RULE_REG_OFF_DEREF:
		if (walk_reg(state, rule, &base))
			return -EINVAL;
		return get_user_word(val, base, rule->off, state->ws);
	}
	return -EINVAL;
}

int walk_next(struct walk_state *state, const struct unwind_user_frame *frame)
{
	unsigned long cfa, fp, ra;

	/* Get the Canonical Frame Address (CFA) */
	if (frame->cfa.type != UNWIND_USER_RULE_REG_OFF &&
	    frame->cfa.type != UNWIND_USER_RULE_REG_OFF_DEREF)
		return -EINVAL;
	if (frame->cfa.reg == UNWIND_USER_REG_FP && state->fp < state->sp)
		return -EINVAL;
	if (walk_apply_rule(state, &frame->cfa, 0, &cfa))
		return -EINVAL;

	/* Make sure that stack is not going in wrong direction */
	if (cfa <= state->sp)
		return -EINVAL;

	/* Make sure that the address is word aligned */
	if (cfa & (state->ws - 1))
		return -EINVAL;

	/* Get the Return Address (RA) */
	switch (frame->ra.type) {
	case UNWIND_USER_RULE_UNDEFINED:
		/* The ABI's way of saying this is the outermost frame. */
		state->done = true;
		return 0;
	case UNWIND_USER_RULE_RETAIN:
		return -EINVAL;
	default:
		if (walk_apply_rule(state, &frame->ra, cfa, &ra))
			return -EINVAL;
	}

	/* Get the Frame Pointer (FP) */
	switch (frame->fp.type) {
	case UNWIND_USER_RULE_RETAIN:
		fp = state->fp;
		break;
	case UNWIND_USER_RULE_UNDEFINED:
		fp = 0;
		break;
	default:
		if (walk_apply_rule(state, &frame->fp, cfa, &fp))
			return -EINVAL;
	}

	state->ip = ra;
	state->sp = cfa;
	state->fp = fp;
	state->topmost = false;
	return 0;
}
