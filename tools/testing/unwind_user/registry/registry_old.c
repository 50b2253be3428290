// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of commit da05eb2 (before the mmap lock became its lock),
 * for `make run_old`: the tests must fail on it.  Its registry.c,
 * eh_frame.h and unwind_user_registry.h come from git (see the Makefile);
 * this file plays the part of its register.c and eh_frame.c as
 * registry_new.c does for today's.  The tests of what it does not have
 * (tables the kernel finds, markers, origins, /proc, debugfs) and one race
 * it passes in today's form are not built here: test.c says why.
 */
/* The harness' base headers (tools/testing/shared), which come first. */
#include <shared.h>

#include <kernel/unwind/registry.c>

#include "regtest.h"

const char reg_version[] = "kernel/unwind/registry.c of da05eb2";

int eh_frame_section_init(struct eh_frame_section *sec,
			  unsigned long hdr_start, unsigned long hdr_size,
			  unsigned long text_start, unsigned long text_end,
			  unsigned long eh_frame_end, unsigned int ptr_size)
{
	*sec = (struct eh_frame_section){
		.text_start = text_start,
		.text_end = text_end,
		.hdr_start = hdr_start,
		.hdr_end = hdr_start + hdr_size,
		.eh_frame_start = hdr_start + hdr_size,
		.eh_frame_end = eh_frame_end,
		.table = test_table_new_serial(),
		.ptr_size = ptr_size,
	};
	return 0;
}

int eh_frame_find_frame(const struct eh_frame_section *sec,
			const struct eh_frame_regs *regs, unsigned long pc,
			struct unwind_user_frame *frame)
{
	return test_table_find(sec->text_start, sec->table);
}

void reg_mm_init(struct mm_struct *mm)
{
	unwind_user_mm_init(mm);
}

/* As the old register.c: a hole was -EFAULT there, -ENOMEM today. */
static int range_check(struct mm_struct *mm, unsigned long start,
		       unsigned long end, vm_flags_t flags)
{
	VMA_ITERATOR(vmi, mm, start);
	struct vm_area_struct *vma;
	unsigned long addr = start;

	for_each_vma_range(vmi, vma, end) {
		if (vma->vm_start > addr)
			return -ENOMEM;
		if ((vma->vm_flags & flags) != flags)
			return -EACCES;
		addr = vma->vm_end;
		if (addr >= end)
			return 0;
	}
	return -ENOMEM;
}

static int text_check(struct mm_struct *mm, unsigned long start,
		      unsigned long end)
{
	return range_check(mm, start, end, VM_EXEC);
}

int reg_register(struct mm_struct *mm, unsigned long base)
{
	int ret;

	mmap_read_lock(mm);
	ret = text_check(mm, base, base + OBJ_TEXT_SIZE);
	if (!ret)
		ret = range_check(mm, OBJ_HDR(base), OBJ_DATA_END(base),
				  VM_READ);
	mmap_read_unlock(mm);
	if (ret)
		return ret;
	return unwind_user_register_eh_frame(mm, base, base + OBJ_TEXT_SIZE,
					     OBJ_HDR(base), OBJ_HDR_SIZE,
					     OBJ_HDR(base), OBJ_DATA_END(base),
					     sizeof(long), 4096, text_check);
}

int reg_unregister(struct mm_struct *mm, unsigned long base)
{
	return unwind_user_unregister(mm, base, base + OBJ_TEXT_SIZE);
}

void reg_unmap_locked(struct mm_struct *mm, unsigned long start,
		      unsigned long end)
{
	unwind_user_mm_unmap(mm, start, end);
}

int reg_lookup(struct mm_struct *mm, unsigned long pc)
{
	struct unwind_user_frame frame;

	current->mm = mm;
	return unwind_user_registry_find_frame(pc, sizeof(long), &frame);
}

/* The old registry caches nothing. */
int reg_cache_stats(struct mm_struct *mm, unsigned long *hits,
		    unsigned long *misses)
{
	return -1;
}

int reg_fork_locked(struct mm_struct *child, struct mm_struct *parent)
{
	return unwind_user_mm_dup(child, parent);
}

void reg_exit_locked(struct mm_struct *mm)
{
	unwind_user_mm_free(mm);
}

long reg_count(struct mm_struct *mm)
{
	return atomic_read(&mm->unwind_user_nr);
}

int reg_contents(struct mm_struct *mm, struct reg_item *items, int max)
{
	MA_STATE(mas, &mm->unwind_user_mt, 0, 0);
	struct unwind_user_entry *e;
	int n = 0;

	rcu_read_lock();
	mas_for_each(&mas, e, ULONG_MAX) {
		if (n < max)
			items[n] = (struct reg_item){
				.start = e->start,
				.end = e->end,
				.serial = e->eh_frame.table,
				.refs = -1,
				.keyed = mas.index == e->start &&
					 mas.last == e->end - 1,
			};
		n++;
	}
	rcu_read_unlock();
	return n;
}

/* It had none: an erase without memory left the entry in the tree. */
int reg_markers(struct mm_struct *mm)
{
	return 0;
}
