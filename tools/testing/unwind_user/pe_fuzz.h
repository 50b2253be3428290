/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The input of the PE fuzz target (pe_fuzz.c): this header, then the image
 * as mapped at PE_FUZZ_BASE.  Seeds are written by pe-unit --seeds (the
 * unit tests' images) and pe-oracle --image-out (images built by mingw).
 */
#ifndef _UNWIND_TEST_PE_FUZZ_H
#define _UNWIND_TEST_PE_FUZZ_H

#include <linux/types.h>

#define PE_FUZZ_BASE	0x140000000UL
#define PE_FUZZ_STACK	0x7ff000000000UL

/* Use table and entries below whatever pe_unwind_image_init() says. */
#define PE_FUZZ_RAW	0x1

struct pe_fuzz_input {
	u8	mode;		/* PE_FUZZ_* */
	/*
	 * The budget of each lookup, in reads (of UNWIND_USER_READ_COST):
	 * 4 * budget, or if 0 the walk's whole budget.
	 */
	u8	budget;
	u16	hole;		/* a byte of the image left unmapped once */
	u32	table;		/* RVA of the function table (raw mode) */
	u32	entries;	/* its entries (raw mode) */
	u32	pc;		/* RVA of one more pc to look up */
};

#endif
