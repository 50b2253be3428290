// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: walks by kernel/unwind/user.c itself (walk.c) over a fake
 * stack: realigned frames, signal frames, stack switches, circles and the
 * walk's budget.
 */
#include "unit.h"

/* ------------------------------------------------------------------ */
/* Walks: kernel/unwind/user.c (walk.c) over a fake stack */

#define STK		0x7f0000UL	/* the stack */
#define ALT		0x900000UL	/* a signal stack, above it */
#define LOW		0x200000UL	/* another stack, below it (and the text) */
#define STK_WORDS	512

static unsigned long stk[STK_WORDS], alt[STK_WORDS], low[STK_WORDS];
static unsigned long looked_up[16];
static unsigned int nr_looked_up;

/* The registry: the section of the test, noting each pc looked up. */
static int find_in_sec(unsigned long pc, unsigned int *budget,
		       struct unwind_user_frame *frame)
{
	if (nr_looked_up < ARRAY_SIZE(looked_up))
		looked_up[nr_looked_up] = pc;
	nr_looked_up++;
	return unit_lookup(pc, frame, budget);
}

static void put_word(unsigned long addr, unsigned long val)
{
	if (addr >= STK && addr < STK + sizeof(stk))
		stk[(addr - STK) / 8] = val;
	else if (addr >= ALT && addr < ALT + sizeof(alt))
		alt[(addr - ALT) / 8] = val;
	else if (addr >= LOW && addr < LOW + sizeof(low))
		low[(addr - LOW) / 8] = val;
	else
		abort();
}

/* After setup(): map the stacks, the first @alt_len bytes of the other. */
static void map_stacks(size_t alt_len)
{
	fake_user_map(STK, stk, sizeof(stk));
	fake_user_map(ALT, alt, alt_len);
	fake_user_map(LOW, low, sizeof(low));
}

static void clear_stacks(void)
{
	memset(stk, 0, sizeof(stk));
	memset(alt, 0, sizeof(alt));
	memset(low, 0, sizeof(low));
	nr_looked_up = 0;
}

/* Run unwind_user(); compare what it found, and the pcs it looked up. */
static void expect_walk(int line, const struct walk_state *start,
			const unsigned long *want, unsigned int nr_want,
			const unsigned long *want_pcs, unsigned int nr_pcs)
{
	unsigned long got[16];
	unsigned int nr, i;

	nr_looked_up = 0;
	memset(got, 0, sizeof(got));
	nr = walk_unwind(start, find_in_sec, got, ARRAY_SIZE(got));
	if (nr != nr_want)
		fail(line, "%u frames, want %u", nr, nr_want);
	for (i = 0; i < nr && i < nr_want; i++) {
		if (got[i] != want[i])
			fail(line, "frame %u: %#lx, want %#lx", i, got[i],
			     want[i]);
	}
	if (!want_pcs)
		return;
	if (nr_looked_up != nr_pcs)
		fail(line, "%u lookups, want %u", nr_looked_up, nr_pcs);
	for (i = 0; i < nr_looked_up && i < nr_pcs; i++) {
		if (looked_up[i] != want_pcs[i])
			fail(line, "lookup %u: %#lx, want %#lx", i,
			     looked_up[i], want_pcs[i]);
	}
}

#define EXPECT_WALK(start, want, pcs)					\
	expect_walk(__LINE__, start, want, ARRAY_SIZE(want), pcs,	\
		    ARRAY_SIZE(pcs))
/* The same, whatever it looked up */
#define EXPECT_WALK_TO(start, want)					\
	expect_walk(__LINE__, start, want, ARRAY_SIZE(want), NULL, 0)

/* The functions of the walks, and their FDEs. */
#define FN_DRAP		F0			/* drap_insns */
#define FN_CALLER	(F0 + 0x100)		/* push %rbp at +0 */
#define FN_START	(F0 + 0x200)		/* the outermost: RA undefined */
#define FN_R10		(F0 + 0x300)		/* CFA = *(r10 - 8) */
#define FN_HANDLER	(F0 + 0x400)		/* a signal handler */
#define FN_RESTORE	(F0 + 0x501)		/* __restore_rt, FDE at -1 */
#define FN_A		(F0 + 0x600)		/* CFA = sp + 48 */
#define FN_B		(F0 + 0x610)		/* right after A: sp + 8 */
#define FN_SWITCH	(F0 + 0x780)		/* CFA = *(rbp - 16) */

static const u8 caller_insns[] = {
	DW_CFA_advance_loc | 1, DW_CFA_def_cfa_offset, 16, DW_CFA_offset | 6, 2,
};

static const u8 start_insns[] = { DW_CFA_undefined, 16 };
static const u8 r10_insns[] = {
	DW_CFA_def_cfa_expression, 3, OP_R10, 0x78, DW_OP_deref,
};

static const u8 a_insns[] = { DW_CFA_def_cfa_offset, 48 };
/* Wine 8.0's syscall dispatcher around its call, on a stack of its own. */
static const u8 switch_insns[] = {
	DW_CFA_def_cfa_expression, 3, DW_OP_breg0 + 6, 0x70, DW_OP_deref,
	DW_CFA_expression, 16, 2, DW_OP_breg0 + 6, 0x58,	/* rbp - 40 */
	DW_CFA_expression, 6, 2, DW_OP_breg0 + 6, 0,
};

static const u8 nothing_insns[] = { DW_CFA_nop };

/* All of them, the signal trampoline with 'S' in its CIE or not. */
static void build_walk_sec(bool signal)
{
	const struct {
		unsigned long pc, len;
		const u8 *insns;
		size_t insns_len;
	} fns[] = {
		{ FN_DRAP, 0x100, drap_insns, drap_insns_len },
		{ FN_CALLER, 0x100, caller_insns, sizeof(caller_insns) },
		{ FN_START, 0x40, start_insns, sizeof(start_insns) },
		{ FN_R10, 0x40, r10_insns, sizeof(r10_insns) },
		{ FN_HANDLER, 0x100, nothing_insns, sizeof(nothing_insns) },
		{ FN_A, 0x10, a_insns, sizeof(a_insns) },
		{ FN_B, 0x100, nothing_insns, sizeof(nothing_insns) },
		{ FN_SWITCH, 0x40, switch_insns, sizeof(switch_insns) },
	};
	struct cie_opts c = default_cie();
	struct fde_opts f;
	size_t cie_off;
	unsigned int i;

	reset(8);
	cie_off = add_cie(&T, &c);
	for (i = 0; i < ARRAY_SIZE(fns); i++) {
		f = default_fde(fns[i].pc, fns[i].len, fns[i].insns,
				fns[i].insns_len);
		add_fde(&T, cie_off, &f);
	}
	c = restore_rt_cie(signal ? "zRS" : "zR");
	cie_off = add_cie(&T, &c);
	f = default_fde(FN_RESTORE - 1, 10, restore_rt_insns,
			restore_rt_insns_len);
	add_fde(&T, cie_off, &f);
	add_terminator(&T);
}

static unsigned long walk_r10;

static int get_r10(unsigned int regno, unsigned long *val)
{
	if (regno != 10)
		return -EINVAL;
	*val = walk_r10;
	return 0;
}

/* A realigned frame: its CFA is loaded from below the frame pointer. */
static void test_walk_drap(void)
{
	/* In FN_DRAP after its prologue: sp realigned, rbp above it. */
	const unsigned long sp = STK + 0x100, fp = STK + 0x140;
	const unsigned long cfa = STK + 0x200, caller_fp = STK + 0x300;
	const struct walk_state start = {
		.ip = FN_DRAP + 0x20, .sp = sp, .fp = fp, .ws = 8,
		.topmost = true,
	};
	const unsigned long want[] = {
		FN_DRAP + 0x20, FN_CALLER + 0x11, FN_START + 0x9,
	};
	const unsigned long want_pcs[] = {
		FN_DRAP + 0x20, FN_CALLER + 0x10, FN_START + 0x8,
	};
	struct walk_state st = start;

	build_walk_sec(true);
	EXPECT_INIT(0);
	clear_stacks();
	map_stacks(sizeof(alt));
	put_word(fp - 8, cfa);			/* push %r10 */
	put_word(fp, caller_fp);		/* push %rbp */
	put_word(cfa - 8, FN_CALLER + 0x11);	/* the return address */
	/* FN_CALLER: CFA = sp + 16, rbp at CFA - 16, RA at CFA - 8 */
	put_word(cfa, 0);
	put_word(cfa + 8, FN_START + 0x9);

	EXPECT_WALK(&start, want, want_pcs);
	/* Step by step: sp is the loaded CFA, rbp the one saved at rbp. */
	CHECK(!walk_step(&st, find_in_sec) && st.ip == FN_CALLER + 0x11 &&
	      st.sp == cfa && st.fp == caller_fp && !st.interrupted,
	      "step: ip %#lx sp %#lx fp %#lx", st.ip, st.sp, st.fp);
	CHECK(!walk_step(&st, find_in_sec) && st.sp == cfa + 16 && !st.fp,
	      "step 2: sp %#lx fp %#lx", st.sp, st.fp);
	CHECK(!walk_step(&st, find_in_sec) && st.done, "outermost");

	/* The rbp slot unreadable: the walk stops at the realigned frame. */
	{
		const struct walk_state far = {
			.ip = FN_DRAP + 0x20, .sp = sp, .fp = STK + 0x10000,
			.ws = 8, .topmost = true,
		};
		const unsigned long one[] = { FN_DRAP + 0x20 };
		const unsigned long one_pc[] = { FN_DRAP + 0x20 };

		st = far;
		EXPECT_WALK(&far, one, one_pc);
		CHECK(walk_step(&st, find_in_sec) == -EINVAL && st.done,
		      "fault: not done");
	}

	/* ... or further up, in a caller: the frames found so far stay. */
	{
		const unsigned long csp = STK + 0x80;
		const struct walk_state from_caller = {
			.ip = FN_CALLER + 0x20, .sp = csp, .fp = 0, .ws = 8,
			.topmost = true,
		};
		const unsigned long two[] = {
			FN_CALLER + 0x20, FN_DRAP + 0x30,
		};

		put_word(csp, STK + 0x10000);	/* rbp: past the stack */
		put_word(csp + 8, FN_DRAP + 0x30);
		EXPECT_WALK_TO(&from_caller, two);
	}
}

UNIT_TEST(test_walk_drap, "walk: a realigned (DRAP) frame, a fault in it", 0);

/* The CFA in another register, which only pt_regs has. */
static void test_walk_drap_reg(void)
{
	const unsigned long sp = STK + 0x100, cfa = STK + 0x200;
	const struct walk_state start = {
		.ip = FN_R10 + 4, .sp = sp, .fp = 0, .ws = 8,
		.topmost = true, .get_reg = get_r10,
	};
	struct walk_state no_hook = start;
	const unsigned long want[] = {
		FN_R10 + 4, FN_CALLER + 0x11, FN_START + 0x9,
	};
	const unsigned long one[] = { FN_R10 + 4 };
	const unsigned long two[] = { FN_CALLER + 0x20, FN_R10 + 0x10 };

	build_walk_sec(true);
	EXPECT_INIT(0);
	clear_stacks();
	map_stacks(sizeof(alt));
	walk_r10 = STK + 0x180;
	put_word(walk_r10 - 8, cfa);
	put_word(cfa - 8, FN_CALLER + 0x11);
	put_word(cfa + 8, FN_START + 0x9);
	EXPECT_WALK_TO(&start, want);

	/* An arch that cannot read it: the walk stops there. */
	no_hook.get_reg = NULL;
	EXPECT_WALK_TO(&no_hook, one);

	/* Nor can anyone in a caller's frame. */
	{
		const struct walk_state caller = {
			.ip = FN_CALLER + 0x20, .sp = STK + 0x80, .fp = 0,
			.ws = 8, .topmost = true, .get_reg = get_r10,
		};

		put_word(STK + 0x88, FN_R10 + 0x10);
		EXPECT_WALK_TO(&caller, two);
	}
}

UNIT_TEST(test_walk_drap_reg, "walk: a CFA in another register, topmost frame only",
	  0);

/*
 * A signal handler on an alternate stack, above the interrupted one, and
 * glibc's trampoline, whose frame is the ucontext.  The interrupted
 * function is FN_B, at its first instruction: pc - 1 is in FN_A.
 */
static void setup_signal(bool signal, size_t alt_len)
{
	const unsigned long sp = ALT + 0x100, uc = sp + 8;
	const unsigned long int_sp = STK + 0x100;

	build_walk_sec(signal);
	EXPECT_INIT(0);
	clear_stacks();
	map_stacks(alt_len);
	put_word(sp, FN_RESTORE);		/* the handler's RA */
	put_word(uc + 120, 0x1234);		/* rbp */
	put_word(uc + 160, int_sp);		/* rsp */
	put_word(uc + 168, FN_B);		/* rip */
	/* FN_B's frame: its RA at the sp; FN_A's would be at sp + 40. */
	put_word(int_sp, FN_START + 0x9);
	put_word(int_sp + 40, FN_CALLER + 0x11);
}

static void test_walk_signal(void)
{
	const struct walk_state start = {
		.ip = FN_HANDLER + 0x10, .sp = ALT + 0x100, .fp = 0, .ws = 8,
		.topmost = true,
	};
	const unsigned long want[] = {
		FN_HANDLER + 0x10, FN_RESTORE, FN_B, FN_START + 0x9,
	};
	/* The interrupted pc as it is, not minus one */
	const unsigned long want_pcs[] = {
		FN_HANDLER + 0x10, FN_RESTORE - 1, FN_B, FN_START + 0x8,
	};
	const unsigned long stopped[] = { FN_HANDLER + 0x10, FN_RESTORE };
	struct walk_state st = start;
	int ret;

	setup_signal(true, sizeof(alt));
	EXPECT_WALK(&start, want, want_pcs);
	CHECK(!walk_step(&st, find_in_sec) && st.ip == FN_RESTORE &&
	      !st.interrupted, "handler");
	ret = walk_step(&st, find_in_sec);
	CHECK(!ret && st.ip == FN_B && st.sp == STK + 0x100 &&
	      st.fp == 0x1234 && st.interrupted,
	      "signal frame: %s, ip %#lx sp %#lx fp %#lx", err_name(ret),
	      st.ip, st.sp, st.fp);
	CHECK(!walk_step(&st, find_in_sec) && st.ip == FN_START + 0x9 &&
	      !st.interrupted, "interrupted frame");

	/*
	 * Without 'S' the same frame is an ordinary one.  Its CFA, loaded
	 * from the ucontext, is below the sp: a stack switch, which the walk
	 * follows, but it takes the interrupted pc for a return address and
	 * looks up the byte before it, in FN_A, whose rules are not FN_B's.
	 */
	{
		const unsigned long ordinary[] = {
			FN_HANDLER + 0x10, FN_RESTORE, FN_B, FN_CALLER + 0x11,
		};
		const unsigned long ordinary_pcs[] = {
			FN_HANDLER + 0x10, FN_RESTORE - 1, FN_B - 1, FN_CALLER + 0x10,
		};

		setup_signal(false, sizeof(alt));
		EXPECT_WALK(&start, ordinary, ordinary_pcs);
	}

	/* On the same stack (CFA above sp), it goes on, looking up pc - 1. */
	{
		const struct walk_state low = {
			.ip = FN_HANDLER + 0x10, .sp = STK + 0x20, .fp = 0,
			.ws = 8, .topmost = true,
		};
		/* FN_A's rule finds FN_CALLER, whose caller is FN_START */
		const unsigned long wrong[] = {
			FN_HANDLER + 0x10, FN_RESTORE, FN_B, FN_CALLER + 0x11,
			FN_START + 0x9,
		};
		const unsigned long wrong_pcs[] = {
			FN_HANDLER + 0x10, FN_RESTORE - 1, FN_B - 1,
			FN_CALLER + 0x10, FN_START + 0x8,
		};
		const unsigned long right[] = {
			FN_HANDLER + 0x10, FN_RESTORE, FN_B, FN_START + 0x9,
		};
		const unsigned long uc = STK + 0x28;
		unsigned int i;

		for (i = 0; i < 2; i++) {
			setup_signal(i, sizeof(alt));
			put_word(STK + 0x20, FN_RESTORE);
			put_word(uc + 160, STK + 0x100);
			put_word(uc + 168, FN_B);
			put_word(STK + 0x100 + 48 + 8, FN_START + 0x9);
			if (i)
				EXPECT_WALK_TO(&low, right);
			else
				EXPECT_WALK(&low, wrong, wrong_pcs);
		}
	}

	/* The ucontext cut short before rsp, then before rip: it stops. */
	setup_signal(true, 0x100 + 8 + 160);
	EXPECT_WALK_TO(&start, stopped);
	st = start;
	CHECK(!walk_step(&st, find_in_sec), "handler");
	CHECK(walk_step(&st, find_in_sec) == -EINVAL && st.done,
	      "rsp unreadable");
	setup_signal(true, 0x100 + 8 + 168);
	EXPECT_WALK_TO(&start, stopped);
	setup_signal(true, 0x100 + 8 + 176);
	EXPECT_WALK_TO(&start, want);
}

UNIT_TEST(test_walk_signal, "walk: a signal frame, its interrupted pc, an alternate stack",
	  0);

/*
 * A signal that interrupted a leaf, one that keeps its return address in a
 * register (arm64's x30, s390's r14; here register 10 of the section's
 * numbering): the arch's trampoline at FN_TRAMP, whose frame (at the
 * handler's CFA) holds the interrupted sp, pc and fp at +16, +24 and +32
 * and the registers from +64.  FN_LEAF is not in the section: find_leaf()
 * gives its rules.
 */
#define FN_LEAF		(F0 + 0x800)
#define FN_TRAMP	(F0 + 0x880)
#define SIGREGS_OFF	64

static int find_leaf(unsigned long pc, unsigned int *budget,
		     struct unwind_user_frame *frame)
{
	if (pc < FN_LEAF || pc >= FN_LEAF + 0x40)
		return find_in_sec(pc, budget, frame);
	*frame = (struct unwind_user_frame) {
		.cfa = { .type = UNWIND_USER_RULE_REG_OFF,
			 .reg = UNWIND_USER_REG_SP, .off = 8 },
		.ra  = { .type = UNWIND_USER_RULE_REG_OFF,
			 .reg = UNWIND_USER_REG_OTHER, .regno = 10 },
		.fp  = { .type = UNWIND_USER_RULE_RETAIN },
	};
	return 0;
}

static unsigned int walk_leaf(const struct walk_state *start,
			      unsigned long *got, unsigned int max)
{
	memset(got, 0, max * sizeof(*got));
	return walk_unwind(start, find_leaf, got, max);
}

static void test_walk_signal_leaf(void)
{
	const unsigned long frame = ALT + 0x108, int_sp = STK + 0x100;
	struct walk_sigtramp tramp = {
		.ip = FN_TRAMP,
		.frame = {
			.cfa = { .type = UNWIND_USER_RULE_REG_OFF_DEREF,
				 .reg = UNWIND_USER_REG_SP, .off = 16 },
			.ra  = { .type = UNWIND_USER_RULE_REG_OFF_DEREF,
				 .reg = UNWIND_USER_REG_SP, .off = 24 },
			.fp  = { .type = UNWIND_USER_RULE_REG_OFF_DEREF,
				 .reg = UNWIND_USER_REG_SP, .off = 32 },
			.signal = true,
		},
		.sigregs_off = SIGREGS_OFF,
		.nr_sigregs = 16,
	};
	const struct walk_state start = {
		.ip = FN_HANDLER + 0x10, .sp = ALT + 0x100, .fp = 0, .ws = 8,
		.topmost = true, .sigtramp = &tramp,
	};
	const unsigned long whole[] = {
		FN_HANDLER + 0x10, FN_TRAMP, FN_LEAF + 4, FN_CALLER + 0x11,
		FN_START + 0x9,
	};
	struct walk_state st = start;
	unsigned long got[16];
	unsigned int nr, i;
	int ret;

	build_walk_sec(true);
	EXPECT_INIT(0);
	clear_stacks();
	map_stacks(sizeof(alt));
	put_word(ALT + 0x100, FN_TRAMP);		/* the handler's RA */
	put_word(frame + 16, int_sp);
	put_word(frame + 24, FN_LEAF + 4);
	put_word(frame + 32, 0x1234);
	put_word(frame + SIGREGS_OFF + 10 * 8, FN_CALLER + 0x11);
	/* FN_CALLER + 0x11: CFA = sp + 16, its RA at CFA - 8 */
	put_word(int_sp + 16, FN_START + 0x9);

	/* Register 10 of the leaf, from the signal frame. */
	nr = walk_leaf(&start, got, ARRAY_SIZE(got));
	for (i = 0; i < nr && i < ARRAY_SIZE(whole) && got[i] == whole[i]; i++)
		;
	CHECK(nr == ARRAY_SIZE(whole) && i == nr,
	      "%u frames (%u right), want %zu", nr, i, ARRAY_SIZE(whole));

	/* Step by step: the register area serves the interrupted frame. */
	CHECK(!walk_step(&st, find_leaf) && st.ip == FN_TRAMP && !st.sigregs,
	      "handler: ip %#lx sigregs %#lx", st.ip, st.sigregs);
	ret = walk_step(&st, find_leaf);
	CHECK(!ret && st.ip == FN_LEAF + 4 && st.sp == int_sp &&
	      st.fp == 0x1234 && st.interrupted &&
	      st.sigregs == frame + SIGREGS_OFF,
	      "signal frame: %s, ip %#lx sp %#lx sigregs %#lx",
	      err_name(ret), st.ip, st.sp, st.sigregs);
	ret = walk_step(&st, find_leaf);
	CHECK(!ret && st.ip == FN_CALLER + 0x11 && st.sp == int_sp + 8 &&
	      !st.interrupted && !st.sigregs,
	      "leaf: %s, ip %#lx sp %#lx", err_name(ret), st.ip, st.sp);

	/* An arch that saves no registers: the walk ends at the leaf. */
	tramp.sigregs_off = 0;
	nr = walk_leaf(&start, got, ARRAY_SIZE(got));
	CHECK(nr == 3 && got[2] == FN_LEAF + 4,
	      "no sigregs: %u frames, last %#lx", nr, nr ? got[nr - 1] : 0);
	tramp.sigregs_off = SIGREGS_OFF;

	/* A register the arch does not save: the same. */
	tramp.nr_sigregs = 10;
	nr = walk_leaf(&start, got, ARRAY_SIZE(got));
	CHECK(nr == 3, "register 10 not saved: %u frames", nr);
	tramp.nr_sigregs = 16;

	/* The register area cut off the stack: the same, no more. */
	build_walk_sec(true);
	EXPECT_INIT(0);
	map_stacks(frame + SIGREGS_OFF + 10 * 8 - ALT);
	nr = walk_leaf(&start, got, ARRAY_SIZE(got));
	CHECK(nr == 3, "register area unmapped: %u frames", nr);
	build_walk_sec(true);
	EXPECT_INIT(0);
	map_stacks(sizeof(alt));

	/*
	 * Only the interrupted frame has them: a leaf's rules in its
	 * caller (interrupted at FN_CALLER + 0x11, returning to FN_LEAF)
	 * cannot read register 10, and the walk ends there.
	 */
	put_word(frame + 24, FN_CALLER + 0x11);
	put_word(int_sp + 8, FN_LEAF + 8);
	nr = walk_leaf(&start, got, ARRAY_SIZE(got));
	CHECK(nr == 4 && got[2] == FN_CALLER + 0x11 && got[3] == FN_LEAF + 8,
	      "leaf below an interrupted caller: %u frames, last %#lx", nr,
	      nr ? got[nr - 1] : 0);
}

UNIT_TEST(test_walk_signal_leaf, "walk: a leaf's return address in a register a signal saved",
	  0);

/*
 * A dispatcher that switched stacks (Wine's, from a Windows thread's stack
 * to its own) and saved its caller's sp and rbp in a frame its rbp points
 * into: its CFA is loaded from memory, and lies below the sp.  FN_B, a
 * leaf on the dispatcher's stack, is where the sample is.
 */
static void test_walk_stack_switch(void)
{
	const unsigned long sp = STK + 0x100, fp = STK + 0x200;
	const unsigned long low_sp = LOW + 0x100;
	const struct walk_state start = {
		.ip = FN_B + 0x10, .sp = sp, .fp = fp, .ws = 8, .topmost = true,
	};
	const unsigned long want[] = {
		FN_B + 0x10, FN_SWITCH + 0x20, FN_CALLER + 0x11, FN_START + 0x9,
	};
	const unsigned long fp1 = STK + 0x300, fp2 = STK + 0x380;
	struct walk_state st = start;
	unsigned long got[64];
	unsigned int nr, i;

	build_walk_sec(true);
	EXPECT_INIT(0);
	clear_stacks();
	map_stacks(sizeof(alt));
	put_word(sp, FN_SWITCH + 0x20);		/* FN_B's return address */
	put_word(fp - 16, low_sp);		/* the caller's sp */
	put_word(fp - 40, FN_CALLER + 0x11);	/* ... its return address */
	put_word(fp, 0x4242);			/* ... and its rbp */
	put_word(low_sp, 0);			/* FN_CALLER: rbp, RA */
	put_word(low_sp + 8, FN_START + 0x9);
	EXPECT_WALK_TO(&start, want);
	CHECK(!walk_step(&st, find_in_sec) && !walk_step(&st, find_in_sec) &&
	      st.ip == FN_CALLER + 0x11 && st.sp == low_sp && st.fp == 0x4242,
	      "switched: ip %#lx sp %#lx fp %#lx", st.ip, st.sp, st.fp);

	/*
	 * Two such frames whose saved rbps point at each other, each with
	 * the other's CFA: every other frame goes down.  The walk follows
	 * UNWIND_USER_MAX_STACK_SWITCHES of them, then stops.
	 */
	put_word(sp, FN_SWITCH + 0x20);
	put_word(fp1, fp2);
	put_word(fp1 - 16, low_sp);
	put_word(fp1 - 40, FN_SWITCH + 0x20);
	put_word(fp2, fp1);
	put_word(fp2 - 16, low_sp + 0x80);
	put_word(fp2 - 40, FN_SWITCH + 0x20);
	st = start;
	st.fp = fp1;
	nr = walk_unwind(&st, find_in_sec, got, ARRAY_SIZE(got));
	for (i = 1; i < nr && got[i] == FN_SWITCH + 0x20; i++)
		;
	CHECK(nr == 2 + 2 * UNWIND_USER_MAX_STACK_SWITCHES && i == nr,
	      "%u frames (%u of the circle), want %u", nr, i,
	      2 + 2 * UNWIND_USER_MAX_STACK_SWITCHES);
}

UNIT_TEST(test_walk_stack_switch, "walk: a CFA loaded from another stack, below; a circle",
	  0);

/*
 * Frames whose rules lead the walk in a circle.  A signal frame may keep
 * the CFA where it is, or move it down: FN_LOOP's ('S') unwinds to itself
 * when its return address slot holds FN_LOOP; with FN_DOWN ('S', CFA =
 * sp - 8) and FN_UP (CFA = sp + 8) the walk alternates between two frames
 * with no frame repeated.  FN_DOWN's FDE is long: CFI_NOPS instructions
 * before the row for its pc, so that each lookup of it is expensive.
 */
#define FN_LOOP		(F0 + 0x800)
#define FN_DOWN		(F0 + 0x900)
#define FN_UP		(F0 + 0xa00)
#define CFI_NOPS	8000

static void build_loop_sec(void)
{
	static const u8 loop_cie[] = {
		DW_CFA_def_cfa, 7, 0, DW_CFA_offset_extended_sf, 16, 0,
	};
	static const u8 down_cie[] = {
		DW_CFA_def_cfa_sf, 7, 1, DW_CFA_offset_extended_sf, 16, 0,
	};
	static const u8 up_insns[] = {
		DW_CFA_def_cfa_offset, 8, DW_CFA_offset_extended_sf, 16, 0,
	};
	static u8 nops[CFI_NOPS];
	struct cie_opts c = restore_rt_cie("zRS");
	struct fde_opts f;
	size_t cie_off;

	reset(8);
	c.insns = loop_cie;
	c.insns_len = sizeof(loop_cie);
	cie_off = add_cie(&T, &c);
	f = default_fde(FN_LOOP, 0x100, nothing_insns, sizeof(nothing_insns));
	add_fde(&T, cie_off, &f);

	c.insns = down_cie;
	c.insns_len = sizeof(down_cie);
	cie_off = add_cie(&T, &c);
	memset(nops, DW_CFA_nop, sizeof(nops));
	f = default_fde(FN_DOWN, 0x100, nops, sizeof(nops));
	add_fde(&T, cie_off, &f);

	c = default_cie();
	cie_off = add_cie(&T, &c);
	f = default_fde(FN_UP, 0x100, up_insns, sizeof(up_insns));
	add_fde(&T, cie_off, &f);
	add_terminator(&T);
}

static void test_walk_loops(void)
{
	const unsigned long sp = STK + 0x100;
	const struct walk_state loop = {
		.ip = FN_LOOP + 0x10, .sp = sp, .ws = 8, .topmost = true,
	};
	const struct walk_state down = {
		.ip = FN_DOWN + 0x10, .sp = sp, .ws = 8, .topmost = true,
	};
	const unsigned long once[] = { FN_LOOP + 0x10 };
	unsigned long got[64];
	unsigned int nr, downs;

	build_loop_sec();
	EXPECT_INIT(0);
	clear_stacks();
	map_stacks(sizeof(alt));

	/* A frame that unwinds to itself ends the walk at once. */
	put_word(sp, FN_LOOP + 0x10);
	EXPECT_WALK_TO(&loop, once);

	/*
	 * Two frames in a circle: each lookup of FN_DOWN runs CFI_NOPS
	 * instructions.  The walk stops once the budget is spent, far below
	 * the entry limit, having run at most the budget.
	 */
	put_word(sp - 8, FN_UP + 0x10);
	put_word(sp, FN_DOWN + 0x10);
	nr_looked_up = 0;
	nr = walk_unwind(&down, find_in_sec, got, ARRAY_SIZE(got));
	downs = (nr + 1) / 2;
	CHECK(got[0] == FN_DOWN + 0x10 && got[1] == FN_UP + 0x10 &&
	      got[2] == FN_DOWN + 0x10, "the walk did not go round: %#lx %#lx %#lx",
	      got[0], got[1], got[2]);
	CHECK(nr < ARRAY_SIZE(got), "%u frames: the walk went on to the limit", nr);
	CHECK((downs - 1) * CFI_NOPS <= UNWIND_USER_TABLE_BUDGET &&
	      (downs + 1) * CFI_NOPS > UNWIND_USER_TABLE_BUDGET,
	      "%u frames, %u lookups of FN_DOWN for a budget of %u", nr, downs,
	      UNWIND_USER_TABLE_BUDGET);
}

UNIT_TEST(test_walk_loops, "walk: frames in a circle, the walk's budget", 0);

/*
 * A hit costs the walk what the lookup cost: frames in a circle, cached,
 * end the walk where they end it uncached, with the same chain, cold or
 * warm (the cache must not outrun the walk's budget).
 */
static void test_cache_circle(void)
{
	const unsigned long sp = STK + 0x100;
	const struct walk_state down = {
		.ip = FN_DOWN + 0x10, .sp = sp, .ws = 8, .topmost = true,
	};
	unsigned long want[64], got[64];
	unsigned int nr, n, pass;

	build_loop_sec();
	EXPECT_INIT(0);
	clear_stacks();
	map_stacks(sizeof(alt));
	put_word(sp - 8, FN_UP + 0x10);
	put_word(sp, FN_DOWN + 0x10);
	nr = walk_unwind(&down, find_in_sec, want, ARRAY_SIZE(want));
	CHECK(nr > 2 && nr < ARRAY_SIZE(want), "uncached: %u frames", nr);

	unit_cache = unwind_user_cache_alloc();
	CHECK(unit_cache, "no cache");
	if (!unit_cache)
		return;
	for (pass = 0; pass < 2; pass++) {
		memset(got, 0, sizeof(got));
		n = walk_unwind(&down, find_cached, got, ARRAY_SIZE(got));
		CHECK(n == nr && !memcmp(got, want, nr * sizeof(got[0])),
		      "%s: %u frames, uncached %u", pass ? "warm" : "cold", n, nr);
	}
	unwind_user_cache_free(unit_cache);
	unit_cache = NULL;
}

UNIT_TEST(test_cache_circle, "row cache: a circle of cached frames, the walk's budget",
	  0);
