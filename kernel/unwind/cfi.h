/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DWARF call frame information: evaluate an FDE's instructions into the frame
 * rules for one pc.
 */
#ifndef _KERNEL_UNWIND_CFI_H
#define _KERNEL_UNWIND_CFI_H

#include <linux/unwind_user.h>

#include "eh_frame.h"

int cfi_eval_frame(const struct eh_frame_section *sec,
		   const struct eh_frame_regs *regs,
		   const struct eh_frame_fde *fde, unsigned long pc,
		   struct unwind_user_frame *frame, unsigned int *budget);

#endif /* _KERNEL_UNWIND_CFI_H */
