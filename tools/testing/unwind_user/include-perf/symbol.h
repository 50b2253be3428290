/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of perf's symbol.h that tools/perf/util/symbol-pe.c uses, for
 * perf_pe_fuzz.c.  PE_MAX_SECTS and struct pe_image are perf's own, as
 * tools/perf/util/symbol.h declares them.
 */
#ifndef PERF_PE_SHIM_SYMBOL_H
#define PERF_PE_SHIM_SYMBOL_H

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "dso.h"

struct symbol {
	struct symbol	*next;
	u64		start;
	u64		end;		/* exclusive */
	u8		binding;
	u8		type;
	char		name[];
};

static inline struct symbol *symbol__new(u64 start, u64 len, u8 binding,
					 u8 type, const char *name)
{
	size_t namelen = strlen(name) + 1;
	struct symbol *sym = malloc(sizeof(*sym) + namelen);

	if (!sym)
		return NULL;
	sym->next = NULL;
	sym->start = start;
	sym->end = len ? start + len : start;
	sym->binding = binding;
	sym->type = type;
	memcpy(sym->name, name, namelen);
	return sym;
}

static inline void symbols__insert(struct dso *dso, struct symbol *sym)
{
	sym->next = dso->syms;
	dso->syms = sym;
	dso->nr_syms++;
}

#define PE_MAX_SECTS	96	/* as tools/perf/util/symbol.h */

struct pe_image {
	u32			size;
	u32			nr_sects;
	struct pe_image_sect {
		u32		rva;
		u32		size;
		u32		offset;
	} sects[PE_MAX_SECTS];
};

int dso__load_pe_symbols(struct dso *dso, const char *debugfile);
int dso__read_pe_image(struct dso *dso, struct machine *machine,
		       struct pe_image *image);

#endif
