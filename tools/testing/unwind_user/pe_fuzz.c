// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the PE unwinder (kernel/unwind/pe.c): headers,
 * function tables, UNWIND_INFO codes and epilog instructions.
 *
 * An input is a 16-byte header (struct pe_fuzz_input) and an image mapped
 * at PE_FUZZ_BASE.  The target checks the image with
 * pe_unwind_image_init(); in "raw" mode it then uses the header's table
 * and entry count whatever init said, as if user space had rewritten the
 * table after the check.  It looks up pcs around the entries the table
 * names (and a few from the header), as a return address and as the
 * thread's pc, and applies each frame to a fake stack.  Anything the
 * kernel code must never do aborts: an undocumented error, a frame it
 * cannot return, a result that depends on more than the input, a fault
 * that changes more than the error, unbounded work, a read not paid for
 * or more reads than the budget pays for.  The sanitizers catch the rest.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/unaligned.h>
#include <linux/unwind_user_registry.h>

#include "../../../kernel/unwind/pe.h"
#include "fake_user.h"
#include "pe_builder.h"
#include "pe_fuzz.h"

/*
 * Bound on the copy_from_user() calls of one lookup: 22 probes of the
 * binary search, then per UNWIND_INFO link (33 at most) its header, at
 * most 16 windows of codes and the chained entry; an epilog adds its bytes
 * and, for a jmp, a second search and two chain walks.  About 900.
 */
#define PE_FUZZ_MAX_COPIES	1200
/* Entries whose pcs are looked up, per input. */
#define PE_FUZZ_MAX_ENTRIES	16

#define FUZZ_ASSERT(cond, fmt, ...)					\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "pe_fuzz.c:%d: %s: " fmt "\n",	\
				__LINE__, #cond, ##__VA_ARGS__);	\
			abort();					\
		}							\
	} while (0)

static u64 stack[64];

static bool same(const struct pe_unwind_frame *a,
		 const struct pe_unwind_frame *b)
{
	return !memcmp(a, b, sizeof(*a));
}

static void check_frame(const struct pe_unwind_frame *f, unsigned long pc)
{
	unsigned int i;

	FUZZ_ASSERT(f->cfa_reg < 16, "pc %#lx: cfa_reg %u", pc, f->cfa_reg);
	FUZZ_ASSERT(f->flags <= 7, "pc %#lx: flags %#x", pc, f->flags);
	if (f->flags & PE_UNWIND_FRAME_MACHINE)
		FUZZ_ASSERT(f->ra_off == -40 && f->sp_off == -16, "pc %#lx", pc);
	else
		FUZZ_ASSERT(f->ra_off == -8 && !f->sp_off, "pc %#lx", pc);
	if (f->flags & PE_UNWIND_FRAME_LEAF)
		FUZZ_ASSERT(f->cfa_reg == 4 && f->cfa_off == 8 && !f->saved,
			    "pc %#lx", pc);
	/* unused slots stay zero: the frame is a cache key's value */
	for (i = 0; i < PE_UNWIND_NR_NONVOL; i++)
		if (!(f->saved & (1U << i)))
			FUZZ_ASSERT(!f->saved_off[i], "pc %#lx slot %u", pc, i);
}

/* The budget of each lookup (struct pe_fuzz_input) */
static unsigned int budget;

static int lookup(const struct pe_unwind_image *img, unsigned long pc,
		  unsigned int flags, struct pe_unwind_frame *f)
{
	unsigned int left = budget;
	int ret;

	fake_user_copies = 0;
	memset(f, 0xa5, sizeof(*f));
	ret = pe_unwind_find_frame(img, pc, flags, f, &left);
	FUZZ_ASSERT(fake_user_copies <= PE_FUZZ_MAX_COPIES,
		    "pc %#lx: %lu copies", pc, fake_user_copies);
	FUZZ_ASSERT(fake_user_copies <= budget / UNWIND_USER_READ_COST,
		    "pc %#lx: %lu copies on a budget of %u", pc,
		    fake_user_copies, budget);
	FUZZ_ASSERT(left <= budget &&
		    budget - left == fake_user_copies * UNWIND_USER_READ_COST,
		    "pc %#lx: %lu copies, %u charged", pc, fake_user_copies,
		    budget - left);
	FUZZ_ASSERT(!ret || ret == -ENOENT || ret == -EFAULT ||
		    ret == -EINVAL || ret == -EOPNOTSUPP,
		    "pc %#lx: %d", pc, ret);
	if (!ret)
		check_frame(f, pc);
	return ret;
}

static void map(const u8 *image, size_t len, const struct pe_fuzz_input *in,
		bool hole)
{
	size_t at = in->hole % len;

	fake_user_reset();
	if (hole) {
		fake_user_map(PE_FUZZ_BASE, image, at);
		fake_user_map(PE_FUZZ_BASE + at + 1, image + at + 1,
			      len - at - 1);
	} else {
		fake_user_map(PE_FUZZ_BASE, image, len);
	}
	fake_user_map(PE_FUZZ_STACK, stack, sizeof(stack));
}

static void one_pc(const struct pe_unwind_image *img, const u8 *image,
		   size_t len, const struct pe_fuzz_input *in,
		   unsigned long pc, unsigned int flags)
{
	struct pe_unwind_frame f, g;
	u64 regs[16], ip;
	unsigned int i;
	int ret, ret2;

	ret = lookup(img, pc, flags, &f);
	ret2 = lookup(img, pc, flags, &g);
	FUZZ_ASSERT(ret == ret2 && (ret || same(&f, &g)),
		    "pc %#lx: not deterministic", pc);
	if (!ret) {
		for (i = 0; i < 16; i++)
			regs[i] = PE_FUZZ_STACK + 8 * (i + 16);
		pb_apply(&f, regs, &ip);
	}

	/* A hole in the image: the same result, or a fault */
	map(image, len, in, true);
	ret2 = lookup(img, pc, flags, &g);
	FUZZ_ASSERT(ret2 == -EFAULT || (ret2 == ret && (ret || same(&f, &g))),
		    "pc %#lx: hole at %#x: %d, was %d", pc,
		    (unsigned int)(in->hole % len), ret2, ret);
	map(image, len, in, false);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct pe_fuzz_input *in = (const void *)data;
	struct pe_unwind_image img;
	enum pe_unwind_check why;
	unsigned int i, n, k;
	const u8 *image;
	size_t len;
	u8 *copy;
	int ret;

	if (size <= sizeof(*in) + 1)
		return 0;
	/* Its own allocation, so ASan sees any read past it */
	len = size - sizeof(*in);
	copy = malloc(len);
	if (!copy)
		return 0;
	memcpy(copy, data + sizeof(*in), len);
	image = copy;
	budget = in->budget ? in->budget * 4 * UNWIND_USER_READ_COST :
		 UNWIND_USER_TABLE_BUDGET;
	for (i = 0; i < ARRAY_SIZE(stack); i++)
		stack[i] = PE_FUZZ_STACK + 8 * i;
	map(image, len, in, false);

	why = PE_UNWIND_NR_CHECKS;
	ret = pe_unwind_image_init(&img, PE_FUZZ_BASE, len, &why);
	FUZZ_ASSERT(why < PE_UNWIND_NR_CHECKS, "no reason");
	FUZZ_ASSERT((ret == 0) == (why == PE_UNWIND_OK), "%d", ret);
	FUZZ_ASSERT(!ret || ret == -ENOEXEC || ret == -EOPNOTSUPP ||
		    ret == -EFAULT, "init: %d", ret);
	if (!ret)
		FUZZ_ASSERT(img.size <= len && img.nr_entries <= PE_UNWIND_MAX_ENTRIES &&
			    (u64)img.table + 12ULL * img.nr_entries <= img.size,
			    "init accepted a table outside the image");
	if (in->mode & PE_FUZZ_RAW) {
		img.base = PE_FUZZ_BASE;
		img.size = len;
		img.table = in->table;
		img.nr_entries = in->entries;
	} else if (ret) {
		free(copy);
		return 0;
	}

	/* pcs around entries spread over the table, first and last included */
	n = min_t(u32, img.nr_entries, PE_FUZZ_MAX_ENTRIES);
	for (i = 0; i < n; i++) {
		u64 at = img.table + 12ULL *
			 (n > 1 ? (u64)i * (img.nr_entries - 1) / (n - 1) : 0);
		u32 begin, end;

		if (at + 8 > len)
			break;
		begin = get_unaligned_le32(image + at);
		end = get_unaligned_le32(image + at + 4);
		for (k = 0; k < 4; k++) {
			u32 rva = k == 0 ? begin : k == 1 ? begin + 1 + in->pc % 16 :
				  k == 2 ? begin + (end - begin) / 2 : end - 1;

			one_pc(&img, image, len, in, PE_FUZZ_BASE + rva, 0);
			one_pc(&img, image, len, in, PE_FUZZ_BASE + rva,
			       PE_UNWIND_EXACT_PC);
		}
	}
	one_pc(&img, image, len, in, PE_FUZZ_BASE + in->pc, PE_UNWIND_EXACT_PC);
	one_pc(&img, image, len, in, PE_FUZZ_BASE - 1, 0);
	free(copy);
	return 0;
}
