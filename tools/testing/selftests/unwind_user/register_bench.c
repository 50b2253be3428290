// SPDX-License-Identifier: GPL-2.0
/*
 * What a registration of an unwind table costs (not a test):
 *
 *   register_bench [N [M]]
 *
 * registers and unregisters one range N times (default 100000) and prints
 * the time per pair, next to what a getppid() and an mmap()+munmap() pair
 * of one page cost in the same run (a guest under TCG is many times slower
 * than hardware: the ratios carry over, the nanoseconds do not); then
 * registers M distinct ranges (default 4000, fewer if
 * kernel.unwind_tables_max leaves less room) and prints the growth of
 * the kernel's slab memory (/proc/meminfo Slab and SUnreclaim) per
 * registration; then unregisters them and prints what is left of it.
 *
 * The ranges are pages of one anonymous PROT_READ|PROT_EXEC mapping,
 * described by this program's own .eh_frame_hdr: the kernel checks the
 * header at registration, not that it describes the text.
 *
 * Output, one figure per line:
 *   register+unregister: T ns/pair (N pairs)
 *   getppid: T ns/call; mmap+munmap: T ns/pair; register+unregister = R x mmap+munmap
 *   memory: Slab B bytes/registration, SUnreclaim B bytes/registration (M registrations)
 *   memory after unregistering: Slab +K kB, SUnreclaim +K kB (M registrations)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "unwind_table.h"

/* Slab and SUnreclaim of /proc/meminfo, in kB. */
static int read_meminfo(long *slab, long *sunreclaim)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		found += sscanf(line, "Slab: %ld kB", slab) == 1;
		found += sscanf(line, "SUnreclaim: %ld kB", sunreclaim) == 1;
	}
	fclose(f);
	return found == 2 ? 0 : -1;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Freed entries go after an RCU grace period: let it pass. */
static void settle(void)
{
	usleep(1000000);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 100000;
	long m = argc > 2 ? strtol(argv[2], NULL, 0) : 4000;
	long page = sysconf(_SC_PAGESIZE), max = ut_read_max();
	long slab0, sunr0, slab1, sunr1, slab2, sunr2;
	struct prctl_eh_frame desc;
	struct ut_object exe;
	char *text, *tables;
	double t0, t1, pair, syscall_ns, mmap_ns;
	int ret;

	if (n < 1 || m < 1) {
		fprintf(stderr, "usage: %s [N [M]]\n", argv[0]);
		return 2;
	}
	if (ut_find_object("", &exe)) {
		fprintf(stderr, "no .eh_frame_hdr in this program\n");
		return 1;
	}
	tables = ut_read_tables();
	if (!tables) {
		perror(UNWIND_TABLES_PATH);
		return 1;
	}
	if (max > 0 && m > max - (long)ut_count_lines(tables))
		m = max - ut_count_lines(tables);
	free(tables);
	if (m < 1) {
		fprintf(stderr, "no room under kernel.unwind_tables_max = %ld\n", max);
		return 1;
	}

	text = mmap(NULL, m * page, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (text == MAP_FAILED) {
		perror("mmap");
		return 1;
	}

	/* The program's own table, for anonymous text: only its header is read. */
	ut_desc_of(&exe, &desc);
	desc.text_size = page;

	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		desc.text_start = (uintptr_t)text;
		ret = ut_register(&desc);
		if (!ret)
			ret = ut_unregister((uintptr_t)text, (uintptr_t)text + page);
		if (ret) {
			fprintf(stderr, "pair %ld: %s\n", i, strerror(-ret));
			return 1;
		}
	}
	t1 = now_ns();
	printf("register+unregister: %.0f ns/pair (%ld pairs)\n", (t1 - t0) / n, n);
	pair = (t1 - t0) / n;

	t0 = now_ns();
	for (long i = 0; i < n; i++)
		getppid();
	t1 = now_ns();
	syscall_ns = (t1 - t0) / n;
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		void *p = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		munmap(p, page);
	}
	t1 = now_ns();
	mmap_ns = (t1 - t0) / n;
	printf("getppid: %.0f ns/call; mmap+munmap: %.0f ns/pair; ", syscall_ns, mmap_ns);
	printf("register+unregister = %.1f x mmap+munmap\n", pair / mmap_ns);

	settle();
	if (read_meminfo(&slab0, &sunr0)) {
		fprintf(stderr, "no Slab/SUnreclaim in /proc/meminfo\n");
		return 1;
	}
	for (long i = 0; i < m; i++) {
		desc.text_start = (uintptr_t)text + i * page;
		ret = ut_register(&desc);
		if (ret) {
			fprintf(stderr, "registration %ld of %ld: %s\n", i, m, strerror(-ret));
			return 1;
		}
	}
	/* Maple tree nodes replaced by the inserts are freed after RCU too. */
	settle();
	read_meminfo(&slab1, &sunr1);
	printf("memory: Slab %ld bytes/registration, SUnreclaim %ld bytes/registration",
	       (slab1 - slab0) * 1024 / m, (sunr1 - sunr0) * 1024 / m);
	printf(" (%ld registrations)\n", m);

	for (long i = 0; i < m; i++) {
		ret = ut_unregister((uintptr_t)text + i * page, (uintptr_t)text + (i + 1) * page);
		if (ret) {
			fprintf(stderr, "unregistration %ld of %ld: %s\n", i, m, strerror(-ret));
			return 1;
		}
	}
	settle();
	read_meminfo(&slab2, &sunr2);
	printf("memory after unregistering: Slab %+ld kB, SUnreclaim %+ld kB (%ld registrations)\n",
	       slab2 - slab0, sunr2 - sunr0, m);
	munmap(text, m * page);
	return 0;
}
