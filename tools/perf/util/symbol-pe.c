// SPDX-License-Identifier: GPL-2.0
/*
 * Function symbols of x86-64 PE32+ images (Windows programs and DLLs), read
 * without libbfd.
 *
 * Wine maps an image whose sections are page aligned in its file (Wine's own
 * DLLs, programs linked with a file alignment of 4096) straight from that
 * file, so samples in its code fall in a file-backed mapping and perf looks
 * them up by file offset.  The names come from the COFF symbol table, which
 * mingw keeps unless the image is stripped, and from the export directory;
 * the sizes from the exception directory (.pdata), else up to the next name.
 * The file is untrusted: every read is checked against its size, and the
 * headers are copied out before use as the file need not align them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/unaligned.h>

#include "debug.h"
#include "dso.h"
#include "symbol.h"

#define PE_DOS_LFANEW		0x3c
#define PE_MACHINE_AMD64	0x8664
#define PE_SCN_CNT_CODE		0x00000020
#define PE_SCN_MEM_EXECUTE	0x20000000
#define PE_COFF_SYM_SIZE	18
#define PE_SYM_CLASS_EXTERNAL	2
#define PE_SYM_CLASS_STATIC	3
#define PE_SYM_TYPE_FUNCTION	0x20

/* The fields of the PE32+ optional header used here */
#define PE_OPT_MAGIC_PE32PLUS	0x20b
#define PE_OPT_IMAGE_BASE	24
#define PE_OPT_IMAGE_SIZE	56
#define PE_OPT_NR_DIRS		108
#define PE_OPT_DIRS		112
#define PE_DIR_EXPORT		0
#define PE_DIR_EXCEPTION	3

struct pe_file_hdr {
	__le16	machine;
	__le16	nr_sects;
	__le32	timestamp;
	__le32	symtab_off;
	__le32	nr_syms;
	__le16	opt_size;
	__le16	flags;
};

struct pe_sect_hdr {
	char	name[8];
	__le32	vsize;
	__le32	va;
	__le32	raw_size;
	__le32	raw_off;
	__le32	reloc_off;
	__le32	lineno_off;
	__le16	nr_relocs;
	__le16	nr_linenos;
	__le32	flags;
};

/* PE_COFF_SYM_SIZE bytes in the file, without the padding of the struct */
struct pe_coff_sym {
	char	name[8];	/* or 4 zero bytes and a string table offset */
	__le32	value;
	__le16	sect;
	__le16	type;
	u8	class;
	u8	nr_aux;
};

struct pe_export_dir {
	__le32	flags;
	__le32	timestamp;
	__le16	major_version;
	__le16	minor_version;
	__le32	name;
	__le32	ord_base;
	__le32	nr_funcs;
	__le32	nr_names;
	__le32	funcs;
	__le32	names;
	__le32	ords;
};

struct pe_runtime_func {
	__le32	begin;
	__le32	end;
	__le32	unwind_info;
};

struct pe_file {
	const u8		*data;
	size_t			size;
	struct pe_file_hdr	fhdr;
	u64			image_base;
	u32			image_size;
	const u8		*dirs;	/* data directories */
	u32			nr_dirs;
	u32			nr_sects;
	struct pe_sect_hdr	sects[PE_MAX_SECTS];
	const u8		*pdata;	/* RUNTIME_FUNCTION entries */
	size_t			nr_pdata;
};

/* Among the names of one address, the lowest rank wins. */
enum pe_sym_rank {
	PE_SYM_EXTERNAL,
	PE_SYM_EXPORT,
	PE_SYM_STATIC,
};

struct pe_sym {
	const char		*name;	/* in the file, not NUL terminated */
	size_t			len;
	u32			rva;
	u32			sect;
	enum pe_sym_rank	rank;
};

struct pe_syms {
	struct pe_sym	*sym;
	size_t		nr;
	size_t		alloc;
};

/* @len bytes at file offset @off, or NULL if they are not all in the file. */
static const u8 *pe__ptr(const struct pe_file *pe, u64 off, u64 len)
{
	if (off > pe->size || len > pe->size - off)
		return NULL;
	return pe->data + off;
}

static int pe__read(const struct pe_file *pe, u64 off, void *buf, size_t len)
{
	const u8 *p = pe__ptr(pe, off, len);

	if (!p)
		return -1;
	memcpy(buf, p, len);
	return 0;
}

/* The part of a section that the file holds. */
static u32 pe__sect_size(const struct pe_sect_hdr *sect)
{
	u32 vsize = le32_to_cpu(sect->vsize);
	u32 raw_size = le32_to_cpu(sect->raw_size);

	return vsize && vsize < raw_size ? vsize : raw_size;
}

static bool pe__sect_is_code(const struct pe_sect_hdr *sect)
{
	return le32_to_cpu(sect->flags) & (PE_SCN_CNT_CODE | PE_SCN_MEM_EXECUTE);
}

/* The index of the section whose file data holds @rva, or -1. */
static int pe__rva_sect(const struct pe_file *pe, u32 rva)
{
	u32 i;

	for (i = 0; i < pe->nr_sects; i++) {
		u32 va = le32_to_cpu(pe->sects[i].va);

		if (rva >= va && rva - va < pe__sect_size(&pe->sects[i]))
			return i;
	}
	return -1;
}

static const u8 *pe__rva_ptr(const struct pe_file *pe, u32 rva, u64 len)
{
	const struct pe_sect_hdr *sect;
	int idx = pe__rva_sect(pe, rva);

	if (idx < 0)
		return NULL;
	sect = &pe->sects[idx];
	return pe__ptr(pe, (u64)le32_to_cpu(sect->raw_off) + rva -
		       le32_to_cpu(sect->va), len);
}

static bool pe__dir(const struct pe_file *pe, u32 idx, u32 *rva, u32 *size)
{
	if (idx >= pe->nr_dirs)
		return false;
	*rva = get_unaligned_le32(pe->dirs + 8 * idx);
	*size = get_unaligned_le32(pe->dirs + 8 * idx + 4);
	return *rva && *size;
}

static int pe__init(struct pe_file *pe, const u8 *data, size_t size)
{
	u32 opt_size, dir_rva, dir_size;
	const u8 *p, *opt;
	u64 off;

	memset(pe, 0, sizeof(*pe));
	pe->data = data;
	pe->size = size;
	p = pe__ptr(pe, 0, PE_DOS_LFANEW + 4);
	if (!p || memcmp(p, "MZ", 2))
		return -1;
	off = get_unaligned_le32(p + PE_DOS_LFANEW);
	p = pe__ptr(pe, off, 4);
	if (!p || memcmp(p, "PE\0\0", 4) ||
	    pe__read(pe, off + 4, &pe->fhdr, sizeof(pe->fhdr)) ||
	    le16_to_cpu(pe->fhdr.machine) != PE_MACHINE_AMD64)
		return -1;

	off += 4 + sizeof(pe->fhdr);
	opt_size = le16_to_cpu(pe->fhdr.opt_size);
	opt = pe__ptr(pe, off, opt_size);
	if (!opt || opt_size < PE_OPT_DIRS ||
	    get_unaligned_le16(opt) != PE_OPT_MAGIC_PE32PLUS)
		return -1;
	pe->image_base = get_unaligned_le64(opt + PE_OPT_IMAGE_BASE);
	pe->image_size = get_unaligned_le32(opt + PE_OPT_IMAGE_SIZE);
	pe->dirs = opt + PE_OPT_DIRS;
	pe->nr_dirs = min(get_unaligned_le32(opt + PE_OPT_NR_DIRS),
			  (opt_size - PE_OPT_DIRS) / 8);

	pe->nr_sects = le16_to_cpu(pe->fhdr.nr_sects);
	if (pe->nr_sects > PE_MAX_SECTS ||
	    pe__read(pe, off + opt_size, pe->sects,
		     pe->nr_sects * sizeof(pe->sects[0])))
		return -1;

	if (pe__dir(pe, PE_DIR_EXCEPTION, &dir_rva, &dir_size)) {
		pe->pdata = pe__rva_ptr(pe, dir_rva, dir_size);
		if (pe->pdata)
			pe->nr_pdata = dir_size / sizeof(struct pe_runtime_func);
	}
	return 0;
}

/* Record @name for the code at @rva; names of anything else are skipped. */
static int pe__add_sym(const struct pe_file *pe, struct pe_syms *syms,
		       const char *name, size_t len, u64 rva,
		       enum pe_sym_rank rank)
{
	struct pe_sym *sym;
	int idx;

	/* Section symbols such as ".text" name no function. */
	if (!len || name[0] == '.' || rva > UINT32_MAX)
		return 0;
	idx = pe__rva_sect(pe, rva);
	if (idx < 0 || !pe__sect_is_code(&pe->sects[idx]))
		return 0;

	if (syms->nr == syms->alloc) {
		size_t alloc = syms->alloc ? 2 * syms->alloc : 256;

		sym = realloc(syms->sym, alloc * sizeof(*sym));
		if (!sym)
			return -ENOMEM;
		syms->sym = sym;
		syms->alloc = alloc;
	}
	sym = &syms->sym[syms->nr++];
	sym->name = name;
	sym->len = len;
	sym->rva = rva;
	sym->sect = idx;
	sym->rank = rank;
	return 0;
}

static int pe__read_coff_syms(const struct pe_file *pe, struct pe_syms *syms)
{
	u32 nr = le32_to_cpu(pe->fhdr.nr_syms);
	u64 tab_off = le32_to_cpu(pe->fhdr.symtab_off);
	u64 str_off = tab_off + (u64)nr * PE_COFF_SYM_SIZE;
	const u8 *tab, *strtab;
	struct pe_coff_sym sym;
	u32 str_size = 0;
	u64 i;

	tab = pe__ptr(pe, tab_off, (u64)nr * PE_COFF_SYM_SIZE);
	if (!tab_off || !tab)
		return 0;
	/* The string table follows, starting with its size. */
	strtab = pe__ptr(pe, str_off, 4);
	if (strtab) {
		str_size = get_unaligned_le32(strtab);
		if (!pe__ptr(pe, str_off, str_size))
			str_size = 0;
	}

	for (i = 0; i < nr; i += 1 + sym.nr_aux) {
		const char *name = (const char *)tab + i * PE_COFF_SYM_SIZE;
		u32 sect, name_off;
		enum pe_sym_rank rank;
		size_t len;
		int err;

		memcpy(&sym, name, PE_COFF_SYM_SIZE);
		if (sym.class == PE_SYM_CLASS_EXTERNAL)
			rank = PE_SYM_EXTERNAL;
		else if (sym.class == PE_SYM_CLASS_STATIC &&
			 le16_to_cpu(sym.type) == PE_SYM_TYPE_FUNCTION)
			rank = PE_SYM_STATIC;
		else
			continue;
		/* Sections count from 1; 0 and the negative ones are special. */
		sect = le16_to_cpu(sym.sect);
		if (sect < 1 || sect > pe->nr_sects)
			continue;

		name_off = get_unaligned_le32(sym.name + 4);
		if (get_unaligned_le32(sym.name)) {
			len = strnlen(name, sizeof(sym.name));
		} else if (name_off >= 4 && name_off < str_size) {
			name = (const char *)strtab + name_off;
			len = strnlen(name, str_size - name_off);
			if (len == str_size - name_off)
				continue;
		} else {
			continue;
		}

		err = pe__add_sym(pe, syms, name, len,
				  (u64)le32_to_cpu(pe->sects[sect - 1].va) +
				  le32_to_cpu(sym.value), rank);
		if (err)
			return err;
	}
	return 0;
}

static int pe__read_exports(const struct pe_file *pe, struct pe_syms *syms)
{
	u32 dir_rva, dir_size, nr_funcs, nr_names, i;
	const u8 *p, *funcs, *names, *ords;
	struct pe_export_dir dir;

	if (!pe__dir(pe, PE_DIR_EXPORT, &dir_rva, &dir_size))
		return 0;
	p = pe__rva_ptr(pe, dir_rva, sizeof(dir));
	if (!p)
		return 0;
	memcpy(&dir, p, sizeof(dir));
	nr_funcs = le32_to_cpu(dir.nr_funcs);
	nr_names = le32_to_cpu(dir.nr_names);
	funcs = pe__rva_ptr(pe, le32_to_cpu(dir.funcs), 4ULL * nr_funcs);
	names = pe__rva_ptr(pe, le32_to_cpu(dir.names), 4ULL * nr_names);
	ords = pe__rva_ptr(pe, le32_to_cpu(dir.ords), 2ULL * nr_names);
	if (!funcs || !names || !ords)
		return 0;

	for (i = 0; i < nr_names; i++) {
		u16 ord = get_unaligned_le16(ords + 2 * i);
		const char *name;
		size_t len, max;
		u32 rva;
		int err;

		if (ord >= nr_funcs)
			continue;
		rva = get_unaligned_le32(funcs + 4 * ord);
		/* A forwarder points into the directory, at "DLL.name". */
		if (rva - dir_rva < dir_size)
			continue;
		p = pe__rva_ptr(pe, get_unaligned_le32(names + 4 * i), 1);
		if (!p)
			continue;
		name = (const char *)p;
		max = pe->data + pe->size - p;
		len = strnlen(name, max);
		if (len == max)
			continue;

		err = pe__add_sym(pe, syms, name, len, rva, PE_SYM_EXPORT);
		if (err)
			return err;
	}
	return 0;
}

static int pe_sym__cmp(const void *a, const void *b)
{
	const struct pe_sym *x = a, *y = b;

	if (x->rva != y->rva)
		return x->rva < y->rva ? -1 : 1;
	return x->rank - y->rank;
}

/* The end of the function that .pdata says starts at @rva, or 0. */
static u32 pe__pdata_end(const struct pe_file *pe, u32 rva)
{
	size_t lo = 0, hi = pe->nr_pdata;
	struct pe_runtime_func func;

	/* The entries are sorted by their start. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		memcpy(&func, pe->pdata + mid * sizeof(func), sizeof(func));
		if (le32_to_cpu(func.begin) == rva)
			return le32_to_cpu(func.end);
		if (le32_to_cpu(func.begin) < rva)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int pe__load(struct dso *dso, const struct pe_file *pe)
{
	struct pe_syms syms = { .nr = 0 };
	int err, nr = 0;
	size_t i, j;
	u32 idx;

	err = pe__read_coff_syms(pe, &syms);
	if (!err)
		err = pe__read_exports(pe, &syms);
	if (err || !syms.nr)
		goto out;

	/*
	 * perf looks symbols up by file offset, objdump by virtual address:
	 * the text offset converts between them (for the first code section).
	 */
	for (idx = 0; idx < pe->nr_sects; idx++) {
		const struct pe_sect_hdr *sect = &pe->sects[idx];
		u64 off = le32_to_cpu(sect->raw_off);

		if (pe__sect_is_code(sect)) {
			dso__set_text_offset(dso, pe->image_base +
					     le32_to_cpu(sect->va) - off);
			dso__set_text_end(dso, off + pe__sect_size(sect));
			break;
		}
	}

	qsort(syms.sym, syms.nr, sizeof(*syms.sym), pe_sym__cmp);
	for (i = 0; i < syms.nr; i = j) {
		const struct pe_sym *ps = &syms.sym[i];
		const struct pe_sect_hdr *sect = &pe->sects[ps->sect];
		u32 va = le32_to_cpu(sect->va);
		u64 end = (u64)va + pe__sect_size(sect);
		char *name, *demangled;
		struct symbol *sym;
		u32 pdata_end;

		/* One name per address: the first after sorting. */
		for (j = i + 1; j < syms.nr && syms.sym[j].rva == ps->rva; j++)
			;
		if (j < syms.nr && syms.sym[j].rva < end)
			end = syms.sym[j].rva;
		pdata_end = pe__pdata_end(pe, ps->rva);
		if (pdata_end > ps->rva && pdata_end < end)
			end = pdata_end;

		name = strndup(ps->name, ps->len);
		if (!name) {
			err = -ENOMEM;
			goto out;
		}
		demangled = dso__demangle_sym(dso, 0, name);
		sym = symbol__new(le32_to_cpu(sect->raw_off) + (u64)ps->rva - va,
				  end - ps->rva,
				  ps->rank == PE_SYM_STATIC ? STB_LOCAL : STB_GLOBAL,
				  STT_FUNC, demangled ?: name);
		free(demangled);
		free(name);
		if (!sym) {
			err = -ENOMEM;
			goto out;
		}
		symbols__insert(dso__symbols(dso), sym);
		nr++;
	}
	dso__set_adjust_symbols(dso, true);
	err = nr;
out:
	free(syms.sym);
	return err;
}

/*
 * Load the function symbols of an x86-64 PE32+ image.  Returns the number of
 * symbols, or a negative value if @debugfile is no such image or on errors.
 */
int dso__load_pe_symbols(struct dso *dso, const char *debugfile)
{
	struct pe_file pe;
	struct stat st;
	int fd, err = -1;
	char magic[2];
	void *data;

	fd = open(debugfile, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (pread(fd, magic, sizeof(magic), 0) != sizeof(magic) ||
	    memcmp(magic, "MZ", sizeof(magic)) || fstat(fd, &st) < 0 ||
	    (u64)st.st_size != (size_t)st.st_size)
		goto out_close;

	data = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data == MAP_FAILED)
		goto out_close;
	if (pe__init(&pe, data, st.st_size))
		pr_debug2("%s: %s is no x86-64 PE32+ image\n", __func__, debugfile);
	else
		err = pe__load(dso, &pe);
	munmap(data, st.st_size);
out_close:
	close(fd);
	return err;
}

/*
 * Read the size and the sections of the PE32+ image that starts the file of
 * @dso, from the first page of the file: Wine maps that page at the image base
 * when it copies the sections out of the file (see maps__fixup_pe_image()).
 * Returns 0, or -1 if the page holds no x86-64 PE32+ headers.
 */
int dso__read_pe_image(struct dso *dso, struct machine *machine,
		       struct pe_image *image)
{
	struct pe_file pe;
	u8 buf[4096];	/* the page that Wine maps */
	off_t size;
	ssize_t len;
	u32 i;

	len = dso__data_read_offset(dso, machine, 0, buf, sizeof(buf));
	if (len < 0 || pe__init(&pe, buf, len))
		return -1;
	size = dso__data_size(dso, machine);
	if (size < 0)
		return -1;

	image->size = pe.image_size;
	image->nr_sects = 0;
	for (i = 0; i < pe.nr_sects; i++) {
		const struct pe_sect_hdr *sect = &pe.sects[i];
		struct pe_image_sect *isect = &image->sects[image->nr_sects];

		isect->rva = le32_to_cpu(sect->va);
		isect->offset = le32_to_cpu(sect->raw_off);
		isect->size = pe__sect_size(sect);
		/*
		 * A section at offset 0 has no data, one that ends beyond the
		 * file makes the loader refuse the image.
		 */
		if (isect->offset && isect->size &&
		    (u64)isect->offset + isect->size <= (u64)size)
			image->nr_sects++;
	}
	return 0;
}
