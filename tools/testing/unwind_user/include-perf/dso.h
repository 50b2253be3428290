/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of perf's struct dso that tools/perf/util/symbol-pe.c uses, for
 * perf_pe_fuzz.c: the symbols it adds are kept in a list, and the file's
 * data comes from the fuzzer's input.
 */
#ifndef PERF_PE_SHIM_DSO_H
#define PERF_PE_SHIM_DSO_H

#include <stdbool.h>
#include <string.h>
#include <sys/types.h>
#include <linux/types.h>

struct machine;
struct symbol;

struct dso {
	u64		text_offset;
	u64		text_end;
	bool		adjust_symbols;
	struct symbol	*syms;		/* symbols__insert() adds here */
	size_t		nr_syms;
	const u8	*data;		/* the file */
	size_t		size;
};

static inline void dso__set_text_offset(struct dso *dso, u64 val)
{
	dso->text_offset = val;
}

static inline void dso__set_text_end(struct dso *dso, u64 val)
{
	dso->text_end = val;
}

static inline void dso__set_adjust_symbols(struct dso *dso, bool val)
{
	dso->adjust_symbols = val;
}

static inline struct dso *dso__symbols(struct dso *dso)
{
	return dso;
}

/* perf demangles C++ and Rust names; the fuzzer keeps the raw ones. */
static inline char *dso__demangle_sym(struct dso *dso, int kmodule,
				      const char *elf_name)
{
	return NULL;
}

static inline ssize_t dso__data_read_offset(struct dso *dso,
					    struct machine *machine,
					    u64 offset, u8 *data, ssize_t size)
{
	if (offset >= dso->size)
		return -1;
	if ((size_t)size > dso->size - offset)
		size = dso->size - offset;
	memcpy(data, dso->data + offset, size);
	return size;
}

static inline off_t dso__data_size(struct dso *dso, struct machine *machine)
{
	return dso->size;
}

#endif
