// SPDX-License-Identifier: GPL-2.0
/*
 * Look up frames in a real ELF file with the kernel's .eh_frame code.
 *
 *	oracle [--index | --no-header] FILE < pcs
 *
 * The PT_LOAD segments of FILE are placed in the fake user address space at
 * their p_vaddr (plus a bias for ET_DYN objects, so that nothing depends on
 * being loaded at 0), PT_GNU_EH_FRAME gives .eh_frame_hdr, and each line of
 * input (a pc in hex, as in the file) is answered with one line:
 *
 *	PC ERR			for an error (ENOENT, EFAULT, EINVAL, EOPNOTSUPP)
 *	PC ok CFA RA FP		the rules, in oracle.py's notation
 *	PC ok CFA RA FP signal	the same, for a signal frame
 *
 * and, where the caller's stack pointer is not the CFA (s390x), a last
 * word "sp-160" (the caller's SP is CFA - 160).
 *
 * where a rule is "sp+8", "fp+16", "r10+0" (register + offset), "*sp+8" (the
 * value saved there), "c-8" (saved at CFA - 8), "v+8" (CFA + 8), "same" or
 * "undef".  The first line is "init ERR" or "init ok".
 *
 * --index looks up with the index the kernel builds of the header's search
 * table; --cache does too, and answers with the row the frame cache gives
 * back after the lookup stored it; --no-header registers .eh_frame alone (its section header gives
 * it), as for gcc -static programs, and looks up with the index the kernel
 * builds of it.  Each mode must agree with readelf on its own.
 */
#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include <linux/slab.h>

#include "../../../kernel/unwind/cache.h"
#include "../../../kernel/unwind/eh_frame.h"
#include "lookup.h"
#include "dwarf_regs.h"
#include "fake_user.h"

static const struct eh_frame_regs regs_x86_64 = DWARF_REGS_X86_64;
static const struct eh_frame_regs regs_i386 = DWARF_REGS_I386;
/* r15, r11, r14; the CFA is 160 bytes above the caller's r15. */
static const struct eh_frame_regs regs_s390x = DWARF_REGS_S390X;
/* sp, x29, x30; DW_CFA 0x2d is negate_ra_state. */
static const struct eh_frame_regs regs_aarch64 = DWARF_REGS_AARCH64;

struct segment {
	unsigned long vaddr, filesz, memsz;
	unsigned long offset;
	unsigned int flags;
};

static enum { MODE_TABLE, MODE_INDEX, MODE_NO_HEADER } mode;
/* --cache: answer from the frame cache, as a warm walk does. */
static bool use_cache;

/* A section header of either class. */
struct section {
	unsigned long name, addr, size, offset;
};

static int get_section(const unsigned char *file, size_t size, unsigned int i,
		       struct section *sec)
{
	if (file[EI_CLASS] == ELFCLASS64) {
		const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
		const Elf64_Shdr *sh = (const Elf64_Shdr *)(file + eh->e_shoff) + i;

		if (i >= eh->e_shnum || eh->e_shoff + (i + 1) * sizeof(*sh) > size)
			return -1;
		*sec = (struct section){ sh->sh_name, sh->sh_addr, sh->sh_size,
					 sh->sh_offset };
	} else {
		const Elf32_Ehdr *eh = (const Elf32_Ehdr *)file;
		const Elf32_Shdr *sh = (const Elf32_Shdr *)(file + eh->e_shoff) + i;

		if (i >= eh->e_shnum || eh->e_shoff + (i + 1) * sizeof(*sh) > size)
			return -1;
		*sec = (struct section){ sh->sh_name, sh->sh_addr, sh->sh_size,
					 sh->sh_offset };
	}
	return 0;
}

/* The address and size of the section named @want, from section headers. */
static int find_section(const unsigned char *file, size_t size, const char *want,
			unsigned long *addr, unsigned long *len)
{
	unsigned int i, strndx = file[EI_CLASS] == ELFCLASS64 ?
		((const Elf64_Ehdr *)file)->e_shstrndx :
		((const Elf32_Ehdr *)file)->e_shstrndx;
	struct section str, sec;

	if (get_section(file, size, strndx, &str))
		return -1;
	for (i = 0; !get_section(file, size, i, &sec); i++) {
		if (str.offset + sec.name >= size ||
		    strcmp((const char *)file + str.offset + sec.name, want))
			continue;
		*addr = sec.addr;
		*len = sec.size;
		return 0;
	}
	return -1;
}

static const char *err_name(int err)
{
	switch (err) {
	case -ENOENT: return "ENOENT";
	case -EFAULT: return "EFAULT";
	case -EINVAL: return "EINVAL";
	case -EOPNOTSUPP: return "EOPNOTSUPP";
	}
	return "E?";
}

static void fmt_reg(char *buf, const struct unwind_user_rule *r)
{
	switch (r->reg) {
	case UNWIND_USER_REG_SP:
		sprintf(buf, "sp%+d", r->off);
		break;
	case UNWIND_USER_REG_FP:
		sprintf(buf, "fp%+d", r->off);
		break;
	default:
		sprintf(buf, "r%u%+d", r->regno, r->off);
	}
}

static const char *fmt_rule(char *buf, const struct unwind_user_rule *r)
{
	switch (r->type) {
	case UNWIND_USER_RULE_RETAIN:
		return "same";
	case UNWIND_USER_RULE_UNDEFINED:
		return "undef";
	case UNWIND_USER_RULE_CFA_OFF_DEREF:
		sprintf(buf, "c%+d", r->off);
		return buf;
	case UNWIND_USER_RULE_CFA_OFF:
		sprintf(buf, "v%+d", r->off);
		return buf;
	case UNWIND_USER_RULE_REG_OFF:
		fmt_reg(buf, r);
		return buf;
	case UNWIND_USER_RULE_REG_OFF_DEREF:
		buf[0] = '*';
		fmt_reg(buf + 1, r);
		return buf;
	}
	return "?";
}

static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	void *data;
	long len = -1;

	if (f && !fseek(f, 0, SEEK_END))
		len = ftell(f);
	if (len < 0 || fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(2);
	}
	data = malloc(len);
	if (!data || fread(data, 1, len, f) != (size_t)len) {
		perror(path);
		exit(2);
	}
	fclose(f);
	*size = len;
	return data;
}

int main(int argc, char **argv)
{
	struct segment segs[32];
	unsigned char *mem[32];
	unsigned int nr_segs = 0, i, ptr_size;
	unsigned long bias = 0, hdr = 0, hdr_size = 0, eh_start = 0, eh_end = 0;
	struct unwind_user_eh_frame desc;
	unsigned long text_start = ~0UL, text_end = 0;
	const struct eh_frame_regs *regs;
	struct unwind_user_frame frame_cached;
	struct unwind_user_cache *cache = NULL;
	struct eh_frame_index *index = NULL;
	struct eh_frame_section sec;
	unsigned long lookups = 0;
	unsigned char *file;
	char line[128];
	size_t size;
	int ret;

	if (argc == 3 && !strcmp(argv[1], "--index")) {
		mode = MODE_INDEX;
		argv++;
	} else if (argc == 3 && !strcmp(argv[1], "--cache")) {
		mode = MODE_INDEX;
		use_cache = true;
		argv++;
	} else if (argc == 3 && !strcmp(argv[1], "--no-header")) {
		mode = MODE_NO_HEADER;
		argv++;
	} else if (argc != 2) {
		fprintf(stderr, "usage: %s [--index | --cache | --no-header] ELF < pcs\n",
			argv[0]);
		return 2;
	}
	file = read_file(argv[1], &size);
	if (size < sizeof(Elf32_Ehdr) || memcmp(file, ELFMAG, SELFMAG)) {
		fprintf(stderr, "%s: not ELF\n", argv[1]);
		return 2;
	}

	/* Collect the program headers of either class. */
	if (file[EI_CLASS] == ELFCLASS64) {
		Elf64_Ehdr *eh = (Elf64_Ehdr *)file;
		Elf64_Phdr *ph = (Elf64_Phdr *)(file + eh->e_phoff);

		ptr_size = 8;
		/*
		 * Read as this program's own byte order: an s390x file is
		 * checked by an s390x build of this program (under qemu).
		 */
		if (eh->e_machine == EM_X86_64)
			regs = &regs_x86_64;
		else if (eh->e_machine == EM_S390)
			regs = &regs_s390x;
		else if (eh->e_machine == EM_AARCH64)
			regs = &regs_aarch64;
		else
			return fprintf(stderr, "not x86-64/s390x/arm64 in this byte order\n"), 2;
		if (eh->e_type == ET_DYN)
			bias = 0x7f0000000000UL;
		for (i = 0; i < eh->e_phnum; i++) {
			if (ph[i].p_type == PT_GNU_EH_FRAME) {
				hdr = ph[i].p_vaddr;
				hdr_size = ph[i].p_memsz;
			}
			if (ph[i].p_type != PT_LOAD || nr_segs == 32)
				continue;
			segs[nr_segs++] = (struct segment){
				ph[i].p_vaddr, ph[i].p_filesz, ph[i].p_memsz,
				ph[i].p_offset, ph[i].p_flags,
			};
		}
	} else {
		Elf32_Ehdr *eh = (Elf32_Ehdr *)file;
		Elf32_Phdr *ph = (Elf32_Phdr *)(file + eh->e_phoff);

		ptr_size = 4;
		regs = &regs_i386;
		if (eh->e_machine != EM_386)
			return fprintf(stderr, "not i386\n"), 2;
		if (eh->e_type == ET_DYN)
			bias = 0x56555000UL;
		for (i = 0; i < eh->e_phnum; i++) {
			if (ph[i].p_type == PT_GNU_EH_FRAME) {
				hdr = ph[i].p_vaddr;
				hdr_size = ph[i].p_memsz;
			}
			if (ph[i].p_type != PT_LOAD || nr_segs == 32)
				continue;
			segs[nr_segs++] = (struct segment){
				ph[i].p_vaddr, ph[i].p_filesz, ph[i].p_memsz,
				ph[i].p_offset, ph[i].p_flags,
			};
		}
	}
	if (mode == MODE_NO_HEADER) {
		unsigned long addr, len;

		if (find_section(file, size, ".eh_frame", &addr, &len) || !len) {
			fprintf(stderr, "%s: no .eh_frame section\n", argv[1]);
			return 2;
		}
		eh_start = addr;
		eh_end = addr + len;
	} else if (!hdr_size) {
		fprintf(stderr, "%s: no PT_GNU_EH_FRAME\n", argv[1]);
		return 2;
	}

	fake_user_reset();
	for (i = 0; i < nr_segs; i++) {
		mem[i] = calloc(1, segs[i].memsz);
		if (!mem[i] || segs[i].offset + segs[i].filesz > size)
			return fprintf(stderr, "bad segment\n"), 2;
		memcpy(mem[i], file + segs[i].offset, segs[i].filesz);
		fake_user_map(bias + segs[i].vaddr, mem[i], segs[i].memsz);
		if (segs[i].flags & PF_X) {
			if (segs[i].vaddr < text_start)
				text_start = segs[i].vaddr;
			if (segs[i].vaddr + segs[i].memsz > text_end)
				text_end = segs[i].vaddr + segs[i].memsz;
		}
		/* .eh_frame is in the segment of .eh_frame_hdr (binfmt's rule) */
		if (mode != MODE_NO_HEADER && hdr >= segs[i].vaddr &&
		    hdr < segs[i].vaddr + segs[i].filesz) {
			eh_start = segs[i].vaddr;
			eh_end = segs[i].vaddr + segs[i].filesz;
		}
	}

	desc = (struct unwind_user_eh_frame) {
		.text_start = bias + text_start, .text_end = bias + text_end,
		.eh_frame_start = bias + eh_start, .eh_frame_end = bias + eh_end,
		.hdr_start = bias + hdr, .hdr_end = bias + hdr + hdr_size,
		.ptr_size = ptr_size,
	};
	if (mode == MODE_NO_HEADER) {
		desc.hdr_start = 0;
		desc.hdr_end = 0;
	}
	ret = eh_frame_section_init(&sec, &desc, NULL);
	if (!ret && mode != MODE_TABLE) {
		index = eh_frame_index_build(&sec, SIZE_MAX, NULL);
		if (IS_ERR(index))
			ret = PTR_ERR(index);
	}
	printf("init %s\n", ret ? err_name(ret) : "ok");
	if (ret)
		return 0;
	if (index)
		fprintf(stderr, "# %s: index of %zu bytes, %lu %s and %lu bytes to build\n",
			argv[1], eh_frame_index_bytes(index), fake_user_copies,
			"copy_from_user calls", fake_user_bytes);

	if (use_cache) {
		cache = unwind_user_cache_alloc();
		if (!cache)
			return fprintf(stderr, "no memory\n"), 2;
	}
	fake_user_copies = 0;
	fake_user_bytes = 0;
	while (fgets(line, sizeof(line), stdin)) {
		struct unwind_user_frame frame;
		char b1[32], b2[32], b3[32];
		unsigned long pc = strtoul(line, NULL, 16);

		lookups++;
		ret = eh_lookup(&sec, index, regs, bias + pc, &frame, NULL);
		if (ret) {
			printf("%lx %s\n", pc, err_name(ret));
			continue;
		}
		/*
		 * Through the cache: the row the lookup stored, read back, must
		 * be as right as the lookup (compared with readelf as well).
		 */
		if (use_cache) {
			unsigned int cost;

			memset(&frame_cached, 0x5a, sizeof(frame_cached));
			unwind_user_cache_insert(cache, bias + pc, ptr_size, 1, &frame, 1);
			if (!unwind_user_cache_lookup(cache, bias + pc, ptr_size, 1,
						      &frame_cached, &cost)) {
				printf("%lx ECACHE\n", pc);
				continue;
			}
			frame = frame_cached;
		}
		printf("%lx ok %s %s %s%s", pc, fmt_rule(b1, &frame.cfa),
		       fmt_rule(b2, &frame.ra), fmt_rule(b3, &frame.fp),
		       frame.signal ? " signal" : "");
		if (frame.sp_off)
			printf(" sp%+d", frame.sp_off);
		putchar('\n');
	}
	if (lookups)
		fprintf(stderr, "# %s: %lu lookups, %.1f copy_from_user calls and %.0f %s\n",
			argv[1], lookups, (double)fake_user_copies / lookups,
			(double)fake_user_bytes / lookups, "bytes each");
	for (i = 0; i < nr_segs; i++)
		free(mem[i]);
	free(file);
	if (index)
		kvfree(index);
	if (cache)
		unwind_user_cache_free(cache);
	return 0;
}
