/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function symbols of an ELF file (ELF64 or ELF32), read from its own
 * symbol table: the truth the tests compare callchains with, independent
 * of any unwinder.
 */
#ifndef UNWIND_USER_ELF_SYMS_H
#define UNWIND_USER_ELF_SYMS_H

#include <stdbool.h>
#include <stdint.h>

struct elf_sym {
	uint64_t addr;
	uint64_t size;
	char *name;
};

struct elf_load {
	uint64_t vaddr, offset, filesz;
};

struct elf_syms {
	struct elf_sym *syms;
	unsigned int nr_syms;
	struct elf_load loads[16];
	unsigned int nr_loads;
	/* First word of the .probe_offsets section, or -1 (see workload.c). */
	int64_t probe_offset;
	bool elf32;		/* an ELFCLASS32 file (-m32) */
};

int elf_syms_load(struct elf_syms *es, const char *path);
/* File offset and size of section @name of @path: 0, or -1. */
int elf_section(const char *path, const char *name, int64_t *off, int64_t *size);
void elf_syms_free(struct elf_syms *es);
/* The function containing @vaddr (an ELF virtual address), or NULL. */
const struct elf_sym *elf_syms_lookup(const struct elf_syms *es, uint64_t vaddr);
const struct elf_sym *elf_syms_find(const struct elf_syms *es, const char *name);
/* File offset <-> ELF virtual address, through the PT_LOAD segments. */
int64_t elf_vaddr_to_offset(const struct elf_syms *es, uint64_t vaddr);
int64_t elf_offset_to_vaddr(const struct elf_syms *es, uint64_t offset);

/*
 * The symbols of every file a chain runs through (the program, libc, a
 * dlopen()ed library), each read once, on first use, by path.
 */
#define ELF_DSOS_MAX	32

struct elf_dso {
	char path[256];
	int status;		/* 0: loaded; -1: unreadable or without symbols */
	struct elf_syms syms;
};

struct elf_dsos {
	struct elf_dso dso[ELF_DSOS_MAX];
	unsigned int nr;
};

/* The function at file offset @offset of @path, or NULL. */
const struct elf_sym *elf_dsos_lookup(struct elf_dsos *ds, const char *path, uint64_t offset);
void elf_dsos_free(struct elf_dsos *ds);

#endif
