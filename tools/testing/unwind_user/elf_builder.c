// SPDX-License-Identifier: GPL-2.0
/*
 * ELF file headers for the tests of kernel/unwind/elf_table.c, written
 * field by field at the gABI's offsets (see elf_builder.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_builder.h"

static void die(const char *what)
{
	fprintf(stderr, "elf_builder: %s\n", what);
	abort();
}

/* Multi-byte fields in the byte order of this machine, at any alignment. */
static void put(struct elf_file *f, u64 off, u64 v, unsigned int size)
{
	u8 b[8];

	if (off + size > sizeof(f->data))
		die("file too large");
	if (size == 1) {
		b[0] = v;
	} else if (size == 2) {
		u16 x = v;

		memcpy(b, &x, 2);
	} else if (size == 4) {
		u32 x = v;

		memcpy(b, &x, 4);
	} else {
		memcpy(b, &v, 8);
	}
	memcpy(f->data + off, b, size);
	if (off + size > f->len)
		f->len = off + size;
}

/* An address or offset field: a word of the class. */
static void put_word(struct elf_file *f, bool is64, u64 off, u64 v)
{
	put(f, off, v, is64 ? 8 : 4);
}

void elf_spec_init(struct elf_spec *s, bool is64, u16 type, u16 machine)
{
	static const u8 magic[4] = { 0x7f, 'E', 'L', 'F' };

	memset(s, 0, sizeof(*s));
	s->is64 = is64;
	memcpy(s->ident, magic, sizeof(magic));
	s->ident[EB_EI_CLASS] = is64 ? EB_CLASS64 : EB_CLASS32;
	s->ident[EB_EI_DATA] = EB_DATA_NATIVE;
	s->ident[EB_EI_VERSION] = 1;
	s->type = type;
	s->machine = machine;
	s->version = 1;
}

unsigned int elf_add_ph(struct elf_spec *s, u32 type, u32 flags, u64 offset,
			u64 vaddr, u64 filesz, u64 memsz)
{
	if (s->nr_ph == EB_MAX_PHDRS)
		die("too many program headers");
	s->ph[s->nr_ph] = (struct eb_phdr){
		.type = type, .flags = flags, .offset = offset, .vaddr = vaddr,
		.filesz = filesz, .memsz = memsz,
		.align = type == EB_PT_LOAD ? 0x1000 : 8,
	};
	return s->nr_ph++;
}

unsigned int elf_add_sh(struct elf_spec *s, const char *name, u32 type,
			u64 flags, u64 addr, u64 offset, u64 size)
{
	if (s->nr_sh == EB_MAX_SHDRS)
		die("too many section headers");
	s->sh[s->nr_sh] = (struct eb_shdr){
		.name = name, .type = type, .flags = flags, .addr = addr,
		.offset = offset, .size = size,
	};
	return s->nr_sh++;
}

void elf_spec_layout(struct elf_spec *s)
{
	unsigned int i, strtab = 0;
	size_t n;

	s->phoff = EB_EHDR_SIZE(s->is64);
	s->ph_at = s->phoff;
	s->phentsize = EB_PHDR_SIZE(s->is64);
	s->phnum = s->nr_ph;
	s->shentsize = EB_SHDR_SIZE(s->is64);
	s->shnum = s->nr_sh;
	s->shoff = 0;
	s->shstrndx = 0;
	s->strtab_len = 0;
	if (!s->nr_sh)
		return;

	/* Section 0 has the empty name, as every string table starts. */
	s->strtab[s->strtab_len++] = 0;
	for (i = 0; i < s->nr_sh; i++) {
		if (!s->sh[i].name || !s->sh[i].name[0]) {
			s->sh[i].name_off = 0;
			continue;
		}
		n = strlen(s->sh[i].name) + 1;
		if (s->strtab_len + n > sizeof(s->strtab))
			die("string table too large");
		memcpy(s->strtab + s->strtab_len, s->sh[i].name, n);
		s->sh[i].name_off = s->strtab_len;
		s->strtab_len += n;
		if (!strcmp(s->sh[i].name, ".shstrtab"))
			strtab = i;
	}
	s->shoff = (s->phoff + (u64)s->nr_ph * s->phentsize + 7) & ~7ULL;
	s->sh_at = s->shoff;
	s->strtab_off = s->shoff + (u64)s->nr_sh * s->shentsize;
	s->shstrndx = strtab;
	if (strtab) {
		s->sh[strtab].offset = s->strtab_off;
		s->sh[strtab].size = s->strtab_len;
	}
}

static void write_phdr(struct elf_file *f, bool is64, u64 at,
		       const struct eb_phdr *p)
{
	if (is64) {
		put(f, at + 0, p->type, 4);
		put(f, at + 4, p->flags, 4);
		put(f, at + 8, p->offset, 8);
		put(f, at + 16, p->vaddr, 8);
		put(f, at + 24, p->vaddr, 8);		/* p_paddr */
		put(f, at + 32, p->filesz, 8);
		put(f, at + 40, p->memsz, 8);
		put(f, at + 48, p->align, 8);
	} else {
		put(f, at + 0, p->type, 4);
		put(f, at + 4, p->offset, 4);
		put(f, at + 8, p->vaddr, 4);
		put(f, at + 12, p->vaddr, 4);		/* p_paddr */
		put(f, at + 16, p->filesz, 4);
		put(f, at + 20, p->memsz, 4);
		put(f, at + 24, p->flags, 4);
		put(f, at + 28, p->align, 4);
	}
}

static void write_shdr(struct elf_file *f, bool is64, u64 at,
		       const struct eb_shdr *sh)
{
	u64 align = sh->type == EB_SHT_STRTAB ? 1 : 8;

	put(f, at + 0, sh->name_off, 4);
	put(f, at + 4, sh->type, 4);
	if (is64) {
		put(f, at + 8, sh->flags, 8);
		put(f, at + 16, sh->addr, 8);
		put(f, at + 24, sh->offset, 8);
		put(f, at + 32, sh->size, 8);
		put(f, at + 40, 0, 4);			/* sh_link */
		put(f, at + 44, 0, 4);			/* sh_info */
		put(f, at + 48, align, 8);
		put(f, at + 56, 0, 8);			/* sh_entsize */
	} else {
		put(f, at + 8, sh->flags, 4);
		put(f, at + 12, sh->addr, 4);
		put(f, at + 16, sh->offset, 4);
		put(f, at + 20, sh->size, 4);
		put(f, at + 24, 0, 4);
		put(f, at + 28, 0, 4);
		put(f, at + 32, align, 4);
		put(f, at + 36, 0, 4);
	}
}

void elf_spec_write(const struct elf_spec *s, struct elf_file *f)
{
	bool is64 = s->is64;
	unsigned int i;

	memset(f->data, 0, sizeof(f->data));
	f->len = 0;
	memcpy(f->data, s->ident, sizeof(s->ident));
	put(f, 16, s->type, 2);
	put(f, 18, s->machine, 2);
	put(f, 20, s->version, 4);
	put_word(f, is64, 24, 0);			/* e_entry */
	put_word(f, is64, is64 ? 32 : 28, s->phoff);
	put_word(f, is64, is64 ? 40 : 32, s->shoff);
	put(f, is64 ? 48 : 36, 0, 4);			/* e_flags */
	put(f, is64 ? 52 : 40, EB_EHDR_SIZE(is64), 2);
	put(f, is64 ? 54 : 42, s->phentsize, 2);
	put(f, is64 ? 56 : 44, s->phnum, 2);
	put(f, is64 ? 58 : 46, s->shentsize, 2);
	put(f, is64 ? 60 : 48, s->shnum, 2);
	put(f, is64 ? 62 : 50, s->shstrndx, 2);

	/* Where the headers are as laid out, whatever the fields now say. */
	for (i = 0; i < s->nr_ph; i++)
		write_phdr(f, is64, s->ph_at + (u64)i * EB_PHDR_SIZE(is64),
			   &s->ph[i]);
	if (!s->nr_sh)
		return;
	for (i = 0; i < s->nr_sh; i++)
		write_shdr(f, is64, s->sh_at + (u64)i * EB_SHDR_SIZE(is64),
			   &s->sh[i]);
	if (s->strtab_off + s->strtab_len > sizeof(f->data))
		die("file too large");
	memcpy(f->data + s->strtab_off, s->strtab, s->strtab_len);
	if (s->strtab_off + s->strtab_len > f->len)
		f->len = s->strtab_off + s->strtab_len;
}

/*
 * The program headers every dynamically linked object has besides: the
 * dynamic section at file offset @dyn_off is at @dyn_vaddr, the first
 * PT_LOAD at @base.
 */
static void add_misc(struct elf_spec *s, u64 dyn_off, u64 dyn_vaddr, u64 base)
{
	elf_add_ph(s, EB_PT_DYNAMIC, EB_PF_R | EB_PF_W, dyn_off, dyn_vaddr,
		   0x200, 0x200);
	elf_add_ph(s, EB_PT_NOTE, EB_PF_R, 0x350, base + 0x350, 0x44, 0x44);
	elf_add_ph(s, EB_PT_GNU_STACK, EB_PF_R | EB_PF_W, 0, 0, 0, 0);
	elf_add_ph(s, EB_PT_GNU_RELRO, EB_PF_R, dyn_off, dyn_vaddr, 0x3730,
		   0x3730);
}

/* libc.so.6 of Debian 12, x86-64: -z separate-code, four PT_LOADs. */
unsigned int elf_layout_pie(struct elf_spec *s, bool is64)
{
	unsigned int text;

	elf_add_ph(s, EB_PT_PHDR, EB_PF_R, 0x40, 0x40, 0x310, 0x310);
	elf_add_ph(s, EB_PT_INTERP, EB_PF_R, 0x1a1b10, 0x1a1b10, 0x1c, 0x1c);
	elf_add_ph(s, EB_PT_LOAD, EB_PF_R, 0, 0, 0x25388, 0x25388);
	text = elf_add_ph(s, EB_PT_LOAD, EB_PF_R | EB_PF_X, EB_PIE_TEXT_OFF,
			  EB_PIE_TEXT_OFF, EB_PIE_TEXT_SIZE, EB_PIE_TEXT_SIZE);
	elf_add_ph(s, EB_PT_LOAD, EB_PF_R, EB_PIE_RO_OFF, EB_PIE_RO_OFF,
		   EB_PIE_RO_SIZE, EB_PIE_RO_SIZE);
	elf_add_ph(s, EB_PT_LOAD, EB_PF_R | EB_PF_W, 0x1cf8d0, 0x1cf8d0,
		   0x4f98, 0x12680);
	add_misc(s, 0x1d2b60, 0x1d2b60, 0);
	elf_add_ph(s, EB_PT_TLS, EB_PF_R, 0x1cf8d0, 0x1cf8d0, 0x10, 0x90);
	elf_add_ph(s, EB_PT_GNU_EH_FRAME, EB_PF_R, EB_PIE_HDR_OFF,
		   EB_PIE_HDR_OFF, EB_PIE_HDR_SIZE, EB_PIE_HDR_SIZE);
	(void)is64;
	return text;
}

/*
 * An executable linked without -z separate-code: its first PT_LOAD, r-x,
 * maps the headers, text, read-only data and the tables from offset 0.
 */
unsigned int elf_layout_exec(struct elf_spec *s, bool is64)
{
	u64 base = is64 ? EB_EXEC_BASE : EB_EXEC32_BASE;
	unsigned int text;

	elf_add_ph(s, EB_PT_PHDR, EB_PF_R, 0x40, base + 0x40, 0x2a0, 0x2a0);
	elf_add_ph(s, EB_PT_INTERP, EB_PF_R, 0x2e0, base + 0x2e0, 0x1c, 0x1c);
	text = elf_add_ph(s, EB_PT_LOAD, EB_PF_R | EB_PF_X, 0, base,
			  EB_EXEC_TEXT_SIZE, EB_EXEC_TEXT_SIZE);
	elf_add_ph(s, EB_PT_LOAD, EB_PF_R | EB_PF_W, 0x9e10, base + 0xae10,
		   0x2a0, 0x2c8);
	add_misc(s, 0x9e20, base + 0xae20, base);
	elf_add_ph(s, EB_PT_GNU_EH_FRAME, EB_PF_R, EB_EXEC_HDR_OFF,
		   base + EB_EXEC_HDR_OFF, EB_EXEC_HDR_SIZE, EB_EXEC_HDR_SIZE);
	return text;
}

/* A gcc -static program (throw.cc): no PT_GNU_EH_FRAME, sections. */
unsigned int elf_layout_static(struct elf_spec *s, bool is64)
{
	u64 base = is64 ? EB_EXEC_BASE : EB_EXEC32_BASE;
	unsigned int text;

	elf_add_ph(s, EB_PT_LOAD, EB_PF_R, 0, base, 0x518, 0x518);
	text = elf_add_ph(s, EB_PT_LOAD, EB_PF_R | EB_PF_X, EB_STATIC_TEXT_OFF,
			  base + EB_STATIC_TEXT_OFF, EB_STATIC_TEXT_SIZE,
			  EB_STATIC_TEXT_SIZE);
	elf_add_ph(s, EB_PT_LOAD, EB_PF_R, EB_STATIC_RO_OFF,
		   base + EB_STATIC_RO_OFF, EB_STATIC_RO_SIZE,
		   EB_STATIC_RO_SIZE);
	elf_add_ph(s, EB_PT_LOAD, EB_PF_R | EB_PF_W, 0xbd410, base + 0xbe410,
		   0x6f40, 0xc7f8);
	elf_add_ph(s, EB_PT_NOTE, EB_PF_R, 0x270, base + 0x270, 0x30, 0x30);
	elf_add_ph(s, EB_PT_TLS, EB_PF_R, 0xbd410, base + 0xbe410, 0x20, 0x68);
	elf_add_ph(s, EB_PT_GNU_STACK, EB_PF_R | EB_PF_W, 0, 0, 0, 0);

	elf_add_sh(s, "", 0, 0, 0, 0, 0);
	elf_add_sh(s, ".note.gnu.build-id", 7, EB_SHF_ALLOC, base + 0x270,
		   0x270, 0x24);
	elf_add_sh(s, ".text", EB_SHT_PROGBITS, EB_SHF_ALLOC | EB_SHF_EXECINSTR,
		   base + 0x1100, 0x1100, 0x8bb00);
	elf_add_sh(s, ".rodata", EB_SHT_PROGBITS, EB_SHF_ALLOC,
		   base + EB_STATIC_RO_OFF, EB_STATIC_RO_OFF, 0x1c8a0);
	/* .stapsdt.base is PROGBITS and ALLOC: its name is longer. */
	elf_add_sh(s, ".stapsdt.base", EB_SHT_PROGBITS, EB_SHF_ALLOC,
		   base + 0xab3a0, 0xab3a0, 1);
	elf_add_sh(s, ".eh_frame", EB_SHT_PROGBITS, EB_SHF_ALLOC,
		   base + EB_STATIC_EH_OFF, EB_STATIC_EH_OFF, EB_STATIC_EH_SIZE);
	elf_add_sh(s, ".gcc_except_table", EB_SHT_PROGBITS, EB_SHF_ALLOC,
		   base + 0xbc520, 0xbc520, 0x5d7);
	elf_add_sh(s, ".data", EB_SHT_PROGBITS, EB_SHF_ALLOC | EB_SHF_WRITE,
		   base + 0xc2000, 0xc1000, 0x1a50);
	elf_add_sh(s, ".bss", EB_SHT_NOBITS, EB_SHF_ALLOC | EB_SHF_WRITE,
		   base + 0xc3a60, 0xc4350, 0x5840);
	elf_add_sh(s, ".comment", EB_SHT_PROGBITS, 0, 0, 0xc4350, 0x1f);
	elf_add_sh(s, ".shstrtab", EB_SHT_STRTAB, 0, 0, 0, 0);
	return text;
}
