// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the index of a table, with its header and without
 * (eh_frame_index_build()).
 */
#include "unit.h"

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

UNIT_TEST(test_no_header, "no header: the index of .eh_frame", BIT(MODE_SCAN));

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
	index = eh_frame_index_build(&sec, SIZE_MAX, NULL);
	CHECK(IS_ERR(index) && PTR_ERR(index) == -EFBIG, "%u FDEs: %s", n,
	      IS_ERR(index) ? err_name(PTR_ERR(index)) : "an index");
	if (!IS_ERR(index))
		kvfree(index);

	/* One FDE fewer is at the bound: indexed. */
	desc.eh_frame_end -= fde_len;
	CHECK(!eh_frame_section_init(&sec, &desc, NULL), "init");
	index = eh_frame_index_build(&sec, SIZE_MAX, NULL);
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

UNIT_TEST(test_no_header_bounds, "no header: the bounds of the index",
	  BIT(MODE_SCAN));

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

UNIT_TEST(test_index_reads, "index of the search table: one block, one FDE",
	  BIT(MODE_INDEX));
