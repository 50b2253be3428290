// SPDX-License-Identifier: GPL-2.0
/* Function symbols and segments of an ELF64 or ELF32 file (see elf_syms.h). */
#include <elf.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_syms.h"

static int sym_cmp(const void *a, const void *b)
{
	const struct elf_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The whole of @path, read-only, if it can hold an ELF header; or NULL. */
static unsigned char *map_file(const char *path, struct stat *st)
{
	void *img;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, st) || st->st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return NULL;
	}
	img = mmap(NULL, st->st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	return img == MAP_FAILED ? NULL : img;
}

/*
 * An ELF32 file's headers and symbols are read into their ELF64 forms: the
 * rest of this file sees ELF64 only.  @eh gets the file header of @img
 * (@size bytes): 0, or -1 if it is not an ELF file whose program and
 * section header tables fit in it.
 */
static int get_ehdr(const unsigned char *img, size_t size, Elf64_Ehdr *eh)
{
	const Elf32_Ehdr *e32 = (const void *)img;
	size_t phsz, shsz;

	if (memcmp(img, ELFMAG, SELFMAG))
		return -1;
	if (img[EI_CLASS] == ELFCLASS64) {
		memcpy(eh, img, sizeof(*eh));
		phsz = sizeof(Elf64_Phdr);
		shsz = sizeof(Elf64_Shdr);
	} else if (img[EI_CLASS] == ELFCLASS32) {
		memset(eh, 0, sizeof(*eh));
		memcpy(eh->e_ident, e32->e_ident, EI_NIDENT);
		eh->e_phoff = e32->e_phoff;
		eh->e_shoff = e32->e_shoff;
		eh->e_phnum = e32->e_phnum;
		eh->e_shnum = e32->e_shnum;
		eh->e_shstrndx = e32->e_shstrndx;
		phsz = sizeof(Elf32_Phdr);
		shsz = sizeof(Elf32_Shdr);
	} else {
		return -1;
	}
	if (eh->e_phoff > size || eh->e_phnum * phsz > size - eh->e_phoff ||
	    eh->e_shoff > size || eh->e_shnum * shsz > size - eh->e_shoff)
		return -1;
	return 0;
}

static bool is32(const Elf64_Ehdr *eh)
{
	return eh->e_ident[EI_CLASS] == ELFCLASS32;
}

/* Program header @i (< e_phnum). */
static void get_phdr(const unsigned char *img, const Elf64_Ehdr *eh, int i, Elf64_Phdr *ph)
{
	const Elf32_Phdr *p32 = (const void *)(img + eh->e_phoff) + i * sizeof(*p32);

	if (!is32(eh)) {
		memcpy(ph, img + eh->e_phoff + i * sizeof(*ph), sizeof(*ph));
		return;
	}
	memset(ph, 0, sizeof(*ph));
	ph->p_type = p32->p_type;
	ph->p_offset = p32->p_offset;
	ph->p_vaddr = p32->p_vaddr;
	ph->p_filesz = p32->p_filesz;
	ph->p_memsz = p32->p_memsz;
	ph->p_flags = p32->p_flags;
}

/* Section header @i (< e_shnum). */
static void get_shdr(const unsigned char *img, const Elf64_Ehdr *eh, int i, Elf64_Shdr *sh)
{
	const Elf32_Shdr *s32 = (const void *)(img + eh->e_shoff) + i * sizeof(*s32);

	if (!is32(eh)) {
		memcpy(sh, img + eh->e_shoff + i * sizeof(*sh), sizeof(*sh));
		return;
	}
	memset(sh, 0, sizeof(*sh));
	sh->sh_name = s32->sh_name;
	sh->sh_type = s32->sh_type;
	sh->sh_addr = s32->sh_addr;
	sh->sh_offset = s32->sh_offset;
	sh->sh_size = s32->sh_size;
	sh->sh_link = s32->sh_link;
}

/* Symbol @i of the table at @tab. */
static void get_sym(const unsigned char *tab, bool elf32, size_t i, Elf64_Sym *sym)
{
	const Elf32_Sym *s32 = (const void *)tab + i * sizeof(*s32);

	if (!elf32) {
		memcpy(sym, tab + i * sizeof(*sym), sizeof(*sym));
		return;
	}
	memset(sym, 0, sizeof(*sym));
	sym->st_name = s32->st_name;
	sym->st_info = s32->st_info;
	sym->st_value = s32->st_value;
	sym->st_size = s32->st_size;
}

static int read_symtab(struct elf_syms *es, const unsigned char *img, size_t size,
		       bool elf32, const Elf64_Shdr *sh, const Elf64_Shdr *strsh)
{
	size_t n = sh->sh_size / (elf32 ? sizeof(Elf32_Sym) : sizeof(Elf64_Sym));

	if (sh->sh_offset > size || sh->sh_size > size - sh->sh_offset ||
	    strsh->sh_offset > size || strsh->sh_size > size - strsh->sh_offset)
		return -1;
	es->syms = realloc(es->syms, (es->nr_syms + n) * sizeof(*es->syms));
	if (!es->syms)
		return -1;
	for (size_t i = 0; i < n; i++) {
		Elf64_Sym sym;

		get_sym(img + sh->sh_offset, elf32, i, &sym);
		if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_value ||
		    sym.st_name >= strsh->sh_size)
			continue;
		es->syms[es->nr_syms].addr = sym.st_value;
		es->syms[es->nr_syms].size = sym.st_size;
		es->syms[es->nr_syms].name =
			strndup((const char *)img + strsh->sh_offset + sym.st_name,
				strsh->sh_size - sym.st_name);
		es->nr_syms++;
	}
	return 0;
}

int elf_syms_load(struct elf_syms *es, const char *path)
{
	Elf64_Shdr sh, strs, link;
	unsigned char *img;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	struct stat st;
	int ret = -1;

	memset(es, 0, sizeof(*es));
	img = map_file(path, &st);
	if (!img)
		return -1;
	if (get_ehdr(img, st.st_size, &eh))
		goto out;

	es->elf32 = is32(&eh);
	for (int i = 0; i < eh.e_phnum && es->nr_loads < 16; i++) {
		get_phdr(img, &eh, i, &ph);
		if (ph.p_type != PT_LOAD)
			continue;
		es->loads[es->nr_loads].vaddr = ph.p_vaddr;
		es->loads[es->nr_loads].offset = ph.p_offset;
		es->loads[es->nr_loads].filesz = ph.p_filesz;
		es->nr_loads++;
	}

	es->probe_offset = -1;
	if (eh.e_shstrndx < eh.e_shnum) {
		get_shdr(img, &eh, eh.e_shstrndx, &strs);
		for (int i = 0; i < eh.e_shnum; i++) {
			get_shdr(img, &eh, i, &sh);
			if (sh.sh_name >= strs.sh_size || sh.sh_size < 4 ||
			    strs.sh_offset + strs.sh_size > (size_t)st.st_size ||
			    sh.sh_offset + 4 > (size_t)st.st_size)
				continue;
			if (!strcmp((const char *)img + strs.sh_offset + sh.sh_name,
				    ".probe_offsets"))
				es->probe_offset = *(const int32_t *)(img + sh.sh_offset);
		}
	}
	for (int i = 0; i < eh.e_shnum; i++) {
		get_shdr(img, &eh, i, &sh);
		if ((sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    sh.sh_link >= eh.e_shnum)
			continue;
		get_shdr(img, &eh, sh.sh_link, &link);
		if (read_symtab(es, img, st.st_size, es->elf32, &sh, &link))
			goto out;
	}
	qsort(es->syms, es->nr_syms, sizeof(*es->syms), sym_cmp);
	ret = es->nr_syms ? 0 : -1;
out:
	munmap(img, st.st_size);
	return ret;
}

int elf_section(const char *path, const char *name, int64_t *off, int64_t *size)
{
	Elf64_Shdr sh, strs;
	unsigned char *img;
	Elf64_Ehdr eh;
	struct stat st;
	int ret = -1;

	img = map_file(path, &st);
	if (!img)
		return -1;
	if (get_ehdr(img, st.st_size, &eh) || eh.e_shstrndx >= eh.e_shnum)
		goto out;
	get_shdr(img, &eh, eh.e_shstrndx, &strs);
	if (strs.sh_offset + strs.sh_size > (size_t)st.st_size)
		goto out;
	for (int i = 0; i < eh.e_shnum; i++) {
		get_shdr(img, &eh, i, &sh);
		if (sh.sh_name >= strs.sh_size ||
		    strcmp((const char *)img + strs.sh_offset + sh.sh_name, name))
			continue;
		*off = sh.sh_offset;
		*size = sh.sh_size;
		ret = 0;
		break;
	}
out:
	munmap(img, st.st_size);
	return ret;
}

void elf_syms_free(struct elf_syms *es)
{
	for (unsigned int i = 0; i < es->nr_syms; i++)
		free(es->syms[i].name);
	free(es->syms);
	memset(es, 0, sizeof(*es));
}

/*
 * A function without a size (hand-written assembly: s390x glibc's _start)
 * covers what lies between it and the next function.
 */
const struct elf_sym *elf_syms_lookup(const struct elf_syms *es, uint64_t vaddr)
{
	const struct elf_sym *unsized = NULL;
	uint64_t next = UINT64_MAX;

	for (unsigned int i = 0; i < es->nr_syms; i++) {
		const struct elf_sym *s = &es->syms[i];

		if (vaddr >= s->addr && vaddr < s->addr + s->size)
			return s;
		if (s->addr > vaddr && s->addr < next)
			next = s->addr;
		if (!s->size && s->addr <= vaddr && (!unsized || s->addr > unsized->addr))
			unsized = s;
	}
	for (unsigned int i = 0; unsized && i < es->nr_syms; i++) {
		const struct elf_sym *s = &es->syms[i];

		/* Another function starts between it and @vaddr: not its. */
		if (s->addr > unsized->addr && s->addr <= vaddr)
			return NULL;
	}
	return unsized && vaddr < next ? unsized : NULL;
}

const struct elf_sym *elf_syms_find(const struct elf_syms *es, const char *name)
{
	for (unsigned int i = 0; i < es->nr_syms; i++)
		if (!strcmp(es->syms[i].name, name))
			return &es->syms[i];
	return NULL;
}

int64_t elf_vaddr_to_offset(const struct elf_syms *es, uint64_t vaddr)
{
	for (unsigned int i = 0; i < es->nr_loads; i++) {
		const struct elf_load *l = &es->loads[i];

		if (vaddr >= l->vaddr && vaddr < l->vaddr + l->filesz)
			return vaddr - l->vaddr + l->offset;
	}
	return -1;
}

int64_t elf_offset_to_vaddr(const struct elf_syms *es, uint64_t offset)
{
	for (unsigned int i = 0; i < es->nr_loads; i++) {
		const struct elf_load *l = &es->loads[i];

		if (offset >= l->offset && offset < l->offset + l->filesz)
			return offset - l->offset + l->vaddr;
	}
	return -1;
}

const struct elf_sym *elf_dsos_lookup(struct elf_dsos *ds, const char *path, uint64_t offset)
{
	struct elf_dso *d = NULL;
	int64_t vaddr;

	for (unsigned int i = 0; i < ds->nr && !d; i++)
		if (!strcmp(ds->dso[i].path, path))
			d = &ds->dso[i];
	if (!d) {
		if (ds->nr == ELF_DSOS_MAX || strlen(path) >= sizeof(d->path))
			return NULL;
		d = &ds->dso[ds->nr++];
		snprintf(d->path, sizeof(d->path), "%s", path);
		d->status = elf_syms_load(&d->syms, path);
	}
	if (d->status)
		return NULL;
	vaddr = elf_offset_to_vaddr(&d->syms, offset);
	return vaddr < 0 ? NULL : elf_syms_lookup(&d->syms, vaddr);
}

void elf_dsos_free(struct elf_dsos *ds)
{
	for (unsigned int i = 0; i < ds->nr; i++)
		elf_syms_free(&ds->dso[i].syms);
	ds->nr = 0;
}
