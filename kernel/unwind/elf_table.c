// SPDX-License-Identifier: GPL-2.0
/*
 * Find the unwind table of a mapped ELF object from its headers.
 *
 * The user unwinder meets a pc in text nobody registered; the VMA says
 * which file is mapped there and at which offset.  The file's ELF header
 * and program headers say the rest: which PT_LOAD holds that offset (and
 * so the load bias), and where PT_GNU_EH_FRAME puts .eh_frame_hdr.  The
 * headers are read through a struct freader, as build IDs are
 * (lib/buildid.c): the page cache of the file, or the kernel's copy of an
 * image such as the vDSO.  Each header is read and checked on its own, with
 * every count bounded, because the file is untrusted and may change.
 */
#include <linux/buildid.h>
#include <linux/elf.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <asm/unwind_user_dwarf.h>

#include "elf_table.h"

/* The program and section headers of either class, as the reader uses them. */
struct elf_table_phdr {
	u32	type;
	u32	flags;
	u64	offset;
	u64	vaddr;
	u64	filesz;
	u64	memsz;
};

struct elf_table_shdr {
	u32	name;
	u32	type;
	u64	flags;
	u64	addr;
	u64	offset;
	u64	size;
};

/* An object's headers, being read. */
struct elf_table_obj {
	struct freader	*r;
	const struct elf_table_map *map;
	bool		is64;
	u64		phoff;
	u64		shoff;
	unsigned int	phnum;
	unsigned int	shnum;
	unsigned int	shstrndx;
};

#ifdef CONFIG_CPU_BIG_ENDIAN
#define ELF_TABLE_DATA	ELFDATA2MSB
#else
#define ELF_TABLE_DATA	ELFDATA2LSB
#endif

/* The objects of the tasks the walk knows the word size of. */
static bool elf_table_machine_ok(bool is64, u16 machine)
{
	if (is64)
		return machine == UNWIND_USER_ELF_MACHINE;
#ifdef UNWIND_USER_ELF_MACHINE_32
	return machine == UNWIND_USER_ELF_MACHINE_32;
#else
	return false;
#endif
}

/* A mapped range: not empty, not wrapping, not at 0. */
static bool elf_table_range_ok(unsigned long start, unsigned long end)
{
	return start && start < end;
}

/* The fetch of @sz bytes at @off, or NULL with the reader's error in *@err. */
static const void *elf_table_fetch(struct elf_table_obj *o, u64 off, size_t sz,
				   int *err)
{
	const void *p;

	if (fatal_signal_pending(current)) {
		*err = -EINTR;
		return NULL;
	}
	p = freader_fetch(o->r, off, sz);
	/* Bytes not cached: the caller says why, or brings them in, once. */
	if (!p && o->r->err == -EFAULT && o->map->miss) {
		*err = o->map->miss(o->r, off, sz);
		if (*err)
			return NULL;
		p = freader_fetch(o->r, off, sz);
	}
	if (!p)
		*err = o->r->err ? o->r->err : -EIO;
	return p;
}

static int elf_table_read_ehdr(struct elf_table_obj *o)
{
	const unsigned char *ident;
	u16 type, machine, phentsize, shentsize;
	const struct elf64_hdr *e64;
	const struct elf32_hdr *e32;
	int err = 0;

	ident = elf_table_fetch(o, 0, EI_NIDENT, &err);
	if (!ident)
		return err;
	if (memcmp(ident, ELFMAG, SELFMAG) || ident[EI_DATA] != ELF_TABLE_DATA ||
	    ident[EI_VERSION] != EV_CURRENT)
		return -ENOEXEC;
	if (ident[EI_CLASS] == ELFCLASS64)
		o->is64 = true;
	else if (ident[EI_CLASS] != ELFCLASS32)
		return -ENOEXEC;

	if (o->is64) {
		e64 = elf_table_fetch(o, 0, sizeof(*e64), &err);
		if (!e64)
			return err;
		type = e64->e_type;
		machine = e64->e_machine;
		phentsize = e64->e_phentsize;
		shentsize = e64->e_shentsize;
		o->phoff = e64->e_phoff;
		o->phnum = e64->e_phnum;
		o->shoff = e64->e_shoff;
		o->shnum = e64->e_shnum;
		o->shstrndx = e64->e_shstrndx;
	} else {
		e32 = elf_table_fetch(o, 0, sizeof(*e32), &err);
		if (!e32)
			return err;
		type = e32->e_type;
		machine = e32->e_machine;
		phentsize = e32->e_phentsize;
		shentsize = e32->e_shentsize;
		o->phoff = e32->e_phoff;
		o->phnum = e32->e_phnum;
		o->shoff = e32->e_shoff;
		o->shnum = e32->e_shnum;
		o->shstrndx = e32->e_shstrndx;
	}

	if ((type != ET_EXEC && type != ET_DYN) ||
	    !elf_table_machine_ok(o->is64, machine))
		return -ENOEXEC;
	/* PN_XNUM (65535) is beyond the bound too. */
	if (phentsize != (o->is64 ? sizeof(struct elf64_phdr) :
				    sizeof(struct elf32_phdr)) ||
	    !o->phnum || o->phnum > ELF_TABLE_MAX_PHNUM)
		return -ENOEXEC;
	/* Section headers are optional: only a table without header needs them. */
	if (o->shoff &&
	    shentsize != (o->is64 ? sizeof(struct elf64_shdr) :
				    sizeof(struct elf32_shdr)))
		o->shoff = 0;
	return 0;
}

static int elf_table_read_phdr(struct elf_table_obj *o, unsigned int i,
			       struct elf_table_phdr *ph)
{
	const struct elf64_phdr *p64;
	const struct elf32_phdr *p32;
	int err = 0;

	if (o->is64) {
		p64 = elf_table_fetch(o, o->phoff + (u64)i * sizeof(*p64),
				      sizeof(*p64), &err);
		if (!p64)
			return err;
		*ph = (struct elf_table_phdr) {
			.type = p64->p_type, .flags = p64->p_flags,
			.offset = p64->p_offset, .vaddr = p64->p_vaddr,
			.filesz = p64->p_filesz, .memsz = p64->p_memsz,
		};
	} else {
		p32 = elf_table_fetch(o, o->phoff + (u64)i * sizeof(*p32),
				      sizeof(*p32), &err);
		if (!p32)
			return err;
		*ph = (struct elf_table_phdr) {
			.type = p32->p_type, .flags = p32->p_flags,
			.offset = p32->p_offset, .vaddr = p32->p_vaddr,
			.filesz = p32->p_filesz, .memsz = p32->p_memsz,
		};
	}
	/* Nothing that wraps around is mapped. */
	if (ph->offset + ph->filesz < ph->offset ||
	    ph->vaddr + ph->memsz < ph->vaddr || ph->filesz > ph->memsz)
		return ph->type == PT_LOAD || ph->type == PT_GNU_EH_FRAME ?
		       -ENOEXEC : 0;
	return 0;
}

static int elf_table_read_shdr(struct elf_table_obj *o, unsigned int i,
			       struct elf_table_shdr *sh)
{
	const struct elf64_shdr *s64;
	const struct elf32_shdr *s32;
	int err = 0;

	if (o->is64) {
		s64 = elf_table_fetch(o, o->shoff + (u64)i * sizeof(*s64),
				      sizeof(*s64), &err);
		if (!s64)
			return err;
		*sh = (struct elf_table_shdr) {
			.name = s64->sh_name, .type = s64->sh_type,
			.flags = s64->sh_flags, .addr = s64->sh_addr,
			.offset = s64->sh_offset, .size = s64->sh_size,
		};
	} else {
		s32 = elf_table_fetch(o, o->shoff + (u64)i * sizeof(*s32),
				      sizeof(*s32), &err);
		if (!s32)
			return err;
		*sh = (struct elf_table_shdr) {
			.name = s32->sh_name, .type = s32->sh_type,
			.flags = s32->sh_flags, .addr = s32->sh_addr,
			.offset = s32->sh_offset, .size = s32->sh_size,
		};
	}
	return 0;
}

/* The PT_LOAD whose file contents hold [vaddr, vaddr + size): 0 or -ENOENT. */
static int elf_table_load_of(struct elf_table_obj *o, u64 vaddr, u64 size,
			     struct elf_table_phdr *load)
{
	struct elf_table_phdr ph;
	unsigned int i;
	int ret;

	for (i = 0; i < o->phnum; i++) {
		ret = elf_table_read_phdr(o, i, &ph);
		if (ret)
			return ret;
		if (ph.type != PT_LOAD || vaddr < ph.vaddr ||
		    vaddr - ph.vaddr >= ph.filesz ||
		    size > ph.filesz - (vaddr - ph.vaddr))
			continue;
		*load = ph;
		return 0;
	}
	return -ENOENT;
}

/*
 * .eh_frame is SHT_PROGBITS, but LLVM's assembler makes it the processor
 * type SHT_X86_64_UNWIND on x86-64, which GNU ld keeps.
 */
static bool elf_table_unwind_section(u32 type)
{
#ifdef UNWIND_USER_ELF_SHT_UNWIND
	if (type == UNWIND_USER_ELF_SHT_UNWIND)
		return true;
#endif
	return type == SHT_PROGBITS;
}

/*
 * gcc -static links without --eh-frame-hdr: the section headers are all
 * that says where .eh_frame is.  The one allocated section of that name, or
 * -ENOENT (also when the section headers cannot be used: they are optional).
 */
static int elf_table_eh_frame_section(struct elf_table_obj *o,
				      struct elf_table_shdr *found)
{
	static const char name[] = ".eh_frame";
	struct elf_table_shdr sh, strtab;
	bool have = false;
	const char *s;
	unsigned int i;
	int ret = 0;

	if (!o->shoff || !o->shnum || o->shnum > ELF_TABLE_MAX_SHNUM ||
	    o->shstrndx >= o->shnum)
		return -ENOENT;
	ret = elf_table_read_shdr(o, o->shstrndx, &strtab);
	if (ret)
		return ret;
	if (strtab.type != SHT_STRTAB)
		return -ENOEXEC;

	for (i = 0; i < o->shnum; i++) {
		ret = elf_table_read_shdr(o, i, &sh);
		if (ret)
			return ret;
		if (!elf_table_unwind_section(sh.type) ||
		    !(sh.flags & SHF_ALLOC) ||
		    sh.name >= strtab.size ||
		    strtab.size - sh.name < sizeof(name))
			continue;
		s = elf_table_fetch(o, strtab.offset + sh.name, sizeof(name),
				    &ret);
		if (!s)
			return ret;
		if (memcmp(s, name, sizeof(name)))
			continue;
		/* Two would be malformed: which one would the unwinder read? */
		if (have)
			return -ENOEXEC;
		*found = sh;
		have = true;
	}
	if (!have || !found->size)
		return -ENOENT;
	return 0;
}

int elf_table_find(struct freader *r, const struct elf_table_map *map,
		   struct unwind_user_eh_frame *desc, u64 *hdr_off)
{
	struct elf_table_phdr ph, text = {}, eh = {}, load;
	struct elf_table_obj o = { .r = r, .map = map };
	struct elf_table_shdr sec = {};
	bool have_text = false, have_eh = false;
	unsigned long bias;
	unsigned int i;
	int ret;

	ret = elf_table_read_ehdr(&o);
	if (ret)
		return ret;

	for (i = 0; i < o.phnum; i++) {
		ret = elf_table_read_phdr(&o, i, &ph);
		if (ret)
			return ret;
		if (ph.type == PT_GNU_EH_FRAME) {
			/* One table per object: more is malformed. */
			if (have_eh)
				return -ENOEXEC;
			eh = ph;
			have_eh = true;
		}
		/*
		 * The executable PT_LOAD mapped at the VMA's offset; the
		 * mapping starts at the page that holds p_offset.
		 */
		if (ph.type == PT_LOAD && (ph.flags & PF_X) && !have_text &&
		    map->off >= round_down(ph.offset, PAGE_SIZE) &&
		    map->off < ph.offset + ph.filesz) {
			text = ph;
			have_text = true;
		}
	}
	if (!have_text)
		return -ENOEXEC;

	/* p_offset is mapped at p_vaddr + bias, and map->off at map->addr. */
	bias = map->addr - (unsigned long)map->off + (unsigned long)text.offset -
	       (unsigned long)text.vaddr;
	*desc = (struct unwind_user_eh_frame) {
		.text_start	= bias + (unsigned long)text.vaddr,
		.text_end	= bias + (unsigned long)(text.vaddr + text.memsz),
		.ptr_size	= o.is64 ? 8 : 4,
	};
	if (!elf_table_range_ok(desc->text_start, desc->text_end))
		return -ENOEXEC;

	if (have_eh) {
		if (!eh.memsz)
			return -ENOEXEC;
		ret = elf_table_load_of(&o, eh.vaddr, eh.memsz, &load);
		if (ret)
			return ret == -ENOENT ? -ENOEXEC : ret;
		desc->hdr_start = bias + (unsigned long)eh.vaddr;
		desc->hdr_end = bias + (unsigned long)(eh.vaddr + eh.memsz);
		desc->eh_frame_start = bias + (unsigned long)load.vaddr;
		desc->eh_frame_end = bias + (unsigned long)(load.vaddr +
							    load.filesz);
		*hdr_off = load.offset + (eh.vaddr - load.vaddr);
		/* A header at 0 would read as none; the bias may wrap. */
		if (!elf_table_range_ok(desc->hdr_start, desc->hdr_end) ||
		    !elf_table_range_ok(desc->eh_frame_start,
					desc->eh_frame_end))
			return -ENOEXEC;
		return 0;
	}

	ret = elf_table_eh_frame_section(&o, &sec);
	if (ret)
		return ret;
	ret = elf_table_load_of(&o, sec.addr, sec.size, &load);
	if (ret)
		return ret == -ENOENT ? -ENOEXEC : ret;
	desc->eh_frame_start = bias + (unsigned long)sec.addr;
	desc->eh_frame_end = bias + (unsigned long)(sec.addr + sec.size);
	if (!elf_table_range_ok(desc->eh_frame_start, desc->eh_frame_end))
		return -ENOEXEC;
	return 0;
}
