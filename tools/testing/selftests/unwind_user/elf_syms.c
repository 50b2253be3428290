// SPDX-License-Identifier: GPL-2.0
/* Function symbols and segments of an ELF64 file (see elf_syms.h). */
#include <elf.h>
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

static int read_symtab(struct elf_syms *es, const unsigned char *img, size_t size,
		       const Elf64_Shdr *sh, const Elf64_Shdr *strsh)
{
	const Elf64_Sym *sym = (const void *)(img + sh->sh_offset);
	size_t n = sh->sh_size / sizeof(*sym);

	if (sh->sh_offset + sh->sh_size > size ||
	    strsh->sh_offset + strsh->sh_size > size)
		return -1;
	es->syms = realloc(es->syms, (es->nr_syms + n) * sizeof(*es->syms));
	if (!es->syms)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (ELF64_ST_TYPE(sym[i].st_info) != STT_FUNC || !sym[i].st_value ||
		    sym[i].st_name >= strsh->sh_size)
			continue;
		es->syms[es->nr_syms].addr = sym[i].st_value;
		es->syms[es->nr_syms].size = sym[i].st_size;
		es->syms[es->nr_syms].name =
			strndup((const char *)img + strsh->sh_offset + sym[i].st_name,
				strsh->sh_size - sym[i].st_name);
		es->nr_syms++;
	}
	return 0;
}

int elf_syms_load(struct elf_syms *es, const char *path)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	const Elf64_Phdr *ph;
	unsigned char *img;
	struct stat st;
	int ret = -1;

	memset(es, 0, sizeof(*es));
	img = map_file(path, &st);
	if (!img)
		return -1;

	eh = (const void *)img;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phoff + eh->e_phnum * sizeof(*ph) > (size_t)st.st_size ||
	    eh->e_shoff + eh->e_shnum * sizeof(*sh) > (size_t)st.st_size)
		goto out;

	ph = (const void *)(img + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum && es->nr_loads < 16; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		es->loads[es->nr_loads].vaddr = ph[i].p_vaddr;
		es->loads[es->nr_loads].offset = ph[i].p_offset;
		es->loads[es->nr_loads].filesz = ph[i].p_filesz;
		es->nr_loads++;
	}

	sh = (const void *)(img + eh->e_shoff);
	es->probe_offset = -1;
	if (eh->e_shstrndx < eh->e_shnum) {
		const Elf64_Shdr *strs = &sh[eh->e_shstrndx];

		for (int i = 0; i < eh->e_shnum; i++) {
			if (sh[i].sh_name >= strs->sh_size || sh[i].sh_size < 4 ||
			    strs->sh_offset + strs->sh_size > (size_t)st.st_size ||
			    sh[i].sh_offset + 4 > (size_t)st.st_size)
				continue;
			if (!strcmp((const char *)img + strs->sh_offset + sh[i].sh_name,
				    ".probe_offsets"))
				es->probe_offset = *(const int32_t *)(img + sh[i].sh_offset);
		}
	}
	for (int i = 0; i < eh->e_shnum; i++) {
		if ((sh[i].sh_type != SHT_SYMTAB && sh[i].sh_type != SHT_DYNSYM) ||
		    sh[i].sh_link >= eh->e_shnum)
			continue;
		if (read_symtab(es, img, st.st_size, &sh[i], &sh[sh[i].sh_link]))
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
	const Elf64_Shdr *sh, *strs;
	const Elf64_Ehdr *eh;
	unsigned char *img;
	struct stat st;
	int ret = -1;

	img = map_file(path, &st);
	if (!img)
		return -1;
	eh = (const void *)img;
	if (eh->e_shoff + eh->e_shnum * sizeof(*sh) > (size_t)st.st_size ||
	    eh->e_shstrndx >= eh->e_shnum)
		goto out;
	sh = (const void *)(img + eh->e_shoff);
	strs = &sh[eh->e_shstrndx];
	if (strs->sh_offset + strs->sh_size > (size_t)st.st_size)
		goto out;
	for (int i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strs->sh_size ||
		    strcmp((const char *)img + strs->sh_offset + sh[i].sh_name, name))
			continue;
		*off = sh[i].sh_offset;
		*size = sh[i].sh_size;
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

const struct elf_sym *elf_syms_lookup(const struct elf_syms *es, uint64_t vaddr)
{
	for (unsigned int i = 0; i < es->nr_syms; i++) {
		const struct elf_sym *s = &es->syms[i];

		if (vaddr >= s->addr && vaddr < s->addr + s->size)
			return s;
	}
	return NULL;
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
