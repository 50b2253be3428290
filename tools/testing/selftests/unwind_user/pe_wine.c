// SPDX-License-Identifier: GPL-2.0
/*
 * The PE backend under real Wine: run pe_wine_prog.exe with wine64 and a
 * uprobe on its pe_w_probe, and compare the kernel's deferred callchain
 * there with the chain Wine's own unwinder gave one call earlier
 * (RtlCaptureStackBackTrace in pe_w_mark, written to OUT): the same
 * return addresses, frame for frame, through the program, main, its CRT
 * start code, kernel32's BaseThreadInitThunk and ntdll's
 * RtlUserThreadStart (Wine's chain ends with a 0 after that).  The
 * program registered itself and Wine's loaded modules with the prctl.
 *
 *   pe_wine WINE64 EXE OUT
 *
 * Prints TAP lines; exits non-zero unless the chains match.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "pe_map.h"
#include "perf_chain.h"

#define MAX_TRACE	64

#define TRACEFS		"/sys/kernel/tracing"

/*
 * A uprobe at @path + @off as a tracefs event, counted in every thread
 * Wine starts (inherited).  The uprobe PMU's events cannot be inherited
 * across Wine's forks: the child's copy reads the path from this
 * process's memory, and fork fails with EFAULT.
 */
static int uprobe_event(struct perf_event_attr *attr, const char *path, int64_t off)
{
	char buf[PATH_MAX + 64];
	int id = -1, fd, len;
	FILE *f;

	if (access(TRACEFS "/uprobe_events", W_OK))
		mount("nodev", TRACEFS, "tracefs", 0, NULL);
	/* Not stdio: fopen(, "a") seeks to the end, which tracefs refuses. */
	fd = open(TRACEFS "/uprobe_events", O_WRONLY | O_APPEND);
	len = snprintf(buf, sizeof(buf), "p:pe_wine/probe %s:%#llx\n", path,
		       (unsigned long long)off);
	if (fd < 0 || write(fd, buf, len) != len) {
		perror(TRACEFS "/uprobe_events");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	f = fopen(TRACEFS "/events/pe_wine/probe/id", "r");
	if (!f || fscanf(f, "%d", &id) != 1)
		id = -1;
	if (f)
		fclose(f);
	if (id < 0) {
		fprintf(stderr, "pe_wine: no id for pe_wine/probe\n");
		return -1;
	}
	chain_attr_cpu_clock(attr, 1);
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
	attr->sample_period = 1;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t trace[MAX_TRACE], base = 0, probe;
	unsigned int nt = 0, last, i, hits = 0, good = 0, mods = 0, mods_ok = 0;
	struct chain_capture cap = { 0 };
	struct perf_event_attr attr;
	char line[4096], name[256];
	struct pe_file pf;
	int64_t off;
	uint32_t rva;
	FILE *f;
	int ret;

	if (argc != 4) {
		fprintf(stderr, "usage: %s WINE64 EXE OUT\n", argv[0]);
		return 2;
	}
	if (pe_file_load(&pf, argv[2]))
		return 1;
	rva = pe_file_sym_rva(&pf, "pe_w_probe");
	off = rva ? pe_file_rva_to_offset(&pf, rva) : -1;
	if (off < 0 || uprobe_event(&attr, argv[2], off)) {
		printf("not ok 1 - wine: no uprobe on pe_w_probe\n");
		return 1;
	}
	remove(argv[3]);
	ret = chain_run(&cap, &attr, (char *[]){ argv[1], argv[2], argv[3], NULL }, true);
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
	printf("# %u of %u modules registered\n", mods_ok, mods);
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
	printf("%s 1 - wine: %u uprobe hits, %u chains equal to RtlCaptureStackBackTrace's\n",
	       hits && good == hits ? "ok" : "not ok", hits, good);
	chain_free(&cap);
	pe_file_free(&pf);
	return hits && good == hits ? 0 : 1;
}
