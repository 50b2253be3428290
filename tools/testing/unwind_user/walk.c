// SPDX-License-Identifier: GPL-2.0
/*
 * One step of a user stack walk, for the fuzzer and the benchmark:
 * kernel/unwind/user.c compiled unchanged, with the shims of include/, and
 * its unwind_user_next_common() applied to the rules eh_frame_find_frame()
 * returns.  "User memory" is the fake address space of fake_user.c.
 */
#include <errno.h>

/* Compat tasks: 4-byte words on the stack. */
#define CONFIG_COMPAT 1

#include "../../../kernel/unwind/user.c"

#include "walk.h"

struct task_struct walk_task;
static struct walk_state *walk_current;

int walk_get_reg(struct pt_regs *regs, unsigned int regno, unsigned long *val)
{
	if (!walk_current->get_reg)
		return -EINVAL;
	return walk_current->get_reg(regno, val);
}

int walk_next(struct walk_state *st, const struct unwind_user_frame *frame)
{
	struct unwind_user_state state = {
		.ip = st->ip,
		.sp = st->sp,
		.fp = st->fp,
		.ws = st->ws,
		.topmost = st->topmost,
	};
	int ret;

	walk_current = st;
	ret = unwind_user_next_common(&state, frame);
	if (ret)
		return ret;
	st->ip = state.ip;
	st->sp = state.sp;
	st->fp = state.fp;
	st->topmost = state.topmost;
	st->done = state.done;
	return 0;
}
