/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Find the frame rules for a user space pc in the .eh_frame_hdr and .eh_frame
 * sections of a mapped ELF object.
 *
 * All reads of the sections go through copy_from_user(): the data belongs to
 * user space and may be unmapped, truncated or hostile at any time.  Callers
 * run in task context where page faults are allowed.
 */
#ifndef _KERNEL_UNWIND_EH_FRAME_H
#define _KERNEL_UNWIND_EH_FRAME_H

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/unwind_user_registry.h>
#include <linux/unwind_user_types.h>

/*
 * DWARF register numbers of the registers struct unwind_user_frame knows:
 * the stack pointer, the frame pointer and the return address column.
 * x86-64: 7, 6, 16.  i386: 4, 5, 8.  s390x: 15, 11, 14.  And how far the
 * ABI puts the CFA above the caller's stack pointer: 0 as DWARF defines
 * it, 160 on s390x (the register save area the caller allocates).
 */
struct eh_frame_regs {
	u16	sp;
	u16	fp;
	u16	ra;
	u16	cfa_off;
};

/*
 * An object's .eh_frame_hdr and the .eh_frame it indexes, as mapped in user
 * space.  Filled in by eh_frame_section_init(), read-only afterwards.
 */
struct eh_frame_section {
	unsigned long	text_start;	/* [text_start, text_end): code covered */
	unsigned long	text_end;
	unsigned long	hdr_start;	/* .eh_frame_hdr */
	unsigned long	hdr_end;
	unsigned long	eh_frame_start;	/* CIE and FDE reads stay in here */
	unsigned long	eh_frame_end;
	unsigned long	table;		/* binary search table in .eh_frame_hdr */
	unsigned int	fde_count;	/* entries in the table */
	u8		table_enc;	/* DW_EH_PE_* of the table entries */
	u8		table_entry_size; /* size of one of the two fields */
	u8		ptr_size;	/* 8 (ELF64) or 4 (ELF32) */
};

/*
 * eh_frame_section_init() reads and checks the .eh_frame_hdr of the object
 * @desc describes, from user memory, or from @hdr_data if not NULL (a kernel
 * copy of the header).  The .eh_frame the header points to must start in
 * [desc->eh_frame_start, desc->eh_frame_end).  It returns 0, or an error
 * after which the section must not be used: -EFAULT, -EINVAL (corrupt
 * header), -EOPNOTSUPP (no search table, or one we cannot binary search).
 *
 * eh_frame_section_move() follows the object to an address @delta bytes
 * away (mremap()): every address in the section moves, none of the data.
 *
 * eh_frame_find_frame() finds the rules of the frame at @pc, expressed in
 * the registers of @regs.  It returns:
 *   0		success, *frame is filled in
 *   -ENOENT	no FDE covers pc: not an error, try another unwinder
 *   -EFAULT	reading user memory faulted
 *   -EINVAL	the section is corrupt: stop using it
 *   -EOPNOTSUPP the data is well formed but uses something this code does
 *		not handle (an expression the arch does not translate, an
 *		encoding no Linux toolchain emits, a size or instruction
 *		bound exceeded, an RA column that is not regs->ra): give up on
 *		this frame only
 *
 * Both run in task context, may fault and sleep, allocate nothing, and use
 * a few hundred bytes of stack.  The section is read-only after init and
 * may be shared.
 */
int eh_frame_section_init(struct eh_frame_section *sec,
			  const struct unwind_user_eh_frame *desc,
			  const void *hdr_data);
void eh_frame_section_move(struct eh_frame_section *sec, unsigned long delta);
int eh_frame_find_frame(const struct eh_frame_section *sec,
			const struct eh_frame_regs *regs, unsigned long pc,
			struct unwind_user_frame *frame, unsigned int *budget);

/* Internal interface between eh_frame.c and cfi.c. */

/*
 * A read cursor over user memory.  Reads are served from a small window that
 * is refilled with copy_from_user(); they never go at or beyond @end.  The
 * window is small because it lives on the kernel stack during evaluation;
 * it must hold the largest fixed-size value (8 bytes).  A cursor over a
 * kernel copy of user data (@kdata) refills from there instead.
 */
#define EH_FRAME_WINDOW_SIZE	16

struct eh_frame_cursor {
	unsigned long	pos;		/* user address of the next byte */
	unsigned long	end;		/* reads stop here */
	unsigned long	win_start;	/* user address of win[0] */
	unsigned int	win_len;	/* valid bytes in win[] */
	u8		win[EH_FRAME_WINDOW_SIZE];
	const u8	*kdata;		/* the bytes from kstart on, or NULL */
	unsigned long	kstart;
};

static inline void eh_frame_cursor_init(struct eh_frame_cursor *cur,
					unsigned long start, unsigned long end)
{
	cur->pos = start;
	cur->end = end;
	cur->win_start = start;
	cur->win_len = 0;
	cur->kdata = NULL;
}

int eh_frame_cursor_fill(struct eh_frame_cursor *cur);

static inline int eh_frame_read_u8(struct eh_frame_cursor *cur, u8 *val)
{
	unsigned long idx = cur->pos - cur->win_start;
	int ret;

	if (unlikely(cur->pos >= cur->end))
		return -EINVAL;
	if (unlikely(idx >= cur->win_len)) {
		ret = eh_frame_cursor_fill(cur);
		if (ret)
			return ret;
		idx = 0;
	}
	*val = cur->win[idx];
	cur->pos++;
	return 0;
}

int eh_frame_skip(struct eh_frame_cursor *cur, u64 len);
int eh_frame_read_udata(struct eh_frame_cursor *cur, unsigned int size, u64 *val);
int eh_frame_read_leb128(struct eh_frame_cursor *cur, bool is_signed, u64 *val);
int eh_frame_read_pointer(struct eh_frame_cursor *cur, u8 enc,
			  unsigned int ptr_size, unsigned long data_base,
			  unsigned long *val);

static inline int eh_frame_read_uleb128(struct eh_frame_cursor *cur, u64 *val)
{
	return eh_frame_read_leb128(cur, false, val);
}

static inline int eh_frame_read_sleb128(struct eh_frame_cursor *cur, s64 *val)
{
	return eh_frame_read_leb128(cur, true, (u64 *)val);
}

/*
 * A CIE, decoded: what its FDEs need to be read and evaluated.  Instruction
 * lengths fit in 16 bits: records are bounded by EH_FRAME_MAX_*_SIZE.
 */
struct eh_frame_cie {
	unsigned long	insns;		/* initial instructions */
	u32		code_align;	/* code alignment factor */
	s32		data_align;	/* data alignment factor */
	u16		insns_len;
	u16		ra_column;	/* return address column */
	u8		fde_enc;	/* DW_EH_PE_* of FDE addresses ('R') */
	bool		has_aug_data;	/* 'z': FDEs carry augmentation data */
	bool		signal_frame;	/* 'S' */
};

/* An FDE, decoded, with its CIE. */
struct eh_frame_fde {
	struct eh_frame_cie cie;
	unsigned long	pc_begin;	/* [pc_begin, pc_end): code covered */
	unsigned long	pc_end;
	unsigned long	insns;		/* call frame instructions */
	u16		insns_len;
};

#endif /* _KERNEL_UNWIND_EH_FRAME_H */
