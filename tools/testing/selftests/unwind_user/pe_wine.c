// SPDX-License-Identifier: GPL-2.0
/*
 * The PE backend under real Wine: run pe_wine_prog.exe with wine64, put a
 * uprobe on its pe_w_probe once it runs (Wine maps its sections writable
 * first, and a uprobe is only installed in a mapping that is not: one set
 * before would never fire), and compare the kernel's deferred callchain
 * there with the chain Wine's own unwinder gave one call earlier
 * (RtlCaptureStackBackTrace in pe_w_mark, written to OUT): the same
 * return addresses, frame for frame, through the program, main, its CRT
 * start code, kernel32's BaseThreadInitThunk and ntdll's
 * RtlUserThreadStart (Wine's chain ends with a 0 after that).  The
 * program registered itself and Wine's loaded modules with the prctl.
 *
 *   pe_wine WINE64 EXE OUT [--loader-registers]
 *
 * With --loader-registers the program registers nothing: Wine's loader
 * must have (patches/wine), and /proc/PID/unwind_tables must list its
 * images before the uprobe goes on.
 *
 * Prints TAP lines; exits non-zero unless the chains match.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pe_map.h"
#include "perf_chain.h"

#define MAX_TRACE	64

/* The PE images /proc/@pid/unwind_tables lists. */
static unsigned int count_pe_images(pid_t pid)
{
	unsigned int n = 0;
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/unwind_tables", pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		n += !!strstr(line, " pe\n");
	if (f)
		fclose(f);
	return n;
}

/* Where @pid has the headers of @path mapped (file offset 0), or 0. */
static uint64_t image_base(pid_t pid, const char *path)
{
	unsigned long long start, off;
	char maps[64], line[PATH_MAX + 128];
	uint64_t base = 0;
	int pos;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", pid);
	f = fopen(maps, "r");
	while (f && !base && fgets(line, sizeof(line), f)) {
		pos = 0;
		if (sscanf(line, "%llx-%*x %*s %llx %*s %*s %n", &start, &off, &pos) < 2 || !pos)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (!off && !strcmp(line + pos, path))
			base = start;
	}
	if (f)
		fclose(f);
	return base;
}

/* Let the program go down its chain: the uprobe is in place. */
static void go(void *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd >= 0)
		close(fd);
}

/* The Linux pid the program wrote to @out, waiting up to two minutes. */
static pid_t program_pid(const char *out, pid_t child)
{
	char line[256];
	int i, status;

	for (i = 0; i < 1200; i++) {
		FILE *f = fopen(out, "r");
		long pid = 0;

		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "pid %ld", &pid) == 1)
				break;
		if (f)
			fclose(f);
		if (pid > 0)
			return pid;
		if (waitpid(child, &status, WNOHANG) == child)
			return -1;
		usleep(100000);
	}
	return -1;
}

int main(int argc, char **argv)
{
	uint64_t trace[MAX_TRACE], base = 0, probe;
	unsigned int nt = 0, last, i, hits = 0, good = 0, mods = 0, mods_ok = 0;
	struct chain_capture cap = { 0 };
	struct perf_event_attr attr;
	char line[4096], name[256];
	unsigned int loader_images = 0;
	uint64_t loader_base = 0;
	char gofile[PATH_MAX + 8];
	bool loader = false;
	pid_t child, pid;
	struct pe_file pf;
	int64_t off;
	uint32_t rva;
	FILE *f;
	int ret;

	loader = argc == 5 && !strcmp(argv[4], "--loader-registers");
	if (argc != 4 && !loader) {
		fprintf(stderr, "usage: %s WINE64 EXE OUT [--loader-registers]\n", argv[0]);
		return 2;
	}
	if (pe_file_load(&pf, argv[2]))
		return 1;
	rva = pe_file_sym_rva(&pf, "pe_w_probe");
	off = rva ? pe_file_rva_to_offset(&pf, rva) : -1;
	if (off < 0 || chain_attr_uprobe(&attr, argv[2], off)) {
		printf("not ok 1 - wine: no uprobe on pe_w_probe\n");
		return 1;
	}
	remove(argv[3]);
	snprintf(gofile, sizeof(gofile), "%s.go", argv[3]);
	remove(gofile);
	child = fork();
	if (child < 0)
		return 1;
	if (!child) {
		char *mode = loader ? "wait-loader" : "wait";

		execv(argv[1], (char *[]){ argv[1], argv[2], argv[3], mode, gofile, NULL });
		_exit(127);
	}
	pid = program_pid(argv[3], child);
	if (pid < 0) {
		printf("not ok 1 - wine: %s never said its pid\n", argv[2]);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return 1;
	}
	printf("# %s runs as pid %d: the uprobe goes on it\n", argv[2], pid);
	loader_images = count_pe_images(pid);
	loader_base = image_base(pid, argv[2]);
	printf("# %u PE images registered before it goes on; %s at %llx\n", loader_images,
	       argv[2], (unsigned long long)loader_base);
	ret = chain_attach(&cap, &attr, pid, child, go, gofile);
	remove(gofile);
	if (ret || cap.exit_status) {
		printf("not ok 1 - wine: %s exited with %#x (%s)\n", argv[2],
		       cap.exit_status, ret ? strerror(-ret) : "ran");
		return 1;
	}

	f = fopen(argv[3], "r");
	if (!f) {
		printf("not ok 1 - wine: the program wrote no %s\n", argv[3]);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long b, s;
		long long err;
		char *p, *end;

		if (sscanf(line, "register %llx %llx %255s %lld", &b, &s, name, &err) == 4) {
			printf("# registered %s at %llx (%llx bytes): %s\n", name, b, s,
			       err ? strerror(-err) : "ok");
			mods++;
			mods_ok += !err;
			if (!strcasecmp(name, "pe_wine_prog.exe"))
				base = b;
			continue;
		}
		if (strncmp(line, "trace ", 6))
			continue;
		p = line + 6;
		nt = strtoul(p, &end, 10);
		for (i = 0; i < nt && i < MAX_TRACE; i++)
			trace[i] = strtoull(end, &end, 16);
		nt = i;
	}
	fclose(f);
	printf("# %u of %u modules registered by the program\n", mods_ok, mods);
	if (loader) {
		/* Wine registered them: the program's own image among them. */
		base = loader_base;
		if (mods || loader_images < 2 || !base) {
			printf("not ok 1 - wine: %u images registered by the loader, %u %s\n",
			       loader_images, mods, "by the program");
			return 1;
		}
	}
	if (!base || nt < 2) {
		printf("not ok 1 - wine: no image base or trace in %s\n", argv[3]);
		return 1;
	}
	probe = base + rva;
	/* Wine's chain ends with a 0 after RtlUserThreadStart; compare up to it. */
	for (last = 1; last < nt && trace[last]; last++)
		;

	/*
	 * At the probe: pe_w_probe, its return into pe_w_mark, then the
	 * frames Wine gave from pe_w_mark's caller on, one place further.
	 */
	for (i = 0; i < cap.nr_samples; i++) {
		const struct chain_sample *s = &cap.samples[i];
		unsigned int j, same = 0;

		if (!s->nr || s->ips[0] != probe)
			continue;
		hits++;
		for (j = 1; j < last && j + 1 < s->nr; j++)
			same += s->ips[j + 1] == trace[j];
		printf("# kernel chain (%u frames%s):", s->nr,
		       s->resolved ? "" : ", never delivered");
		for (j = 0; j < s->nr && j < 24; j++)
			printf(" %llx", (unsigned long long)s->ips[j]);
		printf("\n# Wine's chain from pe_w_mark:");
		for (j = 0; j < last; j++)
			printf(" %llx", (unsigned long long)trace[j]);
		printf("\n# %u of Wine's %u caller frames equal\n", same, last - 1);
		good += s->resolved && same == last - 1;
	}
	printf("# %u samples, %u deferred chains; the probe at %llx\n", cap.nr_samples,
	       cap.nr_deferred, (unsigned long long)probe);
	for (i = 0; i < cap.nr_samples && i < 3; i++)
		printf("# sample %u: pid %u ip %llx, %u frames\n", i, cap.samples[i].pid,
		       (unsigned long long)cap.samples[i].ip, cap.samples[i].nr);
	printf("%s 1 - wine: %u uprobe hits, %u chains equal to RtlCaptureStackBackTrace's\n",
	       hits && good == hits ? "ok" : "not ok", hits, good);
	chain_free(&cap);
	pe_file_free(&pf);
	return hits && good == hits ? 0 : 1;
}
