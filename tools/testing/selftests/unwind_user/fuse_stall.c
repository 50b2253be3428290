// SPDX-License-Identifier: GPL-2.0
/*
 * A sampled task must never get stuck in the kernel because the unwinder
 * reads a file that does not answer.  The deferred walk reads a library's
 * unwind table through the task's mapping of it (page faults into the
 * file), and discovery reads the file's ELF headers: if the library is
 * served by a FUSE server that stopped answering, such a read waits for
 * good.  On the way back to user space SIGKILL ends the wait; in do_exit()
 * (unwind_deferred_task_exit()) SIGKILL is already consumed and nothing
 * does, and the task stays in D state.
 *
 * The library (libfuse_stall.so, built without frame pointers) is served
 * by fuse_server.c; the workload dlopen()s it from the mount and spins in
 * it.  Then the server is stopped (SIGSTOP) and the page cache dropped: no
 * page of the library's .eh_frame_hdr is cached (checked), so a walk
 * through the library must read the file.  Each test has a walk asked for,
 * SIGKILLs the workload and requires waitpid() to reap it within KILL_MS:
 *
 *   - cpu_clock: the workload sampled by cpu-clock with deferred user
 *     callchains (perf record --call-graph fp,defer -p PID): the walk runs
 *     on its way back to user space, where it waits for the file until
 *     SIGKILL comes;
 *   - exit_walk: sampled at the tracepoint signal:signal_deliver with
 *     deferred user callchains (perf record -e signal:signal_deliver
 *     --call-graph fp,defer -p PID): the sample taken as SIGKILL is
 *     delivered asks for a walk that runs in do_exit().  A cpu-clock
 *     sample cannot be made to: get_signal() runs the walk a sample asked
 *     for before it takes SIGKILL, and a sample in the kernel between the
 *     two is a matter of luck.
 *
 * read_error_retried has the server fail the reads of the library's
 * .eh_frame_hdr a few times, then answer: the table must be found.
 * remount_same_dev (below) serves other bytes under the identity an
 * earlier mount's file showed: their frames must be their own.
 *
 * A test fails, rather than passes, if no walk was asked for (and, for
 * cpu_clock, seen to run) while the server was stopped.  A workload that
 * SIGKILL does not end in time is shown (state, wchan, kernel stack), then
 * released: the server resumes (the READs it then answers say what the
 * task waited for), and if that is not enough the connection is aborted.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuse_server.h"
#include "perf_chain.h"
#include "unwind_table.h"
#include "../kselftest_harness.h"

#define LIB		"libfuse_stall.so"
#define LIB_RUN		"fuse_lib_run"
/* What SIGKILL may take to end the workload, stalled file or not. */
#define KILL_MS		5000
/* dlopen() over FUSE, and the first samples, under TCG. */
#define READY_MS	30000
#define WALK_MS		20000
/* What a stuck workload gets once the server resumes, then once it is aborted. */
#define RELEASE_MS	10000
#define PERIOD_NS	1000000
#define RING_PAGES	64
#define TRACEFS		"/sys/kernel/tracing"
#define SIGNAL_DELIVER	"events/signal/signal_deliver/id"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* All of @path, NUL-terminated, malloc()ed; its size in *@size. NULL: errno. */
static char *read_file(const char *path, size_t *size)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap + 1), *p;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !buf)
		goto fail;
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += n;
		if (len < cap)
			continue;
		cap *= 2;
		p = realloc(buf, cap + 1);
		if (!p)
			goto fail;
		buf = p;
	}
	if (n < 0)
		goto fail;
	close(fd);
	buf[len] = '\0';
	if (size)
		*size = len;
	return buf;
fail:
	free(buf);
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		ret = -errno;
	close(fd);
	return ret;
}

/* The library as the server serves it, and where its unwind table lies. */
struct lib_info {
	unsigned char *data;
	size_t size;
	uint64_t hdr_off, hdr_size;	/* .eh_frame_hdr: PT_GNU_EH_FRAME */
};

static int lib_load(struct lib_info *l)
{
	char exe[PATH_MAX], path[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const Elf64_Ehdr *eh;
	const Elf64_Phdr *ph;

	exe[n > 0 ? n : 0] = '\0';
	*(strrchr(exe, '/') ?: exe) = '\0';
	snprintf(path, sizeof(path), "%s/%s", exe, LIB);
	l->data = (unsigned char *)read_file(path, &l->size);
	if (!l->data)
		return -errno;
	eh = (const void *)l->data;
	if (l->size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_phentsize != sizeof(*ph) ||
	    eh->e_phoff + eh->e_phnum * sizeof(*ph) > l->size)
		return -ENOEXEC;
	ph = (const void *)(l->data + eh->e_phoff);
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_GNU_EH_FRAME)
			continue;
		l->hdr_off = ph[i].p_offset;
		l->hdr_size = ph[i].p_filesz;
	}
	return l->hdr_size ? 0 : -ENOENT;
}

/* The name of the section of @l that holds the file offset @off, or "?". */
static const char *lib_section_at(const struct lib_info *l, uint64_t off)
{
	const Elf64_Ehdr *eh = (const void *)l->data;
	const Elf64_Shdr *sh = (const void *)(l->data + eh->e_shoff);
	const char *names;

	if (!eh->e_shoff || eh->e_shentsize != sizeof(*sh) || eh->e_shstrndx >= eh->e_shnum ||
	    eh->e_shoff + eh->e_shnum * sizeof(*sh) > l->size ||
	    sh[eh->e_shstrndx].sh_offset >= l->size)
		return "?";
	names = (const char *)l->data + sh[eh->e_shstrndx].sh_offset;
	for (unsigned int i = 1; i < eh->e_shnum; i++) {
		if (sh[i].sh_type == SHT_NOBITS || off < sh[i].sh_offset ||
		    off - sh[i].sh_offset >= sh[i].sh_size)
			continue;
		return names + sh[i].sh_name;
	}
	return "?";
}

/* A perf event on the workload and what its ring buffer received. */
struct ring {
	int fd;
	struct perf_event_mmap_page *pg;
	size_t map_size;
	unsigned int samples;		/* PERF_RECORD_SAMPLE */
	unsigned int deferred_samples;	/* ...that asked for a deferred user callchain */
	unsigned int deferred;		/* PERF_RECORD_CALLCHAIN_DEFERRED: walks done */
	uint64_t lost;
};

/* Open @attr on @pid, enabled, with a ring buffer: 0, or -errno. */
static int ring_open(struct ring *r, struct perf_event_attr *attr, pid_t pid)
{
	size_t page = sysconf(_SC_PAGESIZE);
	int ret;

	memset(r, 0, sizeof(*r));
	attr->disabled = 0;
	attr->enable_on_exec = 0;
	attr->inherit = 0;
	r->fd = syscall(SYS_perf_event_open, attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return -errno;
	r->map_size = (RING_PAGES + 1) * page;
	r->pg = mmap(NULL, r->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->pg == MAP_FAILED) {
		ret = -errno;
		r->pg = NULL;
		close(r->fd);
		r->fd = -1;
		return ret;
	}
	return 0;
}

static void ring_close(struct ring *r)
{
	if (r->pg)
		munmap(r->pg, r->map_size);
	if (r->fd >= 0)
		close(r->fd);
	r->pg = NULL;
	r->fd = -1;
}

/*
 * A record of @h->type: its body, @p, in u64 words (PERF_SAMPLE_IP | TID |
 * CALLCHAIN for a sample, as perf_chain.c asks for them).
 */
static void ring_count(struct ring *r, const struct perf_event_header *h, const uint64_t *p)
{
	size_t n = (h->size - sizeof(*h)) / sizeof(*p);

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		r->samples++;
		for (uint64_t i = 0; n >= 3 && i < p[2] && 3 + i < n; i++) {
			if (p[3 + i] == PERF_CONTEXT_USER_DEFERRED) {
				r->deferred_samples++;
				break;
			}
		}
		break;
	case PERF_RECORD_CALLCHAIN_DEFERRED:
		r->deferred++;
		break;
	case PERF_RECORD_LOST:
		if (n >= 2)
			r->lost += p[1];
		break;
	}
}

/* Count the records that came since the last call, and give their room back. */
static void ring_poll(struct ring *r)
{
	/* A record, copied out of the ring: u64 words, read as such. */
	static uint64_t rec[(1 << 16) / sizeof(uint64_t)];
	unsigned char *bytes = (unsigned char *)rec;
	struct perf_event_header h;
	const unsigned char *data;
	uint64_t head, tail, size;

	if (!r->pg)
		return;
	data = (const unsigned char *)r->pg + r->pg->data_offset;
	size = r->pg->data_size;
	head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	tail = r->pg->data_tail;
	while (head - tail >= sizeof(h)) {
		for (size_t i = 0; i < sizeof(h); i++)
			bytes[i] = data[(tail + i) % size];
		memcpy(&h, rec, sizeof(h));
		if (h.size < sizeof(h) || head - tail < h.size)
			break;
		for (size_t i = sizeof(h); i < h.size; i++)
			bytes[i] = data[(tail + i) % size];
		ring_count(r, &h, rec + sizeof(h) / sizeof(*rec));
		tail += h.size;
	}
	__atomic_store_n(&r->pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* The state letter of /proc/<pid>/stat (R, S, D, T, Z, ...), or '?'. */
static char task_state(pid_t pid)
{
	char path[64], *stat, *paren, state = '?';

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	stat = read_file(path, NULL);
	paren = stat ? strrchr(stat, ')') : NULL;
	if (paren && paren[1] == ' ' && paren[2])
		state = paren[2];
	free(stat);
	return state;
}

static int wait_state(pid_t pid, char state, unsigned int ms)
{
	double stop = now_ms() + ms;

	while (task_state(pid) != state) {
		if (now_ms() > stop)
			return -ETIMEDOUT;
		usleep(5000);
	}
	return 0;
}

/* Is @pid in the kernel, in the deferred unwinder (its kernel stack says so)? */
static bool task_in_unwinder(pid_t pid)
{
	char path[64], *stack;
	bool in;

	snprintf(path, sizeof(path), "/proc/%d/stack", (int)pid);
	stack = read_file(path, NULL);
	in = stack && strstr(stack, "unwind");
	free(stack);
	return in;
}

static void show_task(pid_t pid)
{
	char path[64], *text;

	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)pid);
	text = read_file(path, NULL);
	ksft_print_msg("%d: state %c, wchan %s\n", (int)pid, task_state(pid),
		       text ? text : "?");
	free(text);
	snprintf(path, sizeof(path), "/proc/%d/stack", (int)pid);
	text = read_file(path, NULL);
	ut_print_lines("its kernel stack:", text ? text : "(unreadable)");
	free(text);
}

/* A counter of /sys/kernel/debug/unwind_user/@file, or -1. */
static long long debugfs_counter(const char *file, const char *name)
{
	long long val;

	return ut_debugfs_counter(file, name, &val) ? -1 : val;
}

/* The id of the tracepoint @event (under tracefs), or -1. */
static long long tracepoint_id(const char *event)
{
	char path[256], *text;
	long long id = -1;

	snprintf(path, sizeof(path), "%s/%s", TRACEFS, event);
	if (access(path, R_OK))
		mount("tracefs", TRACEFS, "tracefs", 0, NULL);
	text = read_file(path, NULL);
	if (text)
		id = atoll(text);
	free(text);
	return id;
}

/* A test's library, server, workload and event. */
struct stall {
	struct lib_info lib;
	struct fuse_srv srv;
	char dir[64];
	void *map;		/* our mapping of the served file: for mincore() only */
	pid_t wl;		/* the workload, until reaped */
	struct ring ring;
	long long probes;	/* debugfs unwind_user/discover "probes" at the stop */
};

FIXTURE(fuse_stall) {
	struct stall st;
};

/* Reap the workload within @ms: how long it took (ms), or -1. */
static double reap(struct stall *st, unsigned int ms)
{
	double start = now_ms();

	while (waitpid(st->wl, NULL, WNOHANG) != st->wl) {
		if (now_ms() - start > ms)
			return -1;
		usleep(2000);
	}
	st->wl = 0;
	return now_ms() - start;
}

static void show_reads(struct stall *st, unsigned long from)
{
	const struct fuse_srv_stats *stats = st->srv.stats;

	if (stats->reads - from > FUSE_SRV_LOG)
		from = stats->reads - FUSE_SRV_LOG;
	for (unsigned long i = from; i < stats->reads; i++) {
		uint64_t off = stats->read_off[i % FUSE_SRV_LOG];

		ksft_print_msg("  READ at %#llx, %u bytes (%s)\n", (unsigned long long)off,
			       stats->read_size[i % FUSE_SRV_LOG], lib_section_at(&st->lib, off));
	}
}

/* A workload that SIGKILL did not end: let the server answer, else fail its requests. */
static void release(struct stall *st)
{
	unsigned long reads = st->srv.stats->reads;
	double ms;

	fuse_srv_cont(&st->srv);
	ms = reap(st, RELEASE_MS);
	if (ms >= 0) {
		ksft_print_msg("exited %.0f ms after the server resumed; %lu READs answered:\n",
			       ms, st->srv.stats->reads - reads);
		show_reads(st, reads);
		return;
	}
	ksft_print_msg("still there %d ms after the server resumed: aborting the connection\n",
		       RELEASE_MS);
	fuse_srv_abort(&st->srv);
	ms = reap(st, RELEASE_MS);
	if (ms >= 0)
		ksft_print_msg("it exited %.0f ms after the abort\n", ms);
	else
		ksft_print_msg("still there %d ms after the abort\n", RELEASE_MS);
}

/*
 * Fork the workload: dlopen() the library from the mount, call into it,
 * spin there.  It says "r" on a pipe once it spins in the library.
 */
static int start_workload(struct stall *st)
{
	struct pollfd pfd = { .events = POLLIN };
	int p[2], ret = -ETIMEDOUT;
	char c;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	st->wl = fork();
	if (!st->wl) {
		unsigned long (*run)(int fd);
		void *h;

		/* Never outlive the test, whatever it dies of. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		h = dlopen(st->srv.path, RTLD_NOW);
		run = h ? (unsigned long (*)(int))dlsym(h, LIB_RUN) : NULL;
		if (run)
			run(p[1]);
		_exit(1);
	}
	close(p[1]);
	if (st->wl < 0) {
		ret = -errno;
		st->wl = 0;
	} else {
		pfd.fd = p[0];
		if (poll(&pfd, 1, READY_MS) == 1)
			ret = read(p[0], &c, 1) == 1 && c == 'r' ? 0 : -EIO;
	}
	close(p[0]);
	return ret;
}

FIXTURE_SETUP(fuse_stall)
{
	struct stall *st = &self->st;
	int fd, ret;

	st->ring.fd = -1;
	if (geteuid())
		SKIP(return, "mounting a FUSE file system needs root");
	if (access("/dev/fuse", R_OK | W_OK))
		SKIP(return, "no /dev/fuse (CONFIG_FUSE_FS)");
	/* Our mount: nobody else sees it, and it goes away with us. */
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ret = lib_load(&st->lib);
	ASSERT_EQ(0, ret) TH_LOG("%s: %s", LIB, strerror(-ret));
	snprintf(st->dir, sizeof(st->dir), "/tmp/fuse_stall.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(st->dir));
	ret = fuse_srv_start(&st->srv, st->dir, LIB, st->lib.data, st->lib.size);
	ASSERT_EQ(0, ret) TH_LOG("cannot serve %s at %s: %s", LIB, st->dir, strerror(-ret));
	/* Closed now, while the server answers its FLUSH. */
	fd = open(st->srv.path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	st->map = mmap(NULL, st->lib.size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	ASSERT_NE(MAP_FAILED, st->map);
	ret = start_workload(st);
	ASSERT_EQ(0, ret) TH_LOG("the workload did not start spinning in %s: %s",
				 st->srv.path, strerror(-ret));
}

FIXTURE_TEARDOWN(fuse_stall)
{
	struct stall *st = &self->st;

	if (st->wl > 0) {
		kill(st->wl, SIGKILL);
		if (reap(st, KILL_MS) < 0)
			release(st);
	}
	ring_close(&st->ring);
	fuse_srv_destroy(&st->srv);
	if (st->map && st->map != MAP_FAILED)
		munmap(st->map, st->lib.size);
	if (st->dir[0])
		rmdir(st->dir);
	free(st->lib.data);
}

/* How many pages of .eh_frame_hdr the page cache holds (of *@pages); -1 on error. */
static int hdr_cached(struct stall *st, unsigned int *pages, bool *page0)
{
	size_t page = sysconf(_SC_PAGESIZE);
	uint64_t start = st->lib.hdr_off & ~(uint64_t)(page - 1);
	uint64_t end = st->lib.hdr_off + st->lib.hdr_size;
	unsigned char vec[64];
	int cached = 0;

	*pages = (end - start + page - 1) / page;
	if (*pages > sizeof(vec) || mincore((char *)st->map + start, end - start, vec) ||
	    mincore(st->map, page, vec + *pages))
		return -1;
	for (unsigned int i = 0; i < *pages; i++)
		cached += vec[i] & 1;
	*page0 = vec[*pages] & 1;
	return cached;
}

/*
 * Stop the server and drop the page cache: what the workload never mapped
 * goes, and any walk through the library has to read the file.
 */
static void stall(struct __test_metadata *_metadata, struct stall *st)
{
	unsigned int pages;
	bool page0;
	int cached;

	ASSERT_EQ(0, fuse_srv_stop(&st->srv));
	ASSERT_EQ(0, wait_state(st->srv.pid, 'T', KILL_MS));
	ASSERT_EQ(0, write_file("/proc/sys/vm/drop_caches", "1"));
	cached = hdr_cached(st, &pages, &page0);
	ASSERT_LE(0, cached) TH_LOG("mincore: %s", strerror(errno));
	ksft_print_msg("server stopped; cached: %d of %u pages of .eh_frame_hdr, page 0: %s\n",
		       cached, pages, page0 ? "yes" : "no");
	ASSERT_EQ(0, cached) TH_LOG("the walk would not need to read the file");
	st->probes = debugfs_counter("discover", "probes");
}

/*
 * SIGKILL the workload: how long waitpid() took to reap it (ms), or -1 if
 * it did not within KILL_MS, after showing it and releasing it.
 */
static double kill_workload(struct stall *st)
{
	long long probes;
	double ms;

	if (kill(st->wl, SIGKILL))
		return -1;
	ms = reap(st, KILL_MS);
	if (ms < 0) {
		ksft_print_msg("workload %d not reaped %d ms after SIGKILL:\n", (int)st->wl,
			       KILL_MS);
		show_task(st->wl);
		release(st);
	} else {
		ksft_print_msg("workload reaped %.0f ms after SIGKILL\n", ms);
	}
	ring_poll(&st->ring);
	probes = debugfs_counter("discover", "probes");
	ksft_print_msg("samples %u (asking for a walk: %u), deferred chains %u, lost %llu\n",
		       st->ring.samples, st->ring.deferred_samples, st->ring.deferred,
		       (unsigned long long)st->ring.lost);
	ksft_print_msg("discovery probes since the server stopped: %lld\n",
		       probes >= 0 && st->probes >= 0 ? probes - st->probes : -1);
	return ms;
}

/*
 * Sampled while it spins: each sample asks for a walk on the way back to
 * user space, which reads the stalled file (or is served without it).
 */
TEST_F_TIMEOUT(fuse_stall, cpu_clock, 120)
{
	struct stall *st = &self->st;
	struct perf_event_attr attr;
	bool in_walk = false;
	double start, ms;
	int ret;

	stall(_metadata, st);
	chain_attr_cpu_clock(&attr, PERIOD_NS);
	ret = ring_open(&st->ring, &attr, st->wl);
	ASSERT_EQ(0, ret) TH_LOG("perf_event_open: %s", strerror(-ret));
	/*
	 * Until a walk is seen: the task waits in it (its kernel stack says
	 * so; the sample that asked for it may not be in the ring yet), or a
	 * sample asked for one and its chain came.
	 */
	start = now_ms();
	do {
		usleep(20000);
		ring_poll(&st->ring);
		in_walk = task_in_unwinder(st->wl);
	} while (!in_walk && !(st->ring.deferred_samples && st->ring.deferred) &&
		 now_ms() - start < WALK_MS);
	ksft_print_msg("before SIGKILL: %u samples asked for a walk, %u chains came; state %c%s\n",
		       st->ring.deferred_samples, st->ring.deferred, task_state(st->wl),
		       in_walk ? ", in the unwinder" : "");
	if (in_walk)
		show_task(st->wl);
	ASSERT_TRUE(in_walk || (st->ring.deferred_samples && st->ring.deferred))
		TH_LOG("no walk was seen while the server was stopped");
	ms = kill_workload(st);
	ASSERT_LE(0, ms) TH_LOG("SIGKILL did not end the workload within %d ms", KILL_MS);
}

/*
 * The origin and format of the line of the workload's unwind_tables over
 * its executable mapping of the library (both "" if there is none).
 */
static void lib_table(struct stall *st, char *origin, char *format)
{
	char path[64], *maps, *tables, *p;
	unsigned long long start = 0, end = 0;

	origin[0] = '\0';
	format[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)st->wl);
	maps = read_file(path, NULL);
	for (p = maps; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char perms[8];

		if (sscanf(p, "%llx-%llx %7s", &start, &end, perms) == 3 && perms[2] == 'x' &&
		    strstr(p, st->srv.path) && strstr(p, st->srv.path) < strchr(p, '\n'))
			break;
		start = 0;
		end = 0;
	}
	free(maps);
	snprintf(path, sizeof(path), "/proc/%d/unwind_tables", (int)st->wl);
	tables = read_file(path, NULL);
	for (p = tables; end && p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long s, e;

		if (sscanf(p, "%llx-%llx %15s %15s", &s, &e, origin, format) == 4 &&
		    s < end && start < e)
			break;
		origin[0] = '\0';
		format[0] = '\0';
	}
	free(tables);
}

/*
 * READs of the header the server fails, one after the other: more than a
 * page fault retries (a fault on the header through the workload's
 * mapping gave up after 5).
 */
#define EIO_READS	20

/*
 * A read of the library's .eh_frame_hdr that fails (the server answers
 * EIO, as a disk with a bad sector or a soft NFS mount that timed out
 * would) says nothing lasting about the library: once the file answers
 * again, discovery finds its table.  The workload spins in the library,
 * never sampled before; the page cache holds no page of the header.
 * (Read through the workload's mapping, the header's page fault gave up
 * and the library got a marker for good: "discovered none".)
 */
TEST_F_TIMEOUT(fuse_stall, read_error_retried, 120)
{
	struct stall *st = &self->st;
	char origin[16], format[16];
	struct perf_event_attr attr;
	unsigned int pages;
	double start;
	bool page0;
	int ret;

	ASSERT_EQ(0, write_file("/proc/sys/vm/drop_caches", "1"));
	ASSERT_EQ(0, hdr_cached(st, &pages, &page0)) TH_LOG("the header is cached");
	st->srv.stats->fail_off = st->lib.hdr_off;
	__atomic_store_n(&st->srv.stats->fail_left, EIO_READS, __ATOMIC_RELEASE);
	chain_attr_cpu_clock(&attr, PERIOD_NS);
	ret = ring_open(&st->ring, &attr, st->wl);
	ASSERT_EQ(0, ret) TH_LOG("perf_event_open: %s", strerror(-ret));
	start = now_ms();
	do {
		usleep(50000);
		ring_poll(&st->ring);
		lib_table(st, origin, format);
	} while (strcmp(format, "eh_frame_hdr") && now_ms() - start < WALK_MS);
	ksft_print_msg("%lu READs of the header failed; %u samples, %u chains\n",
		       st->srv.stats->failed, st->ring.samples, st->ring.deferred);
	ksft_print_msg("the library's table: %s %s\n", origin[0] ? origin : "(none listed)",
		       format);
	/* Else nothing was tested. */
	EXPECT_LT(0UL, st->srv.stats->failed) TH_LOG("no read of the header failed");
	EXPECT_STREQ("discovered", origin);
	EXPECT_STREQ("eh_frame_hdr", format);
}

/*
 * Sampled as SIGKILL is delivered: get_signal() has run the task's pending
 * work already, the walk that sample asks for runs in do_exit(), where
 * SIGKILL is consumed and cannot end a wait for the file.
 */
TEST_F_TIMEOUT(fuse_stall, exit_walk, 120)
{
	struct stall *st = &self->st;
	struct perf_event_attr attr;
	long long id = tracepoint_id(SIGNAL_DELIVER);
	double ms;
	int ret;

	if (id < 0)
		SKIP(return, "no tracepoint signal:signal_deliver (CONFIG_EVENT_TRACING)");
	chain_attr_cpu_clock(&attr, 1);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	/* The tracepoint's regs are the kernel's: exclude_kernel would drop them all. */
	attr.exclude_kernel = 0;
	stall(_metadata, st);
	ret = ring_open(&st->ring, &attr, st->wl);
	ASSERT_EQ(0, ret) TH_LOG("perf_event_open: %s", strerror(-ret));
	ms = kill_workload(st);
	ASSERT_NE(0U, st->ring.deferred_samples)
		TH_LOG("the delivery of SIGKILL asked for no walk: the test proves nothing");
	ksft_print_msg("SIGKILL's delivery asked for a walk: it ran in do_exit()\n");
	ASSERT_LE(0, ms) TH_LOG("SIGKILL did not end the workload within %d ms", KILL_MS);
}

/*
 * ---- A FUSE remount: the same device number, the same inode, other bytes ----
 *
 * A FUSE server picks the inode number, generation and times its files
 * show (this one: node 2, generation 1, every time 0), and a new FUSE
 * mount takes the lowest free anonymous device number: after an unmount,
 * the next mount's file shows the identity the last one's did, whatever
 * its bytes.  Frames decoded from the first file must not serve the
 * second.  The first is a copy of the library whose CIEs say every saved
 * register is twice as far from the CFA (data alignment -16, not -8): its
 * chains are wrong.  Served in its place, under the same identity, the
 * library itself must get whole chains.
 */

/* Double the data alignment (-8 to -16) of every CIE of @data's .eh_frame. */
static int scribble_cies(unsigned char *data, size_t size, uint64_t hdr_off)
{
	unsigned char *p, *end = data + size;
	unsigned int records, cies = 0;

	/* version 1, eh_frame_ptr pcrel sdata4: .eh_frame is that far on */
	if (hdr_off + 8 > size || data[hdr_off] != 1 || data[hdr_off + 1] != 0x1b)
		return 0;
	p = data + hdr_off + 4 + *(int32_t *)(data + hdr_off + 4);
	if (p < data || p >= end)
		return 0;
	for (records = 0; records < 100000 && p + 9 <= end; records++) {
		uint32_t len = *(uint32_t *)p, id = *(uint32_t *)(p + 4);
		unsigned char *q = p + 9;

		if (!len || len == 0xffffffff || len > (size_t)(end - p) - 4)
			break;
		if (!id && p[8] == 1) {
			/* the augmentation, the code alignment (1), then ours */
			while (q < end && *q)
				q++;
			q++;
			while (q < end && (*q & 0x80))
				q++;
			q++;
			if (q < end && *q == 0x78) {
				*q = 0x70;
				cies++;
			}
		}
		p += 4 + len;
	}
	return cies;
}

/* Let the workload be sampled for a second, then end it. */
static void sample_then_kill(void *arg)
{
	struct stall *st = arg;

	usleep(1000 * 1000);
	kill(st->wl, SIGKILL);
}

struct remount_tally {
	unsigned int leaf, whole;
	dev_t dev;
};

/*
 * Serve @data as the library at @dir, run the workload in it under
 * cpu-clock, and count its samples in the library and those whose chain
 * reads the library's six frames (fuse_lib_spin ... fuse_lib_f1, which
 * fuse_lib_run jumps to), then this program (the workload's own caller).
 */
static int remount_round(const char *dir, const struct lib_info *lib,
			 const unsigned char *data, struct remount_tally *t)
{
	struct stall st = { .lib = *lib };
	struct perf_event_attr attr;
	struct chain_capture cap = {};
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct stat sb;
	int ret, status = 0;

	exe[n > 0 ? n : 0] = '\0';
	snprintf(st.dir, sizeof(st.dir), "%s", dir);
	ret = fuse_srv_start(&st.srv, st.dir, LIB, data, lib->size);
	if (ret)
		return ret;
	ret = stat(st.srv.path, &sb) ? -errno : start_workload(&st);
	if (!ret) {
		t->dev = sb.st_dev;
		chain_attr_cpu_clock(&attr, PERIOD_NS);
		ret = chain_attach_tasks(&cap, &attr, &st.wl, 1, false, sample_then_kill, &st,
					 &status);
		st.wl = 0;
	}
	for (unsigned int i = 0; !ret && i < cap.nr_samples; i++) {
		const struct chain_sample *s = &cap.samples[i];
		const struct chain_mmap *m = chain_find_map_at(&cap, s, s->ip);
		bool whole = s->resolved && s->nr > 6;

		if (!m || strcmp(m->path, st.srv.path))
			continue;
		t->leaf++;
		/* Return addresses are looked up inside their call. */
		for (unsigned int k = 0; whole && k < 7; k++) {
			m = chain_find_map_at(&cap, s, s->ips[k] - !!k);
			whole = m && !strcmp(m->path, k < 6 ? st.srv.path : exe);
		}
		t->whole += whole;
		if (!whole && t->leaf - t->whole == 1) {
			char line[1024];
			size_t len = 0;

			for (unsigned int k = 0; k < s->nr && k < 10; k++) {
				m = chain_find_map_at(&cap, s, s->ips[k] - !!k);
				len += snprintf(line + len, sizeof(line) - len, " %#llx[%s]",
						(unsigned long long)s->ips[k],
						m ? strrchr(m->path, '/') ?: m->path : "?");
			}
			ksft_print_msg("a chain of %u frames%s:%s\n", s->nr,
				       s->resolved ? "" : " (never delivered)", line);
		}
	}
	chain_free(&cap);
	if (st.wl > 0) {
		kill(st.wl, SIGKILL);
		waitpid(st.wl, NULL, 0);
	}
	fuse_srv_destroy(&st.srv);
	return ret;
}

TEST(remount_same_dev)
{
	struct remount_tally a = {}, b = {};
	struct lib_info lib = {};
	unsigned char *copy;
	char dir[64];
	int ret;

	if (geteuid())
		SKIP(return, "mounting a FUSE file system needs root");
	ASSERT_EQ(0, access("/dev/fuse", R_OK | W_OK)) TH_LOG("no /dev/fuse (CONFIG_FUSE_FS)");
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ret = lib_load(&lib);
	ASSERT_EQ(0, ret) TH_LOG("%s: %s", LIB, strerror(-ret));
	copy = malloc(lib.size);
	ASSERT_NE(NULL, copy);
	memcpy(copy, lib.data, lib.size);
	ASSERT_LT(0, scribble_cies(copy, lib.size, lib.hdr_off))
		TH_LOG("no CIE with a data alignment of -8 in %s", LIB);
	snprintf(dir, sizeof(dir), "/tmp/fuse_remount.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(dir));

	ret = remount_round(dir, &lib, copy, &a);
	EXPECT_EQ(0, ret) TH_LOG("the scribbled copy: %s", strerror(-ret));
	if (!ret)
		ret = remount_round(dir, &lib, lib.data, &b);
	EXPECT_EQ(0, ret) TH_LOG("the library: %s", strerror(-ret));
	rmdir(dir);
	free(copy);
	free(lib.data);
	ksft_print_msg("scribbled copy (dev %#lx): %u samples in the library, %u whole\n",
		       (unsigned long)a.dev, a.leaf, a.whole);
	ksft_print_msg("the library (dev %#lx): %u samples in it, %u whole\n",
		       (unsigned long)b.dev, b.leaf, b.whole);
	/* Else the test shows nothing: another identity, other rows anyway. */
	ASSERT_EQ(a.dev, b.dev);
	/* The copy's frames are wrong, so rows decoded from it would be. */
	EXPECT_LE(30U, a.leaf);
	EXPECT_GT(a.leaf / 2, a.whole);
	EXPECT_LE(30U, b.leaf);
	EXPECT_EQ(b.leaf, b.whole);
}

TEST_HARNESS_MAIN
