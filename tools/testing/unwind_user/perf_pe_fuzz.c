// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over perf's PE symbol reader (tools/perf/util/symbol-pe.c):
 * the function symbols of an image (COFF symbol table, export directory,
 * sizes from .pdata) and the section list perf maps Wine's copies with.
 *
 * The reader is compiled unchanged from a copy made by the Makefile, so that
 * its "debug.h", "dso.h" and "symbol.h" are the shims in include-perf/
 * rather than perf's.  An input is a whole file.  The sanitizers catch bad
 * reads; this target aborts where the reader breaks what perf relies on: a
 * count that is not the number of symbols added, a symbol that is empty,
 * unnamed or reaches beyond 4 GiB, a text range set with no symbol, or a
 * section list longer than its array or beyond the file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "symbol-pe.c"

#define check(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "perf_pe_fuzz.c:%d: %s\n",	\
				__LINE__, #cond);			\
			abort();					\
		}							\
	} while (0)

static void check_symbols(const struct pe_file *pe, const u8 *data,
			  size_t size)
{
	struct dso dso = { .data = data, .size = size };
	struct symbol *sym, *next;
	int nr = pe__load(&dso, pe);

	check(nr >= 0);
	check((size_t)nr == dso.nr_syms);
	check(nr > 0 || (!dso.text_offset && !dso.text_end &&
			 !dso.adjust_symbols));
	for (sym = dso.syms; sym; sym = next) {
		next = sym->next;
		check(sym->start < sym->end);
		check(sym->end - sym->start <= UINT32_MAX);
		check(sym->name[0] && sym->name[0] != '.');
		check(strlen(sym->name) < size);
		check(sym->type == STT_FUNC);
		free(sym);
	}
}

static void check_image(const u8 *data, size_t size)
{
	struct dso dso = { .data = data, .size = size };
	struct pe_image image;
	u32 i;

	if (dso__read_pe_image(&dso, NULL, &image))
		return;
	check(image.nr_sects <= PE_MAX_SECTS);
	for (i = 0; i < image.nr_sects; i++) {
		const struct pe_image_sect *s = &image.sects[i];

		check(s->offset && s->size);
		check((u64)s->offset + s->size <= size);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pe_file pe;

	if (!pe__init(&pe, data, size))
		check_symbols(&pe, data, size);
	check_image(data, size);
	return 0;
}
