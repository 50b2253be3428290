// SPDX-License-Identifier: GPL-2.0
/*
 * Look up the DWARF call frame information of a user space pc through the
 * .eh_frame_hdr binary search table and decode its FDE and CIE.
 *
 * This is not a general DWARF consumer: it reads the subset of .eh_frame that
 * toolchains emit for Linux user space and rejects the rest.  The data comes
 * from user memory, so every read is checked against the bounds of the
 * section it belongs to, every loop is bounded, and every fault ends the
 * lookup.  Nothing is allocated and nothing is cached yet.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>

#include "cfi.h"
#include "dwarf.h"
#include "eh_frame.h"

/*
 * Size bounds of a CIE and an FDE, length field included.  Real CIEs are a
 * few dozen bytes.  The largest FDEs seen in distribution binaries (cc1's
 * generated recognisers) are about 20 KiB; evaluating one means reading it
 * up to the pc, so the bound is also a bound on the work of a lookup.
 */
#define EH_FRAME_MAX_CIE_SIZE		512
#define EH_FRAME_MAX_FDE_SIZE		SZ_32K
static_assert(EH_FRAME_MAX_CIE_SIZE <= U16_MAX && EH_FRAME_MAX_FDE_SIZE <= U16_MAX);

/*
 * Longest augmentation string understood, NUL included: "zPLRS" plus room for
 * the "eh" of old GCC.  Anything longer is some augmentation we do not know.
 */
#define EH_FRAME_MAX_AUG		8

#define EH_FRAME_HDR_VERSION		1
#define EH_FRAME_CIE_ID			0

/* The escape that says a 64-bit length follows; values above are reserved. */
#define DWARF_LENGTH_64			0xffffffffU
#define DWARF_LENGTH_RESERVED		0xfffffff0U

int eh_frame_cursor_fill(struct eh_frame_cursor *cur)
{
	unsigned long len, left;

	if (cur->pos >= cur->end)
		return -EINVAL;

	len = min_t(unsigned long, cur->end - cur->pos, EH_FRAME_WINDOW_SIZE);
	if (cur->kdata) {
		memcpy(cur->win, cur->kdata + (cur->pos - cur->kstart), len);
		left = 0;
	} else {
		left = copy_from_user(cur->win, (const void __user *)cur->pos,
				      len);
		if (left == len)
			return -EFAULT;
	}

	/* A partial copy is fine: a read past it refills and faults then. */
	cur->win_start = cur->pos;
	cur->win_len = len - left;
	return 0;
}

int eh_frame_skip(struct eh_frame_cursor *cur, u64 len)
{
	if (cur->pos > cur->end || len > cur->end - cur->pos)
		return -EINVAL;
	cur->pos += len;
	return 0;
}

/*
 * Make the window hold the next @len bytes (at most EH_FRAME_WINDOW_SIZE),
 * or all bytes up to @end if there are fewer.  Return how many it holds from
 * pos on (fewer than asked only if a fault cut the copy short), or an error.
 * The readers below decode straight from the window with no call in their
 * loops, which keeps their stack frames small.
 */
static __always_inline int eh_frame_cursor_ensure(struct eh_frame_cursor *cur,
						  unsigned int len)
{
	unsigned long idx = cur->pos - cur->win_start;
	unsigned long left = cur->end - cur->pos;
	unsigned long want = min_t(unsigned long, len, left);
	int ret;

	if (cur->pos >= cur->end)
		return -EINVAL;
	if (idx >= cur->win_len || cur->win_len - idx < want) {
		ret = eh_frame_cursor_fill(cur);
		if (ret)
			return ret;
		idx = 0;
	}
	/* An older window may reach past an @end narrowed since. */
	return min_t(unsigned long, cur->win_len - idx, left);
}

/* Read an unsigned, target-endian value of @size bytes: 1, 2, 4 or 8. */
int eh_frame_read_udata(struct eh_frame_cursor *cur, unsigned int size, u64 *val)
{
	const u8 *p;
	int avail;

	avail = eh_frame_cursor_ensure(cur, size);
	if (avail < 0)
		return avail;
	if ((unsigned int)avail < size)
		return size > cur->end - cur->pos ? -EINVAL : -EFAULT;

	p = &cur->win[cur->pos - cur->win_start];
	switch (size) {
	case 1:
		*val = *p;
		break;
	case 2:
		*val = get_unaligned((const u16 *)p);
		break;
	case 4:
		*val = get_unaligned((const u32 *)p);
		break;
	case 8:
		*val = get_unaligned((const u64 *)p);
		break;
	default:
		return -EINVAL;
	}
	cur->pos += size;
	return 0;
}

/*
 * LEB128 values are at most 64 bits: at most ten bytes, and the tenth may
 * only carry bit 63 (or, when signed, bit 63 and the sign extension).
 */
#define LEB128_MAX_BYTES	10

int eh_frame_read_leb128(struct eh_frame_cursor *cur, bool is_signed, u64 *val)
{
	u64 result = 0;
	const u8 *p;
	int i, avail;
	u8 byte;

	avail = eh_frame_cursor_ensure(cur, LEB128_MAX_BYTES);
	if (avail < 0)
		return avail;

	p = &cur->win[cur->pos - cur->win_start];
	for (i = 0; i < avail && i < LEB128_MAX_BYTES; i++) {
		byte = p[i];
		if (i == LEB128_MAX_BYTES - 1 &&
		    (is_signed ? byte != 0 && byte != 0x7f : byte > 1))
			return -EINVAL;
		result |= (u64)(byte & 0x7f) << (7 * i);
		if (byte & 0x80)
			continue;

		if (is_signed && i < LEB128_MAX_BYTES - 1 && (byte & 0x40))
			result |= ~0ULL << (7 * (i + 1));
		cur->pos += i + 1;
		*val = result;
		return 0;
	}

	/* Too long, or it runs past the end, or a fault cut the window. */
	if (i == LEB128_MAX_BYTES || (unsigned long)avail >= cur->end - cur->pos)
		return -EINVAL;
	return -EFAULT;
}

/* Size of a fixed-size DW_EH_PE format, 0 for LEB128 or an invalid one. */
static unsigned int eh_frame_format_size(u8 format, unsigned int ptr_size)
{
	switch (format) {
	case DW_EH_PE_absptr:
		return ptr_size;
	case DW_EH_PE_udata2:
	case DW_EH_PE_sdata2:
		return 2;
	case DW_EH_PE_udata4:
	case DW_EH_PE_sdata4:
		return 4;
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		return 8;
	}
	return 0;
}

/* Addresses of an ELF32 object wrap around at 4 GiB. */
static unsigned long eh_frame_addr(u64 val, unsigned int ptr_size)
{
	if (ptr_size == 4)
		return (u32)val;
	return (unsigned long)val;
}

/**
 * eh_frame_read_pointer - read a DW_EH_PE encoded address
 * @cur: cursor positioned at the field
 * @enc: its DW_EH_PE_* encoding; a bare format (no application bits) reads
 *	a plain value, such as an FDE's address range
 * @ptr_size: size of DW_EH_PE_absptr, and of the address space
 * @data_base: what DW_EH_PE_datarel is relative to, 0 if it is not allowed
 *	here (datarel means the GOT in .eh_frame, which we do not know)
 * @val: the address
 *
 * Return: 0, -EFAULT, -EINVAL, or -EOPNOTSUPP for an encoding that needs a
 * base or an indirection we do not have.
 */
int eh_frame_read_pointer(struct eh_frame_cursor *cur, u8 enc,
			  unsigned int ptr_size, unsigned long data_base,
			  unsigned long *val)
{
	u8 format = enc & DW_EH_PE_format_mask;
	unsigned long base;
	unsigned int size;
	u64 raw;
	int ret;

	if (enc == DW_EH_PE_omit)
		return -EINVAL;
	/* Indirect pointers are for personality routines, never read here. */
	if (enc & DW_EH_PE_indirect)
		return -EOPNOTSUPP;

	switch (enc & DW_EH_PE_application_mask) {
	case DW_EH_PE_absptr:
		base = 0;
		break;
	case DW_EH_PE_pcrel:
		base = cur->pos;
		break;
	case DW_EH_PE_datarel:
		if (!data_base)
			return -EOPNOTSUPP;
		base = data_base;
		break;
	case DW_EH_PE_aligned:
		if (format != DW_EH_PE_absptr)
			return -EINVAL;
		ret = eh_frame_skip(cur, ALIGN(cur->pos, ptr_size) - cur->pos);
		if (ret)
			return ret;
		base = 0;
		break;
	case DW_EH_PE_textrel:
	case DW_EH_PE_funcrel:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}

	switch (format) {
	case DW_EH_PE_uleb128:
		ret = eh_frame_read_leb128(cur, false, &raw);
		break;
	case DW_EH_PE_sleb128:
		ret = eh_frame_read_leb128(cur, true, &raw);
		break;
	default:
		size = eh_frame_format_size(format, ptr_size);
		if (!size)
			return -EINVAL;
		ret = eh_frame_read_udata(cur, size, &raw);
		/* Sign-extend the sdata formats. */
		if (format == DW_EH_PE_sdata2)
			raw = (s16)raw;
		else if (format == DW_EH_PE_sdata4)
			raw = (s32)raw;
	}
	if (ret)
		return ret;

	*val = eh_frame_addr(base + raw, ptr_size);
	return 0;
}

/* Step over an encoded pointer whose value is not needed (personality). */
static int eh_frame_skip_pointer(struct eh_frame_cursor *cur, u8 enc,
				 unsigned int ptr_size)
{
	unsigned long dummy;

	/* Only the size matters: drop what the value is relative to. */
	if ((enc & DW_EH_PE_application_mask) != DW_EH_PE_aligned)
		enc &= DW_EH_PE_format_mask;
	return eh_frame_read_pointer(cur, enc, ptr_size, 0, &dummy);
}

int eh_frame_section_init(struct eh_frame_section *sec,
			  const struct unwind_user_eh_frame *desc,
			  const void *hdr_data)
{
	unsigned long eh_frame_ptr, fde_count, entry_size, max_count;
	u8 version, eh_frame_ptr_enc, fde_count_enc, table_enc;
	unsigned int ptr_size = desc->ptr_size;
	struct eh_frame_cursor cur;
	int ret;

	if (ptr_size != 4 && ptr_size != 8)
		return -EINVAL;
	if (ptr_size > sizeof(unsigned long))
		return -EOPNOTSUPP;
	if (desc->text_start >= desc->text_end ||
	    desc->hdr_start >= desc->hdr_end ||
	    desc->eh_frame_start >= desc->eh_frame_end)
		return -EINVAL;

	memset(sec, 0, sizeof(*sec));
	sec->hdr_start = desc->hdr_start;
	sec->hdr_end = desc->hdr_end;
	sec->text_start = desc->text_start;
	sec->text_end = desc->text_end;
	sec->ptr_size = ptr_size;

	eh_frame_cursor_init(&cur, sec->hdr_start, sec->hdr_end);
	if (hdr_data) {
		cur.kdata = hdr_data;
		cur.kstart = sec->hdr_start;
	}
	ret = eh_frame_read_u8(&cur, &version);
	if (!ret)
		ret = eh_frame_read_u8(&cur, &eh_frame_ptr_enc);
	if (!ret)
		ret = eh_frame_read_u8(&cur, &fde_count_enc);
	if (!ret)
		ret = eh_frame_read_u8(&cur, &table_enc);
	if (ret)
		return ret;
	if (version != EH_FRAME_HDR_VERSION)
		return -EINVAL;

	ret = eh_frame_read_pointer(&cur, eh_frame_ptr_enc, ptr_size,
				    sec->hdr_start, &eh_frame_ptr);
	if (ret)
		return ret;
	/* .eh_frame starts inside the memory the caller says holds it. */
	if (eh_frame_ptr < desc->eh_frame_start ||
	    eh_frame_ptr >= desc->eh_frame_end)
		return -EINVAL;
	sec->eh_frame_start = eh_frame_ptr;
	sec->eh_frame_end = desc->eh_frame_end;

	/*
	 * Without the search table the only way to find an FDE is a linear
	 * walk of .eh_frame, which we do not do.
	 */
	if (fde_count_enc == DW_EH_PE_omit || table_enc == DW_EH_PE_omit)
		return -EOPNOTSUPP;
	if (fde_count_enc & (DW_EH_PE_application_mask | DW_EH_PE_indirect))
		return -EINVAL;
	ret = eh_frame_read_pointer(&cur, fde_count_enc, ptr_size, 0, &fde_count);
	if (ret)
		return ret;

	/* Binary search needs fixed-size entries and a base we know. */
	entry_size = eh_frame_format_size(table_enc & DW_EH_PE_format_mask,
					  ptr_size);
	if (!entry_size || (table_enc & DW_EH_PE_indirect))
		return -EOPNOTSUPP;
	switch (table_enc & DW_EH_PE_application_mask) {
	case DW_EH_PE_absptr:
	case DW_EH_PE_pcrel:
	case DW_EH_PE_datarel:
		break;
	default:
		return -EOPNOTSUPP;
	}

	/* The table must fit in the header: this also bounds the search. */
	max_count = (sec->hdr_end - cur.pos) / (2 * entry_size);
	if (fde_count > max_count || fde_count > UINT_MAX)
		return -EINVAL;

	sec->table = cur.pos;
	sec->fde_count = fde_count;
	sec->table_enc = table_enc;
	sec->table_entry_size = entry_size;
	return 0;
}

void eh_frame_section_move(struct eh_frame_section *sec, unsigned long delta)
{
	sec->text_start += delta;
	sec->text_end += delta;
	sec->hdr_start += delta;
	sec->hdr_end += delta;
	sec->eh_frame_start += delta;
	sec->eh_frame_end += delta;
	sec->table += delta;
}

/* Read field @field (0: initial location, 1: FDE address) of entry @idx. */
static int eh_frame_table_read(const struct eh_frame_section *sec,
			       unsigned int idx, unsigned int field,
			       unsigned long *val)
{
	struct eh_frame_cursor cur;
	unsigned long addr;

	addr = sec->table + ((unsigned long)idx * 2 + field) * sec->table_entry_size;
	eh_frame_cursor_init(&cur, addr, addr + sec->table_entry_size);
	return eh_frame_read_pointer(&cur, sec->table_enc, sec->ptr_size,
				     sec->hdr_start, val);
}

/*
 * Find the FDE of the last table entry whose initial location is <= @pc.
 * The table is sorted by initial location; the loop runs at most
 * log2(fde_count) + 1 times, and fde_count was checked against the size of
 * .eh_frame_hdr.  A corrupt, unsorted table can only make us pick the wrong
 * FDE, and the caller checks the FDE's own range covers the pc.
 */
static noinline_for_stack int
eh_frame_search_table(const struct eh_frame_section *sec, unsigned long pc,
		      unsigned long *fde_addr)
{
	unsigned int lo = 0, hi = sec->fde_count, mid;
	unsigned long loc;
	int ret;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		ret = eh_frame_table_read(sec, mid, 0, &loc);
		if (ret)
			return ret;
		if (loc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENOENT;

	ret = eh_frame_table_read(sec, lo - 1, 1, fde_addr);
	if (ret)
		return ret;
	if (*fde_addr < sec->eh_frame_start || *fde_addr >= sec->eh_frame_end)
		return -EINVAL;
	return 0;
}

/*
 * Read the length and the CIE ID (or CIE pointer) of the CIE or FDE at the
 * cursor, and narrow the cursor to the record.  @id_addr is the address of
 * the ID field, which a CIE pointer is relative to.
 */
static int eh_frame_read_record(struct eh_frame_cursor *cur,
				unsigned long max_size, u64 *id,
				unsigned long *id_addr)
{
	unsigned long start = cur->pos;
	unsigned int id_size = 4;
	u64 len;
	int ret;

	ret = eh_frame_read_udata(cur, 4, &len);
	if (ret)
		return ret;
	/* A zero length terminates .eh_frame: it is no record. */
	if (!len)
		return -EINVAL;
	if (len == DWARF_LENGTH_64) {
		ret = eh_frame_read_udata(cur, 8, &len);
		if (ret)
			return ret;
		id_size = 8;
	} else if (len >= DWARF_LENGTH_RESERVED) {
		return -EINVAL;
	}

	if (len > cur->end - cur->pos || len < id_size)
		return -EINVAL;
	if (cur->pos + len - start > max_size)
		return -EOPNOTSUPP;
	cur->end = cur->pos + len;

	*id_addr = cur->pos;
	return eh_frame_read_udata(cur, id_size, id);
}

/* Decode the CIE at @cie_addr, reading through @cur. */
static int eh_frame_decode_cie(const struct eh_frame_section *sec,
			       struct eh_frame_cursor *cur,
			       unsigned long cie_addr, struct eh_frame_cie *cie)
{
	char aug[EH_FRAME_MAX_AUG];
	unsigned long id_addr, aug_end = 0;
	unsigned int i, ptr_size = sec->ptr_size;
	u8 version, byte;
	u64 val;
	int ret;

	eh_frame_cursor_init(cur, cie_addr, sec->eh_frame_end);
	ret = eh_frame_read_record(cur, EH_FRAME_MAX_CIE_SIZE, &val, &id_addr);
	if (ret)
		return ret;
	/* The FDE's CIE pointer led to another FDE. */
	if (val != EH_FRAME_CIE_ID)
		return -EINVAL;

	ret = eh_frame_read_u8(cur, &version);
	if (ret)
		return ret;
	if (version != 1 && version != 3 && version != 4)
		return -EOPNOTSUPP;

	for (i = 0; i < EH_FRAME_MAX_AUG; i++) {
		ret = eh_frame_read_u8(cur, &byte);
		if (ret)
			return ret;
		aug[i] = byte;
		if (!byte)
			break;
	}
	if (i == EH_FRAME_MAX_AUG)
		return -EOPNOTSUPP;

	/* Old GCC: "eh" is followed by a pointer to exception data. */
	i = 0;
	if (aug[0] == 'e' && aug[1] == 'h') {
		ret = eh_frame_skip(cur, ptr_size);
		if (ret)
			return ret;
		i = 2;
	}

	/* Version 4 gives the address size and the segment selector size. */
	if (version == 4) {
		ret = eh_frame_read_u8(cur, &byte);
		if (ret)
			return ret;
		if (byte != ptr_size)
			return -EOPNOTSUPP;
		ret = eh_frame_read_u8(cur, &byte);
		if (ret)
			return ret;
		if (byte)
			return -EOPNOTSUPP;
	}

	ret = eh_frame_read_uleb128(cur, &val);
	if (ret)
		return ret;
	if (val > U32_MAX)
		return -EINVAL;
	cie->code_align = val;

	ret = eh_frame_read_leb128(cur, true, &val);
	if (ret)
		return ret;
	if ((s64)val < S32_MIN || (s64)val > S32_MAX)
		return -EINVAL;
	cie->data_align = (s64)val;

	if (version == 1) {
		ret = eh_frame_read_u8(cur, &byte);
		val = byte;
	} else {
		ret = eh_frame_read_uleb128(cur, &val);
	}
	if (ret)
		return ret;
	if (val > U16_MAX)
		return -EINVAL;
	cie->ra_column = val;

	cie->fde_enc = DW_EH_PE_absptr;
	cie->has_aug_data = false;
	cie->signal_frame = false;

	/*
	 * 'z' gives the length of the augmentation data, which lets the FDEs
	 * be parsed; the letters that follow say what the data holds, in
	 * order.  Without 'z' no letter can be interpreted.
	 */
	if (aug[i] == 'z') {
		ret = eh_frame_read_uleb128(cur, &val);
		if (ret)
			return ret;
		if (val > cur->end - cur->pos)
			return -EINVAL;
		aug_end = cur->pos + val;
		cie->has_aug_data = true;
		i++;
	}

	for (; aug[i]; i++) {
		if (!cie->has_aug_data)
			return -EOPNOTSUPP;

		switch (aug[i]) {
		case 'L':	/* LSDA encoding: FDEs' data, skipped there */
			ret = eh_frame_read_u8(cur, &byte);
			break;
		case 'P':	/* personality routine: not needed to unwind */
			ret = eh_frame_read_u8(cur, &byte);
			if (!ret)
				ret = eh_frame_skip_pointer(cur, byte, ptr_size);
			break;
		case 'R':	/* encoding of FDE addresses */
			ret = eh_frame_read_u8(cur, &cie->fde_enc);
			break;
		case 'S':	/* signal frame */
			cie->signal_frame = true;
			break;
		default:
			return -EOPNOTSUPP;
		}
		if (ret)
			return ret;
	}

	if (cie->has_aug_data) {
		if (cur->pos > aug_end)
			return -EINVAL;
		cur->pos = aug_end;
	}

	cie->insns = cur->pos;
	cie->insns_len = cur->end - cur->pos;
	return 0;
}

/*
 * Decode the FDE at @fde_addr and its CIE.  Not inlined: its cursor need not
 * stay on the stack while the instructions are evaluated.
 */
static noinline_for_stack int
eh_frame_decode_fde(const struct eh_frame_section *sec, unsigned long fde_addr,
		    struct eh_frame_fde *fde)
{
	unsigned long id_addr, fde_pos, fde_end, pc_range;
	struct eh_frame_cursor cur;
	u64 val;
	int ret;

	eh_frame_cursor_init(&cur, fde_addr, sec->eh_frame_end);
	ret = eh_frame_read_record(&cur, EH_FRAME_MAX_FDE_SIZE, &val, &id_addr);
	if (ret)
		return ret;

	/*
	 * In .eh_frame the CIE pointer is the distance back from its own
	 * field to the CIE.  Zero would make this a CIE.
	 */
	if (val == EH_FRAME_CIE_ID || val > id_addr - sec->eh_frame_start)
		return -EINVAL;

	/*
	 * Cache seam: decoded CIEs are shared by many FDEs; a per-mm cache
	 * keyed by the CIE address would replace this call.
	 */
	fde_pos = cur.pos;
	fde_end = cur.end;
	ret = eh_frame_decode_cie(sec, &cur, id_addr - val, &fde->cie);
	if (ret)
		return ret;

	/* The CIE was read through the same cursor: pick up the FDE again. */
	eh_frame_cursor_init(&cur, fde_pos, fde_end);

	ret = eh_frame_read_pointer(&cur, fde->cie.fde_enc, sec->ptr_size, 0,
				    &fde->pc_begin);
	if (ret)
		return ret;

	/* The range has the size and format of the address, but no base. */
	ret = eh_frame_read_pointer(&cur, fde->cie.fde_enc & DW_EH_PE_format_mask,
				    sec->ptr_size, 0, &pc_range);
	if (ret)
		return ret;
	if (check_add_overflow(fde->pc_begin, pc_range, &fde->pc_end) ||
	    eh_frame_addr(fde->pc_end, sec->ptr_size) != fde->pc_end)
		return -EINVAL;

	if (fde->cie.has_aug_data) {
		ret = eh_frame_read_uleb128(&cur, &val);
		if (!ret)
			ret = eh_frame_skip(&cur, val);
		if (ret)
			return ret;
	}

	fde->insns = cur.pos;
	fde->insns_len = cur.end - cur.pos;
	return 0;
}

/*
 * Find and decode the FDE that covers @pc: steps (a) and (b) of a lookup.
 * Not inlined, so that only the decoded FDE stays on the stack while its
 * instructions are evaluated.
 */
static noinline_for_stack int
eh_frame_find_fde(const struct eh_frame_section *sec, unsigned long pc,
		  struct eh_frame_fde *fde)
{
	unsigned long fde_addr;
	int ret;

	/* (a) .eh_frame_hdr: which FDE may cover pc */
	ret = eh_frame_search_table(sec, pc, &fde_addr);
	if (ret)
		return ret;

	/*
	 * Cache seam: a per-mm cache of decoded FDEs (and their CIEs),
	 * keyed by fde_addr, goes here.
	 */

	/* (b) the FDE and its CIE */
	ret = eh_frame_decode_fde(sec, fde_addr, fde);
	if (ret)
		return ret;

	/* The table may lie: only the FDE itself says what it covers. */
	if (pc < fde->pc_begin || pc >= fde->pc_end)
		return -ENOENT;
	return 0;
}

/**
 * eh_frame_find_frame - find the frame rules for a pc
 * @sec: the section, set up by eh_frame_section_init()
 * @regs: the DWARF numbers of the registers the rules are expressed in
 * @pc: the address to look up; for a caller's frame, an address inside the
 *	call instruction (return address - 1) unless the frame is a signal frame
 * @frame: filled in on success
 * @budget: if not NULL, what the walk may still spend on CFI instructions;
 *	less what this lookup ran on return
 *
 * A lookup is (a) a binary search of the .eh_frame_hdr table, (b) decoding
 * the FDE found and its CIE, and (c) running their instructions up to @pc.
 * Nothing is cached yet.
 *
 * Return: see eh_frame.h.
 */
int eh_frame_find_frame(const struct eh_frame_section *sec,
			const struct eh_frame_regs *regs, unsigned long pc,
			struct unwind_user_frame *frame, unsigned int *budget)
{
	struct eh_frame_fde fde;
	int ret;

	if (pc < sec->text_start || pc >= sec->text_end)
		return -ENOENT;

	ret = eh_frame_find_fde(sec, pc, &fde);
	if (ret)
		return ret;

	/*
	 * Cache seam: a per-mm cache of the rows found for recent pcs, keyed
	 * by pc, goes here.
	 */

	/* (c) the rules of the row for pc */
	return cfi_eval_frame(sec, regs, &fde, pc, frame, budget);
}
