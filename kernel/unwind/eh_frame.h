/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Find the FDE that covers a user space pc in the .eh_frame of a mapped ELF
 * object, through its .eh_frame_hdr or through an index the kernel builds.
 *
 * All reads of the sections go through copy_from_user(): the data belongs to
 * user space and may be unmapped, truncated or hostile at any time.  Callers
 * run in task context where page faults are allowed.
 */
#ifndef _KERNEL_UNWIND_EH_FRAME_H
#define _KERNEL_UNWIND_EH_FRAME_H

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <linux/unwind_user_registry.h>
#include <linux/unwind_user_types.h>

/*
 * DWARF register numbers of the registers struct unwind_user_frame knows:
 * the stack pointer, the frame pointer and the return address column (the
 * psABI's, from asm/unwind_user_dwarf.h).  And how far the ABI puts the CFA above
 * the caller's stack pointer: 0 as DWARF defines it, 160 on s390x (the
 * register save area the caller allocates).
 */
struct eh_frame_regs {
	u16	sp;
	u16	fp;
	u16	ra;
	u16	cfa_off;
	/*
	 * DW_CFA 0x2d is AArch64's negate_ra_state: whether the return
	 * address is signed from there on.  The walk strips every return
	 * address it reads (unwind_user_strip_ra()), so the reader skips it;
	 * elsewhere it is SPARC's window save, which no table here holds.
	 */
	bool	negate_ra_state;
};

/*
 * An object's .eh_frame, and the .eh_frame_hdr that indexes it if it has
 * one.  Filled in by eh_frame_section_init(), read-only afterwards.
 */
struct eh_frame_section {
	unsigned long	text_start;	/* [text_start, text_end): code covered */
	unsigned long	text_end;
	unsigned long	hdr_start;	/* .eh_frame_hdr, or 0 */
	unsigned long	hdr_end;
	unsigned long	eh_frame_start;	/* CIE and FDE reads stay in here */
	unsigned long	eh_frame_end;
	unsigned long	table;		/* search table in .eh_frame_hdr, or 0 */
	unsigned int	fde_count;	/* entries in the table */
	u8		table_enc;	/* DW_EH_PE_* of the table entries */
	u8		table_entry_size; /* size of one of the two fields */
	u8		ptr_size;	/* 8 (ELF64) or 4 (ELF32) */
};

/*
 * The bounds of an index the kernel builds for a table without a usable
 * .eh_frame_hdr (gcc -static executables have none): the .eh_frame read to
 * build it, and the FDEs it holds (8 bytes each).
 */
#define EH_FRAME_INDEX_MAX_BYTES	SZ_32M
#define EH_FRAME_INDEX_MAX_FDES		262144	/* 2 MiB of index */

/*
 * eh_frame_section_init() sets up the section @desc describes.  With a
 * header (desc->hdr_start != 0) it reads and checks the .eh_frame_hdr from
 * user memory, or from @hdr_data if not NULL (a kernel copy of the header);
 * the .eh_frame the header points to must start in [desc->eh_frame_start,
 * desc->eh_frame_end).  Without one, .eh_frame starts at
 * desc->eh_frame_start and needs an index before lookups find anything.
 * It returns 0, or an error after which the section must not be used:
 * -EFAULT, -EINVAL (corrupt header), -EOPNOTSUPP (no search table, or one we
 * cannot binary search), -EFBIG (no header, and too large to index).
 *
 * eh_frame_section_move() follows the object to an address @delta bytes
 * away (mremap()): every address in the section moves, none of the data.
 *
 * eh_frame_index_build() reads the section's search table, or all of its
 * .eh_frame if it has none, and builds an index in kernel memory that makes
 * a lookup one user read (no header: none), plus a cache of its decoded
 * CIEs.  It may fault and sleep, allocates GFP_KERNEL_ACCOUNT memory, stops
 * at a fatal signal, says how many bytes of the table it read, and returns
 * the index or an ERR_PTR: -ENOMEM, -EFAULT, -EINTR, -EINVAL (corrupt
 * .eh_frame), -EFBIG (over EH_FRAME_INDEX_MAX_*), -ENOSPC (the index would
 * take more than @max_bytes).  The index describes the
 * section as it was read; eh_frame_find_fde() still checks what it finds.
 * eh_frame_index_bytes() is its size, for /proc; eh_frame_index_free()
 * frees it after an RCU grace period.
 *
 * eh_frame_find_fde() finds and decodes the FDE that covers @pc, and its
 * CIE, with @index if not NULL; eh_frame_find_fde_fresh() does the same
 * but reads the CIE even if the index holds a copy, and says whether what
 * it found depends on where the table is mapped.  They return:
 *   0		success, *fde is filled in
 *   -ENOENT	no FDE covers pc: not an error, try another unwinder
 *   -EFAULT	reading user memory faulted
 *   -EINVAL	the section is corrupt: stop using it
 *   -EOPNOTSUPP the data is well formed but uses something this code does
 *		not handle (an encoding no Linux toolchain emits, a size bound
 *		exceeded, a section without a header and no @index): give up
 *		on this frame only
 *
 * eh_frame_find_fde() runs in task context, may fault and sleep, allocates
 * nothing, and uses a few hundred bytes of stack.  The section and the index
 * may be shared; lookups may run concurrently.
 */
struct eh_frame_index;
struct eh_frame_fde;

int eh_frame_section_init(struct eh_frame_section *sec,
			  const struct unwind_user_eh_frame *desc,
			  const void *hdr_data);
void eh_frame_section_move(struct eh_frame_section *sec, unsigned long delta);
struct eh_frame_index *eh_frame_index_build(const struct eh_frame_section *sec,
					    size_t max_bytes, size_t *read);
size_t eh_frame_index_bytes(const struct eh_frame_index *index);
void eh_frame_index_free(struct eh_frame_index *index);
int eh_frame_find_fde(const struct eh_frame_section *sec,
		      struct eh_frame_index *index, unsigned long pc,
		      struct eh_frame_fde *fde);
int eh_frame_find_fde_fresh(const struct eh_frame_section *sec,
			    struct eh_frame_index *index, unsigned long pc,
			    struct eh_frame_fde *fde, bool *absolute);

/*
 * What a lookup reads of an FDE in its first user access: its header (at
 * most 40 bytes: DWARF64 length and CIE pointer, two 8-byte fields, an
 * LSDA) and the instructions that follow, all of them for 94% of the FDEs
 * of glibc, bash and CPython (80 bytes or less, and 98% of 104); and
 * how many bytes of a CIE's initial instructions it keeps.  So evaluating
 * them reads no user memory again.
 */
#define EH_FRAME_FDE_READ		80
#define EH_FRAME_CIE_INSNS_COPY		16

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
	u8		insns_copied;	/* bytes of them in init[] */
	bool		has_aug_data;	/* 'z': FDEs carry augmentation data */
	bool		signal_frame;	/* 'S' */
	u8		init[EH_FRAME_CIE_INSNS_COPY];
};

/* An FDE, decoded, with its CIE and the bytes of it the lookup read. */
struct eh_frame_fde {
	struct eh_frame_cie cie;
	unsigned long	pc_begin;	/* [pc_begin, pc_end): code covered */
	unsigned long	pc_end;
	unsigned long	insns;		/* call frame instructions */
	u16		insns_len;
	u8		insns_copied;	/* bytes of them in raw[], */
	u8		insns_off;	/* from this offset on */
	u8		raw_len;	/* bytes read into raw[] */
	u8		raw[EH_FRAME_FDE_READ];
};

#endif /* _KERNEL_UNWIND_EH_FRAME_H */
