// SPDX-License-Identifier: GPL-2.0
/*
 * Read DWARF-encoded values from untrusted user memory: see dwarf_read.h.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>

#include "dwarf.h"
#include "dwarf_read.h"

/*
 * Make the window start at pos and hold at least @want bytes if the cursor
 * has that many left: from the kernel copy when it holds them, else from
 * user memory.
 */
int dwarf_cursor_fill(struct dwarf_cursor *cur, unsigned int want)
{
	unsigned long len, left;

	if (cur->pos >= cur->end)
		return -EINVAL;

	want = min_t(unsigned long, want, cur->end - cur->pos);
	if (cur->pos >= cur->kstart && cur->pos < cur->kend &&
	    cur->kend - cur->pos >= want) {
		cur->win = cur->kdata + (cur->pos - cur->kstart);
		cur->win_start = cur->pos;
		/* win_len is a u8: a longer copy is served in parts. */
		cur->win_len = min_t(unsigned long,
				     min(cur->kend, cur->end) - cur->pos, U8_MAX);
		return 0;
	}

	len = min_t(unsigned long, cur->end - cur->pos, DWARF_CURSOR_BUF_SIZE);
	left = copy_from_user(cur->buf, (const void __user *)cur->pos, len);
	if (left == len)
		return -EFAULT;

	/* A partial copy is fine: a read past it refills and faults then. */
	cur->win = cur->buf;
	cur->win_start = cur->pos;
	cur->win_len = len - left;
	return 0;
}

/**
 * dwarf_read_user - read user memory a word at a time, in one access window
 * @dst:	where the bytes go
 * @src:	their user address
 * @len:	how many to read at most: whole words of it are
 *
 * For the records and table blocks a lookup reads whole: a
 * user_read_access_begin() window of unsafe_get_user() costs less than a
 * copy_from_user() of the same few dozen bytes (make bench-kernel measures
 * both: a third of it under QEMU).
 *
 * Return: the bytes read, a multiple of the word size; fewer than @len if
 * a word faulted or @len is not a multiple.
 */
unsigned long dwarf_read_user(u8 *dst, unsigned long src, unsigned long len)
{
	const unsigned long __user *p = (const unsigned long __user *)src;
	unsigned long words = len / sizeof(long), i, w;

	if (!words || !user_read_access_begin(p, words * sizeof(long)))
		return 0;
	for (i = 0; i < words; i++) {
		unsafe_get_user(w, &p[i], fault);
		put_unaligned(w, (unsigned long *)(dst + i * sizeof(long)));
	}
	user_read_access_end();
	return words * sizeof(long);
fault:
	user_read_access_end();
	return i * sizeof(long);
}

/**
 * dwarf_cursor_prefetch - copy the next bytes of a cursor in one go
 * @cur:	the cursor, which then reads them from @buf
 * @buf:	where to copy them
 * @size:	how many to copy at most (fewer if the cursor ends before)
 *
 * For the records read whole (an FDE): one user access instead of one per
 * window, and one more for the bytes past the last whole word when the
 * cursor ends first (the end of the table: no read goes past it).  What a
 * fault leaves unread is left to the cursor's own reads, which copy up to
 * the faulting byte and fault then.
 *
 * Return: the number of bytes now in @buf.
 */
unsigned long dwarf_cursor_prefetch(struct dwarf_cursor *cur, u8 *buf,
				    unsigned long size)
{
	unsigned long want, len;

	if (cur->pos >= cur->end)
		return 0;
	want = min(size, cur->end - cur->pos);
	len = dwarf_read_user(buf, cur->pos, want);
	if (len == round_down(want, sizeof(long)) && len < want)
		len = want - copy_from_user(buf + len,
					    (const void __user *)(cur->pos + len),
					    want - len);
	dwarf_cursor_init_copy(cur, cur->pos, cur->end, buf, cur->pos + len);
	return len;
}

int dwarf_skip(struct dwarf_cursor *cur, u64 len)
{
	if (cur->pos > cur->end || len > cur->end - cur->pos)
		return -EINVAL;
	cur->pos += len;
	return 0;
}

/*
 * Make the window hold the next @len bytes (at most DWARF_CURSOR_BUF_SIZE),
 * or all bytes up to @end if there are fewer.  Return how many it holds from
 * pos on (fewer than asked only if a fault cut the copy short), or an error.
 * The readers below decode straight from the window with no call in their
 * loops, which keeps their stack frames small.
 */
static __always_inline int dwarf_cursor_ensure(struct dwarf_cursor *cur,
					       unsigned int len)
{
	unsigned long idx = cur->pos - cur->win_start;
	unsigned long left = cur->end - cur->pos;
	unsigned long want = min_t(unsigned long, len, left);
	int ret;

	if (cur->pos >= cur->end)
		return -EINVAL;
	if (idx >= cur->win_len || cur->win_len - idx < want) {
		ret = dwarf_cursor_fill(cur, want);
		if (ret)
			return ret;
		idx = 0;
	}
	/* An older window may reach past an @end narrowed since. */
	return min_t(unsigned long, cur->win_len - idx, left);
}

/* dwarf_read_udata() of a value that is not in the window. */
int __dwarf_read_udata(struct dwarf_cursor *cur, unsigned int size, u64 *val)
{
	const u8 *p;
	int avail;

	avail = dwarf_cursor_ensure(cur, size);
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

/* dwarf_read_leb128() of a value past the window, or of more than a byte. */
int __dwarf_read_leb128(struct dwarf_cursor *cur, bool is_signed, u64 *val)
{
	int avail, len;

	avail = dwarf_cursor_ensure(cur, DWARF_LEB128_MAX_BYTES);
	if (avail < 0)
		return avail;

	len = dwarf_decode_leb128(&cur->win[cur->pos - cur->win_start], avail,
				  is_signed, val);
	if (len > 0) {
		cur->pos += len;
		return 0;
	}
	if (len == -EINVAL)
		return len;
	/* It runs past the end, or a fault cut the window short. */
	return (unsigned long)avail >= cur->end - cur->pos ? -EINVAL : -EFAULT;
}

/* Size of a fixed-size DW_EH_PE format, 0 for LEB128 or an invalid one. */
unsigned int dwarf_format_size(u8 format, unsigned int ptr_size)
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

/**
 * dwarf_read_pointer - read a DW_EH_PE encoded address
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
int dwarf_read_pointer(struct dwarf_cursor *cur, u8 enc, unsigned int ptr_size,
		       unsigned long data_base, unsigned long *val)
{
	u8 format = enc & DW_EH_PE_format_mask;
	unsigned long base;
	unsigned int size;
	u64 raw = 0;
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
		ret = dwarf_skip(cur, ALIGN(cur->pos, ptr_size) - cur->pos);
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
		ret = dwarf_read_leb128(cur, false, &raw);
		break;
	case DW_EH_PE_sleb128:
		ret = dwarf_read_leb128(cur, true, &raw);
		break;
	default:
		size = dwarf_format_size(format, ptr_size);
		if (!size)
			return -EINVAL;
		ret = dwarf_read_udata(cur, size, &raw);
		/* Sign-extend the sdata formats. */
		if (format == DW_EH_PE_sdata2)
			raw = (s16)raw;
		else if (format == DW_EH_PE_sdata4)
			raw = (s32)raw;
	}
	if (ret)
		return ret;

	*val = dwarf_addr(base + raw, ptr_size);
	return 0;
}

/*
 * Step over an encoded pointer whose value is not needed (personality):
 * only its size matters, not what it is relative to or points to.
 */
int dwarf_skip_pointer(struct dwarf_cursor *cur, u8 enc, unsigned int ptr_size)
{
	u8 format = enc & DW_EH_PE_format_mask;
	unsigned int size;
	u64 dummy;
	int ret;

	if (enc == DW_EH_PE_omit)
		return -EINVAL;
	if ((enc & DW_EH_PE_application_mask) == DW_EH_PE_aligned) {
		if (format != DW_EH_PE_absptr)
			return -EINVAL;
		ret = dwarf_skip(cur, ALIGN(cur->pos, ptr_size) - cur->pos);
		if (ret)
			return ret;
	}
	if (format == DW_EH_PE_uleb128 || format == DW_EH_PE_sleb128)
		return dwarf_read_leb128(cur, format == DW_EH_PE_sleb128, &dummy);
	size = dwarf_format_size(format, ptr_size);
	if (!size)
		return -EINVAL;
	return dwarf_skip(cur, size);
}
