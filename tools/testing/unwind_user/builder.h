/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Build .eh_frame and .eh_frame_hdr sections byte by byte, for the unit
 * tests.  The layout in the fake user address space is fixed:
 *
 *	TEST_HDR_ADDR	.eh_frame_hdr
 *	TEST_EH_ADDR	.eh_frame (TEST_HDR_ADDR + TEST_EH_OFFSET)
 *	TEST_TEXT_*	the code the FDEs cover (never read)
 */
#ifndef _UNWIND_TEST_BUILDER_H
#define _UNWIND_TEST_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#define TEST_TEXT_START		0x400000UL
#define TEST_TEXT_END		0x500000UL
#define TEST_HDR_ADDR		0x600000UL
#define TEST_EH_OFFSET		0x1000UL
#define TEST_EH_ADDR		(TEST_HDR_ADDR + TEST_EH_OFFSET)

#define BUF_MAX			(80 * 1024)
#define MAX_FDES		16

struct buf {
	u8	b[BUF_MAX];
	size_t	len;
	unsigned long addr;	/* user address of b[0] */
};

void put_u8(struct buf *b, u8 v);
void put_u16(struct buf *b, u16 v);
void put_u32(struct buf *b, u32 v);
void put_u64(struct buf *b, u64 v);
void put_uleb(struct buf *b, u64 v);
void put_sleb(struct buf *b, s64 v);
void put_bytes(struct buf *b, const void *p, size_t n);
/* A pointer in DW_EH_PE encoding @enc; @datarel is the datarel base. */
void put_enc(struct buf *b, u8 enc, u64 value, unsigned int ptr_size,
	     unsigned long datarel);

struct cie_opts {
	u8		version;	/* 1, 3 or 4 */
	const char	*aug;		/* augmentation string */
	u64		code_align;
	s64		data_align;
	u64		ra;		/* return address column */
	u8		fde_enc;	/* 'R' */
	u8		per_enc;	/* 'P' */
	u64		per;
	u8		lsda_enc;	/* 'L' */
	bool		dwarf64;
	u8		addr_size;	/* version 4 */
	u8		seg_size;
	s64		aug_len_adjust;	/* lie about the 'z' length */
	const u8	*insns;		/* initial instructions */
	size_t		insns_len;
};

struct fde_opts {
	u64		pc_begin;
	u64		pc_range;
	u8		fde_enc;	/* must match the CIE's 'R' */
	bool		dwarf64;
	bool		aug;		/* the CIE has 'z': emit a length */
	u64		aug_len;	/* bytes of augmentation data (LSDA) */
	const u8	*insns;
	size_t		insns_len;
	bool		no_table;	/* leave out of .eh_frame_hdr */
};

struct hdr_opts {
	u8		ptr_enc;	/* eh_frame_ptr encoding */
	u8		count_enc;
	u8		table_enc;
	bool		count_override;	/* write @count instead of the truth */
	u64		count;
	const int	*order;		/* table order (default: sorted) */
	long		eh_frame_ptr_adjust;
};

struct test_sec {
	struct buf	hdr;
	struct buf	eh;
	unsigned int	ptr_size;
	unsigned int	nr_fdes;
	struct {
		u64	pc;
		size_t	off;		/* in .eh_frame */
	} fdes[MAX_FDES];
	/* A contiguous image of both sections, for the fault tests. */
	u8		image[TEST_EH_OFFSET + BUF_MAX];
	size_t		image_len;
};

/* Empty sections for an object with pointers of @ptr_size bytes. */
void sec_reset(struct test_sec *t, unsigned int ptr_size);
/* The CIE most x86-64 binaries have: zR, pcrel sdata4, CFA rsp+8, RA c-8. */
struct cie_opts default_cie(void);
struct fde_opts default_fde(u64 pc_begin, u64 pc_range, const u8 *insns,
			    size_t insns_len);
/* Append a CIE or an FDE; return its offset in .eh_frame. */
size_t add_cie(struct test_sec *t, const struct cie_opts *o);
size_t add_fde(struct test_sec *t, size_t cie_off, const struct fde_opts *o);
/* Raw record: a length (or the 64-bit escape), then @n bytes of body. */
size_t add_raw(struct test_sec *t, bool dwarf64, const u8 *body, size_t n);
void add_terminator(struct test_sec *t);
/* Write .eh_frame_hdr for the FDEs added; default_hdr() is what ld does. */
struct hdr_opts default_hdr(void);
void build_hdr(struct test_sec *t, const struct hdr_opts *o);
/* Map both sections as separate regions (and refresh the image). */
void map_sec(struct test_sec *t);
/* Map the first @len bytes of the contiguous image, with a hole at @hole. */
void map_image(struct test_sec *t, size_t len, long hole);

#endif
