/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A user stack walk by kernel/unwind/user.c itself, reading "user memory"
 * through copy_from_user(), with the frame rules the caller supplies (most
 * often from eh_frame_find_frame()).
 */
#ifndef _UNWIND_TEST_WALK_H
#define _UNWIND_TEST_WALK_H

#include <linux/types.h>
#include <linux/unwind_user_types.h>

/*
 * An architecture's own signal trampoline (unwind_user_sigreturn_frame()):
 * its ip, the rules of its frame, and where the registers the signal saved
 * lie from its stack pointer, words by DWARF number (unwind_user_signal_reg();
 * sigregs_off 0: the architecture gives none).
 */
struct walk_sigtramp {
	unsigned long			ip;
	struct unwind_user_frame	frame;
	unsigned long			sigregs_off;
	unsigned int			nr_sigregs;
};

struct walk_state {
	unsigned long	ip;
	unsigned long	sp;
	unsigned long	fp;
	unsigned int	ws;		/* word size: 8, or 4 for compat */
	bool		topmost;
	/* ip is where a signal interrupted the frame, not a return address */
	bool		interrupted;
	/* where that signal saved the registers, if the arch said (sigtramp) */
	unsigned long	sigregs;
	bool		done;
	/*
	 * What unwind_user_get_reg() reads from pt_regs: registers other
	 * than SP and FP, by DWARF number, in the topmost frame only.  NULL
	 * is an arch without the hook.
	 */
	int		(*get_reg)(unsigned int regno, unsigned long *val);
	/* NULL: the arch describes no trampoline, as x86's tables do */
	const struct walk_sigtramp *sigtramp;
};

/*
 * The registry's lookup, for walk_step() and walk_unwind(): the rules of the
 * frame at @pc (the kernel has already moved a return address back into its
 * call), or an error as unwind_user_registry_find_frame() returns them.
 * @budget is the walk's, for eh_frame_find_frame(); it is never 0.
 */
typedef int (*walk_find_t)(unsigned long pc, unsigned int *budget,
			   struct unwind_user_frame *frame);

/* The UNWIND_USER_LOOKUP_* flags of the walk's lookup @find runs for. */
extern unsigned int walk_lookup_flags;

/*
 * Apply @frame to @state as the kernel does: 0 and the caller's ip, sp and
 * fp in @state (or done set, at the outermost frame), or -EINVAL and @state
 * unchanged.
 */
int walk_next(struct walk_state *state, const struct unwind_user_frame *frame);

/*
 * One step of the kernel's walk (unwind_user_next(): the CFI type, with
 * @find as the registry; no frame-pointer convention): 0 with @state moved
 * to the caller, or an error with done set.
 */
int walk_step(struct walk_state *state, walk_find_t find);

/*
 * The kernel's unwind_user() from the registers ip, sp and fp of @state (the
 * task's pt_regs), with @find as the registry: the number of entries it
 * stored in @entries (at most @max).
 */
unsigned int walk_unwind(const struct walk_state *state, walk_find_t find,
			 unsigned long *entries, unsigned int max);

#endif
