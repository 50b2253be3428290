// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: pointer and table encodings, .eh_frame_hdr fields, CIE versions
 * and augmentations, DWARF64, several CIEs, ELF32 (eh_frame.c, dwarf_read.c).
 */
#include "unit.h"

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

UNIT_TEST(test_fde_encodings, "FDE address encodings", HDR_MODES);

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

UNIT_TEST(test_table_encodings, "search table encodings", HDR_MODES);

/*
 * What a lookup finds depends on where the table is mapped when one of the
 * addresses it compares with the pc is absolute: such a frame, or such a
 * "nothing covers this pc", must not be shared (shared.c).  The pc one page
 * past a function whose FDE is absolute finds nothing there, while the
 * same bytes mapped a page further would cover it.
 */
static void test_absolute(void)
{
	static const struct {
		u8 fde_enc, table_enc;
		bool absolute;
	} cases[] = {
		{ DW_EH_PE_pcrel | DW_EH_PE_sdata4, DW_EH_PE_datarel | DW_EH_PE_sdata4, false },
		{ DW_EH_PE_pcrel | DW_EH_PE_sdata4, DW_EH_PE_pcrel | DW_EH_PE_sdata4, false },
		{ DW_EH_PE_absptr, DW_EH_PE_datarel | DW_EH_PE_sdata4, true },
		{ DW_EH_PE_udata4, DW_EH_PE_datarel | DW_EH_PE_sdata4, true },
		{ DW_EH_PE_pcrel | DW_EH_PE_sdata4, DW_EH_PE_udata4, true },
		{ DW_EH_PE_pcrel | DW_EH_PE_sdata4, DW_EH_PE_absptr, true },
	};
	static const u8 insns[] = { DW_CFA_advance_loc | 4, DW_CFA_def_cfa_offset, 16 };
	struct eh_frame_fde fde;
	struct cie_opts c;
	struct fde_opts f;
	struct hdr_opts h;
	unsigned int i, j;
	bool absolute;
	size_t cie_off;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		reset(8);
		c = default_cie();
		c.fde_enc = cases[i].fde_enc;
		cie_off = add_cie(&T, &c);
		for (j = 0; j < 2; j++) {
			f = default_fde(F0 + j * 0x2000, 0x80, insns, sizeof(insns));
			f.fde_enc = c.fde_enc;
			add_fde(&T, cie_off, &f);
		}
		h = default_hdr();
		h.table_enc = cases[i].table_enc;
		text_start = 0x1000;
		text_end = 0x700000;
		ret = setup_hdr(&h);
		CHECK(!ret, "case %u: init %s", i, err_name(ret));
		if (ret)
			continue;
		/* Covered, then the gap after the first FDE, then past the last. */
		ret = eh_frame_find_fde_fresh(&S, NULL, F0 + 4, &fde, &absolute);
		CHECK(!ret && absolute == cases[i].absolute,
		      "case %u: covered pc: %s, absolute %d, want %d", i,
		      err_name(ret), absolute, cases[i].absolute);
		ret = eh_frame_find_fde_fresh(&S, NULL, F0 + 0x1000, &fde, &absolute);
		CHECK(ret == -ENOENT && absolute == cases[i].absolute,
		      "case %u: gap: %s, absolute %d, want %d", i,
		      err_name(ret), absolute, cases[i].absolute);
		ret = eh_frame_find_fde_fresh(&S, NULL, 0x600000, &fde, &absolute);
		CHECK(ret == -ENOENT && absolute == cases[i].absolute,
		      "case %u: past the last: %s, absolute %d, want %d", i,
		      err_name(ret), absolute, cases[i].absolute);
	}
}

UNIT_TEST(test_absolute, "lookups that depend on the table's address", BIT(MODE_TABLE));

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

UNIT_TEST(test_hdr_fields, "eh_frame_ptr and fde_count encodings", HDR_MODES);

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

UNIT_TEST(test_cie_versions, "CIE versions 1, 3, 4", HDR_MODES);

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
		/* AArch64's B key and tagged frames: no data. */
		{ "zRB", 0, 0, 0, 0 },
		{ "zRBG", 0, 0, 0, 0 },
		{ "zRX", 0, 0, 0, -EOPNOTSUPP },
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

UNIT_TEST(test_augmentations, "augmentations z, R, P, L, S, B, G, eh", HDR_MODES);

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

UNIT_TEST(test_dwarf64, "64-bit DWARF lengths", 0);

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

UNIT_TEST(test_multiple_cies, "several CIEs", 0);

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

UNIT_TEST(test_elf32, "ELF32: 4-byte pointers, wrap-around", 0);
