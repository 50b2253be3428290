/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The input format of the libFuzzer target (fuzz.c), shared with the seed
 * generator (fuzz_seeds.py), which writes the same layout:
 *
 *	struct fuzz_input	this header, little-endian
 *	u8[sec_len]		the section bytes: .eh_frame_hdr first
 *				(hdr_size bytes), then .eh_frame (whatever
 *				lies between is mapped too)
 *	u8[]			the rest: the stack, mapped at FUZZ_STACK_BASE;
 *				its first byte is also the length of a DWARF
 *				expression (modulo 65) in the bytes after it
 *
 * Fields are taken modulo what makes sense rather than rejected, so that
 * every input runs the code.
 */
#ifndef _UNWIND_TEST_FUZZ_H
#define _UNWIND_TEST_FUZZ_H

#include <linux/types.h>

/*
 * Where the section bytes and the stack go in the fake address space.  Both
 * below 4 GiB, so that the same layout serves ELF32.  The seed generator
 * encodes absolute (non-pcrel) pointers against FUZZ_SEC_BASE.
 */
#define FUZZ_SEC_BASE		0x10000000UL
#define FUZZ_STACK_BASE		0x70000000UL

#define FUZZ_F_ELF32		0x01	/* ptr_size 4 and the i386 registers */
/* 0x02 is free: it asked an arch hook, now gone, to translate expressions. */
#define FUZZ_F_HOLE		0x04	/* unmap [hole_off, +hole_len) */
#define FUZZ_F_ARM64		0x08	/* 64-bit: the arm64 registers, 0x2d read */

/* Unwind steps after the first frame, at most. */
#define FUZZ_MAX_STEPS		16

struct fuzz_input {
	u8	flags;		/* FUZZ_F_* */
	u8	steps;		/* unwind steps, modulo FUZZ_MAX_STEPS + 1 */
	u16	hdr_size;	/* .eh_frame_hdr size passed to init */
	u32	sec_len;	/* section bytes that follow (capped) */
	u32	text_delta;	/* text_start = FUZZ_SEC_BASE - text_delta */
	u32	text_size;	/* text_end = text_start + text_size */
	u32	pc_off;		/* pc = text_start + pc_off */
	u16	sp_off;		/* sp = FUZZ_STACK_BASE + sp_off */
	u16	fp_off;		/* fp = FUZZ_STACK_BASE + fp_off */
	s16	end_adjust;	/* eh_frame_end = base + sec_len + end_adjust */
	u16	hole_off;	/* with FUZZ_F_HOLE: a hole in the section */
	u8	hole_len;
	u8	picks[3];	/* more lookups, at these table entries */
};	/* naturally aligned: no padding (fuzz.c checks the size) */

#endif
