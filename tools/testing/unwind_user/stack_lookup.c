// SPDX-License-Identifier: GPL-2.0
/*
 * For run_stack, which only compiles this: a table lookup as the registry
 * makes it (registry_eh_frame_lookup() in kernel/unwind/registry.c, which
 * needs the kernel's own headers).  The first lookup in a table builds its
 * index; then the FDE is found and decoded and its CFI run in one call, and
 * the row is turned into rules in the next.
 */
#include <linux/err.h>

#include "lookup.h"

int stack_lookup(const struct eh_frame_section *sec,
		 struct eh_frame_index *index,
		 const struct eh_frame_regs *regs, unsigned long pc,
		 struct unwind_user_frame *frame, unsigned int *budget);

noinline int stack_lookup(const struct eh_frame_section *sec,
			  struct eh_frame_index *index,
			  const struct eh_frame_regs *regs, unsigned long pc,
			  struct unwind_user_frame *frame, unsigned int *budget)
{
	if (!index) {
		index = eh_frame_index_build(sec, SIZE_MAX, NULL);
		if (IS_ERR(index))
			index = NULL;
	}
	return eh_lookup(sec, index, regs, pc, frame, budget);
}
