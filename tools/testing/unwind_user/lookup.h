/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A table lookup as the registry chains it (kernel/unwind/registry.c): find
 * and decode the FDE of a pc, run its CFI to the pc's row, then turn the row
 * into frame rules, with the FDE off the stack.  @index may be NULL.
 */
#ifndef _UNWIND_TEST_LOOKUP_H
#define _UNWIND_TEST_LOOKUP_H

#include "../../../kernel/unwind/cfi.h"
#include "../../../kernel/unwind/eh_frame.h"

static noinline int eh_lookup_row(const struct eh_frame_section *sec,
				  struct eh_frame_index *index,
				  const struct eh_frame_regs *regs,
				  unsigned long pc, struct cfi_row *row,
				  unsigned int *budget)
{
	struct eh_frame_fde fde;
	int ret;

	ret = eh_frame_find_fde(sec, index, pc, &fde);
	if (ret)
		return ret;
	return cfi_find_row(sec, regs, &fde, pc, row, budget);
}

static inline int eh_lookup(const struct eh_frame_section *sec,
			    struct eh_frame_index *index,
			    const struct eh_frame_regs *regs, unsigned long pc,
			    struct unwind_user_frame *frame,
			    unsigned int *budget)
{
	struct cfi_row row;
	int ret;

	ret = eh_lookup_row(sec, index, regs, pc, &row, budget);
	if (ret)
		return ret;
	return cfi_row_frame(sec, regs, &row, pc, frame);
}

#endif
