// SPDX-License-Identifier: GPL-2.0
/*
 * The share of a task's CPU time its deferred user stack walks may take
 * (kernel.unwind_user_cpu_time_max_percent, default 25): a walk without
 * credit uses the tables known so far only, and the task goes on with its
 * work.
 *
 * cpu_bound_workload makes every walk expensive on purpose: its stack is
 * DEPTH frames of 8192 different functions without frame pointers, in a
 * static program linked without .eh_frame_hdr, so that the kernel indexes
 * its .eh_frame at the first walk and then looks up, at nearly every frame,
 * a return address that its frame cache does not hold.  Sampled at
 * 10 kHz of cpu-clock (at the tick without high-resolution timers) for
 * RUN_S seconds, the walks' time ("walks N fp N ip N nsec N" in
 * /proc/<pid>/unwind_tables) must be at most MAX_SHARE of the task's CPU
 * time (/proc/<pid>/schedstat), read before the workload exits.
 *
 * The workload runs from a copy in a memfd: what the test is about is the
 * walks, not how the file system it is on serves the headers the kernel
 * reads to find the table (9p without a cache, in the test guest).
 *
 * The control: the same with the sysctl at 100 (no bound) must take more
 * than the bound, or the walks were not expensive enough for the test to
 * show anything.  The workload's progress (iterations per second of wall
 * and of CPU time) is printed unsampled, bounded and unbounded.  The
 * sysctl is put back as it was, whatever happens.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perf_chain.h"
#include "unwind_table.h"
#include "../kselftest_harness.h"

#define WORKLOAD	"cpu_bound_workload"
#define PERIOD_NS	100000ULL
#define RATE_ASKED	(1000000000.0 / PERIOD_NS)
#define RATE_LOW	5000.0
/* The workload's arguments: wall seconds, recursion depth, leaf spin. */
#define RUN_S		"5"
#define WARM_S		"2"
#define DEPTH		"480"
#define LEAF_SPIN	"300000"
/* The bound the test sets, and what the walks may take with slack. */
#define BOUND_PCT	25
#define MAX_SHARE	0.30
#define TABLES_MAX	4096

static char workload[PATH_MAX];

/* What the kernel did for the run, from debugfs unwind_user: printed. */
static const struct {
	const char *file, *name;
} counter_names[] = {
	{ "discover", "probes" },
	{ "discover", "found" },
	{ "discover", "none" },
	{ "discover", "again" },
	{ "discover", "limited" },
	{ "discover", "prefetched" },
	{ "registry", "index_builds" },
	{ "registry", "index_read" },
	{ "registry", "searches" },
	{ "registry", "searches_none" },
};

#define NR_COUNTERS	ARRAY_SIZE(counter_names)

/*
 * Copy the workload into a memfd, and name that for execv() (@path): the
 * file the kernel reads the workload's headers from must be in the page
 * cache, and in the test guest the workload lies on 9p without a cache,
 * whose pages a read does not keep.  The memfd's fd (read-only: a writer
 * would make exec fail) or -1.
 */
static int copy_to_memfd(const char *from, char *path, size_t size)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), fd = -1, ro = -1;
	char buf[65536], proc[64];
	ssize_t n = -1;

	if (in < 0)
		return -1;
	fd = memfd_create(WORKLOAD, MFD_CLOEXEC);
	while (fd >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, n) != n)
			break;
	close(in);
	if (fd >= 0 && !n) {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		ro = open(proc, O_RDONLY | O_CLOEXEC);
	}
	if (fd >= 0)
		close(fd);
	if (ro >= 0)
		snprintf(path, size, "/proc/self/fd/%d", ro);
	return ro;
}

static void read_counters(long long *val)
{
	for (unsigned int i = 0; i < NR_COUNTERS; i++)
		if (ut_debugfs_counter(counter_names[i].file, counter_names[i].name, &val[i]))
			val[i] = -1;
}

/* One run of the workload and what the test read of it before it exited. */
struct result {
	pid_t pid;
	int in;
	FILE *out;
	bool failed;
	unsigned long iters;
	double wall_ns;			/* its loop's, as it measured it */
	double cpu_ns;			/* schedstat */
	double utime_ns, stime_ns;	/* stat */
	bool have_walks;
	unsigned long long walks, lean, walk_ns;
	char *tables;			/* its /proc/<pid>/unwind_tables */
	/* debugfs unwind_user counters over the run (-1: missing) */
	long long counters[NR_COUNTERS];
	/* the samples of its chains that came through the ring */
	unsigned int samples, chains, max_depth;
	double mean_depth;
	unsigned long long lost;
};

static int start(struct result *r, const char *secs)
{
	char *const argv[] = { workload, (char *)secs, DEPTH, LEAF_SPIN, NULL };
	struct ut_proc p;
	char line[64];
	int ret = ut_proc_start(&p, argv);

	r->pid = p.pid;
	r->in = p.in;
	r->out = p.out;
	if (ret || !fgets(line, sizeof(line), r->out) || strcmp(line, "ready\n"))
		return -1;
	return 0;
}

static void read_proc(struct result *r)
{
	unsigned long long run, ut, st, w, l, ip, ns;
	char path[64], line[512];
	long tck = sysconf(_SC_CLK_TCK);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/unwind_tables", (int)r->pid);
	f = fopen(path, "re");
	r->tables = calloc(1, TABLES_MAX);
	while (f && fgets(line, sizeof(line), f)) {
		if (r->tables && strlen(r->tables) + strlen(line) < TABLES_MAX)
			strcat(r->tables, line);
		/* Lean: the tables known so far only, or the ip alone. */
		if (sscanf(line, "walks %llu known %llu ip %llu nsec %llu", &w, &l, &ip,
			   &ns) == 4) {
			r->have_walks = true;
			r->walks = w;
			r->lean = l + ip;
			r->walk_ns = ns;
		}
	}
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)r->pid);
	f = fopen(path, "re");
	/* pid (comm) state ppid pgrp session tty tpgid flags 4 faults utime stime */
	if (f && fscanf(f, "%*d (%*[^)]) %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			&ut, &st) == 2) {
		r->utime_ns = ut * 1e9 / tck;
		r->stime_ns = st * 1e9 / tck;
	}
	if (f)
		fclose(f);
	r->cpu_ns = r->utime_ns + r->stime_ns;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)r->pid);
	f = fopen(path, "re");
	if (f && fscanf(f, "%llu", &run) == 1 && run)
		r->cpu_ns = run;
	if (f)
		fclose(f);
}

/* Let the workload run; read its /proc files when it is done; let it exit. */
static void go(void *arg)
{
	struct result *r = arg;
	unsigned long long wall;
	char line[128];

	if (write(r->in, "g", 1) != 1 || !fgets(line, sizeof(line), r->out) ||
	    sscanf(line, "done iters %lu wall_ns %llu", &r->iters, &wall) != 2) {
		r->failed = true;
		kill(r->pid, SIGKILL);
		return;
	}
	r->wall_ns = wall;
	read_proc(r);
	if (write(r->in, "g", 1) != 1)
		r->failed = true;
}

static void run_workload(struct __test_metadata *_metadata, bool sampled, const char *secs,
			 struct result *r)
{
	long long before[NR_COUNTERS];
	struct perf_event_attr attr;
	struct chain_capture cap;
	unsigned long long sum = 0;
	int status = -1, ret;

	memset(r, 0, sizeof(*r));
	read_counters(before);
	ASSERT_EQ(0, start(r, secs)) TH_LOG("%s did not start", workload);
	if (!sampled) {
		go(r);
		ASSERT_EQ(r->pid, waitpid(r->pid, &status, 0));
	} else {
		chain_attr_cpu_clock(&attr, PERIOD_NS);
		ret = chain_attach_tasks(&cap, &attr, &r->pid, 1, false, go, r, &status);
		ASSERT_EQ(0, ret) TH_LOG("cannot sample: %s", strerror(-ret));
		for (unsigned int i = 0; i < cap.nr_samples; i++) {
			const struct chain_sample *s = &cap.samples[i];

			r->samples++;
			if (!s->resolved)
				continue;
			r->chains++;
			sum += s->nr;
			if (s->nr > r->max_depth)
				r->max_depth = s->nr;
		}
		r->mean_depth = r->chains ? (double)sum / r->chains : 0;
		r->lost = cap.lost;
		chain_free(&cap);
	}
	read_counters(r->counters);
	for (unsigned int i = 0; i < NR_COUNTERS; i++)
		r->counters[i] = r->counters[i] >= 0 && before[i] >= 0 ?
				 r->counters[i] - before[i] : -1;
	close(r->in);
	fclose(r->out);
	ASSERT_FALSE(r->failed) TH_LOG("the workload did not run to its end");
	ASSERT_EQ(0, status);
}

static void print_run(const char *what, const struct result *r, const struct result *base)
{
	struct timespec res = {};

	printf("# %s: %lu iterations in %.2f s wall, %.2f s CPU (user %.2f, system %.2f)\n",
	       what, r->iters, r->wall_ns / 1e9, r->cpu_ns / 1e9, r->utime_ns / 1e9,
	       r->stime_ns / 1e9);
	printf("# %s: progress %.1f iterations/s wall, %.1f/s CPU", what,
	       r->iters / (r->wall_ns / 1e9), r->iters / (r->cpu_ns / 1e9));
	if (base && base != r)
		printf(" (%.0f%% of unsampled, per wall second)",
		       100.0 * (r->iters / r->wall_ns) / (base->iters / base->wall_ns));
	printf("\n");
	if (base == r)
		return;
	if (r->have_walks) {
		printf("# %s: walks %llu, lean %llu, %.3f s in walks: %.1f%% of its CPU time\n",
		       what, r->walks, r->lean, r->walk_ns / 1e9, 100.0 * r->walk_ns / r->cpu_ns);
		printf("# %s: %.0f walks/s of CPU, %.0f us a walk\n", what,
		       r->walks / (r->cpu_ns / 1e9), r->walks ? r->walk_ns / 1e3 / r->walks : 0.0);
	} else {
		printf("# %s: no \"walks\" line in /proc/<pid>/unwind_tables\n", what);
		printf("# %s: system time %.1f%% of its CPU time (the walks, mostly)\n", what,
		       100.0 * r->stime_ns / (r->utime_ns + r->stime_ns));
	}
	printf("# %s: %u samples, %u chains through the ring (the first; %llu records lost)\n",
	       what, r->samples, r->chains, r->lost);
	printf("# %s: chains of %.1f frames on average, the deepest %u\n", what,
	       r->mean_depth, r->max_depth);
	for (unsigned int i = 0; i < NR_COUNTERS; i++) {
		if (r->counters[i] < 0)
			printf("# %s: debugfs %s %s: missing\n", what, counter_names[i].file,
			       counter_names[i].name);
		else
			printf("# %s: debugfs %s %s: +%lld\n", what, counter_names[i].file,
			       counter_names[i].name, r->counters[i]);
	}
	if (r->tables)
		ut_print_lines("its /proc/<pid>/unwind_tables at the end:", r->tables);
	clock_getres(CLOCK_MONOTONIC, &res);
	if (r->have_walks && r->walks / (r->cpu_ns / 1e9) < RATE_LOW &&
	    (res.tv_sec || res.tv_nsec > 1000))
		printf("# %s: %.0f walks/s of CPU, far below the %.0f Hz asked: %s\n",
		       what, r->walks / (r->cpu_ns / 1e9), RATE_ASKED,
		       "no high-resolution timers, cpu-clock fires at the tick");
}

FIXTURE(cpu_bound) {
	long saved;		/* the sysctl's value before the test, or -1 */
};

FIXTURE_SETUP(cpu_bound)
{
	char exe[PATH_MAX], file[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	ASSERT_LT(0, n);
	exe[n] = '\0';
	snprintf(file, sizeof(file), "%s/%s", dirname(exe), WORKLOAD);
	ASSERT_EQ(0, access(file, X_OK)) TH_LOG("no %s", file);
	ASSERT_LE(0, copy_to_memfd(file, workload, sizeof(workload)))
		TH_LOG("cannot copy %s into a memfd", file);
	/* A workload that died must fail the test, not kill it at our write. */
	signal(SIGPIPE, SIG_IGN);
	self->saved = ut_read_cpu_max();
}

/* In the parent: even a test killed for its timeout leaves the sysctl as it was. */
FIXTURE_TEARDOWN_PARENT(cpu_bound)
{
	if (self->saved >= 0 && ut_read_cpu_max() != self->saved)
		EXPECT_EQ(0, ut_write_cpu_max(self->saved));
}

TEST_F_TIMEOUT(cpu_bound, share_bounded, 600)
{
	struct result base, bounded, unbounded;
	double share_b, share_u;

	printf("# %s %s %s %s, sampled at %.0f Hz of cpu-clock\n", WORKLOAD, RUN_S, DEPTH,
	       LEAF_SPIN, RATE_ASKED);
	/*
	 * A run to warm up what every later run finds ready: TCG's
	 * translations of the workload's 8 MiB of code, in the test guest.
	 */
	run_workload(_metadata, false, WARM_S, &base);
	free(base.tables);
	run_workload(_metadata, false, RUN_S, &base);
	print_run("unsampled", &base, &base);

	if (self->saved < 0) {
		/* A kernel without the bound: the figures, then the failure. */
		run_workload(_metadata, true, RUN_S, &bounded);
		print_run("sampled, no bound in this kernel", &bounded, &base);
		ASSERT_LE(0, self->saved)
			TH_LOG("sysctl kernel.unwind_user_cpu_time_max_percent missing");
	}
	printf("# kernel.unwind_user_cpu_time_max_percent was %ld\n", self->saved);

	ASSERT_EQ(0, ut_write_cpu_max(BOUND_PCT));
	run_workload(_metadata, true, RUN_S, &bounded);
	print_run("bounded at 25%", &bounded, &base);

	ASSERT_EQ(0, ut_write_cpu_max(100));
	run_workload(_metadata, true, RUN_S, &unbounded);
	print_run("unbounded (100)", &unbounded, &base);
	ASSERT_EQ(0, ut_write_cpu_max(self->saved));

	ASSERT_TRUE(bounded.have_walks && unbounded.have_walks)
		TH_LOG("no \"walks\" line in /proc/<pid>/unwind_tables");
	share_b = (double)bounded.walk_ns / bounded.cpu_ns;
	share_u = (double)unbounded.walk_ns / unbounded.cpu_ns;
	printf("# walks' share of the CPU time: %.3f bounded (at most %.2f), %.3f unbounded\n",
	       share_b, MAX_SHARE, share_u);
	EXPECT_GE(MAX_SHARE, share_b);
	EXPECT_LT(BOUND_PCT / 100.0, share_u)
		TH_LOG("unbounded, the walks took no more than the bound: %s",
		       "the test does not make them expensive enough");
	EXPECT_LT(0ULL, bounded.lean) TH_LOG("no walk was lean under the bound");
	free(base.tables);
	free(bounded.tables);
	free(unbounded.tables);
}

TEST_HARNESS_MAIN
