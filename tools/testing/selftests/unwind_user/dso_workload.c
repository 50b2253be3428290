// SPDX-License-Identifier: GPL-2.0
/*
 * Call paths through shared libraries, for the chains of libchain.c.  Built
 * without frame pointers and with -rdynamic (cb_spin is called back by the
 * libraries); the tests symbolize every frame from the ELF files the
 * samples' mappings name.
 *
 *   dso_workload qsort MS
 *	main -> a -> qsort() in libc -> cmp, which spins: MS ms of CPU time
 *	spent sorting, mostly in cmp.
 *   dso_workload dlopen MS LIB1 LIB2 [DUMP]
 *	main -> call_lib: dlopen(LIB1), lib_a -> lib_b -> cb_spin, which
 *	spins MS ms; dlclose; then the same with LIB2 (lib2_y -> lib2_x ->
 *	cb_spin), which the loader maps where LIB1 was.  DUMP receives, after
 *	each dlopen and dlclose, a "== ..." line naming the library (its
 *	load address, text and .eh_frame_hdr), then /proc/self/unwind_tables.
 *   dso_workload unreadable MS LIB
 *	main -> call_lib: dlopen(LIB), register its table itself, make the
 *	segment that holds the table unreadable (PROT_NONE), then lib_a ->
 *	lib_b -> cb_spin, which spins MS ms; the segment is restored after.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

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

/* The qsort() callback: where the samples land. */
WORKLOAD_FN int cmp(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	for (unsigned long i = 0; i < 300; i++)
		sink += i ^ (unsigned long)a;
	return (a > b) - (a < b);
}

#define NR_SORT	1000

WORKLOAD_FN void a(unsigned long spin_ms)
{
	/* On the heap: a frame-pointer walk that strays into it finds no code. */
	int *v = malloc(NR_SORT * sizeof(*v));
	unsigned int seed = 1;
	double end;

	if (!v)
		exit(1);
	end = cpu_ms() + spin_ms;
	do {
		for (int i = 0; i < NR_SORT; i++)
			v[i] = rand_r(&seed);
		qsort(v, NR_SORT, sizeof(*v), cmp);
		after_call();
	} while (cpu_ms() < end);
	free(v);
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

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n <= 0)
			exit(1);
		buf += n;
		len -= n;
	}
}

/* "== @what @path" and where @path is, then the registrations. */
static void dump(int fd, const char *what, const char *path)
{
	struct ut_object obj;
	char line[512];
	char *tables;

	if (fd < 0)
		return;
	if (ut_find_object(path, &obj))
		snprintf(line, sizeof(line), "== %s %s unmapped\n", what, path);
	else
		snprintf(line, sizeof(line), "== %s %s base %llx text %llx-%llx hdr %llx %llu\n",
			 what, path, (unsigned long long)obj.base,
			 (unsigned long long)obj.text_start, (unsigned long long)obj.text_end,
			 (unsigned long long)obj.hdr_start, (unsigned long long)obj.hdr_size);
	write_all(fd, line, strlen(line));
	tables = ut_read_tables();
	if (!tables) {
		/* The test fails on this line, saying why. */
		snprintf(line, sizeof(line), "!! %s: %s\n", UNWIND_TABLES_PATH, strerror(errno));
		write_all(fd, line, strlen(line));
		return;
	}
	write_all(fd, tables, strlen(tables));
	free(tables);
}

/*
 * Register the table of the library at @path, then make the pages that hold
 * it readable or not (@prot).  The library's code reads nothing there.
 */
static void table_prot(const char *path, int prot, bool do_register)
{
	uintptr_t page = sysconf(_SC_PAGESIZE), start, end;
	struct ut_object obj;
	int ret;

	if (ut_find_object(path, &obj)) {
		fprintf(stderr, "%s: not mapped\n", path);
		exit(1);
	}
	if (do_register) {
		ret = ut_register_object(&obj);
		if (ret) {
			fprintf(stderr, "%s: register: %s\n", path, strerror(-ret));
			exit(1);
		}
	}
	start = obj.eh_frame_start & ~(page - 1);
	end = (obj.eh_frame_start + obj.eh_frame_size + page - 1) & ~(page - 1);
	if (mprotect((void *)start, end - start, prot)) {
		perror("mprotect");
		exit(1);
	}
}

WORKLOAD_FN void *call_lib(const char *path, const char *entry, unsigned long ms, int fd,
			   bool unreadable)
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
	dump(fd, "open", path);
	if (unreadable)
		table_prot(path, PROT_NONE, true);
	fn(ms);
	after_call();
	if (unreadable)
		table_prot(path, PROT_READ, false);
	return h;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "qsort")) {
		a(strtoul(argv[2], NULL, 0));
		after_call();
		return 0;
	}
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "dlopen")) {
		unsigned long ms = strtoul(argv[2], NULL, 0);
		int fd = -1;
		void *h;

		if (argc == 6) {
			fd = open(argv[5], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (fd < 0) {
				perror(argv[5]);
				return 1;
			}
		}
		h = call_lib(argv[3], "lib_a", ms, fd, false);
		after_call();
		if (dlclose(h))
			return 1;
		dump(fd, "close", argv[3]);
		h = call_lib(argv[4], "lib2_y", ms, fd, false);
		after_call();
		dlclose(h);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "unreadable")) {
		call_lib(argv[3], "lib_a", strtoul(argv[2], NULL, 0), -1, true);
		after_call();
		return 0;
	}
	fprintf(stderr, "usage: %s qsort MS | dlopen MS LIB1 LIB2 [DUMP] | %s\n", argv[0],
		"unreadable MS LIB");
	return 2;
}
