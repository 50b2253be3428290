// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/unwind/registry.c, unchanged, with stand-ins for the table reader
 * it calls (eh_frame.c) and the interface the tests use (regtest.h).
 */
/* The harness' base headers (tools/testing/shared), which come first. */
#include <shared.h>

/* <linux/compiler_types.h> of the kernel, which the tools' lack. */
#ifndef noinline_for_stack
#define noinline_for_stack	noinline
#endif

#include "../../../../kernel/unwind/registry.c"
#include "../../../../kernel/unwind/cache.c"

#include "regtest.h"

const char reg_version[] = "kernel/unwind/registry.c";

/*
 * The reader's stand-ins.  The header is not read: the section takes the
 * ranges of @desc, and a serial number in place of its search table, which
 * tells the tests which registration a lookup copied.
 */
int eh_frame_section_init(struct eh_frame_section *sec,
			  const struct unwind_user_eh_frame *desc,
			  const void *hdr_data)
{
	*sec = (struct eh_frame_section){
		.text_start = desc->text_start,
		.text_end = desc->text_end,
		.hdr_start = desc->hdr_start,
		.hdr_end = desc->hdr_end,
		.eh_frame_start = desc->eh_frame_start,
		.eh_frame_end = desc->eh_frame_end,
		.table = test_table_new_serial(),
		.ptr_size = desc->ptr_size,
	};
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
}

/*
 * An index is a real allocation, so that a leak or a double free of it
 * shows under the sanitizers (but not among the registry's blocks, which
 * the tests count); it names the registration it was built for.
 */
struct eh_frame_index {
	struct rcu_head	rcu;
	unsigned long	table;
};

struct eh_frame_index *eh_frame_index_build(const struct eh_frame_section *sec)
{
	struct eh_frame_index *index = calloc(1, sizeof(*index));

	if (!index)
		return ERR_PTR(-ENOMEM);
	index->table = sec->table;
	return index;
}

size_t eh_frame_index_bytes(const struct eh_frame_index *index)
{
	return sizeof(*index);
}

void eh_frame_index_free(struct eh_frame_index *index)
{
	free(index);
}

/*
 * The FDE names the registration it came from (and the frame, below), so
 * that one from the cache tells which registration it was found in.  The
 * index must be the registration's own.
 */
int eh_frame_find_fde(const struct eh_frame_section *sec,
		      struct eh_frame_index *index, unsigned long pc,
		      struct eh_frame_fde *fde)
{
	int ret = test_table_find(sec->text_start, sec->table);

	if (index && index->table != sec->table)
		return -EBADF;
	if (!ret)
		fde->pc_begin = sec->table;
	return ret;
}

int cfi_find_row(const struct eh_frame_section *sec,
		 const struct eh_frame_regs *regs,
		 const struct eh_frame_fde *fde, unsigned long pc,
		 struct cfi_row *row, unsigned int *budget)
{
	*row = (struct cfi_row){
		.cells.cfa.off = (u32)fde->pc_begin,
		.cells.ra.off = (u32)((u64)fde->pc_begin >> 32),
	};
	return 0;
}

int cfi_row_frame(const struct eh_frame_section *sec,
		  const struct eh_frame_regs *regs, const struct cfi_row *row,
		  unsigned long pc, struct unwind_user_frame *frame)
{
	*frame = (struct unwind_user_frame){
		.cfa.off = row->cells.cfa.off,
		.ra.off = row->cells.ra.off,
	};
	return 0;
}

/* The interface of regtest.h. */

void reg_mm_init(struct mm_struct *mm)
{
	unwind_user_mm_init(mm);
}

static struct unwind_user_eh_frame obj_desc(unsigned long base)
{
	return (struct unwind_user_eh_frame){
		.text_start = base,
		.text_end = base + OBJ_TEXT_SIZE,
		.hdr_start = OBJ_HDR(base),
		.hdr_end = OBJ_HDR(base) + OBJ_HDR_SIZE,
		.eh_frame_start = OBJ_HDR(base) + OBJ_HDR_SIZE,
		.eh_frame_end = OBJ_DATA_END(base),
		.ptr_size = sizeof(long),
	};
}

int reg_register(struct mm_struct *mm, unsigned long base)
{
	struct unwind_user_eh_frame desc = obj_desc(base);

	return unwind_user_add_eh_frame(mm, &desc);
}

int reg_unregister(struct mm_struct *mm, unsigned long base)
{
	return unwind_user_remove(mm, UNWIND_USER_FORMAT_EH_FRAME_HDR, base,
				  base + OBJ_TEXT_SIZE);
}

void reg_unmap_locked(struct mm_struct *mm, unsigned long start,
		      unsigned long end)
{
	unwind_user_mm_unmap(mm, start, end);
}

int reg_lookup(struct mm_struct *mm, unsigned long pc)
{
	unsigned int budget = UNWIND_USER_TABLE_BUDGET;
	struct unwind_user_frame frame;

	int ret;

	current->mm = mm;
	ret = unwind_user_registry_find_frame(pc, sizeof(long), 0, &budget,
					      &frame);
	/* From the table or from the cache: which registration said it. */
	if (!ret)
		test_last_lookup_serial = (u32)frame.cfa.off |
					  (u64)(u32)frame.ra.off << 32;
	return ret;
}

int reg_cache_stats(struct mm_struct *mm, unsigned long *hits,
		    unsigned long *misses)
{
	struct unwind_user_cache_stats stats;

	if (!mm->unwind_user_cache)
		return -1;
	unwind_user_cache_get_stats(mm->unwind_user_cache, &stats);
	*hits = stats.hits;
	*misses = stats.misses;
	return 0;
}

int reg_fork_locked(struct mm_struct *child, struct mm_struct *parent)
{
	return unwind_user_mm_dup(child, parent);
}

void reg_exit_locked(struct mm_struct *mm)
{
	unwind_user_mm_exit(mm);
}

long reg_count(struct mm_struct *mm)
{
	return mm->unwind_user_nr;
}

int reg_contents(struct mm_struct *mm, struct reg_item *items, int max)
{
	MA_STATE(mas, &mm->unwind_user_mt, 0, 0);
	struct unwind_user_entry *e;
	int n = 0;

	rcu_read_lock();
	mas_for_each(&mas, e, ULONG_MAX) {
		if (!entry_is_live(e))
			continue;
		if (n < max)
			items[n] = (struct reg_item){
				.start = e->table.start,
				.end = e->table.end,
				.serial = e->table.eh_frame.table,
				.refs = refcount_read(&e->ref),
				.keyed = mas.index == e->table.start &&
					 mas.last == e->table.end - 1,
			};
		n++;
	}
	rcu_read_unlock();
	return n;
}

int reg_markers(struct mm_struct *mm)
{
	MA_STATE(mas, &mm->unwind_user_mt, 0, 0);
	struct unwind_user_entry *e;
	int n = 0;

	rcu_read_lock();
	mas_for_each(&mas, e, ULONG_MAX)
		n += !entry_is_live(e);
	rcu_read_unlock();
	return n;
}
