// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the Windows x64 (PE) user unwinder, kernel/unwind/pe.c:
 * hand-built images (pe_builder.c) read through a fake user address space.
 * The expected rules are worked out by hand from Microsoft's description of
 * the x64 unwind data, in the comments next to each case.  Prints TAP.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/unwind_user_registry.h>

#include "../../../kernel/unwind/pe.h"
#include "fake_user.h"
#include "pe_builder.h"
#include "pe_fuzz.h"
#include "walk.h"

/* The module's lookup, for a walk by kernel/unwind/user.c (walk.c). */
#include "../../../kernel/unwind/pe_user.c"

/* x86-64 register numbers, as the ISA encodes them. */
enum {
	RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI,
	R8, R9, R10, R11, R12, R13, R14, R15,
};

#define EXACT		PE_UNWIND_EXACT_PC
#define TXT(n)		(PB_TEXT + (n))

static struct pe_unwind_image IMG;

/* pe-unit --seeds DIR: write every image the tests check as a fuzz seed. */
static const char *seed_dir;
static unsigned int nr_seeds;

static void write_seed(u8 mode)
{
	struct pe_fuzz_input in = {
		.mode = mode, .hole = nr_seeds * 131 % PB_SIZE,
		.table = PB_PDATA, .entries = PB.nr_rf,
		.pc = PB_TEXT + nr_seeds % 64,
		/* every other raw seed on a budget that may not suffice */
		.budget = nr_seeds % 4 == 3 ? 1 + nr_seeds * 7 % 64 : 0,
	};
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/unit-%03u", seed_dir, nr_seeds++);
	f = fopen(path, "wb");
	if (!f || fwrite(&in, sizeof(in), 1, f) != 1 ||
	    fwrite(PB.img, PB_SIZE, 1, f) != 1 || fclose(f)) {
		perror(path);
		exit(2);
	}
}

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
/* Expected frames */

static int nonvol_slot(unsigned int gpr)
{
	unsigned int i;

	for (i = 0; i < 8; i++)
		if (pb_nonvol_gpr[i] == gpr)
			return i;
	return -1;
}

/* CFA = reg + off, return address at CFA - 8, caller's rsp = CFA. */
static struct pe_unwind_frame W(unsigned int reg, s32 off)
{
	struct pe_unwind_frame f;

	memset(&f, 0, sizeof(f));
	f.cfa_reg = reg;
	f.cfa_off = off;
	f.ra_off = -8;
	return f;
}

/* @gpr saved at CFA + off. */
static struct pe_unwind_frame S(struct pe_unwind_frame f, unsigned int gpr,
				s32 off)
{
	int i = nonvol_slot(gpr);

	f.saved |= 1U << i;
	f.saved_off[i] = off;
	return f;
}

static struct pe_unwind_frame FL(struct pe_unwind_frame f, u8 flags)
{
	f.flags = flags;
	return f;
}

static const char * const reg_names[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};

static void fmt_frame(const struct pe_unwind_frame *f, char *buf)
{
	unsigned int i;

	buf += sprintf(buf, "CFA=%s%+d ra@%d sp@%d flags %#x",
		       reg_names[f->cfa_reg & 15], f->cfa_off, f->ra_off,
		       f->sp_off, f->flags);
	for (i = 0; i < 8; i++)
		if (f->saved & (1U << i))
			buf += sprintf(buf, " %s@%d",
				       reg_names[pb_nonvol_gpr[i]],
				       f->saved_off[i]);
}

static bool same_frame(const struct pe_unwind_frame *a,
		       const struct pe_unwind_frame *b)
{
	unsigned int i;

	if (a->cfa_reg != b->cfa_reg || a->cfa_off != b->cfa_off ||
	    a->ra_off != b->ra_off || a->sp_off != b->sp_off ||
	    a->flags != b->flags || a->saved != b->saved)
		return false;
	for (i = 0; i < 8; i++)
		if ((a->saved & (1U << i)) && a->saved_off[i] != b->saved_off[i])
			return false;
	return true;
}

/* Each read of user memory (fake_user_copies counts them) costs this. */
#define COST		UNWIND_USER_READ_COST

/* The reads of the last lookup. */
static unsigned long last_reads;

/*
 * A lookup with @budget: whatever it returns, it has paid exactly
 * UNWIND_USER_READ_COST for each read, and read no more than it could pay.
 */
static int find_budget(int line, u32 rva, unsigned int flags,
		       struct pe_unwind_frame *f, unsigned int *budget)
{
	unsigned long copies = fake_user_copies;
	unsigned int before = *budget;
	int ret;

	ret = pe_unwind_find_frame(&IMG, PB_BASE + rva, flags, f, budget);
	last_reads = fake_user_copies - copies;
	if (*budget > before || before - *budget != last_reads * COST)
		fail(line, "rva %#x: %lu reads, %d charged", rva, last_reads,
		     (int)(before - *budget));
	if (last_reads > before / COST)
		fail(line, "rva %#x: %lu reads on a budget of %u", rva,
		     last_reads, before);
	return ret;
}

/* Tests not about the budget: the walk's whole budget for one lookup. */
static int find(u32 rva, unsigned int flags, struct pe_unwind_frame *f)
{
	unsigned int budget = UNWIND_USER_TABLE_BUDGET;

	return find_budget(__LINE__, rva, flags, f, &budget);
}

static void expect_frame(int line, u32 rva, unsigned int flags,
			 struct pe_unwind_frame want)
{
	struct pe_unwind_frame got;
	char a[256], b[256];
	int ret;

	ret = find(rva, flags, &got);
	if (ret) {
		fail(line, "rva %#x: error %d", rva, ret);
		return;
	}
	if (!same_frame(&got, &want)) {
		fmt_frame(&got, a);
		fmt_frame(&want, b);
		fail(line, "rva %#x: got %s, want %s", rva, a, b);
	}
}

static void expect_err(int line, u32 rva, unsigned int flags, int err)
{
	struct pe_unwind_frame got;
	int ret = find(rva, flags, &got);

	if (ret != err)
		fail(line, "rva %#x: got %d, want %d", rva, ret, err);
}

#define EXPECT(rva, flags, want)	expect_frame(__LINE__, rva, flags, want)
#define EXPECT_ERR(rva, flags, err)	expect_err(__LINE__, rva, flags, err)

/* Map the whole image and check it. */
static int init_img(void)
{
	enum pe_unwind_check why;
	int ret;

	if (seed_dir) {
		write_seed(0);
		write_seed(PE_FUZZ_RAW);
	}
	pb_map(PB_SIZE);
	ret = pe_unwind_image_init(&IMG, PB_BASE, PB_SIZE, &why);
	if (ret)
		printf("# init: %d (%s)\n", ret, pe_unwind_check_str(why));
	return ret;
}

#define INIT()	CHECK(!init_img(), "image init failed")

/* One function at [TXT(begin), TXT(end)) with a v1 UNWIND_INFO. */
static u32 func(u32 begin, u32 end, u8 prolog, u8 frame_reg, u8 frame_off,
		const u16 *codes, unsigned int n)
{
	u32 ui = pb_add_info(1, 0, prolog, frame_reg, frame_off, codes, n,
			     NULL);

	pb_add_rf(TXT(begin), TXT(end), ui);
	return ui;
}

/* ------------------------------------------------------------------ */
/* Image checks */

static void test_headers(void)
{
	static const struct {
		const char *what;
		u32 at;		/* field to overwrite, 0: none */
		u32 val;
		unsigned int width;
		enum pe_unwind_check why;
		int err;
	} cases[] = {
		{ "valid", 0, 0, 0, PE_UNWIND_OK, 0 },
		{ "no MZ", 0, 'X', 1, PE_UNWIND_BAD_MZ, -ENOEXEC },
		{ "e_lfanew past the end", PB_OFF_LFANEW, PB_SIZE - 8, 4,
		  PE_UNWIND_BAD_LFANEW, -ENOEXEC },
		{ "e_lfanew huge", PB_OFF_LFANEW, 0xfffffff0, 4,
		  PE_UNWIND_BAD_LFANEW, -ENOEXEC },
		{ "no PE signature", PB_NT + 1, 'X', 1,
		  PE_UNWIND_BAD_PE_MAGIC, -ENOEXEC },
		{ "i386", PB_OFF_MACHINE, 0x14c, 2, PE_UNWIND_BAD_MACHINE,
		  -EOPNOTSUPP },
		{ "arm64", PB_OFF_MACHINE, 0xaa64, 2, PE_UNWIND_BAD_MACHINE,
		  -EOPNOTSUPP },
		{ "PE32", PB_OFF_OPT_MAGIC, 0x10b, 2, PE_UNWIND_BAD_OPT_MAGIC,
		  -EOPNOTSUPP },
		{ "optional header of 100 bytes", PB_OFF_OPT_SIZE, 100, 2,
		  PE_UNWIND_BAD_OPT_HDR, -ENOEXEC },
		{ "optional header without the exception entry",
		  PB_OFF_OPT_SIZE, 112 + 3 * 8, 2, PE_UNWIND_BAD_OPT_HDR,
		  -ENOEXEC },
		{ "SizeOfImage beyond the mapping", PB_OFF_IMAGE_SIZE,
		  PB_SIZE + 0x1000, 4, PE_UNWIND_BAD_IMAGE_SIZE, -ENOEXEC },
		{ "SizeOfImage below the headers", PB_OFF_IMAGE_SIZE, 0x100, 4,
		  PE_UNWIND_BAD_IMAGE_SIZE, -ENOEXEC },
		{ "three data directories", PB_OFF_NR_DIRS, 3, 4,
		  PE_UNWIND_OK, 0 },
		{ "empty exception directory", PB_OFF_EXC_DIR + 4, 0, 4,
		  PE_UNWIND_OK, 0 },
		{ "directory past SizeOfImage", PB_OFF_EXC_DIR, PB_SIZE - 12,
		  4, PE_UNWIND_BAD_DIR, -ENOEXEC },
		{ "directory wrapping", PB_OFF_EXC_DIR, 0xfffffff4, 4,
		  PE_UNWIND_BAD_DIR, -ENOEXEC },
		{ "directory size 25", PB_OFF_EXC_DIR + 4, 25, 4,
		  PE_UNWIND_BAD_DIR_SIZE, -ENOEXEC },
		{ "table at 0x1002", PB_OFF_EXC_DIR, PB_PDATA + 2, 4,
		  PE_UNWIND_BAD_ALIGN, -ENOEXEC },
		{ "empty function", PB_PDATA + 4, TXT(0), 4,
		  PE_UNWIND_BAD_ENTRY, -ENOEXEC },
		{ "function ends past the image", PB_PDATA + 16, PB_SIZE + 1,
		  4, PE_UNWIND_BAD_ENTRY, -ENOEXEC },
		{ "UNWIND_INFO past the image", PB_PDATA + 20, PB_SIZE, 4,
		  PE_UNWIND_BAD_ENTRY, -ENOEXEC },
		{ "unsorted", PB_PDATA + 12, TXT(0), 4, PE_UNWIND_BAD_ORDER,
		  -ENOEXEC },
		{ "overlapping", PB_PDATA + 12, TXT(0x8), 4,
		  PE_UNWIND_BAD_ORDER, -ENOEXEC },
		{ "adjacent", PB_PDATA + 12, TXT(0x10), 4, PE_UNWIND_OK, 0 },
		{ "second before the first", PB_PDATA, TXT(0x40), 4,
		  PE_UNWIND_BAD_ENTRY, -ENOEXEC },
	};
	static const u32 unsorted[] = { TXT(0x40), TXT(0x50), TXT(0x20),
					TXT(0x30) };
	enum pe_unwind_check why;
	unsigned int i, j;
	u32 ui;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		pb_init();
		ui = pb_add_info(1, 0, 0, 0, 0, NULL, 0, NULL);
		pb_add_rf(TXT(0), TXT(0x10), ui);
		pb_add_rf(TXT(0x20), TXT(0x30), ui);
		for (j = 0; j < cases[i].width; j++)
			PB.img[cases[i].at + j] = cases[i].val >> (8 * j);
		pb_map(PB_SIZE);
		why = PE_UNWIND_NR_CHECKS;
		ret = pe_unwind_image_init(&IMG, PB_BASE, PB_SIZE, &why);
		CHECK(ret == cases[i].err && why == cases[i].why,
		      "%s: got %d (%s), want %d (%s)", cases[i].what, ret,
		      pe_unwind_check_str(why), cases[i].err,
		      pe_unwind_check_str(cases[i].why));
	}

	/* The valid image: what init found */
	pb_init();
	ui = pb_add_info(1, 0, 0, 0, 0, NULL, 0, NULL);
	pb_add_rf(TXT(0), TXT(0x10), ui);
	pb_add_rf(TXT(0x20), TXT(0x30), ui);
	pb_map(PB_SIZE);
	ret = pe_unwind_image_init(&IMG, PB_BASE, PB_SIZE + 0x3000, &why);
	CHECK(!ret && IMG.base == PB_BASE && IMG.size == PB_SIZE &&
	      IMG.table == PB_PDATA && IMG.nr_entries == 2,
	      "valid: %d base %#lx size %#x table %#x entries %u", ret,
	      IMG.base, IMG.size, IMG.table, IMG.nr_entries);

	/* Unsorted, ends in order */
	pb_init();
	for (i = 0; i < 4; i += 2)
		pb_add_rf(unsorted[i], unsorted[i + 1], ui);
	pb_map(PB_SIZE);
	ret = pe_unwind_image_init(&IMG, PB_BASE, PB_SIZE, &why);
	CHECK(ret == -ENOEXEC && why == PE_UNWIND_BAD_ORDER,
	      "unsorted: %d (%s)", ret, pe_unwind_check_str(why));

	/* Ranges */
	pb_init();
	pb_map(PB_SIZE);
	ret = pe_unwind_image_init(&IMG, PB_BASE, 0, &why);
	CHECK(ret == -ENOEXEC && why == PE_UNWIND_BAD_RANGE, "size 0: %d", ret);
	ret = pe_unwind_image_init(&IMG, -0x1000UL, 0x2000, &why);
	CHECK(ret == -ENOEXEC && why == PE_UNWIND_BAD_RANGE, "wrap: %d", ret);

	/* Too many entries: refused before the table is read */
	pb_init();
	pb_put32(PB_OFF_IMAGE_SIZE, 0x2000000);
	pb_put32(PB_OFF_EXC_DIR + 4, 12 * (PE_UNWIND_MAX_ENTRIES + 1));
	pb_map(PB_SIZE);
	ret = pe_unwind_image_init(&IMG, PB_BASE, 0x2000000, &why);
	CHECK(ret == -EOPNOTSUPP && why == PE_UNWIND_TOO_MANY,
	      "too many: %d (%s)", ret, pe_unwind_check_str(why));

	/* Faults: the headers cut short, the table unmapped */
	pb_init();
	pb_add_rf(TXT(0), TXT(0x10), PB_XDATA);
	pb_map(0x30);
	ret = pe_unwind_image_init(&IMG, PB_BASE, PB_SIZE, &why);
	CHECK(ret == -EFAULT && why == PE_UNWIND_FAULT, "mz fault: %d", ret);
	pb_map(PB_PDATA);
	ret = pe_unwind_image_init(&IMG, PB_BASE, PB_SIZE, &why);
	CHECK(ret == -EFAULT && why == PE_UNWIND_FAULT, "table fault: %d",
	      ret);

	/* Every check has its own description */
	for (i = 0; i < PE_UNWIND_NR_CHECKS; i++) {
		CHECK(strcmp(pe_unwind_check_str(i), "?"), "check %u", i);
		for (j = 0; j < i; j++)
			CHECK(strcmp(pe_unwind_check_str(i),
				     pe_unwind_check_str(j)),
			      "checks %u and %u", i, j);
	}
	CHECK(!strcmp(pe_unwind_check_str(PE_UNWIND_NR_CHECKS), "?"),
	      "out of range");
}

/*
 * An image the kernel found by itself (pe_unwind_image_find()): its size
 * from its headers, the pc inside it, the table taken as the headers say
 * without reading it all.
 */
static void test_find(void)
{
	static const u32 unsorted[] = { TXT(0x40), TXT(0x50), TXT(0x20),
					TXT(0x30) };
	unsigned long pc = PB_BASE + TXT(0x8);
	enum pe_unwind_check why;
	unsigned int i;
	int ret;
	u32 ui;

	pb_init();
	ui = pb_add_info(1, 0, 0, 0, 0, NULL, 0, NULL);
	pb_add_rf(TXT(0), TXT(0x10), ui);
	pb_add_rf(TXT(0x20), TXT(0x30), ui);
	pb_map(PB_SIZE);
	ret = pe_unwind_image_find(&IMG, PB_BASE, PB_BASE + SZ_4G, pc, &why);
	CHECK(!ret && IMG.base == PB_BASE && IMG.size == PB_SIZE &&
	      IMG.table == PB_PDATA && IMG.nr_entries == 2,
	      "valid: %d (%s) size %#x entries %u", ret,
	      pe_unwind_check_str(why), IMG.size, IMG.nr_entries);
	CHECK(!find(TXT(0x8), 0, &(struct pe_unwind_frame){}),
	      "valid: no frame");

	ret = pe_unwind_image_find(&IMG, PB_BASE, PB_BASE + SZ_4G,
				   PB_BASE + PB_SIZE, &why);
	CHECK(ret == -ENOEXEC && why == PE_UNWIND_BAD_IMAGE_SIZE,
	      "pc past SizeOfImage: %d (%s)", ret, pe_unwind_check_str(why));
	ret = pe_unwind_image_find(&IMG, PB_BASE, PB_BASE + SZ_4G,
				   PB_BASE - 1, &why);
	CHECK(ret == -ENOEXEC && why == PE_UNWIND_BAD_RANGE,
	      "pc below the base: %d (%s)", ret, pe_unwind_check_str(why));
	ret = pe_unwind_image_find(&IMG, PB_BASE, pc + 0x10, pc, &why);
	CHECK(ret == -ENOEXEC && why == PE_UNWIND_BAD_IMAGE_SIZE,
	      "SizeOfImage past the limit: %d (%s)", ret,
	      pe_unwind_check_str(why));

	/* A truncated header, corrupt headers: refused, as for init */
	pb_map(0x30);
	ret = pe_unwind_image_find(&IMG, PB_BASE, PB_BASE + SZ_4G, pc, &why);
	CHECK(ret == -EFAULT && why == PE_UNWIND_FAULT, "truncated: %d", ret);
	pb_init();
	PB.img[PB_NT + 1] = 'X';
	pb_map(PB_SIZE);
	ret = pe_unwind_image_find(&IMG, PB_BASE, PB_BASE + SZ_4G, pc, &why);
	CHECK(ret == -ENOEXEC && why == PE_UNWIND_BAD_PE_MAGIC,
	      "no PE signature: %d (%s)", ret, pe_unwind_check_str(why));

	/* The table is not read here: an unsorted one is left to lookups. */
	pb_init();
	ui = pb_add_info(1, 0, 0, 0, 0, NULL, 0, NULL);
	for (i = 0; i < 4; i += 2)
		pb_add_rf(unsorted[i], unsorted[i + 1], ui);
	pb_map(PB_SIZE);
	ret = pe_unwind_image_find(&IMG, PB_BASE, PB_BASE + SZ_4G, pc, &why);
	CHECK(!ret && IMG.nr_entries == 2, "unsorted: %d (%s)", ret,
	      pe_unwind_check_str(why));
}

/* ------------------------------------------------------------------ */
/* Lookup */

static void test_lookup(void)
{
	/* sub rsp, 16 at offset 4: CFA = rsp + 16 + 8 in the body */
	static const u16 codes[] = { UC(4, UWOP_ALLOC_SMALL, 1) };
	unsigned int i, worst = 0, budget;
	struct pe_unwind_frame f;
	u32 ui;

	pb_init();
	ui = pb_add_info(1, 0, 4, 0, 0, codes, 1, NULL);
	for (i = 0; i < 300; i++)
		pb_add_rf(TXT(16 * i), TXT(16 * i + 12), ui);
	INIT();
	for (i = 0; i < 300; i++) {
		EXPECT(TXT(16 * i), 0, W(RSP, 8));
		EXPECT(TXT(16 * i + 3), 0, W(RSP, 8));
		fake_user_copies = 0;
		EXPECT(TXT(16 * i + 4), 0, W(RSP, 24));
		if (fake_user_copies > worst)
			worst = fake_user_copies;
		EXPECT(TXT(16 * i + 11), 0, W(RSP, 24));
		/* The gap between functions: a leaf */
		EXPECT(TXT(16 * i + 12), 0, FL(W(RSP, 8), PE_UNWIND_FRAME_LEAF));
	}
	/* A binary search: 9 probes for 300 entries, the info, its codes */
	CHECK(worst <= 11, "%u reads for one lookup", worst);
	EXPECT(0, 0, FL(W(RSP, 8), PE_UNWIND_FRAME_LEAF));
	EXPECT(PB_SIZE - 1, 0, FL(W(RSP, 8), PE_UNWIND_FRAME_LEAF));
	budget = UNWIND_USER_TABLE_BUDGET;
	CHECK(pe_unwind_find_frame(&IMG, PB_BASE - 1, 0, &f, &budget) == -ENOENT,
	      "below the image");
	CHECK(pe_unwind_find_frame(&IMG, PB_BASE + PB_SIZE, 0, &f, &budget) ==
	      -ENOENT, "above the image");
	/* Outside the image nothing is read */
	CHECK(budget == UNWIND_USER_TABLE_BUDGET, "budget %u", budget);

	/* No table at all: leaves */
	pb_init();
	INIT();
	EXPECT(TXT(0), EXACT, FL(W(RSP, 8), PE_UNWIND_FRAME_LEAF));
}

/* ------------------------------------------------------------------ */
/* Codes */

static void test_push_alloc(void)
{
	/*
	 *  0: push rbp            1: push rbx          2: push r12 (2 bytes)
	 *  4: push rax (volatile) 5: sub rsp, 0x28     9: sub rsp, 0x1000
	 * 16: body
	 */
	static const u16 codes[] = {
		UC(16, UWOP_ALLOC_LARGE, 0), UOP(0x1000 / 8),
		UC(9, UWOP_ALLOC_SMALL, 4),
		UC(5, UWOP_PUSH_NONVOL, RAX),
		UC(4, UWOP_PUSH_NONVOL, R12),
		UC(2, UWOP_PUSH_NONVOL, RBX),
		UC(1, UWOP_PUSH_NONVOL, RBP),
	};
	static const u16 large32[] = {
		UC(0, UWOP_ALLOC_LARGE, 1), UOP(0x5678), UOP(0x1234) };
	static const u16 large_info2[] = {
		UC(0, UWOP_ALLOC_LARGE, 2), UOP(0x5678), UOP(0x1234) };
	static const u16 large_max16[] = {
		UC(0, UWOP_ALLOC_LARGE, 0), UOP(0xffff) };
	static const u16 too_large[] = {
		UC(0, UWOP_ALLOC_LARGE, 1), UOP(0), UOP(0x8000) };
	static const u16 small15[] = { UC(0, UWOP_ALLOC_SMALL, 15) };
	static const u16 small0[] = { UC(0, UWOP_ALLOC_SMALL, 0) };
	static const u16 push_rsp[] = { UC(0, UWOP_PUSH_NONVOL, RSP) };
	static const u16 save_rsp[] = { UC(0, UWOP_SAVE_NONVOL, RSP), UOP(1) };
	/* every register, in prolog order; r8 and r11 are volatile */
	static const u16 all_nonvol[] = {
		UC(16, UWOP_PUSH_NONVOL, R11), UC(14, UWOP_PUSH_NONVOL, R8),
		UC(12, UWOP_PUSH_NONVOL, RDI), UC(11, UWOP_PUSH_NONVOL, RSI),
		UC(10, UWOP_PUSH_NONVOL, R15), UC(8, UWOP_PUSH_NONVOL, R14),
		UC(6, UWOP_PUSH_NONVOL, R13), UC(4, UWOP_PUSH_NONVOL, R12),
		UC(2, UWOP_PUSH_NONVOL, RBP), UC(1, UWOP_PUSH_NONVOL, RBX),
	};
	struct pe_unwind_frame f;
	u32 off;

	pb_init();
	func(0, 0x40, 16, 0, 0, codes, ARRAY_SIZE(codes));
	func(0x40, 0x50, 0, 0, 0, large32, ARRAY_SIZE(large32));
	func(0x50, 0x60, 0, 0, 0, large_info2, ARRAY_SIZE(large_info2));
	func(0x60, 0x70, 0, 0, 0, large_max16, ARRAY_SIZE(large_max16));
	func(0x70, 0x80, 0, 0, 0, too_large, ARRAY_SIZE(too_large));
	func(0x80, 0x90, 0, 0, 0, small15, 1);
	func(0x90, 0xa0, 0, 0, 0, small0, 1);
	func(0xa0, 0xb0, 0, 0, 0, push_rsp, 1);
	func(0xb0, 0xc0, 0, 0, 0, save_rsp, 2);
	func(0xc0, 0xe0, 16, 0, 0, all_nonvol, ARRAY_SIZE(all_nonvol));
	INIT();

	/* Each prolog offset undoes the codes before it */
	EXPECT(TXT(0), 0, W(RSP, 8));
	EXPECT(TXT(1), 0, S(W(RSP, 16), RBP, -16));
	f = S(S(W(RSP, 24), RBP, -16), RBX, -24);
	EXPECT(TXT(2), 0, f);
	EXPECT(TXT(3), 0, f);
	f = S(S(S(W(RSP, 32), RBP, -16), RBX, -24), R12, -32);
	EXPECT(TXT(4), 0, f);
	/* rax is pushed (8 more bytes) but not worth keeping */
	f.cfa_off = 40;
	for (off = 5; off < 9; off++)
		EXPECT(TXT(off), 0, f);
	f.cfa_off = 80;
	for (off = 9; off < 16; off++)
		EXPECT(TXT(off), 0, f);
	f.cfa_off = 0x1000 + 80;
	for (off = 16; off < 0x40; off++)
		EXPECT(TXT(off), 0, f);

	/* ALLOC_LARGE: 32-bit size (info 1; Windows takes any non-zero) */
	EXPECT(TXT(0x40), 0, W(RSP, 0x12345678 + 8));
	EXPECT(TXT(0x50), 0, W(RSP, 0x12345678 + 8));
	EXPECT(TXT(0x60), 0, W(RSP, 0xffff * 8 + 8));
	/* 2 GiB: beyond what the rule can say */
	EXPECT_ERR(TXT(0x70), 0, -EOPNOTSUPP);
	/* ALLOC_SMALL: (info + 1) * 8 */
	EXPECT(TXT(0x80), 0, W(RSP, 128 + 8));
	EXPECT(TXT(0x90), 0, W(RSP, 8 + 8));
	/* Restoring rsp from the stack is nonsense */
	EXPECT_ERR(TXT(0xa0), 0, -EINVAL);
	EXPECT_ERR(TXT(0xb0), 0, -EINVAL);

	/* Every nonvolatile register; r8 and r11 are pushed, not kept */
	f = W(RSP, 8 + 10 * 8);
	f = S(f, RBX, -16);
	f = S(f, RBP, -24);
	f = S(f, R12, -32);
	f = S(f, R13, -40);
	f = S(f, R14, -48);
	f = S(f, R15, -56);
	f = S(f, RSI, -64);
	f = S(f, RDI, -72);
	EXPECT(TXT(0xc0 + 16), 0, f);
}

static void test_fpreg(void)
{
	/*
	 * 0: push rbp  1: push rdi  2: sub rsp, 0x40  6: lea FR, [rsp + 0x20]
	 * 11: body.  FrameOffset 2: FR = rsp + 32.
	 */
	static const u16 codes[] = {
		UC(11, UWOP_SET_FPREG, 0), UC(6, UWOP_ALLOC_SMALL, 7),
		UC(2, UWOP_PUSH_NONVOL, RDI), UC(1, UWOP_PUSH_NONVOL, RBP),
	};
	/* push rbp; mov rbp, rsp (FrameOffset 0); sub rsp, 0x30: GCC -O0 */
	static const u16 gcc_o0[] = {
		UC(8, UWOP_ALLOC_SMALL, 5), UC(4, UWOP_SET_FPREG, 0),
		UC(1, UWOP_PUSH_NONVOL, RBP),
	};
	/* the frame register restored before it is set: unknowable */
	static const u16 late_push[] = {
		UC(5, UWOP_PUSH_NONVOL, RBP), UC(4, UWOP_SET_FPREG, 0),
	};
	static const u16 no_fp[] = { UC(4, UWOP_SET_FPREG, 0) };
	struct pe_unwind_frame body, pre;
	u32 off;

	pb_init();
	func(0x00, 0x40, 11, RBP, 2, codes, ARRAY_SIZE(codes));
	func(0x40, 0x80, 11, R13, 2, codes, ARRAY_SIZE(codes));
	func(0x80, 0xc0, 11, RSI, 15, codes, ARRAY_SIZE(codes));
	func(0xc0, 0x100, 11, RCX, 2, codes, ARRAY_SIZE(codes));
	func(0x100, 0x140, 8, RBP, 0, gcc_o0, ARRAY_SIZE(gcc_o0));
	func(0x140, 0x180, 5, RBP, 0, late_push, ARRAY_SIZE(late_push));
	func(0x180, 0x1c0, 5, 0, 0, no_fp, ARRAY_SIZE(no_fp));
	INIT();

	/* Before lea: rsp-based; CFA = rsp + 64 + 16 + 8 */
	pre = S(S(W(RSP, 88), RDI, -24), RBP, -16);
	for (off = 6; off < 11; off++)
		EXPECT(TXT(off), 0, pre);
	/* After: rsp = FR - 32, then + 64 + 16 + 8 */
	body = S(S(W(RBP, 56), RDI, -24), RBP, -16);
	for (off = 11; off < 0x40; off++)
		EXPECT(TXT(off), 0, body);
	body.cfa_reg = R13;
	EXPECT(TXT(0x40 + 11), 0, body);
	EXPECT(TXT(0x40 + 6), 0, pre);
	/* FrameOffset 15: FR = rsp + 240 */
	body.cfa_reg = RSI;
	body.cfa_off = -240 + 88;
	EXPECT(TXT(0x80 + 11), 0, body);
	body.cfa_reg = RCX;
	body.cfa_off = 56;
	EXPECT(TXT(0xc0 + 11), 0, body);

	/* GCC -O0: rbp = rsp after push rbp, CFA = rbp + 16 */
	EXPECT(TXT(0x100 + 20), 0, S(W(RBP, 16), RBP, -16));
	EXPECT(TXT(0x100 + 4), 0, S(W(RBP, 16), RBP, -16));
	EXPECT(TXT(0x100 + 3), 0, S(W(RSP, 16), RBP, -16));

	EXPECT_ERR(TXT(0x140 + 8), 0, -EOPNOTSUPP);
	/* SET_FPREG without a frame register */
	EXPECT_ERR(TXT(0x180 + 8), 0, -EINVAL);
}

static void test_save(void)
{
	/*
	 *  0: sub rsp, 0x38             4: mov [rsp + 0x40], rbx (home area)
	 *  9: mov [rsp + 0x20], rsi    14: mov [rsp + 0x30], r15 (far form)
	 * 22: movaps [rsp + 0x10], xmm6 27: movaps [rsp], xmm7 (far) 32: body
	 */
	static const u16 codes[] = {
		UC(32, UWOP_SAVE_XMM128_FAR, 7), UOP(0), UOP(0),
		UC(27, UWOP_SAVE_XMM128, 6), UOP(1),
		UC(22, UWOP_SAVE_NONVOL_FAR, R15), UOP(0x30), UOP(0),
		UC(14, UWOP_SAVE_NONVOL, RSI), UOP(4),
		UC(9, UWOP_SAVE_NONVOL, RBX), UOP(8),
		UC(4, UWOP_ALLOC_SMALL, 6),
	};
	/*
	 *  0: push rbp  1: sub rsp, 0x20  5: lea rbp, [rsp + 0x10]
	 * 10: mov [rbp + 8], rbx: SAVE_NONVOL slot 3 from the frame base
	 *     rbp - 16.  14: body
	 */
	static const u16 framed[] = {
		UC(14, UWOP_SAVE_NONVOL, RBX), UOP(3),
		UC(10, UWOP_SET_FPREG, 0), UC(5, UWOP_ALLOC_SMALL, 3),
		UC(1, UWOP_PUSH_NONVOL, RBP),
	};
	/* sub rsp, 0x20000; mov [rsp + 0x10000], rdi: 32-bit offset */
	static const u16 far[] = {
		UC(20, UWOP_SAVE_NONVOL_FAR, RDI), UOP(0), UOP(1),
		UC(10, UWOP_ALLOC_LARGE, 0), UOP(0x20000 / 8),
	};
	/* a frame register and a save from it, but no SET_FPREG */
	static const u16 mixed[] = {
		UC(4, UWOP_SAVE_NONVOL, RBX), UOP(1),
		UC(1, UWOP_ALLOC_SMALL, 3),
	};
	/* a volatile register saved: forgotten */
	static const u16 vol[] = {
		UC(4, UWOP_SAVE_NONVOL, R10), UOP(1),
		UC(1, UWOP_ALLOC_SMALL, 3),
	};
	struct pe_unwind_frame f = W(RSP, 64);

	pb_init();
	func(0, 0x40, 32, 0, 0, codes, ARRAY_SIZE(codes));
	func(0x40, 0x80, 14, RBP, 1, framed, ARRAY_SIZE(framed));
	func(0x80, 0xc0, 20, 0, 0, far, ARRAY_SIZE(far));
	func(0xc0, 0x100, 4, RBP, 1, mixed, ARRAY_SIZE(mixed));
	func(0x100, 0x140, 4, 0, 0, vol, ARRAY_SIZE(vol));
	INIT();

	EXPECT(TXT(4), 0, f);
	f = S(f, RBX, 0);
	EXPECT(TXT(9), 0, f);
	f = S(f, RSI, -32);
	EXPECT(TXT(14), 0, f);
	f = S(f, R15, -16);
	/* the xmm saves take 2 and 3 slots and change nothing */
	EXPECT(TXT(22), 0, f);
	EXPECT(TXT(27), 0, f);
	EXPECT(TXT(32), 0, f);

	EXPECT(TXT(0x40 + 5), 0, S(W(RSP, 48), RBP, -16));
	EXPECT(TXT(0x40 + 10), 0, S(W(RBP, 32), RBP, -16));
	EXPECT(TXT(0x40 + 14), 0, S(S(W(RBP, 32), RBP, -16), RBX, -24));

	EXPECT(TXT(0x80 + 20), 0, S(W(RSP, 0x20008), RDI, 0x10000 - 0x20008));
	EXPECT_ERR(TXT(0xc0 + 8), 0, -EOPNOTSUPP);
	EXPECT(TXT(0x100 + 8), 0, W(RSP, 40));
}

/* Apply @f to registers and a stack; compare the caller's ip and rsp. */
static void apply_check(int line, const struct pe_unwind_frame *f, u64 *regs,
			u64 want_ip, u64 want_sp)
{
	u64 ip = 0;
	int ret = pb_apply(f, regs, &ip);

	if (ret || ip != want_ip || regs[RSP] != want_sp)
		fail(line, "apply: %d ip %#llx sp %#llx, want %#llx %#llx",
		     ret, (unsigned long long)ip,
		     (unsigned long long)regs[RSP],
		     (unsigned long long)want_ip, (unsigned long long)want_sp);
}

static void test_machframe(void)
{
	static const u16 plain[] = { UC(0, UWOP_PUSH_MACHFRAME, 0) };
	static const u16 errcode[] = { UC(0, UWOP_PUSH_MACHFRAME, 1) };
	/* Wine's style: machine frame (with error code), push rbp, sub 0x28 */
	static const u16 handler[] = {
		UC(5, UWOP_ALLOC_SMALL, 4), UC(1, UWOP_PUSH_NONVOL, RBP),
		UC(0, UWOP_PUSH_MACHFRAME, 1),
	};
	static const u16 not_last[] = {
		UC(0, UWOP_PUSH_MACHFRAME, 0), UC(0, UWOP_ALLOC_SMALL, 0),
	};
	/* not reached yet: an ordinary frame */
	static const u16 later[] = { UC(3, UWOP_PUSH_MACHFRAME, 0) };
	static u64 stack[32];
	u64 regs[16] = { 0 };
	u32 ui, chain[3];

	pb_init();
	func(0, 0x10, 0, 0, 0, plain, 1);
	func(0x10, 0x20, 0, 0, 0, errcode, 1);
	func(0x20, 0x40, 5, 0, 0, handler, ARRAY_SIZE(handler));
	func(0x40, 0x50, 0, 0, 0, not_last, ARRAY_SIZE(not_last));
	func(0x50, 0x60, 4, 0, 0, later, 1);
	/* a machine frame in info that chains to another */
	ui = pb_add_info(1, 0, 0, 0, 0, NULL, 0, NULL);
	chain[0] = TXT(0x70);
	chain[1] = TXT(0x80);
	chain[2] = ui;
	pb_add_rf(TXT(0x60), TXT(0x70),
		  pb_add_info(1, UNW_FLAG_CHAININFO, 0, 0, 0, plain, 1, chain));
	pb_add_rf(TXT(0x70), TXT(0x80), ui);
	INIT();

	/* rip at rsp, rsp at rsp + 24; CFA past ss */
	EXPECT(TXT(0), 0, FL((struct pe_unwind_frame){
		.cfa_reg = RSP, .cfa_off = 40, .ra_off = -40, .sp_off = -16 },
		PE_UNWIND_FRAME_MACHINE));
	EXPECT(TXT(0x10), 0, FL((struct pe_unwind_frame){
		.cfa_reg = RSP, .cfa_off = 48, .ra_off = -40, .sp_off = -16 },
		PE_UNWIND_FRAME_MACHINE));
	EXPECT(TXT(0x30), 0, S(FL((struct pe_unwind_frame){
		.cfa_reg = RSP, .cfa_off = 96, .ra_off = -40, .sp_off = -16 },
		PE_UNWIND_FRAME_MACHINE), RBP, -56));
	EXPECT_ERR(TXT(0x40), 0, -EOPNOTSUPP);
	EXPECT(TXT(0x50), 0, W(RSP, 8));
	EXPECT_ERR(TXT(0x60), 0, -EOPNOTSUPP);

	/* The handler's frame on a stack: values, not offsets */
	fake_user_map(0x7000, stack, sizeof(stack));
	stack[5] = 0x5555;		/* rbp, pushed after the frame */
	stack[6] = 0xe;			/* error code */
	stack[7] = 0x401234;		/* rip */
	stack[8] = 0x33;		/* cs */
	stack[9] = 0x246;		/* rflags */
	stack[10] = 0x9000;		/* rsp */
	stack[11] = 0x2b;		/* ss */
	regs[RSP] = 0x7000;
	{
		struct pe_unwind_frame f;

		CHECK(!find(TXT(0x30), 0, &f), "lookup");
		apply_check(__LINE__, &f, regs, 0x401234, 0x9000);
		CHECK(regs[RBP] == 0x5555, "rbp %#llx",
		      (unsigned long long)regs[RBP]);
	}
}

static void test_chained(void)
{
	/* parent: push rbx (1), sub rsp, 0x20 (5) */
	static const u16 parent[] = {
		UC(5, UWOP_ALLOC_SMALL, 3), UC(1, UWOP_PUSH_NONVOL, RBX) };
	/* a part that saves rsi in its own prolog: mov [rsp + 0x10], rsi */
	static const u16 part[] = { UC(4, UWOP_SAVE_NONVOL, RSI), UOP(2) };
	/* parent with a frame: push rbp; lea rbp, [rsp]; push... */
	static const u16 fparent[] = {
		UC(8, UWOP_SAVE_NONVOL, RDI), UOP(1),
		UC(4, UWOP_SET_FPREG, 0), UC(1, UWOP_PUSH_NONVOL, RBP),
	};
	static const u16 one[] = { UC(0, UWOP_ALLOC_SMALL, 0) };
	u32 p, chain[3], next, ui, i;
	struct pe_unwind_frame f;

	pb_init();
	p = func(0, 0x40, 5, 0, 0, parent, ARRAY_SIZE(parent));
	chain[0] = TXT(0);
	chain[1] = TXT(0x40);
	chain[2] = p;
	/* no codes of its own */
	pb_add_rf(TXT(0x100), TXT(0x120),
		  pb_add_info(1, UNW_FLAG_CHAININFO, 0, 0, 0, NULL, 0, chain));
	/* its own prolog of 4 bytes */
	pb_add_rf(TXT(0x120), TXT(0x140),
		  pb_add_info(1, UNW_FLAG_CHAININFO, 4, 0, 0, part, 2, chain));
	/* chained through an indirect entry (to the parent's own) */
	chain[0] = 0;
	chain[1] = 0;
	chain[2] = PB_PDATA | 1;
	pb_add_rf(TXT(0x140), TXT(0x160),
		  pb_add_info(1, UNW_FLAG_CHAININFO, 0, 0, 0, NULL, 0, chain));
	/* a framed parent and a part declaring the same frame register */
	p = func(0x200, 0x240, 8, RBP, 1, fparent, ARRAY_SIZE(fparent));
	chain[0] = TXT(0x200);
	chain[1] = TXT(0x240);
	chain[2] = p;
	pb_add_rf(TXT(0x300), TXT(0x320),
		  pb_add_info(1, UNW_FLAG_CHAININFO, 0, RBP, 1, NULL, 0, chain));

	/* 32 chained infos after the first: accepted; 33: refused */
	next = 0;
	for (i = 0; i < 34; i++) {
		chain[0] = TXT(0x400 + 16 * i);
		chain[1] = TXT(0x400 + 16 * i + 16);
		chain[2] = next;
		ui = pb_add_info(1, next ? UNW_FLAG_CHAININFO : 0, 0, 0, 0,
				 one, 1, next ? chain : NULL);
		pb_add_rf(TXT(0x400 + 16 * i), TXT(0x400 + 16 * i + 16), ui);
		next = ui;
	}
	/* a cycle: an info chaining to an entry that uses it */
	chain[0] = TXT(0x800);
	chain[1] = TXT(0x810);
	chain[2] = PB.xdata;
	pb_add_rf(TXT(0x800), TXT(0x810),
		  pb_add_info(1, UNW_FLAG_CHAININFO, 0, 0, 0, NULL, 0, chain));
	INIT();

	/* all parent codes apply, whatever the part's offset */
	f = S(W(RSP, 48), RBX, -16);
	EXPECT(TXT(0x100), 0, f);
	EXPECT(TXT(0x11f), 0, f);
	EXPECT(TXT(0x123), 0, f);
	EXPECT(TXT(0x124), 0, S(f, RSI, -32));
	EXPECT(TXT(0x140), 0, f);
	/*
	 * The framed parent from its part: the base rbp - 16 holds rdi at
	 * + 8; SET_FPREG: rsp = rbp - 16, rbp pushed there, CFA = rbp.
	 */
	EXPECT(TXT(0x300), 0, S(S(W(RBP, 0), RBP, -16), RDI, -8));

	/* entry i: i chained infos after its own, each sub rsp, 8 */
	EXPECT(TXT(0x400), 0, W(RSP, 16));
	EXPECT(TXT(0x400 + 16 * 32), 0, W(RSP, 8 + 8 * 33));
	EXPECT_ERR(TXT(0x400 + 16 * 33), 0, -EINVAL);
	EXPECT_ERR(TXT(0x800), 0, -EINVAL);
}

static void test_indirect(void)
{
	/* push rbx at offset 1 */
	static const u16 codes[] = { UC(1, UWOP_PUSH_NONVOL, RBX) };
	u32 ui, target = PB_XDATA + 0x800;

	pb_init();
	ui = pb_add_info(1, 0, 1, 0, 0, codes, 1, NULL);
	/* the real entry, outside the table */
	pb_put32(target, TXT(0x10));
	pb_put32(target + 4, TXT(0x20));
	pb_put32(target + 8, ui);
	/* an indirect entry to an indirect entry */
	pb_put32(target + 12, TXT(0x10));
	pb_put32(target + 16, TXT(0x20));
	pb_put32(target + 20, target | 1);
	pb_add_rf(TXT(0x10), TXT(0x20), target | 1);
	pb_add_rf(TXT(0x20), TXT(0x30), (target + 12) | 1);
	pb_add_rf(TXT(0x30), TXT(0x40), (target + 2) | 1);
	pb_add_rf(TXT(0x40), TXT(0x50), (PB_SIZE - 8) | 1);
	/* an UNWIND_INFO that is not 4-byte aligned, or runs off the image */
	pb_add_rf(TXT(0x50), TXT(0x60), ui + 2);
	pb_put32(PB_SIZE - 4, 0x00ff0001);
	pb_add_rf(TXT(0x60), TXT(0x70), PB_SIZE - 4);
	INIT();

	EXPECT(TXT(0x10), 0, W(RSP, 8));
	EXPECT(TXT(0x11), 0, S(W(RSP, 16), RBX, -16));
	EXPECT_ERR(TXT(0x20), 0, -EINVAL);
	EXPECT_ERR(TXT(0x30), 0, -EINVAL);
	EXPECT_ERR(TXT(0x40), 0, -EINVAL);
	EXPECT_ERR(TXT(0x50), 0, -EINVAL);
	EXPECT_ERR(TXT(0x60), 0, -EINVAL);
}

/*
 * An indirect entry whose target does not contain the pc: a fragment of a
 * function (its cold path, say) placed away from it, whose entry shares the
 * function's own.  Windows and Wine unwind such a pc as the target's body:
 * it is past the target's prolog (all its codes apply); in the topmost frame
 * the instructions at the pc may be an epilog.  Those are the fragment's:
 * no byte past the fragment's end is read.
 */
static void test_indirect_outside(void)
{
	/* push rbx (1); sub rsp, 0x20 (5) */
	static const u16 codes[] = {
		UC(5, UWOP_ALLOC_SMALL, 3), UC(1, UWOP_PUSH_NONVOL, RBX) };
	/*
	 * The same with version 2 EPILOG codes: one of 6 bytes, 2 before
	 * the end, so running 4 bytes past it.
	 */
	static const u16 v2codes[] = {
		UC(6, UWOP_EPILOG, 0), UC(2, UWOP_EPILOG, 0),
		UC(5, UWOP_ALLOC_SMALL, 3), UC(1, UWOP_PUSH_NONVOL, RBX) };
	static const u8 add_pop[] = { 0x48, 0x83, 0xc4, 0x20, 0x5b };
	struct pe_unwind_frame body = S(W(RSP, 48), RBX, -16);
	u32 ui;

	pb_init();
	ui = pb_add_info(1, 0, 5, 0, 0, codes, ARRAY_SIZE(codes), NULL);
	/* entry 0: P [0, 0x40); entry 1: its fragment [0x100, 0x110) */
	pb_add_rf(TXT(0x00), TXT(0x40), ui);
	pb_add_rf(TXT(0x100), TXT(0x110), PB_PDATA | 1);
	/* the fragment ends with add rsp, 0x20; pop rbx: its jmp is elsewhere */
	pb_code(TXT(0x110 - sizeof(add_pop)), add_pop, sizeof(add_pop));
	/* a ret right after it, in the next function */
	pb_code(TXT(0x110), "\xc3", 1);
	/* entry 2: a fragment [0x180, 0x190) before its function, entry 3 */
	pb_add_rf(TXT(0x180), TXT(0x190), (PB_PDATA + 3 * 12) | 1);
	pb_code(TXT(0x18e), "\x5b\xc3", 2);
	pb_add_rf(TXT(0x200), TXT(0x240), ui);
	/* entry 4: P3 [0x300, 0x310), version 2; 5: its fragment just after */
	ui = pb_add_info(2, 0, 5, 0, 0, v2codes, ARRAY_SIZE(v2codes), NULL);
	pb_add_rf(TXT(0x300), TXT(0x310), ui);
	pb_add_rf(TXT(0x310), TXT(0x320), (PB_PDATA + 4 * 12) | 1);
	pb_code(TXT(0x311), "\x5b\xc3", 2);
	INIT();

	/* P's body, from anywhere in the fragment */
	EXPECT(TXT(0x100), 0, body);
	EXPECT(TXT(0x10f), 0, body);
	EXPECT(TXT(0x100), EXACT, body);
	/*
	 * pop rbx is the fragment's last byte: no epilog in it.  The ret
	 * after its end is another function's.
	 */
	EXPECT(TXT(0x10f), EXACT, body);
	EXPECT(TXT(0x10b), EXACT, body);
	/* Nothing mapped past the fragment: nothing read there */
	pb_map(TXT(0x110));
	EXPECT(TXT(0x10f), EXACT, body);
	EXPECT(TXT(0x10b), EXACT, body);
	pb_map(PB_SIZE);

	/* Before its function: past the prolog as well */
	EXPECT(TXT(0x180), 0, body);
	EXPECT(TXT(0x18e), 0, body);
	/* pop rbx; ret in the fragment: an epilog, read up to its end */
	pb_map(TXT(0x190));
	EXPECT(TXT(0x18e), EXACT, FL(S(W(RSP, 16), RBX, -16),
				     PE_UNWIND_FRAME_EPILOG));
	EXPECT(TXT(0x18f), EXACT, FL(W(RSP, 8), PE_UNWIND_FRAME_EPILOG));
	pb_map(PB_SIZE);

	/*
	 * P3's EPILOG codes describe P3's epilogs: the one they place over
	 * P3's end does not make its fragment's pop; ret one.
	 */
	EXPECT(TXT(0x311), EXACT, body);
	EXPECT(TXT(0x312), EXACT, body);
	EXPECT(TXT(0x311), 0, body);
}

/* ------------------------------------------------------------------ */
/* Epilogs */

static const u8 add_pop_ret[] = { 0x48, 0x83, 0xc4, 0x20, 0x5b, 0xc3 };

static void test_epilog_v2(void)
{
	/*
	 * push rbx (1); sub rsp, 0x20 (5); epilogs "add rsp, 0x20; pop rbx;
	 * ret" (6 bytes) at 0x10 and at the end (0x2a).  Codes: the header
	 * (size 6, one at the end), one at 0x30 - 0x20.
	 */
	static const u16 codes[] = {
		UC(6, UWOP_EPILOG, 1), UC(0x20, UWOP_EPILOG, 0),
		UC(5, UWOP_ALLOC_SMALL, 3), UC(1, UWOP_PUSH_NONVOL, RBX),
	};
	/* an epilog 0x123 bytes before the end: info holds bits 8..11 */
	static const u16 far[] = {
		UC(6, UWOP_EPILOG, 0), UC(0x23, UWOP_EPILOG, 1),
		UC(5, UWOP_ALLOC_SMALL, 3), UC(1, UWOP_PUSH_NONVOL, RBX),
	};
	/* padding (0) ends the list: the next one is not looked at */
	static const u16 padded[] = {
		UC(6, UWOP_EPILOG, 0), UC(0, UWOP_EPILOG, 0),
		UC(0x20, UWOP_EPILOG, 0), UC(0, UWOP_EPILOG, 0),
		UC(5, UWOP_ALLOC_SMALL, 3), UC(1, UWOP_PUSH_NONVOL, RBX),
	};
	/* one code: a 1-byte epilog at the end, the padding slot after it */
	static const u16 lone[] = { UC(1, UWOP_EPILOG, 1) };
	static const u16 v1_epilog[] = { UC(6, UWOP_EPILOG, 1), UOP(0) };
	/*
	 * Windows (and Wine) step over EPILOG codes two slots at a time
	 * (MSVC pads them to an even number): an odd one hides the next code.
	 */
	static const u16 odd[] = {
		UC(1, UWOP_EPILOG, 1), UC(5, UWOP_ALLOC_SMALL, 3),
		UC(1, UWOP_PUSH_NONVOL, RBX),
	};
	static const u8 junk[] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0x90 };
	static const u8 pop_ret[] = { 0x5b, 0xc3 };
	struct pe_unwind_frame body, f;
	u32 ui, base;

	pb_init();
	ui = pb_add_info(2, 0, 5, 0, 0, codes, ARRAY_SIZE(codes), NULL);
	pb_add_rf(TXT(0), TXT(0x30), ui);
	pb_code(TXT(0x10), add_pop_ret, 6);
	pb_code(TXT(0x2a), add_pop_ret, 6);
	pb_code(TXT(0x20), pop_ret, 2);		/* not an epilog: no code */
	/* the same codes, the epilog at 0x110 is junk */
	pb_add_rf(TXT(0x100), TXT(0x130), ui);
	pb_code(TXT(0x110), junk, 6);
	pb_code(TXT(0x12a), add_pop_ret, 6);
	ui = pb_add_info(2, 0, 5, 0, 0, far, ARRAY_SIZE(far), NULL);
	pb_add_rf(TXT(0x200), TXT(0x400), ui);
	pb_code(TXT(0x400 - 0x123), add_pop_ret, 6);
	pb_code(TXT(0x3fa), add_pop_ret, 6);
	ui = pb_add_info(2, 0, 5, 0, 0, padded, ARRAY_SIZE(padded), NULL);
	pb_add_rf(TXT(0x400), TXT(0x430), ui);
	pb_code(TXT(0x410), add_pop_ret, 6);
	ui = pb_add_info(2, 0, 0, 0, 0, lone, 1, NULL);
	pb_add_rf(TXT(0x430), TXT(0x434), ui);
	pb_code(TXT(0x433), "\xc3", 1);
	ui = pb_add_info(1, 0, 0, 0, 0, v1_epilog, 2, NULL);
	pb_add_rf(TXT(0x440), TXT(0x450), ui);
	ui = pb_add_info(2, 0, 5, 0, 0, odd, ARRAY_SIZE(odd), NULL);
	pb_add_rf(TXT(0x450), TXT(0x460), ui);
	INIT();

	body = S(W(RSP, 48), RBX, -16);
	for (base = 0x10; base < 0x30; base += 0x1a) {
		EXPECT(TXT(base), EXACT,
		       FL(body, PE_UNWIND_FRAME_EPILOG));
		EXPECT(TXT(base + 4), EXACT,
		       FL(S(W(RSP, 16), RBX, -16), PE_UNWIND_FRAME_EPILOG));
		EXPECT(TXT(base + 5), EXACT, FL(W(RSP, 8), PE_UNWIND_FRAME_EPILOG));
		/* a return address there is not an epilog */
		EXPECT(TXT(base + 5), 0, body);
	}
	/* the codes decide: pop; ret at 0x20 is not described */
	EXPECT(TXT(0x20), EXACT, body);
	EXPECT(TXT(0x21), EXACT, body);
	EXPECT(TXT(0x8), EXACT, body);
	/* described, but not an epilog Windows decodes */
	EXPECT_ERR(TXT(0x114), EXACT, -EOPNOTSUPP);
	EXPECT(TXT(0x12f), EXACT, FL(W(RSP, 8), PE_UNWIND_FRAME_EPILOG));

	/* 0x123 from the end; the end itself is not described */
	EXPECT(TXT(0x400 - 0x123 + 5), EXACT,
	       FL(W(RSP, 8), PE_UNWIND_FRAME_EPILOG));
	EXPECT(TXT(0x3ff), EXACT, body);

	f = FL(W(RSP, 8), PE_UNWIND_FRAME_EPILOG);
	EXPECT(TXT(0x410 + 5), EXACT, body);
	EXPECT(TXT(0x433), EXACT, f);
	EXPECT(TXT(0x432), EXACT, W(RSP, 8));
	EXPECT(TXT(0x458), 0, S(W(RSP, 16), RBX, -16));
	/* EPILOG in version 1: an unknown op */
	EXPECT_ERR(TXT(0x440), 0, -EOPNOTSUPP);
}

static void test_epilog_v1(void)
{
	/*
	 * push rbp (1); push rsi (2); push r12 (4); sub rsp, 0x40 (8);
	 * lea rbp, [rsp + 0x20] (13).  Body: CFA = rbp + 64.
	 */
	static const u16 codes[] = {
		UC(13, UWOP_SET_FPREG, 0), UC(8, UWOP_ALLOC_SMALL, 7),
		UC(4, UWOP_PUSH_NONVOL, R12), UC(2, UWOP_PUSH_NONVOL, RSI),
		UC(1, UWOP_PUSH_NONVOL, RBP),
	};
	static const u8 e_lea[] = {			/* 0x20 */
		0x48, 0x8d, 0x65, 0x20, 0x41, 0x5c, 0x5e, 0x5d, 0xc3 };
	static const u8 e_add32[] = {			/* 0x30 */
		0x48, 0x81, 0xc4, 0x40, 0, 0, 0, 0x41, 0x5c, 0x5e, 0x5d,
		0xf3, 0xc3 };
	static const u8 e_add8[] = {			/* 0x40 */
		0x48, 0x83, 0xc4, 0x40, 0x41, 0x5c, 0x5e, 0x5d,
		0xc2, 0x08, 0x00 };
	static const u8 e_jmp_out[] = { 0x5d, 0xe9, 0xaa, 0x03, 0, 0 };
	static const u8 e_jmp_in[] = { 0x5d, 0xeb, 0x02 };	/* 0x58 */
	static const u8 e_jmp_mem[] = { 0x5d, 0xff, 0x25, 0, 0, 0, 0 };
	static const u8 e_jmp_rax[] = { 0x5d, 0x48, 0xff, 0xe0 };	/* 0x64 */
	static const u8 e_jmp_self[] = { 0x5d, 0xe9, 0x92, 0xff, 0xff, 0xff };
	static const u8 e_jmp_r11[] = { 0x5d, 0x41, 0xff, 0xe3 };	/* 0x70 */
	static const u8 e_lea_rbx[] = { 0x48, 0x8d, 0x63, 0x20, 0xc3 };
	static const u8 e_lea32[] = {				/* 0x80 */
		0x48, 0x8d, 0xa5, 0x00, 0x01, 0, 0, 0x5d, 0xc3 };
	/* r13 and r12 (SIB) frames: lea rsp, [r13 + 0x10]; lea rsp, [r12 + 0x10] */
	static const u8 e_r13[] = { 0x49, 0x8d, 0x65, 0x10, 0x5d, 0xc3 };
	static const u8 e_r12[] = { 0x49, 0x8d, 0x64, 0x24, 0x10, 0x5d, 0xc3 };
	static const u16 fcodes[] = {
		UC(8, UWOP_SET_FPREG, 1), UC(1, UWOP_PUSH_NONVOL, RBP) };
	struct pe_unwind_frame body, f;
	u32 ui, chain[3];

	pb_init();
	ui = func(0x400, 0x4a0, 13, RBP, 2, codes, ARRAY_SIZE(codes));
	pb_code(TXT(0x420), e_lea, sizeof(e_lea));
	pb_code(TXT(0x430), e_add32, sizeof(e_add32));
	pb_code(TXT(0x440), e_add8, sizeof(e_add8));
	pb_code(TXT(0x450), e_jmp_out, sizeof(e_jmp_out));
	pb_code(TXT(0x458), e_jmp_in, sizeof(e_jmp_in));
	pb_code(TXT(0x45c), e_jmp_mem, sizeof(e_jmp_mem));
	pb_code(TXT(0x464), e_jmp_rax, sizeof(e_jmp_rax));
	pb_code(TXT(0x468), e_jmp_self, sizeof(e_jmp_self));
	pb_code(TXT(0x470), e_jmp_r11, sizeof(e_jmp_r11));
	pb_code(TXT(0x478), e_lea_rbx, sizeof(e_lea_rbx));
	pb_code(TXT(0x480), e_lea32, sizeof(e_lea32));
	/* a part of the function elsewhere, chained, with an epilog */
	chain[0] = TXT(0x400);
	chain[1] = TXT(0x4a0);
	chain[2] = ui;
	pb_add_rf(TXT(0x600), TXT(0x640),
		  pb_add_info(1, UNW_FLAG_CHAININFO, 0, RBP, 2, NULL, 0, chain));
	pb_code(TXT(0x600), e_lea, sizeof(e_lea));
	/* jmp rel32 from 0x610 into the parent (not out), to its start (out) */
	pb_code(TXT(0x610), "\x5d\xe9\x1a\xfe\xff\xff", 6);	/* -> 0x430 */
	pb_code(TXT(0x620), "\x5d\xe9\xda\xfd\xff\xff", 6);	/* -> 0x400 */
	func(0x700, 0x720, 8, R13, 1, fcodes, 2);
	pb_code(TXT(0x710), e_r13, sizeof(e_r13));
	func(0x720, 0x740, 8, R12, 1, fcodes, 2);
	pb_code(TXT(0x730), e_r12, sizeof(e_r12));
	/* a function ending at the end of the image; the mapping ends early */
	func(PB_SIZE - PB_TEXT - 0x10, PB_SIZE - PB_TEXT, 13, RBP, 2, codes,
	     ARRAY_SIZE(codes));
	pb_code(PB_SIZE - 2, "\x5d\xc3", 2);
	INIT();

	body = S(S(S(W(RBP, 64), RBP, -16), RSI, -24), R12, -32);
	EXPECT(TXT(0x420), EXACT, FL(body, PE_UNWIND_FRAME_EPILOG));
	f = S(S(S(W(RSP, 32), RBP, -16), RSI, -24), R12, -32);
	EXPECT(TXT(0x424), EXACT, FL(f, PE_UNWIND_FRAME_EPILOG));
	EXPECT(TXT(0x426), EXACT,
	       FL(S(S(W(RSP, 24), RBP, -16), RSI, -24), PE_UNWIND_FRAME_EPILOG));
	EXPECT(TXT(0x427), EXACT,
	       FL(S(W(RSP, 16), RBP, -16), PE_UNWIND_FRAME_EPILOG));
	EXPECT(TXT(0x428), EXACT, FL(W(RSP, 8), PE_UNWIND_FRAME_EPILOG));
	/* only where the thread is */
	EXPECT(TXT(0x428), 0, body);
	EXPECT(TXT(0x424), 0, body);

	f.cfa_off = 64 + 32;
	EXPECT(TXT(0x430), EXACT, FL(f, PE_UNWIND_FRAME_EPILOG));
	EXPECT(TXT(0x43b), EXACT, FL(W(RSP, 8), PE_UNWIND_FRAME_EPILOG));
	EXPECT(TXT(0x440), EXACT, FL(f, PE_UNWIND_FRAME_EPILOG));
	EXPECT(TXT(0x448), EXACT, FL(W(RSP, 8), PE_UNWIND_FRAME_EPILOG));

	f = FL(S(W(RSP, 16), RBP, -16), PE_UNWIND_FRAME_EPILOG);
	EXPECT(TXT(0x450), EXACT, f);		/* jmp to 0x800: out */
	EXPECT(TXT(0x458), EXACT, body);	/* jmp +2: inside */
	EXPECT(TXT(0x45c), EXACT, f);		/* jmp [rip] */
	EXPECT(TXT(0x464), EXACT, f);		/* rex.w jmp rax */
	EXPECT(TXT(0x468), EXACT, f);		/* jmp to its own start */
	EXPECT(TXT(0x470), EXACT, body);	/* jmp r11 without rex.w */
	EXPECT(TXT(0x478), EXACT, body);	/* lea from rbx, not rbp */
	f.cfa_reg = RBP;
	f.cfa_off = 0x100 + 16;
	EXPECT(TXT(0x480), EXACT, f);
	/* in the prolog nothing is decoded: 0x40c is after push r12 */
	f = S(S(S(W(RSP, 32), RBP, -16), RSI, -24), R12, -32);
	EXPECT(TXT(0x404), EXACT, f);

	/* the chained part: epilogs are its own */
	EXPECT(TXT(0x600), EXACT, FL(body, PE_UNWIND_FRAME_EPILOG));
	EXPECT(TXT(0x608), EXACT, FL(W(RSP, 8), PE_UNWIND_FRAME_EPILOG));
	EXPECT(TXT(0x610), EXACT, body);
	EXPECT(TXT(0x620), EXACT, FL(S(W(RSP, 16), RBP, -16),
				     PE_UNWIND_FRAME_EPILOG));

	EXPECT(TXT(0x710), EXACT, FL(S(W(R13, 32), RBP, -16),
				     PE_UNWIND_FRAME_EPILOG));
	EXPECT(TXT(0x730), EXACT, FL(S(W(R12, 32), RBP, -16),
				     PE_UNWIND_FRAME_EPILOG));

	/* fully mapped: an epilog; cut before the ret: a fault */
	EXPECT(PB_SIZE - 2, EXACT, FL(S(W(RSP, 16), RBP, -16),
				      PE_UNWIND_FRAME_EPILOG));
	pb_map(PB_SIZE - 1);
	EXPECT_ERR(PB_SIZE - 2, EXACT, -EFAULT);
	EXPECT(PB_SIZE - 2, 0, body);

	/*
	 * The table rewritten after init, the function now ending past the
	 * image, where a ret is mapped: the decode stops at the image's end.
	 */
	pb_put32(PB_PDATA + 12 * (PB.nr_rf - 1) + 4, PB_SIZE + 0x10);
	pb_code(PB_SIZE - 1, "\x5d", 1);
	pb_map(PB_SIZE);
	fake_user_map(PB_BASE + PB_SIZE, "\xc3\xc3", 2);
	EXPECT(PB_SIZE - 1, EXACT, body);
}

/* ------------------------------------------------------------------ */
/* Bad unwind data */

static void test_bad_info(void)
{
	static const u16 op7[] = { UC(0, UWOP_SPARE, 0), UOP(0), UOP(0) };
	static const u16 op11[] = { UC(0, 11, 0), UOP(0), UOP(0) };
	static const u16 op15[] = { UC(9, 15, 0) };
	static const u16 short_large[] = {
		UC(1, UWOP_PUSH_NONVOL, RBX), UC(0, UWOP_ALLOC_LARGE, 0) };
	static const u16 short_far[] = {
		UC(0, UWOP_SAVE_NONVOL_FAR, RBX), UOP(0) };
	static const u16 push[] = { UC(1, UWOP_PUSH_NONVOL, RBX) };
	u32 ui;

	pb_init();
	pb_add_rf(TXT(0x00), TXT(0x10),
		  pb_add_info(0, 0, 0, 0, 0, push, 1, NULL));
	pb_add_rf(TXT(0x10), TXT(0x20),
		  pb_add_info(3, 0, 0, 0, 0, push, 1, NULL));
	pb_add_rf(TXT(0x20), TXT(0x30),
		  pb_add_info(7, 0, 0, 0, 0, push, 1, NULL));
	func(0x30, 0x40, 0, 0, 0, op7, 3);
	func(0x40, 0x50, 0, 0, 0, op11, 3);
	func(0x50, 0x60, 0, 0, 0, op15, 1);
	func(0x60, 0x70, 0, 0, 0, short_large, 2);
	func(0x70, 0x80, 0, 0, 0, short_far, 2);
	/* 255 codes claimed at the end of the image */
	ui = PB_SIZE - 8;
	PB.img[ui] = 1;
	PB.img[ui + 2] = 255;
	pb_add_rf(TXT(0x80), TXT(0x90), ui);
	/* the chained entry beyond the image */
	ui = PB_SIZE - 12;
	PB.img[ui] = 1 | UNW_FLAG_CHAININFO << 3;
	pb_add_rf(TXT(0x90), TXT(0xa0), ui);
	/* handlers are not read */
	pb_add_rf(TXT(0xa0), TXT(0xb0),
		  pb_add_info(1, UNW_FLAG_EHANDLER | UNW_FLAG_UHANDLER, 1, 0, 0,
			      push, 1, NULL));
	INIT();

	EXPECT_ERR(TXT(0x00), 0, -EOPNOTSUPP);
	EXPECT_ERR(TXT(0x10), 0, -EOPNOTSUPP);
	EXPECT_ERR(TXT(0x20), 0, -EOPNOTSUPP);
	EXPECT_ERR(TXT(0x30), 0, -EOPNOTSUPP);
	EXPECT_ERR(TXT(0x40), 0, -EOPNOTSUPP);
	/* not reached at offset 0, but its size is unknown */
	EXPECT_ERR(TXT(0x50), 0, -EOPNOTSUPP);
	EXPECT_ERR(TXT(0x60), 0, -EINVAL);
	EXPECT_ERR(TXT(0x70), 0, -EINVAL);
	EXPECT_ERR(TXT(0x80), 0, -EINVAL);
	EXPECT_ERR(TXT(0x90), 0, -EINVAL);
	EXPECT(TXT(0xa1), 0, S(W(RSP, 16), RBX, -16));
}

/* ------------------------------------------------------------------ */
/* A walk through a stack built by hand */

static void test_walk(void)
{
	/* F: push rbx; sub rsp, 0x20 (no frame register) */
	static const u16 fcodes[] = {
		UC(5, UWOP_ALLOC_SMALL, 3), UC(1, UWOP_PUSH_NONVOL, RBX) };
	/* G: push rbp; sub rsp, 0x30; lea rbp, [rsp + 0x10] */
	static const u16 gcodes[] = {
		UC(10, UWOP_SET_FPREG, 0), UC(5, UWOP_ALLOC_SMALL, 5),
		UC(1, UWOP_PUSH_NONVOL, RBP) };
	static u64 stack[64];
	u64 regs[16] = { 0 }, ip;
	struct pe_unwind_frame f;
	const u64 sp0 = 0x10000;
	int ret;

	pb_init();
	func(0x100, 0x140, 5, 0, 0, fcodes, 2);
	func(0x200, 0x240, 10, RBP, 1, gcodes, 3);
	INIT();
	fake_user_map(sp0, stack, sizeof(stack));

	/*
	 * leaf (no entry) at TXT(0x80) <- F at 0x120 <- G at 0x220 <- 0x999
	 * stack[0]: leaf's return address into F
	 * F's frame: stack[1..4] locals, stack[5] rbx of G, stack[6] ra
	 * G's frame: stack[7..12] locals, stack[13] rbp of G's caller,
	 * stack[14] ra; G's rbp = rsp after its sub + 16 = &stack[9]
	 */
	stack[0] = PB_BASE + TXT(0x121);
	stack[5] = 0xb0b;
	stack[6] = PB_BASE + TXT(0x221);
	stack[13] = 0xcafe;
	stack[14] = 0x999;
	regs[RSP] = sp0;
	regs[RBP] = sp0 + 9 * 8;
	ip = PB_BASE + TXT(0x80);

	ret = find(ip - PB_BASE, EXACT, &f);
	CHECK(!ret && (f.flags & PE_UNWIND_FRAME_LEAF), "leaf: %d", ret);
	apply_check(__LINE__, &f, regs, PB_BASE + TXT(0x121), sp0 + 8);
	ret = find(TXT(0x121) - 1, 0, &f);
	CHECK(!ret, "F: %d", ret);
	apply_check(__LINE__, &f, regs, PB_BASE + TXT(0x221), sp0 + 7 * 8);
	CHECK(regs[RBX] == 0xb0b, "rbx %#llx", (unsigned long long)regs[RBX]);
	ret = find(TXT(0x221) - 1, 0, &f);
	CHECK(!ret && f.cfa_reg == RBP, "G: %d", ret);
	apply_check(__LINE__, &f, regs, 0x999, sp0 + 15 * 8);
	CHECK(regs[RBP] == 0xcafe, "rbp %#llx", (unsigned long long)regs[RBP]);
}

/* ------------------------------------------------------------------ */
/* Faults and corruption */

/* A few functions using most ops, and the pcs the tests look at. */
static void build_rich(void)
{
	static const u16 a[] = {
		UC(9, UWOP_EPILOG, 1), UC(0, UWOP_EPILOG, 0),
		UC(16, UWOP_SAVE_NONVOL, RSI), UOP(6),
		UC(13, UWOP_SET_FPREG, 0), UC(8, UWOP_ALLOC_SMALL, 7),
		UC(4, UWOP_PUSH_NONVOL, R12), UC(2, UWOP_PUSH_NONVOL, RDI),
		UC(1, UWOP_PUSH_NONVOL, RBP), UC(0, UWOP_SAVE_XMM128, 6),
		UOP(2),
	};
	static const u16 b[] = {
		UC(9, UWOP_ALLOC_LARGE, 1), UOP(0x2000), UOP(0),
		UC(2, UWOP_SAVE_NONVOL_FAR, RBX), UOP(0x10), UOP(0),
		UC(0, UWOP_PUSH_MACHFRAME, 1),
	};
	static const u8 epi[] = { 0x48, 0x8d, 0x65, 0x20, 0x41, 0x5c, 0x5f,
				  0x5d, 0xc3 };
	u32 ui, chain[3];

	pb_init();
	ui = pb_add_info(2, 0, 16, RBP, 2, a, ARRAY_SIZE(a), NULL);
	pb_add_rf(TXT(0), TXT(0x40), ui);
	pb_code(TXT(0x40 - 9), epi, sizeof(epi));
	pb_code(TXT(0x20), epi, sizeof(epi));
	pb_add_rf(TXT(0x40), TXT(0x80),
		  pb_add_info(1, 0, 9, 0, 0, b, ARRAY_SIZE(b), NULL));
	chain[0] = TXT(0);
	chain[1] = TXT(0x40);
	chain[2] = ui;
	pb_add_rf(TXT(0x80), TXT(0xa0),
		  pb_add_info(1, UNW_FLAG_CHAININFO, 0, RBP, 2, NULL, 0, chain));
	pb_code(TXT(0x80), epi, sizeof(epi));
	pb_add_rf(TXT(0xa0), TXT(0xc0), PB_PDATA | 1);
}

static const u32 rich_pcs[] = {
	0, 1, 3, 8, 13, 16, 0x20, 0x24, 0x37, 0x3f, 0x40, 0x42, 0x50, 0x80,
	0x88, 0xa0, 0xc0,
};

static int lookup_all(struct pe_unwind_frame *out, int *rets)
{
	unsigned int i, k;

	for (i = 0; i < ARRAY_SIZE(rich_pcs); i++)
		for (k = 0; k < 2; k++)
			rets[2 * i + k] = find(TXT(rich_pcs[i]), k ? EXACT : 0,
					       &out[2 * i + k]);
	return 0;
}

static bool sane(int ret, const struct pe_unwind_frame *f)
{
	if (ret)
		return ret == -EFAULT || ret == -EINVAL || ret == -EOPNOTSUPP ||
		       ret == -ENOENT;
	return f->cfa_reg < 16 && !(f->flags & ~7) && f->ra_off < 0 &&
	       f->sp_off <= 0;
}

static void test_faults(void)
{
	struct pe_unwind_frame ref[2 * ARRAY_SIZE(rich_pcs)];
	struct pe_unwind_frame got[2 * ARRAY_SIZE(rich_pcs)];
	int ref_ret[2 * ARRAY_SIZE(rich_pcs)], ret[2 * ARRAY_SIZE(rich_pcs)];
	unsigned int i, hole, faults = 0;

	build_rich();
	INIT();
	lookup_all(ref, ref_ret);
	for (i = 0; i < 2 * ARRAY_SIZE(rich_pcs); i++)
		CHECK(!ref_ret[i], "pc %u: %d", i, ref_ret[i]);

	/* A one-byte hole at every byte the lookups may read */
	for (hole = PB_PDATA; hole < PB_TEXT + 0xc0; hole++) {
		if (hole == PB_PDATA + 12 * PB.nr_rf)
			hole = PB_XDATA;
		if (hole == PB.xdata)
			hole = PB_TEXT;
		fake_user_reset();
		fake_user_map(PB_BASE, PB.img, hole);
		fake_user_map(PB_BASE + hole + 1, PB.img + hole + 1,
			      PB_SIZE - hole - 1);
		lookup_all(got, ret);
		for (i = 0; i < 2 * ARRAY_SIZE(rich_pcs); i++) {
			if (ret[i] == -EFAULT) {
				faults++;
				continue;
			}
			CHECK(ret[i] == ref_ret[i] &&
			      same_frame(&got[i], &ref[i]),
			      "hole at %#x, pc %u: %d", hole, i, ret[i]);
		}
	}
	CHECK(faults > 100, "only %u faults", faults);
	printf("# %u lookups faulted\n", faults);
}

static void test_corrupt(void)
{
	static u8 saved[PB_SIZE];
	struct pe_unwind_frame got[2 * ARRAY_SIZE(rich_pcs)];
	int ret[2 * ARRAY_SIZE(rich_pcs)];
	unsigned int i, m, runs = 0, bad = 0, ok = 0, seed = 1, pos;
	static u64 stack[64];
	u64 regs[16], ip;

	build_rich();
	INIT();
	memcpy(saved, PB.img, PB_SIZE);
	fake_user_map(0x10000, stack, sizeof(stack));
	for (i = 0; i < 64; i++)
		stack[i] = 0x10000 + 8 * i;

	for (i = 0; i < 30000; i++) {
		unsigned int n = 1 + (seed >> 8) % 4;

		for (m = 0; m < n; m++) {
			seed = seed * 1103515245 + 12345;
			pos = (seed >> 8) % 3;
			pos = pos == 0 ? PB_PDATA + (seed >> 12) % (12 * PB.nr_rf) :
			      pos == 1 ? PB_XDATA + (seed >> 12) % (PB.xdata - PB_XDATA) :
			      PB_TEXT + (seed >> 12) % 0xc0;
			PB.img[pos] = seed >> 20;
		}
		lookup_all(got, ret);
		for (m = 0; m < 2 * ARRAY_SIZE(rich_pcs); m++) {
			runs++;
			if (!sane(ret[m], &got[m])) {
				bad++;
				continue;
			}
			if (ret[m])
				continue;
			ok++;
			memset(regs, 0, sizeof(regs));
			regs[RSP] = 0x10000 + 8 * 16;
			regs[RBP] = 0x10000 + 8 * 24;
			pb_apply(&got[m], regs, &ip);
		}
		memcpy(PB.img, saved, PB_SIZE);
	}
	CHECK(!bad, "%u insane results in %u lookups", bad, runs);
	printf("# %u lookups of corrupted data, %u gave a frame\n", runs, ok);
}

/* ------------------------------------------------------------------ */
/* What a lookup reads, and what it pays */

/* The worst case: a table of PB_MAX_RF entries of 8 bytes from TXT(0) */
#define WORST_ENTRY(i)	TXT(8 * (i))
/* the range of P, the primary entry of A's chain */
#define WORST_P		TXT(0x800)
static u32 worst_pc;

/* Probes of the binary search (pe.c's) to find entry @index of @n. */
static unsigned int worst_probes(u32 index, u32 n)
{
	u32 lo = 0, hi = n, mid, probes = 0;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		probes++;
		if (index < mid)
			hi = mid;
		else if (index > mid)
			lo = mid + 1;
		else
			break;
	}
	return probes;
}

/* Room for @size bytes: the xdata area, then the text after the table's. */
static u32 worst_place(u32 *text, u32 size)
{
	u32 at;

	if (PB.xdata + size <= PB_TEXT) {
		at = PB.xdata;
		PB.xdata += size;
	} else {
		at = *text;
		*text += size;
	}
	return at;
}

/*
 * The most reads one lookup makes in an image of the builder's size, as a
 * pc in function A:
 *  - A's entry and B's are where the binary search of a full table (341
 *    entries) probes the most, and indirect: the real entry (RA, RB, with
 *    the same range) is read next;
 *  - A's UNWIND_INFO has 254 code slots (127 SAVE_XMM128, no stack effect)
 *    and chains to 32 more such infos, each through an indirect chained
 *    entry: per link the entry, its target and the info;
 *  - at A's pc, as the thread's pc, jmp rel32 into B: an epilog unless B
 *    is a part of the same function, which takes a second binary search
 *    and both chains walked to their primary entry (B's info chains into
 *    A's chain).  It is, so the codes of all 33 infos are undone.
 */
static void build_worst(void)
{
	/* 4 + 2 * 254 + 12 bytes */
	const u32 info_size = 524;
	static u16 xmm[254];
	u32 rf, next_rf, chain[3], i, a = 0, b = 0, text, at;
	u32 rf_a, rf_b, rfs, b_info, fill_info, unwind;

	for (i = 0; i < ARRAY_SIZE(xmm); i += 2) {
		xmm[i] = UC(0, UWOP_SAVE_XMM128, 6);
		xmm[i + 1] = UOP(0);
	}
	/* A and B where the search probes the most */
	for (i = 0; i < PB_MAX_RF; i++)
		if (worst_probes(i, PB_MAX_RF) > worst_probes(a, PB_MAX_RF))
			a = i;
	b = !a;
	for (i = 0; i < PB_MAX_RF; i++)
		if (i != a && worst_probes(i, PB_MAX_RF) >
			      worst_probes(b, PB_MAX_RF))
			b = i;
	worst_pc = WORST_ENTRY(a) + 1;

	pb_init();
	text = WORST_ENTRY(PB_MAX_RF);
	/* RA, RB and R1..R32: the targets of indirect entries */
	rf_a = PB.xdata;
	rf_b = rf_a + 12;
	rfs = rf_b + 12;
	PB.xdata = rfs + 32 * 12;
	fill_info = pb_add_info(1, 0, 0, 0, 0, NULL, 0, NULL);

	/*
	 * The chain, from its end: info 32 (P's own, not chained) back to
	 * info 1; R(k) is the entry of info k, with P's range.
	 */
	next_rf = 0;
	for (i = 32; i >= 1; i--) {
		chain[0] = 0;
		chain[1] = 0;
		chain[2] = next_rf | 1;
		at = worst_place(&text, info_size);
		rf = rfs + 12 * (i - 1);
		pb_put32(rf, WORST_P);
		pb_put32(rf + 4, WORST_P + 0x40);
		pb_put32(rf + 8, at);
		pb_put_info(at, 1, i == 32 ? 0 : UNW_FLAG_CHAININFO, 0, 0, 0,
			    xmm, ARRAY_SIZE(xmm), i == 32 ? NULL : chain);
		next_rf = rf;
	}
	/* next_rf is R1: A's info and B's chain to it */
	chain[0] = 0;
	chain[1] = 0;
	chain[2] = next_rf | 1;
	at = worst_place(&text, info_size);
	pb_put_info(at, 1, UNW_FLAG_CHAININFO, 0, 0, 0, xmm, ARRAY_SIZE(xmm),
		    chain);
	pb_put32(rf_a, WORST_ENTRY(a));
	pb_put32(rf_a + 4, WORST_ENTRY(a) + 8);
	pb_put32(rf_a + 8, at);
	b_info = pb_add_info(1, UNW_FLAG_CHAININFO, 0, 0, 0, NULL, 0, chain);
	pb_put32(rf_b, WORST_ENTRY(b));
	pb_put32(rf_b + 4, WORST_ENTRY(b) + 8);
	pb_put32(rf_b + 8, b_info);
	if (text > PB_SIZE) {
		fprintf(stderr, "pe_unit: the worst case does not fit\n");
		abort();
	}

	for (i = 0; i < PB_MAX_RF; i++) {
		unwind = i == a ? rf_a | 1 : i == b ? rf_b | 1 : fill_info;
		pb_add_rf(WORST_ENTRY(i), WORST_ENTRY(i) + 8, unwind);
	}
	/* jmp rel32 from A's pc into the middle of B */
	PB.img[worst_pc] = 0xe9;
	pb_put32(worst_pc + 1, WORST_ENTRY(b) + 4 - (worst_pc + 5));
}

/* Every budget below what a lookup needs stops it, within that budget. */
static void check_budgets(int line, u32 rva, unsigned int flags,
			  unsigned long *reads)
{
	struct pe_unwind_frame want, got;
	unsigned int budget, b, cost;
	int ret, want_ret;

	budget = UNWIND_USER_TABLE_BUDGET;
	want_ret = find_budget(line, rva, flags, &want, &budget);
	cost = UNWIND_USER_TABLE_BUDGET - budget;
	*reads = last_reads;
	for (b = 0; b < cost; b++) {
		budget = b;
		ret = find_budget(line, rva, flags, &got, &budget);
		if (ret != -EOPNOTSUPP || budget >= COST) {
			fail(line, "rva %#x, budget %u of %u: %d, %u left",
			     rva, b, cost, ret, budget);
			return;
		}
	}
	budget = cost;
	ret = find_budget(line, rva, flags, &got, &budget);
	if (ret != want_ret || budget || (!ret && !same_frame(&got, &want)))
		fail(line, "rva %#x, budget %u: %d, %u left", rva, cost, ret,
		     budget);
}

static unsigned long worst_exact, worst_ra;

static void test_budget(void)
{
	static const u16 codes[] = { UC(4, UWOP_ALLOC_SMALL, 1) };
	struct pe_unwind_frame f, w;
	unsigned long reads;
	unsigned int i;
	u32 ui;

	/* A typical lookup: the search, the info, its codes */
	pb_init();
	ui = pb_add_info(1, 0, 4, 0, 0, codes, 1, NULL);
	for (i = 0; i < 300; i++)
		pb_add_rf(TXT(16 * i), TXT(16 * i + 12), ui);
	INIT();
	/* the first entry: 9 probes of the search */
	check_budgets(__LINE__, TXT(8), 0, &reads);
	CHECK(reads == 11, "typical: %lu reads", reads);
	printf("# a typical lookup: %lu reads, %lu of the budget\n", reads,
	       reads * COST);
	/* A leaf: the search alone */
	check_budgets(__LINE__, TXT(12), 0, &reads);
	CHECK(reads == 9, "leaf: %lu reads", reads);

	/* Every op, epilogs, chains: each pc with every smaller budget */
	build_rich();
	INIT();
	for (i = 0; i < ARRAY_SIZE(rich_pcs); i++) {
		check_budgets(__LINE__, TXT(rich_pcs[i]), 0, &reads);
		check_budgets(__LINE__, TXT(rich_pcs[i]), EXACT, &reads);
	}

	/* The worst case */
	build_worst();
	INIT();
	w = W(RSP, 8);
	CHECK(!find(worst_pc, EXACT, &f) && same_frame(&f, &w),
	      "worst, exact");
	check_budgets(__LINE__, worst_pc, EXACT, &worst_exact);
	CHECK(!find(worst_pc, 0, &f) && same_frame(&f, &w),
	      "worst, return address");
	check_budgets(__LINE__, worst_pc, 0, &worst_ra);
	/*
	 * 9 probes, RA, A's info, the bytes at the pc; for the jmp 9 probes,
	 * RB, 2 x (33 headers and 32 x (entry, target)); 33 x 16 windows of
	 * codes and 32 x (entry, target, info) for the undo.
	 */
	CHECK(worst_exact == 9 + 3 + 9 + 1 + 2 * 97 + 33 * 16 + 32 * 3,
	      "worst, exact: %lu reads", worst_exact);
	CHECK(worst_ra == 9 + 2 + 33 * 16 + 32 * 3, "worst: %lu reads",
	      worst_ra);
	printf("# the worst lookup: %lu reads as the thread's pc, %lu as a return address\n",
	       worst_exact, worst_ra);
}

/* The registry's part of a lookup in a PE table (registry.c) */
static unsigned long walk_reads, walk_lookups;
static unsigned int walk_charged;

static int walk_find_pe(unsigned long pc, unsigned int *budget,
			struct unwind_user_frame *frame)
{
	unsigned long copies = fake_user_copies;
	unsigned int before = *budget;
	int ret;

	if (*budget < UNWIND_USER_FORMAT_LOOKUP_COST)
		return -EOPNOTSUPP;
	ret = pe_user_find_frame(&IMG, pc, walk_lookup_flags, frame, budget);
	walk_reads += fake_user_copies - copies;
	walk_charged += before - *budget;
	walk_lookups++;
	return ret;
}

static void test_walk_budget(void)
{
	static u64 stack[128];
	struct walk_state st = { .ws = 8, .topmost = true };
	unsigned long entries[ARRAY_SIZE(stack) + 1];
	unsigned long before;
	unsigned int n, i;

	build_worst();
	INIT();
	if (!worst_exact) {
		fail(__LINE__, "the budget test has not run");
		return;
	}
	/*
	 * The kernel's walk from the worst pc, through as many frames of A
	 * as the stack holds: each a return address at rsp.
	 */
	for (i = 0; i < ARRAY_SIZE(stack); i++)
		stack[i] = PB_BASE + worst_pc + 1;
	fake_user_map(0x10000, stack, sizeof(stack));
	st.ip = PB_BASE + worst_pc;
	st.sp = 0x10000;
	walk_reads = 0;
	walk_charged = 0;
	walk_lookups = 0;
	n = walk_unwind(&st, walk_find_pe, entries, ARRAY_SIZE(entries));

	CHECK(walk_charged == walk_reads * COST, "%lu reads, %u charged",
	      walk_reads, walk_charged);
	CHECK(walk_reads <= UNWIND_USER_TABLE_BUDGET / COST,
	      "%lu reads in a walk", walk_reads);
	/* Stopped by the budget: what is left would not pay for one more */
	CHECK(n < ARRAY_SIZE(stack) &&
	      UNWIND_USER_TABLE_BUDGET - walk_charged < worst_ra * COST,
	      "%u frames, %u of the budget spent", n, walk_charged);
	for (i = 0; i < n; i++)
		CHECK(entries[i] == PB_BASE + worst_pc + !!i, "frame %u", i);
	/* Without a budget, a walk of 510 such frames */
	before = worst_exact + 509 * worst_ra;
	printf("# a walk: %u frames, %lu lookups, %lu reads (at most %u); ",
	       n, walk_lookups, walk_reads, UNWIND_USER_TABLE_BUDGET / COST);
	printf("without the budget 510 frames would read %lu\n", before);
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {
		{ "pe: image headers and function table checks", test_headers },
		{ "pe: an image found by the kernel, by a pc in it", test_find },
		{ "pe: binary search, leaves, bounded reads", test_lookup },
		{ "pe: PUSH_NONVOL, ALLOC_SMALL, ALLOC_LARGE (both forms), partial prologs",
		  test_push_alloc },
		{ "pe: SET_FPREG with rbp and other frame registers", test_fpreg },
		{ "pe: SAVE_NONVOL(_FAR), SAVE_XMM128(_FAR), frame base", test_save },
		{ "pe: PUSH_MACHFRAME with and without error code", test_machframe },
		{ "pe: chained info, 32 links, cycles", test_chained },
		{ "pe: indirect entries (UnwindData & 1)", test_indirect },
		{ "pe: indirect entries whose target does not contain the pc",
		  test_indirect_outside },
		{ "pe: version 2 EPILOG codes", test_epilog_v2 },
		{ "pe: epilogs decoded (add/lea, pops, ret/jmp)", test_epilog_v1 },
		{ "pe: unknown versions and ops, codes past their end", test_bad_info },
		{ "pe: a walk through a hand-built stack", test_walk },
		{ "pe: a fault at every byte", test_faults },
		{ "pe: corrupted tables, codes and instructions", test_corrupt },
		{ "pe: each read charged, a spent budget stops a lookup",
		  test_budget },
		{ "pe: a walk through many frames stops when its budget is spent",
		  test_walk_budget },
	};
	unsigned int i;

	if (argc == 3 && !strcmp(argv[1], "--seeds"))
		seed_dir = argv[2];
	printf("TAP version 13\n1..%zu\n", ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		run(tests[i].name, tests[i].fn);
	printf("# %u passed, %u failed\n", nr_run - nr_failed, nr_failed);
	printf("%u passed, %u failed\n", nr_run - nr_failed, nr_failed);
	return nr_failed ? 1 : 0;
}
