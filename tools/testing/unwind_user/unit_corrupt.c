// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: corrupt .eh_frame_hdr, corrupt CIEs and FDEs, lying search
 * tables (eh_frame.c).
 */
#include "unit.h"

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

UNIT_TEST(test_bad_hdr, "corrupt .eh_frame_hdr", HDR_MODES);

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

UNIT_TEST(test_bad_records, "corrupt CIEs and FDEs", HDR_MODES);

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

UNIT_TEST(test_unsorted_table, "unsorted or lying search table", 0);
