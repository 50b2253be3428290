/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hand-built PE32+ images for the tests of kernel/unwind/pe.c: headers
 * written from the PE/COFF specification's offsets, a function table,
 * UNWIND_INFO and code bytes, mapped at PB_BASE in the fake user address
 * space.  Layout (RVAs): headers at 0, the function table at PB_PDATA,
 * UNWIND_INFO from PB_XDATA, code from PB_TEXT.
 */
#ifndef _UNWIND_TEST_PE_BUILDER_H
#define _UNWIND_TEST_PE_BUILDER_H

#include <linux/types.h>

#define PB_BASE		0x140000000UL
#define PB_NT		0x80		/* e_lfanew */
#define PB_PDATA	0x1000
#define PB_XDATA	0x2000
#define PB_TEXT		0x4000
#define PB_SIZE		0x8000		/* SizeOfImage */
#define PB_MAX_RF	((PB_XDATA - PB_PDATA) / 12)

/* Header field offsets, from the specification (not from <linux/pe.h>). */
#define PB_OFF_LFANEW		0x3c
#define PB_OFF_MACHINE		(PB_NT + 4)
#define PB_OFF_OPT_SIZE		(PB_NT + 20)
#define PB_OPT			(PB_NT + 24)
#define PB_OFF_OPT_MAGIC	(PB_OPT + 0)
#define PB_OFF_IMAGE_SIZE	(PB_OPT + 56)
#define PB_OFF_NR_DIRS		(PB_OPT + 108)
#define PB_OFF_EXC_DIR		(PB_OPT + 112 + 3 * 8)

/* One unwind code slot: prolog offset, op, info. */
#define UC(off, op, info)	((u16)((off) | (op) << 8 | (info) << 12))
/* An operand slot. */
#define UOP(v)			((u16)(v))

enum {
	UWOP_PUSH_NONVOL, UWOP_ALLOC_LARGE, UWOP_ALLOC_SMALL, UWOP_SET_FPREG,
	UWOP_SAVE_NONVOL, UWOP_SAVE_NONVOL_FAR, UWOP_EPILOG, UWOP_SPARE,
	UWOP_SAVE_XMM128, UWOP_SAVE_XMM128_FAR, UWOP_PUSH_MACHFRAME,
};

#define UNW_FLAG_EHANDLER	1
#define UNW_FLAG_UHANDLER	2
#define UNW_FLAG_CHAININFO	4

struct pe_builder {
	u8	img[PB_SIZE];
	u32	nr_rf;
	u32	xdata;		/* next free RVA for UNWIND_INFO */
};

extern struct pe_builder PB;

/* A fresh image: headers, an empty function table, all else zero. */
void pb_init(void);
void pb_put16(u32 rva, u16 v);
void pb_put32(u32 rva, u32 v);
/* Append a RUNTIME_FUNCTION (the caller keeps the table sorted). */
void pb_add_rf(u32 begin, u32 end, u32 unwind);
/*
 * Append an UNWIND_INFO; @chain (begin, end, unwind) is the chained entry
 * written after the codes when not NULL.  Returns its RVA.
 */
u32 pb_add_info(u8 version, u8 flags, u8 prolog, u8 frame_reg, u8 frame_off,
		const u16 *codes, unsigned int n, const u32 *chain);
/*
 * The same at @at, anywhere in the image (for data larger than the xdata
 * area); returns the RVA just past it.
 */
u32 pb_put_info(u32 at, u8 version, u8 flags, u8 prolog, u8 frame_reg,
		u8 frame_off, const u16 *codes, unsigned int n,
		const u32 *chain);
/* Code bytes at @rva. */
void pb_code(u32 rva, const void *bytes, unsigned int n);
/* Map the image (its first @len bytes) at PB_BASE, forgetting the rest. */
void pb_map(u32 len);

struct pe_unwind_frame;

/*
 * The GPR whose save slot is saved_off[i]: the order pe.h documents
 * (rbx, rbp, rsi, rdi, r12..r15), written out here independently.
 */
extern const u8 pb_nonvol_gpr[8];

/*
 * Apply @f to a thread's registers (16 GPRs) and @ip, reading saved values
 * from fake user memory, as a walk would: 0, or -EFAULT.
 */
int pb_apply(const struct pe_unwind_frame *f, u64 *regs, u64 *ip);

#endif
