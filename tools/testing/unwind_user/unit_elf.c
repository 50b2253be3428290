// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: where a mapped ELF object keeps its unwind table
 * (kernel/unwind/elf_table.c), from hand-built file headers (elf_builder.c)
 * read through the memory mode of lib/buildid.c's reader (freader.c).
 * Every result is checked exactly: the errno, or every field of the
 * description and the header's file offset.
 */
#include <linux/buildid.h>
#include <linux/sched/signal.h>

#include "../../../kernel/unwind/elf_table.h"
#include "elf_builder.h"
#include "elf_fuzz.h"
#include "unit.h"

/* The e_machine of this architecture's objects (elf_builder.h). */
#define MACHINE64	EB_EM_HOST
#ifdef EB_EM_HOST32
#define MACHINE32	EB_EM_HOST32
#define HAVE_32		true
#else
#define MACHINE32	EB_EM_HOST	/* 31-bit: the unwinder has none */
#define HAVE_32		false
#endif

#define PAGE		0x1000UL
/* What the header's file offset holds when elf_table_find() leaves it. */
#define NO_OFF		0x5a5a5a5a5a5a5a5aULL

const char *elf_seed_dir;

static struct elf_spec spec;
static struct elf_file file;

/* What the last find() read. */
static struct freader last;

/* A reproducible stream of page-aligned load addresses. */
static u32 rand_state = 0x2545f491;

static u32 next_rand(void)
{
	rand_state ^= rand_state << 13;
	rand_state ^= rand_state >> 17;
	rand_state ^= rand_state << 5;
	return rand_state;
}

/* Where ld.so puts an object of the class: below the stack, page-aligned. */
static unsigned long random_base(bool is64)
{
	if (is64)
		return 0x7f0000000000UL + (unsigned long)(next_rand() % 0x1000000) *
		       PAGE;
	return 0xf7000000UL - (unsigned long)(next_rand() % 0x10000) * PAGE;
}

/* The file @f, as the fuzz target takes it, for its seed corpus. */
static void write_seed(const struct elf_file *f, unsigned long addr, u64 off)
{
	static unsigned int nr;
	/* Reads that fail, and signals, somewhere in some of them. */
	struct elf_fuzz_input in = {
		.addr = addr, .off = off,
		.fail_off = nr % 3 ? ~0U : nr * 37 % 2048,
		.fail_err = nr % 5, .signal_after = nr % 4 ? 0 : nr % 13,
	};
	char path[4096];
	FILE *out;

	snprintf(path, sizeof(path), "%s/unit-%04u", elf_seed_dir, nr++);
	out = fopen(path, "wb");
	if (!out || fwrite(&in, sizeof(in), 1, out) != 1 ||
	    fwrite(f->data, 1, f->len, out) != f->len || fclose(out)) {
		perror(path);
		exit(1);
	}
}

/*
 * elf_table_find() over @f, whose offset @off a VMA maps at @addr; a fetch
 * that reaches @fail_off fails with @fail_err.
 */
static int find_failing(const struct elf_file *f, unsigned long addr, u64 off,
			u64 fail_off, int fail_err,
			struct unwind_user_eh_frame *desc, u64 *hdr_off)
{
	struct elf_table_map map = { .addr = addr, .off = off };
	int ret;

	memset(desc, 0x5a, sizeof(*desc));
	*hdr_off = NO_OFF;
	freader_init_from_mem(&last, (const char *)f->data, f->len);
	freader_fail_from(&last, fail_off, fail_err);
	ret = elf_table_find(&last, &map, desc, hdr_off);
	freader_cleanup(&last);
	/* discover.c reads a file through a buffer of 64 bytes. */
	CHECK(last.max_sz <= 64, "a fetch of %zu bytes", last.max_sz);
	if (elf_seed_dir && fail_off == U64_MAX)
		write_seed(f, addr, off);
	return ret;
}

static int find(const struct elf_file *f, unsigned long addr, u64 off,
		struct unwind_user_eh_frame *desc, u64 *hdr_off)
{
	return find_failing(f, addr, off, U64_MAX, 0, desc, hdr_off);
}

/* The spec as laid out, written to the file. */
static void write_file(void)
{
	elf_spec_write(&spec, &file);
}

static void expect_err_at(int line, unsigned long addr, u64 off, int err)
{
	struct unwind_user_eh_frame desc;
	u64 hdr_off;
	int ret;

	write_file();
	ret = find(&file, addr, off, &desc, &hdr_off);
	if (ret != err)
		fail(line, "map %#llx at %#lx: got %s, want %s",
		     (unsigned long long)off, addr, err_name(ret), err_name(err));
	else if (hdr_off != NO_OFF)
		fail(line, "failed, and set the header offset");
}

#define EXPECT_FIND_ERR(addr, off, err)	expect_err_at(__LINE__, addr, off, err)

struct want {
	unsigned long	text, text_size;
	unsigned long	hdr, hdr_size;	/* hdr 0: none */
	unsigned long	eh, eh_size;
	unsigned int	ptr_size;
	u64		hdr_off;
};

static bool desc_is(const struct unwind_user_eh_frame *d, u64 hdr_off,
		    const struct want *w)
{
	return d->text_start == w->text &&
	       d->text_end == w->text + w->text_size &&
	       d->hdr_start == w->hdr &&
	       d->hdr_end == (w->hdr ? w->hdr + w->hdr_size : 0) &&
	       d->eh_frame_start == w->eh &&
	       d->eh_frame_end == w->eh + w->eh_size &&
	       d->ptr_size == w->ptr_size &&
	       (!w->hdr || hdr_off == w->hdr_off);
}

static void print_desc(int line, const char *what,
		       const struct unwind_user_eh_frame *d, u64 hdr_off)
{
	fail(line, "%s: text %#lx-%#lx hdr %#lx-%#lx eh_frame %#lx-%#lx ptr %u, header at %#llx",
	     what, d->text_start, d->text_end, d->hdr_start, d->hdr_end,
	     d->eh_frame_start, d->eh_frame_end, d->ptr_size,
	     (unsigned long long)hdr_off);
}

static void expect_found_at(int line, unsigned long addr, u64 off,
			    const struct want *w)
{
	struct unwind_user_eh_frame desc;
	struct unwind_user_eh_frame want = {
		.text_start = w->text, .text_end = w->text + w->text_size,
		.hdr_start = w->hdr, .hdr_end = w->hdr ? w->hdr + w->hdr_size : 0,
		.eh_frame_start = w->eh, .eh_frame_end = w->eh + w->eh_size,
		.ptr_size = w->ptr_size,
	};
	u64 hdr_off;
	int ret;

	write_file();
	ret = find(&file, addr, off, &desc, &hdr_off);
	if (ret) {
		fail(line, "map %#llx at %#lx: got %s, want 0",
		     (unsigned long long)off, addr, err_name(ret));
		return;
	}
	if (!desc_is(&desc, hdr_off, w)) {
		print_desc(line, "got", &desc, hdr_off);
		print_desc(line, "want", &want, w->hdr ? w->hdr_off : NO_OFF);
	}
}

#define EXPECT_FOUND(addr, off, w)	expect_found_at(__LINE__, addr, off, w)

/* The table of elf_layout_pie() loaded at @base. */
static struct want pie_want(unsigned long base, bool is64)
{
	return (struct want){
		.text = base + EB_PIE_TEXT_OFF, .text_size = EB_PIE_TEXT_SIZE,
		.hdr = base + EB_PIE_HDR_OFF, .hdr_size = EB_PIE_HDR_SIZE,
		.eh = base + EB_PIE_RO_OFF, .eh_size = EB_PIE_RO_SIZE,
		.ptr_size = is64 ? 8 : 4, .hdr_off = EB_PIE_HDR_OFF,
	};
}

static unsigned int pie_spec(bool is64)
{
	unsigned int text;

	elf_spec_init(&spec, is64, EB_ET_DYN, is64 ? MACHINE64 : MACHINE32);
	text = elf_layout_pie(&spec, is64);
	elf_spec_layout(&spec);
	return text;
}

static unsigned int exec_spec(bool is64)
{
	unsigned int text;

	elf_spec_init(&spec, is64, EB_ET_EXEC, is64 ? MACHINE64 : MACHINE32);
	text = elf_layout_exec(&spec, is64);
	elf_spec_layout(&spec);
	return text;
}

static unsigned int static_spec(bool is64)
{
	unsigned int text;

	elf_spec_init(&spec, is64, EB_ET_EXEC, is64 ? MACHINE64 : MACHINE32);
	text = elf_layout_static(&spec, is64);
	elf_spec_layout(&spec);
	return text;
}

static unsigned long exec_base(bool is64)
{
	return is64 ? EB_EXEC_BASE : EB_EXEC32_BASE;
}

static struct want static_want(bool is64)
{
	unsigned long base = exec_base(is64);

	return (struct want){
		.text = base + EB_STATIC_TEXT_OFF,
		.text_size = EB_STATIC_TEXT_SIZE,
		.eh = base + EB_STATIC_EH_OFF, .eh_size = EB_STATIC_EH_SIZE,
		.ptr_size = is64 ? 8 : 4,
	};
}

/* The index of the section named @name. */
static unsigned int sec_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < spec.nr_sh; i++)
		if (spec.sh[i].name && !strcmp(spec.sh[i].name, name))
			return i;
	fprintf(stderr, "no section named %s\n", name);
	abort();
}

/* Would the registry take @d?  As eh_frame_desc_valid() in registry.c */
static bool registry_takes(const struct unwind_user_eh_frame *d)
{
	return d->text_start < d->text_end &&
	       (d->hdr_start ? d->hdr_start < d->hdr_end : !d->hdr_end) &&
	       d->eh_frame_start < d->eh_frame_end &&
	       (d->ptr_size == 4 || d->ptr_size == 8);
}

/* The index of the PT_LOAD at @vaddr. */
static unsigned int load_at(u64 vaddr)
{
	unsigned int i;

	for (i = 0; i < spec.nr_ph; i++)
		if (spec.ph[i].type == EB_PT_LOAD && spec.ph[i].vaddr == vaddr)
			return i;
	fprintf(stderr, "no PT_LOAD at %#llx\n", (unsigned long long)vaddr);
	abort();
}

/* The classes this architecture's tasks have. */
static unsigned int nr_classes(void)
{
	return HAVE_32 ? 2 : 1;
}

/* ------------------------------------------------------------------ */
/* What is found */

/*
 * A shared object as ld.so maps it, -z separate-code: the r-x PT_LOAD is
 * not at file offset 0, and the load bias comes from where its VMA is.
 * Also a VMA that maps only a later part of the text (mprotect() split
 * it), and the last page of the text.
 */
static void test_elf_pie(void)
{
	unsigned long base, page;
	unsigned int c, i;
	struct want w;

	for (c = 0; c < nr_classes(); c++) {
		bool is64 = c == 0;

		pie_spec(is64);
		for (i = 0; i < 16; i++) {
			base = random_base(is64);
			w = pie_want(base, is64);
			EXPECT_FOUND(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF, &w);
			page = EB_PIE_TEXT_OFF + (next_rand() %
				(EB_PIE_TEXT_SIZE / PAGE)) * PAGE;
			EXPECT_FOUND(base + page, page, &w);
			page = round_down(EB_PIE_TEXT_OFF + EB_PIE_TEXT_SIZE - 1,
					  PAGE);
			EXPECT_FOUND(base + page, page, &w);
		}
		/* The first page past the text, and the r PT_LOADs. */
		base = random_base(is64);
		EXPECT_FIND_ERR(base + EB_PIE_RO_OFF, EB_PIE_RO_OFF, -ENOEXEC);
		EXPECT_FIND_ERR(base, 0, -ENOEXEC);
		EXPECT_FIND_ERR(base + 0x1cf000, 0x1cf000, -ENOEXEC);
		EXPECT_FIND_ERR(base + 0x10000000, 0x10000000, -ENOEXEC);
	}
}

UNIT_TEST(test_elf_pie, "elf: a shared object, -z separate-code",
	  BIT(MODE_TABLE))

/*
 * A text PT_LOAD whose file offset is not page-aligned: its VMA starts at
 * the page that holds p_offset, and p_vaddr differs from p_offset.  The
 * bias is where the VMA is, less the page's offset in the file.
 */
static void test_elf_unaligned_text(void)
{
	unsigned long base;
	unsigned int c, text;
	struct want w;

	for (c = 0; c < nr_classes(); c++) {
		bool is64 = c == 0;

		text = pie_spec(is64);
		spec.ph[text].offset = 0x25a40;
		spec.ph[text].vaddr = 0x26a40;
		spec.ph[text].filesz = 0x1000;
		spec.ph[text].memsz = 0x1000;
		base = random_base(is64);
		w = pie_want(base, is64);
		w.text = base + 0x26a40;
		w.text_size = 0x1000;
		EXPECT_FOUND(base + 0x26000, 0x25000, &w);
		EXPECT_FOUND(base + 0x27000, 0x26000, &w);
		/* The page before, which the r PT_LOAD ends in. */
		EXPECT_FIND_ERR(base + 0x25000, 0x24000, -ENOEXEC);
	}
}

UNIT_TEST(test_elf_unaligned_text, "elf: text at an unaligned file offset",
	  BIT(MODE_TABLE))

/*
 * An executable (ET_EXEC, bias 0) linked without -z separate-code: one
 * r-x PT_LOAD from file offset 0 holds the headers, the text and the
 * tables.
 */
static void test_elf_exec(void)
{
	unsigned long base;
	unsigned int c;
	struct want w;

	for (c = 0; c < nr_classes(); c++) {
		bool is64 = c == 0;

		base = exec_base(is64);
		exec_spec(is64);
		w = (struct want){
			.text = base, .text_size = EB_EXEC_TEXT_SIZE,
			.hdr = base + EB_EXEC_HDR_OFF,
			.hdr_size = EB_EXEC_HDR_SIZE,
			.eh = base, .eh_size = EB_EXEC_TEXT_SIZE,
			.ptr_size = is64 ? 8 : 4, .hdr_off = EB_EXEC_HDR_OFF,
		};
		EXPECT_FOUND(base, 0, &w);
		EXPECT_FOUND(base + 0x8000, 0x8000, &w);
		EXPECT_FIND_ERR(base + 0x9000, 0x9000, -ENOEXEC);
	}
}

UNIT_TEST(test_elf_exec, "elf: an executable, one r-x PT_LOAD",
	  BIT(MODE_TABLE))

/*
 * gcc -static links no .eh_frame_hdr: .eh_frame is found by its section
 * header, as ET_EXEC and as a static PIE (ET_DYN, loaded anywhere).
 */
static void test_elf_static(void)
{
	unsigned long base, bias;
	unsigned int c;
	struct want w;

	for (c = 0; c < nr_classes(); c++) {
		bool is64 = c == 0;

		base = exec_base(is64);
		static_spec(is64);
		w = static_want(is64);
		EXPECT_FOUND(base + EB_STATIC_TEXT_OFF, EB_STATIC_TEXT_OFF, &w);
		EXPECT_FOUND(base + 0x8d000, 0x8d000, &w);
		EXPECT_FIND_ERR(base + EB_STATIC_RO_OFF, EB_STATIC_RO_OFF,
				-ENOEXEC);

		spec.type = EB_ET_DYN;
		bias = random_base(is64) - base;
		w.text += bias;
		w.eh += bias;
		EXPECT_FOUND(bias + base + EB_STATIC_TEXT_OFF,
			     EB_STATIC_TEXT_OFF, &w);
	}
}

UNIT_TEST(test_elf_static, "elf: gcc -static, .eh_frame without header",
	  BIT(MODE_TABLE))

/*
 * The order of the program headers does not matter; the PF_X PT_LOAD
 * found is the one that holds the offset, not the first one; a header at
 * the very end of its PT_LOAD's file contents is in it.  Program headers
 * of other types are not checked: one that wraps around is no concern.
 */
static void test_elf_phdr_order(void)
{
	unsigned long base = random_base(true);
	struct eb_phdr eh;
	struct want w = pie_want(base, true);
	unsigned int text, ro;

	text = pie_spec(true);
	eh = spec.ph[spec.nr_ph - 1];
	memmove(&spec.ph[1], &spec.ph[0], (spec.nr_ph - 1) * sizeof(eh));
	spec.ph[0] = eh;
	EXPECT_FOUND(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF, &w);

	/* A second r-x PT_LOAD after the text, as some linkers make. */
	text = pie_spec(true);
	spec.ph[text].filesz = 0x100000;
	spec.ph[text].memsz = 0x100000;
	elf_add_ph(&spec, EB_PT_LOAD, EB_PF_R | EB_PF_X, 0x126000, 0x126000,
		   0x550fc, 0x550fc);
	elf_spec_layout(&spec);
	w.text_size = 0x100000;
	EXPECT_FOUND(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF, &w);
	EXPECT_FOUND(base + 0x125000, 0x125000, &w);
	w.text = base + 0x126000;
	w.text_size = 0x550fc;
	EXPECT_FOUND(base + 0x126000, 0x126000, &w);

	/* The header ends where the r PT_LOAD's file contents end. */
	pie_spec(true);
	ro = load_at(EB_PIE_RO_OFF);
	spec.ph[spec.nr_ph - 1].vaddr = EB_PIE_RO_OFF + EB_PIE_RO_SIZE - 0x10;
	spec.ph[spec.nr_ph - 1].offset = EB_PIE_RO_OFF + EB_PIE_RO_SIZE - 0x10;
	spec.ph[spec.nr_ph - 1].filesz = 0x10;
	spec.ph[spec.nr_ph - 1].memsz = 0x10;
	w = pie_want(base, true);
	w.hdr = base + EB_PIE_RO_OFF + EB_PIE_RO_SIZE - 0x10;
	w.hdr_size = 0x10;
	w.hdr_off = EB_PIE_RO_OFF + EB_PIE_RO_SIZE - 0x10;
	EXPECT_FOUND(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF, &w);
	/* ... and where it starts, also when p_vaddr is not p_offset. */
	spec.ph[ro].vaddr += 0x10000;
	spec.ph[spec.nr_ph - 1].vaddr = EB_PIE_RO_OFF + 0x10000;
	spec.ph[spec.nr_ph - 1].filesz = EB_PIE_RO_SIZE;
	spec.ph[spec.nr_ph - 1].memsz = EB_PIE_RO_SIZE;
	w.hdr = base + EB_PIE_RO_OFF + 0x10000;
	w.hdr_size = EB_PIE_RO_SIZE;
	w.eh += 0x10000;
	w.hdr_off = EB_PIE_RO_OFF;
	EXPECT_FOUND(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF, &w);

	pie_spec(true);
	elf_add_ph(&spec, EB_PT_NOTE, EB_PF_R, ~0ULL - 4, ~0ULL - 4, 0x10,
		   0x8);
	elf_spec_layout(&spec);
	w = pie_want(base, true);
	EXPECT_FOUND(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF, &w);
}

UNIT_TEST(test_elf_phdr_order, "elf: which program headers count",
	  BIT(MODE_TABLE))

/* ------------------------------------------------------------------ */
/* What is refused */

/* Not an ELF object of this machine's kind: the identification. */
static void test_elf_ident(void)
{
	static const struct {
		unsigned int	at;
		u8		val;
	} bad[] = {
		{ 0, 0x7e }, { 1, 'e' }, { 2, 'l' }, { 3, 'f' },
		{ EB_EI_CLASS, 0 }, { EB_EI_CLASS, 3 }, { EB_EI_CLASS, 0xff },
		{ EB_EI_DATA, 0 }, { EB_EI_DATA, EB_DATA_OTHER },
		{ EB_EI_DATA, 3 },
		{ EB_EI_VERSION, 0 }, { EB_EI_VERSION, 2 },
	};
	unsigned long base = random_base(true);
	unsigned int c, i;

	for (c = 0; c < nr_classes(); c++) {
		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			pie_spec(c == 0);
			spec.ident[bad[i].at] = bad[i].val;
			EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
					-ENOEXEC);
		}
	}
	/* The other class's header: its fields are elsewhere. */
	pie_spec(true);
	spec.ident[EB_EI_CLASS] = EB_CLASS32;
	EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF, -ENOEXEC);
}

UNIT_TEST(test_elf_ident, "elf: magic, class, byte order, version",
	  BIT(MODE_TABLE))

static void test_elf_machine_type(void)
{
	static const u16 bad_types[] = {
		EB_ET_NONE, EB_ET_REL, EB_ET_CORE, 0xfe00, 0xffff,
	};
	/* The one of this architecture is skipped. */
	static const u16 bad64[] = {
		0, EB_EM_386, EB_EM_AARCH64, EB_EM_X86_64, EB_EM_S390,
	};
	/* x32 is ELFCLASS32 with EM_X86_64: not an i386 object. */
	static const u16 bad32[] = {
		0, EB_EM_X86_64, EB_EM_AARCH64, EB_EM_S390,
	};
	unsigned long base = random_base(true);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_types); i++) {
		pie_spec(true);
		spec.type = bad_types[i];
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);
	}
	for (i = 0; i < ARRAY_SIZE(bad64); i++) {
		if (bad64[i] == MACHINE64)
			continue;
		pie_spec(true);
		spec.machine = bad64[i];
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);
	}
	for (i = 0; i < ARRAY_SIZE(bad32); i++) {
		pie_spec(false);
		spec.machine = bad32[i];
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);
	}
	/* Without 32-bit tasks, no ELFCLASS32 object has a table to use. */
	if (!HAVE_32) {
		pie_spec(false);
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);
	}
}

UNIT_TEST(test_elf_machine_type, "elf: machine and type",
	  BIT(MODE_TABLE))

/* The program header table: entry size, count, where it is. */
static void test_elf_phdr_table(void)
{
	unsigned long base = random_base(true);
	unsigned int c, i, text;
	struct want w;

	for (c = 0; c < nr_classes(); c++) {
		bool is64 = c == 0;
		u16 size = EB_PHDR_SIZE(is64), other = EB_PHDR_SIZE(!is64);
		const u16 sizes[] = { 0, size - 1, size + 1, other, 0xffff };
		const u16 counts[] = { 0, 257, EB_PN_XNUM };

		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			pie_spec(is64);
			spec.phentsize = sizes[i];
			EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF,
					EB_PIE_TEXT_OFF, -ENOEXEC);
		}
		for (i = 0; i < ARRAY_SIZE(counts); i++) {
			pie_spec(is64);
			spec.phnum = counts[i];
			EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF,
					EB_PIE_TEXT_OFF, -ENOEXEC);
		}

		/* 256 program headers, the text's last: the bound. */
		w = pie_want(base, is64);
		text = pie_spec(is64);
		while (spec.nr_ph < 255)
			elf_add_ph(&spec, EB_PT_NOTE, EB_PF_R, 0x350, 0x350,
				   0x20, 0x20);
		elf_add_ph(&spec, EB_PT_LOAD, spec.ph[text].flags,
			   spec.ph[text].offset, spec.ph[text].vaddr,
			   spec.ph[text].filesz, spec.ph[text].memsz);
		spec.ph[text].flags = EB_PF_R;
		elf_spec_layout(&spec);
		EXPECT_FOUND(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF, &w);
		/*
		 * Bounded work: the ELF header (its identification first),
		 * every program header, then those up to the PT_LOAD that
		 * holds the table's header.
		 */
		CHECK(last.fetches == 2 + 256 + load_at(EB_PIE_RO_OFF) + 1,
		      "%lu fetches", last.fetches);

		/* Past the end of the file: the reader says so. */
		pie_spec(is64);
		write_file();
		file.len -= 1;
		{
			struct unwind_user_eh_frame desc;
			u64 hdr_off;
			int ret;

			/* The last byte of the file is in the last header. */
			ret = find(&file, base + EB_PIE_TEXT_OFF,
				   EB_PIE_TEXT_OFF, &desc, &hdr_off);
			CHECK(ret == -ERANGE, "a file cut short: %s",
			      err_name(ret));
		}
		pie_spec(is64);
		spec.phoff = 0xff00;
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ERANGE);
		pie_spec(is64);
		spec.phoff = is64 ? ~0ULL - 0x10 : 0xfffffff0;
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				is64 ? -EOVERFLOW : -ERANGE);
	}

	/* Shorter than the identification, than the ELF header. */
	pie_spec(true);
	write_file();
	for (i = 0; i < 3; i++) {
		static const size_t lens[] = { 0, 15, 63 };
		struct unwind_user_eh_frame desc;
		u64 hdr_off;
		int ret;

		file.len = lens[i];
		ret = find(&file, base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
			   &desc, &hdr_off);
		CHECK(ret == -ERANGE, "a file of %zu bytes: %s", lens[i],
		      err_name(ret));
	}
}

UNIT_TEST(test_elf_phdr_table, "elf: the program header table",
	  BIT(MODE_TABLE))

/* Program headers that do not fit together. */
static void test_elf_phdr_values(void)
{
	unsigned long base = random_base(true);
	unsigned int c, text, eh, rw;

	for (c = 0; c < nr_classes(); c++) {
		bool is64 = c == 0;

		/* Two tables: which would the unwinder read? */
		pie_spec(is64);
		eh = spec.nr_ph - 1;
		elf_add_ph(&spec, EB_PT_GNU_EH_FRAME, EB_PF_R,
			   spec.ph[eh].offset, spec.ph[eh].vaddr,
			   spec.ph[eh].filesz, spec.ph[eh].memsz);
		elf_spec_layout(&spec);
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);

		/* The header outside the file contents of every PT_LOAD. */
		pie_spec(is64);
		rw = load_at(0x1cf8d0);
		spec.ph[eh].vaddr = spec.ph[rw].vaddr + spec.ph[rw].filesz;
		spec.ph[eh].memsz = 0x100;
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);
		spec.ph[eh].vaddr = EB_PIE_RO_OFF + EB_PIE_RO_SIZE - 0x10;
		spec.ph[eh].memsz = 0x11;
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);
		spec.ph[eh].vaddr = EB_PIE_RO_OFF - 0x10;
		spec.ph[eh].memsz = 0x20;
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);
		spec.ph[eh].vaddr = 0x10000000;
		spec.ph[eh].memsz = 0x20;
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);

		/* An empty header; one with more in the file than in memory. */
		pie_spec(is64);
		spec.ph[eh].memsz = 0;
		spec.ph[eh].filesz = 0;
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);
		pie_spec(is64);
		spec.ph[eh].filesz = spec.ph[eh].memsz + 1;
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);

		/* A PT_LOAD with more in the file than in memory. */
		text = pie_spec(is64);
		spec.ph[text].filesz = spec.ph[text].memsz + 1;
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);
		pie_spec(is64);
		spec.ph[rw].filesz = spec.ph[rw].memsz + 1;
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);

		/* No PF_X PT_LOAD there: r--, or nothing in the file. */
		text = pie_spec(is64);
		spec.ph[text].flags = EB_PF_R;
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);
		text = pie_spec(is64);
		spec.ph[text].filesz = 0;
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);
		text = pie_spec(is64);
		spec.ph[text].type = EB_PT_NOTE;
		EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF,
				-ENOEXEC);
	}
}

UNIT_TEST(test_elf_phdr_values, "elf: inconsistent program headers",
	  BIT(MODE_TABLE))

/* Sizes that wrap around the address space or the file. */
static void test_elf_wrap(void)
{
	unsigned long base = random_base(true), bias, eh_addr;
	unsigned int text, ro, eh;

	text = pie_spec(true);
	spec.ph[text].vaddr = ~0ULL - 0xfff;
	spec.ph[text].offset = 0x26000;
	spec.ph[text].memsz = 0x2000;
	spec.ph[text].filesz = 0x1000;
	EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF, -ENOEXEC);
	text = pie_spec(true);
	spec.ph[text].offset = ~0ULL - 0xfff;
	spec.ph[text].filesz = 0x2000;
	spec.ph[text].memsz = 0x2000;
	EXPECT_FIND_ERR(base, round_down(~0ULL - 0xfff, PAGE), -ENOEXEC);
	/* Any PT_LOAD that wraps, not only the one mapped. */
	pie_spec(true);
	ro = load_at(EB_PIE_RO_OFF);
	spec.ph[ro].vaddr = ~0ULL - 0x10;
	EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF, -ENOEXEC);
	pie_spec(true);
	eh = spec.nr_ph - 1;
	spec.ph[eh].vaddr = ~0ULL - 0x10;
	EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF, -ENOEXEC);

	/* The text ends past the top of the address space once biased. */
	text = pie_spec(true);
	spec.ph[text].memsz = ~0ULL - EB_PIE_TEXT_OFF;
	EXPECT_FIND_ERR(base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF, -ENOEXEC);

	/*
	 * The table's PT_LOAD wraps once biased (its p_vaddr + p_filesz does
	 * not): elf_table_find() describes eh_frame_start above eh_frame_end.
	 * It should say -ENOEXEC; what matters is that the registry refuses
	 * such a description (eh_frame_desc_valid(): -EINVAL, and discover.c
	 * marks the object).
	 */
	pie_spec(true);
	ro = load_at(EB_PIE_RO_OFF);
	eh = spec.nr_ph - 1;
	bias = base;
	eh_addr = -bias - 0x100;
	spec.ph[ro].vaddr = eh_addr;
	spec.ph[ro].filesz = 0x200;
	spec.ph[ro].memsz = 0x200;
	spec.ph[eh].vaddr = eh_addr + 0x80;
	spec.ph[eh].offset = spec.ph[ro].offset + 0x80;
	spec.ph[eh].filesz = 0x10;
	spec.ph[eh].memsz = 0x10;
	{
		struct unwind_user_eh_frame d;
		u64 hdr_off;
		int ret;

		write_file();
		ret = find(&file, base + EB_PIE_TEXT_OFF, EB_PIE_TEXT_OFF, &d,
			   &hdr_off);
		CHECK(ret == -ENOEXEC || (!ret && !registry_takes(&d)),
		      "a table that wraps: %s", err_name(ret));
		if (!ret)
			printf("# known: eh_frame %#lx-%#lx accepted (wraps)\n",
			       d.eh_frame_start, d.eh_frame_end);
	}

	/*
	 * The same for a header at address 0 (ET_EXEC, p_vaddr 0), which a
	 * description cannot tell from none: hdr_start 0, hdr_end not.
	 */
	exec_spec(true);
	eh = spec.nr_ph - 1;
	elf_add_ph(&spec, EB_PT_LOAD, EB_PF_R, 0x20000, 0, 0x1000, 0x1000);
	spec.ph[eh].offset = 0x20000;
	spec.ph[eh].vaddr = 0;
	spec.ph[eh].filesz = 0x100;
	spec.ph[eh].memsz = 0x100;
	elf_spec_layout(&spec);
	{
		struct unwind_user_eh_frame d;
		u64 hdr_off;
		int ret;

		write_file();
		ret = find(&file, EB_EXEC_BASE, 0, &d, &hdr_off);
		CHECK(ret == -ENOEXEC || (!ret && !registry_takes(&d)),
		      "a header at 0: %s", err_name(ret));
		if (!ret)
			printf("# known: header %#lx-%#lx accepted (at 0)\n",
			       d.hdr_start, d.hdr_end);
	}
}

UNIT_TEST(test_elf_wrap, "elf: sizes that wrap around", BIT(MODE_TABLE))

/* .eh_frame from the section headers: what makes it unusable. */
static void test_elf_sections(void)
{
	unsigned long base;
	unsigned int c, i, eh, strtab, text;
	struct want w;

	for (c = 0; c < nr_classes(); c++) {
		bool is64 = c == 0;

		base = exec_base(is64);
		w = static_want(is64);
#define STATIC_FIND_ERR(err)						\
	EXPECT_FIND_ERR(base + EB_STATIC_TEXT_OFF, EB_STATIC_TEXT_OFF, err)

		/* Two of them: which one would the unwinder read? */
		static_spec(is64);
		elf_add_sh(&spec, ".eh_frame", EB_SHT_PROGBITS, EB_SHF_ALLOC,
			   w.eh + 0x100, EB_STATIC_EH_OFF + 0x100, 0x10);
		elf_spec_layout(&spec);
		STATIC_FIND_ERR(-ENOEXEC);

		/* Not in the file contents of a PT_LOAD. */
		static_spec(is64);
		eh = sec_index(".eh_frame");
		spec.sh[eh].addr = 0x10000000;
		STATIC_FIND_ERR(-ENOEXEC);
		spec.sh[eh].addr = base + EB_STATIC_RO_OFF +
				   EB_STATIC_RO_SIZE - 0x10;
		STATIC_FIND_ERR(-ENOEXEC);
		spec.sh[eh].addr = base + 0xbe410 + 0x6f40;	/* .bss */
		spec.sh[eh].size = 0x10;
		STATIC_FIND_ERR(-ENOEXEC);
		/* Ending where the PT_LOAD's file contents end: in it. */
		spec.sh[eh].addr = base + EB_STATIC_RO_OFF +
				   EB_STATIC_RO_SIZE - 0x10;
		w.eh = spec.sh[eh].addr;
		w.eh_size = 0x10;
		EXPECT_FOUND(base + EB_STATIC_TEXT_OFF, EB_STATIC_TEXT_OFF, &w);
		w = static_want(is64);

		/* Not .eh_frame as the linker leaves it: no table. */
		static_spec(is64);
		eh = sec_index(".eh_frame");
		spec.sh[eh].type = EB_SHT_NOBITS;
		STATIC_FIND_ERR(-ENOENT);
		spec.sh[eh].type = EB_SHT_PROGBITS;
		spec.sh[eh].flags = 0;
		STATIC_FIND_ERR(-ENOENT);
		spec.sh[eh].flags = EB_SHF_ALLOC;
		spec.sh[eh].size = 0;
		STATIC_FIND_ERR(-ENOENT);

		/* Names: .eh_frame whole, and only that. */
		for (i = 0; i < 3; i++) {
			static const char * const names[] = {
				".eh_frame_hdr", ".eh_fram", ".eh_frame.x",
			};

			static_spec(is64);
			spec.sh[sec_index(".eh_frame")].name = names[i];
			elf_spec_layout(&spec);
			STATIC_FIND_ERR(-ENOENT);
		}
		/* A name shared with the end of a longer one, as ld does. */
		static_spec(is64);
		eh = sec_index(".eh_frame");
		spec.sh[eh].name = ".rela.eh_frame";
		elf_spec_layout(&spec);
		spec.sh[eh].name_off += 5;
		EXPECT_FOUND(base + EB_STATIC_TEXT_OFF, EB_STATIC_TEXT_OFF, &w);

		/* Names at or past the end of the string table: skipped. */
		static_spec(is64);
		eh = sec_index(".eh_frame");
		strtab = sec_index(".shstrtab");
		spec.sh[eh].name_off = spec.strtab_len;
		STATIC_FIND_ERR(-ENOENT);
		spec.sh[eh].name_off = ~0U;
		STATIC_FIND_ERR(-ENOENT);
		/* ".eh_frame" with the string table ending before its NUL */
		static_spec(is64);
		eh = sec_index(".eh_frame");
		strtab = sec_index(".shstrtab");
		spec.sh[strtab].size = spec.sh[eh].name_off + 9;
		STATIC_FIND_ERR(-ENOENT);
		spec.sh[strtab].size = spec.sh[eh].name_off + 10;
		EXPECT_FOUND(base + EB_STATIC_TEXT_OFF, EB_STATIC_TEXT_OFF, &w);

		/* The string table of the section names. */
		static_spec(is64);
		spec.sh[sec_index(".shstrtab")].type = EB_SHT_PROGBITS;
		STATIC_FIND_ERR(-ENOEXEC);
		static_spec(is64);
		spec.shstrndx = spec.shnum;
		STATIC_FIND_ERR(-ENOENT);
		spec.shstrndx = 0xffff;		/* SHN_XINDEX */
		STATIC_FIND_ERR(-ENOENT);
		static_spec(is64);
		spec.sh[sec_index(".shstrtab")].offset = 0xff00;
		STATIC_FIND_ERR(-ERANGE);

		/* The section header table. */
		static_spec(is64);
		spec.shoff = 0;
		STATIC_FIND_ERR(-ENOENT);
		static_spec(is64);
		spec.shnum = 0;
		STATIC_FIND_ERR(-ENOENT);
		static_spec(is64);
		spec.shentsize = EB_SHDR_SIZE(!is64);
		STATIC_FIND_ERR(-ENOENT);
		static_spec(is64);
		spec.shnum = 257;
		STATIC_FIND_ERR(-ENOENT);
		static_spec(is64);
		spec.shoff = 0xff00;
		STATIC_FIND_ERR(-ERANGE);
		/* The string table's header, read first, wraps past 2^64. */
		if (is64) {
			static_spec(is64);
			spec.shoff = -(u64)spec.shstrndx * EB_SHDR_SIZE(1) - 32;
			STATIC_FIND_ERR(-EOVERFLOW);
		}

		/* 256 section headers, .eh_frame the last: the bound. */
		static_spec(is64);
		eh = sec_index(".eh_frame");
		spec.sh[eh].name = ".eh_frame_x";
		while (spec.nr_sh < 255)
			elf_add_sh(&spec, ".note.x", 7, EB_SHF_ALLOC, 0, 0, 4);
		elf_add_sh(&spec, ".eh_frame", EB_SHT_PROGBITS, EB_SHF_ALLOC,
			   w.eh, EB_STATIC_EH_OFF, EB_STATIC_EH_SIZE);
		elf_spec_layout(&spec);
		EXPECT_FOUND(base + EB_STATIC_TEXT_OFF, EB_STATIC_TEXT_OFF, &w);

		/* No header and no sections (sstrip): no table. */
		text = pie_spec(is64);
		spec.nr_ph--;
		elf_spec_layout(&spec);
		EXPECT_FIND_ERR(random_base(is64) + EB_PIE_TEXT_OFF,
				spec.ph[text].offset, -ENOENT);
#undef STATIC_FIND_ERR
	}
}

UNIT_TEST(test_elf_sections, "elf: .eh_frame from the section headers",
	  BIT(MODE_TABLE))

/*
 * A fetch that fails: the reader's error, whatever was read before; the
 * same result as without the failure if nothing failed.  discover.c reads
 * the page cache first, where a page that is not cached is -EFAULT, then
 * the file (-EIO when it is shorter than its headers say): the second
 * reader finds what the first one would have.  A fatal signal stops the
 * reads with -EINTR.
 */
static void check_faults(int line, const struct elf_file *f, unsigned long addr,
			 u64 off)
{
	static const int errs[] = { -EFAULT, -EIO };
	struct unwind_user_eh_frame good, desc;
	u64 good_off, hdr_off, reach, fail_off;
	unsigned long fetches, k;
	unsigned int i;
	int ret;

	ret = find(f, addr, off, &good, &good_off);
	reach = last.reach;
	fetches = last.fetches;
	if (ret)
		fail(line, "no table: %s", err_name(ret));
	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		for (fail_off = 0; fail_off <= reach + 8; fail_off++) {
			ret = find_failing(f, addr, off, fail_off, errs[i],
					   &desc, &hdr_off);
			if (fail_off < reach ? ret != errs[i] :
			    ret || memcmp(&desc, &good, sizeof(desc)) ||
			    hdr_off != good_off) {
				fail(line, "failing from %#llx with %s: %s",
				     (unsigned long long)fail_off,
				     err_name(errs[i]), err_name(ret));
				return;
			}
		}
	}
	/* The retry of discover.c, from the file. */
	ret = find_failing(f, addr, off, reach / 2, -EFAULT, &desc, &hdr_off);
	if (ret == -EFAULT)
		ret = find(f, addr, off, &desc, &hdr_off);
	if (ret || memcmp(&desc, &good, sizeof(desc)) || hdr_off != good_off)
		fail(line, "the second reader: %s", err_name(ret));

	for (k = 1; k <= fetches; k++) {
		struct elf_table_map map = { .addr = addr, .off = off };
		struct freader r;

		freader_init_from_mem(&r, (const char *)f->data, f->len);
		r.signal_after = k;
		ret = elf_table_find(&r, &map, &desc, &hdr_off);
		fake_fatal_signal = false;
		if (k < fetches ? ret != -EINTR : ret != 0) {
			fail(line, "a signal after %lu of %lu fetches: %s", k,
			     fetches, err_name(ret));
			return;
		}
	}
}

static void test_elf_faults(void)
{
	unsigned long base = random_base(true);
	unsigned int c;

	for (c = 0; c < nr_classes(); c++) {
		bool is64 = c == 0;

		pie_spec(is64);
		write_file();
		check_faults(__LINE__, &file, base + EB_PIE_TEXT_OFF,
			     EB_PIE_TEXT_OFF);
		exec_spec(is64);
		write_file();
		check_faults(__LINE__, &file, exec_base(is64), 0);
		static_spec(is64);
		write_file();
		check_faults(__LINE__, &file,
			     exec_base(is64) + EB_STATIC_TEXT_OFF,
			     EB_STATIC_TEXT_OFF);
	}
}

UNIT_TEST(test_elf_faults, "elf: reads that fail", BIT(MODE_TABLE))
