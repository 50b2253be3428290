// SPDX-License-Identifier: GPL-2.0
/*
 * Everything that changes a process's unwind table registrations, at once,
 * in threads, for a bounded time, while something samples them (stress.c
 * runs this under perf with deferred callchains on every thread):
 *
 *   reg	register and unregister anonymous text; unmap, mremap() and
 *		MAP_FIXED over registered text
 *   dlopen	dlopen() a library, register it, call into it, dlclose()
 *   corrupt	register a table whose .eh_frame is garbage for code that
 *		runs, so that lookups drop it, racing the thread's own
 *		unregistration and munmap()
 *   fork	fork children that register, unwind and exit or exec
 *   spin	deep call chains, where most samples land
 *
 *	stress_workload SECONDS LIB1 LIB2
 *
 * At the end the registrations must be what they were at the start: exits
 * 0 if so, 1 (saying what differs) if not.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib_cb.h"
#include "unwind_table.h"

#define WORKLOAD_FN	__attribute__((noinline, noclone, used))

static atomic_bool stop;
static atomic_ulong ops[5];
static const char *lib_path[2];
static long page;
static struct ut_object lib;	/* LIB1, dlopen()ed for good by main */
static size_t lib_data;		/* its header and .eh_frame, in bytes */
volatile unsigned long sink;

static inline void after_call(void)
{
	asm volatile("" ::: "memory");
}

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/* Called back by the libraries: spins for about @ms ms. */
WORKLOAD_FN void cb_spin(unsigned long ms)
{
	for (unsigned long i = 0; i < ms * 100000; i++)
		sink += i;
}

WORKLOAD_FN void deep(int n)
{
	if (n)
		deep(n - 1);
	else
		cb_spin(1);
	after_call();
}

/* A registration of @len bytes of text at @text with LIB1's table. */
static void lib_desc(struct prctl_eh_frame *d, void *text, size_t len)
{
	ut_desc_of(&lib, d);
	d->text_start = (uintptr_t)text;
	d->text_size = len;
}

static void *reg_thread(void *arg)
{
	struct prctl_eh_frame d;
	unsigned int i = 0;

	while (!atomic_load(&stop)) {
		char *p = mmap(NULL, 4 * page, PROT_READ | PROT_EXEC,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		char *q;

		if (p == MAP_FAILED)
			die("mmap");
		for (int k = 0; k < 4; k++) {
			lib_desc(&d, p + k * page, page);
			if (ut_register(&d))
				die("register");
		}
		switch (i++ % 4) {
		case 0:		/* unregister all */
			for (int k = 0; k < 4; k++)
				if (ut_unregister((uintptr_t)p + k * page,
						  (uintptr_t)p + (k + 1) * page))
					die("unregister");
			munmap(p, 4 * page);
			break;
		case 1:		/* unmap drops them */
			munmap(p, 4 * page);
			break;
		case 2:		/* moved text, its table elsewhere: dropped */
			q = mremap(p, 4 * page, 4 * page, MREMAP_MAYMOVE);
			if (q == MAP_FAILED)
				die("mremap");
			munmap(q, 4 * page);
			break;
		case 3:		/* a new mapping over two of them */
			if (mmap(p + page, 2 * page, PROT_READ | PROT_EXEC,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
				die("mmap fixed");
			ut_unregister((uintptr_t)p, (uintptr_t)p + page);
			ut_unregister((uintptr_t)p + 3 * page, (uintptr_t)p + 4 * page);
			munmap(p, 4 * page);
			break;
		}
		atomic_fetch_add(&ops[0], 1);
	}
	return arg;
}

static void *dlopen_thread(void *arg)
{
	unsigned int i = 0;

	while (!atomic_load(&stop)) {
		const char *path = lib_path[i++ & 1];
		void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		void (*fn)(unsigned long ms);
		struct ut_object o;

		if (!h)
			die("dlopen");
		fn = (void (*)(unsigned long))dlsym(h, i & 1 ? "lib_a" : "lib2_y");
		/* EEXIST: it is LIB1, which main holds open and registered. */
		if (!fn || ut_find_object(path, &o))
			die("dlsym");
		if (o.text_start != lib.text_start) {
			int ret = ut_register_object(&o);

			if (ret && ret != -EEXIST)
				die("register a library");
		}
		fn(1);
		after_call();
		dlclose(h);
		atomic_fetch_add(&ops[1], 1);
	}
	return arg;
}

/* A leaf that loops: copied into anonymous text, position independent. */
static const unsigned char spin_code[] = {
	0xb9, 0x00, 0x00, 0x01, 0x00,	/* mov $0x10000, %ecx */
	0xff, 0xc9,			/* 1: dec %ecx */
	0x75, 0xfc,			/* jnz 1b */
	0xc3,				/* ret */
};

static void *corrupt_thread(void *arg)
{
	size_t pages = (lib_data + page - 1) / page;
	struct prctl_eh_frame d;

	while (!atomic_load(&stop)) {
		char *text = mmap(NULL, page, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		char *data = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		unsigned char *hdr;

		if (text == MAP_FAILED || data == MAP_FAILED)
			die("mmap");
		memcpy(text, spin_code, sizeof(spin_code));
		if (mprotect(text, page, PROT_READ | PROT_EXEC))
			die("mprotect");
		/* The real header (it checks out), then garbage. */
		hdr = (unsigned char *)data;
		memcpy(hdr, (const void *)(uintptr_t)lib.hdr_start, lib_data);
		memset(hdr + lib.hdr_size, 0xa5, lib_data - lib.hdr_size);
		lib_desc(&d, text, page);
		d.eh_frame_start = (uintptr_t)hdr;
		d.eh_frame_size = lib_data;
		d.eh_frame_hdr_start = (uintptr_t)hdr;
		if (ut_register(&d))
			die("register a corrupt table");
		for (int k = 0; k < 50; k++)
			((void (*)(void))text)();
		/* Dropped by a lookup already, or not: both are fine. */
		ut_unregister((uintptr_t)text, (uintptr_t)text + page);
		munmap(text, page);
		munmap(data, pages * page);
		atomic_fetch_add(&ops[2], 1);
	}
	return arg;
}

static void *fork_thread(void *arg)
{
	unsigned int i = 0;

	while (!atomic_load(&stop)) {
		int status;
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid) {
			char *p = mmap(NULL, page, PROT_READ | PROT_EXEC,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			struct prctl_eh_frame d;

			lib_desc(&d, p, page);
			if (p == MAP_FAILED || ut_register(&d))
				_exit(3);
			deep(20);
			if (i & 1)
				execl("/bin/true", "true", (char *)NULL);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "child: status %#x\n", status);
			exit(2);
		}
		i++;
		atomic_fetch_add(&ops[3], 1);
	}
	return arg;
}

static void *spin_thread(void *arg)
{
	while (!atomic_load(&stop)) {
		deep(40);
		atomic_fetch_add(&ops[4], 1);
	}
	return arg;
}

int main(int argc, char **argv)
{
	void *(*fns[])(void *) = {
		reg_thread, dlopen_thread, corrupt_thread, fork_thread, spin_thread, spin_thread,
	};
	static const char * const names[] = { "reg", "dlopen", "corrupt", "fork", "spin" };
	pthread_t t[sizeof(fns) / sizeof(fns[0])];
	struct timespec end;
	char *before, *after;
	const unsigned char *p;
	uint32_t len;
	int ret;

	if (argc != 4) {
		fprintf(stderr, "usage: %s SECONDS LIB1 LIB2\n", argv[0]);
		return 2;
	}
	page = sysconf(_SC_PAGESIZE);
	lib_path[0] = argv[2];
	lib_path[1] = argv[3];
	if (!dlopen(argv[2], RTLD_NOW | RTLD_LOCAL) || ut_find_object(argv[2], &lib))
		die("dlopen LIB1");
	/* The header and .eh_frame after it (pcrel sdata4), to its terminator. */
	p = (const unsigned char *)(uintptr_t)(lib.hdr_start + 4 +
					      *(const int32_t *)(uintptr_t)(lib.hdr_start + 4));
	do {
		memcpy(&len, p, sizeof(len));
		p += 4 + len;
	} while (len);
	lib_data = p - (const unsigned char *)(uintptr_t)lib.hdr_start;

	/* Registrations only: the samples make the kernel find tables all along. */
	before = ut_read_registrations();
	if (!before)
		die("read tables");
	ret = ut_register_object(&lib);
	if (ret)
		fprintf(stderr, "register LIB1: %s\n", strerror(-ret));

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += strtoul(argv[1], NULL, 0);
	for (unsigned int i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (pthread_create(&t[i], NULL, fns[i], NULL))
			die("pthread_create");
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) == EINTR)
		;
	atomic_store(&stop, true);
	for (unsigned int i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		pthread_join(t[i], NULL);
	for (unsigned int i = 0; i < 5; i++)
		printf("%s%s %lu%s", i ? "" : "# ", names[i], atomic_load(&ops[i]),
		       i < 4 ? ", " : "\n");

	if (ut_unregister(lib.text_start, lib.text_end))
		die("unregister LIB1");
	after = ut_read_registrations();
	if (!after)
		die("read tables");
	if (strcmp(before, after)) {
		ut_print_lines("registrations before:", before);
		ut_print_lines("after:", after);
		return 1;
	}
	printf("# registrations as before: %u\n", ut_count_lines(after));
	return 0;
}
