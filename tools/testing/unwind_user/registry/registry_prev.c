// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of commit 6d475fa79, before discovery, for `make run_prev`:
 * the tests of index builds, their cap, the frame cache's allocation, the
 * erase whose tombstone fails and mremap() must fail on it.  Its
 * registry.c, cache.c and headers come from git (see the Makefile); this
 * file plays the part of its eh_frame.c as registry_new.c does for
 * today's.  The tests of what it does not have (discovery) are not built.
 */
/* The harness' base headers (tools/testing/shared), which come first. */
#include <shared.h>

/* <linux/compiler_types.h> of the kernel, which the tools' lack. */
#ifndef noinline_for_stack
#define noinline_for_stack	noinline
#endif

#include <kernel/unwind/registry.c>
#include <kernel/unwind/cache.c>

#include "regtest.h"

const char reg_version[] = "kernel/unwind/registry.c of 6d475fa79";

/* As registry_new.c's, for the index build of that time. */
int eh_frame_section_init(struct eh_frame_section *sec,
			  const struct unwind_user_eh_frame *desc,
			  const void *hdr_data)
{
	unsigned long serial = test_table_new_serial();

	*sec = (struct eh_frame_section){
		.text_start = desc->text_start,
		.text_end = desc->text_end,
		.hdr_start = desc->hdr_start,
		.hdr_end = desc->hdr_end,
		.eh_frame_start = desc->eh_frame_start,
		.eh_frame_end = desc->eh_frame_end,
		.table = desc->hdr_start ? serial : 0,
		.fde_count = desc->hdr_start ? 0 : serial,
		.ptr_size = desc->ptr_size,
	};
	return 0;
}

static unsigned long sec_serial(const struct eh_frame_section *sec)
{
	return sec->table ?: sec->fde_count;
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
}

struct eh_frame_index {
	struct rcu_head	rcu;
	unsigned long	table;
	size_t		bytes;
};

/* It neither bounded the index nor said what it read. */
struct eh_frame_index *eh_frame_index_build(const struct eh_frame_section *sec)
{
	struct eh_frame_index *index;
	size_t read, bytes;
	int err;

	err = test_index_build(&read, &bytes);
	if (err)
		return ERR_PTR(err);
	index = calloc(1, sizeof(*index));
	if (!index)
		return ERR_PTR(-ENOMEM);
	index->table = sec_serial(sec);
	index->bytes = bytes ?: sizeof(*index);
	return index;
}

size_t eh_frame_index_bytes(const struct eh_frame_index *index)
{
	return index->bytes;
}

static void eh_frame_index_free_rcu(struct rcu_head *head)
{
	free(container_of(head, struct eh_frame_index, rcu));
}

void eh_frame_index_free(struct eh_frame_index *index)
{
	call_rcu(&index->rcu, eh_frame_index_free_rcu);
}

int eh_frame_find_fde(const struct eh_frame_section *sec,
		      struct eh_frame_index *index, unsigned long pc,
		      struct eh_frame_fde *fde)
{
	int ret = test_table_find(sec->text_start, sec_serial(sec));

	if (index && index->table != sec_serial(sec))
		return -EBADF;
	if (!ret)
		fde->pc_begin = sec_serial(sec);
	return ret;
}

int cfi_find_row(const struct eh_frame_section *sec,
		 const struct eh_frame_regs *regs,
		 const struct eh_frame_fde *fde, unsigned long pc,
		 struct cfi_row *row, unsigned int *budget)
{
	if (budget && !*budget)
		return -EOPNOTSUPP;
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

int reg_register_bare(struct mm_struct *mm, unsigned long base)
{
	struct unwind_user_eh_frame desc = obj_desc(base);

	desc.hdr_start = 0;
	desc.hdr_end = 0;
	desc.eh_frame_start = OBJ_HDR(base);
	return unwind_user_add_eh_frame(mm, &desc);
}

void reg_move_locked(struct mm_struct *mm, unsigned long old_start,
		     unsigned long old_end, unsigned long new_start)
{
	unwind_user_mm_move(mm, old_start, old_end, new_start);
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
	if (!ret)
		test_last_lookup_serial = (u32)frame.cfa.off |
					  (u64)(u32)frame.ra.off << 32;
	return ret;
}

const unsigned int reg_walk_budget = UNWIND_USER_TABLE_BUDGET;

unsigned int reg_walk(struct mm_struct *mm, const unsigned long *pcs, int nr,
		      int *rets)
{
	unsigned int budget = UNWIND_USER_TABLE_BUDGET;
	struct unwind_user_frame frame;
	int i;

	current->mm = mm;
	for (i = 0; i < nr; i++)
		rets[i] = unwind_user_registry_find_frame(pcs[i], sizeof(long),
							  0, &budget, &frame);
	return budget;
}

/* No cap then. */
void reg_set_index_max_kb(unsigned int kb)
{
}

void reg_show(struct mm_struct *mm, char *buf, size_t size)
{
	struct seq_file m = { .buf = buf, .size = size };

	buf[0] = 0;
	unwind_user_mm_show(&m, mm);
}

long long reg_generation(struct mm_struct *mm)
{
	return atomic64_read_acquire(&mm->unwind_user_gen);
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

/* Entries were not kept dead then: a drop erased them. */
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
				.serial = sec_serial(&e->table.eh_frame),
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
