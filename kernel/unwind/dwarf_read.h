/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading DWARF-encoded values (fixed-size data, LEB128, DW_EH_PE pointers)
 * from user memory through a bounded cursor.
 *
 * The bytes belong to user space and may be unmapped, truncated or hostile
 * at any time: every read is checked against the end the cursor was given,
 * and every user access (copy_from_user(), or unsafe_get_user() in a
 * user_read_access_begin() window) ends the read with -EFAULT on a fault.
 * A cursor may also be given a kernel copy of a prefix of its range (what a
 * caller read in one go), which it reads from without touching user memory.
 */
#ifndef _KERNEL_UNWIND_DWARF_READ_H
#define _KERNEL_UNWIND_DWARF_READ_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <linux/unaligned.h>

/*
 * LEB128 values are at most 64 bits: at most ten bytes, and the tenth may
 * only carry bit 63 (or, when signed, bit 63 and the sign extension).
 */
#define DWARF_LEB128_MAX_BYTES	10

/**
 * dwarf_decode_leb128 - decode a LEB128 value from a buffer
 * @p:		the first byte
 * @avail:	bytes available at @p
 * @is_signed:	SLEB128 (sign-extended) rather than ULEB128
 * @val:	the value
 *
 * The one LEB128 decoder of the unwinder, for the cursor below and for
 * DWARF expression operands alike.
 *
 * Return: the number of bytes the value takes; -EINVAL if it is longer
 * than DWARF_LEB128_MAX_BYTES or does not fit in 64 bits; -ENODATA if it
 * runs past @avail (the caller knows whether more bytes could exist).
 */
static inline int dwarf_decode_leb128(const u8 *p, unsigned int avail,
				      bool is_signed, u64 *val)
{
	u64 result = 0;
	unsigned int i;
	u8 byte;

	for (i = 0; i < avail && i < DWARF_LEB128_MAX_BYTES; i++) {
		byte = p[i];
		if (i == DWARF_LEB128_MAX_BYTES - 1 &&
		    (is_signed ? byte != 0 && byte != 0x7f : byte > 1))
			return -EINVAL;
		result |= (u64)(byte & 0x7f) << (7 * i);
		if (byte & 0x80)
			continue;
		if (is_signed && i < DWARF_LEB128_MAX_BYTES - 1 && (byte & 0x40))
			result |= ~0ULL << (7 * (i + 1));
		*val = result;
		return i + 1;
	}
	return i == DWARF_LEB128_MAX_BYTES ? -EINVAL : -ENODATA;
}

/*
 * Reads are served from a window: a small buffer refilled with
 * copy_from_user(), or the part of the kernel copy the position is in.  The
 * buffer is small because cursors live on the kernel stack; it must hold the
 * largest fixed-size value (8 bytes) and a whole LEB128.
 */
#define DWARF_CURSOR_BUF_SIZE	16
static_assert(DWARF_CURSOR_BUF_SIZE >= DWARF_LEB128_MAX_BYTES);

struct dwarf_cursor {
	unsigned long	pos;		/* user address of the next byte */
	unsigned long	end;		/* reads stop here */
	unsigned long	win_start;	/* user address of win[0] */
	const u8	*win;		/* buf, or a part of kdata */
	/* A kernel copy of the user bytes [kstart, kend), or NULL */
	const u8	*kdata;
	unsigned long	kstart;
	unsigned long	kend;
	u8		win_len;	/* valid bytes in win[] */
	u8		buf[DWARF_CURSOR_BUF_SIZE];
};

static inline void dwarf_cursor_init(struct dwarf_cursor *cur,
				     unsigned long start, unsigned long end)
{
	cur->pos = start;
	cur->end = end;
	cur->win_start = start;
	cur->win_len = 0;
	cur->win = cur->buf;
	cur->kdata = NULL;
	cur->kstart = 0;
	cur->kend = 0;
}

/*
 * A cursor over [start, end) whose first bytes, [start, kend), the caller
 * has copied to @kdata already; reads past kend go to user memory.
 */
static inline void dwarf_cursor_init_copy(struct dwarf_cursor *cur,
					  unsigned long start,
					  unsigned long end, const u8 *kdata,
					  unsigned long kend)
{
	dwarf_cursor_init(cur, start, end);
	cur->kdata = kdata;
	cur->kstart = start;
	cur->kend = kend;
	/* The window is the copy already (win_len is a u8). */
	if (kend > start) {
		cur->win = kdata;
		cur->win_len = min_t(unsigned long, min(kend, end) - start,
				     U8_MAX);
	}
}

int dwarf_cursor_fill(struct dwarf_cursor *cur, unsigned int want);
unsigned long dwarf_read_user(u8 *dst, unsigned long src, unsigned long len);
unsigned long dwarf_cursor_prefetch(struct dwarf_cursor *cur, u8 *buf,
				    unsigned long size);

static inline int dwarf_read_u8(struct dwarf_cursor *cur, u8 *val)
{
	unsigned long idx = cur->pos - cur->win_start;
	int ret;

	if (unlikely(cur->pos >= cur->end))
		return -EINVAL;
	if (unlikely(idx >= cur->win_len)) {
		ret = dwarf_cursor_fill(cur, 1);
		if (ret)
			return ret;
		idx = 0;
	}
	*val = cur->win[idx];
	cur->pos++;
	return 0;
}

int dwarf_skip(struct dwarf_cursor *cur, u64 len);
int __dwarf_read_udata(struct dwarf_cursor *cur, unsigned int size, u64 *val);
int __dwarf_read_leb128(struct dwarf_cursor *cur, bool is_signed, u64 *val);

/*
 * Read an unsigned, target-endian value of @size bytes: 1, 2, 4 or 8.  The
 * value is most often in the window already: then it is read here.
 */
static __always_inline int dwarf_read_udata(struct dwarf_cursor *cur,
					    unsigned int size, u64 *val)
{
	unsigned long idx = cur->pos - cur->win_start;
	const u8 *p;

	if (unlikely(idx >= cur->win_len || cur->win_len - idx < size ||
		     cur->pos >= cur->end || cur->end - cur->pos < size))
		return __dwarf_read_udata(cur, size, val);

	p = &cur->win[idx];
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
 * Read a LEB128 value.  CFI operands are most often one byte long: those
 * are decoded here, the rest in __dwarf_read_leb128().
 */
static __always_inline int dwarf_read_leb128(struct dwarf_cursor *cur,
					     bool is_signed, u64 *val)
{
	unsigned long idx = cur->pos - cur->win_start;
	u8 byte;

	if (unlikely(idx >= cur->win_len || cur->pos >= cur->end))
		return __dwarf_read_leb128(cur, is_signed, val);
	byte = cur->win[idx];
	if (unlikely(byte & 0x80))
		return __dwarf_read_leb128(cur, is_signed, val);
	*val = is_signed && (byte & 0x40) ? (u64)byte - 0x80 : byte;
	cur->pos++;
	return 0;
}

int dwarf_read_pointer(struct dwarf_cursor *cur, u8 enc, unsigned int ptr_size,
		       unsigned long data_base, unsigned long *val);
int dwarf_skip_pointer(struct dwarf_cursor *cur, u8 enc, unsigned int ptr_size);
unsigned int dwarf_format_size(u8 format, unsigned int ptr_size);

static inline int dwarf_read_uleb128(struct dwarf_cursor *cur, u64 *val)
{
	return dwarf_read_leb128(cur, false, val);
}

static inline int dwarf_read_sleb128(struct dwarf_cursor *cur, s64 *val)
{
	return dwarf_read_leb128(cur, true, (u64 *)val);
}

/* Addresses of an ELF32 object wrap around at 4 GiB. */
static inline unsigned long dwarf_addr(u64 val, unsigned int ptr_size)
{
	if (ptr_size == 4)
		return (u32)val;
	return (unsigned long)val;
}

#endif /* _KERNEL_UNWIND_DWARF_READ_H */
