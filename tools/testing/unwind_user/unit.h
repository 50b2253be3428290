/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests of the .eh_frame user unwinder (unit.c runs them): the
 * harness, the section under test and the lookups every test file uses.
 * Each test registers itself with UNIT_TEST() after its body.
 */
#ifndef _UNWIND_TEST_UNIT_H
#define _UNWIND_TEST_UNIT_H

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

/* ------------------------------------------------------------------ */
/* A tiny TAP harness */

extern unsigned int test_failures;

void fail(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			fail(__LINE__, __VA_ARGS__);			\
	} while (0)

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
extern enum lookup_mode mode;

struct unit_test {
	const char		*name;
	void			(*fn)(void);
	unsigned int		modes;	/* BIT(mode) of the modes it runs in; 0: all */
	struct unit_test	*next;
};

void unit_register(struct unit_test *test);

/* Register @func, a test named @desc, for @modes_ (0: every mode). */
#define UNIT_TEST(func, desc, modes_)					\
	static struct unit_test func##_unit = {				\
		.name = desc, .fn = func, .modes = modes_,		\
	};								\
	static void __attribute__((constructor)) func##_register(void)	\
	{								\
		unit_register(&func##_unit);				\
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

const char *fmt_rule(const struct unwind_user_rule *r, char *buf);
bool rule_eq(const struct unwind_user_rule *a, const struct unwind_user_rule *b);
bool frame_eq(const struct unwind_user_frame *a, const struct unwind_user_frame *b);
const char *err_name(int err);

/* ------------------------------------------------------------------ */
/* The section under test, and its lookups */

extern struct test_sec T;
extern struct eh_frame_section S;
extern const struct eh_frame_regs *R;
extern const struct eh_frame_regs regs64, regs32;
extern unsigned long text_start, text_end;
/* S's index, built as the registry builds it: at the first lookup. */
extern struct eh_frame_index *S_index;
extern int S_index_err;

void drop_index(void);
/* The lookup of kernel/unwind/registry.c, in the current mode. */
int unit_lookup(unsigned long pc, struct unwind_user_frame *frame,
		unsigned int *budget);
/*
 * eh_frame_section_init() of S for a header at @hdr, with no bound below
 * .eh_frame (the tests that need one set it themselves).
 */
int test_section_init(unsigned long hdr, unsigned long hdr_size,
		      unsigned long start, unsigned long end,
		      unsigned long eh_end, unsigned int ptr_size);
int init(void);
/* Build the header, map, init: the usual path of a test. */
int setup_hdr(const struct hdr_opts *o);
int setup(void);
void reset(unsigned int ptr_size);
void expect_at(int line, unsigned long pc, int want_ret,
	       struct unwind_user_rule cfa, struct unwind_user_rule ra,
	       struct unwind_user_rule fp, bool signal);

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
void one_fde(const struct cie_opts *cie, const u8 *insns, size_t len,
	     u64 range);
/* Evaluate @insns in the default CIE and FDE and look up pc F0 + @off. */
int eval_at(const u8 *insns, size_t len, unsigned long off,
	    struct unwind_user_frame *frame);

#define EXPECT_EVAL(insns, off, err)					\
	do {								\
		struct unwind_user_frame __f;				\
		int __r = eval_at(insns, sizeof(insns), off, &__f);	\
		CHECK(__r == (err), "got %s, want %s", err_name(__r),	\
		      err_name(err));					\
	} while (0)

/* ------------------------------------------------------------------ */
/* What test files share */

/* GCC's prologue and epilogue of a function that realigns its stack. */
extern const u8 drap_insns[];
extern const size_t drap_insns_len;
/* glibc's __restore_rt, and its CIE ("zRS", or @aug). */
extern const u8 restore_rt_insns[];
extern const size_t restore_rt_insns_len;
struct cie_opts restore_rt_cie(const char *aug);

/* unit_elf.c: where to write the files it tests (unit --elf-seeds), or NULL */
extern const char *elf_seed_dir;

/* unit_cache.c: the registry's lookup with the frame cache in front. */
extern struct unwind_user_cache *unit_cache;
int find_cached(unsigned long pc, unsigned int *budget,
		struct unwind_user_frame *frame);

#endif
