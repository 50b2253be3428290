// SPDX-License-Identifier: GPL-2.0
/*
 * Unwind Windows x64 (PE32+) code in user space, as Windows' RtlVirtualUnwind
 * does: find the RUNTIME_FUNCTION of a pc by binary search in the image's
 * exception directory, then undo the effects of its prolog as its
 * UNWIND_INFO codes describe them (versions 1 and 2, chained info, partial
 * prologs), or, in the topmost frame, of the epilog the pc is in.  The result
 * is a set of rules relative to a CFA (struct pe_unwind_frame), not register
 * values: the walk applies them, and they can be cached.
 *
 * The image is user memory: every read is bounds-checked against the image
 * and done with copy_from_user(), every loop has a hard bound, and bad data
 * yields an error, never a guess.  A lookup pays for each read from the
 * walk's budget: a spent budget ends it.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/pe.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <linux/unwind_user_registry.h>

#include "pe.h"

/* RUNTIME_FUNCTION: three RVAs. */
#define PE_RF_SIZE		12
/* UnwindData with bit 0 set: the RVA + 1 of another RUNTIME_FUNCTION. */
#define PE_RF_INDIRECT		0x1

/* UNWIND_INFO header: version:3 flags:5, prolog size, code count, frame. */
#define PE_UI_HDR_SIZE		4
#define PE_UI_CHAININFO		0x4

/* Unwind codes (UWOP_*); 7 and 11..15 are not defined for x64 user code. */
#define PE_UWOP_PUSH_NONVOL	0
#define PE_UWOP_ALLOC_LARGE	1
#define PE_UWOP_ALLOC_SMALL	2
#define PE_UWOP_SET_FPREG	3
#define PE_UWOP_SAVE_NONVOL	4
#define PE_UWOP_SAVE_NONVOL_FAR	5
#define PE_UWOP_EPILOG		6	/* version 2 only */
#define PE_UWOP_SAVE_XMM128	8
#define PE_UWOP_SAVE_XMM128_FAR	9
#define PE_UWOP_PUSH_MACHFRAME	10

/* Windows gives up after this many chained UNWIND_INFO links. */
#define PE_MAX_CHAIN		32

/*
 * Bytes decoded at the pc to recognise an epilog: lea rsp,[r12+disp32] (8),
 * up to 16 pops of 2 bytes, then an 8-byte jmp [r/m64].  Longer sequences
 * are not epilogs Windows would recognise either.
 */
#define PE_EPILOG_MAX_BYTES	48
#define PE_EPILOG_MAX_POPS	16

/* A machine frame: [error code,] rip, cs, rflags, rsp, ss. */
#define PE_MACHFRAME_SIZE	40
#define PE_MACHFRAME_RSP	24

/* Offsets into the headers, from <linux/pe.h>. */
#define PE_MZ_SIZE		(offsetof(struct mz_hdr, peaddr) + sizeof(u32))
#define PE_OPT_DIRS_OFFSET	sizeof(struct pe32plus_opt_hdr)
#define PE_EXCEPTION_DIR	(offsetof(struct data_directory, exceptions) / \
				 sizeof(struct data_dirent))

/* pe.h promises a small fixed-size frame, for a cache. */
static_assert(sizeof(struct pe_unwind_frame) == 44);

static const char * const pe_check_names[PE_UNWIND_NR_CHECKS] = {
	[PE_UNWIND_OK]			= "ok",
	[PE_UNWIND_FAULT]		= "fault while reading the image",
	[PE_UNWIND_INTR]		= "interrupted",
	[PE_UNWIND_BAD_RANGE]		= "empty or wrapping range",
	[PE_UNWIND_BAD_MZ]		= "no MZ header",
	[PE_UNWIND_BAD_LFANEW]		= "NT headers outside the mapping",
	[PE_UNWIND_BAD_PE_MAGIC]	= "no PE signature",
	[PE_UNWIND_BAD_OPT_HDR]		= "optional header too small",
	[PE_UNWIND_BAD_IMAGE_SIZE]	= "SizeOfImage beyond the mapping",
	[PE_UNWIND_BAD_DIR]		= "exception directory outside the image",
	[PE_UNWIND_BAD_DIR_SIZE]	= "exception directory size not a multiple of 12",
	[PE_UNWIND_BAD_ALIGN]		= "function table not 4-byte aligned",
	[PE_UNWIND_BAD_ENTRY]		= "function entry empty or outside the image",
	[PE_UNWIND_BAD_ORDER]		= "function table unsorted or overlapping",
	[PE_UNWIND_BAD_MACHINE]		= "machine is not AMD64",
	[PE_UNWIND_BAD_OPT_MAGIC]	= "not PE32+",
	[PE_UNWIND_TOO_MANY]		= "too many function entries",
};

const char *pe_unwind_check_str(enum pe_unwind_check check)
{
	if ((unsigned int)check >= PE_UNWIND_NR_CHECKS)
		return "?";
	return pe_check_names[check];
}

/* Copy [rva, rva + len) of the image: -EINVAL if beyond it, -EFAULT. */
static int pe_read(const struct pe_unwind_image *img, u32 rva, void *buf,
		   u32 len)
{
	if ((u64)rva + len > img->size)
		return -EINVAL;
	if (copy_from_user(buf, (const void __user *)(img->base + rva), len))
		return -EFAULT;
	return 0;
}

struct pe_rf {
	u32	begin;
	u32	end;
	u32	unwind;
};

static void pe_rf_decode(const u8 *raw, struct pe_rf *rf)
{
	rf->begin = get_unaligned_le32(raw);
	rf->end = get_unaligned_le32(raw + 4);
	rf->unwind = get_unaligned_le32(raw + 8);
}

/* A lookup: the image, and the walk's budget that pays for its reads. */
struct pe_ctx {
	const struct pe_unwind_image	*img;
	unsigned int			*budget;
};

/*
 * pe_read() for a lookup.  Each read costs UNWIND_USER_READ_COST, paid
 * before it is made: a lookup reads no more than its budget allows, and one
 * that cannot pay stops with -EOPNOTSUPP.  An access refused for its bounds
 * reads nothing and costs nothing.
 */
static int pe_fetch(const struct pe_ctx *ctx, u32 rva, void *buf, u32 len)
{
	if ((u64)rva + len > ctx->img->size)
		return -EINVAL;
	if (*ctx->budget < UNWIND_USER_READ_COST)
		return -EOPNOTSUPP;
	*ctx->budget -= UNWIND_USER_READ_COST;
	return pe_read(ctx->img, rva, buf, len);
}

static int pe_read_rf(const struct pe_ctx *ctx, u32 rva, struct pe_rf *rf)
{
	u8 raw[PE_RF_SIZE];
	int ret;

	if (rva & 3)
		return -EINVAL;
	ret = pe_fetch(ctx, rva, raw, sizeof(raw));
	if (ret)
		return ret;
	pe_rf_decode(raw, rf);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Image and table checks */

static int pe_check_errno(enum pe_unwind_check check)
{
	switch (check) {
	case PE_UNWIND_OK:
		return 0;
	case PE_UNWIND_FAULT:
		return -EFAULT;
	case PE_UNWIND_INTR:
		return -EINTR;
	case PE_UNWIND_BAD_MACHINE:
	case PE_UNWIND_BAD_OPT_MAGIC:
	case PE_UNWIND_TOO_MANY:
		return -EOPNOTSUPP;
	default:
		return -ENOEXEC;
	}
}

/* Entries read per copy while checking the table. */
#define PE_CHECK_BATCH		16

static noinline enum pe_unwind_check pe_check_table(const struct pe_unwind_image *img)
{
	u8 raw[PE_CHECK_BATCH * PE_RF_SIZE];
	u32 i, j, n, prev_end = 0;
	struct pe_rf rf;
	int ret;

	for (i = 0; i < img->nr_entries; i += n) {
		n = min_t(u32, img->nr_entries - i, PE_CHECK_BATCH);
		ret = pe_read(img, img->table + i * PE_RF_SIZE, raw,
			      n * PE_RF_SIZE);
		if (ret)
			return ret == -EFAULT ? PE_UNWIND_FAULT : PE_UNWIND_BAD_DIR;
		for (j = 0; j < n; j++) {
			pe_rf_decode(raw + j * PE_RF_SIZE, &rf);
			if (rf.begin >= rf.end || rf.end > img->size ||
			    (rf.unwind & ~PE_RF_INDIRECT) >= img->size)
				return PE_UNWIND_BAD_ENTRY;
			if (rf.begin < prev_end)
				return PE_UNWIND_BAD_ORDER;
			prev_end = rf.end;
		}
		if (fatal_signal_pending(current))
			return PE_UNWIND_INTR;
		cond_resched();
	}
	return PE_UNWIND_OK;
}

static enum pe_unwind_check pe_check_image(struct pe_unwind_image *img,
					   unsigned long base,
					   unsigned long size, bool scan)
{
	u8 hdr[sizeof(struct pe_hdr) + PE_OPT_DIRS_OFFSET];
	u8 dir[sizeof(struct data_dirent)];
	u32 nt, opt_size, image_size, nr_dirs, va, len;
	unsigned long end;
	u8 mz[PE_MZ_SIZE];
	const u8 *opt;
	int ret;

	if (!size || check_add_overflow(base, size, &end))
		return PE_UNWIND_BAD_RANGE;
	/* Until SizeOfImage is known, reads stay in the mapping. */
	img->base = base;
	img->size = min_t(unsigned long, size, U32_MAX);

	ret = pe_read(img, 0, mz, sizeof(mz));
	if (ret)
		return ret == -EFAULT ? PE_UNWIND_FAULT : PE_UNWIND_BAD_MZ;
	if (get_unaligned_le16(mz + offsetof(struct mz_hdr, magic)) != IMAGE_DOS_SIGNATURE)
		return PE_UNWIND_BAD_MZ;

	nt = get_unaligned_le32(mz + offsetof(struct mz_hdr, peaddr));
	ret = pe_read(img, nt, hdr, sizeof(struct pe_hdr) + sizeof(u16));
	if (ret)
		return ret == -EFAULT ? PE_UNWIND_FAULT : PE_UNWIND_BAD_LFANEW;
	if (get_unaligned_le32(hdr + offsetof(struct pe_hdr, magic)) != IMAGE_NT_SIGNATURE)
		return PE_UNWIND_BAD_PE_MAGIC;
	if (get_unaligned_le16(hdr + offsetof(struct pe_hdr, machine)) !=
	    IMAGE_FILE_MACHINE_AMD64)
		return PE_UNWIND_BAD_MACHINE;
	opt = hdr + sizeof(struct pe_hdr);
	if (get_unaligned_le16(opt) != IMAGE_NT_OPTIONAL_HDR64_MAGIC)
		return PE_UNWIND_BAD_OPT_MAGIC;

	opt_size = get_unaligned_le16(hdr + offsetof(struct pe_hdr, opt_hdr_size));
	if (opt_size < PE_OPT_DIRS_OFFSET)
		return PE_UNWIND_BAD_OPT_HDR;
	ret = pe_read(img, nt, hdr, sizeof(hdr));
	if (ret)
		return ret == -EFAULT ? PE_UNWIND_FAULT : PE_UNWIND_BAD_LFANEW;

	image_size = get_unaligned_le32(opt +
				offsetof(struct pe32plus_opt_hdr, image_size));
	if (image_size > size || (u64)nt + sizeof(hdr) > image_size)
		return PE_UNWIND_BAD_IMAGE_SIZE;
	img->size = image_size;

	img->table = 0;
	img->nr_entries = 0;
	nr_dirs = get_unaligned_le32(opt +
				offsetof(struct pe32plus_opt_hdr, data_dirs));
	if (nr_dirs <= PE_EXCEPTION_DIR)
		return PE_UNWIND_OK;	/* no exception directory: leaves only */
	if (opt_size < PE_OPT_DIRS_OFFSET +
		       (PE_EXCEPTION_DIR + 1) * sizeof(struct data_dirent))
		return PE_UNWIND_BAD_OPT_HDR;
	ret = pe_read(img, nt + sizeof(hdr) +
		      PE_EXCEPTION_DIR * sizeof(struct data_dirent),
		      dir, sizeof(dir));
	if (ret)
		return ret == -EFAULT ? PE_UNWIND_FAULT : PE_UNWIND_BAD_OPT_HDR;
	va = get_unaligned_le32(dir);
	len = get_unaligned_le32(dir + 4);
	if (!len)
		return PE_UNWIND_OK;
	if ((u64)va + len > image_size)
		return PE_UNWIND_BAD_DIR;
	if (len % PE_RF_SIZE)
		return PE_UNWIND_BAD_DIR_SIZE;
	if (va & 3)
		return PE_UNWIND_BAD_ALIGN;
	if (len / PE_RF_SIZE > PE_UNWIND_MAX_ENTRIES)
		return PE_UNWIND_TOO_MANY;
	img->table = va;
	img->nr_entries = len / PE_RF_SIZE;
	return scan ? pe_check_table(img) : PE_UNWIND_OK;
}

int pe_unwind_image_init(struct pe_unwind_image *img, unsigned long base,
			 unsigned long size, enum pe_unwind_check *why)
{
	enum pe_unwind_check check = pe_check_image(img, base, size, true);

	if (why)
		*why = check;
	return pe_check_errno(check);
}

int pe_unwind_image_find(struct pe_unwind_image *img, unsigned long base,
			 unsigned long limit, unsigned long pc,
			 enum pe_unwind_check *why)
{
	enum pe_unwind_check check = PE_UNWIND_BAD_RANGE;

	if (base < limit && pc >= base && pc < limit)
		check = pe_check_image(img, base, limit - base, false);
	if (check == PE_UNWIND_OK && pc - base >= img->size)
		check = PE_UNWIND_BAD_IMAGE_SIZE;
	if (why)
		*why = check;
	return pe_check_errno(check);
}

/* ------------------------------------------------------------------ */
/* Function lookup */

/* The entry covering @rva: 0, -ENOENT, or a read error. */
static int pe_lookup(const struct pe_ctx *ctx, u32 rva, struct pe_rf *rf)
{
	const struct pe_unwind_image *img = ctx->img;
	u32 lo = 0, hi = img->nr_entries, mid;
	int ret;

	/* At most log2(PE_UNWIND_MAX_ENTRIES) + 1 probes. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		ret = pe_read_rf(ctx, img->table + mid * PE_RF_SIZE, rf);
		if (ret)
			return ret;
		if (rva < rf->begin)
			hi = mid;
		else if (rva >= rf->end)
			lo = mid + 1;
		else
			return 0;
	}
	return -ENOENT;
}

/*
 * Follow an indirect entry (Wine and Windows allow one level).  Its target
 * need not cover the pc that led to it: a function's fragment placed away
 * from it shares the function's entry that way.
 */
static int pe_resolve(const struct pe_ctx *ctx, struct pe_rf *rf)
{
	int ret;

	if (!(rf->unwind & PE_RF_INDIRECT))
		return 0;
	ret = pe_read_rf(ctx, rf->unwind & ~PE_RF_INDIRECT, rf);
	if (ret)
		return ret;
	return rf->unwind & PE_RF_INDIRECT ? -EINVAL : 0;
}

/* ------------------------------------------------------------------ */
/* UNWIND_INFO and its codes */

#define PE_CODES_WINDOW		16	/* slots read per copy */

struct pe_info {
	u32		rva;		/* of the UNWIND_INFO */
	u8		version;
	u8		flags;
	u8		prolog_size;
	u8		count;		/* code slots */
	u8		frame_reg;
	u8		frame_off;	/* in units of 16 bytes */
	/* a window on the code slots, refilled by pe_slot() */
	u8		first;
	u8		len;
	u8		win[2 * PE_CODES_WINDOW];
};

static int pe_read_info(const struct pe_ctx *ctx, u32 rva, struct pe_info *ui)
{
	u8 hdr[PE_UI_HDR_SIZE];
	int ret;

	if (rva & 3)
		return -EINVAL;
	ret = pe_fetch(ctx, rva, hdr, sizeof(hdr));
	if (ret)
		return ret;
	ui->rva = rva;
	ui->version = hdr[0] & 7;
	ui->flags = hdr[0] >> 3;
	ui->prolog_size = hdr[1];
	ui->count = hdr[2];
	ui->frame_reg = hdr[3] & 0xf;
	ui->frame_off = hdr[3] >> 4;
	ui->first = 0;
	ui->len = 0;
	/* Version 3 has been previewed (APX); it is not version 2. */
	if (ui->version != 1 && ui->version != 2)
		return -EOPNOTSUPP;
	/* The codes, padded to an even count, and a chained entry. */
	if ((u64)rva + PE_UI_HDR_SIZE + 2 * ALIGN(ui->count, 2) +
	    (ui->flags & PE_UI_CHAININFO ? PE_RF_SIZE : 0) > ctx->img->size)
		return -EINVAL;
	return 0;
}

/* Code slot @i (< ui->count) as a little-endian u16. */
static int pe_slot(const struct pe_ctx *ctx, struct pe_info *ui,
		   unsigned int i, u16 *slot)
{
	unsigned int n;
	int ret;

	if (i >= ui->count)
		return -EINVAL;
	if (i < ui->first || i - ui->first >= ui->len) {
		n = min_t(unsigned int, ui->count - i, PE_CODES_WINDOW);
		ret = pe_fetch(ctx, ui->rva + PE_UI_HDR_SIZE + 2 * i, ui->win,
			       2 * n);
		if (ret)
			return ret;
		ui->first = i;
		ui->len = n;
	}
	*slot = get_unaligned_le16(ui->win + 2 * (i - ui->first));
	return 0;
}

#define PE_CODE_OFFSET(slot)	((slot) & 0xff)
#define PE_CODE_OP(slot)	(((slot) >> 8) & 0xf)
#define PE_CODE_INFO(slot)	((slot) >> 12)

/*
 * Slots taken by the code in @slot, as Windows counts them (EPILOG: 2), or
 * -EOPNOTSUPP for an op it does not know.
 */
static int pe_code_slots(const struct pe_info *ui, u16 slot)
{
	switch (PE_CODE_OP(slot)) {
	case PE_UWOP_PUSH_NONVOL:
	case PE_UWOP_ALLOC_SMALL:
	case PE_UWOP_SET_FPREG:
	case PE_UWOP_PUSH_MACHFRAME:
		return 1;
	case PE_UWOP_ALLOC_LARGE:
		return PE_CODE_INFO(slot) ? 3 : 2;
	case PE_UWOP_SAVE_NONVOL:
	case PE_UWOP_SAVE_XMM128:
		return 2;
	case PE_UWOP_SAVE_NONVOL_FAR:
	case PE_UWOP_SAVE_XMM128_FAR:
		return 3;
	case PE_UWOP_EPILOG:
		return ui->version >= 2 ? 2 : -EOPNOTSUPP;
	default:
		return -EOPNOTSUPP;
	}
}

/* ------------------------------------------------------------------ */
/* Symbolic unwinding: every address is "a register's value at the pc + off" */

struct pe_sym {
	s64	off;
	u8	reg;
};

struct pe_state {
	struct pe_sym	rsp;		/* rsp as unwound so far */
	struct pe_sym	base;		/* frame base of SAVE_NONVOL */
	/* where nonvolatile i was saved: saved_reg[i] + saved_off[i] */
	s64		saved_off[PE_UNWIND_NR_NONVOL];
	u8		saved_reg[PE_UNWIND_NR_NONVOL];
	u8		saved_mask;
	bool		machine;	/* a PUSH_MACHFRAME was undone at rsp */
	u8		machine_err;	/* bytes of error code above it */
};

static int pe_save(struct pe_state *st, unsigned int reg, struct pe_sym at)
{
	int idx;

	/* Windows would load rsp from the stack: nothing emits that. */
	if (reg == PE_UNWIND_RSP)
		return -EINVAL;
	idx = pe_unwind_nonvol_index(reg);
	if (idx >= 0) {
		st->saved_off[idx] = at.off;
		st->saved_reg[idx] = at.reg;
		st->saved_mask |= BIT(idx);
	}
	return 0;
}

static bool pe_restored(const struct pe_state *st, unsigned int reg)
{
	int idx = pe_unwind_nonvol_index(reg);

	return idx >= 0 && (st->saved_mask & BIT(idx));
}

/* Turn the state into rules relative to the CFA. */
static int pe_finish(const struct pe_state *st, u8 flags,
		     struct pe_unwind_frame *frame)
{
	struct pe_sym cfa = st->rsp;
	unsigned int i;
	s64 off;

	memset(frame, 0, sizeof(*frame));
	if (st->machine) {
		cfa.off += st->machine_err + PE_MACHFRAME_SIZE;
		frame->ra_off = -PE_MACHFRAME_SIZE;
		frame->sp_off = PE_MACHFRAME_RSP - PE_MACHFRAME_SIZE;
		flags |= PE_UNWIND_FRAME_MACHINE;
	} else {
		cfa.off += 8;
		frame->ra_off = -8;
	}
	if (cfa.off < S32_MIN || cfa.off > S32_MAX)
		return -EOPNOTSUPP;
	frame->cfa_reg = cfa.reg;
	frame->cfa_off = cfa.off;
	for (i = 0; i < PE_UNWIND_NR_NONVOL; i++) {
		if (!(st->saved_mask & BIT(i)))
			continue;
		/* Both rsp and a frame register may be known, but not here. */
		if (st->saved_reg[i] != cfa.reg)
			return -EOPNOTSUPP;
		off = st->saved_off[i] - cfa.off;
		if (off < S32_MIN || off > S32_MAX)
			return -EOPNOTSUPP;
		frame->saved_off[i] = off;
	}
	frame->saved = st->saved_mask;
	frame->flags = flags;
	return 0;
}

/*
 * Undo, in their order, the codes of one UNWIND_INFO that had run at
 * @prolog_off (those with a larger offset had not).  At most 255 slots.
 */
static int pe_undo_codes(const struct pe_ctx *ctx, struct pe_info *ui,
			 u32 prolog_off, struct pe_state *st)
{
	unsigned int i, reg, info, n;
	u16 slot, op1, op2;
	u32 size;
	int ret;

	for (i = 0; i < ui->count; i += n) {
		ret = pe_slot(ctx, ui, i, &slot);
		if (ret)
			return ret;
		ret = pe_code_slots(ui, slot);
		if (ret < 0)
			return ret;
		n = ret;
		ret = 0;
		/* Operand slots must be there; EPILOG's second may be padding. */
		if (PE_CODE_OP(slot) != PE_UWOP_EPILOG && i + n > ui->count)
			return -EINVAL;
		if (PE_CODE_OFFSET(slot) > prolog_off)
			continue;	/* not executed yet */

		reg = PE_CODE_INFO(slot);
		info = PE_CODE_INFO(slot);
		op1 = 0;
		op2 = 0;
		if (n > 1 && PE_CODE_OP(slot) != PE_UWOP_EPILOG) {
			ret = pe_slot(ctx, ui, i + 1, &op1);
			if (!ret && n > 2)
				ret = pe_slot(ctx, ui, i + 2, &op2);
			if (ret)
				return ret;
		}

		switch (PE_CODE_OP(slot)) {
		case PE_UWOP_PUSH_NONVOL:
			ret = pe_save(st, reg, st->rsp);
			st->rsp.off += 8;
			break;
		case PE_UWOP_ALLOC_LARGE:
			size = info ? op1 | (u32)op2 << 16 : (u32)op1 * 8;
			st->rsp.off += size;
			break;
		case PE_UWOP_ALLOC_SMALL:
			st->rsp.off += info * 8 + 8;
			break;
		case PE_UWOP_SET_FPREG:
			if (!ui->frame_reg)
				return -EINVAL;
			/* Its value is the callee's only until restored. */
			if (pe_restored(st, ui->frame_reg))
				return -EOPNOTSUPP;
			st->rsp.reg = ui->frame_reg;
			st->rsp.off = -16 * (s64)ui->frame_off;
			break;
		case PE_UWOP_SAVE_NONVOL:
			ret = pe_save(st, reg, (struct pe_sym){
					.reg = st->base.reg,
					.off = st->base.off + (u32)op1 * 8 });
			break;
		case PE_UWOP_SAVE_NONVOL_FAR:
			ret = pe_save(st, reg, (struct pe_sym){
					.reg = st->base.reg,
					.off = st->base.off +
					       (op1 | (u32)op2 << 16) });
			break;
		case PE_UWOP_PUSH_MACHFRAME:
			/*
			 * Windows would go on unwinding from the interrupted
			 * rsp; Wine accepts it only last, unchained, as here.
			 */
			if (i + 1 != ui->count || (ui->flags & PE_UI_CHAININFO))
				return -EOPNOTSUPP;
			st->machine = true;
			st->machine_err = info ? 8 : 0;
			break;
		default:
			/* EPILOG, SAVE_XMM128(_FAR): no GPR, no stack effect */
			break;
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* Is the frame register of @ui set at @prolog_off (Windows' rule)? */
static int pe_frame_established(const struct pe_ctx *ctx, struct pe_info *ui,
				u32 prolog_off, bool *set)
{
	unsigned int i, n;
	u16 slot;
	int ret;

	*set = false;
	if (!ui->frame_reg)
		return 0;
	if (prolog_off >= ui->prolog_size || (ui->flags & PE_UI_CHAININFO)) {
		*set = true;
		return 0;
	}
	for (i = 0; i < ui->count; i += n) {
		ret = pe_slot(ctx, ui, i, &slot);
		if (ret)
			return ret;
		ret = pe_code_slots(ui, slot);
		if (ret < 0)
			return ret;
		n = ret;
		if (PE_CODE_OP(slot) == PE_UWOP_SET_FPREG) {
			*set = PE_CODE_OFFSET(slot) <= prolog_off;
			return 0;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Epilogs, for the topmost frame */

/* The first entry of @rf's chain (its primary function entry). */
static int pe_primary(const struct pe_ctx *ctx, struct pe_rf *rf)
{
	unsigned int link;
	u8 hdr[PE_UI_HDR_SIZE];
	int ret;

	for (link = 0; link <= PE_MAX_CHAIN; link++) {
		if (rf->unwind & 3)
			return -EINVAL;
		ret = pe_fetch(ctx, rf->unwind, hdr, sizeof(hdr));
		if (ret)
			return ret;
		if (!((hdr[0] >> 3) & PE_UI_CHAININFO))
			return 0;
		ret = pe_read_rf(ctx, rf->unwind + PE_UI_HDR_SIZE +
				 2 * ALIGN(hdr[2], 2), rf);
		if (!ret)
			ret = pe_resolve(ctx, rf);
		if (ret)
			return ret;
	}
	return -EINVAL;
}

/*
 * Does a jmp from the function of @rf to @target leave it?  As Windows
 * decides: yes unless the target is in the same function (the same primary
 * entry) and not its start (a recursive tail call).
 */
static int pe_jmp_leaves(const struct pe_ctx *ctx, const struct pe_rf *rf,
			 const struct pe_info *ui, u32 target)
{
	struct pe_rf from = *rf, to;
	int ret;

	if (target >= rf->begin && target < rf->end)
		return target == rf->begin && !(ui->flags & PE_UI_CHAININFO);
	ret = pe_lookup(ctx, target, &to);
	if (ret == -ENOENT)
		return 1;
	if (!ret)
		ret = pe_resolve(ctx, &to);
	if (!ret)
		ret = pe_primary(ctx, &to);
	if (!ret)
		ret = pe_primary(ctx, &from);
	if (ret)
		return ret;
	return to.begin != from.begin || target == to.begin;
}

/*
 * Decode an epilog at the start of @b (@len bytes, at @rva) as Windows
 * recognises one: an optional add rsp,imm or lea rsp,[framereg+disp], pops,
 * then ret, ret imm16, rep ret or a jmp out of the function.  On a match,
 * undo it into @st and return 1; 0 if it is no epilog.
 */
static int pe_decode_epilog(const struct pe_ctx *ctx, const struct pe_rf *rf,
			    const struct pe_info *ui, const u8 *b,
			    unsigned int len, u32 rva, struct pe_state *st)
{
	unsigned int i = 0, pops, modrm, reg;
	u32 target;
	s32 disp;

	st->rsp.reg = PE_UNWIND_RSP;
	st->rsp.off = 0;

	/* add rsp, imm8 / imm32; lea rsp, [framereg + disp8 / disp32] */
	if (len >= 4 && (b[0] & 0xf8) == 0x48) {
		if (b[0] == 0x48 && b[1] == 0x83 && b[2] == 0xc4) {
			st->rsp.off = (s8)b[3];
			i = 4;
		} else if (b[0] == 0x48 && b[1] == 0x81 && b[2] == 0xc4 &&
			   len >= 7) {
			st->rsp.off = (s32)get_unaligned_le32(b + 3);
			i = 7;
		} else if (b[1] == 0x8d && ui->frame_reg && !(b[0] & 6)) {
			modrm = b[2];
			reg = (b[0] & 1) << 3 | (modrm & 7);
			i = 3;
			/* r12 as a base needs a SIB byte (no index) */
			if ((modrm & 7) == 4) {
				if (len < 4 || b[3] != 0x24)
					return 0;
				i = 4;
			}
			if ((modrm & 0x38) != 0x20 || reg != ui->frame_reg)
				return 0;
			if ((modrm & 0xc0) == 0x40 && len >= i + 1) {
				disp = (s8)b[i];
				i += 1;
			} else if ((modrm & 0xc0) == 0x80 && len >= i + 4) {
				disp = get_unaligned_le32(b + i);
				i += 4;
			} else {
				return 0;
			}
			st->rsp.reg = reg;
			st->rsp.off = disp;
		}
	}

	for (pops = 0; pops < PE_EPILOG_MAX_POPS && i < len; pops++) {
		if ((b[i] & 0xf8) == 0x58) {
			reg = b[i] & 7;
			i += 1;
		} else if ((b[i] & 0xf0) == 0x40 && i + 1 < len &&
			   (b[i + 1] & 0xf8) == 0x58) {
			reg = (b[i] & 1) << 3 | (b[i + 1] & 7);
			i += 2;
		} else {
			break;
		}
		if (reg == PE_UNWIND_RSP)
			return 0;
		pe_save(st, reg, st->rsp);
		st->rsp.off += 8;
	}

	if (i >= len)
		return 0;
	switch (b[i]) {
	case 0xc3:				/* ret */
		return 1;
	case 0xc2:				/* ret imm16 */
		return i + 3 <= len;
	case 0xf3:				/* rep ret */
		return i + 1 < len && b[i + 1] == 0xc3;
	case 0xeb:				/* jmp rel8 */
		if (i + 2 > len)
			return 0;
		target = rva + i + 2 + (s8)b[i + 1];
		return pe_jmp_leaves(ctx, rf, ui, target);
	case 0xe9:				/* jmp rel32 */
		if (i + 5 > len)
			return 0;
		target = rva + i + 5 + (s32)get_unaligned_le32(b + i + 1);
		return pe_jmp_leaves(ctx, rf, ui, target);
	case 0xff:				/* jmp [rip + disp32] */
		return i + 1 < len && b[i + 1] == 0x25;
	default:				/* rex.w jmp r/m64 */
		return (b[i] & 0xf8) == 0x48 && i + 2 < len &&
		       b[i + 1] == 0xff && (b[i + 2] & 0x38) == 0x20;
	}
}

/*
 * Is @rva in an epilog that version 2 codes describe?  1 yes, 0 no, -ENOENT
 * if there are no such codes.
 */
static int pe_v2_epilog(const struct pe_ctx *ctx, struct pe_info *ui,
			const struct pe_rf *rf, u32 rva)
{
	unsigned int i, size, dist;
	u16 slot;
	int ret;

	if (ui->version < 2)
		return -ENOENT;
	ret = pe_slot(ctx, ui, 0, &slot);
	if (ret)
		return ret;
	if (PE_CODE_OP(slot) != PE_UWOP_EPILOG)
		return -ENOENT;
	/* They place @rf's epilogs; a fragment outside it is in none. */
	if (rva < rf->begin || rva >= rf->end)
		return 0;
	size = PE_CODE_OFFSET(slot);
	/* The first code describes an epilog at the end of the function. */
	if ((PE_CODE_INFO(slot) & 1) && rf->end - rva <= size)
		return 1;
	for (i = 1; i < ui->count; i++) {
		ret = pe_slot(ctx, ui, i, &slot);
		if (ret)
			return ret;
		if (PE_CODE_OP(slot) != PE_UWOP_EPILOG)
			break;
		dist = PE_CODE_INFO(slot) << 8 | PE_CODE_OFFSET(slot);
		if (!dist)
			break;		/* padding */
		if (dist <= rf->end - rf->begin && rf->end - dist <= rva &&
		    rva - (rf->end - dist) < size)
			return 1;
	}
	return 0;
}

/*
 * 0 and *frame from the epilog at @rva, -ENOENT if not in one, or error.
 * @end is that of the table entry covering @rva, which @rf (its target if
 * it is indirect) may not.
 */
static noinline int pe_epilog(const struct pe_ctx *ctx, const struct pe_rf *rf,
			      struct pe_info *ui, u32 rva, u32 end,
			      struct pe_state *st,
			      struct pe_unwind_frame *frame)
{
	u8 b[PE_EPILOG_MAX_BYTES];
	unsigned int len;
	int described, ret;

	described = pe_v2_epilog(ctx, ui, rf, rva);
	if (described < 0 && described != -ENOENT)
		return described;
	if (!described)
		return -ENOENT;

	/*
	 * An epilog ends within the code of that entry (whose end was checked
	 * against the image at init, but the table may have changed since),
	 * and a fault in it ends the walk.
	 */
	len = min_t(u32, end, ctx->img->size) - rva;
	len = min_t(u32, len, sizeof(b));
	ret = pe_fetch(ctx, rva, b, len);
	if (ret)
		return ret;
	ret = pe_decode_epilog(ctx, rf, ui, b, len, rva, st);
	if (ret < 0)
		return ret;
	if (!ret)
		return described == 1 ? -EOPNOTSUPP : -ENOENT;
	return pe_finish(st, PE_UNWIND_FRAME_EPILOG, frame);
}

/* ------------------------------------------------------------------ */

/*
 * The frame at @rva, covered by the table entry ending at @end, whose
 * UNWIND_INFO is @rf's.  Where @rf does not cover @rva (the target of an
 * indirect entry, a chained parent), @rva is past its prolog as for
 * Windows: its offset from @rf's start is beyond it or wraps, and all the
 * codes apply.
 */
static int pe_unwind_entry(const struct pe_ctx *ctx, u32 rva, u32 end,
			   struct pe_rf *rf, unsigned int flags,
			   struct pe_unwind_frame *frame)
{
	struct pe_state st = {};
	struct pe_info ui;
	unsigned int link;
	u32 prolog_off;
	bool fp_set;
	int ret;

	ret = pe_read_info(ctx, rf->unwind, &ui);
	if (ret)
		return ret;
	prolog_off = rva - rf->begin;

	/*
	 * Instructions are decoded where the thread is, nowhere else.  A
	 * function with nothing to undo needs no epilog (Wine's shortcut);
	 * a chained part may have none of its own but its parent's.
	 */
	if ((flags & PE_UNWIND_EXACT_PC) && prolog_off >= ui.prolog_size &&
	    (ui.count || (ui.flags & PE_UI_CHAININFO))) {
		ret = pe_epilog(ctx, rf, &ui, rva, end, &st, frame);
		if (ret != -ENOENT)
			return ret;
		memset(&st, 0, sizeof(st));
	}

	/* The frame base of SAVE_NONVOL, from the first info only. */
	ret = pe_frame_established(ctx, &ui, prolog_off, &fp_set);
	if (ret)
		return ret;
	st.rsp.reg = PE_UNWIND_RSP;
	st.base.reg = PE_UNWIND_RSP;
	if (fp_set) {
		st.base.reg = ui.frame_reg;
		st.base.off = -16 * (s64)ui.frame_off;
	}

	for (link = 0; ; link++) {
		ret = pe_undo_codes(ctx, &ui, prolog_off, &st);
		if (ret)
			return ret;
		if (!(ui.flags & PE_UI_CHAININFO))
			break;
		if (link == PE_MAX_CHAIN)
			return -EINVAL;	/* too long, or a cycle */
		ret = pe_read_rf(ctx, ui.rva + PE_UI_HDR_SIZE +
				 2 * ALIGN(ui.count, 2), rf);
		if (!ret)
			ret = pe_resolve(ctx, rf);
		if (!ret)
			ret = pe_read_info(ctx, rf->unwind, &ui);
		if (ret)
			return ret;
		/* Usually past the parent's prolog: all its codes apply. */
		prolog_off = rva - rf->begin;
	}
	return pe_finish(&st, 0, frame);
}

int pe_unwind_find_frame(const struct pe_unwind_image *img, unsigned long pc,
			 unsigned int flags, struct pe_unwind_frame *frame,
			 unsigned int *budget)
{
	const struct pe_ctx ctx = { .img = img, .budget = budget };
	struct pe_rf rf;
	u32 rva, end;
	int ret;

	if (pc < img->base || pc - img->base >= img->size)
		return -ENOENT;
	rva = pc - img->base;

	ret = pe_lookup(&ctx, rva, &rf);
	if (ret == -ENOENT) {
		/* A leaf: nothing pushed, the return address at rsp. */
		memset(frame, 0, sizeof(*frame));
		frame->cfa_reg = PE_UNWIND_RSP;
		frame->cfa_off = 8;
		frame->ra_off = -8;
		frame->flags = PE_UNWIND_FRAME_LEAF;
		return 0;
	}
	if (ret)
		return ret;
	/* The entry covers @rva; the target of an indirect one may not. */
	end = rf.end;
	ret = pe_resolve(&ctx, &rf);
	if (ret)
		return ret;
	return pe_unwind_entry(&ctx, rva, end, &rf, flags, frame);
}
