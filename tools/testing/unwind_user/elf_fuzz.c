// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over kernel/unwind/elf_table.c: the headers of an
 * untrusted file, and a VMA that maps some offset of it.
 *
 * An input is a struct elf_fuzz_input (elf_fuzz.h) and the file.  The
 * target runs elf_table_find() as discover.c does, over lib/buildid.c's
 * reader in memory mode (freader.c), then again with the reads failing
 * from an offset the header chooses and with a fatal signal arriving after
 * a number of reads.  Anything the kernel code must never do aborts: an
 * undocumented error, a description that breaks what the code promises
 * (below), a result that depends on more than the input, a failed read or
 * a signal that changes more than the error, a fetch larger than
 * discover.c's buffer, or unbounded work.  The sanitizers catch the rest.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/buildid.h>
#include <linux/kernel.h>
#include <linux/sched/signal.h>

#include "../../../kernel/unwind/elf_table.h"
#include "elf_builder.h"
#include "elf_fuzz.h"

#define PAGE		4096UL
/* User addresses: x86-64 with 4-level page tables, s390x alike. */
#define USER_TOP	BIT(47)
/*
 * The reads of one search: the ELF header twice (its identification
 * first), the program headers, those up to the PT_LOAD of the table again;
 * or the name table's header, each section's header and name, and the
 * program headers again for the PT_LOAD of .eh_frame.
 */
#define MAX_FETCHES	(2 + ELF_TABLE_MAX_PHNUM + 1 + \
			 2 * ELF_TABLE_MAX_SHNUM + ELF_TABLE_MAX_PHNUM)

/* The header's file offset while elf_table_find() has set none. */
#define NO_HDR		U64_MAX

#define FUZZ_ASSERT(cond, fmt, ...)					\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "elf_fuzz.c:%d: %s: " fmt "\n",	\
				__LINE__, #cond, ##__VA_ARGS__);	\
			abort();					\
		}							\
	} while (0)

struct result {
	int				ret;
	struct unwind_user_eh_frame	desc;
	u64				hdr_off;
	unsigned long			fetches;
	u64				reach;
};

static void run(const char *data, size_t len, const struct elf_table_map *map,
		u64 fail_off, int fail_err, unsigned long signal_after,
		struct result *res)
{
	struct freader r;

	memset(res, 0, sizeof(*res));
	res->hdr_off = NO_HDR;
	freader_init_from_mem(&r, data, len);
	freader_fail_from(&r, fail_off, fail_err);
	r.signal_after = signal_after;
	res->ret = elf_table_find(&r, map, &res->desc, &res->hdr_off);
	freader_cleanup(&r);
	fake_fatal_signal = false;
	res->fetches = r.fetches;
	res->reach = r.reach;
	FUZZ_ASSERT(r.fetches <= MAX_FETCHES, "%lu fetches", r.fetches);
	/* discover.c reads the file through a 64-byte buffer. */
	FUZZ_ASSERT(r.max_sz <= 64, "a fetch of %zu bytes", r.max_sz);
}

static bool same(const struct result *a, const struct result *b)
{
	if (a->ret != b->ret)
		return false;
	if (a->ret)
		return true;
	return !memcmp(&a->desc, &b->desc, sizeof(a->desc)) &&
	       a->hdr_off == b->hdr_off;
}

/* What the registry takes (eh_frame_desc_valid() in registry.c). */
static bool registry_takes(const struct unwind_user_eh_frame *d)
{
	return d->text_start < d->text_end &&
	       (d->hdr_start ? d->hdr_start < d->hdr_end : !d->hdr_end) &&
	       d->eh_frame_start < d->eh_frame_end &&
	       (d->ptr_size == 4 || d->ptr_size == 8);
}

/*
 * What a description found in @data must be.  The addresses are the
 * file's plus the load bias, modulo 2^64: their differences are the
 * file's, checked here.  A table the bias puts across the top of the
 * address space, or a header at address 0, the code does not refuse
 * itself: the registry does (see test_elf_wrap in unit_elf.c).
 */
static void check_found(const char *data, size_t len,
			const struct elf_table_map *map,
			const struct result *res)
{
	const struct unwind_user_eh_frame *d = &res->desc;
	unsigned long at, eh_size = d->eh_frame_end - d->eh_frame_start;
	bool is64 = data[4] == 2, wraps;

	FUZZ_ASSERT(d->ptr_size == (is64 ? 8U : 4U), "ptr_size %u",
		    d->ptr_size);
#ifndef EB_EM_HOST32
	FUZZ_ASSERT(is64, "a 31-bit object");
#endif
	FUZZ_ASSERT(d->text_start < d->text_end, "text %#lx-%#lx",
		    d->text_start, d->text_end);
	/*
	 * The VMA maps the text: it starts in it, or before it in the page
	 * that holds the PT_LOAD's first byte.
	 */
	at = map->addr - d->text_start;
	FUZZ_ASSERT(at < d->text_end - d->text_start || -at < PAGE,
		    "VMA at %#lx, text %#lx-%#lx", map->addr, d->text_start,
		    d->text_end);
	FUZZ_ASSERT(eh_size, "empty .eh_frame at %#lx", d->eh_frame_start);
	wraps = d->eh_frame_start > d->eh_frame_end;

	if (res->hdr_off == NO_HDR) {
		/* .eh_frame from the section headers */
		FUZZ_ASSERT(!d->hdr_start && !d->hdr_end, "header %#lx-%#lx",
			    d->hdr_start, d->hdr_end);
	} else {
		/* A header, in the file contents of the PT_LOAD found. */
		FUZZ_ASSERT(d->hdr_start - d->eh_frame_start < eh_size &&
			    d->hdr_end - d->eh_frame_start <= eh_size &&
			    d->hdr_start - d->eh_frame_start <
			    d->hdr_end - d->eh_frame_start,
			    "header %#lx-%#lx outside %#lx-%#lx", d->hdr_start,
			    d->hdr_end, d->eh_frame_start, d->eh_frame_end);
		FUZZ_ASSERT(res->hdr_off + (d->hdr_end - d->hdr_start) >
			    res->hdr_off, "header at %#llx wraps",
			    (unsigned long long)res->hdr_off);
		wraps |= !d->hdr_start;
	}
	FUZZ_ASSERT(registry_takes(d) || wraps,
		    "text %#lx-%#lx header %#lx-%#lx eh_frame %#lx-%#lx",
		    d->text_start, d->text_end, d->hdr_start, d->hdr_end,
		    d->eh_frame_start, d->eh_frame_end);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int errs[] = ELF_FUZZ_ERRS;
	const struct elf_fuzz_input *in = (const void *)data;
	struct result res, again, failed;
	struct elf_table_map map;
	int err;
	char *file;
	size_t len;

	if (size < sizeof(*in))
		return 0;
	/* Its own allocation, so that ASan sees any read past it. */
	len = size - sizeof(*in);
	file = malloc(len ? len : 1);
	if (!file)
		return 0;
	memcpy(file, data + sizeof(*in), len);
	/* A VMA as the kernel has it: page-aligned, in user space. */
	map = (struct elf_table_map){
		.addr = in->addr % USER_TOP & ~(PAGE - 1),
		.off = in->off & ~(u64)(PAGE - 1),
	};

	run(file, len, &map, U64_MAX, 0, 0, &res);
	FUZZ_ASSERT(!res.ret || res.ret == -ENOEXEC || res.ret == -ENOENT ||
		    res.ret == -ERANGE || res.ret == -EOVERFLOW,
		    "%d", res.ret);
	if (!res.ret)
		check_found(file, len, &map, &res);
	run(file, len, &map, U64_MAX, 0, 0, &again);
	FUZZ_ASSERT(same(&res, &again), "not deterministic: %d, %d", res.ret,
		    again.ret);

	/* A read that fails: its error, or what the reads before it gave. */
	err = errs[in->fail_err % ARRAY_SIZE(errs)];
	run(file, len, &map, in->fail_off, err, 0, &failed);
	if (res.reach > in->fail_off)
		FUZZ_ASSERT(failed.ret == err, "failing at %#x: %d, want %d",
			    in->fail_off, failed.ret, err);
	else
		FUZZ_ASSERT(same(&res, &failed), "failing at %#x changed it",
			    in->fail_off);

	/* A fatal signal: -EINTR at the next read. */
	if (in->signal_after) {
		run(file, len, &map, U64_MAX, 0, in->signal_after, &failed);
		if (res.fetches > in->signal_after)
			FUZZ_ASSERT(failed.ret == -EINTR, "signal: %d",
				    failed.ret);
		else
			FUZZ_ASSERT(same(&res, &failed), "signal changed it");
	}
	free(file);
	return 0;
}
