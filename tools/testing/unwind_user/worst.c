// SPDX-License-Identifier: GPL-2.0
/*
 * The most work one sample can make the unwinder do, measured: a table
 * whose frames lead round in a circle (a signal frame, whose CFA may go
 * down, and an ordinary one that goes back up), the expensive one with as
 * many CFI instructions before its row as a lookup may run.  Prints the
 * time of one such lookup, of a whole walk as kernel/unwind/user.c does it
 * (the walk's budget stops it), and what the walk would cost without the
 * budget: a lookup at each of the deferred unwinder's entries.
 *
 *	worst [RUNS]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/kernel.h>
#include <linux/types.h>

#include "../../../kernel/unwind/dwarf.h"
#include "../../../kernel/unwind/eh_frame.h"
#include "lookup.h"
#include "builder.h"
#include "fake_user.h"
#include "walk.h"

/* kernel/unwind/cfi.c's per-lookup bound, less the CIE's and the FDE's rules. */
#define NOPS		(16384 - 8)
/* What kernel/unwind/deferred.c gives unwind_user(): a page of entries. */
#define MAX_ENTRIES	((4096 - 16) / 8)

#define F_DOWN		(TEST_TEXT_START + 0x100)
#define F_UP		(TEST_TEXT_START + 0x200)
#define STK		0x700000UL

static struct test_sec t;
static struct eh_frame_section sec;
static const struct eh_frame_regs regs = { .sp = 7, .fp = 6, .ra = 16 };
static unsigned long stk[64];
static unsigned long lookups;

static int find(unsigned long pc, unsigned int *budget,
		struct unwind_user_frame *frame)
{
	lookups++;
	return eh_lookup(&sec, NULL, &regs, pc, frame, budget);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void build(void)
{
	static const u8 down_cie[] = {
		DW_CFA_def_cfa_sf, 7, 1, DW_CFA_offset_extended_sf, 16, 0,
	};
	static const u8 up_insns[] = {
		DW_CFA_def_cfa_offset, 8, DW_CFA_offset_extended_sf, 16, 0,
	};
	static u8 nops[NOPS];
	struct unwind_user_eh_frame desc;
	struct hdr_opts hdr;
	struct cie_opts c = default_cie();
	struct fde_opts f;
	size_t cie_off;

	sec_reset(&t, 8);
	c.aug = "zRS";
	c.insns = down_cie;
	c.insns_len = sizeof(down_cie);
	cie_off = add_cie(&t, &c);
	memset(nops, DW_CFA_nop, sizeof(nops));
	f = default_fde(F_DOWN, 0x100, nops, sizeof(nops));
	add_fde(&t, cie_off, &f);
	c = default_cie();
	cie_off = add_cie(&t, &c);
	f = default_fde(F_UP, 0x100, up_insns, sizeof(up_insns));
	add_fde(&t, cie_off, &f);
	add_terminator(&t);
	hdr = default_hdr();
	build_hdr(&t, &hdr);
	map_sec(&t);
	desc = (struct unwind_user_eh_frame){
		.text_start = TEST_TEXT_START, .text_end = TEST_TEXT_END,
		.eh_frame_start = TEST_EH_ADDR, .eh_frame_end = TEST_EH_ADDR + t.eh.len,
		.hdr_start = TEST_HDR_ADDR, .hdr_end = TEST_HDR_ADDR + t.hdr.len,
		.ptr_size = 8,
	};
	if (eh_frame_section_init(&sec, &desc, NULL)) {
		fprintf(stderr, "worst: the section does not check out\n");
		exit(1);
	}
	/* F_DOWN's return address slot holds F_UP, F_UP's holds F_DOWN. */
	stk[31] = F_UP + 0x10;
	stk[32] = F_DOWN + 0x10;
	fake_user_map(STK, stk, sizeof(stk));
}

int main(int argc, char **argv)
{
	const struct walk_state start = {
		.ip = F_DOWN + 0x10, .sp = STK + 32 * 8, .ws = 8, .topmost = true,
	};
	static unsigned long entries[MAX_ENTRIES];
	long runs = argc > 1 ? strtol(argv[1], NULL, 0) : 200;
	struct unwind_user_frame frame;
	double t0, lookup_ns, walk_ns;
	unsigned int nr = 0;

	build();
	if (find(F_DOWN + 0x10, NULL, &frame)) {
		fprintf(stderr, "worst: the expensive lookup fails\n");
		return 1;
	}
	t0 = now_ns();
	for (long i = 0; i < runs; i++)
		find(F_DOWN + 0x10, NULL, &frame);
	lookup_ns = (now_ns() - t0) / runs;

	lookups = 0;
	t0 = now_ns();
	for (long i = 0; i < runs; i++)
		nr = walk_unwind(&start, find, entries, MAX_ENTRIES);
	walk_ns = (now_ns() - t0) / runs;

	printf("worst: one lookup running %d CFI instructions: %.1f us (%.1f ns each)\n",
	       NOPS + 6, lookup_ns / 1e3, lookup_ns / (NOPS + 6));
	printf("worst: a walk in a circle, budget %u instructions: %.1f us, %s %u, %s %lu\n",
	       UNWIND_USER_TABLE_BUDGET, walk_ns / 1e3, "frames", nr, "lookups",
	       lookups / runs);
	printf("worst: the same walk without a budget: %d lookups, %.1f ms\n",
	       MAX_ENTRIES, MAX_ENTRIES * lookup_ns / 1e6);
	return 0;
}
