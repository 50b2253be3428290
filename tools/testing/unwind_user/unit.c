// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the .eh_frame user unwinder: hand-built sections, read
 * through a fake user address space.  Prints TAP.  The harness and the
 * lookups are here; the tests are in unit_*.c, by subject, each registered
 * after its body (UNIT_TEST() in unit.h), and run in the order the files
 * are linked.
 */
#include "dwarf_regs.h"
#include "unit.h"

/* ------------------------------------------------------------------ */
/* A tiny TAP harness */

unsigned int test_failures;
static unsigned int nr_run, nr_failed;
static struct unit_test *tests, **tests_tail = &tests;

void unit_register(struct unit_test *test)
{
	*tests_tail = test;
	tests_tail = &test->next;
}

void fail(int line, const char *fmt, ...)
{
	va_list ap;

	test_failures++;
	printf("# line %d: ", line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

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

static const char * const type_names[] = {
	"RETAIN", "UNDEFINED", "CFA_OFF", "CFA_OFF_DEREF", "REG_OFF",
	"REG_OFF_DEREF",
};

const char *fmt_rule(const struct unwind_user_rule *r, char *buf)
{
	const char *type = r->type < 6 ? type_names[r->type] : "?";

	sprintf(buf, "%s(reg %u, regno %u, off %d)", type, r->reg, r->regno,
		r->off);
	return buf;
}

bool rule_eq(const struct unwind_user_rule *a,
	     const struct unwind_user_rule *b)
{
	return a->type == b->type && a->reg == b->reg &&
	       a->regno == b->regno && a->off == b->off;
}

bool frame_eq(const struct unwind_user_frame *a,
	      const struct unwind_user_frame *b)
{
	return rule_eq(&a->cfa, &b->cfa) && rule_eq(&a->ra, &b->ra) &&
	       rule_eq(&a->fp, &b->fp) && a->signal == b->signal;
}

const char *err_name(int err)
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
	case -ENOEXEC: return "-ENOEXEC";
	case -ERANGE: return "-ERANGE";
	case -EOVERFLOW: return "-EOVERFLOW";
	case -EIO: return "-EIO";
	case -EINTR: return "-EINTR";
	}
	sprintf(buf, "%d", err);
	return buf;
}

/* ------------------------------------------------------------------ */
/* Lookups */

struct test_sec T;
const struct eh_frame_regs regs64 = DWARF_REGS_X86_64;
const struct eh_frame_regs regs32 = DWARF_REGS_I386;
struct eh_frame_section S;
const struct eh_frame_regs *R = &regs64;
unsigned long text_start = TEST_TEXT_START, text_end = TEST_TEXT_END;

enum lookup_mode mode;
static const char * const mode_names[] = { "", " [index]", " [no header]" };

/* S's index, built as the registry builds it: at the first lookup. */
struct eh_frame_index *S_index;
static bool S_index_tried;
int S_index_err;

void drop_index(void)
{
	if (S_index)
		kvfree(S_index);
	S_index = NULL;
	S_index_tried = false;
	S_index_err = 0;
}

/* The lookup of kernel/unwind/registry.c, in the current mode. */
int unit_lookup(unsigned long pc, struct unwind_user_frame *frame,
		unsigned int *budget)
{
	if (mode != MODE_TABLE && !S_index_tried) {
		S_index_tried = true;
		S_index = eh_frame_index_build(&S, SIZE_MAX, NULL);
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
int test_section_init(unsigned long hdr, unsigned long hdr_size,
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

int init(void)
{
	return test_section_init(TEST_HDR_ADDR, T.hdr.len, text_start, text_end,
				 TEST_EH_ADDR + T.eh.len, T.ptr_size);
}

/* Build the header, map, init: the usual path of a test. */
int setup_hdr(const struct hdr_opts *o)
{
	build_hdr(&T, o);
	map_sec(&T);
	return init();
}

int setup(void)
{
	struct hdr_opts o = default_hdr();

	return setup_hdr(&o);
}

void reset(unsigned int ptr_size)
{
	sec_reset(&T, ptr_size);
	R = ptr_size == 8 ? &regs64 : &regs32;
	text_start = TEST_TEXT_START;
	text_end = TEST_TEXT_END;
}

void expect_at(int line, unsigned long pc, int want_ret,
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

/* One CIE (default unless given) and one FDE at F0 with @insns. */
void one_fde(const struct cie_opts *cie, const u8 *insns, size_t len,
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
int eval_at(const u8 *insns, size_t len, unsigned long off,
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

/* ------------------------------------------------------------------ */
/* Frames of real code that several test files build */

/* GCC's prologue and epilogue of a function that realigns its stack. */
const u8 drap_insns[] = {
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

const size_t drap_insns_len = sizeof(drap_insns);

/* glibc's __restore_rt: everything is in the ucontext at the sp. */
const u8 restore_rt_insns[] = {
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

const size_t restore_rt_insns_len = sizeof(restore_rt_insns);

/* Its CIE ("zRS"): no initial instructions at all. */
struct cie_opts restore_rt_cie(const char *aug)
{
	struct cie_opts c = default_cie();

	c.aug = aug;
	c.insns = NULL;
	c.insns_len = 0;
	return c;
}

int main(int argc, char **argv)
{
	struct unit_test *t;
	unsigned int nr = 0;
	char name[160];

	/* unit --elf-seeds DIR: also write the ELF files tested there. */
	if (argc == 3 && !strcmp(argv[1], "--elf-seeds"))
		elf_seed_dir = argv[2];

	for (mode = 0; mode < NR_MODES; mode++) {
		for (t = tests; t; t = t->next)
			nr += !t->modes || (t->modes & BIT(mode));
	}
	printf("TAP version 13\n1..%u\n", nr);
	for (mode = 0; mode < NR_MODES; mode++) {
		for (t = tests; t; t = t->next) {
			if (t->modes && !(t->modes & BIT(mode)))
				continue;
			snprintf(name, sizeof(name), "%s%s", t->name, mode_names[mode]);
			run(name, t->fn);
		}
	}
	printf("# %u passed, %u failed\n", nr_run - nr_failed, nr_failed);
	printf("%u passed, %u failed\n", nr_run - nr_failed, nr_failed);
	return nr_failed ? 1 : 0;
}
