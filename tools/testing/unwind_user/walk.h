/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One step of a user stack walk with the rules eh_frame_find_frame()
 * returns, by kernel/unwind/user.c's own unwind_user_next_common(), reading
 * "user memory" through copy_from_user().
 */
#ifndef _UNWIND_TEST_WALK_H
#define _UNWIND_TEST_WALK_H

#include <linux/types.h>
#include <linux/unwind_user_types.h>

struct walk_state {
	unsigned long	ip;
	unsigned long	sp;
	unsigned long	fp;
	unsigned int	ws;		/* word size: 8, or 4 for compat */
	bool		topmost;
	bool		done;
	/*
	 * What unwind_user_get_reg() reads from pt_regs: registers other
	 * than SP and FP, by DWARF number, in the topmost frame only.  NULL
	 * is an arch without the hook.
	 */
	int		(*get_reg)(unsigned int regno, unsigned long *val);
};

/*
 * Apply @frame to @state as the kernel does: 0 and the caller's ip, sp and
 * fp in @state (or done set, at the outermost frame), or -EINVAL and @state
 * unchanged.
 */
int walk_next(struct walk_state *state, const struct unwind_user_frame *frame);

#endif
