// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: DWARF expressions of CFI rows (cfi_expr.c, and cfi.c around it).
 */
#include "unit.h"

/* ------------------------------------------------------------------ */
/* DWARF expressions (cfi_expr.c) */

/*
 * What eh_frame_find_frame() returns for an expression cfi_expr_rule()
 * fails with @err: -EOPNOTSUPP, malformed or not.  cfi.c has checked that
 * the expression lies inside its FDE, so a bad one costs its frame only,
 * never the object's table.
 */
static int engine_err(int err)
{
	return err ? -EOPNOTSUPP : 0;
}

/* Append @op (and @reg, but for the CFA) with the expression @expr. */
static void put_expr_insn(struct buf *b, u8 op, u16 reg, const u8 *expr,
			  size_t len)
{
	put_u8(b, op);
	if (op != DW_CFA_def_cfa_expression)
		put_uleb(b, reg);
	put_uleb(b, len);
	put_bytes(b, expr, len);
}

/* A REG_OFF* rule of cfi_expr_rule(), named as cfi.c names its register. */
static struct unwind_user_rule map_rule(struct unwind_user_rule r, u16 regno)
{
	if (r.type == UNWIND_USER_RULE_REG_OFF ||
	    r.type == UNWIND_USER_RULE_REG_OFF_DEREF) {
		r.reg = regno == R->sp ? UNWIND_USER_REG_SP :
			regno == R->fp ? UNWIND_USER_REG_FP :
			UNWIND_USER_REG_OTHER;
		r.regno = r.reg == UNWIND_USER_REG_OTHER ? regno : 0;
	}
	return r;
}

struct expr_case {
	int		line;
	u8		op;	/* DW_CFA_def_cfa_expression, ... */
	u8		reg;	/* the column (x86-64), but for the CFA */
	u8		len;
	u8		expr[24];
	int		err;	/* of cfi_expr_rule() */
	struct unwind_user_rule rule;
};

/* The column an expression is for, and the bytes. */
#define CFA_X		DW_CFA_def_cfa_expression, 0
#define RA_X		DW_CFA_expression, 16
#define FP_X		DW_CFA_expression, 6
#define RA_VX		DW_CFA_val_expression, 16
#define FP_VX		DW_CFA_val_expression, 6
#define BYTES(...)	sizeof((u8[]){ __VA_ARGS__ }), { __VA_ARGS__ }
#define OK(col, rule, ...)						\
	{ __LINE__, col, BYTES(__VA_ARGS__), 0, rule }
#define BAD(col, err, ...)						\
	{ __LINE__, col, BYTES(__VA_ARGS__), err, RETAIN }

/*
 * Run one case twice: cfi_expr_rule() itself at @pc, and an FDE with the
 * instruction at F0 through eh_frame_find_frame(), where the other columns
 * keep the CIE's rules.  The object is 64-bit, or 32-bit if R says so.
 */
static void check_expr_case(const struct expr_case *c, unsigned long pc)
{
	static const u8 cie32[] = {
		DW_CFA_def_cfa, 4, 4, DW_CFA_offset | 8, 1,
	};
	const struct eh_frame_regs *regs = R;
	bool elf32 = regs == &regs32;
	struct unwind_user_frame want = {
		.cfa = SP(elf32 ? 4 : 8), .ra = AT_CFA(elf32 ? -4 : -8),
		.fp = RETAIN,
	};
	struct unwind_user_rule rule;
	struct cie_opts cie = default_cie();
	static struct buf b;
	char b1[64], b2[64];
	u16 regno, column;
	int ret;

	/* cfi_expr_rule() alone */
	memset(&rule, 0x5a, sizeof(rule));
	ret = cfi_expr_rule(c->op, c->expr, c->len, pc, regs, &rule, &regno);
	if (ret != c->err) {
		fail(c->line, "cfi_expr_rule: got %s, want %s", err_name(ret),
		     err_name(c->err));
	} else if (!ret) {
		rule = map_rule(rule, regno);
		if (!rule_eq(&rule, &c->rule))
			fail(c->line, "cfi_expr_rule: got %s, want %s",
			     fmt_rule(&rule, b1), fmt_rule(&c->rule, b2));
	}

	/* The same through the reader */
	column = c->reg == 16 ? regs->ra : c->reg == 6 ? regs->fp : c->reg;
	b.len = 0;
	put_expr_insn(&b, c->op, column, c->expr, c->len);
	reset(elf32 ? 4 : 8);
	if (elf32) {
		cie.data_align = -4;
		cie.ra = 8;
		cie.insns = cie32;
		cie.insns_len = sizeof(cie32);
	}
	one_fde(&cie, b.b, b.len, 0x100);
	if (setup()) {
		fail(c->line, "init");
		return;
	}
	if (c->op == DW_CFA_def_cfa_expression)
		want.cfa = c->rule;
	else if (column == regs->ra)
		want.ra = c->rule;
	else
		want.fp = c->rule;
	expect_at(c->line, pc, engine_err(c->err), want.cfa, want.ra, want.fp,
		  false);
}

static void run_expr_cases(const struct expr_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		check_expr_case(&c[i], F0);
}

/* cfi.c's side: which expression of a row is read, and when. */
static void test_expressions(void)
{
	static const u8 cfa_expr[] = {
		DW_CFA_def_cfa_expression, 3, OP_RSP, 0x08, DW_OP_deref,
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa, 7, 8,
	};
	static const u8 ra_expr[] = {
		DW_CFA_expression, 16, 2, OP_RSP, 0x10,
		DW_CFA_advance_loc | 1,
	};
	static const u8 fp_val_expr[] = {
		DW_CFA_val_expression, 6, 2, OP_RSP, 0x20,
		DW_CFA_advance_loc | 1,
		DW_CFA_val_expression, 6, 1, DW_OP_skip,
	};
	static const u8 empty_expr[] = {
		DW_CFA_expression, 6, 0,
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa_expression, 0,
	};
	/* Replaced before the row ends: never read, or they would fail. */
	static const u8 superseded[] = {
		DW_CFA_def_cfa_expression, 1, DW_OP_skip,
		DW_CFA_expression, 16, 1, DW_OP_plus,
		DW_CFA_val_expression, 6, 1, DW_OP_drop,
		DW_CFA_def_cfa, 7, 8,
		DW_CFA_offset | 16, 1,
		DW_CFA_same_value, 6,
		DW_CFA_advance_loc | 1,
	};
	/* Expressions of the CIE, kept across remember/restore_state. */
	static const u8 cie_with_expr[] = {
		DW_CFA_def_cfa, 7, 8,
		DW_CFA_expression, 16, 3, OP_RSP, 0x78, DW_OP_nop,
		DW_CFA_val_expression, 6, 2, OP_RBP, 0x10,
	};
	static const u8 restored[] = {
		DW_CFA_remember_state,
		DW_CFA_def_cfa_expression, 2, OP_RBP, 0x10,
		DW_CFA_offset | 16, 1,
		DW_CFA_advance_loc | 1,
		DW_CFA_restore_state,
		DW_CFA_advance_loc | 1,
		DW_CFA_offset | 16, 1,
		DW_CFA_undefined, 6,
		DW_CFA_advance_loc | 1,
		DW_CFA_restore | 16,
		DW_CFA_restore_extended, 6,
	};
	static const u8 too_long[] = {
		DW_CFA_expression, 16, 17,
		OP_RSP, 8, DW_OP_nop, DW_OP_nop, DW_OP_nop, DW_OP_nop,
		DW_OP_nop, DW_OP_nop, DW_OP_nop, DW_OP_nop, DW_OP_nop,
		DW_OP_nop, DW_OP_nop, DW_OP_nop, DW_OP_nop, DW_OP_nop,
		DW_OP_nop,
		DW_CFA_advance_loc | 1,
	};
	static const u8 longest[] = {
		DW_CFA_expression, 16, 16,
		OP_RSP, 8, DW_OP_nop, DW_OP_nop, DW_OP_nop, DW_OP_nop,
		DW_OP_nop, DW_OP_nop, DW_OP_nop, DW_OP_nop, DW_OP_nop,
		DW_OP_nop, DW_OP_nop, DW_OP_nop, DW_OP_nop, DW_OP_nop,
		DW_CFA_advance_loc | 1,
	};
	static const u8 offset_after_expr[] = {
		DW_CFA_def_cfa_expression, 1, 0x77,
		DW_CFA_def_cfa_offset, 8,
	};
	static const u8 register_after_expr[] = {
		DW_CFA_def_cfa_expression, 1, 0x77,
		DW_CFA_def_cfa_register, 7,
	};
	static const u8 block_past_end[] = {
		DW_CFA_expression, 3, 100, 0x77,
	};
	struct unwind_user_frame f;
	struct cie_opts c;
	int ret;

	/* The CFA: a rule in the row for pc, gone from the next row. */
	reset(8);
	one_fde(NULL, cfa_expr, sizeof(cfa_expr), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0, AT_SP(8), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 1, SP(8), AT_CFA(-8), RETAIN);

	reset(8);
	one_fde(NULL, ra_expr, sizeof(ra_expr), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0, SP(8), AT_SP(16), RETAIN);
	EXPECT(F0 + 1, SP(8), AT_SP(16), RETAIN);

	reset(8);
	one_fde(NULL, fp_val_expr, sizeof(fp_val_expr), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0, SP(8), AT_CFA(-8), SP(32));
	EXPECT_ERR(F0 + 1, -EOPNOTSUPP);

	/* Empty: the address is the CFA itself; a CFA of nothing is not. */
	reset(8);
	one_fde(NULL, empty_expr, sizeof(empty_expr), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0, SP(8), AT_CFA(-8), AT_CFA(0));
	EXPECT_ERR(F0 + 1, engine_err(-EINVAL));

	ret = eval_at(superseded, sizeof(superseded), 0, &f);
	CHECK(!ret && rule_eq(&f.cfa, &SP(8)) && rule_eq(&f.fp, &RETAIN),
	      "superseded: %s", err_name(ret));

	reset(8);
	c = default_cie();
	c.insns = cie_with_expr;
	c.insns_len = sizeof(cie_with_expr);
	one_fde(&c, restored, sizeof(restored), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0, FP(16), AT_CFA(-8), FP(16));
	EXPECT(F0 + 1, SP(8), AT_SP(-8), FP(16));
	EXPECT(F0 + 2, SP(8), AT_CFA(-8), UNDEF);
	EXPECT(F0 + 3, SP(8), AT_SP(-8), FP(16));

	/* cfi.c reads at most a window of bytes: 16. */
	EXPECT_EVAL(longest, 0, 0);
	EXPECT_EVAL(too_long, 0, -EOPNOTSUPP);
	EXPECT_EVAL(offset_after_expr, 0, -EINVAL);
	EXPECT_EVAL(register_after_expr, 0, -EINVAL);
	EXPECT_EVAL(block_past_end, 0, -EINVAL);
}

UNIT_TEST(test_expressions, "expressions: which are read, when, how far", 0);

/* Realigned stacks: the CFA is saved below the frame pointer (DRAP). */
static void test_expr_drap(void)
{
	/* i386: %ecx holds the CFA, %ebp (5) is the frame pointer. */
	static const u8 insns32[] = {
		DW_CFA_advance_loc | 14,
		DW_CFA_def_cfa, 1, 0,
		DW_CFA_advance_loc | 9,
		DW_CFA_expression, 5, 2, DW_OP_breg0 + 5, 0,
		DW_CFA_advance_loc | 2,
		DW_CFA_expression, 7, 2, DW_OP_breg0 + 5, 0x7c,
		DW_CFA_advance_loc | 4,
		DW_CFA_def_cfa_expression, 3, DW_OP_breg0 + 5, 0x70,
		DW_OP_deref,
		DW_CFA_expression, 3, 2, DW_OP_breg0 + 5, 0x74,
	};
	static const u8 cie32[] = { DW_CFA_def_cfa, 4, 4, DW_CFA_offset | 8, 1 };
	static const struct expr_case cases[] = {
		OK(CFA_X, AT_FP(-8), OP_RBP, 0x78, DW_OP_deref),
		OK(FP_X, AT_FP(0), OP_RBP, 0),
		/* Through another register, by breg and by bregx */
		OK(CFA_X, RULE(REG_OFF_DEREF, OTHER, 10, -8),
		   OP_R10, 0x78, DW_OP_deref),
		OK(CFA_X, RULE(REG_OFF_DEREF, OTHER, 13, 16),
		   DW_OP_bregx, 13, 16, DW_OP_deref),
		OK(CFA_X, OTHER(13, 0), DW_OP_bregx, 13, 0),
		OK(CFA_X, RULE(REG_OFF_DEREF, OTHER, 300, 0),
		   DW_OP_bregx, 0xac, 0x02, 0, DW_OP_deref),
		OK(CFA_X, AT_SP(-8), DW_OP_bregx, 7, 0x78, DW_OP_deref),
		OK(CFA_X, FP(8), DW_OP_bregx, 6, 8),
		OK(FP_X, RULE(REG_OFF_DEREF, OTHER, 3, 8), OP_RBX, 8),
		OK(RA_X, RULE(REG_OFF_DEREF, OTHER, 10, -16), OP_R10, 0x70),
		OK(CFA_X, OTHER(31, 0), DW_OP_breg31, 0),
		/* In a 64-bit object, register 8 is %r8, not the pc */
		OK(CFA_X, OTHER(8, 4), OP_R8, 4),
		/* Register numbers: up to U16_MAX */
		OK(CFA_X, RULE(REG_OFF_DEREF, OTHER, 0xffff, 0),
		   DW_OP_bregx, 0xff, 0xff, 0x03, 0, DW_OP_deref),
		BAD(CFA_X, -EOPNOTSUPP, DW_OP_bregx, 0x80, 0x80, 0x04, 0),
	};
	struct cie_opts c = default_cie();
	struct hdr_opts h = default_hdr();
	struct fde_opts fo;
	size_t cie_off;

	reset(8);
	one_fde(NULL, drap_insns, drap_insns_len, 0x100);
	EXPECT_INIT(0);
	EXPECT(F0, SP(8), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 5, OTHER(10, 0), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 0x10, OTHER(10, 0), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 0x11, OTHER(10, 0), AT_CFA(-8), AT_FP(0));
	EXPECT(F0 + 0x13, AT_FP(-8), AT_CFA(-8), AT_FP(0));
	EXPECT(F0 + 0x52, AT_FP(-8), AT_CFA(-8), AT_FP(0));
	EXPECT(F0 + 0x53, OTHER(10, 0), AT_CFA(-8), AT_FP(0));
	EXPECT(F0 + 0x57, SP(8), AT_CFA(-8), RETAIN);

	run_expr_cases(cases, ARRAY_SIZE(cases));

	/* The same in a 32-bit object, with i386 register numbers. */
	reset(4);
	c.data_align = -4;
	c.ra = 8;
	c.insns = cie32;
	c.insns_len = sizeof(cie32);
	cie_off = add_cie(&T, &c);
	fo = default_fde(F0, 0x100, insns32, sizeof(insns32));
	add_fde(&T, cie_off, &fo);
	CHECK(setup_hdr(&h) == 0, "init");
	EXPECT(F0, SP(4), AT_CFA(-4), RETAIN);
	EXPECT(F0 + 14, OTHER(1, 0), AT_CFA(-4), RETAIN);
	EXPECT(F0 + 23, OTHER(1, 0), AT_CFA(-4), AT_FP(0));
	EXPECT(F0 + 29, AT_FP(-16), AT_CFA(-4), AT_FP(0));
}

UNIT_TEST(test_expr_drap, "expressions: DRAP, through rbp and other registers", 0);

/* PLT entries: the CFA depends on where in its 16 bytes the pc is. */
static void test_expr_plt(void)
{
	/* Where the push happened: .plt, and the second form of entry. */
	static const u8 pushed_at[] = { 11, 10 };
	static const u8 expr32[] = {
		DW_OP_breg0 + 4, 4, DW_OP_breg0 + 8, 0, LIT(15), DW_OP_and,
		LIT(11), DW_OP_ge, LIT(2), DW_OP_shl, DW_OP_plus,
	};
	static const u8 cie32[] = {
		DW_CFA_def_cfa, 4, 4, DW_CFA_offset | 8, 1,
	};
	static const struct expr_case pc32 = BAD(CFA_X, -EOPNOTSUPP,
						 DW_OP_breg0 + 8, 4);
	static struct buf b;
	struct hdr_opts h = default_hdr();
	struct cie_opts c;
	struct fde_opts fo;
	unsigned int v, pc_off;
	size_t cie_off;
	u8 insns[64];

	for (v = 0; v < ARRAY_SIZE(pushed_at); v++) {
		const u8 expr[] = {
			OP_RSP, 8, OP_RIP, 0, LIT(15), DW_OP_and,
			LIT(pushed_at[v]), DW_OP_ge, LIT(3), DW_OP_shl,
			DW_OP_plus,
		};

		/* ld's FDE for .plt: PLT0 pushes twice, then the entries. */
		b.len = 0;
		put_u8(&b, DW_CFA_def_cfa_offset);
		put_u8(&b, 16);
		put_u8(&b, DW_CFA_advance_loc | 6);
		put_u8(&b, DW_CFA_def_cfa_offset);
		put_u8(&b, 24);
		put_u8(&b, DW_CFA_advance_loc | 10);
		put_expr_insn(&b, DW_CFA_def_cfa_expression, 0, expr,
			      sizeof(expr));
		memcpy(insns, b.b, b.len);

		reset(8);
		c = default_cie();
		cie_off = add_cie(&T, &c);
		fo = default_fde(F0, 0x40, insns, b.len);
		add_fde(&T, cie_off, &fo);
		CHECK(setup_hdr(&h) == 0, "init");
		EXPECT(F0, SP(16), AT_CFA(-8), RETAIN);
		EXPECT(F0 + 6, SP(24), AT_CFA(-8), RETAIN);
		/* Every pc of the three entries after PLT0 */
		for (pc_off = 0x10; pc_off < 0x40; pc_off++)
			EXPECT(F0 + pc_off,
			       SP((pc_off & 15) >= pushed_at[v] ? 16 : 8),
			       AT_CFA(-8), RETAIN);
	}

	/* i386: 4-byte words, the return address column is 8 (%eip). */
	b.len = 0;
	put_expr_insn(&b, DW_CFA_def_cfa_expression, 0, expr32,
		      sizeof(expr32));
	memcpy(insns, b.b, b.len);
	reset(4);
	c = default_cie();
	c.data_align = -4;
	c.ra = 8;
	c.insns = cie32;
	c.insns_len = sizeof(cie32);
	cie_off = add_cie(&T, &c);
	fo = default_fde(F0, 0x40, insns, b.len);
	add_fde(&T, cie_off, &fo);
	CHECK(setup_hdr(&h) == 0, "init");
	for (pc_off = 0; pc_off < 0x40; pc_off++)
		EXPECT(F0 + pc_off, SP((pc_off & 15) >= 11 ? 8 : 4),
		       AT_CFA(-4), RETAIN);
	/* Register 8 is the pc there, a constant: no CFA rule. */
	check_expr_case(&pc32, F0);
}

UNIT_TEST(test_expr_plt, "expressions: PLT entries, every pc, .plt and the second form",
	  0);

static void test_expr_signal(void)
{
	struct cie_opts c;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		reset(8);
		c = restore_rt_cie(i ? "zR" : "zRS");
		/* The FDE starts a byte early: a caller's pc is ra - 1. */
		one_fde(&c, restore_rt_insns, restore_rt_insns_len, 10);
		EXPECT_INIT(0);
		/* 'S' is the only difference: signal, or not. */
		expect_at(__LINE__, F0, 0, AT_SP(160), AT_SP(168), AT_SP(120),
			  !i);
		expect_at(__LINE__, F0 + 9, 0, AT_SP(160), AT_SP(168),
			  AT_SP(120), !i);
		EXPECT_ERR(F0 + 10, -ENOENT);
	}
}

UNIT_TEST(test_expr_signal, "expressions: glibc's __restore_rt, 'S' or not", 0);

/* What each operator does, and what the result may be. */
static void test_expr_ops(void)
{
	static const struct expr_case cases[] = {
		/* Results: addresses and values of each kind */
		OK(CFA_X, SP(8), OP_RSP, 8),
		OK(CFA_X, AT_SP(8), OP_RSP, 8, DW_OP_deref),
		OK(CFA_X, FP(16), OP_RBP, 16),
		OK(RA_X, AT_SP(16), OP_RSP, 16),
		OK(RA_X, AT_CFA(-8), LIT(8), DW_OP_minus),
		OK(RA_X, AT_CFA(0)),
		OK(FP_X, AT_CFA(-16), DW_OP_nop, LIT(16), DW_OP_minus),
		OK(FP_VX, CFA_PLUS(16), DW_OP_plus_uconst, 16),
		OK(FP_VX, AT_CFA(-16), LIT(16), DW_OP_minus, DW_OP_deref),
		OK(FP_VX, CFA_PLUS(0)),
		OK(FP_VX, SP(24), OP_RSP, 24),
		OK(FP_VX, AT_SP(8), OP_RSP, 8, DW_OP_deref),
		OK(RA_VX, AT_CFA(-8), LIT(8), DW_OP_minus, DW_OP_deref),
		OK(RA_VX, OTHER(3, -1), OP_RBX, 0x7f),
		/* Constants of every width, signed and not */
		OK(CFA_X, SP(0xf8), OP_RSP, 0, DW_OP_const1u, 0xf8,
		   DW_OP_plus),
		OK(CFA_X, SP(-8), OP_RSP, 0, DW_OP_const1s, 0xf8, DW_OP_plus),
		OK(CFA_X, SP(0xfff0), OP_RSP, 0, DW_OP_const2u, B16(0xfff0),
		   DW_OP_plus),
		OK(CFA_X, SP(-16), OP_RSP, 0, DW_OP_const2s, B16(0xfff0),
		   DW_OP_plus),
		OK(CFA_X, SP(0x7ffffff0), OP_RSP, 0, DW_OP_const4u,
		   B32(0x7ffffff0), DW_OP_plus),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 0, DW_OP_const4u,
		    B32(0xfffffff0), DW_OP_plus),
		OK(CFA_X, SP(-16), OP_RSP, 0, DW_OP_const4s,
		   B32(0xfffffff0), DW_OP_plus),
		/* 2^64 - 16 is -16 modulo 2^64, as an address would be */
		OK(CFA_X, SP(-16), OP_RSP, 0, DW_OP_const8u,
		   B64(0xfffffffffffffff0ULL), DW_OP_plus),
		OK(CFA_X, SP(-16), OP_RSP, 0, DW_OP_const8s,
		   B64(0xfffffffffffffff0ULL), DW_OP_plus),
		OK(CFA_X, SP(0x1234), OP_RSP, 0, DW_OP_const8s,
		   B64(0x1234ULL), DW_OP_plus),
		OK(CFA_X, SP(300), OP_RSP, 0, DW_OP_constu, 0xac, 0x02,
		   DW_OP_plus),
		OK(CFA_X, SP(-300), OP_RSP, 0, DW_OP_consts, 0xd4, 0x7d,
		   DW_OP_plus),
		OK(CFA_X, SP(31), OP_RSP, 0, LIT(31), DW_OP_plus),
		OK(CFA_X, SP(0), OP_RSP, 0, LIT(0), DW_OP_plus),
		OK(CFA_X, FP(128), OP_RBP, 0, DW_OP_plus_uconst, 0x80, 0x01),
		/* An address plus or minus a constant, either way round */
		OK(CFA_X, SP(24), LIT(16), OP_RSP, 8, DW_OP_plus),
		OK(CFA_X, SP(-8), OP_RSP, 0, LIT(8), DW_OP_minus),
		OK(RA_X, AT_CFA(-24), LIT(8), DW_OP_minus, LIT(16),
		   DW_OP_minus),
		BAD(CFA_X, -EOPNOTSUPP, LIT(8), OP_RSP, 0, DW_OP_minus),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 0, OP_RBP, 0, DW_OP_plus),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 0, LIT(2), DW_OP_mul),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 0, DW_OP_neg),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 0, DW_OP_not),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 0, LIT(15), DW_OP_and),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 0, LIT(1), DW_OP_ge),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 0, DW_OP_deref, LIT(8),
		    DW_OP_plus),
		/* Stack operators */
		OK(CFA_X, SP(8), OP_RSP, 8, DW_OP_dup, DW_OP_drop),
		OK(CFA_X, SP(-8), LIT(8), OP_RSP, 0, DW_OP_swap, DW_OP_minus),
		OK(CFA_X, SP(16), OP_RSP, 0, LIT(16), DW_OP_over, DW_OP_drop,
		   DW_OP_plus),
		OK(CFA_X, FP(8), LIT(8), OP_RBP, 0, DW_OP_over, DW_OP_plus,
		   DW_OP_swap, DW_OP_drop),
		OK(CFA_X, AT_SP(8), OP_RSP, 8, DW_OP_dup, DW_OP_deref,
		   DW_OP_swap, DW_OP_drop),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 0, DW_OP_dup, DW_OP_plus),
		/* Arithmetic, bitwise and comparison operators on constants */
		OK(CFA_X, SP(15), OP_RSP, 0, LIT(3), LIT(5), DW_OP_mul,
		   DW_OP_plus),
		OK(CFA_X, SP(8), OP_RSP, 0, LIT(12), LIT(10), DW_OP_and,
		   DW_OP_plus),
		OK(CFA_X, SP(14), OP_RSP, 0, LIT(12), LIT(10), DW_OP_or,
		   DW_OP_plus),
		OK(CFA_X, SP(6), OP_RSP, 0, LIT(12), LIT(10), DW_OP_xor,
		   DW_OP_plus),
		OK(CFA_X, SP(-2), OP_RSP, 0, LIT(3), LIT(5), DW_OP_minus,
		   DW_OP_plus),
		OK(CFA_X, SP(8), OP_RSP, 0, LIT(3), LIT(5), DW_OP_plus,
		   DW_OP_plus),
		OK(CFA_X, SP(16), OP_RSP, 0, LIT(1), LIT(4), DW_OP_shl,
		   DW_OP_plus),
		OK(CFA_X, SP(4), OP_RSP, 0, LIT(16), LIT(2), DW_OP_shr,
		   DW_OP_plus),
		OK(CFA_X, SP(15), OP_RSP, 0, DW_OP_const1s, 0xf0,
		   DW_OP_const1u, 60, DW_OP_shr, DW_OP_plus),
		OK(CFA_X, SP(-4), OP_RSP, 0, DW_OP_const1s, 0xf0, LIT(2),
		   DW_OP_shra, DW_OP_plus),
		OK(CFA_X, SP(0), OP_RSP, 0, LIT(1), DW_OP_const1u, 64,
		   DW_OP_shl, DW_OP_plus),
		OK(CFA_X, SP(0), OP_RSP, 0, DW_OP_const1s, 0xff,
		   DW_OP_const1u, 64, DW_OP_shr, DW_OP_plus),
		OK(CFA_X, SP(-1), OP_RSP, 0, DW_OP_const1s, 0xff,
		   DW_OP_const1u, 200, DW_OP_shra, DW_OP_plus),
		OK(CFA_X, SP(-8), OP_RSP, 0, LIT(8), DW_OP_neg, DW_OP_plus),
		OK(CFA_X, SP(-8), OP_RSP, 0, LIT(7), DW_OP_not, DW_OP_plus),
		OK(CFA_X, SP(1), OP_RSP, 0, LIT(3), LIT(3), DW_OP_eq,
		   DW_OP_plus),
		OK(CFA_X, SP(0), OP_RSP, 0, LIT(3), LIT(4), DW_OP_eq,
		   DW_OP_plus),
		OK(CFA_X, SP(1), OP_RSP, 0, LIT(3), LIT(4), DW_OP_ne,
		   DW_OP_plus),
		/* Comparisons are signed */
		OK(CFA_X, SP(1), OP_RSP, 0, DW_OP_const1s, 0xff, LIT(0),
		   DW_OP_lt, DW_OP_plus),
		OK(CFA_X, SP(0), OP_RSP, 0, DW_OP_const1s, 0xff, LIT(0),
		   DW_OP_gt, DW_OP_plus),
		OK(CFA_X, SP(1), OP_RSP, 0, LIT(4), LIT(4), DW_OP_le,
		   DW_OP_plus),
		OK(CFA_X, SP(0), OP_RSP, 0, LIT(5), LIT(4), DW_OP_le,
		   DW_OP_plus),
		OK(CFA_X, SP(1), OP_RSP, 0, LIT(5), LIT(4), DW_OP_gt,
		   DW_OP_plus),
		OK(CFA_X, SP(1), OP_RSP, 0, LIT(4), LIT(4), DW_OP_ge,
		   DW_OP_plus),
		OK(CFA_X, SP(0), OP_RSP, 0, LIT(3), LIT(4), DW_OP_ge,
		   DW_OP_plus),
		/* The RA column is the pc (F0 = 0x401000) */
		OK(CFA_X, SP(0x1000 + 8), OP_RSP, 8, OP_RIP, 0,
		   DW_OP_const2u, 0xff, 0xff, DW_OP_and, DW_OP_plus),
		BAD(CFA_X, -EOPNOTSUPP, OP_RIP, 0),
		BAD(CFA_X, -EOPNOTSUPP, OP_RIP, 0, DW_OP_deref),
		/* Offsets: any s64 along the way, an s32 at the end */
		OK(CFA_X, SP(S32_MAX), OP_RSP, 0xff, 0xff, 0xff, 0xff, 0x07),
		OK(CFA_X, SP(S32_MIN), OP_RSP, 0x80, 0x80, 0x80, 0x80, 0x78),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 0x80, 0x80, 0x80, 0x80, 0x08),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 0xff, 0xff, 0xff, 0xff, 0x77),
		OK(CFA_X, SP(8), OP_RSP, 0x88, 0x80, 0x80, 0x80, 0x10,
		   DW_OP_consts, 0x80, 0x80, 0x80, 0x80, 0x10, DW_OP_minus),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 0x80, 0x80, 0x80, 0x80, 0x08,
		    DW_OP_deref),
		OK(CFA_X, AT_SP(S32_MIN), OP_RSP, 0x80, 0x80, 0x80, 0x80, 0x78,
		   DW_OP_deref),
		BAD(RA_X, -EOPNOTSUPP, DW_OP_const4u, B32(0x80000000U),
		    DW_OP_plus),
		OK(RA_X, AT_CFA(S32_MAX), DW_OP_const4u, B32(0x7fffffffU),
		   DW_OP_plus),
		BAD(FP_VX, -EOPNOTSUPP, DW_OP_const4u, B32(0x80000001U),
		    DW_OP_minus),
		OK(FP_VX, CFA_PLUS(S32_MIN), DW_OP_const4u, B32(0x80000000U),
		   DW_OP_minus),
		/* nop anywhere */
		OK(CFA_X, SP(8), DW_OP_nop, OP_RSP, 8, DW_OP_nop),
	};

	reset(8);
	run_expr_cases(cases, ARRAY_SIZE(cases));
}

UNIT_TEST(test_expr_ops, "expressions: results, constants, stack and arithmetic operators",
	  0);

/* What fails, and how. */
static void test_expr_errors(void)
{
	static const struct expr_case cases[] = {
		/* Outside the subset */
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 8, DW_OP_skip, 0, 0),
		BAD(CFA_X, -EOPNOTSUPP, DW_OP_skip, 0x02, 0x00, OP_RSP, 8,
		    DW_OP_deref),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 8, LIT(0), DW_OP_bra, 0, 0),
		BAD(CFA_X, -EOPNOTSUPP, DW_OP_call2, 0, 0),
		BAD(CFA_X, -EOPNOTSUPP, DW_OP_call4, 0, 0, 0, 0),
		BAD(CFA_X, -EOPNOTSUPP, DW_OP_reg0),
		BAD(CFA_X, -EOPNOTSUPP, DW_OP_reg0 + 7),
		BAD(CFA_X, -EOPNOTSUPP, DW_OP_regx, 7),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 8, DW_OP_deref_size, 8),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 8, DW_OP_pick, 0),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 8, LIT(1), LIT(2), DW_OP_rot),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 8, DW_OP_abs),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 8, LIT(1), DW_OP_div),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 8, LIT(1), DW_OP_mod),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 8, LIT(1), DW_OP_xderef),
		BAD(CFA_X, -EOPNOTSUPP, DW_OP_fbreg, 8),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 8, DW_OP_piece, 8),
		BAD(CFA_X, -EOPNOTSUPP, DW_OP_addr, 0, 0x10, 0x40, 0, 0, 0, 0,
		    0),
		BAD(FP_X, -EOPNOTSUPP, DW_OP_call_frame_cfa),
		BAD(FP_VX, -EOPNOTSUPP, OP_RSP, 8, DW_OP_stack_value),
		BAD(FP_VX, -EOPNOTSUPP, DW_OP_implicit_value, 1, 0),
		BAD(FP_VX, -EOPNOTSUPP, DW_OP_entry_value, 1, DW_OP_reg0 + 6),
		BAD(FP_VX, -EOPNOTSUPP, DW_OP_GNU_entry_value, 1,
		    DW_OP_reg0 + 6),
		BAD(CFA_X, -EOPNOTSUPP, 0x00),
		BAD(CFA_X, -EOPNOTSUPP, 0x01),
		BAD(CFA_X, -EOPNOTSUPP, 0xe0),
		BAD(CFA_X, -EOPNOTSUPP, 0xff),
		/* Results with no rule */
		BAD(CFA_X, -EOPNOTSUPP, LIT(8)),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 8, DW_OP_deref, DW_OP_deref),
		BAD(RA_X, -EOPNOTSUPP, LIT(8)),
		BAD(RA_X, -EOPNOTSUPP, OP_RSP, 8, DW_OP_deref),
		BAD(RA_X, -EOPNOTSUPP, DW_OP_deref),
		BAD(RA_VX, -EOPNOTSUPP, OP_RIP, 1),
		BAD(FP_VX, -EOPNOTSUPP, LIT(0)),
		/* Loads of a constant, or of a load */
		BAD(CFA_X, -EOPNOTSUPP, LIT(8), DW_OP_deref),
		BAD(FP_VX, -EOPNOTSUPP, DW_OP_deref, DW_OP_deref),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 8, DW_OP_deref, DW_OP_deref,
		    DW_OP_drop),
		/* Stack overflow: a ninth value */
		OK(CFA_X, SP(8), OP_RSP, 8, LIT(0), LIT(0), LIT(0), LIT(0),
		   LIT(0), LIT(0), LIT(0), DW_OP_drop, DW_OP_drop, DW_OP_drop,
		   DW_OP_drop, DW_OP_drop, DW_OP_drop, DW_OP_drop),
		BAD(CFA_X, -EOPNOTSUPP, OP_RSP, 8, LIT(0), LIT(0), LIT(0),
		    LIT(0), LIT(0), LIT(0), LIT(0), LIT(0)),
		BAD(CFA_X, -EOPNOTSUPP, LIT(0), LIT(0), LIT(0), LIT(0),
		    LIT(0), LIT(0), LIT(0), LIT(0), LIT(0)),
		/* ... where the CFA is the first for the other two */
		BAD(FP_X, -EOPNOTSUPP, LIT(0), LIT(0), LIT(0), LIT(0),
		    LIT(0), LIT(0), LIT(0), LIT(0)),
		BAD(FP_X, -EOPNOTSUPP, DW_OP_dup, DW_OP_dup, DW_OP_dup,
		    DW_OP_dup, DW_OP_dup, DW_OP_dup, DW_OP_dup, DW_OP_dup),
		BAD(FP_X, -EOPNOTSUPP, LIT(0), DW_OP_over, DW_OP_over,
		    DW_OP_over, DW_OP_over, DW_OP_over, DW_OP_over,
		    DW_OP_over),
		/* Stack underflow */
		BAD(CFA_X, -EINVAL, DW_OP_plus),
		BAD(CFA_X, -EINVAL, LIT(8), DW_OP_plus),
		BAD(CFA_X, -EINVAL, LIT(8), DW_OP_minus),
		BAD(CFA_X, -EINVAL, LIT(8), DW_OP_and),
		BAD(CFA_X, -EINVAL, LIT(8), DW_OP_ge),
		BAD(CFA_X, -EINVAL, DW_OP_drop),
		BAD(CFA_X, -EINVAL, DW_OP_dup),
		BAD(CFA_X, -EINVAL, LIT(8), DW_OP_over),
		BAD(CFA_X, -EINVAL, LIT(8), DW_OP_swap),
		BAD(CFA_X, -EINVAL, DW_OP_deref),
		BAD(CFA_X, -EINVAL, DW_OP_neg),
		BAD(CFA_X, -EINVAL, DW_OP_not),
		BAD(CFA_X, -EINVAL, DW_OP_plus_uconst, 8),
		BAD(FP_X, -EINVAL, DW_OP_plus),
		BAD(FP_X, -EINVAL, DW_OP_drop, DW_OP_drop),
		BAD(FP_VX, -EINVAL, DW_OP_swap),
		/* ... before an operator outside the subset */
		BAD(CFA_X, -EINVAL, DW_OP_plus, DW_OP_skip, 0, 0),
		/* An empty result */
		BAD(CFA_X, -EINVAL),
		BAD(CFA_X, -EINVAL, DW_OP_nop),
		BAD(CFA_X, -EINVAL, OP_RSP, 8, DW_OP_drop),
		BAD(FP_X, -EINVAL, DW_OP_drop),
		BAD(FP_VX, -EINVAL, DW_OP_drop),
		/* Truncated operands */
		BAD(CFA_X, -EINVAL, OP_RSP),
		BAD(CFA_X, -EINVAL, OP_RSP, 0x80),
		BAD(CFA_X, -EINVAL, DW_OP_bregx),
		BAD(CFA_X, -EINVAL, DW_OP_bregx, 7),
		BAD(CFA_X, -EINVAL, DW_OP_bregx, 0x87),
		BAD(CFA_X, -EINVAL, DW_OP_bregx, 7, 0x88),
		BAD(CFA_X, -EINVAL, DW_OP_const1u),
		BAD(CFA_X, -EINVAL, DW_OP_const1s),
		BAD(CFA_X, -EINVAL, DW_OP_const2u, 1),
		BAD(CFA_X, -EINVAL, DW_OP_const2s, 1),
		BAD(CFA_X, -EINVAL, OP_RSP, 0, DW_OP_const4u, 1, 2),
		BAD(CFA_X, -EINVAL, DW_OP_const4s, 1, 2, 3),
		BAD(CFA_X, -EINVAL, DW_OP_const8u, 1, 2, 3, 4, 5, 6, 7),
		BAD(CFA_X, -EINVAL, DW_OP_const8s),
		BAD(CFA_X, -EINVAL, DW_OP_constu),
		BAD(CFA_X, -EINVAL, DW_OP_constu, 0xff),
		BAD(CFA_X, -EINVAL, DW_OP_consts, 0x80, 0x80),
		BAD(FP_VX, -EINVAL, DW_OP_plus_uconst),
		BAD(FP_VX, -EINVAL, DW_OP_plus_uconst, 0x90),
		/* ... and a LEB128 longer than ten bytes */
		BAD(CFA_X, -EINVAL, OP_RSP, 0x80, 0x80, 0x80, 0x80, 0x80,
		    0x80, 0x80, 0x80, 0x80, 0x80, 0x00),
		BAD(CFA_X, -EINVAL, DW_OP_constu, 0x80, 0x80, 0x80, 0x80, 0x80,
		    0x80, 0x80, 0x80, 0x80, 0x80, 0x00),
		OK(CFA_X, SP(8), OP_RSP, 0x88, 0x80, 0x80, 0x80, 0x80, 0x80,
		   0x80, 0x80, 0x80, 0x00),
	};

	reset(8);
	run_expr_cases(cases, ARRAY_SIZE(cases));
}

UNIT_TEST(test_expr_errors, "expressions: unknown operators, overflow, underflow, truncation",
	  0);

/* The bounds on operators and length, at cfi_expr_rule() itself. */
static void test_expr_bounds(void)
{
	u8 expr[CFI_EXPR_MAX_OPS + 8];
	struct unwind_user_rule rule;
	unsigned int n;
	u16 regno;
	int ret;

	/* breg7 8 and nops: CFI_EXPR_MAX_OPS operators, and one more */
	expr[0] = OP_RSP;
	expr[1] = 8;
	for (n = 1; n <= CFI_EXPR_MAX_OPS + 1; n++) {
		memset(expr + 2, DW_OP_nop, n - 1);
		ret = cfi_expr_rule(DW_CFA_def_cfa_expression, expr, n + 1, F0,
				    &regs64, &rule, &regno);
		if (n <= CFI_EXPR_MAX_OPS)
			CHECK(!ret && rule.type == UNWIND_USER_RULE_REG_OFF &&
			      regno == 7 && rule.off == 8,
			      "%u operators: %s", n, err_name(ret));
		else
			CHECK(ret == -EOPNOTSUPP, "%u operators: %s", n,
			      err_name(ret));
	}

	/*
	 * Through cfi.c the operator bound never stops an expression: it
	 * reads 16 bytes at most, so 16 operators of one byte.
	 */
	static_assert(CFI_EXPR_MAX_OPS >= DWARF_CURSOR_BUF_SIZE);
	memset(expr, DW_OP_nop, sizeof(expr));
	ret = cfi_expr_rule(DW_CFA_expression, expr, DWARF_CURSOR_BUF_SIZE, F0,
			    &regs64, &rule, &regno);
	CHECK(!ret && rule.type == UNWIND_USER_RULE_CFA_OFF_DEREF && !rule.off,
	      "16 nops: %s", err_name(ret));
	ret = cfi_expr_rule(DW_CFA_def_cfa_expression, expr,
			    DWARF_CURSOR_BUF_SIZE, F0, &regs64, &rule, &regno);
	CHECK(ret == -EINVAL, "16 nops for the CFA: %s", err_name(ret));

	/* The register of a rule is a DWARF number, for cfi.c to map ... */
	expr[0] = DW_OP_bregx;
	expr[1] = 13;
	expr[2] = 0x70;
	ret = cfi_expr_rule(DW_CFA_val_expression, expr, 3, F0, &regs64, &rule,
			    &regno);
	CHECK(!ret && rule.type == UNWIND_USER_RULE_REG_OFF && !rule.reg &&
	      !rule.regno && regno == 13 && rule.off == -16,
	      "bregx: %s, regno %u", err_name(ret), regno);
	/* ... and there is none for other rules. */
	ret = cfi_expr_rule(DW_CFA_val_expression, expr, 0, F0, &regs64, &rule,
			    &regno);
	CHECK(!ret && rule.type == UNWIND_USER_RULE_CFA_OFF && !regno,
	      "empty: %s, regno %u", err_name(ret), regno);
}

UNIT_TEST(test_expr_bounds, "expressions: operator and length bounds", 0);

static void test_bad_opcodes(void)
{
	static const u8 op17[] = { 0x17, DW_CFA_advance_loc | 1 };
	static const u8 op1c[] = { 0x1c, DW_CFA_advance_loc | 1 };
	static const u8 op3f[] = { 0x3f, DW_CFA_advance_loc | 1 };
	static const u8 op30[] = { 0x30, DW_CFA_advance_loc | 1 };
	static const u8 window_save[] = { DW_CFA_GNU_window_save };
	static const u8 mips[] = { DW_CFA_MIPS_advance_loc8, 1, 0, 0, 0, 0, 0, 0, 0 };
	static const u8 after_pc[] = { DW_CFA_advance_loc | 1, 0x17 };

	EXPECT_EVAL(op17, 0, -EINVAL);
	EXPECT_EVAL(op1c, 0, -EINVAL);
	EXPECT_EVAL(op3f, 0, -EINVAL);
	EXPECT_EVAL(op30, 0, -EINVAL);
	EXPECT_EVAL(window_save, 0, -EOPNOTSUPP);
	EXPECT_EVAL(mips, 0, -EOPNOTSUPP);
	/* Instructions past the row for pc are never looked at. */
	EXPECT_EVAL(after_pc, 0, 0);
	EXPECT_EVAL(after_pc, 1, -EINVAL);
}

UNIT_TEST(test_bad_opcodes, "unknown and foreign opcodes", 0);

static void test_eval_errors(void)
{
	static const u8 no_cfa_cie[] = { DW_CFA_offset | 16, 1 };
	static const u8 cfa_reg_first_cie[] = { DW_CFA_def_cfa_register, 7 };
	static const u8 nothing[] = { DW_CFA_nop };
	static const u8 huge_reg[] = { DW_CFA_def_cfa, 0x80, 0x80, 0x04, 8 };
	static const u8 huge_cfa_off[] = {
		DW_CFA_def_cfa, 7, 0x80, 0x80, 0x80, 0x80, 0x08,
	};
	static const u8 huge_ra_off[] = {
		DW_CFA_offset | 16, 0x80, 0x80, 0x80, 0x80, 0x02, /* 2^29 * -8 */
	};
	static const u8 largest_ra_off[] = {
		DW_CFA_offset | 16, 0x80, 0x80, 0x80, 0x80, 0x01, /* S32_MIN */
	};
	static const u8 huge_fp_off_sf[] = {
		DW_CFA_offset_extended_sf, 6, 0x80, 0x80, 0x80, 0x80, 0x7f,
	};
	static const u8 truncated_operand[] = { DW_CFA_def_cfa, 7 };
	static const u8 truncated_leb[] = { DW_CFA_def_cfa, 7, 0x80 };
	static const u8 long_leb[] = {
		DW_CFA_def_cfa_offset,
		0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00,
	};
	static const u8 overflowing_leb[] = {
		DW_CFA_def_cfa_offset,
		0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02,
	};
	static const u8 padded_leb[] = {
		DW_CFA_def_cfa_offset,
		0x90, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00,
		DW_CFA_advance_loc | 1,
	};
	static u8 many_nops[20000];
	struct cie_opts c;
	struct unwind_user_frame f;
	int ret;

	reset(8);
	c = default_cie();
	c.insns = no_cfa_cie;
	c.insns_len = sizeof(no_cfa_cie);
	one_fde(&c, nothing, sizeof(nothing), 0x100);
	EXPECT_INIT(0);
	EXPECT_ERR(F0, -EINVAL);

	reset(8);
	c = default_cie();
	c.insns = cfa_reg_first_cie;
	c.insns_len = sizeof(cfa_reg_first_cie);
	one_fde(&c, nothing, sizeof(nothing), 0x100);
	EXPECT_INIT(0);
	EXPECT_ERR(F0, -EINVAL);

	/* The RA column is not the arch's. */
	reset(8);
	c = default_cie();
	c.ra = 15;
	one_fde(&c, nothing, sizeof(nothing), 0x100);
	EXPECT_INIT(0);
	EXPECT_ERR(F0, -EOPNOTSUPP);

	EXPECT_EVAL(huge_reg, 0, -EINVAL);
	EXPECT_EVAL(huge_cfa_off, 0, -EOPNOTSUPP);
	EXPECT_EVAL(huge_ra_off, 0, -EOPNOTSUPP);
	EXPECT_EVAL(largest_ra_off, 0, 0);
	EXPECT_EVAL(huge_fp_off_sf, 0, -EOPNOTSUPP);
	EXPECT_EVAL(truncated_operand, 0, -EINVAL);
	EXPECT_EVAL(truncated_leb, 0, -EINVAL);
	EXPECT_EVAL(long_leb, 0, -EINVAL);
	EXPECT_EVAL(overflowing_leb, 0, -EINVAL);
	ret = eval_at(padded_leb, sizeof(padded_leb), 0, &f);
	CHECK(!ret && rule_eq(&f.cfa, &SP(16)), "padded LEB128: %s",
	      err_name(ret));

	/* The instruction limit: the CIE has 2, the FDE the rest. */
	memset(many_nops, DW_CFA_nop, sizeof(many_nops));
	ret = eval_at(many_nops, 16384 - 2, 0, &f);
	CHECK(!ret, "16384 instructions: %s", err_name(ret));
	ret = eval_at(many_nops, 16384 - 1, 0, &f);
	CHECK(ret == -EOPNOTSUPP, "16385 instructions: %s", err_name(ret));
}

UNIT_TEST(test_eval_errors, "evaluation errors and the instruction limit", 0);

static void test_advance_overflow(void)
{
	static const u8 insns[] = {
		DW_CFA_advance_loc4, 0xff, 0xff, 0xff, 0xff,
		DW_CFA_def_cfa_offset, 16,
	};
	struct cie_opts c = default_cie();
	struct hdr_opts h = default_hdr();
	struct fde_opts f;
	size_t cie_off;
	const u64 top = 0xfffffffffff00000ULL;

	reset(8);
	c.fde_enc = DW_EH_PE_udata8;
	c.code_align = 0xffffffff;
	cie_off = add_cie(&T, &c);
	f = default_fde(top, 0xff000, insns, sizeof(insns));
	f.fde_enc = c.fde_enc;
	add_fde(&T, cie_off, &f);
	h.table_enc = DW_EH_PE_udata8;
	text_start = top;
	text_end = ~0UL;
	CHECK(setup_hdr(&h) == 0, "init");
	EXPECT_ERR(top + 0x1000, -EINVAL);
}

UNIT_TEST(test_advance_overflow, "advance overflow", 0);
