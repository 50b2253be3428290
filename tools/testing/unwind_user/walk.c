// SPDX-License-Identifier: GPL-2.0
/*
 * A user stack walk, for the unit tests, the fuzzer and the benchmark:
 * kernel/unwind/user.c compiled unchanged, with the shims of include/.  Its
 * registry lookup is the caller's function; "user memory" is the fake
 * address space of fake_user.c.
 */
#include <errno.h>
#include <linux/kernel.h>
#include <linux/types.h>

/* Compat tasks: 4-byte words on the stack. */
#define CONFIG_COMPAT 1

/*
 * The registry of the real header (its stubs: no CONFIG_UNWIND_USER_EH_FRAME),
 * then user.c's calls into it renamed to the functions below.
 */
#include <linux/unwind_user_registry.h>

static bool walk_mm_has_tables(struct mm_struct *mm);
static int walk_registry_find_frame(unsigned long pc, unsigned int ws,
				    unsigned int flags, unsigned int *budget,
				    struct unwind_user_table_hint *hint,
				    struct unwind_user_frame *frame);
#define unwind_user_mm_has_tables	walk_mm_has_tables
#define unwind_user_registry_find_frame	walk_registry_find_frame

/* The arch's signal trampoline, the one of the walk_state, if any. */
struct unwind_user_frame;
static bool walk_sigreturn_frame(unsigned long ip,
				 struct unwind_user_frame *frame,
				 unsigned long *sigregs_off);
static int walk_signal_reg(unsigned long sigregs, unsigned int regno,
			   unsigned long *val);
#define unwind_user_sigreturn_frame	walk_sigreturn_frame
#define unwind_user_signal_reg		walk_signal_reg

#include "../../../kernel/unwind/user.c"

#include "walk.h"

static struct signal_struct walk_signal;
struct task_struct walk_task = { .signal = &walk_signal };
static const struct walk_state *walk_current;
static walk_find_t walk_find;
unsigned int walk_lookup_flags;

static bool walk_mm_has_tables(struct mm_struct *mm)
{
	return walk_find;
}

static int walk_registry_find_frame(unsigned long pc, unsigned int ws,
				    unsigned int flags, unsigned int *budget,
				    struct unwind_user_table_hint *hint,
				    struct unwind_user_frame *frame)
{
	if (!walk_find || ws != walk_current->ws)
		return -ENOENT;
	/* As the registry does: a spent budget refuses the lookup. */
	if (!*budget)
		return -EOPNOTSUPP;
	walk_lookup_flags = flags;
	return walk_find(pc, budget, frame);
}

int walk_get_reg(struct pt_regs *regs, unsigned int regno, unsigned long *val)
{
	if (!walk_current->get_reg)
		return -EINVAL;
	return walk_current->get_reg(regno, val);
}

static bool walk_sigreturn_frame(unsigned long ip,
				 struct unwind_user_frame *frame,
				 unsigned long *sigregs_off)
{
	const struct walk_sigtramp *t = walk_current->sigtramp;

	if (!t || ip != t->ip)
		return false;
	*frame = t->frame;
	*sigregs_off = t->sigregs_off;
	return true;
}

static int walk_signal_reg(unsigned long sigregs, unsigned int regno,
			   unsigned long *val)
{
	const struct walk_sigtramp *t = walk_current->sigtramp;

	if (!t || regno >= t->nr_sigregs)
		return -EINVAL;
	return get_user(*val, (unsigned long __user *)(sigregs + regno * 8));
}

static void walk_to_kernel(const struct walk_state *st,
			   struct unwind_user_state *state)
{
	memset(state, 0, sizeof(*state));
	state->ip = st->ip;
	state->sp = st->sp;
	state->fp = st->fp;
	state->ws = st->ws;
	state->topmost = st->topmost;
	state->interrupted = st->interrupted;
	state->sigregs = st->sigregs;
	state->done = st->done;
}

static void walk_from_kernel(struct walk_state *st,
			     const struct unwind_user_state *state)
{
	st->ip = state->ip;
	st->sp = state->sp;
	st->fp = state->fp;
	st->topmost = state->topmost;
	st->interrupted = state->interrupted;
	st->sigregs = state->sigregs;
	st->done = state->done;
}

int walk_next(struct walk_state *st, const struct unwind_user_frame *frame)
{
	struct unwind_user_state state;
	int ret;

	walk_current = st;
	walk_to_kernel(st, &state);
	ret = unwind_user_next_common(&state, frame);
	if (ret)
		return ret;
	walk_from_kernel(st, &state);
	return 0;
}

int walk_step(struct walk_state *st, walk_find_t find)
{
	struct unwind_user_state state;
	int ret;

	walk_current = st;
	walk_find = find;
	walk_to_kernel(st, &state);
	state.budget = UNWIND_USER_TABLE_BUDGET;
	state.available_types = UNWIND_USER_TYPE_CFI;
	ret = unwind_user_next(&state);
	walk_from_kernel(st, &state);
	walk_find = NULL;
	return ret;
}

unsigned int walk_unwind(const struct walk_state *st, walk_find_t find,
			 unsigned long *entries, unsigned int max)
{
	struct unwind_stacktrace trace = { .entries = entries };

	walk_current = st;
	walk_find = find;
	memset(&walk_task, 0, sizeof(walk_task));
	walk_task.signal = &walk_signal;
	walk_task.regs.ip = st->ip;
	walk_task.regs.sp = st->sp;
	walk_task.regs.bp = st->fp;
	unwind_user(&trace, max);
	walk_find = NULL;
	return trace.nr;
}
