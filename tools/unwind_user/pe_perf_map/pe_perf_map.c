// SPDX-License-Identifier: GPL-2.0
/*
 * Names for the Windows x64 (PE) code of a process running under Wine, for
 * perf, which cannot read PE symbols.
 *
 *	pe_perf_map PID
 *	pe_perf_map --image BASE SIZE FILE
 *
 * writes /tmp/perf-PID.map, perf's map of code it has no symbols for
 * (Documentation in tools/perf/Documentation/jit-interface.txt): one line
 * "START SIZE NAME" for every function of every PE image the process has
 * registered with prctl(PR_REGISTER_EH_FRAME, PR_EH_FRAME_FORMAT_PE), as
 * /proc/PID/unwind_tables lists them.  The names come from the image's file
 * (the one /proc/PID/maps shows mapped at its base): its COFF symbol table
 * (mingw keeps one unless stripped) and its export directory; the sizes
 * from its exception directory (.pdata), or up to the next name.  Run it
 * while the process lives; perf report reads the map when it runs.  With
 * --image, the lines of one image mapped at BASE (hex) go to stdout: for
 * loaders that do not register their images.
 *
 * perf uses the map for anonymous memory only: Wine copies the sections of
 * an image whose file alignment is below a page (most mingw and MSVC
 * builds) into anonymous memory, but maps Wine's own DLLs from their files,
 * and perf then looks for ELF symbols in them and finds none.  For those,
 *
 *	perf script ... | pe_perf_map --script /tmp/perf-PID.map
 *
 * names every "[unknown]" frame whose address the map covers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_IMAGES	256

struct sym {
	uint32_t	rva;
	uint32_t	size;
	char		*name;
};

struct syms {
	struct sym	*s;
	size_t		nr, cap;
};

/* A PE32+ file, mapped, with the bounds checks every read needs. */
struct pe {
	const uint8_t	*data;
	size_t		size;
	const uint8_t	*sections;
	unsigned int	nr_sections;
	const uint8_t	*opt;		/* optional header */
	unsigned int	opt_size;
};

static uint16_t le16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

static uint32_t le32(const uint8_t *p)
{
	return le16(p) | (uint32_t)le16(p + 2) << 16;
}

/* The bytes at file offset @off, if @len of them are in the file. */
static const uint8_t *at(const struct pe *pe, uint64_t off, uint64_t len)
{
	if (off > pe->size || len > pe->size - off)
		return NULL;
	return pe->data + off;
}

/* The file offset of @rva, through the section that holds it, or -1. */
static int64_t rva_to_off(const struct pe *pe, uint32_t rva)
{
	for (unsigned int i = 0; i < pe->nr_sections; i++) {
		const uint8_t *s = pe->sections + 40 * i;
		uint32_t va = le32(s + 12), raw = le32(s + 16), ptr = le32(s + 20);

		if (rva >= va && rva - va < raw)
			return (int64_t)ptr + (rva - va);
	}
	return -1;
}

/* The bytes at @rva, @len of them, or NULL. */
static const uint8_t *at_rva(const struct pe *pe, uint32_t rva, uint64_t len)
{
	int64_t off = rva_to_off(pe, rva);

	return off < 0 ? NULL : at(pe, off, len);
}

static int pe_open(struct pe *pe, const uint8_t *data, size_t size)
{
	const uint8_t *coff, *p;
	uint32_t lfanew;

	memset(pe, 0, sizeof(*pe));
	pe->data = data;
	pe->size = size;
	p = at(pe, 0, 64);
	if (!p || p[0] != 'M' || p[1] != 'Z')
		return -1;
	lfanew = le32(p + 0x3c);
	coff = at(pe, lfanew, 24);
	if (!coff || memcmp(coff, "PE\0\0", 4))
		return -1;
	pe->opt_size = le16(coff + 20);
	pe->opt = at(pe, (uint64_t)lfanew + 24, pe->opt_size);
	if (!pe->opt || pe->opt_size < 112 || le16(pe->opt) != 0x20b)
		return -1;	/* PE32+ only */
	pe->nr_sections = le16(coff + 6);
	pe->sections = at(pe, (uint64_t)lfanew + 24 + pe->opt_size,
			  40ULL * pe->nr_sections);
	return pe->sections ? 0 : -1;
}

/* Data directory @idx: its RVA and size, or 0. */
static uint32_t pe_dir(const struct pe *pe, unsigned int idx, uint32_t *size)
{
	if (idx >= le32(pe->opt + 108) || 112 + 8 * (idx + 1) > pe->opt_size)
		return 0;
	*size = le32(pe->opt + 112 + 8 * idx + 4);
	return le32(pe->opt + 112 + 8 * idx);
}

static void add_sym(struct syms *ss, uint32_t rva, const char *name, size_t len)
{
	if (!len)
		return;
	if (ss->nr == ss->cap) {
		ss->cap = ss->cap ? 2 * ss->cap : 256;
		ss->s = realloc(ss->s, ss->cap * sizeof(*ss->s));
		if (!ss->s) {
			perror("pe_perf_map");
			exit(1);
		}
	}
	ss->s[ss->nr].rva = rva;
	ss->s[ss->nr].size = 0;
	ss->s[ss->nr].name = strndup(name, len);
	ss->nr++;
}

/* Functions of the COFF symbol table: those in executable sections. */
static void coff_syms(const struct pe *pe, const uint8_t *coff, struct syms *ss)
{
	uint32_t symtab = le32(coff + 8), nr = le32(coff + 12), strsize = 0;
	const uint8_t *syms, *strs;

	if (!symtab || !nr)
		return;
	syms = at(pe, symtab, 18ULL * nr);
	strs = at(pe, symtab + 18ULL * nr, 4);
	if (!syms)
		return;
	if (strs) {
		strsize = le32(strs);
		if (!at(pe, symtab + 18ULL * nr, strsize))
			strsize = 0;
	}
	for (uint32_t i = 0; i < nr; i++) {
		const uint8_t *s = syms + 18 * i, *sec;
		uint16_t secnum = le16(s + 12);
		uint8_t class = s[16], aux = s[17];
		const char *name;
		size_t len;

		/* External or static symbols of a section, not file names. */
		if ((class == 2 || class == 3) && secnum >= 1 &&
		    secnum <= pe->nr_sections) {
			sec = pe->sections + 40 * (secnum - 1);
			/* IMAGE_SCN_MEM_EXECUTE, and a function (or no type) */
			if ((le32(sec + 36) & 0x20000000) &&
			    (le16(s + 14) == 0x20 || class == 2)) {
				if (le32(s)) {
					name = (const char *)s;
					len = strnlen(name, 8);
				} else if (le32(s + 4) < strsize) {
					name = (const char *)strs + le32(s + 4);
					len = strnlen(name, strsize - le32(s + 4));
				} else {
					len = 0;
					name = "";
				}
				/* Section symbols (".text") name no function. */
				if (len && name[0] != '.')
					add_sym(ss, le32(sec + 12) + le32(s + 8),
						name, len);
			}
		}
		i += aux;
	}
}

/* The names the export directory gives functions. */
static void export_syms(const struct pe *pe, struct syms *ss)
{
	uint32_t size, rva = pe_dir(pe, 0, &size), nr_names, names, ords, funcs;
	const uint8_t *dir, *n, *o, *f;

	if (!rva)
		return;
	dir = at_rva(pe, rva, 40);
	if (!dir)
		return;
	nr_names = le32(dir + 24);
	funcs = le32(dir + 28);
	names = le32(dir + 32);
	ords = le32(dir + 36);
	n = at_rva(pe, names, 4ULL * nr_names);
	o = at_rva(pe, ords, 2ULL * nr_names);
	if (!n || !o)
		return;
	for (uint32_t i = 0; i < nr_names; i++) {
		const uint8_t *name = at_rva(pe, le32(n + 4 * i), 1);
		int64_t off = rva_to_off(pe, le32(n + 4 * i));
		uint32_t func;

		f = at_rva(pe, funcs + 4 * le16(o + 2 * i), 4);
		if (!f || !name || off < 0)
			continue;
		func = le32(f);
		/* A forwarder points into the directory: no code. */
		if (func >= rva && func - rva < size)
			continue;
		add_sym(ss, func, (const char *)name,
			strnlen((const char *)name, pe->size - off));
	}
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->rva < y->rva ? -1 : x->rva > y->rva;
}

/* Sizes: the RUNTIME_FUNCTION that starts there, else up to the next. */
static void size_syms(const struct pe *pe, struct syms *ss, uint32_t image_size)
{
	uint32_t size, rva = pe_dir(pe, 3, &size);
	const uint8_t *pdata = rva ? at_rva(pe, rva, size) : NULL;
	size_t n = pdata ? size / 12 : 0, i, j = 0;

	qsort(ss->s, ss->nr, sizeof(*ss->s), cmp_sym);
	for (i = 0; i < ss->nr; i++) {
		uint32_t next = i + 1 < ss->nr ? ss->s[i + 1].rva : image_size;

		/* .pdata is sorted: walk it along. */
		while (j < n && le32(pdata + 12 * j) < ss->s[i].rva)
			j++;
		if (j < n && le32(pdata + 12 * j) == ss->s[i].rva &&
		    le32(pdata + 12 * j + 4) > ss->s[i].rva)
			ss->s[i].size = le32(pdata + 12 * j + 4) - ss->s[i].rva;
		else
			ss->s[i].size = next > ss->s[i].rva ? next - ss->s[i].rva : 0;
	}
}

/* Write the functions of the image at @base, file @path, to @out. */
static int map_image(FILE *out, uint64_t base, uint64_t image_size,
		     const char *path)
{
	struct syms ss = { 0 };
	struct stat st;
	struct pe pe;
	uint8_t *data;
	int fd, ret = -1;
	size_t i, w = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "pe_perf_map: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	data = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (data == MAP_FAILED)
		return -1;
	if (pe_open(&pe, data, st.st_size)) {
		fprintf(stderr, "pe_perf_map: %s: not a PE32+ image\n", path);
		goto out;
	}
	coff_syms(&pe, pe.data + le32(pe.data + 0x3c) + 4, &ss);
	export_syms(&pe, &ss);
	size_syms(&pe, &ss, image_size);
	for (i = 0; i < ss.nr; i++) {
		/* The same address twice (a symbol and an export): once. */
		if (i && ss.s[i].rva == ss.s[i - 1].rva)
			continue;
		if (ss.s[i].size && ss.s[i].rva < image_size) {
			fprintf(out, "%llx %x %s\n",
				(unsigned long long)(base + ss.s[i].rva),
				ss.s[i].size, ss.s[i].name);
			w++;
		}
	}
	fprintf(stderr, "pe_perf_map: %llx %s: %zu functions\n",
		(unsigned long long)base, path, w);
	ret = 0;
out:
	for (i = 0; i < ss.nr; i++)
		free(ss.s[i].name);
	free(ss.s);
	munmap(data, st.st_size);
	return ret;
}

/* The file /proc/PID/maps shows mapped at @addr, or NULL. */
static char *file_at(const char *pid, uint64_t addr)
{
	char path[64], line[4096], *file = NULL;
	FILE *maps;

	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	maps = fopen(path, "r");
	if (!maps)
		return NULL;
	while (!file && fgets(line, sizeof(line), maps)) {
		unsigned long long start, end;
		int pos = 0;

		if (sscanf(line, "%llx-%llx %*s %*s %*s %*s %n", &start, &end, &pos) < 2 ||
		    !pos || addr < start || addr >= end || line[pos] != '/')
			continue;
		line[strcspn(line, "\n")] = '\0';
		file = strdup(line + pos);
	}
	fclose(maps);
	return file;
}

static int write_map(const char *pid)
{
	char path[64], line[512], tmp[80];
	unsigned int images = 0;
	FILE *tables, *out;

	snprintf(path, sizeof(path), "/proc/%s/unwind_tables", pid);
	tables = fopen(path, "r");
	if (!tables) {
		fprintf(stderr, "pe_perf_map: %s: %s\n", path, strerror(errno));
		return 1;
	}
	snprintf(tmp, sizeof(tmp), "/tmp/perf-%s.map.tmp", pid);
	out = fopen(tmp, "w");
	if (!out) {
		perror(tmp);
		fclose(tables);
		return 1;
	}
	while (fgets(line, sizeof(line), tables) && images < MAX_IMAGES) {
		unsigned long long start, end;
		char format[16], *file;

		/* "START-END ORIGIN pe": only registrations are PE images. */
		if (sscanf(line, "%llx-%llx %*s %15s", &start, &end, format) != 3 ||
		    strcmp(format, "pe"))
			continue;
		file = file_at(pid, start);
		if (!file) {
			fprintf(stderr, "pe_perf_map: %llx: no file mapped there\n", start);
			continue;
		}
		if (!map_image(out, start, end - start, file))
			images++;
		free(file);
	}
	fclose(tables);
	if (fclose(out)) {
		perror(tmp);
		return 1;
	}
	snprintf(path, sizeof(path), "/tmp/perf-%s.map", pid);
	if (rename(tmp, path)) {
		perror(path);
		return 1;
	}
	fprintf(stderr, "pe_perf_map: %s: %u PE images\n", path, images);
	return images ? 0 : 1;
}

struct entry {
	unsigned long long	start, size;
	char			*name;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Name the "[unknown]" frames of perf script's output from @map. */
static int script(const char *map)
{
	struct entry *e = NULL;
	size_t nr = 0, cap = 0;
	char line[4096];
	FILE *f = fopen(map, "r");

	if (!f) {
		perror(map);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, size;
		char name[1024];

		if (sscanf(line, "%llx %llx %1023s", &start, &size, name) != 3)
			continue;
		if (nr == cap) {
			cap = cap ? 2 * cap : 1024;
			e = realloc(e, cap * sizeof(*e));
			if (!e) {
				perror("pe_perf_map");
				return 1;
			}
		}
		e[nr++] = (struct entry){ start, size, strdup(name) };
	}
	fclose(f);
	qsort(e, nr, sizeof(*e), cmp_entry);

	while (fgets(line, sizeof(line), stdin)) {
		char *unk = strstr(line, "[unknown]");
		unsigned long long ip;
		size_t lo = 0, hi = nr;

		if (!unk || sscanf(line, " %llx", &ip) != 1) {
			fputs(line, stdout);
			continue;
		}
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (e[mid].start <= ip)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo || ip - e[lo - 1].start >= e[lo - 1].size) {
			fputs(line, stdout);
			continue;
		}
		*unk = '\0';
		printf("%s%s+0x%llx%s", line, e[lo - 1].name, ip - e[lo - 1].start,
		       unk + strlen("[unknown]"));
	}
	return 0;
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: pe_perf_map PID\n"
		"       pe_perf_map --image BASE SIZE FILE  (one image's lines to stdout)\n"
		"       pe_perf_map --script MAP < perf-script-output\n");
	exit(2);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--script"))
		return script(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "--image"))
		return map_image(stdout, strtoull(argv[2], NULL, 16),
				 strtoull(argv[3], NULL, 16), argv[4]) ? 1 : 0;
	if (argc != 2 || !strspn(argv[1], "0123456789") ||
	    argv[1][strspn(argv[1], "0123456789")])
		print_usage();
	return write_map(argv[1]);
}
