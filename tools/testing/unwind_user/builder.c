// SPDX-License-Identifier: GPL-2.0
/*
 * Byte-level builders for .eh_frame and .eh_frame_hdr.  Deliberately dumb:
 * they write what they are told, so tests can also write what is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../kernel/unwind/dwarf.h"
#include "builder.h"
#include "fake_user.h"

static void check_room(struct buf *b, size_t n)
{
	if (b->len + n > BUF_MAX) {
		fprintf(stderr, "builder: buffer overflow\n");
		abort();
	}
}

void put_u8(struct buf *b, u8 v)
{
	check_room(b, 1);
	b->b[b->len++] = v;
}

void put_bytes(struct buf *b, const void *p, size_t n)
{
	if (!n)
		return;		/* @p may be NULL */
	check_room(b, n);
	memcpy(b->b + b->len, p, n);
	b->len += n;
}

void put_u16(struct buf *b, u16 v)
{
	put_bytes(b, &v, sizeof(v));
}

void put_u32(struct buf *b, u32 v)
{
	put_bytes(b, &v, sizeof(v));
}

void put_u64(struct buf *b, u64 v)
{
	put_bytes(b, &v, sizeof(v));
}

void put_uleb(struct buf *b, u64 v)
{
	do {
		u8 byte = v & 0x7f;

		v >>= 7;
		if (v)
			byte |= 0x80;
		put_u8(b, byte);
	} while (v);
}

void put_sleb(struct buf *b, s64 v)
{
	bool more;

	do {
		u8 byte = v & 0x7f;

		v >>= 7;	/* arithmetic shift with gcc */
		more = !((v == 0 && !(byte & 0x40)) ||
			 (v == -1 && (byte & 0x40)));
		if (more)
			byte |= 0x80;
		put_u8(b, byte);
	} while (more);
}

void put_enc(struct buf *b, u8 enc, u64 value, unsigned int ptr_size,
	     unsigned long datarel)
{
	unsigned long field = b->addr + b->len;
	u64 v = value;

	switch (enc & DW_EH_PE_application_mask) {
	case DW_EH_PE_pcrel:
		v = value - field;
		break;
	case DW_EH_PE_datarel:
		v = value - datarel;
		break;
	case DW_EH_PE_aligned:
		while ((b->addr + b->len) % ptr_size)
			put_u8(b, 0);
		break;
	}

	switch (enc & DW_EH_PE_format_mask) {
	case DW_EH_PE_absptr:
		if (ptr_size == 8)
			put_u64(b, v);
		else
			put_u32(b, v);
		break;
	case DW_EH_PE_uleb128:
		put_uleb(b, ptr_size == 4 ? (u32)v : v);
		break;
	case DW_EH_PE_sleb128:
		put_sleb(b, ptr_size == 4 ? (s32)v : (s64)v);
		break;
	case DW_EH_PE_udata2:
	case DW_EH_PE_sdata2:
		put_u16(b, v);
		break;
	case DW_EH_PE_udata4:
	case DW_EH_PE_sdata4:
		put_u32(b, v);
		break;
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		put_u64(b, v);
		break;
	default:
		/* Not a format: write nothing, the reader must reject it. */
		break;
	}
}

void sec_reset(struct test_sec *t, unsigned int ptr_size)
{
	memset(t, 0, sizeof(*t));
	t->ptr_size = ptr_size;
	t->hdr.addr = TEST_HDR_ADDR;
	t->eh.addr = TEST_EH_ADDR;
}

static const u8 default_cie_insns[] = {
	DW_CFA_def_cfa, 7, 8,		/* CFA = rsp + 8 */
	DW_CFA_offset | 16, 1,		/* RA at CFA - 8 */
};

struct cie_opts default_cie(void)
{
	return (struct cie_opts){
		.version = 1,
		.aug = "zR",
		.code_align = 1,
		.data_align = -8,
		.ra = 16,
		.fde_enc = DW_EH_PE_pcrel | DW_EH_PE_sdata4,
		.insns = default_cie_insns,
		.insns_len = sizeof(default_cie_insns),
	};
}

struct fde_opts default_fde(u64 pc_begin, u64 pc_range, const u8 *insns,
			    size_t insns_len)
{
	return (struct fde_opts){
		.pc_begin = pc_begin,
		.pc_range = pc_range,
		.fde_enc = DW_EH_PE_pcrel | DW_EH_PE_sdata4,
		.aug = true,
		.insns = insns,
		.insns_len = insns_len,
	};
}

/* Write a length placeholder; return where the length field is. */
static size_t begin_record(struct buf *b, bool dwarf64)
{
	size_t start = b->len;

	if (dwarf64) {
		put_u32(b, 0xffffffff);
		put_u64(b, 0);
	} else {
		put_u32(b, 0);
	}
	return start;
}

static void end_record(struct buf *b, size_t start, bool dwarf64)
{
	if (dwarf64) {
		u64 len = b->len - start - 12;

		memcpy(b->b + start + 4, &len, 8);
	} else {
		u32 len = b->len - start - 4;

		memcpy(b->b + start, &len, 4);
	}
}

size_t add_cie(struct test_sec *t, const struct cie_opts *o)
{
	struct buf *b = &t->eh;
	size_t start = begin_record(b, o->dwarf64);
	static struct buf aug;
	const char *a;

	if (o->dwarf64)
		put_u64(b, 0);
	else
		put_u32(b, 0);
	put_u8(b, o->version);
	put_bytes(b, o->aug, strlen(o->aug) + 1);
	if (!strncmp(o->aug, "eh", 2))
		put_enc(b, DW_EH_PE_absptr, 0, t->ptr_size, 0);
	if (o->version == 4) {
		put_u8(b, o->addr_size ? o->addr_size : t->ptr_size);
		put_u8(b, o->seg_size);
	}
	put_uleb(b, o->code_align);
	put_sleb(b, o->data_align);
	if (o->version == 1)
		put_u8(b, o->ra);
	else
		put_uleb(b, o->ra);

	if (o->aug[0] == 'z') {
		/* Build the data where it will end up, for pcrel and aligned. */
		aug.len = 0;
		aug.addr = b->addr + b->len + 1;
		for (a = o->aug + 1; *a; a++) {
			switch (*a) {
			case 'R':
				put_u8(&aug, o->fde_enc);
				break;
			case 'L':
				put_u8(&aug, o->lsda_enc);
				break;
			case 'P':
				put_u8(&aug, o->per_enc);
				put_enc(&aug, o->per_enc & 0x7f, o->per,
					t->ptr_size, 0);
				break;
			}
		}
		if (aug.len >= 0x80) {
			fprintf(stderr, "builder: augmentation data too long\n");
			abort();
		}
		put_uleb(b, aug.len + o->aug_len_adjust);
		put_bytes(b, aug.b, aug.len);
	}
	put_bytes(b, o->insns, o->insns_len);
	end_record(b, start, o->dwarf64);
	return start;
}

size_t add_fde(struct test_sec *t, size_t cie_off, const struct fde_opts *o)
{
	struct buf *b = &t->eh;
	size_t start = begin_record(b, o->dwarf64);
	size_t id = b->len;

	if (o->dwarf64)
		put_u64(b, id - cie_off);
	else
		put_u32(b, id - cie_off);
	put_enc(b, o->fde_enc, o->pc_begin, t->ptr_size, 0);
	put_enc(b, o->fde_enc & DW_EH_PE_format_mask, o->pc_range, t->ptr_size,
		0);
	if (o->aug) {
		put_uleb(b, o->aug_len);
		for (u64 i = 0; i < o->aug_len; i++)
			put_u8(b, 0);
	}
	put_bytes(b, o->insns, o->insns_len);
	end_record(b, start, o->dwarf64);

	if (!o->no_table) {
		if (t->nr_fdes == MAX_FDES)
			abort();
		t->fdes[t->nr_fdes].pc = o->pc_begin;
		t->fdes[t->nr_fdes].off = start;
		t->nr_fdes++;
	}
	return start;
}

size_t add_raw(struct test_sec *t, bool dwarf64, const u8 *body, size_t n)
{
	size_t start = begin_record(&t->eh, dwarf64);

	put_bytes(&t->eh, body, n);
	end_record(&t->eh, start, dwarf64);
	return start;
}

void add_terminator(struct test_sec *t)
{
	put_u32(&t->eh, 0);
}

struct hdr_opts default_hdr(void)
{
	return (struct hdr_opts){
		.ptr_enc = DW_EH_PE_pcrel | DW_EH_PE_sdata4,
		.count_enc = DW_EH_PE_udata4,
		.table_enc = DW_EH_PE_datarel | DW_EH_PE_sdata4,
	};
}

void build_hdr(struct test_sec *t, const struct hdr_opts *o)
{
	struct buf *b = &t->hdr;
	int order[MAX_FDES];
	unsigned int i;

	b->len = 0;
	put_u8(b, 1);
	put_u8(b, o->ptr_enc);
	put_u8(b, o->count_enc);
	put_u8(b, o->table_enc);
	put_enc(b, o->ptr_enc, TEST_EH_ADDR + o->eh_frame_ptr_adjust,
		t->ptr_size, TEST_HDR_ADDR);
	if (o->count_enc != DW_EH_PE_omit)
		put_enc(b, o->count_enc,
			o->count_override ? o->count : t->nr_fdes,
			t->ptr_size, 0);
	if (o->table_enc == DW_EH_PE_omit)
		return;

	for (i = 0; i < t->nr_fdes; i++)
		order[i] = o->order ? o->order[i] : (int)i;
	/* Sorted by pc, as the linker does, unless the test says otherwise. */
	for (i = 1; !o->order && i < t->nr_fdes; i++) {
		int j = i, k = order[i];

		for (; j > 0 && t->fdes[order[j - 1]].pc > t->fdes[k].pc; j--)
			order[j] = order[j - 1];
		order[j] = k;
	}
	for (i = 0; i < t->nr_fdes; i++) {
		put_enc(b, o->table_enc, t->fdes[order[i]].pc, t->ptr_size,
			TEST_HDR_ADDR);
		put_enc(b, o->table_enc, TEST_EH_ADDR + t->fdes[order[i]].off,
			t->ptr_size, TEST_HDR_ADDR);
	}
}

static void make_image(struct test_sec *t)
{
	if (t->hdr.len > TEST_EH_OFFSET)
		abort();
	memset(t->image, 0, sizeof(t->image));
	memcpy(t->image, t->hdr.b, t->hdr.len);
	memcpy(t->image + TEST_EH_OFFSET, t->eh.b, t->eh.len);
	t->image_len = TEST_EH_OFFSET + t->eh.len;
}

void map_sec(struct test_sec *t)
{
	make_image(t);
	fake_user_reset();
	fake_user_map(TEST_HDR_ADDR, t->hdr.b, t->hdr.len);
	fake_user_map(TEST_EH_ADDR, t->eh.b, t->eh.len);
}

void map_image(struct test_sec *t, size_t len, long hole)
{
	make_image(t);
	fake_user_reset();
	if (hole < 0 || (size_t)hole >= len) {
		fake_user_map(TEST_HDR_ADDR, t->image, len);
		return;
	}
	fake_user_map(TEST_HDR_ADDR, t->image, hole);
	fake_user_map(TEST_HDR_ADDR + hole + 1, t->image + hole + 1,
		      len - hole - 1);
}
