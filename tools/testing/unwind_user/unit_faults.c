// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: a fault at every byte of a section, every byte corrupted.
 */
#include "unit.h"

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

	f = default_fde(F0 + 0x500, 0x100, drap_insns, drap_insns_len);
	add_fde(&T, cie2, &f);
	f = default_fde(F0 + 0x600, 0x40, rich_plt_insns,
			sizeof(rich_plt_insns));
	f.aug_len = 4;
	add_fde(&T, cie1, &f);
	c = restore_rt_cie("zRS");
	cie2 = add_cie(&T, &c);
	f = default_fde(F0 + 0x700, 10, restore_rt_insns,
			restore_rt_insns_len);
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

UNIT_TEST(test_faults, "a fault at every byte", 0);

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

UNIT_TEST(test_fuzz, "every byte corrupted", 0);
