/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unwind Windows x64 code in user space: find the frame of a pc in a PE32+
 * image as a loader (Wine) mapped it, from the image's exception directory
 * (RUNTIME_FUNCTION entries) and their UNWIND_INFO, interpreted the way
 * Windows' RtlVirtualUnwind does on x64.
 *
 * All reads of the image go through copy_from_user(): it belongs to user
 * space and may be unmapped, truncated or hostile at any time.  Callers run
 * in task context where page faults are allowed.  Nothing is allocated.
 */
#ifndef _KERNEL_UNWIND_PE_H
#define _KERNEL_UNWIND_PE_H

#include <linux/bits.h>
#include <linux/sizes.h>
#include <linux/types.h>

/* x86-64 general registers, numbered as UNWIND_INFO (and the ISA) does. */
enum pe_unwind_gpr {
	PE_UNWIND_RAX, PE_UNWIND_RCX, PE_UNWIND_RDX, PE_UNWIND_RBX,
	PE_UNWIND_RSP, PE_UNWIND_RBP, PE_UNWIND_RSI, PE_UNWIND_RDI,
	PE_UNWIND_R8, PE_UNWIND_R9, PE_UNWIND_R10, PE_UNWIND_R11,
	PE_UNWIND_R12, PE_UNWIND_R13, PE_UNWIND_R14, PE_UNWIND_R15,
	PE_UNWIND_NR_GPRS
};

/*
 * The registers a Windows x64 function must preserve (besides rsp), in the
 * order of pe_unwind_frame.saved_off[].  Only these can hold a frame
 * register across a call, so only their saves are kept; saves of volatile
 * registers (legal in hand-written code) move the stack and are forgotten.
 */
#define PE_UNWIND_NR_NONVOL	8
#define PE_UNWIND_NONVOL_GPRS	(BIT(PE_UNWIND_RBX) | BIT(PE_UNWIND_RBP) | \
				 BIT(PE_UNWIND_RSI) | BIT(PE_UNWIND_RDI) | \
				 BIT(PE_UNWIND_R12) | BIT(PE_UNWIND_R13) | \
				 BIT(PE_UNWIND_R14) | BIT(PE_UNWIND_R15))

/* rbx, rbp, rsi, rdi, r12..r15 -> 0..7; anything else -> -1. */
static inline int pe_unwind_nonvol_index(unsigned int gpr)
{
	if (gpr >= PE_UNWIND_NR_GPRS || !(PE_UNWIND_NONVOL_GPRS & BIT(gpr)))
		return -1;
	if (gpr == PE_UNWIND_RBX)
		return 0;
	if (gpr <= PE_UNWIND_RDI)
		return gpr - PE_UNWIND_RBP + 1;
	return gpr - PE_UNWIND_R12 + 4;
}

/* The GPR of saved_off[@idx]. */
static inline unsigned int pe_unwind_nonvol_gpr(unsigned int idx)
{
	if (idx == 0)
		return PE_UNWIND_RBX;
	if (idx < 4)
		return PE_UNWIND_RBP + idx - 1;
	return PE_UNWIND_R12 + idx - 4;
}

/* The DWARF (SysV psABI) number of an x86-64 GPR. */
static inline unsigned int pe_unwind_gpr_to_dwarf(unsigned int gpr)
{
	static const u8 dwarf[PE_UNWIND_NR_GPRS] = {
		0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15,
	};

	return dwarf[gpr & (PE_UNWIND_NR_GPRS - 1)];
}

/*
 * One frame, as rules relative to its Canonical Frame Address (CFA), the
 * form the generic unwinder and its row cache use:
 *
 *   CFA          = value of GPR cfa_reg (in this frame) + cfa_off
 *   return addr  = [CFA + ra_off]
 *   caller's rsp = CFA if sp_off is 0, else [CFA + sp_off]
 *   caller's GPR = [CFA + saved_off[i]] for each bit i set in saved
 *                  (pe_unwind_nonvol_gpr(i)); every other register keeps
 *                  its value (the callee did not change it)
 *
 * cfa_reg is rsp, or the frame register the function established (any GPR,
 * not only rbp).  A normal frame has ra_off -8 and sp_off 0: the CFA is the
 * caller's rsp after the return.  A machine frame (PUSH_MACHFRAME: the frame
 * of an interrupt or exception handler) has its CFA just above the pushed
 * rip/cs/rflags/rsp/ss, ra_off -40 and sp_off -16; the caller's ip is then
 * the interrupted instruction, not a return address.
 *
 * 44 bytes, fixed size: fit for a cache.  The rule at a pc inside a
 * function's body holds for the whole body; rules from a prolog hold for one
 * prolog offset, rules from an epilog (PE_UNWIND_FRAME_EPILOG) for one pc.
 */
struct pe_unwind_frame {
	s32	cfa_off;
	s32	saved_off[PE_UNWIND_NR_NONVOL];
	u8	cfa_reg;	/* enum pe_unwind_gpr */
	s8	ra_off;
	s8	sp_off;
	u8	saved;		/* bit i: saved_off[i] is valid */
	u8	flags;		/* PE_UNWIND_FRAME_* */
};

/* The caller was interrupted (PUSH_MACHFRAME): its ip is exact. */
#define PE_UNWIND_FRAME_MACHINE	BIT(0)
/*
 * No RUNTIME_FUNCTION covers the pc: a leaf function, which has neither
 * stack allocation nor saved registers.  Windows assumes this for any pc;
 * it is sure only in the topmost (or an interrupted) frame.
 */
#define PE_UNWIND_FRAME_LEAF	BIT(1)
/* The pc is in an epilog; the rules come from its instructions. */
#define PE_UNWIND_FRAME_EPILOG	BIT(2)

/*
 * A PE32+ image mapped in user space, checked by pe_unwind_image_init();
 * read-only afterwards, and may be shared.
 */
struct pe_unwind_image {
	unsigned long	base;		/* user address of the image (its MZ header) */
	u32		size;		/* SizeOfImage: every RVA read stays below it */
	u32		table;		/* RVA of the RUNTIME_FUNCTION table */
	u32		nr_entries;	/* its entries (may be 0: only leaves) */
};

/*
 * Bound on the entries of a table: pe_unwind_image_init() reads every entry
 * once (12 bytes each).  The largest DLLs known have a few 100000.
 */
#define PE_UNWIND_MAX_ENTRIES	SZ_2M

/* Why pe_unwind_image_init() refused an image. */
enum pe_unwind_check {
	PE_UNWIND_OK,
	PE_UNWIND_FAULT,	/* reading the image faulted (-EFAULT) */
	PE_UNWIND_INTR,		/* a fatal signal is pending (-EINTR) */
	/* -ENOEXEC: not a well-formed PE32+ image as mapped */
	PE_UNWIND_BAD_RANGE,	/* base/size empty or wrapping */
	PE_UNWIND_BAD_MZ,	/* no "MZ" at the base */
	PE_UNWIND_BAD_LFANEW,	/* e_lfanew: NT headers beyond the mapping */
	PE_UNWIND_BAD_PE_MAGIC,	/* no "PE\0\0" signature */
	PE_UNWIND_BAD_OPT_HDR,	/* optional header too small for its fields */
	PE_UNWIND_BAD_IMAGE_SIZE, /* SizeOfImage beyond the mapped size */
	PE_UNWIND_BAD_DIR,	/* exception directory not within the image */
	PE_UNWIND_BAD_DIR_SIZE,	/* directory size not a multiple of 12 */
	PE_UNWIND_BAD_ALIGN,	/* table not 4-byte aligned */
	PE_UNWIND_BAD_ENTRY,	/* an entry empty, or beyond the image */
	PE_UNWIND_BAD_ORDER,	/* entries not sorted, or overlapping */
	/* -EOPNOTSUPP: well formed, but not something this code unwinds */
	PE_UNWIND_BAD_MACHINE,	/* not AMD64 */
	PE_UNWIND_BAD_OPT_MAGIC, /* not PE32+ (0x20b) */
	PE_UNWIND_TOO_MANY,	/* more than PE_UNWIND_MAX_ENTRIES entries */
	PE_UNWIND_NR_CHECKS
};

/* A short description of a check, for messages. */
const char *pe_unwind_check_str(enum pe_unwind_check check);

/*
 * pe_unwind_image_init() reads and checks the headers of the image mapped
 * at [base, base + size) and its whole function table: MZ and PE32+
 * headers, machine AMD64, the exception directory within SizeOfImage,
 * 4-byte aligned, entries non-empty, within the image, sorted and not
 * overlapping.  UNWIND_INFO is checked where a lookup reads it.  Returns 0,
 * -ENOEXEC, -EOPNOTSUPP, -EFAULT or -EINTR; *why (if not NULL) names the
 * failed check.
 *
 * pe_unwind_image_find() does the same for an image the kernel found by
 * itself while a task was being sampled: its headers at @base, holding
 * @pc, nothing read at or beyond @limit; SizeOfImage says where it ends.
 * The function table is not read through here, which could take a walk
 * milliseconds: a lookup reads what it needs and checks it, as a lookup in
 * a registered image does, and an unsorted table can only make it miss.
 *
 * pe_unwind_find_frame() finds the rules of the frame at @pc.  A pc that is
 * a return address must be moved back into its call (pc - 1) as for
 * .eh_frame.  @flags: PE_UNWIND_EXACT_PC when the thread is at @pc (the
 * topmost frame, or one interrupted by a signal or machine frame): only
 * then are epilogs recognised, by decoding the instructions at @pc.
 * Each read of user memory takes UNWIND_USER_READ_COST from *@budget, the
 * walk's (UNWIND_USER_TABLE_BUDGET); a lookup never reads more than it
 * can pay for.
 * Returns:
 *   0		 *frame is filled in
 *   -ENOENT	 @pc is not in the image
 *   -EFAULT	 reading user memory faulted
 *   -EINVAL	 the unwind data is corrupt (out of the image, unaligned,
 *		 codes overrunning their count, a chain longer than 32 links
 *		 or a cycle, an indirect entry pointing to another)
 *   -EOPNOTSUPP well formed, but this frame cannot be expressed or is not
 *		 understood: an unknown version or op, a machine frame that
 *		 is not the last code, saves relative to another register
 *		 than the CFA's, offsets beyond 32 bits, a v2 epilog whose
 *		 instructions do not decode, or *@budget cannot pay for the
 *		 next read.  The walk must stop here.
 */
#define PE_UNWIND_EXACT_PC	BIT(0)

int pe_unwind_image_init(struct pe_unwind_image *img, unsigned long base,
			 unsigned long size, enum pe_unwind_check *why);
int pe_unwind_image_find(struct pe_unwind_image *img, unsigned long base,
			 unsigned long limit, unsigned long pc,
			 enum pe_unwind_check *why);
int pe_unwind_find_frame(const struct pe_unwind_image *img, unsigned long pc,
			 unsigned int flags, struct pe_unwind_frame *frame,
			 unsigned int *budget);

#endif /* _KERNEL_UNWIND_PE_H */
