// SPDX-License-Identifier: GPL-2.0
/*
 * What the registry costs the address space calls every process makes:
 * fork() + exit, and mmap() + munmap() of a page that holds no text, with
 * the registry as exec leaves it (empty: the kernel finds tables only when
 * a walk needs them, and nothing samples this program) and with @extra
 * registrations.  Run on a kernel with and without the series (make
 * bench-mm) and compare; on a kernel without the prctl the runs with extra
 * registrations are left out.
 *
 *	mm_bench [FORKS [MUNMAPS [EXTRA]]]	(defaults 2000, 100000, 100)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unwind_table.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double fork_exit(long n)
{
	double t0 = now_ns();

	for (long i = 0; i < n; i++) {
		pid_t pid = fork();
		int status;

		if (pid < 0) {
			perror("fork");
			exit(1);
		}
		if (!pid)
			_exit(0);
		waitpid(pid, &status, 0);
	}
	return (now_ns() - t0) / n;
}

static double mmap_munmap(long n, long page)
{
	double t0 = now_ns();

	for (long i = 0; i < n; i++) {
		void *p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);

		if (p == MAP_FAILED) {
			perror("mmap");
			exit(1);
		}
		munmap(p, page);
	}
	return (now_ns() - t0) / n;
}

int main(int argc, char **argv)
{
	long forks = argc > 1 ? strtol(argv[1], NULL, 0) : 2000;
	long munmaps = argc > 2 ? strtol(argv[2], NULL, 0) : 100000;
	long extra = argc > 3 ? strtol(argv[3], NULL, 0) : 100;
	long page = sysconf(_SC_PAGESIZE);
	struct prctl_eh_frame desc;
	struct ut_object exe;
	char *tables = ut_read_tables(), *text;
	unsigned int lines = tables ? ut_count_lines(tables) : 0;
	bool have_tables = tables;
	long i;

	free(tables);
	printf("registrations: %u%s\n", lines,
	       have_tables ? "" : " (no /proc/self/unwind_tables)");
	/* Warm up, then measure. */
	fork_exit(forks / 10 + 1);
	printf("fork+exit: %.0f ns\n", fork_exit(forks));
	mmap_munmap(munmaps / 10 + 1, page);
	printf("mmap+munmap: %.0f ns\n", mmap_munmap(munmaps, page));

	if (!have_tables || ut_find_object("", &exe))
		return 0;
	text = mmap(NULL, extra * page, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (text == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	ut_desc_of(&exe, &desc);
	desc.text_size = page;
	for (i = 0; i < extra; i++) {
		desc.text_start = (uintptr_t)text + i * page;
		if (ut_register(&desc)) {
			perror("register");
			return 1;
		}
	}
	printf("with %ld more registrations: fork+exit: %.0f ns\n", extra, fork_exit(forks));
	printf("with %ld more registrations: mmap+munmap: %.0f ns\n", extra,
	       mmap_munmap(munmaps, page));
	return 0;
}
