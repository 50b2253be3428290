/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hand-built ELF file headers for the tests of kernel/unwind/elf_table.c:
 * the ELF header, program headers, section headers and the section name
 * table, of either class, written at the offsets of the gABI (not through
 * <linux/elf.h>, which the code under test uses) in the byte order of the
 * machine the tests run on, which is the order the kernel reads.  Only the
 * headers are written: the reader never reads the contents of a segment.
 *
 * A test fills a struct elf_spec (elf_spec_init() and the elf_add_*()
 * helpers), lets elf_spec_layout() place everything and fill the header
 * fields, changes what it wants to break, and writes the file with
 * elf_spec_write().
 */
#ifndef _UNWIND_TEST_ELF_BUILDER_H
#define _UNWIND_TEST_ELF_BUILDER_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/types.h>
#include <asm/unwind_user_dwarf.h>

/* From the gABI and the GNU extensions. */
#define EB_ET_NONE		0
#define EB_ET_REL		1
#define EB_ET_EXEC		2
#define EB_ET_DYN		3
#define EB_ET_CORE		4
#define EB_EM_386		3
#define EB_EM_S390		22
#define EB_EM_X86_64		62
#define EB_EM_AARCH64		183
#define EB_PT_LOAD		1
#define EB_PT_DYNAMIC		2
#define EB_PT_INTERP		3
#define EB_PT_NOTE		4
#define EB_PT_PHDR		6
#define EB_PT_TLS		7
#define EB_PT_GNU_EH_FRAME	0x6474e550
#define EB_PT_GNU_STACK		0x6474e551
#define EB_PT_GNU_RELRO		0x6474e552
#define EB_PF_X			1
#define EB_PF_W			2
#define EB_PF_R			4
#define EB_SHT_PROGBITS		1
#define EB_SHT_STRTAB		3
#define EB_SHT_NOBITS		8
#define EB_SHT_X86_64_UNWIND	0x70000001
#define EB_SHF_WRITE		1
#define EB_SHF_ALLOC		2
#define EB_SHF_EXECINSTR	4
#define EB_PN_XNUM		0xffff

/* e_ident */
#define EB_EI_CLASS		4
#define EB_EI_DATA		5
#define EB_EI_VERSION		6
#define EB_CLASS32		1
#define EB_CLASS64		2
#define EB_DATA2LSB		1
#define EB_DATA2MSB		2

/*
 * The e_machine of the objects of the architecture the tests run on (of
 * its 32-bit tasks, if it has any), from the gABI: not the kernel's.
 */
#ifdef UNWIND_TEST_S390
#define EB_EM_HOST		EB_EM_S390
#elif defined(UNWIND_TEST_ARM64)
#define EB_EM_HOST		EB_EM_AARCH64
#else
#define EB_EM_HOST		EB_EM_X86_64
#define EB_EM_HOST32		EB_EM_386
#endif

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define EB_DATA_NATIVE		EB_DATA2MSB
#define EB_DATA_OTHER		EB_DATA2LSB
#else
#define EB_DATA_NATIVE		EB_DATA2LSB
#define EB_DATA_OTHER		EB_DATA2MSB
#endif

/* The sizes of the headers of each class. */
#define EB_EHDR_SIZE(is64)	((is64) ? 64 : 52)
#define EB_PHDR_SIZE(is64)	((is64) ? 56 : 32)
#define EB_SHDR_SIZE(is64)	((is64) ? 64 : 40)

#define EB_MAX_PHDRS		300
#define EB_MAX_SHDRS		300
#define EB_MAX_STRTAB		4096
#define EB_MAX_FILE		(64 * 1024)

struct eb_phdr {
	u32	type;
	u32	flags;
	u64	offset;
	u64	vaddr;
	u64	filesz;
	u64	memsz;
	u64	align;
};

struct eb_shdr {
	const char	*name;
	u32		name_off;	/* set by elf_spec_layout() */
	u32		type;
	u64		flags;
	u64		addr;
	u64		offset;
	u64		size;
};

struct elf_spec {
	bool		is64;
	u8		ident[16];
	/* The header's fields; elf_spec_layout() sets those below machine. */
	u16		type;
	u16		machine;
	u32		version;
	u64		phoff;
	u64		shoff;
	u16		phentsize;
	u16		phnum;
	u16		shentsize;
	u16		shnum;
	u16		shstrndx;
	unsigned int	nr_ph;
	unsigned int	nr_sh;
	struct eb_phdr	ph[EB_MAX_PHDRS];
	struct eb_shdr	sh[EB_MAX_SHDRS];
	/* Where the headers are written, whatever the fields above say. */
	u64		ph_at;
	u64		sh_at;
	/* The section names, written at strtab_off (elf_spec_layout()). */
	char		strtab[EB_MAX_STRTAB];
	size_t		strtab_len;
	u64		strtab_off;
};

struct elf_file {
	u8	data[EB_MAX_FILE];
	size_t	len;
};

/* An ELF header of @type for this machine's objects of the class. */
void elf_spec_init(struct elf_spec *s, bool is64, u16 type, u16 machine);
/* Append a program header; its index. */
unsigned int elf_add_ph(struct elf_spec *s, u32 type, u32 flags, u64 offset,
			u64 vaddr, u64 filesz, u64 memsz);
/* Append a section header; its index.  The name goes to the string table. */
unsigned int elf_add_sh(struct elf_spec *s, const char *name, u32 type,
			u64 flags, u64 addr, u64 offset, u64 size);
/*
 * Program headers after the ELF header, then section headers and the string
 * table (if there are sections: the one named .shstrtab is e_shstrndx and
 * says where the string table is).  The header's counts and sizes follow.
 */
void elf_spec_layout(struct elf_spec *s);
/* The file of @s, as laid out: every header, the string table. */
void elf_spec_write(const struct elf_spec *s, struct elf_file *f);

/*
 * Layouts of real objects: a shared object linked with -z separate-code
 * (four PT_LOADs, r, r-x, r, rw, as libc.so.6), an executable linked
 * without -z separate-code (text and headers in one r-x PT_LOAD, as
 * ld.so's old layout), and gcc -static (no PT_GNU_EH_FRAME: .eh_frame
 * found from the section headers).  The index of the r-x PT_LOAD.
 */
unsigned int elf_layout_pie(struct elf_spec *s, bool is64);
unsigned int elf_layout_exec(struct elf_spec *s, bool is64);
unsigned int elf_layout_static(struct elf_spec *s, bool is64);

/* Where those put the text, .eh_frame_hdr and .eh_frame (their vaddrs). */
#define EB_PIE_TEXT_OFF		0x26000UL
#define EB_PIE_TEXT_SIZE	0x1550fcUL
#define EB_PIE_RO_OFF		0x17c000UL
#define EB_PIE_RO_SIZE		0x52c31UL
#define EB_PIE_HDR_OFF		0x1a1b2cUL
#define EB_PIE_HDR_SIZE		0x7414UL

#define EB_EXEC_BASE		0x400000UL	/* 32-bit: EB_EXEC32_BASE */
#define EB_EXEC32_BASE		0x8048000UL
#define EB_EXEC_TEXT_SIZE	0x8dc5UL	/* from file offset 0 */
#define EB_EXEC_HDR_OFF		0x8c14UL	/* in the same PT_LOAD */
#define EB_EXEC_HDR_SIZE	0x1a4UL

#define EB_STATIC_TEXT_OFF	0x1000UL
#define EB_STATIC_TEXT_SIZE	0x8cc21UL
#define EB_STATIC_RO_OFF	0x8e000UL
#define EB_STATIC_RO_SIZE	0x2eaf7UL
#define EB_STATIC_EH_OFF	0xab3c0UL
#define EB_STATIC_EH_SIZE	0x11160UL

#endif
