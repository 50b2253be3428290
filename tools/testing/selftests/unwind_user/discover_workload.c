// SPDX-License-Identifier: GPL-2.0
/*
 * The programs of discover.c, which the kernel must unwind with the tables
 * it finds by itself: built without frame pointers, started without any
 * LD_AUDIT helper, registering nothing (but in qsort-register mode).
 * Exports cb_spin (-rdynamic), which libunwind_cb.so and libunwind_cb2.so
 * call back.
 *
 * The attached modes print "ready" on stdout once set up, wait for a byte on
 * stdin (the test attaches its events in between), spin MS ms of CPU time,
 * then print "== tables" and their own /proc/self/unwind_tables.
 *
 *   discover_workload qsort MS
 *	main -> run -> qsort() in libc -> cmp, which spins; then main ->
 *	spin_vdso -> clock_gettime() in libc -> the vDSO's, MS / 4 ms.
 *   discover_workload qsort-scribble MS
 *	the same, after writing this process's own copy of its .eh_frame:
 *	every CIE's data alignment factor of -8 becomes -16, so that the
 *	return address is looked for at twice its offset (see scribble()).
 *   discover_workload as-nobody MODE ...
 *	MODE ..., run as user and group 65534 (nobody).
 *   discover_workload fork-corrupt MS
 *	main -> spin_vdso, MS / 4 ms (the program's table is found); then a
 *	child, forked, makes its own copy of the program's .eh_frame corrupt
 *	(every FDE's CIE pointer out of range: see corrupt_fdes()), runs the
 *	qsort path MS / 2 ms, prints "== child tables" and its own tables, and
 *	exits; then the parent runs the qsort path MS ms.
 *   discover_workload qsort-register MS
 *	the same as qsort, the program and libc registered first with
 *	PR_REGISTER_EH_FRAME, as a loader registers what it maps.
 *   discover_workload qsort-hdr-remap MS
 *	(x86-64) the program's .eh_frame_hdr written in this process's
 *	copy (its FDE count cut to 1); the program and libc registered as
 *	for qsort-register (the kernel reads the header then); the
 *	program's segment that holds the header and .eh_frame mapped again
 *	from its file (unwritten pages again); then the qsort path MS ms.
 *   discover_workload dlopen MS LIB1 LIB2
 *	main -> call_lib: dlopen(LIB1) (after the attach), lib_a -> lib_b ->
 *	cb_spin, MS ms; dlclose; the same with LIB2 (lib2_y -> lib2_x ->
 *	cb_spin), which the loader maps where LIB1 was.
 *   discover_workload obj CASE OBJ MS
 *	main -> run_obj -> obj_loop (in OBJ, libdiscover_obj.so, or a copy of
 *	it) -> obj_cb, which spins; first "obj ADDR" names obj_loop's address.
 *	CASE says how OBJ gets there (see map_case()).
 *   discover_workload shifted PROG MS
 *	PROG (discover_workload-abs) mapped one page above its link address,
 *	then main -> run_spin -> PROG's abs_spin there, MS ms.
 *   discover_workload-abs abs MS
 *	(that program: this one linked as an ET_EXEC with discover_abs.S)
 *	main -> run_spin -> abs_spin, whose FDE gives absolute addresses.
 *   discover_workload jit MS
 *	(x86-64) main -> run_jit -> two functions of a JIT in anonymous
 *	memory, without frame pointers -> jit_leaf, which spins; their
 *	.eh_frame given to libgcc with __register_frame() only (and checked:
 *	libgcc's unwinder gets through them to main first).
 *   discover_workload jit-audit AUDIT MS
 *	the same, run with LD_AUDIT=AUDIT (unwind_user_audit.so).
 *   discover_workload many N MS
 *	N copies of blob_spin(), a leaf of its own section, each in a memfd
 *	of its own mapped executable (files with no table); then main ->
 *	run_many -> one copy after the other in a random order, 1 ms of CPU
 *	time each, for MS ms.
 *   discover_workload quiet LIB DUMP MS
 *	exec itself; the new program dlopen()s and dlclose()s LIB, maps and
 *	unmaps LIB's first page executable, forks a child that exits, spins
 *	MS ms (main -> spin), and writes its /proc/self/unwind_tables to DUMP.
 *	Not attached: run as it is, or profiled from its exec on.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <grp.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <unwind.h>

#include "discover_workload.h"
#include "lib_cb.h"
#include "unwind_table.h"

/* See workload.c: real, separate functions, no tail calls. */
#define WORKLOAD_FN	__attribute__((noinline, noclone, used))

static inline void after_call(void)
{
	asm volatile("" ::: "memory");
}

volatile unsigned long sink;

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void __attribute__((noreturn)) die(const char *what)
{
	perror(what);
	exit(1);
}

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n <= 0)
			die("write");
		buf += n;
		len -= n;
	}
}

/* Say "ready", then wait for the test's byte: it has attached its events. */
static void wait_go(void)
{
	char c;

	write_all(STDOUT_FILENO, "ready\n", 6);
	if (read(STDIN_FILENO, &c, 1) != 1)
		die("read");
}

/* Copy this process's /proc/self/unwind_tables to @fd after a "== tables" line. */
static void dump_tables(int fd)
{
	char buf[4096];
	ssize_t n;
	int tfd = open("/proc/self/unwind_tables", O_RDONLY | O_CLOEXEC);

	if (tfd < 0)
		die("/proc/self/unwind_tables");
	write_all(fd, "== tables\n", 10);
	while ((n = read(tfd, buf, sizeof(buf))) > 0)
		write_all(fd, buf, n);
	if (n < 0)
		die("read unwind_tables");
	close(tfd);
}

/* The qsort() callback: where the samples land. */
WORKLOAD_FN int cmp(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	for (unsigned long i = 0; i < 300; i++)
		sink += i ^ (unsigned long)a;
	return (a > b) - (a < b);
}

#define NR_SORT	1000

WORKLOAD_FN void run(unsigned long ms)
{
	/* On the heap: a frame-pointer walk that strays into it finds no code. */
	int *v = malloc(NR_SORT * sizeof(*v));
	unsigned int seed = 1;
	double end;

	if (!v)
		exit(1);
	end = cpu_ms() + ms;
	do {
		for (int i = 0; i < NR_SORT; i++)
			v[i] = rand_r(&seed);
		qsort(v, NR_SORT, sizeof(*v), cmp);
		after_call();
	} while (cpu_ms() < end);
	free(v);
}

/* Spins @ms ms of CPU time mostly in the vDSO's clock_gettime(). */
WORKLOAD_FN void spin_vdso(unsigned long ms)
{
	double end = cpu_ms() + ms;
	struct timespec ts;

	do {
		for (int i = 0; i < 1000; i++) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			sink += ts.tv_nsec;
		}
	} while (cpu_ms() < end);
}

/* Called back by the libraries: spins for @ms ms of CPU time. */
WORKLOAD_FN void cb_spin(unsigned long ms)
{
	double end = cpu_ms() + ms;

	do {
		for (unsigned long i = 0; i < 100000; i++)
			sink += i;
	} while (cpu_ms() < end);
}

WORKLOAD_FN void *call_lib(const char *path, const char *entry, unsigned long ms)
{
	void (*fn)(unsigned long ms);
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		exit(1);
	}
	fn = (void (*)(unsigned long ms))dlsym(h, entry);
	if (!fn) {
		fprintf(stderr, "dlsym: %s\n", dlerror());
		exit(1);
	}
	fn(ms);
	after_call();
	return h;
}

/* obj_cb spins until this much CPU time is used. */
static double obj_end;

/* Called back by obj_loop: a slice of work, then whether to go on. */
WORKLOAD_FN int obj_cb(void)
{
	for (unsigned long i = 0; i < 20000; i++)
		sink += i;
	return cpu_ms() < obj_end;
}

WORKLOAD_FN void run_obj(void (*loop)(int (*cb)(void)), unsigned long ms)
{
	obj_end = cpu_ms() + ms;
	loop(obj_cb);
	after_call();
}

/* The program headers of the ELF64 file at @fd (x86-64 and s390x are 64-bit). */
static unsigned int read_phdrs(int fd, Elf64_Phdr *ph, unsigned int max)
{
	Elf64_Ehdr eh;

	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_phentsize != sizeof(*ph) || eh.e_phnum > max ||
	    pread(fd, ph, eh.e_phnum * sizeof(*ph), eh.e_phoff) !=
	    (ssize_t)(eh.e_phnum * sizeof(*ph))) {
		fprintf(stderr, "not an ELF file of this class\n");
		exit(1);
	}
	return eh.e_phnum;
}

/*
 * Map @fd's PT_LOADs, which @ph (the intact object's) describes, as the
 * loader would, without bss (the object has none): the load bias.  With
 * @bias, that one exactly (an ET_EXEC moved off its link address), else
 * wherever there is room.
 */
static uintptr_t map_object(int fd, const Elf64_Phdr *ph, unsigned int phnum, uintptr_t bias)
{
	uintptr_t page = sysconf(_SC_PAGESIZE), lo = UINTPTR_MAX, hi = 0, base;
	void *p;

	for (unsigned int i = 0; i < phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_vaddr < lo)
			lo = ph[i].p_vaddr & ~(page - 1);
		if (ph[i].p_vaddr + ph[i].p_memsz > hi)
			hi = ph[i].p_vaddr + ph[i].p_memsz;
	}
	hi = (hi + page - 1) & ~(page - 1);
	p = mmap(bias ? (void *)(lo + bias) : NULL, hi - lo, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | (bias ? MAP_FIXED_NOREPLACE : 0), -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
	base = (uintptr_t)p - lo;
	for (unsigned int i = 0; i < phnum; i++) {
		uintptr_t start = ph[i].p_vaddr & ~(page - 1);
		uintptr_t len = ph[i].p_vaddr + ph[i].p_filesz - start;
		int prot = (ph[i].p_flags & PF_R ? PROT_READ : 0) |
			   (ph[i].p_flags & PF_W ? PROT_WRITE : 0) |
			   (ph[i].p_flags & PF_X ? PROT_EXEC : 0);

		if (ph[i].p_type != PT_LOAD)
			continue;
		if (mmap((void *)(base + start), len, prot, MAP_PRIVATE | MAP_FIXED, fd,
			 ph[i].p_offset & ~(page - 1)) == MAP_FAILED)
			die("mmap PT_LOAD");
	}
	return base;
}

/* The address of symbol @name in the ELF file at @fd (.symtab), or exit. */
static unsigned long sym_vaddr(int fd, const char *name)
{
	struct stat st;
	const unsigned char *img;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;

	if (fstat(fd, &st))
		die("fstat");
	img = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (img == MAP_FAILED)
		die("mmap");
	eh = (const void *)img;
	sh = (const void *)(img + eh->e_shoff);
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *sym = (const void *)(img + sh[i].sh_offset);
		const char *str = (const char *)img + sh[sh[i].sh_link].sh_offset;

		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		for (unsigned int j = 0; j < sh[i].sh_size / sizeof(*sym); j++) {
			if (!strcmp(str + sym[j].st_name, name)) {
				unsigned long addr = sym[j].st_value;

				munmap((void *)img, st.st_size);
				return addr;
			}
		}
	}
	fprintf(stderr, "no symbol %s\n", name);
	exit(1);
}

static void copy_file(int from, int to)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(from, buf, sizeof(buf))) > 0)
		write_all(to, buf, n);
	if (n < 0)
		die("read");
}

/* A copy of the object at @path in /tmp (unlinked at once), opened O_RDWR. */
static int tmp_copy(const char *path)
{
	char name[] = "/tmp/discover_obj_XXXXXX";
	int fd = mkstemp(name), in = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || in < 0)
		die(path);
	copy_file(in, fd);
	close(in);
	unlink(name);
	return fd;
}

/*
 * Bring OBJ's obj_loop into memory as @c says:
 *   plain	a copy, mapped by hand
 *   nonelf	the same, its ELF magic overwritten: not an ELF file
 *   phdr_eof	e_phoff past the end of the file
 *   overlap	the text PT_LOAD's memsz stretched over the next PT_LOADs
 *   pn_xnum	e_phnum = PN_XNUM (65535)
 *   truncated	the copy cut after its text once mapped: the pages of the
 *		table lie past the end of the file
 *   memfd	a copy in a memfd, dlopen()ed through /proc/self/fd/N
 *   nohdr	a copy mapped by hand, then the page of its ELF header unmapped
 *   texthole	a copy mapped by hand, then the last page of its text
 *		unmapped: a hole in the text the table describes
 */
static void (*map_case(const char *c, const char *path))(int (*cb)(void))
{
	uintptr_t page = sysconf(_SC_PAGESIZE), base;
	unsigned long loop;
	Elf64_Phdr ph[16];
	unsigned int phnum;
	Elf64_Ehdr eh;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die(path);
	phnum = read_phdrs(fd, ph, 16);
	loop = sym_vaddr(fd, "obj_loop");
	close(fd);

	if (!strcmp(c, "memfd")) {
		char proc[64];
		void *h, *fn;

		fd = memfd_create("discover_obj", 0);
		if (fd < 0)
			die("memfd_create");
		{
			int in = open(path, O_RDONLY | O_CLOEXEC);

			if (in < 0)
				die(path);
			copy_file(in, fd);
			close(in);
		}
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		h = dlopen(proc, RTLD_NOW | RTLD_LOCAL);
		fn = h ? dlsym(h, "obj_loop") : NULL;
		if (!fn) {
			fprintf(stderr, "dlopen %s: %s\n", proc, dlerror());
			exit(1);
		}
		return (void (*)(int (*)(void)))fn;
	}

	fd = tmp_copy(path);
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh))
		die("pread");
	if (!strcmp(c, "nonelf")) {
		memcpy(eh.e_ident, "NOPE", 4);
	} else if (!strcmp(c, "phdr_eof")) {
		eh.e_phoff = lseek(fd, 0, SEEK_END) + page;
	} else if (!strcmp(c, "pn_xnum")) {
		eh.e_phnum = PN_XNUM;
	} else if (!strcmp(c, "overlap")) {
		unsigned long end = 0;
		Elf64_Phdr bad[16];
		int text = -1;

		memcpy(bad, ph, sizeof(bad));
		for (unsigned int i = 0; i < phnum; i++) {
			if (bad[i].p_type != PT_LOAD)
				continue;
			if (text < 0 && (bad[i].p_flags & PF_X))
				text = i;
			if (bad[i].p_vaddr + bad[i].p_memsz > end)
				end = bad[i].p_vaddr + bad[i].p_memsz;
		}
		if (text < 0)
			die("no text");
		bad[text].p_memsz = end - bad[text].p_vaddr;
		if (pwrite(fd, bad, phnum * sizeof(*bad), eh.e_phoff) !=
		    (ssize_t)(phnum * sizeof(*bad)))
			die("pwrite");
	} else if (strcmp(c, "plain") && strcmp(c, "truncated") && strcmp(c, "nohdr") &&
		   strcmp(c, "texthole")) {
		fprintf(stderr, "unknown case %s\n", c);
		exit(2);
	}
	if (pwrite(fd, &eh, sizeof(eh), 0) != sizeof(eh))
		die("pwrite");

	base = map_object(fd, ph, phnum, 0);
	if (!strcmp(c, "truncated")) {
		/* Keep the headers and the text; what follows is past EOF. */
		unsigned long text_end = 0;

		for (unsigned int i = 0; i < phnum; i++)
			if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X))
				text_end = (ph[i].p_offset + ph[i].p_filesz + page - 1) &
					   ~(page - 1);
		if (ftruncate(fd, text_end))
			die("ftruncate");
	}
	if (!strcmp(c, "nohdr") && munmap((void *)base, page))
		die("munmap");
	if (!strcmp(c, "texthole")) {
		for (unsigned int i = 0; i < phnum; i++) {
			uintptr_t end = base + ph[i].p_vaddr + ph[i].p_filesz;

			end = (end + page - 1) & ~(page - 1);
			if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_X))
				continue;
			/* Not obj_loop's page. */
			if (end - page <= base + loop || munmap((void *)(end - page), page))
				die("texthole");
		}
	}
	close(fd);
	return (void (*)(int (*)(void)))(base + loop);
}

/*
 * The program at @path (discover_workload-abs, an ET_EXEC) mapped one page
 * above its link address: its abs_spin there.
 */
static void (*map_shifted(const char *path))(unsigned long n)
{
	uintptr_t page = sysconf(_SC_PAGESIZE), base;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf64_Phdr ph[16];
	unsigned int phnum;
	unsigned long spin;

	if (fd < 0)
		die(path);
	phnum = read_phdrs(fd, ph, 16);
	base = map_object(fd, ph, phnum, page);
	spin = sym_vaddr(fd, "abs_spin");
	close(fd);
	return (void (*)(unsigned long n))(base + spin);
}

/*
 * A leaf alone in its section, which the linker brackets with __start_ and
 * __stop_ symbols: no call, no data, so that a copy runs anywhere.
 */
__attribute__((noinline, noclone, used, section("uu_blob")))
void blob_spin(unsigned long n)
{
	for (; n; n--)
		__asm__ volatile("");
}

extern const char __start_uu_blob[], __stop_uu_blob[];

typedef void (*blob_fn)(unsigned long n);

/* @n memfds, each holding a copy of blob_spin(), each mapped executable. */
static blob_fn *map_many(unsigned int n)
{
	size_t len = __stop_uu_blob - __start_uu_blob;
	blob_fn *fns = calloc(n, sizeof(*fns));
	unsigned int i;

	if (!fns)
		die("calloc");
	for (i = 0; i < n; i++) {
		int fd = memfd_create("uu_blob", MFD_CLOEXEC);
		void *p;

		if (fd < 0)
			die("memfd_create");
		write_all(fd, __start_uu_blob, len);
		p = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED)
			die("mmap");
		close(fd);
		fns[i] = (blob_fn)p;
	}
	return fns;
}

/*
 * main -> run_many -> the copies, about 1 ms each, for @ms ms.  In a random
 * order: in turn, the samples (every 4 ms at a 250 Hz tick) could keep
 * meeting the same few copies.
 */
WORKLOAD_FN void run_many(blob_fn *fns, unsigned int n, unsigned long ms)
{
	unsigned long per_ms, probe = 1000000;
	double t0 = cpu_ms(), end;

	blob_spin(probe);
	per_ms = probe / (cpu_ms() - t0 + 0.001);
	end = cpu_ms() + ms;
	srand(getpid());
	while (cpu_ms() < end)
		fns[rand() % n](per_ms);
}

/* main -> run_spin -> @spin (abs_spin, here or moved), for @ms ms. */
WORKLOAD_FN void run_spin(void (*spin)(unsigned long n), unsigned long ms)
{
	double end = cpu_ms() + ms;

	do
		spin(100000);
	while (cpu_ms() < end);
	after_call();
}

#ifdef __x86_64__
/*
 * A JIT compiler's output: two functions without frame pointers, copied
 * into anonymous memory, and the .eh_frame that describes them, handed to
 * libgcc_s (bound through the dynamic linker) as such a compiler does.
 * jit_a(fn, arg) calls fn(arg) from a frame of 24 bytes, jit_b(fn) calls
 * fn() from one of 40.
 */
static const uint8_t jit_a_code[] = {
	0x48, 0x83, 0xec, 0x18,		/* sub $24, %rsp */
	0x48, 0x89, 0xf8,		/* mov %rdi, %rax */
	0x48, 0x89, 0xf7,		/* mov %rsi, %rdi */
	0xff, 0xd0,			/* call *%rax */
	0x48, 0x83, 0xc4, 0x18,		/* add $24, %rsp */
	0xc3,				/* ret */
};

static const uint8_t jit_b_code[] = {
	0x48, 0x83, 0xec, 0x28,		/* sub $40, %rsp */
	0xff, 0xd7,			/* call *%rdi */
	0x48, 0x83, 0xc4, 0x28,		/* add $40, %rsp */
	0xc3,				/* ret */
};

/* Their CFI: the CFA is %rsp + 8, then + 32 (+ 48) after the sub, + 8 after the add. */
static const uint8_t jit_a_cfi[] = { 0x44, 0x0e, 32, 0x4c, 0x0e, 8 };
static const uint8_t jit_b_cfi[] = { 0x44, 0x0e, 48, 0x46, 0x0e, 8 };

struct jit {
	uint8_t *mem;		/* code page, then the .eh_frame page */
	void (*a)(void (*fn)(void (*)(void)), void (*arg)(void));
	void (*b)(void (*fn)(void));
};

/* An FDE for @len bytes at @code, with @cfi, at @p; the CIE at @cie. */
static uint8_t *jit_fde(uint8_t *p, const uint8_t *cie, const uint8_t *code, int32_t len,
			const uint8_t *cfi, size_t cfi_len)
{
	uint8_t *start = p;
	int32_t v;
	uint32_t u;

	p += 4;
	u = p - cie;
	memcpy(p, &u, 4);		/* the CIE pointer: back to the CIE */
	p += 4;
	v = code - p;
	memcpy(p, &v, 4);		/* pc_begin, pc-relative */
	p += 4;
	memcpy(p, &len, 4);
	p += 4;
	*p++ = 0;			/* no augmentation data */
	memcpy(p, cfi, cfi_len);
	p += cfi_len;
	while ((p - start) % 8)
		*p++ = 0;		/* DW_CFA_nop */
	u = p - start - 4;
	memcpy(start, &u, 4);
	return p;
}

static void jit_build(struct jit *j)
{
	static const uint8_t cie[] = {
		0, 0, 0, 0,		/* the length, below */
		0, 0, 0, 0,		/* a CIE */
		1, 'z', 'R', 0,		/* version, augmentation */
		1, 0x78, 16,		/* code and data alignment, RA column */
		1, 0x1b,		/* FDE addresses: pc-relative, 4 bytes */
		0x0c, 7, 8,		/* DW_CFA_def_cfa: %rsp + 8 */
		0x90, 1,		/* DW_CFA_offset: the RA at CFA - 8 */
		0, 0,			/* DW_CFA_nop */
	};
	size_t page = sysconf(_SC_PAGESIZE);
	uint8_t *eh, *p;
	uint32_t len;

	j->mem = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		      0);
	if (j->mem == MAP_FAILED)
		die("mmap");
	memcpy(j->mem, jit_a_code, sizeof(jit_a_code));
	memcpy(j->mem + 64, jit_b_code, sizeof(jit_b_code));
	eh = j->mem + page;
	memcpy(eh, cie, sizeof(cie));
	len = sizeof(cie) - 4;
	memcpy(eh, &len, 4);
	p = jit_fde(eh + sizeof(cie), eh, j->mem, sizeof(jit_a_code), jit_a_cfi,
		    sizeof(jit_a_cfi));
	p = jit_fde(p, eh, j->mem + 64, sizeof(jit_b_code), jit_b_cfi, sizeof(jit_b_cfi));
	memset(p, 0, 4);		/* the terminator */
	if (mprotect(j->mem, page, PROT_READ | PROT_EXEC) ||
	    mprotect(eh, page, PROT_READ))
		die("mprotect");
	j->a = (void *)j->mem;
	j->b = (void *)(j->mem + 64);
	__register_frame(eh);
}

static double jit_end;
static bool jit_main_seen;

static _Unwind_Reason_Code jit_frame(struct _Unwind_Context *ctx, void *arg)
{
	Dl_info info;

	(void)arg;
	if (dladdr((void *)(_Unwind_GetIP(ctx) - 1), &info) && info.dli_sname &&
	    !strcmp(info.dli_sname, "main"))
		jit_main_seen = true;
	return _URC_NO_REASON;
}

/* libgcc's unwinder must get from here through the JIT's frames to main. */
WORKLOAD_FN void jit_check(void)
{
	_Unwind_Backtrace(jit_frame, NULL);
	if (!jit_main_seen) {
		fprintf(stderr, "libgcc does not unwind the JIT's frames\n");
		exit(1);
	}
}

WORKLOAD_FN void jit_leaf(void)
{
	for (unsigned long i = 0; i < 20000; i++)
		sink += i;
}

/* main -> run_jit -> jit_a -> jit_b -> jit_leaf, for @ms ms. */
WORKLOAD_FN void run_jit(const struct jit *j, unsigned long ms)
{
	jit_end = cpu_ms() + ms;
	do
		j->a(j->b, jit_leaf);
	while (cpu_ms() < jit_end);
	after_call();
}
#endif

/* Spins @ms ms of CPU time: the quiet program's sampled code, if sampled. */
WORKLOAD_FN void spin(unsigned long ms)
{
	double end = cpu_ms() + ms;

	do {
		for (unsigned long i = 0; i < 100000; i++)
			sink += i;
	} while (cpu_ms() < end);
}

/* The quiet program, after its exec: see the top of this file. */
static int quiet(const char *lib, const char *dump, unsigned long ms)
{
	int fd, status;
	void *h, *p;
	pid_t pid;

	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h || dlclose(h)) {
		fprintf(stderr, "dlopen %s: %s\n", lib, dlerror());
		return 1;
	}
	fd = open(lib, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die(lib);
	p = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED || munmap(p, sysconf(_SC_PAGESIZE)))
		die("mmap");
	close(fd);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid)
		_exit(0);
	if (waitpid(pid, &status, 0) != pid || status)
		return 1;
	spin(ms);
	after_call();
	fd = open(dump, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die(dump);
	dump_tables(fd);
	close(fd);
	return 0;
}

/* The program's .eh_frame: its CIEs, until the zero terminator. */
static int scribble_cies(uint8_t *p, uint8_t *end)
{
	unsigned int records, cies = 0;

	for (records = 0; records < 100000 && p + 8 <= end; records++) {
		uint32_t len = *(uint32_t *)p, id = *(uint32_t *)(p + 4);
		uint8_t *q = p + 9;

		if (!len || len == 0xffffffff || len > (size_t)(end - p) - 4)
			break;
		if (!id && p[8] == 1) {
			/* version 1, the augmentation, code alignment (1) */
			while (q < end && *q)
				q++;
			q++;
			while (q < end && (*q & 0x80))
				q++;
			q++;
			/* data alignment: sleb128 -8 is 0x78; -16 is 0x70 */
			if (q < end && *q == 0x78) {
				*q = 0x70;
				cies++;
			}
		}
		p += 4 + len;
	}
	return cies;
}

/* The program's .eh_frame: every FDE's CIE pointer, until the terminator. */
static int corrupt_fdes(uint8_t *p, uint8_t *end)
{
	unsigned int records, fdes = 0;

	for (records = 0; records < 100000 && p + 8 <= end; records++) {
		uint32_t len = *(uint32_t *)p, id = *(uint32_t *)(p + 4);

		if (!len || len == 0xffffffff || len > (size_t)(end - p) - 4)
			break;
		/* Further back than .eh_frame starts: no CIE is there. */
		if (id) {
			*(uint32_t *)(p + 4) = 0xfffffff0;
			fdes++;
		}
		p += 4 + len;
	}
	return fdes;
}

/* What scribble_phdr() does to the program's .eh_frame, and its count. */
struct scribble {
	int (*edit)(uint8_t *p, uint8_t *end);
	int count;
};

/* @info's PT_GNU_EH_FRAME and the PT_LOAD that holds it, or NULL. */
static const Elf64_Phdr *eh_frame_phdrs(const struct dl_phdr_info *info,
					const Elf64_Phdr **load)
{
	const Elf64_Phdr *eh = NULL;

	*load = NULL;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
			eh = &info->dlpi_phdr[i];
	if (!eh)
		return NULL;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const Elf64_Phdr *p = &info->dlpi_phdr[i];

		if (p->p_type == PT_LOAD && p->p_vaddr <= eh->p_vaddr &&
		    eh->p_vaddr < p->p_vaddr + p->p_memsz)
			*load = p;
	}
	return eh;
}

static int scribble_phdr(struct dl_phdr_info *info, size_t size, void *data)
{
	struct scribble *sc = data;
	const Elf64_Phdr *eh, *load;
	uintptr_t page = sysconf(_SC_PAGESIZE), start, end, hdr;
	uint8_t *eh_frame;
	int prot;

	(void)size;
	/* The program comes first. */
	eh = eh_frame_phdrs(info, &load);
	if (!eh)
		return 1;
	hdr = info->dlpi_addr + eh->p_vaddr;
	/* version 1, eh_frame_ptr pcrel sdata4 */
	if (!load || *(uint8_t *)hdr != 1 || *(uint8_t *)(hdr + 1) != 0x1b)
		return 1;
	eh_frame = (uint8_t *)(hdr + 4) + *(int32_t *)(hdr + 4);
	start = (info->dlpi_addr + load->p_vaddr) & ~(page - 1);
	end = info->dlpi_addr + load->p_vaddr + load->p_memsz;
	prot = (load->p_flags & PF_R ? PROT_READ : 0) |
	       (load->p_flags & PF_X ? PROT_EXEC : 0);
	if (mprotect((void *)start, end - start, prot | PROT_WRITE))
		die("mprotect");
	sc->count = sc->edit(eh_frame, (uint8_t *)end);
	if (mprotect((void *)start, end - start, prot))
		die("mprotect");
	return 1;
}

/*
 * Make this process's copy of its .eh_frame lie: its pages become the
 * process's own (copy on write), the file does not change.
 */
static void scribble(void)
{
	struct scribble sc = { scribble_cies, 0 };

	dl_iterate_phdr(scribble_phdr, &sc);
	if (!sc.count) {
		fprintf(stderr, "no CIE with a data alignment of -8\n");
		exit(1);
	}
}

#ifdef __x86_64__
/* What hdr_phdr() does to the program's .eh_frame_hdr. */
enum hdr_op { HDR_WRITE, HDR_REMAP };

static int hdr_phdr(struct dl_phdr_info *info, size_t size, void *data)
{
	enum hdr_op *op = data;
	const Elf64_Phdr *eh, *load;
	uintptr_t page = sysconf(_SC_PAGESIZE), start, end, hdr;
	int prot, fd;

	(void)size;
	/* The program comes first. */
	eh = eh_frame_phdrs(info, &load);
	if (!eh)
		return 1;
	hdr = info->dlpi_addr + eh->p_vaddr;
	/* version 1, fde_count udata4: the count is the word at 8 */
	if (!load || (load->p_flags & PF_X) || load->p_memsz != load->p_filesz ||
	    *(uint8_t *)hdr != 1 || *(uint8_t *)(hdr + 2) != 0x03)
		die("the program's .eh_frame_hdr");
	start = (info->dlpi_addr + load->p_vaddr) & ~(page - 1);
	end = (info->dlpi_addr + load->p_vaddr + load->p_memsz + page - 1) & ~(page - 1);
	prot = load->p_flags & PF_R ? PROT_READ : 0;
	if (*op == HDR_WRITE) {
		if (mprotect((void *)start, end - start, prot | PROT_WRITE))
			die("mprotect");
		*(uint32_t *)(hdr + 8) = 1;
		if (mprotect((void *)start, end - start, prot))
			die("mprotect");
		return 1;
	}
	/* The whole segment: a VMA split off a written one keeps its anon_vma. */
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || mmap((void *)start, end - start, prot, MAP_PRIVATE | MAP_FIXED, fd,
			   load->p_offset & ~(page - 1)) == MAP_FAILED)
		die("mmap of the program's segment");
	close(fd);
	return 1;
}
#endif

/*
 * A child of a process whose table the kernel found (the entry is shared
 * at fork) makes its own copy of the table corrupt, and is unwound: its
 * lookups drop the table, in the child.  The parent is unwound after.
 */
WORKLOAD_FN void fork_corrupt(unsigned long ms)
{
	struct scribble sc = { corrupt_fdes, 0 };
	int status;
	pid_t pid;

	spin_vdso(ms / 4);
	after_call();
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		dl_iterate_phdr(scribble_phdr, &sc);
		if (!sc.count) {
			fprintf(stderr, "no FDE in the program\n");
			_exit(1);
		}
		run(ms / 2);
		after_call();
		write_all(STDOUT_FILENO, "== child tables\n", 16);
		dump_tables(STDOUT_FILENO);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || status)
		die("the child failed");
	run(ms);
	after_call();
}

/* The objects of the qsort path, registered as a loader would. */
static void register_qsort_objects(void)
{
	static const char *const suffixes[] = { "", "/libc.so.6" };
	struct ut_object obj;
	unsigned int i;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (ut_find_object(suffixes[i], &obj) || ut_register_object(&obj)) {
			fprintf(stderr, "cannot register %s\n",
				suffixes[i][0] ? suffixes[i] : "the program");
			exit(1);
		}
}

int main(int argc, char **argv)
{
	/* The same, run as user and group 65534 (nobody). */
	if (argc > 2 && !strcmp(argv[1], "as-nobody")) {
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			die("setresuid");
		argv[1] = argv[0];
		execv("/proc/self/exe", argv + 1);
		die("execv");
	}
	if (argc == 3 && (!strcmp(argv[1], "qsort") || !strcmp(argv[1], "qsort-scribble") ||
			  !strcmp(argv[1], "qsort-register"))) {
		unsigned long ms = strtoul(argv[2], NULL, 0);

		if (!strcmp(argv[1], "qsort-scribble"))
			scribble();
		if (!strcmp(argv[1], "qsort-register"))
			register_qsort_objects();
		wait_go();
		run(ms);
		after_call();
		spin_vdso(ms / 4);
		after_call();
		dump_tables(STDOUT_FILENO);
		return 0;
	}
#ifdef __x86_64__
	if (argc == 3 && !strcmp(argv[1], "qsort-hdr-remap")) {
		unsigned long ms = strtoul(argv[2], NULL, 0);
		enum hdr_op op = HDR_WRITE;

		dl_iterate_phdr(hdr_phdr, &op);
		register_qsort_objects();
		op = HDR_REMAP;
		dl_iterate_phdr(hdr_phdr, &op);
		wait_go();
		run(ms);
		after_call();
		dump_tables(STDOUT_FILENO);
		return 0;
	}
#endif
	if (argc == 3 && !strcmp(argv[1], "fork-corrupt")) {
		wait_go();
		fork_corrupt(strtoul(argv[2], NULL, 0));
		after_call();
		dump_tables(STDOUT_FILENO);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "dlopen")) {
		unsigned long ms = strtoul(argv[2], NULL, 0);
		void *h;

		wait_go();
		h = call_lib(argv[3], "lib_a", ms);
		after_call();
		if (dlclose(h))
			return 1;
		h = call_lib(argv[4], "lib2_y", ms);
		after_call();
		dump_tables(STDOUT_FILENO);
		dlclose(h);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "obj")) {
		void (*loop)(int (*cb)(void)) = map_case(argv[2], argv[3]);
		char line[64];

		snprintf(line, sizeof(line), "obj %lx\n", (unsigned long)(uintptr_t)loop);
		write_all(STDOUT_FILENO, line, strlen(line));
		wait_go();
		run_obj(loop, strtoul(argv[4], NULL, 0));
		after_call();
		dump_tables(STDOUT_FILENO);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "shifted")) {
		void (*fn)(unsigned long n) = map_shifted(argv[2]);

		wait_go();
		run_spin(fn, strtoul(argv[3], NULL, 0));
		after_call();
		dump_tables(STDOUT_FILENO);
		return 0;
	}
#ifdef __x86_64__
	/* The same, with LD_AUDIT=AUDIT in the environment. */
	if (argc == 4 && !strcmp(argv[1], "jit-audit")) {
		char *args[] = { argv[0], "jit", argv[3], NULL };

		if (setenv("LD_AUDIT", argv[2], 1))
			die("setenv");
		execv("/proc/self/exe", args);
		die("execv");
	}
	if (argc == 3 && !strcmp(argv[1], "jit")) {
		struct jit j;

		jit_build(&j);
		j.a(j.b, jit_check);
		wait_go();
		run_jit(&j, strtoul(argv[2], NULL, 0));
		after_call();
		dump_tables(STDOUT_FILENO);
		__deregister_frame(j.mem + sysconf(_SC_PAGESIZE));
		return 0;
	}
#endif
#ifdef DISCOVER_ABS
	if (argc == 3 && !strcmp(argv[1], "abs")) {
		wait_go();
		run_spin(abs_spin, strtoul(argv[2], NULL, 0));
		after_call();
		dump_tables(STDOUT_FILENO);
		return 0;
	}
#endif
	if (argc == 4 && !strcmp(argv[1], "many")) {
		unsigned int n = strtoul(argv[2], NULL, 0);
		blob_fn *fns = map_many(n);

		wait_go();
		run_many(fns, n, strtoul(argv[3], NULL, 0));
		after_call();
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "quiet")) {
		execl("/proc/self/exe", argv[0], "quiet-exec", argv[2], argv[3], argv[4],
		      (char *)NULL);
		die("execl");
	}
	if (argc == 5 && !strcmp(argv[1], "quiet-exec"))
		return quiet(argv[2], argv[3], strtoul(argv[4], NULL, 0));
	fprintf(stderr, "usage: %s %s MS | dlopen MS LIB1 LIB2 | %s | %s\n", argv[0],
		"qsort|qsort-scribble|fork-corrupt", "obj CASE OBJ MS | quiet LIB DUMP MS",
		"shifted PROG MS | many N MS");
	return 2;
}
