// SPDX-License-Identifier: GPL-2.0
/*
 * Find the FDE that covers a user space pc in an object's .eh_frame, and
 * decode it and its CIE.
 *
 * This is not a general DWARF consumer: it reads the subset of .eh_frame that
 * toolchains emit for Linux user space and rejects the rest.  The data comes
 * from user memory, so every read is checked against the bounds of the
 * section it belongs to, every loop is bounded, and every fault ends the
 * lookup.
 *
 * A lookup without help is a binary search of the .eh_frame_hdr table in
 * user memory (a dozen reads), then the FDE and its CIE.  An index built
 * once per table (eh_frame_index_build()) cuts that to one read of the FDE:
 *
 *  - for a table with a header, every EH_FRAME_BLOCK_BYTES of the search
 *    table is represented by its first initial location, a 64th of the
 *    table's size in kernel memory: the search runs over those, then reads
 *    the one block the pc falls in, in one go;
 *  - for a table without one (gcc -static programs, whose link omits
 *    --eh-frame-hdr), .eh_frame is read through once and every FDE's range
 *    start and offset go into a sorted array, 8 bytes per FDE, bounded by
 *    EH_FRAME_INDEX_MAX_FDES and EH_FRAME_INDEX_MAX_BYTES; a table over
 *    those is refused, never searched linearly per lookup;
 *  - the index keeps the CIEs it decoded (most objects have one or two), so
 *    that a lookup reads the FDE and nothing else.
 */
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seqlock.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>

#include "dwarf.h"
#include "dwarf_read.h"
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

/* The lengths of what is kept are u8s. */
static_assert(EH_FRAME_FDE_READ <= U8_MAX && EH_FRAME_CIE_INSNS_COPY <= U8_MAX);

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

/*
 * The index of a table with a header keeps one initial location per block
 * of this many bytes of its search table, and a lookup reads one block.
 */
#define EH_FRAME_BLOCK_BYTES		128

/*
 * Headers larger than this get no index (a lookup then searches the table
 * in user memory): building it would read all of it at one sample.
 */
#define EH_FRAME_INDEX_MAX_TABLE	SZ_16M

/* What the index build reads in one user access. */
#define EH_FRAME_INDEX_CHUNK		SZ_4K

/* CIEs an index keeps decoded. */
#define EH_FRAME_CIE_CACHE		8

struct eh_frame_cie_slot {
	unsigned long		addr;	/* 0: empty */
	struct eh_frame_cie	cie;
};

/* An FDE of a table without a header: offsets from text and .eh_frame. */
struct eh_frame_index_ent {
	u32	pc;
	u32	fde;
};

struct eh_frame_index {
	struct rcu_head			rcu;
	size_t				bytes;	/* this allocation */
	unsigned int			nr;	/* entries in data[] */
	/*
	 * 0: data[] holds struct eh_frame_index_ent, one per FDE.  Else
	 * data[i] is the initial location (offset from text_start) of table
	 * entry i * stride, and a block is stride entries.
	 */
	unsigned int			stride;
	/* The CIE cache: readers retry nothing, a race is a miss. */
	spinlock_t			cie_lock;
	seqcount_spinlock_t		cie_seq;
	unsigned int			cie_next;
	struct eh_frame_cie_slot	cies[EH_FRAME_CIE_CACHE];
	u32				data[];
};

int eh_frame_section_init(struct eh_frame_section *sec,
			  const struct unwind_user_eh_frame *desc,
			  const void *hdr_data)
{
	unsigned long eh_frame_ptr, fde_count, entry_size, max_count;
	u8 version, eh_frame_ptr_enc, fde_count_enc, table_enc;
	unsigned int ptr_size = desc->ptr_size;
	struct dwarf_cursor cur;
	int ret;

	if (ptr_size != 4 && ptr_size != 8)
		return -EINVAL;
	if (ptr_size > sizeof(unsigned long))
		return -EOPNOTSUPP;
	if (desc->text_start >= desc->text_end ||
	    desc->eh_frame_start >= desc->eh_frame_end ||
	    (desc->hdr_start && desc->hdr_start >= desc->hdr_end))
		return -EINVAL;

	memset(sec, 0, sizeof(*sec));
	sec->text_start = desc->text_start;
	sec->text_end = desc->text_end;
	sec->ptr_size = ptr_size;

	/* No header: the index, built at the first lookup, stands in for it. */
	if (!desc->hdr_start) {
		if (desc->eh_frame_end - desc->eh_frame_start >
		    EH_FRAME_INDEX_MAX_BYTES ||
		    desc->text_end - desc->text_start > U32_MAX)
			return -EFBIG;
		sec->eh_frame_start = desc->eh_frame_start;
		sec->eh_frame_end = desc->eh_frame_end;
		return 0;
	}

	sec->hdr_start = desc->hdr_start;
	sec->hdr_end = desc->hdr_end;
	if (hdr_data)
		dwarf_cursor_init_copy(&cur, sec->hdr_start, sec->hdr_end,
				       hdr_data, sec->hdr_end);
	else
		dwarf_cursor_init(&cur, sec->hdr_start, sec->hdr_end);
	ret = dwarf_read_u8(&cur, &version);
	if (!ret)
		ret = dwarf_read_u8(&cur, &eh_frame_ptr_enc);
	if (!ret)
		ret = dwarf_read_u8(&cur, &fde_count_enc);
	if (!ret)
		ret = dwarf_read_u8(&cur, &table_enc);
	if (ret)
		return ret;
	if (version != EH_FRAME_HDR_VERSION)
		return -EINVAL;

	ret = dwarf_read_pointer(&cur, eh_frame_ptr_enc, ptr_size,
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
	 * A header without the search table: the object should be
	 * registered without the header, and gets an index built for it.
	 */
	if (fde_count_enc == DW_EH_PE_omit || table_enc == DW_EH_PE_omit)
		return -EOPNOTSUPP;
	if (fde_count_enc & (DW_EH_PE_application_mask | DW_EH_PE_indirect))
		return -EINVAL;
	ret = dwarf_read_pointer(&cur, fde_count_enc, ptr_size, 0, &fde_count);
	if (ret)
		return ret;

	/* Binary search needs fixed-size entries and a base we know. */
	entry_size = dwarf_format_size(table_enc & DW_EH_PE_format_mask,
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
	if (sec->hdr_start) {
		sec->hdr_start += delta;
		sec->hdr_end += delta;
	}
	sec->eh_frame_start += delta;
	sec->eh_frame_end += delta;
	if (sec->table)
		sec->table += delta;
}

/* Table entries per block. */
static unsigned int eh_frame_block_entries(const struct eh_frame_section *sec)
{
	return EH_FRAME_BLOCK_BYTES / (2 * sec->table_entry_size);
}

/* Field @field (0: initial location, 1: FDE address) of entry @idx. */
static unsigned long eh_frame_table_addr(const struct eh_frame_section *sec,
					 unsigned int idx, unsigned int field)
{
	return sec->table +
	       ((unsigned long)idx * 2 + field) * sec->table_entry_size;
}

/*
 * The value of the table field at @addr, whose bytes are at @p: a
 * fixed-size DW_EH_PE value, absolute or relative to itself or to the
 * header (eh_frame_section_init() took no other).
 */
static __always_inline int eh_frame_table_value(const struct eh_frame_section *sec,
						const u8 *p, unsigned long addr,
						unsigned long *val)
{
	u64 raw;

	/* What GNU ld and lld write. */
	if (likely(sec->table_enc == (DW_EH_PE_datarel | DW_EH_PE_sdata4))) {
		raw = sec->hdr_start + (s32)get_unaligned((const u32 *)p);
		*val = dwarf_addr(raw, sec->ptr_size);
		return 0;
	}

	switch (sec->table_enc & DW_EH_PE_format_mask) {
	case DW_EH_PE_udata2:
		raw = get_unaligned((const u16 *)p);
		break;
	case DW_EH_PE_sdata2:
		raw = (s16)get_unaligned((const u16 *)p);
		break;
	case DW_EH_PE_udata4:
		raw = get_unaligned((const u32 *)p);
		break;
	case DW_EH_PE_sdata4:
		raw = (s32)get_unaligned((const u32 *)p);
		break;
	case DW_EH_PE_absptr:
		if (sec->ptr_size == 4) {
			raw = get_unaligned((const u32 *)p);
			break;
		}
		fallthrough;
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		raw = get_unaligned((const u64 *)p);
		break;
	default:
		return -EINVAL;
	}

	switch (sec->table_enc & DW_EH_PE_application_mask) {
	case DW_EH_PE_absptr:
		break;
	case DW_EH_PE_pcrel:
		raw += addr;
		break;
	case DW_EH_PE_datarel:
		raw += sec->hdr_start;
		break;
	default:
		return -EINVAL;
	}
	*val = dwarf_addr(raw, sec->ptr_size);
	return 0;
}

/*
 * Decode the table field at @addr, from @kdata (the bytes from @kaddr on) if
 * not NULL, else from user memory.
 */
static int eh_frame_table_read(const struct eh_frame_section *sec,
			       unsigned long addr, const u8 *kdata,
			       unsigned long kaddr, unsigned long *val)
{
	u8 buf[8];

	if (kdata)
		return eh_frame_table_value(sec, kdata + (addr - kaddr), addr,
					    val);
	if (copy_from_user(buf, (const void __user *)addr,
			   sec->table_entry_size))
		return -EFAULT;
	return eh_frame_table_value(sec, buf, addr, val);
}

/*
 * Find the last entry in [lo, hi) of the table whose initial location is
 * <= @pc and return its FDE address; @kdata holds the entries from @lo on,
 * or is NULL to read each from user memory.  The table is sorted by initial
 * location; the loop runs at most log2(hi - lo) + 1 times.  A corrupt,
 * unsorted table can only make us pick the wrong FDE, and the caller checks
 * the FDE's own range covers the pc.
 */
static __always_inline int
eh_frame_search_entries(const struct eh_frame_section *sec, unsigned int lo,
			unsigned int hi, const u8 *kdata, unsigned long pc,
			unsigned long *fde_addr)
{
	unsigned long kaddr = eh_frame_table_addr(sec, lo, 0);
	unsigned int first = lo, mid;
	unsigned long loc;
	int ret;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		ret = eh_frame_table_read(sec, eh_frame_table_addr(sec, mid, 0),
					  kdata, kaddr, &loc);
		if (ret)
			return ret;
		if (loc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == first)
		return -ENOENT;

	ret = eh_frame_table_read(sec, eh_frame_table_addr(sec, lo - 1, 1),
				  kdata, kaddr, fde_addr);
	if (ret)
		return ret;
	if (*fde_addr < sec->eh_frame_start || *fde_addr >= sec->eh_frame_end)
		return -EINVAL;
	return 0;
}

/* Without an index: a binary search of all of the table in user memory. */
static noinline_for_stack int
eh_frame_search_table(const struct eh_frame_section *sec, unsigned long pc,
		      unsigned long *fde_addr)
{
	return eh_frame_search_entries(sec, 0, sec->fde_count, NULL, pc,
				       fde_addr);
}

/* With one: a binary search of the block [lo, hi), read in one go. */
static noinline_for_stack int
eh_frame_search_block(const struct eh_frame_section *sec, unsigned int lo,
		      unsigned int hi, unsigned long pc, unsigned long *fde_addr)
{
	u8 block[EH_FRAME_BLOCK_BYTES];
	unsigned long addr, len, done;

	addr = eh_frame_table_addr(sec, lo, 0);
	len = (hi - lo) * 2 * sec->table_entry_size;
	/* Whole words of it, the rest (2-byte entries) byte by byte. */
	done = dwarf_read_user(block, addr, len);
	if (done < len && copy_from_user(block + done,
					 (const void __user *)(addr + done),
					 len - done))
		return -EFAULT;
	return eh_frame_search_entries(sec, lo, hi, block, pc, fde_addr);
}

/* The offset of @addr from the text, saturated: the index keeps 32 bits. */
static u32 eh_frame_text_off(const struct eh_frame_section *sec,
			     unsigned long addr)
{
	if (addr < sec->text_start)
		return 0;
	return min_t(unsigned long, addr - sec->text_start, U32_MAX);
}

/* The index entry of the last FDE that starts at or below @off, or -1. */
static long eh_frame_index_search(const struct eh_frame_index *index, u32 off)
{
	const struct eh_frame_index_ent *ents = (const void *)index->data;
	unsigned int lo = 0, hi = index->nr, mid, val;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		val = index->stride ? index->data[mid] : ents[mid].pc;
		if (val <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

/*
 * Where the FDE that may cover @pc is: from the index alone, or from the one
 * block of the search table the index points to, or by a binary search of
 * all of the table in user memory.
 */
static int eh_frame_find_fde_addr(const struct eh_frame_section *sec,
				  const struct eh_frame_index *index,
				  unsigned long pc, unsigned long *fde_addr)
{
	const struct eh_frame_index_ent *ents;
	unsigned int lo, hi, stride;
	long i;

	if (!index) {
		if (!sec->table)
			return -EOPNOTSUPP;
		return eh_frame_search_table(sec, pc, fde_addr);
	}

	i = eh_frame_index_search(index, eh_frame_text_off(sec, pc));
	if (i < 0)
		return -ENOENT;
	if (!index->stride) {
		ents = (const void *)index->data;
		*fde_addr = sec->eh_frame_start + ents[i].fde;
		return 0;
	}

	stride = index->stride;
	lo = i * stride;
	hi = min_t(unsigned int, lo + stride, sec->fde_count);
	if (lo >= hi)
		return -ENOENT;
	return eh_frame_search_block(sec, lo, hi, pc, fde_addr);
}

/*
 * Read the length and the CIE ID (or CIE pointer) of the CIE or FDE at the
 * cursor, and narrow the cursor to the record.  @id_addr is the address of
 * the ID field, which a CIE pointer is relative to.
 */
static int eh_frame_read_record(struct dwarf_cursor *cur,
				unsigned long max_size, u64 *id,
				unsigned long *id_addr)
{
	unsigned long start = cur->pos;
	unsigned int id_size = 4;
	u64 len;
	int ret;

	ret = dwarf_read_udata(cur, 4, &len);
	if (ret)
		return ret;
	/* A zero length terminates .eh_frame: it is no record. */
	if (!len)
		return -EINVAL;
	if (len == DWARF_LENGTH_64) {
		ret = dwarf_read_udata(cur, 8, &len);
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
	return dwarf_read_udata(cur, id_size, id);
}

/*
 * Decode the CIE at @cie_addr, and copy its initial instructions.  Lookups
 * keep what they decode (eh_frame_get_cie()): this runs once per CIE of a
 * table with an index.
 */
static noinline_for_stack int
eh_frame_decode_cie(const struct eh_frame_section *sec, unsigned long cie_addr,
		    struct eh_frame_cie *cie)
{
	unsigned int i, ptr_size = sec->ptr_size, len;
	unsigned long id_addr, aug_end = 0;
	char aug[EH_FRAME_MAX_AUG];
	struct dwarf_cursor cur;
	u8 version, byte;
	u64 val;
	int ret;

	dwarf_cursor_init(&cur, cie_addr, sec->eh_frame_end);
	ret = eh_frame_read_record(&cur, EH_FRAME_MAX_CIE_SIZE, &val, &id_addr);
	if (ret)
		return ret;
	/* The FDE's CIE pointer led to another FDE. */
	if (val != EH_FRAME_CIE_ID)
		return -EINVAL;

	ret = dwarf_read_u8(&cur, &version);
	if (ret)
		return ret;
	if (version != 1 && version != 3 && version != 4)
		return -EOPNOTSUPP;

	for (i = 0; i < EH_FRAME_MAX_AUG; i++) {
		ret = dwarf_read_u8(&cur, &byte);
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
		ret = dwarf_skip(&cur, ptr_size);
		if (ret)
			return ret;
		i = 2;
	}

	/* Version 4 gives the address size and the segment selector size. */
	if (version == 4) {
		ret = dwarf_read_u8(&cur, &byte);
		if (ret)
			return ret;
		if (byte != ptr_size)
			return -EOPNOTSUPP;
		ret = dwarf_read_u8(&cur, &byte);
		if (ret)
			return ret;
		if (byte)
			return -EOPNOTSUPP;
	}

	ret = dwarf_read_uleb128(&cur, &val);
	if (ret)
		return ret;
	if (val > U32_MAX)
		return -EINVAL;
	cie->code_align = val;

	ret = dwarf_read_leb128(&cur, true, &val);
	if (ret)
		return ret;
	if ((s64)val < S32_MIN || (s64)val > S32_MAX)
		return -EINVAL;
	cie->data_align = (s64)val;

	if (version == 1) {
		ret = dwarf_read_u8(&cur, &byte);
		val = byte;
	} else {
		ret = dwarf_read_uleb128(&cur, &val);
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
		ret = dwarf_read_uleb128(&cur, &val);
		if (ret)
			return ret;
		if (val > cur.end - cur.pos)
			return -EINVAL;
		aug_end = cur.pos + val;
		cie->has_aug_data = true;
		i++;
	}

	for (; aug[i]; i++) {
		if (!cie->has_aug_data)
			return -EOPNOTSUPP;

		switch (aug[i]) {
		case 'L':	/* LSDA encoding: FDEs' data, skipped there */
			ret = dwarf_read_u8(&cur, &byte);
			break;
		case 'P':	/* personality routine: not needed to unwind */
			ret = dwarf_read_u8(&cur, &byte);
			if (!ret)
				ret = dwarf_skip_pointer(&cur, byte, ptr_size);
			break;
		case 'R':	/* encoding of FDE addresses */
			ret = dwarf_read_u8(&cur, &cie->fde_enc);
			break;
		case 'S':	/* signal frame */
			cie->signal_frame = true;
			break;
		case 'B':	/* AArch64: return addresses signed with the B key */
		case 'G':	/* AArch64: tagged stack frames (MTE) */
			/* No data; the walk strips signatures of either key. */
			break;
		default:
			return -EOPNOTSUPP;
		}
		if (ret)
			return ret;
	}

	if (cie->has_aug_data) {
		if (cur.pos > aug_end)
			return -EINVAL;
		cur.pos = aug_end;
	}

	cie->insns = cur.pos;
	cie->insns_len = cur.end - cur.pos;
	/* A fault here leaves the instructions to be read where they are. */
	len = min_t(unsigned int, cie->insns_len, EH_FRAME_CIE_INSNS_COPY);
	cie->insns_copied = 0;
	if (len && !copy_from_user(cie->init, (const void __user *)cie->insns,
				   len))
		cie->insns_copied = len;
	return 0;
}

/* The CIE at @addr from the index's cache: false on a miss. */
static bool eh_frame_cie_lookup(struct eh_frame_index *index,
				unsigned long addr, struct eh_frame_cie *cie)
{
	unsigned int seq, i;
	bool hit = false;

	seq = read_seqcount_begin(&index->cie_seq);
	for (i = 0; i < EH_FRAME_CIE_CACHE; i++) {
		if (index->cies[i].addr == addr) {
			*cie = index->cies[i].cie;
			hit = true;
			break;
		}
	}
	/* A writer came by: the copy may be torn. */
	if (read_seqcount_retry(&index->cie_seq, seq))
		hit = false;
	return hit;
}

/* Keep a decoded CIE, unless another writer is at it. */
static void eh_frame_cie_insert(struct eh_frame_index *index,
				unsigned long addr,
				const struct eh_frame_cie *cie)
{
	struct eh_frame_cie_slot *slot;

	if (!spin_trylock(&index->cie_lock))
		return;
	slot = &index->cies[index->cie_next];
	index->cie_next = (index->cie_next + 1) % EH_FRAME_CIE_CACHE;
	write_seqcount_begin(&index->cie_seq);
	slot->addr = addr;
	slot->cie = *cie;
	write_seqcount_end(&index->cie_seq);
	spin_unlock(&index->cie_lock);
}

static int eh_frame_get_cie(const struct eh_frame_section *sec,
			    struct eh_frame_index *index, unsigned long addr,
			    struct eh_frame_cie *cie)
{
	int ret;

	if (index && eh_frame_cie_lookup(index, addr, cie))
		return 0;
	ret = eh_frame_decode_cie(sec, addr, cie);
	if (!ret && index)
		eh_frame_cie_insert(index, addr, cie);
	return ret;
}

/*
 * Read the FDE at @fde_addr into fde->raw, in one user access for most
 * FDEs, and find its CIE: *@cie_addr, and in *@pos where the FDE's fields
 * go on.
 */
static noinline_for_stack int
eh_frame_read_fde(const struct eh_frame_section *sec, unsigned long fde_addr,
		  struct eh_frame_fde *fde, unsigned long *cie_addr,
		  unsigned long *pos, unsigned long *end)
{
	struct dwarf_cursor cur;
	unsigned long id_addr;
	u64 val;
	int ret;

	dwarf_cursor_init(&cur, fde_addr, sec->eh_frame_end);
	fde->raw_len = dwarf_cursor_prefetch(&cur, fde->raw, sizeof(fde->raw));
	ret = eh_frame_read_record(&cur, EH_FRAME_MAX_FDE_SIZE, &val, &id_addr);
	if (ret)
		return ret;

	/*
	 * In .eh_frame the CIE pointer is the distance back from its own
	 * field to the CIE.  Zero would make this a CIE.
	 */
	if (val == EH_FRAME_CIE_ID || val > id_addr - sec->eh_frame_start)
		return -EINVAL;
	*cie_addr = id_addr - val;
	*pos = cur.pos;
	*end = cur.end;
	return 0;
}

/* The fields of the FDE at @fde_addr after the CIE pointer, at @pos. */
static noinline_for_stack int
eh_frame_parse_fde(const struct eh_frame_section *sec, unsigned long fde_addr,
		   unsigned long pos, unsigned long end,
		   struct eh_frame_fde *fde)
{
	unsigned long pc_range, avail;
	struct dwarf_cursor cur;
	u64 val;
	int ret;

	dwarf_cursor_init_copy(&cur, fde_addr, end, fde->raw,
			       fde_addr + fde->raw_len);
	cur.pos = pos;
	ret = dwarf_read_pointer(&cur, fde->cie.fde_enc, sec->ptr_size, 0,
				 &fde->pc_begin);
	if (ret)
		return ret;

	/* The range has the size and format of the address, but no base. */
	ret = dwarf_read_pointer(&cur, fde->cie.fde_enc & DW_EH_PE_format_mask,
				 sec->ptr_size, 0, &pc_range);
	if (ret)
		return ret;
	if (check_add_overflow(fde->pc_begin, pc_range, &fde->pc_end) ||
	    dwarf_addr(fde->pc_end, sec->ptr_size) != fde->pc_end)
		return -EINVAL;

	if (fde->cie.has_aug_data) {
		ret = dwarf_read_uleb128(&cur, &val);
		if (!ret)
			ret = dwarf_skip(&cur, val);
		if (ret)
			return ret;
	}

	fde->insns = cur.pos;
	fde->insns_len = cur.end - cur.pos;
	/* The instructions that came with the read, for cfi.c. */
	avail = cur.pos < cur.kend ? cur.kend - cur.pos : 0;
	fde->insns_copied = min_t(unsigned long, avail, fde->insns_len);
	fde->insns_off = fde->insns_copied ? cur.pos - fde_addr : 0;
	return 0;
}

/*
 * Decode the FDE at @fde_addr and its CIE: one user read for most FDEs,
 * and one more when the CIE is not cached.  The CIE is decoded between
 * the two halves, not inside them, which keeps the stack short.
 */
static int eh_frame_decode_fde(const struct eh_frame_section *sec,
			       struct eh_frame_index *index,
			       unsigned long fde_addr, struct eh_frame_fde *fde)
{
	unsigned long cie_addr, pos, end;
	int ret;

	ret = eh_frame_read_fde(sec, fde_addr, fde, &cie_addr, &pos, &end);
	if (!ret)
		ret = eh_frame_get_cie(sec, index, cie_addr, &fde->cie);
	if (!ret)
		ret = eh_frame_parse_fde(sec, fde_addr, pos, end, fde);
	return ret;
}

/**
 * eh_frame_find_fde - find and decode the FDE that covers a pc
 * @sec: the section, set up by eh_frame_section_init()
 * @index: its index, or NULL
 * @pc: the address to look up; for a caller's frame, an address inside the
 *	call instruction (return address - 1) unless the frame is a signal frame
 * @fde: filled in on success, with the CIE
 *
 * Return: see eh_frame.h.
 */
static int __eh_frame_find_fde(const struct eh_frame_section *sec,
			       struct eh_frame_index *index, unsigned long pc,
			       struct eh_frame_fde *fde, bool cie_cache,
			       bool *absolute)
{
	unsigned long fde_addr;
	int ret;

	if (pc < sec->text_start || pc >= sec->text_end)
		return -ENOENT;

	ret = eh_frame_find_fde_addr(sec, index, pc, &fde_addr);
	if (ret)
		return ret;
	ret = eh_frame_decode_fde(sec, cie_cache ? index : NULL, fde_addr, fde);
	if (ret)
		return ret;
	if (absolute)
		*absolute |= (fde->cie.fde_enc & DW_EH_PE_application_mask) ==
			     DW_EH_PE_absptr;

	/* The table may lie: only the FDE itself says what it covers. */
	if (pc < fde->pc_begin || pc >= fde->pc_end)
		return -ENOENT;
	return 0;
}

int eh_frame_find_fde(const struct eh_frame_section *sec,
		      struct eh_frame_index *index, unsigned long pc,
		      struct eh_frame_fde *fde)
{
	return __eh_frame_find_fde(sec, index, pc, fde, true, NULL);
}

/**
 * eh_frame_find_fde_fresh - eh_frame_find_fde(), reading the CIE anew
 * @sec: the section
 * @index: its index, or NULL: only to find the FDE
 * @pc: the address to look up
 * @fde: filled in on success, with the CIE
 * @absolute: set when what was found (or that nothing covers @pc) depends
 *	on where the table is mapped, not only on its bytes and @pc's
 *	distance from it: an address of the search table or of the FDE is
 *	absolute
 *
 * What is found comes from the table's bytes as they are now, not from
 * what an earlier lookup left in the index's CIE cache.
 *
 * Return: see eh_frame.h.
 */
int eh_frame_find_fde_fresh(const struct eh_frame_section *sec,
			    struct eh_frame_index *index, unsigned long pc,
			    struct eh_frame_fde *fde, bool *absolute)
{
	*absolute = sec->table && (sec->table_enc & DW_EH_PE_application_mask) ==
				  DW_EH_PE_absptr;
	return __eh_frame_find_fde(sec, index, pc, fde, false, absolute);
}

/* How an index build stands: its bound and what it has read so far. */
struct eh_frame_build {
	const struct eh_frame_section	*sec;
	u8				*chunk;
	size_t				max_bytes;
	size_t				read;
};

static size_t eh_frame_index_size(unsigned int nr, size_t entry_size)
{
	return size_add(sizeof(struct eh_frame_index),
			size_mul(nr, entry_size));
}

static struct eh_frame_index *eh_frame_index_alloc(unsigned int nr,
						   size_t entry_size)
{
	struct eh_frame_index *index;
	size_t bytes;

	bytes = eh_frame_index_size(nr, entry_size);
	index = kvzalloc(bytes, GFP_KERNEL_ACCOUNT);
	if (!index)
		return NULL;
	index->bytes = bytes;
	index->nr = nr;
	spin_lock_init(&index->cie_lock);
	seqcount_spinlock_init(&index->cie_seq, &index->cie_lock);
	return index;
}

/*
 * Read @len bytes of the table at @addr into the build's chunk: the read is
 * counted, and a fatal signal stops the build.
 */
static int eh_frame_build_read(struct eh_frame_build *b, unsigned long addr,
			       size_t len, size_t *got)
{
	size_t left;

	if (fatal_signal_pending(current))
		return -EINTR;
	left = copy_from_user(b->chunk, (const void __user *)addr, len);
	b->read += len - left;
	*got = len - left;
	cond_resched();
	return 0;
}

/*
 * The initial location of every block's first entry.  The table was checked
 * to fit in the header; it is read a chunk at a time.
 */
static struct eh_frame_index *eh_frame_index_table(struct eh_frame_build *b)
{
	const struct eh_frame_section *sec = b->sec;
	unsigned int stride = eh_frame_block_entries(sec);
	unsigned int per_chunk = EH_FRAME_INDEX_CHUNK / (2 * sec->table_entry_size);
	unsigned int nr = DIV_ROUND_UP(sec->fde_count, stride);
	unsigned long chunk_addr = 0, loc, addr;
	unsigned int i, entry, first = UINT_MAX;
	struct eh_frame_index *index;
	size_t len, got;
	int ret;

	if ((unsigned long)sec->fde_count * 2 * sec->table_entry_size >
	    EH_FRAME_INDEX_MAX_TABLE ||
	    sec->text_end - sec->text_start > U32_MAX)
		return ERR_PTR(-EFBIG);
	if (eh_frame_index_size(nr, sizeof(u32)) > b->max_bytes)
		return ERR_PTR(-ENOSPC);

	index = eh_frame_index_alloc(nr, sizeof(u32));
	if (!index)
		return ERR_PTR(-ENOMEM);
	index->stride = stride;

	for (i = 0; i < nr; i++) {
		entry = i * stride;
		if (first == UINT_MAX || entry >= first + per_chunk) {
			first = entry;
			chunk_addr = eh_frame_table_addr(sec, first, 0);
			len = (size_t)min(per_chunk, sec->fde_count - first) *
			      2 * sec->table_entry_size;
			ret = eh_frame_build_read(b, chunk_addr, len, &got);
			if (!ret && got < len)
				ret = -EFAULT;
			if (ret)
				goto fail;
		}
		addr = eh_frame_table_addr(sec, entry, 0);
		ret = eh_frame_table_read(sec, addr, b->chunk, chunk_addr, &loc);
		if (ret)
			goto fail;
		index->data[i] = eh_frame_text_off(sec, loc);
	}
	return index;
fail:
	kvfree(index);
	return ERR_PTR(ret);
}

/* A window of .eh_frame in kernel memory, for the walk through it. */
struct eh_frame_scan {
	const struct eh_frame_section	*sec;
	struct eh_frame_build		*build;
	struct eh_frame_index		*index;	/* for its CIE cache */
	u8				*chunk;
	unsigned long			start;	/* user address of chunk[0] */
	unsigned long			len;
	unsigned int			nr;	/* FDEs counted, or added */
};

/* Make the scan's chunk hold [pos, pos + want), or all up to the end. */
static int eh_frame_scan_ensure(struct eh_frame_scan *scan, unsigned long pos,
				unsigned long want)
{
	unsigned long end = scan->sec->eh_frame_end, len;
	size_t got;
	int ret;

	want = min(want, end - pos);
	if (pos >= scan->start && pos - scan->start + want <= scan->len)
		return 0;
	len = min_t(unsigned long, end - pos, EH_FRAME_INDEX_CHUNK);
	ret = eh_frame_build_read(scan->build, pos, len, &got);
	if (ret)
		return ret;
	scan->start = pos;
	scan->len = got;
	if (scan->len < want)
		return -EFAULT;
	return 0;
}

/*
 * The record of .eh_frame at *@pos: if it is an FDE with a non-empty range
 * in the text, its range start in *@pc, else 0 there.  Moves *@pos past the
 * record.  Returns 1 at the end (a zero length terminates .eh_frame, as
 * libgcc's own scan takes it), 0, or an error.
 */
static int eh_frame_scan_record(struct eh_frame_scan *scan, unsigned long *pos,
				unsigned long *pc)
{
	const struct eh_frame_section *sec = scan->sec;
	unsigned long start = *pos, id_addr, range;
	struct dwarf_cursor cur;
	struct eh_frame_cie cie;
	u64 id;
	int ret;

	*pc = 0;
	if (start >= sec->eh_frame_end ||
	    sec->eh_frame_end - start < 4)
		return 1;
	/* Length, CIE pointer, and the FDE's two address fields. */
	ret = eh_frame_scan_ensure(scan, start, 12 + 8 + 2 * sizeof(u64));
	if (ret)
		return ret;
	if (!get_unaligned((const u32 *)&scan->chunk[start - scan->start]))
		return 1;

	dwarf_cursor_init_copy(&cur, start, sec->eh_frame_end,
			       &scan->chunk[start - scan->start],
			       scan->start + scan->len);
	ret = eh_frame_read_record(&cur, U32_MAX, &id, &id_addr);
	if (ret)
		return ret;
	*pos = cur.end;
	if (id == EH_FRAME_CIE_ID)
		return 0;

	if (id > id_addr - sec->eh_frame_start)
		return -EINVAL;
	ret = eh_frame_get_cie(sec, scan->index, id_addr - id, &cie);
	/* An FDE of a CIE we do not handle is one we cannot use. */
	if (ret == -EOPNOTSUPP)
		return 0;
	if (ret)
		return ret;

	ret = dwarf_read_pointer(&cur, cie.fde_enc, sec->ptr_size, 0, pc);
	if (!ret)
		ret = dwarf_read_pointer(&cur, cie.fde_enc & DW_EH_PE_format_mask,
					 sec->ptr_size, 0, &range);
	if (ret) {
		*pc = 0;
		return ret == -EOPNOTSUPP ? 0 : ret;
	}
	if (!range || *pc < sec->text_start || *pc >= sec->text_end)
		*pc = 0;
	return 0;
}

static int eh_frame_index_ent_cmp(const void *a, const void *b)
{
	const struct eh_frame_index_ent *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->fde < y->fde ? -1 : x->fde > y->fde;
}

/*
 * Walk .eh_frame record by record, calling @fn for each FDE that covers
 * text.  Bounded: the section is at most EH_FRAME_INDEX_MAX_BYTES (checked
 * at init) and every record is at least 8 bytes long.
 */
static int eh_frame_scan(struct eh_frame_scan *scan,
			 int (*fn)(struct eh_frame_scan *scan,
				   unsigned long fde, unsigned long pc))
{
	unsigned long pos = scan->sec->eh_frame_start, start, pc;
	int ret;

	for (;;) {
		start = pos;
		ret = eh_frame_scan_record(scan, &pos, &pc);
		if (ret)
			return ret < 0 ? ret : 0;
		if (pc) {
			ret = fn(scan, start, pc);
			if (ret)
				return ret;
		}
	}
}

static int eh_frame_scan_count(struct eh_frame_scan *scan, unsigned long fde,
			       unsigned long pc)
{
	if (scan->nr == EH_FRAME_INDEX_MAX_FDES)
		return -EFBIG;
	scan->nr++;
	return 0;
}

static int eh_frame_scan_add(struct eh_frame_scan *scan, unsigned long fde,
			     unsigned long pc)
{
	struct eh_frame_index_ent *ents = (void *)scan->index->data;
	const struct eh_frame_section *sec = scan->sec;

	/* The table grew since it was counted: the rest is left out. */
	if (scan->nr == scan->index->nr)
		return 1;
	ents[scan->nr].pc = pc - sec->text_start;
	ents[scan->nr].fde = fde - sec->eh_frame_start;
	scan->nr++;
	return 0;
}

/*
 * Count the FDEs that cover text, then fill in their index in a second pass
 * (the CIEs the first one decoded are kept), and sort it if the linker did
 * not emit them in address order.
 */
static struct eh_frame_index *eh_frame_index_scan(struct eh_frame_build *b)
{
	struct eh_frame_scan scan = {
		.sec = b->sec, .build = b, .chunk = b->chunk,
	};
	struct eh_frame_index_ent *ents;
	struct eh_frame_index *index;
	unsigned int i;
	int ret;

	/* The first pass only needs a CIE cache. */
	scan.index = eh_frame_index_alloc(0, 0);
	if (!scan.index)
		return ERR_PTR(-ENOMEM);
	ret = eh_frame_scan(&scan, eh_frame_scan_count);
	if (ret)
		goto fail;
	if (eh_frame_index_size(scan.nr, sizeof(*ents)) > b->max_bytes) {
		ret = -ENOSPC;
		goto fail;
	}

	index = eh_frame_index_alloc(scan.nr, sizeof(*ents));
	if (!index) {
		ret = -ENOMEM;
		goto fail;
	}
	memcpy(index->cies, scan.index->cies, sizeof(index->cies));
	kvfree(scan.index);
	scan.index = index;
	scan.nr = 0;
	ret = eh_frame_scan(&scan, eh_frame_scan_add);
	if (ret < 0)
		goto fail;
	index->nr = scan.nr;

	ents = (void *)index->data;
	for (i = 1; i < index->nr; i++) {
		if (eh_frame_index_ent_cmp(&ents[i - 1], &ents[i]) > 0) {
			sort_nonatomic(ents, index->nr, sizeof(*ents),
				       eh_frame_index_ent_cmp, NULL);
			break;
		}
	}
	return index;
fail:
	kvfree(scan.index);
	return ERR_PTR(ret);
}

/**
 * eh_frame_index_build - build the index of a section
 * @sec:	the section, set up by eh_frame_section_init()
 * @max_bytes:	the most the index may take
 * @read:	if not NULL, set to the bytes of the table read
 *
 * Return: the index, or an ERR_PTR: see eh_frame.h.
 */
struct eh_frame_index *eh_frame_index_build(const struct eh_frame_section *sec,
					    size_t max_bytes, size_t *read)
{
	struct eh_frame_build b = { .sec = sec, .max_bytes = max_bytes };
	struct eh_frame_index *index;

	b.chunk = kmalloc(EH_FRAME_INDEX_CHUNK, GFP_KERNEL_ACCOUNT);
	if (!b.chunk)
		index = ERR_PTR(-ENOMEM);
	else if (sec->table)
		index = eh_frame_index_table(&b);
	else
		index = eh_frame_index_scan(&b);
	kfree(b.chunk);
	if (read)
		*read = b.read;
	return index;
}

size_t eh_frame_index_bytes(const struct eh_frame_index *index)
{
	return index->bytes;
}

/* Free @index once RCU readers (/proc) cannot see it any more. */
void eh_frame_index_free(struct eh_frame_index *index)
{
	kvfree_rcu(index, rcu);
}
