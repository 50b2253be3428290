// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the .eh_frame user unwinder: hand-built sections, read
 * through a fake user address space.  Prints TAP.
 */
#include <errno.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../kernel/unwind/cache.h"
#include "../../../kernel/unwind/cfi_expr.h"
#include "../../../kernel/unwind/dwarf.h"
#include "../../../kernel/unwind/dwarf_read.h"
#include "../../../kernel/unwind/eh_frame.h"
#include "builder.h"
#include "fake_user.h"
#include "lookup.h"
#include "walk.h"

static struct test_sec T;

static const struct eh_frame_regs regs64 = { .sp = 7, .fp = 6, .ra = 16 };
static const struct eh_frame_regs regs32 = { .sp = 4, .fp = 5, .ra = 8 };

/* ------------------------------------------------------------------ */
/* A tiny TAP harness */

static unsigned int nr_run, nr_failed, test_failures;

static void fail(int line, const char *fmt, ...)
{
	va_list ap;

	test_failures++;
	printf("# line %d: ", line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			fail(__LINE__, __VA_ARGS__);			\
	} while (0)

static void run(const char *name, void (*fn)(void))
{
	test_failures = 0;
	fn();
	nr_run++;
	if (test_failures) {
		nr_failed++;
		printf("not ok %u - %s\n", nr_run, name);
	} else {
		printf("ok %u - %s\n", nr_run, name);
	}
	fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* Rules */

/*
 * Multi-byte operands written as bytes, in the byte order of the machine the
 * tests run on, which is the order the kernel reads them in (the tests also
 * run as s390x code, big-endian).
 */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define B16(v)	(((v) >> 8) & 0xff), ((v) & 0xff)
#define B32(v)	B16((v) >> 16), B16(v)
#define B64(v)	B32((v) >> 32), B32(v)
#else
#define B16(v)	((v) & 0xff), (((v) >> 8) & 0xff)
#define B32(v)	B16(v), B16((v) >> 16)
#define B64(v)	B32(v), B32((v) >> 32)
#endif

#define RULE(t, r, n, o)						\
	((struct unwind_user_rule){ .type = UNWIND_USER_RULE_##t,	\
				    .reg = UNWIND_USER_REG_##r,		\
				    .regno = (n), .off = (o) })
#define SP(o)		RULE(REG_OFF, SP, 0, o)
#define FP(o)		RULE(REG_OFF, FP, 0, o)
#define OTHER(n, o)	RULE(REG_OFF, OTHER, n, o)
#define AT_SP(o)	RULE(REG_OFF_DEREF, SP, 0, o)
#define AT_FP(o)	RULE(REG_OFF_DEREF, FP, 0, o)
#define AT_CFA(o)	RULE(CFA_OFF_DEREF, SP, 0, o)
#define CFA_PLUS(o)	RULE(CFA_OFF, SP, 0, o)
#define RETAIN		RULE(RETAIN, SP, 0, 0)
#define UNDEF		RULE(UNDEFINED, SP, 0, 0)

/* Operators outside cfi_expr.c's subset: dwarf.h names only the others. */
#define DW_OP_addr		0x03
#define DW_OP_pick		0x15
#define DW_OP_rot		0x17
#define DW_OP_xderef		0x18
#define DW_OP_abs		0x19
#define DW_OP_div		0x1b
#define DW_OP_mod		0x1d
#define DW_OP_bra		0x28
#define DW_OP_skip		0x2f
#define DW_OP_reg0		0x50
#define DW_OP_regx		0x90
#define DW_OP_fbreg		0x91
#define DW_OP_piece		0x93
#define DW_OP_deref_size	0x94
#define DW_OP_call2		0x98
#define DW_OP_call4		0x99
#define DW_OP_call_frame_cfa	0x9c
#define DW_OP_implicit_value	0x9e
#define DW_OP_stack_value	0x9f
#define DW_OP_entry_value	0xa3
#define DW_OP_GNU_entry_value	0xf3

/* DW_OP_breg<n> of the x86-64 registers the tests name, DW_OP_lit<n>. */
#define OP_RBX			(DW_OP_breg0 + 3)
#define OP_RBP			(DW_OP_breg0 + 6)
#define OP_RSP			(DW_OP_breg0 + 7)
#define OP_R8			(DW_OP_breg0 + 8)
#define OP_R10			(DW_OP_breg0 + 10)
#define OP_RIP			(DW_OP_breg0 + 16)
#define LIT(n)			(DW_OP_lit0 + (n))

static const char * const type_names[] = {
	"RETAIN", "UNDEFINED", "CFA_OFF", "CFA_OFF_DEREF", "REG_OFF",
	"REG_OFF_DEREF",
};

static const char *fmt_rule(const struct unwind_user_rule *r, char *buf)
{
	const char *type = r->type < 6 ? type_names[r->type] : "?";

	sprintf(buf, "%s(reg %u, regno %u, off %d)", type, r->reg, r->regno,
		r->off);
	return buf;
}

static bool rule_eq(const struct unwind_user_rule *a,
		    const struct unwind_user_rule *b)
{
	return a->type == b->type && a->reg == b->reg &&
	       a->regno == b->regno && a->off == b->off;
}

static bool frame_eq(const struct unwind_user_frame *a,
		     const struct unwind_user_frame *b)
{
	return rule_eq(&a->cfa, &b->cfa) && rule_eq(&a->ra, &b->ra) &&
	       rule_eq(&a->fp, &b->fp) && a->signal == b->signal;
}

static const char *err_name(int err)
{
	static char buf[32];

	switch (err) {
	case 0: return "0";
	case -ENOENT: return "-ENOENT";
	case -EFAULT: return "-EFAULT";
	case -EINVAL: return "-EINVAL";
	case -EOPNOTSUPP: return "-EOPNOTSUPP";
	case -ENOMEM: return "-ENOMEM";
	case -EFBIG: return "-EFBIG";
	}
	sprintf(buf, "%d", err);
	return buf;
}

/* ------------------------------------------------------------------ */
/* Lookups */

static struct eh_frame_section S;
static const struct eh_frame_regs *R = &regs64;
static unsigned long text_start = TEST_TEXT_START, text_end = TEST_TEXT_END;

/*
 * How a lookup finds its FDE: by a binary search of the header's table in
 * user memory, with the index built from that table, or with the index of
 * .eh_frame alone (the section registered without its header).  Most tests
 * run in every mode, and must give the same results in each.
 */
enum lookup_mode { MODE_TABLE, MODE_INDEX, MODE_SCAN, NR_MODES };
/*
 * The tests of the header itself, and of what an unsupported or corrupt
 * record does to a lookup: without a header, the index skips the FDEs of a
 * CIE it does not handle (-ENOENT, not -EOPNOTSUPP) and a corrupt record
 * makes the whole table unusable, as the registry makes it for a corrupt
 * table with a header.  test_no_header covers those.
 */
#define HDR_MODES	(BIT(MODE_TABLE) | BIT(MODE_INDEX))
static const char * const mode_names[] = { "", " [index]", " [no header]" };
static enum lookup_mode mode;

/* S's index, built as the registry builds it: at the first lookup. */
static struct eh_frame_index *S_index;
static bool S_index_tried;
static int S_index_err;

static void drop_index(void)
{
	if (S_index)
		kvfree(S_index);
	S_index = NULL;
	S_index_tried = false;
	S_index_err = 0;
}

/* The lookup of kernel/unwind/registry.c, in the current mode. */
static int unit_lookup(unsigned long pc, struct unwind_user_frame *frame,
		       unsigned int *budget)
{
	if (mode != MODE_TABLE && !S_index_tried) {
		S_index_tried = true;
		S_index = eh_frame_index_build(&S);
		if (IS_ERR(S_index)) {
			S_index_err = PTR_ERR(S_index);
			S_index = NULL;
		}
	}
	/* Without a header, a table the index cannot be built for is lost. */
	if (mode == MODE_SCAN && !S_index)
		return S_index_err;
	return eh_lookup(&S, S_index, R, pc, frame, budget);
}

/*
 * eh_frame_section_init() of S for a header at @hdr, with no bound below
 * .eh_frame (the tests that need one set it themselves).
 */
static int test_section_init(unsigned long hdr, unsigned long hdr_size,
			     unsigned long start, unsigned long end,
			     unsigned long eh_end, unsigned int ptr_size)
{
	struct unwind_user_eh_frame desc = {
		.text_start = start, .text_end = end,
		.eh_frame_start = 0, .eh_frame_end = eh_end,
		.hdr_start = hdr, .hdr_end = hdr + hdr_size,
		.ptr_size = ptr_size,
	};

	drop_index();
	/* No header: .eh_frame from where the builder put it. */
	if (mode == MODE_SCAN) {
		desc.hdr_start = 0;
		desc.hdr_end = 0;
		desc.eh_frame_start = TEST_EH_ADDR;
	}
	return eh_frame_section_init(&S, &desc, NULL);
}

static int init(void)
{
	return test_section_init(TEST_HDR_ADDR, T.hdr.len, text_start, text_end,
				 TEST_EH_ADDR + T.eh.len, T.ptr_size);
}

/* Build the header, map, init: the usual path of a test. */
static int setup_hdr(const struct hdr_opts *o)
{
	build_hdr(&T, o);
	map_sec(&T);
	return init();
}

static int setup(void)
{
	struct hdr_opts o = default_hdr();

	return setup_hdr(&o);
}

static void reset(unsigned int ptr_size)
{
	sec_reset(&T, ptr_size);
	R = ptr_size == 8 ? &regs64 : &regs32;
	text_start = TEST_TEXT_START;
	text_end = TEST_TEXT_END;
}

static void expect_at(int line, unsigned long pc, int want_ret,
		      struct unwind_user_rule cfa, struct unwind_user_rule ra,
		      struct unwind_user_rule fp, bool signal)
{
	struct unwind_user_frame want = {
		.cfa = cfa, .ra = ra, .fp = fp, .signal = signal,
	}, got;
	char b1[64], b2[64], b3[64], b4[64], b5[64], b6[64];
	int ret;

	memset(&got, 0x5a, sizeof(got));
	ret = unit_lookup(pc, &got, NULL);
	if (ret != want_ret) {
		fail(line, "pc %#lx: got %s, want %s", pc, err_name(ret),
		     err_name(want_ret));
		return;
	}
	if (!ret && !frame_eq(&got, &want))
		fail(line, "pc %#lx: got cfa %s ra %s fp %s%s, want cfa %s ra %s fp %s%s",
		     pc, fmt_rule(&got.cfa, b1), fmt_rule(&got.ra, b2),
		     fmt_rule(&got.fp, b3), got.signal ? " signal" : "",
		     fmt_rule(&want.cfa, b4), fmt_rule(&want.ra, b5),
		     fmt_rule(&want.fp, b6), want.signal ? " signal" : "");
}

#define EXPECT(pc, cfa, ra, fp)	expect_at(__LINE__, pc, 0, cfa, ra, fp, false)
/* The frame of a signal trampoline: its CIE has 'S'. */
#define EXPECT_SIGNAL(pc, cfa, ra, fp)					\
	expect_at(__LINE__, pc, 0, cfa, ra, fp, true)
#define EXPECT_ERR(pc, err)						\
	expect_at(__LINE__, pc, err, RETAIN, RETAIN, RETAIN, false)
#define EXPECT_INIT(want)						\
	do {								\
		int __r = setup();					\
		CHECK(__r == (want), "init: got %s, want %s",		\
		      err_name(__r), err_name(want));			\
	} while (0)

#define F0	0x401000UL	/* where the first test function starts */

/* One CIE (default unless given) and one FDE at F0 with @insns. */
static void one_fde(const struct cie_opts *cie, const u8 *insns, size_t len,
		    u64 range)
{
	struct cie_opts c = cie ? *cie : default_cie();
	struct fde_opts f = default_fde(F0, range, insns, len);
	size_t cie_off;

	f.fde_enc = c.fde_enc;
	f.aug = c.aug[0] == 'z';
	cie_off = add_cie(&T, &c);
	add_fde(&T, cie_off, &f);
}

/* Evaluate @insns in the default CIE and FDE and look up pc F0 + @off. */
static int eval_at(const u8 *insns, size_t len, unsigned long off,
		   struct unwind_user_frame *frame)
{
	int ret;

	reset(8);
	one_fde(NULL, insns, len, 0x1000);
	ret = setup();
	if (ret)
		return ret;
	return unit_lookup(F0 + off, frame, NULL);
}

#define EXPECT_EVAL(insns, off, err)					\
	do {								\
		struct unwind_user_frame __f;				\
		int __r = eval_at(insns, sizeof(insns), off, &__f);	\
		CHECK(__r == (err), "got %s, want %s", err_name(__r),	\
		      err_name(err));					\
	} while (0)

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

/* GCC's prologue and epilogue of a function that realigns its stack. */
static const u8 drap_insns[] = {
	DW_CFA_advance_loc | 5,		/* lea 0x8(%rsp),%r10 */
	DW_CFA_def_cfa, 10, 0,
	DW_CFA_advance_loc | 12,	/* and, push, push %rbp, mov */
	DW_CFA_expression, 6, 2, OP_RBP, 0,
	DW_CFA_advance_loc | 2,		/* push %r10 */
	DW_CFA_def_cfa_expression, 3, OP_RBP, 0x78, DW_OP_deref,
	DW_CFA_advance_loc1, 0x40,	/* mov -0x8(%rbp),%r10 */
	DW_CFA_def_cfa, 10, 0,
	DW_CFA_advance_loc | 4,		/* leave; lea -0x8(%r10),%rsp */
	DW_CFA_def_cfa, 7, 8,
	DW_CFA_same_value, 6,
};

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
	one_fde(NULL, drap_insns, sizeof(drap_insns), 0x100);
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

/* glibc's __restore_rt: everything is in the ucontext at the sp. */
static const u8 restore_rt_insns[] = {
	DW_CFA_def_cfa_expression, 4, OP_RSP, 0xa0, 0x01, DW_OP_deref,
	DW_CFA_expression, 8, 2, OP_RSP, 40,
	DW_CFA_expression, 9, 2, OP_RSP, 48,
	DW_CFA_expression, 10, 2, OP_RSP, 56,
	DW_CFA_expression, 11, 3, OP_RSP, 0xc0, 0x00,
	DW_CFA_expression, 12, 3, OP_RSP, 0xc8, 0x00,
	DW_CFA_expression, 13, 3, OP_RSP, 0xd0, 0x00,
	DW_CFA_expression, 14, 3, OP_RSP, 0xd8, 0x00,
	DW_CFA_expression, 15, 3, OP_RSP, 0xe0, 0x00,
	DW_CFA_expression, 5, 3, OP_RSP, 0xe8, 0x00,
	DW_CFA_expression, 4, 3, OP_RSP, 0xf0, 0x00,
	DW_CFA_expression, 6, 3, OP_RSP, 0xf8, 0x00,
	DW_CFA_expression, 3, 3, OP_RSP, 0x80, 0x01,
	DW_CFA_expression, 1, 3, OP_RSP, 0x88, 0x01,
	DW_CFA_expression, 0, 3, OP_RSP, 0x90, 0x01,
	DW_CFA_expression, 2, 3, OP_RSP, 0x98, 0x01,
	DW_CFA_expression, 7, 3, OP_RSP, 0xa0, 0x01,
	DW_CFA_expression, 16, 3, OP_RSP, 0xa8, 0x01,
	DW_CFA_nop, DW_CFA_nop,
};

/* Its CIE ("zRS"): no initial instructions at all. */
static struct cie_opts restore_rt_cie(const char *aug)
{
	struct cie_opts c = default_cie();

	c.aug = aug;
	c.insns = NULL;
	c.insns_len = 0;
	return c;
}

static void test_expr_signal(void)
{
	struct cie_opts c;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		reset(8);
		c = restore_rt_cie(i ? "zR" : "zRS");
		/* The FDE starts a byte early: a caller's pc is ra - 1. */
		one_fde(&c, restore_rt_insns, sizeof(restore_rt_insns), 10);
		EXPECT_INIT(0);
		/* 'S' is the only difference: signal, or not. */
		expect_at(__LINE__, F0, 0, AT_SP(160), AT_SP(168), AT_SP(120),
			  !i);
		expect_at(__LINE__, F0 + 9, 0, AT_SP(160), AT_SP(168),
			  AT_SP(120), !i);
		EXPECT_ERR(F0 + 10, -ENOENT);
	}
}

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

/* ------------------------------------------------------------------ */
/* Encodings */

static void test_fde_encodings(void)
{
	static const u8 enc_ok[] = {
		DW_EH_PE_absptr, DW_EH_PE_udata4, DW_EH_PE_udata8,
		DW_EH_PE_sdata4, DW_EH_PE_sdata8, DW_EH_PE_uleb128,
		DW_EH_PE_sleb128, DW_EH_PE_pcrel | DW_EH_PE_sdata4,
		DW_EH_PE_pcrel | DW_EH_PE_sdata8,
		DW_EH_PE_pcrel | DW_EH_PE_sleb128,
		DW_EH_PE_pcrel | DW_EH_PE_absptr, DW_EH_PE_aligned,
		DW_EH_PE_udata2, DW_EH_PE_sdata2,
	};
	static const struct {
		u8 enc;
		int err;
	} enc_bad[] = {
		{ DW_EH_PE_datarel | DW_EH_PE_sdata4, -EOPNOTSUPP },
		{ DW_EH_PE_textrel | DW_EH_PE_sdata4, -EOPNOTSUPP },
		{ DW_EH_PE_funcrel | DW_EH_PE_sdata4, -EOPNOTSUPP },
		{ DW_EH_PE_indirect | DW_EH_PE_pcrel | DW_EH_PE_sdata4, -EOPNOTSUPP },
		{ DW_EH_PE_aligned | DW_EH_PE_udata4, -EINVAL },
		{ 0x60 | DW_EH_PE_sdata4, -EINVAL },
		{ 0x07, -EINVAL },
		{ DW_EH_PE_signed, -EINVAL },
		{ DW_EH_PE_omit, -EINVAL },
	};
	static const u8 insns[] = {
		DW_CFA_advance_loc | 4,
		DW_CFA_def_cfa_offset, 16,
	};
	struct cie_opts c;
	struct fde_opts f;
	unsigned long pc;
	size_t cie_off;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(enc_ok); i++) {
		bool small = (enc_ok[i] & 0x0f) == DW_EH_PE_udata2 ||
			     (enc_ok[i] & 0x0f) == DW_EH_PE_sdata2;

		reset(8);
		pc = small ? 0x2000 : F0;
		c = default_cie();
		c.fde_enc = enc_ok[i];
		cie_off = add_cie(&T, &c);
		f = default_fde(pc, 0x100, insns, sizeof(insns));
		f.fde_enc = enc_ok[i];
		add_fde(&T, cie_off, &f);
		text_start = 0x1000;
		EXPECT_INIT(0);
		EXPECT(pc + 3, SP(8), AT_CFA(-8), RETAIN);
		EXPECT(pc + 4, SP(16), AT_CFA(-8), RETAIN);
		EXPECT_ERR(pc + 0x100, -ENOENT);
	}

	for (i = 0; i < ARRAY_SIZE(enc_bad); i++) {
		reset(8);
		c = default_cie();
		c.fde_enc = enc_bad[i].enc;
		cie_off = add_cie(&T, &c);
		f = default_fde(F0, 0x100, insns, sizeof(insns));
		f.fde_enc = DW_EH_PE_udata8;	/* some bytes to read */
		add_fde(&T, cie_off, &f);
		EXPECT_INIT(0);
		EXPECT_ERR(F0, enc_bad[i].err);
	}
}

static void test_table_encodings(void)
{
	static const struct {
		u8 enc;
		unsigned long text;
		int err;
	} tables[] = {
		{ DW_EH_PE_datarel | DW_EH_PE_sdata4, F0, 0 },
		{ DW_EH_PE_datarel | DW_EH_PE_sdata8, F0, 0 },
		{ DW_EH_PE_datarel | DW_EH_PE_udata8, F0, 0 },
		{ DW_EH_PE_datarel | DW_EH_PE_sdata2, 0x5fc000, 0 },
		{ DW_EH_PE_pcrel | DW_EH_PE_sdata4, F0, 0 },
		{ DW_EH_PE_pcrel | DW_EH_PE_sdata8, F0, 0 },
		{ DW_EH_PE_absptr, F0, 0 },
		{ DW_EH_PE_udata4, F0, 0 },
		{ DW_EH_PE_sdata4, F0, 0 },
		{ DW_EH_PE_udata8, F0, 0 },
		{ DW_EH_PE_uleb128, F0, -EOPNOTSUPP },
		{ DW_EH_PE_datarel | DW_EH_PE_sleb128, F0, -EOPNOTSUPP },
		{ DW_EH_PE_textrel | DW_EH_PE_sdata4, F0, -EOPNOTSUPP },
		{ DW_EH_PE_indirect | DW_EH_PE_datarel | DW_EH_PE_sdata4, F0,
		  -EOPNOTSUPP },
		{ DW_EH_PE_omit, F0, -EOPNOTSUPP },
	};
	static const u8 insns[] = { DW_CFA_advance_loc | 4, DW_CFA_def_cfa_offset, 16 };
	struct cie_opts c;
	struct fde_opts f;
	struct hdr_opts h;
	size_t cie_off;
	unsigned int i, j;
	int ret;

	for (i = 0; i < ARRAY_SIZE(tables); i++) {
		unsigned long pc = tables[i].text;

		reset(8);
		c = default_cie();
		c.fde_enc = DW_EH_PE_udata8;
		cie_off = add_cie(&T, &c);
		/* Three FDEs, so the search has something to search. */
		for (j = 0; j < 3; j++) {
			f = default_fde(pc + j * 0x100, 0x80, insns, sizeof(insns));
			f.fde_enc = c.fde_enc;
			add_fde(&T, cie_off, &f);
		}
		h = default_hdr();
		h.table_enc = tables[i].enc;
		text_start = 0x1000;
		text_end = 0x700000;
		ret = setup_hdr(&h);
		CHECK(ret == tables[i].err, "table enc %#x: init %s",
		      tables[i].enc, err_name(ret));
		if (ret)
			continue;
		for (j = 0; j < 3; j++) {
			EXPECT(pc + j * 0x100 + 4, SP(16), AT_CFA(-8), RETAIN);
			EXPECT_ERR(pc + j * 0x100 + 0x80, -ENOENT);
		}
	}
}

static void test_hdr_fields(void)
{
	static const struct {
		u8 ptr_enc, count_enc;
		int err;
	} hdrs[] = {
		{ DW_EH_PE_pcrel | DW_EH_PE_sdata4, DW_EH_PE_udata4, 0 },
		{ DW_EH_PE_absptr, DW_EH_PE_udata8, 0 },
		{ DW_EH_PE_udata4, DW_EH_PE_udata2, 0 },
		{ DW_EH_PE_datarel | DW_EH_PE_sdata4, DW_EH_PE_uleb128, 0 },
		{ DW_EH_PE_sdata8, DW_EH_PE_sdata4, 0 },
		{ DW_EH_PE_pcrel | DW_EH_PE_uleb128, DW_EH_PE_absptr, 0 },
		{ DW_EH_PE_omit, DW_EH_PE_udata4, -EINVAL },
		{ DW_EH_PE_indirect | DW_EH_PE_pcrel | DW_EH_PE_sdata4,
		  DW_EH_PE_udata4, -EOPNOTSUPP },
		{ DW_EH_PE_pcrel | DW_EH_PE_sdata4, DW_EH_PE_pcrel | DW_EH_PE_udata4,
		  -EINVAL },
		{ DW_EH_PE_pcrel | DW_EH_PE_sdata4, DW_EH_PE_omit, -EOPNOTSUPP },
	};
	static const u8 insns[] = { DW_CFA_nop };
	struct hdr_opts h;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(hdrs); i++) {
		reset(8);
		one_fde(NULL, insns, sizeof(insns), 0x100);
		h = default_hdr();
		h.ptr_enc = hdrs[i].ptr_enc;
		h.count_enc = hdrs[i].count_enc;
		if (h.ptr_enc == DW_EH_PE_omit)
			h.ptr_enc = DW_EH_PE_udata4;	/* written, then lied about */
		build_hdr(&T, &h);
		if (hdrs[i].ptr_enc == DW_EH_PE_omit)
			T.hdr.b[1] = DW_EH_PE_omit;
		map_sec(&T);
		ret = init();
		CHECK(ret == hdrs[i].err, "hdr %#x %#x: %s", hdrs[i].ptr_enc,
		      hdrs[i].count_enc, err_name(ret));
		if (!ret)
			EXPECT(F0, SP(8), AT_CFA(-8), RETAIN);
	}
}

/* ------------------------------------------------------------------ */
/* CIEs */

static void test_cie_versions(void)
{
	static const u8 insns[] = { DW_CFA_advance_loc | 1, DW_CFA_def_cfa_offset, 16 };
	static const struct {
		u8 version, addr_size, seg_size;
		int err;
	} v[] = {
		{ 1, 0, 0, 0 }, { 3, 0, 0, 0 }, { 4, 8, 0, 0 },
		{ 4, 4, 0, -EOPNOTSUPP }, { 4, 8, 1, -EOPNOTSUPP },
		{ 2, 0, 0, -EOPNOTSUPP }, { 5, 0, 0, -EOPNOTSUPP },
		{ 0, 0, 0, -EOPNOTSUPP },
	};
	struct cie_opts c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		reset(8);
		c = default_cie();
		c.version = v[i].version;
		c.addr_size = v[i].addr_size;
		c.seg_size = v[i].seg_size;
		one_fde(&c, insns, sizeof(insns), 0x100);
		EXPECT_INIT(0);
		if (v[i].err) {
			EXPECT_ERR(F0, v[i].err);
			continue;
		}
		EXPECT(F0, SP(8), AT_CFA(-8), RETAIN);
		EXPECT(F0 + 1, SP(16), AT_CFA(-8), RETAIN);
	}

	/* Version 3 reads the RA column as ULEB128. */
	reset(8);
	c = default_cie();
	c.version = 3;
	c.ra = 200;
	one_fde(&c, insns, sizeof(insns), 0x100);
	EXPECT_INIT(0);
	EXPECT_ERR(F0, -EOPNOTSUPP);	/* parsed: 200 is not x86's RA */
}

static void test_augmentations(void)
{
	static const u8 insns[] = { DW_CFA_advance_loc | 1, DW_CFA_def_cfa_offset, 16 };
	static const struct {
		const char *aug;
		u8 per_enc;
		u64 aug_len;		/* FDE augmentation data */
		s64 adjust;		/* CIE augmentation length lie */
		int err;
	} a[] = {
		{ "zR", 0, 0, 0, 0 },
		{ "zPLR", DW_EH_PE_indirect | DW_EH_PE_pcrel | DW_EH_PE_sdata4, 4, 0, 0 },
		{ "zPLR", DW_EH_PE_uleb128, 8, 0, 0 },
		{ "zPLR", DW_EH_PE_absptr, 8, 0, 0 },
		{ "zPLR", DW_EH_PE_aligned, 8, 0, 0 },
		{ "zPLR", DW_EH_PE_udata2, 0, 0, 0 },
		{ "zRS", 0, 0, 0, 0 },
		{ "zSR", 0, 0, 0, 0 },
		{ "zPLRS", DW_EH_PE_udata2, 4, 0, 0 },
		{ "zLR", 0, 4, 0, 0 },
		{ "z", 0, 0, 0, 0 },
		{ "", 0, 0, 0, 0 },
		{ "eh", 0, 0, 0, 0 },
		{ "zRB", 0, 0, 0, -EOPNOTSUPP },
		{ "zRRRRRRR", 0, 0, 0, -EOPNOTSUPP },
		{ "R", 0, 0, 0, -EOPNOTSUPP },
		{ "zR", 0, 0, -1, -EINVAL },
		{ "zR", 0, 0, 100, -EINVAL },
		{ "zP", 0x07, 0, 0, -EINVAL },
	};
	struct cie_opts c;
	struct fde_opts f;
	size_t cie_off;
	unsigned int i;
	bool signal;

	for (i = 0; i < ARRAY_SIZE(a); i++) {
		reset(8);
		c = default_cie();
		c.aug = a[i].aug;
		c.per_enc = a[i].per_enc;
		c.per = 0x1234;
		c.lsda_enc = DW_EH_PE_pcrel | DW_EH_PE_sdata4;
		c.aug_len_adjust = a[i].adjust;
		if (!strchr(a[i].aug, 'R'))
			c.fde_enc = DW_EH_PE_absptr;
		cie_off = add_cie(&T, &c);
		f = default_fde(F0, 0x100, insns, sizeof(insns));
		f.fde_enc = c.fde_enc;
		f.aug = a[i].aug[0] == 'z';
		f.aug_len = a[i].aug_len;
		add_fde(&T, cie_off, &f);
		EXPECT_INIT(0);
		if (a[i].err) {
			EXPECT_ERR(F0, a[i].err);
			continue;
		}
		/* 'S' marks a signal frame, and nothing else does. */
		signal = strchr(a[i].aug, 'S');
		expect_at(__LINE__, F0, 0, SP(8), AT_CFA(-8), RETAIN, signal);
		expect_at(__LINE__, F0 + 1, 0, SP(16), AT_CFA(-8), RETAIN,
			  signal);
	}
}

static void test_dwarf64(void)
{
	static const u8 insns[] = { DW_CFA_advance_loc | 1, DW_CFA_def_cfa_offset, 16 };
	unsigned int i;
	struct cie_opts c;
	struct fde_opts f;
	size_t cie_off;

	for (i = 1; i < 4; i++) {
		reset(8);
		c = default_cie();
		c.dwarf64 = i & 1;
		cie_off = add_cie(&T, &c);
		f = default_fde(F0, 0x100, insns, sizeof(insns));
		f.dwarf64 = i & 2;
		add_fde(&T, cie_off, &f);
		EXPECT_INIT(0);
		EXPECT(F0, SP(8), AT_CFA(-8), RETAIN);
		EXPECT(F0 + 1, SP(16), AT_CFA(-8), RETAIN);
	}
}

static void test_multiple_cies(void)
{
	static const u8 cie2_insns[] = {
		DW_CFA_def_cfa, 7, 16, DW_CFA_offset | 16, 2,
	};
	static const u8 insns[] = { DW_CFA_nop };
	struct cie_opts c1 = default_cie(), c2 = default_cie();
	struct fde_opts f;
	size_t cie1, cie2;
	unsigned int i;

	reset(8);
	c2.insns = cie2_insns;
	c2.insns_len = sizeof(cie2_insns);
	c2.aug = "zRS";
	cie1 = add_cie(&T, &c1);
	cie2 = add_cie(&T, &c2);
	for (i = 0; i < 8; i++) {
		f = default_fde(F0 + i * 0x100, 0x100, insns, sizeof(insns));
		add_fde(&T, i & 1 ? cie2 : cie1, &f);
	}
	add_terminator(&T);
	EXPECT_INIT(0);
	for (i = 0; i < 8; i++) {
		if (i & 1)
			EXPECT_SIGNAL(F0 + i * 0x100 + 0x80, SP(16),
				      AT_CFA(-16), RETAIN);
		else
			EXPECT(F0 + i * 0x100 + 0x80, SP(8), AT_CFA(-8), RETAIN);
	}
}

/* ------------------------------------------------------------------ */
/* 32-bit objects */

static void test_elf32(void)
{
	static const u8 cie_insns[] = {
		DW_CFA_def_cfa, 4, 4,			/* esp + 4 */
		DW_CFA_offset | 8, 1,			/* eip at cfa-4 */
	};
	static const u8 insns[] = {
		DW_CFA_advance_loc | 1,
		DW_CFA_def_cfa_offset, 8,
		DW_CFA_offset | 5, 2,			/* ebp at cfa-8 */
		DW_CFA_advance_loc | 2,
		DW_CFA_def_cfa_register, 5,
	};
	static const u8 encs[] = {
		DW_EH_PE_pcrel | DW_EH_PE_sdata4, DW_EH_PE_absptr,
		DW_EH_PE_pcrel | DW_EH_PE_udata4,
	};
	struct cie_opts c;
	struct fde_opts f;
	struct hdr_opts h;
	size_t cie_off;
	unsigned int i;
	/* High in the 4 GiB space: pc-relative sums wrap around there. */
	const unsigned long pc = 0xfffff000UL;

	for (i = 0; i < ARRAY_SIZE(encs); i++) {
		reset(4);
		c = default_cie();
		c.data_align = -4;
		c.ra = 8;
		c.fde_enc = encs[i];
		c.insns = cie_insns;
		c.insns_len = sizeof(cie_insns);
		cie_off = add_cie(&T, &c);
		f = default_fde(pc, 0x100, insns, sizeof(insns));
		f.fde_enc = encs[i];
		add_fde(&T, cie_off, &f);
		h = default_hdr();
		h.table_enc = i == 1 ? DW_EH_PE_absptr :
				       DW_EH_PE_datarel | DW_EH_PE_sdata4;
		text_start = 0xffff0000UL;
		text_end = 0xfffffff0UL;
		CHECK(setup_hdr(&h) == 0, "init, enc %#x", encs[i]);
		EXPECT(pc, SP(4), AT_CFA(-4), RETAIN);
		EXPECT(pc + 1, SP(8), AT_CFA(-4), AT_CFA(-8));
		EXPECT(pc + 3, FP(8), AT_CFA(-4), AT_CFA(-8));
		EXPECT_ERR(pc + 0x100, -ENOENT);
	}

	/* A range that runs past 4 GiB is corrupt. */
	reset(4);
	c = default_cie();
	c.ra = 8;
	c.fde_enc = DW_EH_PE_absptr;
	c.insns = cie_insns;
	c.insns_len = sizeof(cie_insns);
	cie_off = add_cie(&T, &c);
	f = default_fde(pc, 0x2000, insns, sizeof(insns));
	f.fde_enc = c.fde_enc;
	add_fde(&T, cie_off, &f);
	text_start = 0xffff0000UL;
	text_end = 0xfffffff0UL;
	EXPECT_INIT(0);
	EXPECT_ERR(pc, -EINVAL);
}

/* ------------------------------------------------------------------ */
/* Corrupt sections */

static void test_bad_hdr(void)
{
	static const u8 insns[] = { DW_CFA_nop };
	struct hdr_opts h;
	int ret;

	/* Version */
	reset(8);
	one_fde(NULL, insns, sizeof(insns), 0x100);
	h = default_hdr();
	build_hdr(&T, &h);
	T.hdr.b[0] = 2;
	map_sec(&T);
	CHECK(init() == -EINVAL, "version 2");

	/* Too short for its own fields, or its table. */
	T.hdr.b[0] = 1;
	T.hdr.len = 3;
	map_sec(&T);
	CHECK(init() == -EINVAL, "3-byte header");
	build_hdr(&T, &h);
	T.hdr.len -= 1;
	map_sec(&T);
	CHECK(init() == -EINVAL, "table cut short");

	/* fde_count lies. */
	h.count_override = true;
	h.count = 0xffffffff;
	CHECK(setup_hdr(&h) == -EINVAL, "huge fde_count");
	h.count = 0xffffffffffffffffULL;
	h.count_enc = DW_EH_PE_udata8;
	CHECK(setup_hdr(&h) == -EINVAL, "huge 64-bit fde_count");
	h = default_hdr();
	h.count_override = true;
	h.count = 2;
	CHECK(setup_hdr(&h) == -EINVAL, "fde_count one too many");
	h.count = 0;
	CHECK(setup_hdr(&h) == 0, "fde_count 0");
	EXPECT_ERR(F0, -ENOENT);

	/* eh_frame_ptr beyond the readable data */
	h = default_hdr();
	h.eh_frame_ptr_adjust = T.eh.len;
	CHECK(setup_hdr(&h) == -EINVAL, "eh_frame_ptr past the end");

	/* Arguments */
	h = default_hdr();
	build_hdr(&T, &h);
	map_sec(&T);
	ret = test_section_init(TEST_HDR_ADDR, T.hdr.len, 0, 0,
				TEST_EH_ADDR + T.eh.len, 8);
	CHECK(ret == -EINVAL, "empty text: %s", err_name(ret));
	ret = test_section_init(TEST_HDR_ADDR, T.hdr.len, text_start, text_end,
				TEST_EH_ADDR + T.eh.len, 2);
	CHECK(ret == -EINVAL, "ptr_size 2: %s", err_name(ret));
	ret = test_section_init(TEST_HDR_ADDR, 0, text_start, text_end,
				TEST_EH_ADDR + T.eh.len, 8);
	CHECK(ret == -EINVAL, "empty header: %s", err_name(ret));
	ret = test_section_init(~0UL - 4, 16, text_start, text_end,
				TEST_EH_ADDR + T.eh.len, 8);
	CHECK(ret == -EINVAL, "header wraps: %s", err_name(ret));
	ret = test_section_init(0x10000, T.hdr.len, text_start, text_end,
				TEST_EH_ADDR + T.eh.len, 8);
	CHECK(ret == -EFAULT, "header unmapped: %s", err_name(ret));
}

/* Point table entry 0 somewhere else in (or out of) .eh_frame. */
static int lookup_with_fde_at(size_t off)
{
	struct unwind_user_frame f;
	struct hdr_opts h = default_hdr();

	T.fdes[0].off = off;
	build_hdr(&T, &h);
	map_sec(&T);
	if (init())
		return 1;
	return unit_lookup(F0, &f, NULL);
}

static void test_bad_records(void)
{
	static const u8 insns[] = { DW_CFA_nop };
	u8 body[64];
	size_t cie_off, fde_off;
	struct cie_opts c;

	/* The table points at the CIE, the terminator, outside. */
	reset(8);
	one_fde(NULL, insns, sizeof(insns), 0x100);
	fde_off = T.fdes[0].off;
	add_terminator(&T);
	CHECK(lookup_with_fde_at(0) == -EINVAL, "FDE pointer to the CIE");
	CHECK(lookup_with_fde_at(T.eh.len - 4) == -EINVAL, "to the terminator");
	CHECK(lookup_with_fde_at(T.eh.len) == -EINVAL, "past the end");
	CHECK(lookup_with_fde_at((size_t)-16) == -EINVAL, "before the start");
	CHECK(lookup_with_fde_at(fde_off + 2) != 0, "into the middle");
	CHECK(lookup_with_fde_at(fde_off) == 0, "and back to the FDE");

	/* Lengths */
	memcpy(T.eh.b + fde_off, "\xf0\xff\xff\xff", 4);
	CHECK(lookup_with_fde_at(fde_off) == -EINVAL, "reserved length");
	memcpy(T.eh.b + fde_off, "\x00\x10\x00\x00", 4);
	CHECK(lookup_with_fde_at(fde_off) == -EINVAL, "length past the end");
	memcpy(T.eh.b + fde_off, "\x02\x00\x00\x00", 4);
	CHECK(lookup_with_fde_at(fde_off) == -EINVAL, "length 2");
	memcpy(T.eh.b + fde_off, "\xff\xff\xff\xff", 4);
	CHECK(lookup_with_fde_at(fde_off) == -EINVAL, "64-bit escape, bad length");

	/* CIE pointers: to an FDE, to itself, before the section. */
	reset(8);
	one_fde(NULL, insns, sizeof(insns), 0x100);
	fde_off = T.fdes[0].off;
	one_fde(NULL, insns, sizeof(insns), 0x100);	/* a second CIE+FDE */
	T.fdes[1].pc = F0 + 0x1000;
	{
		u32 ptr = T.fdes[1].off + 4 - fde_off;	/* at the first FDE */

		memcpy(T.eh.b + T.fdes[1].off + 4, &ptr, 4);
	}
	EXPECT_INIT(0);
	EXPECT_ERR(F0 + 0x1000, -EINVAL);
	{
		u32 ptr = 4;		/* at its own start: a loop */

		memcpy(T.eh.b + T.fdes[1].off + 4, &ptr, 4);
	}
	EXPECT_INIT(0);
	EXPECT_ERR(F0 + 0x1000, -EINVAL);
	{
		u32 ptr = T.fdes[1].off + 4 + 16;	/* before .eh_frame */

		memcpy(T.eh.b + T.fdes[1].off + 4, &ptr, 4);
	}
	EXPECT_INIT(0);
	EXPECT_ERR(F0 + 0x1000, -EINVAL);
	{
		u32 ptr = 2;		/* into its own length field */

		memcpy(T.eh.b + T.fdes[1].off + 4, &ptr, 4);
	}
	EXPECT_INIT(0);
	EXPECT_ERR(F0 + 0x1000, -EINVAL);
	EXPECT(F0, SP(8), AT_CFA(-8), RETAIN);

	/* Records over the size bounds */
	{
		static u8 big[33 * 1024];
		struct fde_opts f;

		memset(big, DW_CFA_nop, sizeof(big));
		reset(8);
		c = default_cie();
		cie_off = add_cie(&T, &c);
		f = default_fde(F0, 0x100, big, sizeof(big));
		add_fde(&T, cie_off, &f);
		EXPECT_INIT(0);
		EXPECT_ERR(F0, -EOPNOTSUPP);

		reset(8);
		c = default_cie();
		c.insns = big;
		c.insns_len = 600;
		cie_off = add_cie(&T, &c);
		f = default_fde(F0, 0x100, insns, sizeof(insns));
		add_fde(&T, cie_off, &f);
		EXPECT_INIT(0);
		EXPECT_ERR(F0, -EOPNOTSUPP);
	}

	/* CIE fields out of range */
	reset(8);
	c = default_cie();
	c.code_align = 0x100000000ULL;
	one_fde(&c, insns, sizeof(insns), 0x100);
	EXPECT_INIT(0);
	EXPECT_ERR(F0, -EINVAL);
	reset(8);
	c = default_cie();
	c.data_align = -0x80000001LL;
	one_fde(&c, insns, sizeof(insns), 0x100);
	EXPECT_INIT(0);
	EXPECT_ERR(F0, -EINVAL);
	reset(8);
	c = default_cie();
	c.version = 3;
	c.ra = 0x10000;
	one_fde(&c, insns, sizeof(insns), 0x100);
	EXPECT_INIT(0);
	EXPECT_ERR(F0, -EINVAL);

	/* A CIE whose augmentation string runs to the end of the record */
	reset(8);
	memset(body, 0, sizeof(body));
	body[4] = 1;			/* version */
	body[5] = 'z';
	body[6] = 'R';
	add_raw(&T, false, body, 7);	/* no NUL */
	{
		struct fde_opts f = default_fde(F0, 0x100, insns, sizeof(insns));

		add_fde(&T, 0, &f);
	}
	EXPECT_INIT(0);
	EXPECT_ERR(F0, -EINVAL);

	/* The FDE's range overflows. */
	reset(8);
	c = default_cie();
	c.fde_enc = DW_EH_PE_udata8;
	cie_off = add_cie(&T, &c);
	{
		struct fde_opts f = default_fde(F0, ~0ULL - 0x100, insns,
						sizeof(insns));

		f.fde_enc = c.fde_enc;
		add_fde(&T, cie_off, &f);
	}
	EXPECT_INIT(0);
	EXPECT_ERR(F0, -EINVAL);

	/* FDE augmentation data past the record */
	reset(8);
	c = default_cie();
	cie_off = add_cie(&T, &c);
	{
		struct fde_opts f = default_fde(F0, 0x100, insns, sizeof(insns));

		add_fde(&T, cie_off, &f);
		T.eh.b[T.eh.len - 2] = 100;	/* aug length, then one nop */
	}
	EXPECT_INIT(0);
	EXPECT_ERR(F0, -EINVAL);
}

/* The table may be wrong; the answer never is. */
static void test_unsorted_table(void)
{
	static const u8 i0[] = { DW_CFA_def_cfa_offset, 16 };
	static const u8 i1[] = { DW_CFA_def_cfa_offset, 24 };
	static const u8 i2[] = { DW_CFA_def_cfa_offset, 32 };
	static const u8 *insns[] = { i0, i1, i2 };
	static const int orders[][3] = {
		{ 2, 0, 1 }, { 1, 2, 0 }, { 2, 1, 0 }, { 0, 2, 1 }, { 1, 0, 2 },
	};
	struct unwind_user_frame f;
	struct hdr_opts h;
	struct fde_opts fo;
	size_t cie_off;
	unsigned int i, j, wrong = 0, found = 0;
	int ret;

	for (i = 0; i < ARRAY_SIZE(orders); i++) {
		reset(8);
		{
			struct cie_opts c = default_cie();

			cie_off = add_cie(&T, &c);
		}
		for (j = 0; j < 3; j++) {
			fo = default_fde(F0 + j * 0x100, 0x100, insns[j], 2);
			add_fde(&T, cie_off, &fo);
		}
		h = default_hdr();
		h.order = orders[i];
		CHECK(setup_hdr(&h) == 0, "init");
		for (j = 0; j < 3; j++) {
			ret = unit_lookup(F0 + j * 0x100 + 0x80, &f, NULL);
			if (ret == -ENOENT)
				continue;
			CHECK(ret == 0, "order %u pc %u: %s", i, j, err_name(ret));
			found++;
			if (f.cfa.off != 16 + 8 * (int)j)
				wrong++;
		}
	}
	CHECK(!wrong, "%u wrong answers", wrong);
	CHECK(found, "nothing found at all");

	/* The table says an FDE starts earlier than it does. */
	reset(8);
	{
		struct cie_opts c = default_cie();

		cie_off = add_cie(&T, &c);
	}
	fo = default_fde(F0, 0x100, i0, 2);
	add_fde(&T, cie_off, &fo);
	T.fdes[0].pc = F0 - 0x100;
	EXPECT_INIT(0);
	EXPECT_ERR(F0 - 0x80, -ENOENT);
	EXPECT(F0, SP(16), AT_CFA(-8), RETAIN);
}

/* ------------------------------------------------------------------ */
/* The index (eh_frame_index_build()) */

/* Add an FDE at @pc with CFA rsp + @off, for the CIE at @cie_off. */
static void fde_with_cfa(size_t cie_off, u64 pc, u8 off)
{
	const u8 insns[] = { DW_CFA_def_cfa_offset, off };
	struct fde_opts f = default_fde(pc, 0x100, insns, sizeof(insns));

	add_fde(&T, cie_off, &f);
}

/*
 * .eh_frame alone, as gcc -static programs have it: every FDE in text is
 * found through the index, in any order, whatever CIE it has; a terminator
 * ends the section; a corrupt record or an unreadable byte loses the table.
 */
static void test_no_header(void)
{
	struct cie_opts c = default_cie(), v2 = default_cie();
	size_t cie1, cie2, bad;
	unsigned long copies;

	/* FDEs out of address order, under two CIEs. */
	reset(8);
	cie1 = add_cie(&T, &c);
	fde_with_cfa(cie1, F0 + 0x200, 48);
	fde_with_cfa(cie1, F0, 16);
	c.data_align = -4;
	cie2 = add_cie(&T, &c);
	fde_with_cfa(cie2, F0 + 0x100, 32);
	/* One outside the text, one empty: not indexed. */
	fde_with_cfa(cie2, TEST_TEXT_END + 0x100, 64);
	{
		struct fde_opts e = default_fde(F0 + 0x300, 0, NULL, 0);

		add_fde(&T, cie1, &e);
	}
	/* Version 2 CIEs do not exist: its FDE is skipped. */
	v2.version = 2;
	bad = add_cie(&T, &v2);
	fde_with_cfa(bad, F0 + 0x400, 80);
	/* Past a terminator nothing is .eh_frame any more. */
	add_terminator(&T);
	fde_with_cfa(cie1, F0 + 0x500, 96);

	EXPECT_INIT(0);
	EXPECT(F0 + 0x10, SP(16), AT_CFA(-8), RETAIN);
	/* The second CIE's data alignment factor scales the RA's offset. */
	EXPECT(F0 + 0x110, SP(32), AT_CFA(-4), RETAIN);
	EXPECT(F0 + 0x210, SP(48), AT_CFA(-8), RETAIN);
	CHECK(S_index && eh_frame_index_bytes(S_index) >= 3 * 8,
	      "index: %s", S_index ? "too small" : err_name(S_index_err));
	EXPECT_ERR(F0 + 0x310, -ENOENT);
	EXPECT_ERR(F0 + 0x410, -ENOENT);
	EXPECT_ERR(F0 + 0x510, -ENOENT);
	EXPECT_ERR(F0 - 0x10, -ENOENT);

	/* Built once: a lookup reads the FDE, in one go, and nothing else. */
	fake_user_copies = 0;
	EXPECT(F0 + 0x150, SP(32), AT_CFA(-4), RETAIN);
	copies = fake_user_copies;
	CHECK(copies == 1, "a lookup: %lu reads", copies);

	/* A record running past the end: the table is corrupt. */
	reset(8);
	cie1 = add_cie(&T, &c);
	fde_with_cfa(cie1, F0, 16);
	bad = T.eh.len;
	fde_with_cfa(cie1, F0 + 0x100, 32);
	memcpy(T.eh.b + bad, "\x00\x10\x00\x00", 4);
	EXPECT_INIT(0);
	EXPECT_ERR(F0 + 0x10, -EINVAL);

	/* An unreadable page in .eh_frame: no index, a fault, try later. */
	reset(8);
	cie1 = add_cie(&T, &c);
	fde_with_cfa(cie1, F0, 16);
	EXPECT_INIT(0);
	fake_user_reset();
	fake_user_map(TEST_EH_ADDR, T.eh.b, 8);
	EXPECT_ERR(F0 + 0x10, -EFAULT);

	/* No memory for the index: the same. */
	reset(8);
	cie1 = add_cie(&T, &c);
	fde_with_cfa(cie1, F0, 16);
	EXPECT_INIT(0);
	slab_fail_next = 1;
	EXPECT_ERR(F0 + 0x10, -ENOMEM);
	slab_fail_next = 0;
}

/* Far more FDEs than the index takes, and a section too large to read. */
static void test_no_header_bounds(void)
{
	const unsigned int n = EH_FRAME_INDEX_MAX_FDES + 1;
	const size_t cie_len = 24, fde_len = 20;
	struct unwind_user_eh_frame desc = {
		.text_start = TEST_TEXT_START,
		.text_end = TEST_TEXT_START + 4UL * n,
		.eh_frame_start = TEST_EH_ADDR,
		.eh_frame_end = TEST_EH_ADDR + cie_len + n * fde_len,
		.ptr_size = 8,
	};
	struct eh_frame_index *index;
	struct eh_frame_section sec;
	unsigned int i;
	size_t off;
	u8 *eh;

	eh = calloc(1, cie_len + n * fde_len);
	CHECK(eh, "no memory");
	if (!eh)
		return;
	/*
	 * A zR CIE (pcrel sdata4), then n FDEs of 4 bytes of text each; the
	 * lengths in the machine's byte order, the rest is bytes.
	 */
	{
		u32 len = cie_len - 4;

		memcpy(eh, &len, 4);
		memcpy(eh + 4, "\x00\x00\x00\x00\x01zR\x00\x01\x78\x10\x01\x1b"
		       "\x0c\x07\x08\x90\x01\x00\x00", cie_len - 4);
	}
	for (i = 0, off = cie_len; i < n; i++, off += fde_len) {
		u32 len = fde_len - 4, ptr = off + 4;
		s32 pc = TEST_TEXT_START + 4 * i - (TEST_EH_ADDR + off + 8);
		u32 range = 4;

		memcpy(eh + off, &len, 4);
		memcpy(eh + off + 4, &ptr, 4);
		memcpy(eh + off + 8, &pc, 4);
		memcpy(eh + off + 12, &range, 4);
	}
	fake_user_reset();
	fake_user_map(TEST_EH_ADDR, eh, desc.eh_frame_end - TEST_EH_ADDR);
	CHECK(!eh_frame_section_init(&sec, &desc, NULL), "init");
	index = eh_frame_index_build(&sec);
	CHECK(IS_ERR(index) && PTR_ERR(index) == -EFBIG, "%u FDEs: %s", n,
	      IS_ERR(index) ? err_name(PTR_ERR(index)) : "an index");
	if (!IS_ERR(index))
		kvfree(index);

	/* One FDE fewer is at the bound: indexed. */
	desc.eh_frame_end -= fde_len;
	CHECK(!eh_frame_section_init(&sec, &desc, NULL), "init");
	index = eh_frame_index_build(&sec);
	CHECK(!IS_ERR(index), "%u FDEs: %s", n - 1,
	      IS_ERR(index) ? err_name(PTR_ERR(index)) : "");
	if (!IS_ERR(index)) {
		struct eh_frame_fde fde;

		CHECK(!eh_frame_find_fde(&sec, index, TEST_TEXT_START + 4 * (n - 2) + 1,
					 &fde) && fde.pc_begin == TEST_TEXT_START + 4 * (n - 2),
		      "the last FDE");
		kvfree(index);
	}
	free(eh);

	/* Too much .eh_frame to read through is refused before any read. */
	desc.eh_frame_end = TEST_EH_ADDR + EH_FRAME_INDEX_MAX_BYTES + 1;
	CHECK(eh_frame_section_init(&sec, &desc, NULL) == -EFBIG,
	      "a section over the bound");
	desc.eh_frame_end = TEST_EH_ADDR + 4096;
	desc.text_end = desc.text_start + 0x100000000UL;
	CHECK(eh_frame_section_init(&sec, &desc, NULL) == -EFBIG,
	      "text over 4 GiB");
}

/*
 * The index of a header's table: a lookup reads one block of the table and
 * the FDE; the CIE comes from the index's cache after its first use.
 */
static void test_index_reads(void)
{
	struct cie_opts c = default_cie();
	struct unwind_user_frame f;
	unsigned int i;
	size_t cie;

	reset(8);
	cie = add_cie(&T, &c);
	for (i = 0; i < MAX_FDES - 1; i++)
		fde_with_cfa(cie, F0 + 0x100 * i, 16 + i);
	/*
	 * The last FDE's read would end where .eh_frame does, in the middle
	 * of a word, and take a second access for the rest: keep a record
	 * after it.
	 */
	{
		u8 nops[80];

		memset(nops, DW_CFA_nop, sizeof(nops));
		c.insns = nops;
		c.insns_len = sizeof(nops);
		add_cie(&T, &c);
	}
	EXPECT_INIT(0);
	EXPECT(F0 + 0x10, SP(16), AT_CFA(-8), RETAIN);
	for (i = 0; i < MAX_FDES - 1; i++) {
		fake_user_copies = 0;
		EXPECT(F0 + 0x100 * i + 0x80, SP(16 + i), AT_CFA(-8), RETAIN);
		CHECK(fake_user_copies == 2, "FDE %u: %lu reads", i,
		      fake_user_copies);
	}
	/* Without the index, the same lookup is a binary search. */
	mode = MODE_TABLE;
	drop_index();
	fake_user_copies = 0;
	CHECK(!unit_lookup(F0 + 0x80, &f, NULL), "table");
	CHECK(fake_user_copies > 2, "without the index: %lu reads",
	      fake_user_copies);
	mode = MODE_INDEX;
}

/* ------------------------------------------------------------------ */
/* Walks: kernel/unwind/user.c (walk.c) over a fake stack */

#define STK		0x7f0000UL	/* the stack */
#define ALT		0x900000UL	/* a signal stack, above it */
#define STK_WORDS	512

static unsigned long stk[STK_WORDS], alt[STK_WORDS];
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
	else
		abort();
}

/* After setup(): map the stacks, the first @alt_len bytes of the other. */
static void map_stacks(size_t alt_len)
{
	fake_user_map(STK, stk, sizeof(stk));
	fake_user_map(ALT, alt, alt_len);
}

static void clear_stacks(void)
{
	memset(stk, 0, sizeof(stk));
	memset(alt, 0, sizeof(alt));
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

static const u8 caller_insns[] = {
	DW_CFA_advance_loc | 1, DW_CFA_def_cfa_offset, 16, DW_CFA_offset | 6, 2,
};

static const u8 start_insns[] = { DW_CFA_undefined, 16 };
static const u8 r10_insns[] = {
	DW_CFA_def_cfa_expression, 3, OP_R10, 0x78, DW_OP_deref,
};

static const u8 a_insns[] = { DW_CFA_def_cfa_offset, 48 };
static const u8 nothing_insns[] = { DW_CFA_nop };

/* All of them, the signal trampoline with 'S' in its CIE or not. */
static void build_walk_sec(bool signal)
{
	static const struct {
		unsigned long pc, len;
		const u8 *insns;
		size_t insns_len;
	} fns[] = {
		{ FN_DRAP, 0x100, drap_insns, sizeof(drap_insns) },
		{ FN_CALLER, 0x100, caller_insns, sizeof(caller_insns) },
		{ FN_START, 0x40, start_insns, sizeof(start_insns) },
		{ FN_R10, 0x40, r10_insns, sizeof(r10_insns) },
		{ FN_HANDLER, 0x100, nothing_insns, sizeof(nothing_insns) },
		{ FN_A, 0x10, a_insns, sizeof(a_insns) },
		{ FN_B, 0x100, nothing_insns, sizeof(nothing_insns) },
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
			sizeof(restore_rt_insns));
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
	 * Without 'S' the same frame is an ordinary one, whose CFA may not
	 * be below the sp: the walk stops at the trampoline.
	 */
	setup_signal(false, sizeof(alt));
	EXPECT_WALK_TO(&start, stopped);

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

/* ------------------------------------------------------------------ */
/* Faults and fuzzing */

/* A section with a bit of everything, and the pcs to look up in it. */
static const u8 rich_cie_insns[] = {
	DW_CFA_def_cfa, 7, 8, DW_CFA_offset | 16, 1, DW_CFA_nop,
};

static const u8 rich_insns[] = {
	DW_CFA_advance_loc | 1, DW_CFA_def_cfa_offset, 16,
	DW_CFA_offset | 6, 2,
	DW_CFA_advance_loc | 3, DW_CFA_def_cfa_register, 6,
	DW_CFA_offset | 3, 3,
	DW_CFA_expression, 12, 2, 0x77, 0x08,
	DW_CFA_remember_state,
	DW_CFA_advance_loc1, 0x40, DW_CFA_def_cfa, 7, 8, DW_CFA_restore | 6,
	DW_CFA_advance_loc | 1, DW_CFA_restore_state,
	DW_CFA_advance_loc2, 0x00, 0x01, DW_CFA_GNU_args_size, 16,
	DW_CFA_offset_extended_sf, 6, 0x7c,
	DW_CFA_nop, DW_CFA_nop,
};

static const unsigned long rich_pcs[] = {
	F0, F0 + 1, F0 + 4, F0 + 0x44, F0 + 0x45, F0 + 0x145, F0 + 0x1ff,
	F0 + 0x200, F0 + 0x300, F0 + 0x400, F0 - 1,
	/* DRAP, a PLT entry on both sides of its push, a signal frame */
	F0 + 0x511, F0 + 0x513, F0 + 0x61a, F0 + 0x61b, F0 + 0x700,
};

/* ld's FDE of .plt */
static const u8 rich_plt_insns[] = {
	DW_CFA_def_cfa_offset, 16,
	DW_CFA_advance_loc | 6, DW_CFA_def_cfa_offset, 24,
	DW_CFA_advance_loc | 10, DW_CFA_def_cfa_expression, 11,
	OP_RSP, 8, OP_RIP, 0, LIT(15), DW_OP_and, LIT(11), DW_OP_ge, LIT(3),
	DW_OP_shl, DW_OP_plus,
};

static void build_rich(void)
{
	struct cie_opts c = default_cie();
	struct fde_opts f;
	size_t cie1, cie2;

	reset(8);
	c.insns = rich_cie_insns;
	c.insns_len = sizeof(rich_cie_insns);
	c.aug = "zPLR";
	c.per_enc = DW_EH_PE_indirect | DW_EH_PE_pcrel | DW_EH_PE_sdata4;
	c.per = 0x404000;
	c.lsda_enc = DW_EH_PE_pcrel | DW_EH_PE_sdata4;
	cie1 = add_cie(&T, &c);
	f = default_fde(F0, 0x200, rich_insns, sizeof(rich_insns));
	f.aug_len = 4;
	add_fde(&T, cie1, &f);

	c = default_cie();
	c.dwarf64 = true;
	c.version = 3;
	cie2 = add_cie(&T, &c);
	f = default_fde(F0 + 0x300, 0x100, rich_insns, 12);
	f.dwarf64 = true;
	add_fde(&T, cie2, &f);

	f = default_fde(F0 + 0x500, 0x100, drap_insns, sizeof(drap_insns));
	add_fde(&T, cie2, &f);
	f = default_fde(F0 + 0x600, 0x40, rich_plt_insns,
			sizeof(rich_plt_insns));
	f.aug_len = 4;
	add_fde(&T, cie1, &f);
	c = restore_rt_cie("zRS");
	cie2 = add_cie(&T, &c);
	f = default_fde(F0 + 0x700, 10, restore_rt_insns,
			sizeof(restore_rt_insns));
	add_fde(&T, cie2, &f);
	add_terminator(&T);
	build_hdr(&T, &(struct hdr_opts){
		.ptr_enc = DW_EH_PE_pcrel | DW_EH_PE_sdata4,
		.count_enc = DW_EH_PE_udata4,
		.table_enc = DW_EH_PE_datarel | DW_EH_PE_sdata4,
	});
}

struct golden {
	int ret;
	struct unwind_user_frame frame;
};

static void lookup_all(struct golden *g)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rich_pcs); i++) {
		memset(&g[i].frame, 0, sizeof(g[i].frame));
		g[i].ret = unit_lookup(rich_pcs[i], &g[i].frame, NULL);
	}
}

static int image_init(void)
{
	return test_section_init(TEST_HDR_ADDR, T.hdr.len, TEST_TEXT_START,
				 TEST_TEXT_END, TEST_EH_ADDR + T.eh.len, 8);
}

static void test_faults(void)
{
	struct golden want[ARRAY_SIZE(rich_pcs)], got[ARRAY_SIZE(rich_pcs)];
	unsigned int i, pass, faults = 0, bad = 0;
	size_t len;
	long hole;
	int ret;

	build_rich();
	map_image(&T, TEST_EH_OFFSET + T.eh.len, -1);
	CHECK(image_init() == 0, "init");
	lookup_all(want);
	for (i = 0; i < ARRAY_SIZE(rich_pcs); i++)
		CHECK(want[i].ret == 0 || want[i].ret == -ENOENT,
		      "golden pc %#lx: %s", rich_pcs[i], err_name(want[i].ret));

	/* Pass 0: truncate the mapping at every byte; pass 1: punch a hole. */
	for (pass = 0; pass < 2; pass++) {
		for (len = 0; len <= T.image_len; len++) {
			if (pass == 0) {
				map_image(&T, len, -1);
			} else {
				if (len == T.image_len)
					break;
				hole = len;
				map_image(&T, T.image_len, hole);
			}
			ret = image_init();
			if (ret) {
				if (ret != -EFAULT)
					bad++;
				faults++;
				continue;
			}
			lookup_all(got);
			for (i = 0; i < ARRAY_SIZE(rich_pcs); i++) {
				if (got[i].ret == -EFAULT) {
					faults++;
					continue;
				}
				if (got[i].ret != want[i].ret ||
				    (!got[i].ret &&
				     !frame_eq(&got[i].frame, &want[i].frame))) {
					if (bad++ < 5)
						printf("# pass %u at %zu: pc %#lx %s\n",
						       pass, len, rich_pcs[i],
						       err_name(got[i].ret));
				}
			}
		}
	}
	CHECK(!bad, "%u lookups neither faulted nor matched", bad);
	CHECK(faults > 100, "only %u faults", faults);
}

static bool frame_sane(const struct unwind_user_frame *f)
{
	const struct unwind_user_rule *r[] = { &f->ra, &f->fp };
	unsigned int i;

	if (f->cfa.type != UNWIND_USER_RULE_REG_OFF &&
	    f->cfa.type != UNWIND_USER_RULE_REG_OFF_DEREF)
		return false;
	if (f->cfa.reg > UNWIND_USER_REG_OTHER)
		return false;
	for (i = 0; i < 2; i++) {
		if (r[i]->type > UNWIND_USER_RULE_REG_OFF_DEREF ||
		    r[i]->reg > UNWIND_USER_REG_OTHER)
			return false;
	}
	return true;
}

/* Look up every pc of the rich section; count results that make no sense. */
static unsigned int fuzz_one(unsigned int *ok)
{
	struct golden got[ARRAY_SIZE(rich_pcs)];
	unsigned int i, bad = 0;

	if (image_init())
		return 0;
	lookup_all(got);
	for (i = 0; i < ARRAY_SIZE(rich_pcs); i++) {
		switch (got[i].ret) {
		case 0:
			(*ok)++;
			if (!frame_sane(&got[i].frame))
				bad++;
			break;
		case -ENOENT:
		case -EINVAL:
		case -EOPNOTSUPP:
		case -EFAULT:
			break;
		default:
			bad++;
		}
	}
	return bad;
}

static void test_fuzz(void)
{
	static const u8 masks[] = { 0x01, 0x02, 0x10, 0x40, 0x80, 0xff };
	unsigned int i, m, bad = 0, runs = 0, ok = 0;
	static u8 saved[sizeof(T.image)];
	unsigned int seed = 1;
	size_t pos, len;

	build_rich();
	map_image(&T, TEST_EH_OFFSET + T.eh.len, -1);
	len = T.image_len;
	if (len > sizeof(saved)) {
		fail(__LINE__, "image too large");
		return;
	}
	memcpy(saved, T.image, len);

	/* Every byte, flipped in a few ways */
	for (pos = 0; pos < len; pos++) {
		if (pos >= T.hdr.len && pos < TEST_EH_OFFSET)
			continue;	/* the gap between the sections */
		for (m = 0; m < ARRAY_SIZE(masks) + 2; m++) {
			if (m < ARRAY_SIZE(masks)) {
				T.image[pos] ^= masks[m];
			} else {
				seed = seed * 1103515245 + 12345;
				T.image[pos] = seed >> 16;
			}
			runs++;
			bad += fuzz_one(&ok);
			T.image[pos] = saved[pos];
		}
	}

	/* Then a few bytes at a time, at random */
	for (i = 0; i < 20000; i++) {
		unsigned int n = 1 + (seed >> 8) % 4;

		for (m = 0; m < n; m++) {
			seed = seed * 1103515245 + 12345;
			pos = (seed >> 8) % (T.hdr.len + T.eh.len);
			if (pos >= T.hdr.len)
				pos += TEST_EH_OFFSET - T.hdr.len;
			T.image[pos] = seed >> 20;
		}
		runs++;
		bad += fuzz_one(&ok);
		memcpy(T.image, saved, len);
	}
	CHECK(!bad, "%u insane results in %u runs", bad, runs);
	printf("# fuzz: %u mutations, %u lookups succeeded\n", runs, ok);
}

/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* The row cache (kernel/unwind/cache.c) */

extern int slab_fail_next;

static struct unwind_user_frame cache_frame(s32 off)
{
	return (struct unwind_user_frame) {
		.cfa = SP(off), .ra = AT_CFA(-8), .fp = AT_CFA(-off),
		.sp_off = off & 1, .signal = off & 2,
	};
}

/* The next pc after @pc that lands in @pc's set. */
static unsigned long cache_collider(unsigned long pc)
{
	unsigned long other;

	for (other = pc + 1; ; other++) {
		if (unwind_user_cache_slot(other) == unwind_user_cache_slot(pc))
			return other;
	}
}

static void test_cache_rows(void)
{
	struct unwind_user_frame a = cache_frame(16), b = cache_frame(35), got;
	struct unwind_user_cache_stats st;
	struct unwind_user_cache *c;
	unsigned long pc = 0x401234, other = pc, i, hits;
	unsigned int cost = 0;

	slab_fail_next = 1;
	CHECK(!unwind_user_cache_alloc(), "allocated without memory");
	c = unwind_user_cache_alloc();
	CHECK(c, "no cache");
	if (!c)
		return;

	/* A new cache knows nothing, not even pc 0 of generation 0. */
	CHECK(!unwind_user_cache_lookup(c, pc, 8, 1, &got, &cost), "empty: hit");
	CHECK(!unwind_user_cache_lookup(c, 0, 8, 0, &got, &cost), "empty row: hit");

	unwind_user_cache_insert(c, pc, 8, 1, &a, 7);
	memset(&got, 0x5a, sizeof(got));
	CHECK(unwind_user_cache_lookup(c, pc, 8, 1, &got, &cost) && frame_eq(&got, &a) &&
	      got.sp_off == a.sp_off, "hit: other frame");
	CHECK(cost == 7, "hit: cost %u, want the lookup's 7", cost);
	CHECK(!unwind_user_cache_lookup(c, pc + 1, 8, 1, &got, &cost), "other pc: hit");
	CHECK(!unwind_user_cache_lookup(c, pc, 4, 1, &got, &cost), "other word size: hit");
	/* Any change of the registry bumps the generation: a miss. */
	CHECK(!unwind_user_cache_lookup(c, pc, 8, 2, &got, &cost), "next generation: hit");
	CHECK(!unwind_user_cache_lookup(c, pc, 8, 0, &got, &cost), "older generation: hit");

	/* The row is replaced by what a lookup under a new generation found. */
	unwind_user_cache_insert(c, pc, 8, 2, &b, 7);
	CHECK(unwind_user_cache_lookup(c, pc, 8, 2, &got, &cost) && frame_eq(&got, &b) &&
	      got.sp_off == b.sp_off, "new generation: other frame");
	CHECK(!unwind_user_cache_lookup(c, pc, 8, 1, &got, &cost), "old row still there");

	/*
	 * Eviction: the pcs of a set share its rows, the oldest goes first.
	 * The row of the older generation was replaced, it took no room.
	 */
	for (i = 0; i < UNWIND_USER_CACHE_WAYS - 1; i++) {
		other = cache_collider(other);
		unwind_user_cache_insert(c, other, 8, 2, &a, 7);
	}
	CHECK(unwind_user_cache_lookup(c, pc, 8, 2, &got, &cost) && frame_eq(&got, &b),
	      "evicted with room left in the set");
	CHECK(unwind_user_cache_lookup(c, other, 8, 2, &got, &cost) && frame_eq(&got, &a),
	      "the newest pc: miss");
	other = cache_collider(other);
	unwind_user_cache_insert(c, other, 8, 2, &a, 7);
	CHECK(!unwind_user_cache_lookup(c, pc, 8, 2, &got, &cost), "oldest row not evicted");
	CHECK(unwind_user_cache_lookup(c, other, 8, 2, &got, &cost) && frame_eq(&got, &a),
	      "the new pc: miss");

	unwind_user_cache_get_stats(c, &st);
	CHECK(st.hits == 5 && st.misses == 8, "stats: %lu hits, %lu misses",
	      st.hits, st.misses);

	/* Bounded: many more pcs than rows, no more rows than the bound hit. */
	for (i = 0; i < 16 * UNWIND_USER_CACHE_ROWS; i++)
		unwind_user_cache_insert(c, 0x10000 + 4 * i, 8, 3, &a, 7);
	for (i = hits = 0; i < 16 * UNWIND_USER_CACHE_ROWS; i++)
		hits += unwind_user_cache_lookup(c, 0x10000 + 4 * i, 8, 3, &got, &cost);
	unwind_user_cache_get_stats(c, &st);
	CHECK(hits > 0 && hits <= UNWIND_USER_CACHE_ROWS,
	      "%lu hits among %lu rows", hits, (unsigned long)UNWIND_USER_CACHE_ROWS);
	CHECK(st.rows == UNWIND_USER_CACHE_ROWS &&
	      st.bytes >= st.rows * sizeof(struct unwind_user_frame) &&
	      st.bytes <= 96 * st.rows, "%lu rows in %lu bytes", st.rows, st.bytes);
	unwind_user_cache_free(c);
}

/* The registry's lookup with the cache in front, as registry.c has it. */
static struct unwind_user_cache *unit_cache;
static u64 unit_gen = 1;

static int find_cached(unsigned long pc, unsigned int *budget,
		       struct unwind_user_frame *frame)
{
	int ret;

	unsigned int cost, before = *budget;

	if (unwind_user_cache_lookup(unit_cache, pc, 8, unit_gen, frame,
				     &cost)) {
		if (cost > *budget) {
			*budget = 0;
			return -EOPNOTSUPP;
		}
		*budget -= cost;
		return 0;
	}
	ret = unit_lookup(pc, frame, budget);
	if (!ret)
		unwind_user_cache_insert(unit_cache, pc, 8, unit_gen, frame,
					 before - *budget);
	return ret;
}

/* One FDE at F0 whose CFA is sp + @off from F0 + 1 on. */
static int cache_object(u8 off)
{
	const u8 insns[] = { DW_CFA_advance_loc | 1, DW_CFA_def_cfa_offset, off };

	reset(8);
	one_fde(NULL, insns, sizeof(insns), 0x100);
	return setup();
}

/*
 * dlclose() and dlopen() of another object at the same address: the
 * registry's erase and add bump the generation, and the old object's row,
 * still in the cache, is never used.  A warm lookup reads no table.
 */
static void test_cache_same_address(void)
{
	const struct unwind_user_frame want16 = {
		.cfa = SP(16), .ra = AT_CFA(-8), .fp = RETAIN,
	}, want48 = {
		.cfa = SP(48), .ra = AT_CFA(-8), .fp = RETAIN,
	};
	struct unwind_user_frame f, old;
	unsigned int budget = UNWIND_USER_TABLE_BUDGET;

	unit_cache = unwind_user_cache_alloc();
	CHECK(unit_cache, "no cache");
	if (!unit_cache)
		return;

	CHECK(!cache_object(16), "first object");
	CHECK(!find_cached(F0 + 8, &budget, &f) && frame_eq(&f, &want16),
	      "first object: cold");
	fake_user_copies = 0;
	CHECK(!find_cached(F0 + 8, &budget, &f) && frame_eq(&f, &want16),
	      "first object: warm");
	CHECK(!fake_user_copies, "warm lookup: %lu reads", fake_user_copies);
	old = f;

	/* Unmapped, then another object mapped and registered there. */
	unit_gen += 2;
	CHECK(!cache_object(48), "second object");
	CHECK(!find_cached(F0 + 8, &budget, &f) && frame_eq(&f, &want48),
	      "second object: the first one's frame");
	CHECK(fake_user_copies, "second object: not looked up");
	CHECK(!find_cached(F0 + 8, &budget, &f) && frame_eq(&f, &want48),
	      "second object, warm: the first one's frame");
	/* Only the generation tells them apart: the same pc, other rules. */
	CHECK(!frame_eq(&old, &f), "the objects have the same rules");

	/* A pc the table does not cover is no row: looked up every time. */
	fake_user_copies = 0;
	CHECK(find_cached(F0 + 0x100, &budget, &f) == -ENOENT, "past the FDE");
	CHECK(find_cached(F0 + 0x100, &budget, &f) == -ENOENT &&
	      fake_user_copies, "past the FDE: a row for an error");
	unwind_user_cache_free(unit_cache);
	unit_cache = NULL;
}

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

int main(void)
{
	static const struct {
		const char *name;
		void (*fn)(void);
		/* BIT(mode) of the modes it runs in; 0: all */
		unsigned int modes;
	} tests[] = {
		{ "rows: advance_loc, def_cfa_offset/register, offset, restore",
		  test_basic_rows, 0 },
		{ "advance_loc/1/2/4 with a code alignment factor", test_advance, 0 },
		{ "set_loc, absolute and pc-relative, not backwards", test_set_loc, 0 },
		{ "def_cfa, def_cfa_sf, def_cfa_register, def_cfa_offset_sf", test_def_cfa, 0 },
		{ "offset, offset_extended(_sf), val_offset(_sf), GNU_negative_offset_extended",
		  test_offsets, 0 },
		{ "undefined, same_value, register, restore(_extended) to the CIE rule",
		  test_register_rules, 0 },
		{ "restore in the CIE", test_restore_in_cie, 0 },
		{ "remember_state/restore_state nesting, overflow, underflow",
		  test_remember_restore, 0 },
		{ "untracked registers, nop, GNU_args_size, expressions skipped",
		  test_untracked_and_misc, 0 },
		{ "expressions: which are read, when, how far", test_expressions, 0 },
		{ "expressions: DRAP, through rbp and other registers", test_expr_drap, 0 },
		{ "expressions: PLT entries, every pc, .plt and the second form",
		  test_expr_plt, 0 },
		{ "expressions: glibc's __restore_rt, 'S' or not", test_expr_signal, 0 },
		{ "expressions: results, constants, stack and arithmetic operators",
		  test_expr_ops, 0 },
		{ "expressions: unknown operators, overflow, underflow, truncation",
		  test_expr_errors, 0 },
		{ "expressions: operator and length bounds", test_expr_bounds, 0 },
		{ "unknown and foreign opcodes", test_bad_opcodes, 0 },
		{ "evaluation errors and the instruction limit", test_eval_errors, 0 },
		{ "advance overflow", test_advance_overflow, 0 },
		{ "FDE address encodings", test_fde_encodings, HDR_MODES },
		{ "search table encodings", test_table_encodings, HDR_MODES },
		{ "eh_frame_ptr and fde_count encodings", test_hdr_fields, HDR_MODES },
		{ "CIE versions 1, 3, 4", test_cie_versions, HDR_MODES },
		{ "augmentations z, R, P, L, S, eh", test_augmentations, HDR_MODES },
		{ "64-bit DWARF lengths", test_dwarf64, 0 },
		{ "several CIEs", test_multiple_cies, 0 },
		{ "ELF32: 4-byte pointers, wrap-around", test_elf32, 0 },
		{ "corrupt .eh_frame_hdr", test_bad_hdr, HDR_MODES },
		{ "corrupt CIEs and FDEs", test_bad_records, HDR_MODES },
		{ "unsorted or lying search table", test_unsorted_table, 0 },
		{ "no header: the index of .eh_frame", test_no_header,
		  BIT(MODE_SCAN) },
		{ "no header: the bounds of the index", test_no_header_bounds,
		  BIT(MODE_SCAN) },
		{ "index of the search table: one block, one FDE",
		  test_index_reads, BIT(MODE_INDEX) },
		{ "walk: a realigned (DRAP) frame, a fault in it", test_walk_drap, 0 },
		{ "walk: a CFA in another register, topmost frame only",
		  test_walk_drap_reg, 0 },
		{ "walk: a signal frame, its interrupted pc, an alternate stack",
		  test_walk_signal, 0 },
		{ "walk: frames in a circle, the walk's budget", test_walk_loops, 0 },
		{ "a fault at every byte", test_faults, 0 },
		{ "every byte corrupted", test_fuzz, 0 },
		{ "row cache: hit, miss, generation, word size, eviction, bound",
		  test_cache_rows, 0 },
		{ "row cache: another object at the same address", test_cache_same_address, 0 },
		{ "row cache: a circle of cached frames, the walk's budget",
		  test_cache_circle, 0 },
	};
	unsigned int i, nr = 0;
	char name[160];

	for (mode = 0; mode < NR_MODES; mode++) {
		for (i = 0; i < ARRAY_SIZE(tests); i++)
			nr += !tests[i].modes || (tests[i].modes & BIT(mode));
	}
	printf("TAP version 13\n1..%u\n", nr);
	for (mode = 0; mode < NR_MODES; mode++) {
		for (i = 0; i < ARRAY_SIZE(tests); i++) {
			if (tests[i].modes && !(tests[i].modes & BIT(mode)))
				continue;
			snprintf(name, sizeof(name), "%s%s", tests[i].name,
				 mode_names[mode]);
			run(name, tests[i].fn);
		}
	}
	printf("# %u passed, %u failed\n", nr_run - nr_failed, nr_failed);
	printf("%u passed, %u failed\n", nr_run - nr_failed, nr_failed);
	return nr_failed ? 1 : 0;
}
