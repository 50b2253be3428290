// SPDX-License-Identifier: GPL-2.0
/* See pe_map.h. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pe_map.h"

#define PAGE		4096UL
#define ROUND_UP(x)	(((x) + PAGE - 1) & ~(PAGE - 1))
#define SEC_SIZE	40
#define SYM_SIZE	18
#define SCN_EXEC	0x20000000U
#define SCN_WRITE	0x80000000U

static uint16_t rd16(const uint8_t *p) { return p[0] | p[1] << 8; }
static uint32_t rd32(const uint8_t *p) { return rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static int fail(const char *path, const char *what)
{
	fprintf(stderr, "pe_map: %s: %s\n", path, what);
	return -1;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct pe_sym *x = a, *y = b;

	return x->rva < y->rva ? -1 : x->rva > y->rva;
}

/* The section of 1-based number @nr: its VirtualAddress, or -1. */
static int64_t sec_va(const struct pe_file *pf, unsigned int nr)
{
	if (!nr || nr > pf->nr_secs)
		return -1;
	return rd32(pf->data + pf->sec_off + (nr - 1) * SEC_SIZE + 12);
}

/* The COFF symbol table: functions (type 0x20), external or static. */
static int load_syms(struct pe_file *pf, const char *path)
{
	uint32_t symtab = rd32(pf->data + pf->opt_off - PE_OPT + PE_COFF_SYMTAB);
	uint32_t nr = rd32(pf->data + pf->opt_off - PE_OPT + PE_COFF_NR_SYMS);
	uint64_t strtab = symtab + (uint64_t)nr * SYM_SIZE;

	if (!symtab || strtab + 4 > pf->size)
		return fail(path, "no COFF symbol table");
	pf->syms = calloc(nr, sizeof(*pf->syms));
	if (!pf->syms)
		return fail(path, "out of memory");
	for (uint32_t i = 0; i < nr; i++) {
		const uint8_t *s = pf->data + symtab + (uint64_t)i * SYM_SIZE;
		int16_t secnr = (int16_t)rd16(s + 12);
		uint16_t type = rd16(s + 14);
		uint8_t class = s[16];
		int64_t va = secnr > 0 ? sec_va(pf, secnr) : -1;
		struct pe_sym *sym;

		if (type == 0x20 && (class == 2 || class == 3) && va >= 0) {
			sym = &pf->syms[pf->nr_syms++];
			sym->rva = va + rd32(s + 8);
			if (rd32(s)) {
				memcpy(sym->name, s, 8);
			} else {
				uint64_t off = strtab + rd32(s + 4);

				if (off < pf->size)
					snprintf(sym->name, sizeof(sym->name), "%.*s",
						 (int)(pf->size - off), pf->data + off);
			}
		}
		i += s[17];	/* auxiliary records */
	}
	qsort(pf->syms, pf->nr_syms, sizeof(*pf->syms), cmp_sym);
	for (unsigned int i = 0; i < pf->nr_syms; i++)
		pf->syms[i].size = (i + 1 < pf->nr_syms ? pf->syms[i + 1].rva :
				    pf->image_size) - pf->syms[i].rva;
	return pf->nr_syms ? 0 : fail(path, "no function symbols");
}

int pe_file_load(struct pe_file *pf, const char *path)
{
	struct stat st;
	uint32_t pe;
	int fd;

	memset(pf, 0, sizeof(*pf));
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return fail(path, "cannot open");
	pf->size = st.st_size;
	pf->data = malloc(pf->size);
	if (!pf->data || read(fd, pf->data, pf->size) != (ssize_t)pf->size) {
		close(fd);
		return fail(path, "cannot read");
	}
	close(fd);
	if (pf->size < 0x200 || memcmp(pf->data, "MZ", 2))
		return fail(path, "not an MZ file");
	pe = rd32(pf->data + PE_LFANEW);
	if (pe > pf->size - 0x200 || memcmp(pf->data + pe, "PE\0\0", 4))
		return fail(path, "no PE signature");
	if (rd16(pf->data + pe + PE_COFF_MACHINE) != 0x8664)
		return fail(path, "not AMD64");
	pf->opt_off = pe + PE_OPT;
	if (rd16(pf->data + pf->opt_off) != 0x20b)
		return fail(path, "not PE32+");
	pf->nr_secs = rd16(pf->data + pe + PE_COFF_NR_SECS);
	pf->sec_off = pf->opt_off + rd16(pf->data + pe + PE_COFF_OPT_SIZE);
	if (pf->sec_off + (uint64_t)pf->nr_secs * SEC_SIZE > pf->size)
		return fail(path, "section table beyond the file");
	pf->image_base = rd64(pf->data + pf->opt_off + PE_OPT_IMAGE_BASE);
	pf->image_size = rd32(pf->data + pf->opt_off + PE_OPT_IMAGE_SIZE);
	pf->headers_size = rd32(pf->data + pf->opt_off + PE_OPT_HEADERS_SIZE);
	return load_syms(pf, path);
}

void pe_file_free(struct pe_file *pf)
{
	free(pf->data);
	free(pf->syms);
	memset(pf, 0, sizeof(*pf));
}

/* Import descriptors (20 bytes each) other than the terminating one? */
static int has_imports(const struct pe_file *pf, const uint8_t *image)
{
	const uint8_t *dir = pf->data + pf->opt_off + PE_OPT_DIRS + 8 * PE_DIR_IMPORT;
	uint32_t rva = rd32(dir), size = rd32(dir + 4);

	if (!size)
		return 0;
	if (rva + (uint64_t)size > pf->image_size)
		return 1;
	for (uint32_t off = 0; off + 20 <= size; off += 20)
		if (rd32(image + rva + off + 12))	/* Name */
			return 1;
	return 0;
}

void *pe_file_map(const struct pe_file *pf, const char *path)
{
	uint8_t *base = (uint8_t *)(uintptr_t)pf->image_base;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return fail(path, "cannot open"), NULL;
	/* The reservation: what no section covers stays readable and zero. */
	if (mmap(base, ROUND_UP(pf->image_size), PROT_READ,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != base)
		goto bad;
	if (mmap(base, ROUND_UP(pf->headers_size), PROT_READ,
		 MAP_PRIVATE | MAP_FIXED, fd, 0) != base)
		goto bad;
	for (unsigned int i = 0; i < pf->nr_secs; i++) {
		const uint8_t *sec = pf->data + pf->sec_off + i * SEC_SIZE;
		uint32_t vsize = rd32(sec + 8), va = rd32(sec + 12);
		uint32_t raw = rd32(sec + 16), off = rd32(sec + 20);
		uint32_t flags = rd32(sec + 36);
		size_t len = ROUND_UP(raw < vsize ? raw : vsize);
		int prot = PROT_READ;

		if (va % PAGE || off % PAGE || va + (uint64_t)vsize > pf->image_size)
			goto bad;
		if (flags & SCN_EXEC)
			prot |= PROT_EXEC;
		if (flags & SCN_WRITE)
			prot |= PROT_WRITE;
		if (len && mmap(base + va, len, prot, MAP_PRIVATE | MAP_FIXED, fd,
				off) != base + va)
			goto bad;
		/* The zero-filled rest of the section (.bss) */
		if (ROUND_UP(vsize) > len &&
		    mprotect(base + va + len, ROUND_UP(vsize) - len, prot))
			goto bad;
	}
	close(fd);
	/* A loader reads the headers it mapped, as Wine does. */
	if (base[0] != 'M' || base[1] != 'Z')
		return fail(path, "no MZ header where it is mapped"), NULL;
	if (has_imports(pf, base))
		return fail(path, "has imports: this loader resolves none"), NULL;
	return base;
bad:
	close(fd);
	fail(path, "cannot map at its image base");
	return NULL;
}

int pe_file_copy(const struct pe_file *pf, void *where)
{
	uint8_t *base = where;

	memcpy(base, pf->data, pf->headers_size);
	for (unsigned int i = 0; i < pf->nr_secs; i++) {
		const uint8_t *sec = pf->data + pf->sec_off + i * SEC_SIZE;
		uint32_t vsize = rd32(sec + 8), va = rd32(sec + 12);
		uint32_t raw = rd32(sec + 16), off = rd32(sec + 20);
		uint32_t len = raw < vsize ? raw : vsize;

		if (va + (uint64_t)vsize > pf->image_size || off + (uint64_t)len > pf->size)
			return -1;
		memcpy(base + va, pf->data + off, len);
	}
	return 0;
}

int pe_file_protect(const struct pe_file *pf, void *where)
{
	uint8_t *base = where;

	if (mprotect(base, ROUND_UP(pf->headers_size), PROT_READ))
		return -1;
	for (unsigned int i = 0; i < pf->nr_secs; i++) {
		const uint8_t *sec = pf->data + pf->sec_off + i * SEC_SIZE;
		uint32_t vsize = rd32(sec + 8), va = rd32(sec + 12);
		uint32_t flags = rd32(sec + 36);
		int prot = PROT_READ;

		if (flags & SCN_EXEC)
			prot |= PROT_EXEC;
		if (flags & SCN_WRITE)
			prot |= PROT_WRITE;
		if (va % PAGE || mprotect(base + va, ROUND_UP(vsize), prot))
			return -1;
	}
	return 0;
}

const struct pe_sym *pe_file_sym(const struct pe_file *pf, uint32_t rva)
{
	for (unsigned int i = 0; i < pf->nr_syms; i++)
		if (rva >= pf->syms[i].rva && rva - pf->syms[i].rva < pf->syms[i].size)
			return &pf->syms[i];
	return NULL;
}

int64_t pe_file_rva_to_offset(const struct pe_file *pf, uint32_t rva)
{
	for (unsigned int i = 0; i < pf->nr_secs; i++) {
		const uint8_t *sec = pf->data + pf->sec_off + i * SEC_SIZE;
		uint32_t va = rd32(sec + 12), raw = rd32(sec + 16);

		if (rva >= va && rva - va < raw)
			return rd32(sec + 20) + (rva - va);
	}
	return -1;
}

uint32_t pe_file_sym_rva(const struct pe_file *pf, const char *name)
{
	for (unsigned int i = 0; i < pf->nr_syms; i++)
		if (!strcmp(pf->syms[i].name, name))
			return pf->syms[i].rva;
	return 0;
}
