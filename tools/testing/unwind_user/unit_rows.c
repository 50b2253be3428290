// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: CFI rows and instructions (cfi.c).
 */
#include "unit.h"

/* ------------------------------------------------------------------ */
/* Rows and instructions */

static void test_basic_rows(void)
{
	static const u8 insns[] = {
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa_offset, 16,
		DW_CFA_offset | 6, 2,			/* rbp at cfa-16 */
		DW_CFA_advance_loc | 3,
		DW_CFA_def_cfa_register, 6,
		DW_CFA_advance_loc1, 0x20,
		DW_CFA_def_cfa, 7, 8,
		DW_CFA_restore | 6,
		DW_CFA_nop, DW_CFA_nop,
	};

	reset(8);
	one_fde(NULL, insns, sizeof(insns), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0, SP(8), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 1, SP(16), AT_CFA(-8), AT_CFA(-16));
	EXPECT(F0 + 3, SP(16), AT_CFA(-8), AT_CFA(-16));
	EXPECT(F0 + 4, FP(16), AT_CFA(-8), AT_CFA(-16));
	EXPECT(F0 + 0x23, FP(16), AT_CFA(-8), AT_CFA(-16));
	EXPECT(F0 + 0x24, SP(8), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 0xff, SP(8), AT_CFA(-8), RETAIN);
	EXPECT_ERR(F0 + 0x100, -ENOENT);	/* just past the FDE */
	EXPECT_ERR(F0 - 1, -ENOENT);		/* before the first FDE */
	EXPECT_ERR(TEST_TEXT_START - 1, -ENOENT);
	EXPECT_ERR(TEST_TEXT_END, -ENOENT);
}

UNIT_TEST(test_basic_rows, "rows: advance_loc, def_cfa_offset/register, offset, restore",
	  0);

static void test_advance(void)
{
	static const u8 insns[] = {
		DW_CFA_advance_loc | 1,			/* +4 */
		DW_CFA_def_cfa_offset, 16,
		DW_CFA_advance_loc1, 2,			/* +8 */
		DW_CFA_def_cfa_offset, 24,
		DW_CFA_advance_loc2, B16(0x100),	/* +0x400 */
		DW_CFA_def_cfa_offset, 32,
		DW_CFA_advance_loc4, B32(0x10000), /* +0x40000 */
		DW_CFA_def_cfa_offset, 40,
		DW_CFA_advance_loc | 0,			/* an empty row */
		DW_CFA_def_cfa_offset, 48,
	};
	struct cie_opts c;

	reset(8);
	c = default_cie();
	c.code_align = 4;
	one_fde(&c, insns, sizeof(insns), 0x50000);
	EXPECT_INIT(0);
	EXPECT(F0 + 3, SP(8), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 4, SP(16), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 11, SP(16), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 12, SP(24), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 12 + 0x3ff, SP(24), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 12 + 0x400, SP(32), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 12 + 0x400 + 0x3ffff, SP(32), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 12 + 0x400 + 0x40000, SP(48), AT_CFA(-8), RETAIN);
}

UNIT_TEST(test_advance, "advance_loc/1/2/4 with a code alignment factor", 0);

static void test_set_loc(void)
{
	u8 insns[64];
	static struct buf b;
	struct cie_opts c;
	static const u8 back[] = {
		DW_CFA_set_loc, B64(0x401010ULL),
		DW_CFA_def_cfa_offset, 16,
		DW_CFA_set_loc, B64(0x401008ULL),
	};
	unsigned int i;

	/* Absolute (udata8) and pc-relative (sdata4) addresses. */
	for (i = 0; i < 2; i++) {
		struct fde_opts f;
		size_t cie_off;

		reset(8);
		c = default_cie();
		c.fde_enc = i ? DW_EH_PE_pcrel | DW_EH_PE_sdata4 :
				DW_EH_PE_udata8;
		cie_off = add_cie(&T, &c);
		/*
		 * The operands are relative to their own address: after the
		 * FDE's length, CIE pointer, address, range and aug length.
		 */
		b.len = 0;
		b.addr = TEST_EH_ADDR + T.eh.len + 4 + 4 + 2 * (i ? 4 : 8) + 1;
		put_u8(&b, DW_CFA_set_loc);
		put_enc(&b, c.fde_enc, F0 + 0x10, 8, 0);
		put_u8(&b, DW_CFA_def_cfa_offset);
		put_u8(&b, 16);
		put_u8(&b, DW_CFA_set_loc);
		put_enc(&b, c.fde_enc, F0 + 0x20, 8, 0);
		put_u8(&b, DW_CFA_def_cfa_offset);
		put_u8(&b, 32);
		memcpy(insns, b.b, b.len);
		f = default_fde(F0, 0x100, insns, b.len);
		f.fde_enc = c.fde_enc;
		add_fde(&T, cie_off, &f);
		EXPECT_INIT(0);
		EXPECT(F0 + 0xf, SP(8), AT_CFA(-8), RETAIN);
		EXPECT(F0 + 0x10, SP(16), AT_CFA(-8), RETAIN);
		EXPECT(F0 + 0x1f, SP(16), AT_CFA(-8), RETAIN);
		EXPECT(F0 + 0x20, SP(32), AT_CFA(-8), RETAIN);
	}

	/* Going backwards is corrupt. */
	reset(8);
	c = default_cie();
	c.fde_enc = DW_EH_PE_udata8;
	one_fde(&c, back, sizeof(back), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0 + 0x0f, SP(8), AT_CFA(-8), RETAIN);
	EXPECT_ERR(F0 + 0x10, -EINVAL);
}

UNIT_TEST(test_set_loc, "set_loc, absolute and pc-relative, not backwards", 0);

static void test_def_cfa(void)
{
	static const u8 insns[] = {
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa_sf, 7, 0x7d,		/* rsp + -3 * -8 */
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa_offset_sf, 0x7c,		/* -4 * -8 */
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa, 0x0a, 0x80, 0x01,	/* r10 + 128 */
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa_register, 3,		/* rbx + 128 */
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa, 6, 0,			/* rbp + 0 */
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa_sf, 7, 1,		/* rsp - 8 */
	};

	reset(8);
	one_fde(NULL, insns, sizeof(insns), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0 + 1, SP(24), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 2, SP(32), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 3, OTHER(10, 128), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 4, OTHER(3, 128), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 5, FP(0), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 6, SP(-8), AT_CFA(-8), RETAIN);
}

UNIT_TEST(test_def_cfa, "def_cfa, def_cfa_sf, def_cfa_register, def_cfa_offset_sf",
	  0);

static void test_offsets(void)
{
	static const u8 insns[] = {
		DW_CFA_advance_loc | 1,
		DW_CFA_offset_extended, 6, 3,		/* cfa - 24 */
		DW_CFA_advance_loc | 1,
		DW_CFA_offset_extended_sf, 6, 0x7e,	/* -2 * -8 = cfa + 16 */
		DW_CFA_advance_loc | 1,
		DW_CFA_val_offset, 6, 2,		/* cfa - 16 */
		DW_CFA_advance_loc | 1,
		DW_CFA_val_offset_sf, 6, 0x7f,		/* cfa + 8 */
		DW_CFA_advance_loc | 1,
		DW_CFA_GNU_negative_offset_extended, 6, 2, /* cfa + 16 */
		DW_CFA_advance_loc | 1,
		DW_CFA_offset_extended, 16, 2,		/* RA: cfa - 16 */
		DW_CFA_offset | 6, 0x80, 0x01,		/* cfa - 1024 */
	};

	reset(8);
	one_fde(NULL, insns, sizeof(insns), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0 + 1, SP(8), AT_CFA(-8), AT_CFA(-24));
	EXPECT(F0 + 2, SP(8), AT_CFA(-8), AT_CFA(16));
	EXPECT(F0 + 3, SP(8), AT_CFA(-8), CFA_PLUS(-16));
	EXPECT(F0 + 4, SP(8), AT_CFA(-8), CFA_PLUS(8));
	EXPECT(F0 + 5, SP(8), AT_CFA(-8), AT_CFA(16));
	EXPECT(F0 + 6, SP(8), AT_CFA(-16), AT_CFA(-1024));
}

UNIT_TEST(test_offsets,
	  "offset, offset_extended(_sf), val_offset(_sf), GNU_negative_offset_extended",
	  0);

static void test_register_rules(void)
{
	static const u8 cie_insns[] = {
		DW_CFA_def_cfa, 7, 8,
		DW_CFA_offset | 16, 1,
		DW_CFA_offset | 6, 2,			/* CIE: rbp at cfa-16 */
	};
	static const u8 insns[] = {
		DW_CFA_advance_loc | 1,
		DW_CFA_undefined, 6,
		DW_CFA_advance_loc | 1,
		DW_CFA_restore | 6,			/* back to the CIE's */
		DW_CFA_advance_loc | 1,
		DW_CFA_same_value, 6,
		DW_CFA_advance_loc | 1,
		DW_CFA_restore_extended, 6,
		DW_CFA_advance_loc | 1,
		DW_CFA_register, 6, 3,			/* rbp in rbx */
		DW_CFA_advance_loc | 1,
		DW_CFA_register, 16, 7,			/* RA in rsp (sic) */
		DW_CFA_advance_loc | 1,
		DW_CFA_register, 6, 6,			/* rbp in rbp */
		DW_CFA_undefined, 16,
		DW_CFA_advance_loc | 1,
		DW_CFA_restore_extended, 16,
	};
	struct cie_opts c = default_cie();

	reset(8);
	c.insns = cie_insns;
	c.insns_len = sizeof(cie_insns);
	one_fde(&c, insns, sizeof(insns), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0, SP(8), AT_CFA(-8), AT_CFA(-16));
	EXPECT(F0 + 1, SP(8), AT_CFA(-8), UNDEF);
	EXPECT(F0 + 2, SP(8), AT_CFA(-8), AT_CFA(-16));
	EXPECT(F0 + 3, SP(8), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 4, SP(8), AT_CFA(-8), AT_CFA(-16));
	EXPECT(F0 + 5, SP(8), AT_CFA(-8), OTHER(3, 0));
	EXPECT(F0 + 6, SP(8), SP(0), OTHER(3, 0));
	EXPECT(F0 + 7, SP(8), UNDEF, FP(0));
	EXPECT(F0 + 8, SP(8), AT_CFA(-8), FP(0));
}

UNIT_TEST(test_register_rules,
	  "undefined, same_value, register, restore(_extended) to the CIE rule",
	  0);

static void test_restore_in_cie(void)
{
	/* In the CIE itself, DW_CFA_restore goes back to "no rule". */
	static const u8 cie_insns[] = {
		DW_CFA_def_cfa, 7, 8,
		DW_CFA_offset | 6, 2,
		DW_CFA_restore | 6,
		DW_CFA_offset | 16, 1,
	};
	static const u8 insns[] = {
		DW_CFA_advance_loc | 1,
		DW_CFA_offset | 6, 3,
		DW_CFA_advance_loc | 1,
		DW_CFA_restore | 6,
	};
	struct cie_opts c = default_cie();

	reset(8);
	c.insns = cie_insns;
	c.insns_len = sizeof(cie_insns);
	one_fde(&c, insns, sizeof(insns), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0, SP(8), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 1, SP(8), AT_CFA(-8), AT_CFA(-24));
	EXPECT(F0 + 2, SP(8), AT_CFA(-8), RETAIN);
}

UNIT_TEST(test_restore_in_cie, "restore in the CIE", 0);

static void test_remember_restore(void)
{
	static const u8 insns[] = {
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa_offset, 16,
		DW_CFA_offset | 6, 2,
		DW_CFA_remember_state,			/* depth 1 */
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa_offset, 8,
		DW_CFA_same_value, 6,
		DW_CFA_remember_state,			/* depth 2 */
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa, 6, 16,
		DW_CFA_undefined, 16,
		DW_CFA_advance_loc | 1,
		DW_CFA_restore_state,			/* depth 1 */
		DW_CFA_advance_loc | 1,
		DW_CFA_restore_state,			/* depth 0 */
		DW_CFA_advance_loc | 1,
		DW_CFA_remember_state,			/* reusable */
		DW_CFA_def_cfa_offset, 64,
		DW_CFA_restore_state,
	};
	static const u8 too_deep[] = {
		DW_CFA_remember_state,
		DW_CFA_remember_state,
		DW_CFA_remember_state,
		DW_CFA_advance_loc | 1,
	};
	static const u8 deep_enough[] = {
		DW_CFA_remember_state,
		DW_CFA_remember_state,
		DW_CFA_restore_state,
		DW_CFA_restore_state,
		DW_CFA_remember_state,
		DW_CFA_remember_state,
		DW_CFA_advance_loc | 1,
	};
	static const u8 underflow[] = {
		DW_CFA_remember_state,
		DW_CFA_restore_state,
		DW_CFA_restore_state,
		DW_CFA_advance_loc | 1,
	};

	reset(8);
	one_fde(NULL, insns, sizeof(insns), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0 + 1, SP(16), AT_CFA(-8), AT_CFA(-16));
	EXPECT(F0 + 2, SP(8), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 3, FP(16), UNDEF, RETAIN);
	EXPECT(F0 + 4, SP(8), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 5, SP(16), AT_CFA(-8), AT_CFA(-16));
	EXPECT(F0 + 6, SP(16), AT_CFA(-8), AT_CFA(-16));

	EXPECT_EVAL(deep_enough, 0, 0);
	EXPECT_EVAL(too_deep, 0, -EOPNOTSUPP);
	EXPECT_EVAL(underflow, 0, -EINVAL);
}

UNIT_TEST(test_remember_restore, "remember_state/restore_state nesting, overflow, underflow",
	  0);

static void test_untracked_and_misc(void)
{
	static const u8 insns[] = {
		DW_CFA_nop,
		DW_CFA_GNU_args_size, 0x80, 0x01,
		DW_CFA_offset | 3, 3,			/* rbx */
		DW_CFA_register, 12, 13,
		DW_CFA_undefined, 14,
		DW_CFA_same_value, 15,
		DW_CFA_restore | 3,
		DW_CFA_restore_extended, 0x80, 0x02,	/* reg 256 */
		/* Expressions nothing reads: they would fail if evaluated. */
		DW_CFA_expression, 3, 2, DW_OP_drop, DW_OP_drop,
		DW_CFA_val_expression, 12, 3, DW_OP_skip, 0, 0,
		/* An expression longer than cfi.c reads. */
		DW_CFA_expression, 13, 40,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		/* Offsets no rule could hold, for registers we do not track. */
		DW_CFA_offset_extended, 0x90, 0x4e,	/* reg 10000 */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
		DW_CFA_val_offset_sf, 3, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f,
		DW_CFA_GNU_negative_offset_extended, 3, 0xff, 0xff, 0x7f,
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa_offset, 16,
	};

	reset(8);
	one_fde(NULL, insns, sizeof(insns), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0, SP(8), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 1, SP(16), AT_CFA(-8), RETAIN);
}

UNIT_TEST(test_untracked_and_misc, "untracked registers, nop, GNU_args_size, expressions skipped",
	  0);

/*
 * DW_CFA 0x2d: AArch64's negate_ra_state, which the reader skips where the
 * architecture says so (the walk strips every return address), and
 * refuses elsewhere (SPARC's window save).
 */
static void test_negate_ra_state(void)
{
	static const u8 insns[] = {
		DW_CFA_GNU_window_save,
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa_offset, 16,
		DW_CFA_GNU_window_save,
	};
	static struct eh_frame_regs regs_negate;

	regs_negate = regs64;
	regs_negate.negate_ra_state = true;
	reset(8);
	R = &regs_negate;
	one_fde(NULL, insns, sizeof(insns), 0x100);
	EXPECT_INIT(0);
	EXPECT(F0, SP(8), AT_CFA(-8), RETAIN);
	EXPECT(F0 + 1, SP(16), AT_CFA(-8), RETAIN);

	reset(8);
	one_fde(NULL, insns, sizeof(insns), 0x100);
	EXPECT_INIT(0);
	EXPECT_ERR(F0, -EOPNOTSUPP);
}

UNIT_TEST(test_negate_ra_state, "DW_CFA 0x2d: AArch64's negate_ra_state, refused elsewhere", 0);
