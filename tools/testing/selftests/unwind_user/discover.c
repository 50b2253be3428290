// SPDX-License-Identifier: GPL-2.0
/*
 * The unwind tables the kernel finds by itself: programs built without
 * frame pointers, started without any LD_AUDIT helper and registering
 * nothing, sampled by events opened on them while they run (as perf record
 * -p and -a do), must get whole callchains through the libraries they call:
 * every sample in the leaf function must walk back through the library's
 * frames to main.
 *
 *   - never_profiled: a process that nobody samples changes no registry
 *     (debugfs unwind_user/registry "ops") through its mmap, munmap,
 *     dlopen, dlclose, fork, exec and exit, and lists nothing in
 *     /proc/self/unwind_tables; sampled, the same program does;
 *   - attach: main -> run -> qsort() (libc) -> cmp, and main -> run ->
 *     std::__ostream_insert (libstdc++) -> spinbuf::xsputn; with
 *     kernel.unwind_tables_discover=0, the same never reaches main through
 *     libc: the control that shows the test can fail;
 *   - system_wide: both programs at once, under one event per CPU;
 *   - dlopen: a library dlopen()ed after the attach, then another one
 *     dlopen()ed at the same address once the first is closed: its frames
 *     must be its own;
 *   - shared_next_process: a new process of a program whose frames another
 *     process decoded gets them from the cache processes share (the hits of
 *     debugfs unwind_user/shared), and whole chains; with
 *     kernel.unwind_tables_share=0, none of it, and still whole chains;
 *   - shared_registered: the same with discovery off and the program and
 *     libc registered by the process (PR_REGISTER_EH_FRAME), as a loader
 *     registers what it maps: a registered table mapped from a file shares
 *     its frames like a discovered one;
 *   - shared_per_user: a process of another user finds none of the rows a
 *     process of root decoded; root's next process does;
 *   - dead_in_child: a fork child that makes its copy of the program's
 *     table corrupt drops the table in its own registry only: the
 *     parent's chains stay whole;
 *   - shared_not_absolute: a process that maps a program one page off its
 *     link address decodes, through an FDE with absolute addresses, frames
 *     that hold there only: a process of the program as linked does not get
 *     them (x86-64);
 *   - jit_register_frame: a JIT that gives its tables to libgcc only
 *     (__register_frame()) is unwound through with the LD_AUDIT helper,
 *     which forwards them to the kernel, and not without it (x86-64);
 *   - shared_not_from_written_copy: a process that wrote its own copy of its
 *     .eh_frame (its chains are wrong) shares none of what it decoded: the
 *     next process of the same file gets whole chains;
 *   - object: libdiscover_obj.so mapped by hand (whole, without the page of
 *     its ELF header) or dlopen()ed from a memfd is found like any other;
 *     corrupted copies of it (not ELF, program headers past EOF,
 *     overlapping PT_LOADs, PN_XNUM program headers, the table's page cut
 *     off the file, the last page of its text unmapped) get a marker,
 *     without a kernel warning, a signal, or more than a few probes
 *     however many samples meet them.
 *
 * Every frame is named from the symbol table of the file mapped at its
 * address (from /proc/<pid>/maps at the attach, then PERF_RECORD_MMAP2, as
 * they were when the sample was taken), never by the unwinder.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "elf_syms.h"
#include "perf_chain.h"
#include "unwind_table.h"
#include "../kselftest_harness.h"

#define DEBUGFS_DIR	"/sys/kernel/debug/unwind_user"
#define DISCOVER_SYSCTL	"/proc/sys/kernel/unwind_tables_discover"
#define SHARE_SYSCTL	"/proc/sys/kernel/unwind_tables_share"
#define PROG		"discover_workload"
#define PROG_CXX	"discover_cxx"
#define PROG_ABS	"discover_workload-abs"
#define OBJ		"libdiscover_obj.so"
#define LIB1		"libunwind_cb.so"
#define LIB2		"libunwind_cb2.so"
#define LIBC		"libc.so.6"
#define LIBSTDCXX	"libstdc++.so.6"
#define VDSO		"[vdso]"
#define OSTREAM_INSERT	"_ZSt16__ostream_insertIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_PKS3_l"
#define XSPUTN		"_ZN7spinbuf6xsputnEPKcl"

/*
 * CPU time each workload spins after the attach, and the samples in the
 * leaf a test asks for.  The test kernels tick at 250 Hz without
 * high-resolution timers: cpu-clock fires at most every 4 ms of the task's
 * CPU time.  Under TCG that gave 100-280 samples a second of it, but as few
 * as 25 on a host loaded five times over (a vCPU the host does not run
 * charges its task the time, and takes one tick for many): a test runs its
 * program again, up to MAX_RUNS times, until it has enough.
 */
#define SPIN_MS		"800"
#define PERIOD_NS	1000000
#define MIN_LEAF	60U
#define MAX_RUNS	5U
/* qsort's program then spins SPIN_MS / 4 in clock_gettime(), in the vDSO. */
#define MIN_VDSO	10U
/* The quiet program's spin: some samples when it is sampled. */
#define QUIET_MS	"200"
/* A probe per object the walks meet: the program, libc, ld.so, the vDSO, one more. */
#define MAX_PROBES	8

static void prog_path(char *buf, size_t size, const char *name)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	snprintf(buf, size, "%s/%s", dirname(exe), name);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* A workload, started and waiting for its go on stdin. */
struct wl {
	pid_t pid;
	int in, out;		/* its stdin (our end), its stdout (ours) */
	char *text;		/* all it printed */
	size_t len;
};

/* One run: up to two workloads and what their samples were. */
struct run {
	struct wl wl[2];
	unsigned int nr;
	int status[2];
	struct chain_capture cap;
	struct elf_dsos dsos;
	char obj[PATH_MAX];	/* the file a copy of OBJ stands for */
	char chain[2048];
};

static int append(struct wl *w, int fd, bool one_line)
{
	char c[4096];
	ssize_t n;

	do {
		n = read(fd, c, one_line ? 1 : sizeof(c));
		if (n <= 0)
			return n;
		w->text = realloc(w->text, w->len + n + 1);
		if (!w->text)
			return -1;
		memcpy(w->text + w->len, c, n);
		w->len += n;
		w->text[w->len] = '\0';
	} while (!one_line || c[0] != '\n');
	return 1;
}

/* Start @argv with pipes on its stdin and stdout, and wait for its "ready". */
static int wl_start(struct wl *w, char *const argv[])
{
	int in[2], out[2];

	memset(w, 0, sizeof(*w));
	w->in = -1;
	w->out = -1;
	if (pipe2(in, O_CLOEXEC))
		return -1;
	if (pipe2(out, O_CLOEXEC)) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	w->in = in[1];
	w->out = out[0];
	w->pid = fork();
	if (!w->pid) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	if (w->pid < 0)
		return -1;
	while (!w->text || !strstr(w->text, "ready\n"))
		if (append(w, w->out, true) <= 0)
			return -1;
	return 0;
}

/* The events are on: let the workloads run, and take what they print. */
static void go(void *arg)
{
	struct run *r = arg;

	for (unsigned int i = 0; i < r->nr; i++)
		if (write(r->wl[i].in, "g", 1) != 1)
			kill(r->wl[i].pid, SIGKILL);
	for (unsigned int i = 0; i < r->nr; i++) {
		while (append(&r->wl[i], r->wl[i].out, false) > 0)
			;
	}
}

static void run_free(struct run *r)
{
	for (unsigned int i = 0; i < r->nr; i++) {
		if (r->wl[i].in >= 0)
			close(r->wl[i].in);
		if (r->wl[i].out >= 0)
			close(r->wl[i].out);
		free(r->wl[i].text);
	}
	chain_free(&r->cap);
	elf_dsos_free(&r->dsos);
	free(r);
}

/*
 * Start the workloads @argv[0..@nr), then sample them (@system_wide: every
 * task, on each CPU) until they end.
 */
static struct run *attach(struct __test_metadata *_metadata, char **argv[], unsigned int nr,
			  bool system_wide)
{
	struct run *r = calloc(1, sizeof(*r));
	struct perf_event_attr attr;
	pid_t pids[2];
	int ret;

	if (!r)
		return NULL;
	/* A workload that died must fail the test, not kill it at our write. */
	signal(SIGPIPE, SIG_IGN);
	prog_path(r->obj, sizeof(r->obj), OBJ);
	for (r->nr = 0; r->nr < nr; r->nr++) {
		ret = wl_start(&r->wl[r->nr], argv[r->nr]);
		pids[r->nr] = r->wl[r->nr].pid;
		if (ret) {
			TH_LOG("%s did not get ready: %s", argv[r->nr][0],
			       r->wl[r->nr].text ?: "(nothing printed)");
			r->nr++;
			for (unsigned int i = 0; i < r->nr; i++) {
				if (pids[i] <= 0)
					continue;
				kill(pids[i], SIGKILL);
				waitpid(pids[i], NULL, 0);
			}
			run_free(r);
			return NULL;
		}
	}
	chain_attr_cpu_clock(&attr, PERIOD_NS);
	ret = chain_attach_tasks(&r->cap, &attr, pids, nr, system_wide, go, r, r->status);
	if (ret) {
		TH_LOG("cannot sample: %s", strerror(-ret));
		run_free(r);
		return NULL;
	}
	for (unsigned int i = 0; i < nr; i++) {
		if (r->status[i]) {
			TH_LOG("%s exited with status %#x: %s", argv[i][0], r->status[i],
			       r->wl[i].text);
			run_free(r);
			return NULL;
		}
	}
	return r;
}

/* One frame of a chain, named from the file mapped at its address. */
struct frame {
	const char *file;	/* basename of the mapped file; NULL: nothing mapped */
	const char *name;	/* the function; NULL: no symbol covers it */
};

/*
 * Name @ip (looked up as it is: @exact, else one byte back, inside the
 * call) in @s's process, with the mappings of when @s was taken.  A copy of
 * OBJ (in /tmp, in a memfd: deleted files) is named from OBJ.
 */
static void name_ip(struct run *r, const struct chain_sample *s, uint64_t ip, bool exact,
		    struct frame *f)
{
	const struct chain_mmap *m;
	const struct elf_sym *sym;
	const char *path;

	ip -= exact ? 0 : 1;
	memset(f, 0, sizeof(*f));
	m = chain_find_map_at(&r->cap, s, ip);
	if (!m)
		return;
	path = strstr(m->path, "discover_obj") ? r->obj : m->path;
	f->file = base_name(path);
	sym = elf_dsos_lookup(&r->dsos, path, ip - m->start + m->pgoff);
	f->name = sym ? sym->name : NULL;
}

static void get_frame(struct run *r, const struct chain_sample *s, unsigned int i,
		      struct frame *f)
{
	name_ip(r, s, s->ips[i], !i, f);
}

static void format_chain(struct run *r, const struct chain_sample *s)
{
	size_t len = 0, size = sizeof(r->chain);

	r->chain[0] = '\0';
	for (unsigned int i = 0; i < s->nr && len < size; i++) {
		struct frame f;

		if (i == 16) {
			snprintf(r->chain + len, size - len, " ... (%u frames)", s->nr);
			break;
		}
		get_frame(r, s, i, &f);
		len += snprintf(r->chain + len, size - len, " %s[%s]", f.name ?: "?",
				f.file ?: "?");
	}
}

/*
 * A step of an expected chain: a frame of @file in @func (NULL: any), then,
 * with @more, any more frames of @file (a library's internal functions).
 */
struct step {
	const char *file;
	const char *func;
	bool more;
};

#define ONE(file, func)		{ file, func, false }
#define MANY(file, func)	{ file, func, true }

/* Is @name the file @file, or a version of it (libstdc++.so.6.0.30)? */
static bool file_is(const char *name, const char *file)
{
	size_t len = strlen(file);

	return !strncmp(name, file, len) && (!name[len] || name[len] == '.');
}

static bool frame_is(const struct frame *f, const char *file, const char *func)
{
	return f->file && file_is(f->file, file) &&
	       (!func || (f->name && !strcmp(f->name, func)));
}

/* Does @s's chain start with @pat (frames after it are not checked)? */
static bool chain_is(struct run *r, const struct chain_sample *s, const struct step *pat,
		     unsigned int nr_pat)
{
	unsigned int i = 0;
	struct frame f;

	if (!s->resolved)
		return false;
	for (unsigned int p = 0; p < nr_pat; p++) {
		if (i >= s->nr)
			return false;
		get_frame(r, s, i++, &f);
		if (!frame_is(&f, pat[p].file, pat[p].func))
			return false;
		while (pat[p].more && i < s->nr) {
			get_frame(r, s, i, &f);
			if (!frame_is(&f, pat[p].file, NULL))
				break;
			i++;
		}
	}
	return true;
}

/* Is the sample of @pid, and its address in @func of @file? */
static bool sample_in(struct run *r, const struct chain_sample *s, pid_t pid, const char *file,
		      const char *func)
{
	struct frame f;

	if (s->pid != (uint32_t)pid)
		return false;
	name_ip(r, s, s->ip, true, &f);
	return frame_is(&f, file, func);
}

struct tally {
	unsigned int leaf, good;
	unsigned int resolved;	/* leaf samples whose deferred chain came */
};

/*
 * Count the samples of @pid in the leaf (@pat[0]) and those whose chain
 * reads @pat; log a few that do not (@expect_good: as failures).
 */
static struct tally check_chains(struct __test_metadata *_metadata, struct run *r, pid_t pid,
				 const struct step *pat, unsigned int nr_pat, bool expect_good)
{
	const char *leaf = pat[0].func ?: pat[0].file;
	struct tally t = { 0, 0, 0 };
	unsigned int bad = 0;

	for (unsigned int i = 0; i < r->cap.nr_samples; i++) {
		const struct chain_sample *s = &r->cap.samples[i];

		if (!sample_in(r, s, pid, pat[0].file, pat[0].func))
			continue;
		t.leaf++;
		t.resolved += s->resolved;
		if (chain_is(r, s, pat, nr_pat)) {
			if (!t.good++) {
				format_chain(r, s);
				ksft_print_msg("a chain from %s:%s\n", leaf, r->chain);
			}
		} else if (expect_good && bad++ < 5) {
			format_chain(r, s);
			TH_LOG("chain of %u frames%s:%s", s->nr,
			       s->resolved ? "" : " (never delivered)", r->chain);
		} else if (!expect_good && !bad++) {
			format_chain(r, s);
			ksft_print_msg("a chain from %s:%s\n", leaf, r->chain);
		}
	}
	return t;
}

/* What the workload printed of its /proc/self/unwind_tables, or NULL. */
static const char *tables_of(const struct wl *w)
{
	const char *p = w->text ? strstr(w->text, "== tables\n") : NULL;

	return p ? p + 10 : NULL;
}

/*
 * The line of @tables over [@start, @end): its origin and format ("none"
 * for a marker) in @origin and @format; false if there is none.
 */
static bool table_over(const char *tables, uint64_t start, uint64_t end, char *origin,
		       char *format)
{
	for (const char *p = tables; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long s, e;

		if (sscanf(p, "%llx-%llx %15s %15s", &s, &e, origin, format) == 4 &&
		    s < end && start < e)
			return true;
	}
	return false;
}

/* The executable mapping of @file (basename) in @pid, as the attach saw it. */
static const struct chain_mmap *map_of(const struct run *r, pid_t pid, const char *file)
{
	for (unsigned int i = 0; i < r->cap.nr_maps; i++) {
		const struct chain_mmap *m = &r->cap.maps[i];

		if (m->pid == (uint32_t)pid && file_is(base_name(m->path), file))
			return m;
	}
	return NULL;
}

/* Does @w list what the kernel found for @file (origin @origin, a table)? */
static void expect_found(struct __test_metadata *_metadata, const struct run *r,
			 const struct wl *w, const char *file, const char *origin)
{
	const struct chain_mmap *m = map_of(r, w->pid, file);
	char o[16], f[16];

	ASSERT_NE(NULL, m) TH_LOG("%s is not mapped in %d", file, w->pid);
	ASSERT_NE(NULL, tables_of(w)) TH_LOG("no tables from %d: %s", w->pid, w->text);
	ASSERT_TRUE(table_over(tables_of(w), m->start, m->start + m->len, o, f))
		TH_LOG("nothing over %s (%llx-%llx) in:\n%s", file,
		       (unsigned long long)m->start, (unsigned long long)(m->start + m->len),
		       tables_of(w));
	EXPECT_STREQ(origin, o);
	EXPECT_STREQ("eh_frame_hdr", f);
}

/* The vDSO's line, if the walks met it (optional): its origin must be vdso. */
static void check_vdso(struct __test_metadata *_metadata, const struct run *r,
		       const struct wl *w)
{
	const struct chain_mmap *m = map_of(r, w->pid, "[vdso]");
	char o[16], f[16];

	if (!m || !table_over(tables_of(w), m->start, m->start + m->len, o, f)) {
		ksft_print_msg("%d: no walk met the vDSO\n", w->pid);
		return;
	}
	ksft_print_msg("%d: the vDSO's table: %s %s\n", w->pid, o, f);
	EXPECT_STREQ("vdso", o);
	EXPECT_STREQ("eh_frame_hdr", f);
}

/*
 * clock_gettime() of libc calls the vDSO's (on x86-64, s390x and arm64), from
 * spin_vdso mostly, from run's CPU time checks too.
 */
static const struct step vdso_path[] = {
	MANY(VDSO, NULL), MANY(LIBC, NULL), ONE(PROG, NULL), ONE(PROG, "main"),
};

static const struct step qsort_path[] = {
	ONE(PROG, "cmp"), MANY(LIBC, NULL), ONE(PROG, "run"), ONE(PROG, "main"),
};

static const struct step fork_path[] = {
	ONE(PROG, "cmp"), MANY(LIBC, NULL), ONE(PROG, "run"), ONE(PROG, "fork_corrupt"),
	ONE(PROG, "main"),
};

static const struct step cxx_path[] = {
	ONE(PROG_CXX, XSPUTN), MANY(LIBSTDCXX, OSTREAM_INSERT), ONE(PROG_CXX, "run"),
	ONE(PROG_CXX, "main"),
};

#define NR(a)	(sizeof(a) / sizeof((a)[0]))

/* debugfs (the guest may not have it mounted yet): 0, or -1. */
static int debugfs_ready(void)
{
	if (!access(DEBUGFS_DIR, R_OK))
		return 0;
	mount("none", "/sys/kernel/debug", "debugfs", 0, NULL);
	return access(DEBUGFS_DIR, R_OK);
}

static int read_sysctl(const char *path)
{
	FILE *f = fopen(path, "re");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int write_sysctl(const char *path, int v)
{
	char buf[16];
	int fd = open(path, O_WRONLY | O_CLOEXEC), len, ret;

	if (fd < 0)
		return -1;
	len = snprintf(buf, sizeof(buf), "%d\n", v);
	ret = write(fd, buf, len) == len ? 0 : -1;
	close(fd);
	return ret;
}

static char *read_file(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return NULL;
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

/*
 * The quiet program, first in this file: nothing has sampled this test's
 * processes yet, so that its fork dups an empty registry, as the program's
 * do.  Another profiler running now would make this test fail.
 */
FIXTURE(quiet) {
	char prog[PATH_MAX], lib[PATH_MAX], dump[PATH_MAX];
	long long ops0, ops1;
};

FIXTURE_SETUP(quiet)
{
	char *own;
	int fd;

	prog_path(self->prog, sizeof(self->prog), PROG);
	prog_path(self->lib, sizeof(self->lib), LIB1);
	ASSERT_EQ(0, debugfs_ready()) TH_LOG("no %s", DEBUGFS_DIR);
	ASSERT_EQ(1, read_sysctl(DISCOVER_SYSCTL)) TH_LOG("discovery is off");
	own = ut_read_tables();
	ASSERT_NE(NULL, own);
	ASSERT_STREQ("", own) TH_LOG("this test's own process was unwound already");
	free(own);
	snprintf(self->dump, sizeof(self->dump), "/tmp/unwind_user_quiet_XXXXXX");
	fd = mkstemp(self->dump);
	ASSERT_LE(0, fd);
	close(fd);
}

FIXTURE_TEARDOWN(quiet)
{
	unlink(self->dump);
}

/* The dump the program wrote: the text after its "== tables" line. */
static char *quiet_tables(struct __test_metadata *_metadata, const char *dump)
{
	char *text = read_file(dump), *tables;

	if (!text || strncmp(text, "== tables\n", 10)) {
		TH_LOG("no tables in %s: %s", dump, text ?: strerror(errno));
		free(text);
		return NULL;
	}
	tables = strdup(text + 10);
	free(text);
	return tables;
}

/*
 * dlopen, dlclose, mmap and munmap of executable file mappings, fork, exec
 * and exit of a process nobody samples: not one change of any registry.
 */
TEST_F(quiet, never_profiled)
{
	char *argv[] = { self->prog, "quiet", self->lib, self->dump, QUIET_MS, NULL };
	char *tables;
	int status;
	pid_t pid;

	ASSERT_EQ(0, ut_debugfs_counter("registry", "ops", &self->ops0));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		execv(argv[0], argv);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, ut_debugfs_counter("registry", "ops", &self->ops1));
	ASSERT_EQ(0, status);
	ksft_print_msg("registry ops: %lld before, %lld after\n", self->ops0, self->ops1);
	EXPECT_EQ(self->ops0, self->ops1);
	tables = quiet_tables(_metadata, self->dump);
	ASSERT_NE(NULL, tables);
	EXPECT_STREQ("", tables);
	free(tables);
}

/* The control: the same program, sampled, changes registries and lists tables. */
TEST_F(quiet, sampled)
{
	char *argv[] = { self->prog, "quiet", self->lib, self->dump, QUIET_MS, NULL };
	struct chain_capture cap;
	struct perf_event_attr attr;
	char *tables;
	int ret;

	chain_attr_cpu_clock(&attr, PERIOD_NS);
	ASSERT_EQ(0, ut_debugfs_counter("registry", "ops", &self->ops0));
	ret = chain_run(&cap, &attr, argv, false);
	ASSERT_EQ(0, ut_debugfs_counter("registry", "ops", &self->ops1));
	ASSERT_EQ(0, ret) TH_LOG("cannot sample: %s", strerror(-ret));
	ASSERT_EQ(0, cap.exit_status);
	ksft_print_msg("registry ops: %lld before, %lld after, %u samples\n", self->ops0,
		       self->ops1, cap.nr_samples);
	chain_free(&cap);
	EXPECT_LT(self->ops0, self->ops1);
	tables = quiet_tables(_metadata, self->dump);
	ASSERT_NE(NULL, tables);
	EXPECT_NE(NULL, strstr(tables, " discovered eh_frame_hdr "))
		TH_LOG("nothing found while sampled:\n%s", tables);
	free(tables);
}

FIXTURE(disc) {
	char prog[PATH_MAX], cxx[PATH_MAX], lib1[PATH_MAX], lib2[PATH_MAX];
	int discover;		/* the sysctl to restore, or -1 */
	int share;		/* the same */
	char dir[64];		/* a copy of the program's, or "" */
};

FIXTURE_SETUP(disc)
{
	self->discover = -1;
	self->share = -1;
	self->dir[0] = '\0';
	prog_path(self->prog, sizeof(self->prog), PROG);
	prog_path(self->cxx, sizeof(self->cxx), PROG_CXX);
	prog_path(self->lib1, sizeof(self->lib1), LIB1);
	prog_path(self->lib2, sizeof(self->lib2), LIB2);
	ASSERT_EQ(0, access(self->prog, X_OK)) TH_LOG("no %s", self->prog);
	ASSERT_EQ(0, access(self->cxx, X_OK)) TH_LOG("no %s", self->cxx);
	ASSERT_EQ(1, read_sysctl(DISCOVER_SYSCTL)) TH_LOG("discovery is off");
	ASSERT_EQ(NULL, getenv("LD_AUDIT"));
}

/* In the parent: the sysctl comes back even if the test dies. */
FIXTURE_TEARDOWN_PARENT(disc)
{
	if (self->discover >= 0 && write_sysctl(DISCOVER_SYSCTL, self->discover))
		TH_LOG("cannot restore %s to %d", DISCOVER_SYSCTL, self->discover);
	if (self->share >= 0 && write_sysctl(SHARE_SYSCTL, self->share))
		TH_LOG("cannot restore %s to %d", SHARE_SYSCTL, self->share);
	if (self->dir[0]) {
		static const char *const progs[] = { PROG, PROG_ABS };
		char path[PATH_MAX + 32];

		for (unsigned int i = 0; i < NR(progs); i++) {
			snprintf(path, sizeof(path), "%s/%s", self->dir, progs[i]);
			unlink(path);
		}
		rmdir(self->dir);
	}
}

/* Does @t need another run to reach @min samples in the leaf? */
static bool more(const struct tally *t, unsigned int min, unsigned int runs)
{
	return t->leaf < min && runs < MAX_RUNS;
}

static void add(struct tally *sum, struct tally t)
{
	sum->leaf += t.leaf;
	sum->good += t.good;
	sum->resolved += t.resolved;
}

/*
 * perf record -p on a running C program: every sample in cmp reads cmp,
 * libc's sort, run, main, and every one in the vDSO reads the vDSO,
 * clock_gettime() in libc, spin_vdso (or run), main; libc was found
 * ("discovered"), the vDSO too ("vdso").
 */
TEST_F(disc, attach_qsort)
{
	char *argv[] = { self->prog, "qsort", SPIN_MS, NULL }, **argvs[] = { argv };
	struct tally t = { 0, 0, 0 }, v = { 0, 0, 0 };
	unsigned int runs = 0;

	while (!runs || more(&t, MIN_LEAF, runs) || more(&v, MIN_VDSO, runs)) {
		struct run *r = attach(_metadata, argvs, 1, false);

		ASSERT_NE(NULL, r);
		runs++;
		add(&t, check_chains(_metadata, r, r->wl[0].pid, qsort_path, NR(qsort_path),
				     true));
		add(&v, check_chains(_metadata, r, r->wl[0].pid, vdso_path, NR(vdso_path),
				     true));
		expect_found(_metadata, r, &r->wl[0], PROG, "discovered");
		expect_found(_metadata, r, &r->wl[0], LIBC, "discovered");
		if (v.leaf)
			expect_found(_metadata, r, &r->wl[0], VDSO, "vdso");
		run_free(r);
	}
	ksft_print_msg("%u runs: %u samples in cmp, %u with cmp <libc> run main\n", runs,
		       t.leaf, t.good);
	ksft_print_msg("%u in the vDSO, %u with <vdso> <libc> spin_vdso|run main\n", v.leaf,
		       v.good);
	EXPECT_LE(MIN_LEAF, t.leaf);
	EXPECT_EQ(t.leaf, t.good);
	EXPECT_LE(MIN_VDSO, v.leaf);
	EXPECT_EQ(v.leaf, v.good);
}

/*
 * The control: with kernel.unwind_tables_discover=0 nothing is found,
 * nothing registered, and no chain gets from cmp through libc to main.
 */
TEST_F(disc, attach_qsort_no_discovery)
{
	char *argv[] = { self->prog, "qsort", SPIN_MS, NULL }, **argvs[] = { argv };
	struct tally t = { 0, 0, 0 };
	unsigned int runs = 0;

	self->discover = 1;
	ASSERT_EQ(0, write_sysctl(DISCOVER_SYSCTL, 0));
	while (!runs || more(&t, MIN_LEAF, runs)) {
		struct run *r = attach(_metadata, argvs, 1, false);

		ASSERT_NE(NULL, r);
		runs++;
		add(&t, check_chains(_metadata, r, r->wl[0].pid, qsort_path, NR(qsort_path),
				     false));
		ASSERT_NE(NULL, tables_of(&r->wl[0]));
		EXPECT_STREQ("", tables_of(&r->wl[0]));
		run_free(r);
	}
	ksft_print_msg("discovery off, %u runs: %u samples in cmp (%u %s), %u with %s\n",
		       runs, t.leaf, t.resolved, "chains delivered", t.good, "cmp <libc> run main");
	EXPECT_LE(MIN_LEAF, t.leaf);
	/* Chains that came and are short, not chains that never came. */
	EXPECT_EQ(t.leaf, t.resolved);
	EXPECT_EQ(0U, t.good);
}

/* The counters of debugfs unwind_user/shared. */
struct shared_stats {
	long long hits, misses, inserted, refused;
};

static int read_shared(struct shared_stats *st)
{
	char *text = read_file(DEBUGFS_DIR "/shared"), *p;
	int found = 0;

	memset(st, 0, sizeof(*st));
	if (!text)
		return -1;
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		found += sscanf(p, "hits %lld", &st->hits) == 1;
		found += sscanf(p, "misses %lld", &st->misses) == 1;
		found += sscanf(p, "inserted %lld", &st->inserted) == 1;
		found += sscanf(p, "refused %lld", &st->refused) == 1;
	}
	free(text);
	return found == 4 ? 0 : -1;
}

/*
 * A copy of the program @prog, under its name, in a directory of its own:
 * a file no process has run yet, whose frames nobody has decoded.  Its path
 * goes to @path.
 */
static int copy_prog(struct __test_metadata *_metadata, const char *prog, char *dir,
		     size_t dir_size, char *path, size_t size)
{
	char buf[65536];
	int in, out = -1, ret = -1;
	ssize_t n = -1;

	snprintf(dir, dir_size, "/tmp/unwind_share.XXXXXX");
	if (!mkdtemp(dir)) {
		dir[0] = '\0';
		return -1;
	}
	snprintf(path, size, "%s/%s", dir, base_name(prog));
	in = open(prog, O_RDONLY | O_CLOEXEC);
	if (in >= 0)
		out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			break;
	if (out >= 0 && n == 0 && !close(out)) {
		out = -1;
		ret = 0;
	}
	if (out >= 0)
		close(out);
	if (in >= 0)
		close(in);
	if (ret)
		TH_LOG("cannot copy %s to %s", prog, path);
	return ret;
}

/*
 * What the tests of shared frames start from: debugfs, sharing on (*@share,
 * for the teardown to restore), and a copy of the program in @path.
 */
static int shared_setup(struct __test_metadata *_metadata, const char *prog, int *share,
			char *dir, size_t dir_size, char *path, size_t size)
{
	if (debugfs_ready()) {
		TH_LOG("no %s", DEBUGFS_DIR);
		return -1;
	}
	*share = read_sysctl(SHARE_SYSCTL);
	if (*share != 1) {
		TH_LOG("%s is not 1", SHARE_SYSCTL);
		return -1;
	}
	return copy_prog(_metadata, prog, dir, dir_size, path, size);
}

/*
 * The pcs the walks of a test's processes met in tables that share their
 * frames, as (file, offset) pairs: what the shared cache keys its rows by,
 * but for the table's offset in the file, which is the same for all of
 * them.  A walk that finds no row for such a pc decodes one and shares it:
 * a process that starts cold decodes one for every pc it meets, a warm one
 * only for those no process before it met.  (Tables of other files keep
 * their rows in the mm: the guest's root filesystem may not count its
 * files' changes, see shared.c.)
 */
#define PCS_MAX		4096

struct pcs {
	unsigned int nr;
	bool full;
	uint64_t key[PCS_MAX];
};

static bool pcs_has(const struct pcs *set, uint64_t key)
{
	for (unsigned int i = 0; i < set->nr; i++)
		if (set->key[i] == key)
			return true;
	return false;
}

/* Does the entry over @ip in @tables (/proc/PID/unwind_tables) share? */
static bool ip_shared(const char *tables, uint64_t ip)
{
	for (const char *p = tables; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		size_t len = strcspn(p, "\n");
		unsigned long long s, e;

		if (sscanf(p, "%llx-%llx", &s, &e) == 2 && s <= ip && ip < e)
			return len >= 7 && !strncmp(p + len - 7, " shared", 7);
	}
	return false;
}

/* Add the pcs in shared tables of the samples of @r's workload to @set. */
static void pcs_add_run(struct pcs *set, struct run *r)
{
	const char *tables = tables_of(&r->wl[0]);

	for (unsigned int i = 0; tables && i < r->cap.nr_samples; i++) {
		const struct chain_sample *s = &r->cap.samples[i];

		if (s->pid != (uint32_t)r->wl[0].pid)
			continue;
		for (unsigned int f = 0; f < s->nr; f++) {
			/* A return address is looked up inside its call. */
			uint64_t ip = s->ips[f] - (f ? 1 : 0), key, hash = 5381;
			const struct chain_mmap *m = chain_find_map_at(&r->cap, s, ip);

			if (!m || !ip_shared(tables, ip))
				continue;
			for (const char *c = m->path; *c; c++)
				hash = hash * 33 + (unsigned char)*c;
			key = hash << 32 ^ (ip - m->start + m->pgoff);
			if (pcs_has(set, key))
				continue;
			if (set->nr == PCS_MAX)
				set->full = true;
			else
				set->key[set->nr++] = key;
		}
	}
}

/* The pcs of @next that are not in @before. */
static unsigned int pcs_fresh(const struct pcs *next, const struct pcs *before)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < next->nr; i++)
		n += !pcs_has(before, next->key[i]);
	return n;
}

/*
 * A process (or run_path()'s few) that met the pcs @next, after processes
 * that met @before, decoded @inserted rows: it started warm if it decoded
 * fewer than half of the rows of the pcs it shared with them (from its
 * second walk on, it hits rows it decoded itself: the hits do not tell).
 */
static void expect_warm(struct __test_metadata *_metadata, const char *who,
			const struct pcs *next, const struct pcs *before, long long inserted)
{
	unsigned int fresh = pcs_fresh(next, before);

	ksft_print_msg("%s: met %u pcs, %u of them met by no process before; %lld rows decoded\n",
		       who, next->nr, fresh, inserted);
	EXPECT_FALSE(next->full || before->full);
	/* Enough pcs met before for the figure to tell warm from cold. */
	EXPECT_LE(fresh + 8, next->nr);
	EXPECT_LT(2 * (inserted - fresh), (long long)(next->nr - fresh));
}

/* The same for a process that must have started cold: it decoded most. */
static void expect_cold(struct __test_metadata *_metadata, const char *who,
			const struct pcs *next, long long inserted)
{
	ksft_print_msg("%s: met %u pcs; %lld rows decoded\n", who, next->nr, inserted);
	EXPECT_FALSE(next->full);
	EXPECT_LE(8U, next->nr);
	EXPECT_GT(2 * inserted, (long long)next->nr);
}

/*
 * Run @argv until MIN_LEAF samples in @pat's leaf (again, up to MAX_RUNS):
 * their tally, and the shared counters' change.  @shared (16 bytes): the
 * origin of the entry of the leaf's file if it shares its frames, else "".
 * @met (if not NULL) gets the pcs the walks met.
 */
static struct tally run_path_met(struct __test_metadata *_metadata, char *argv[],
				 const struct step *pat, unsigned int nr_pat, bool expect_good,
				 struct shared_stats *delta, char *shared, struct pcs *met)
{
	char **argvs[] = { argv };
	struct shared_stats before, after;
	struct tally t = { 0, 0, 0 };
	unsigned int runs = 0;
	int ret;

	shared[0] = '\0';
	memset(delta, 0, sizeof(*delta));
	/* No counters, no evidence either way: a failure, not zeros. */
	ret = read_shared(&before);
	EXPECT_EQ(0, ret) TH_LOG("cannot read %s/shared", DEBUGFS_DIR);
	if (ret)
		return t;
	while (!runs || more(&t, MIN_LEAF, runs)) {
		struct run *r = attach(_metadata, argvs, 1, false);
		const struct chain_mmap *m;
		char line[512];

		if (!r)
			return t;
		runs++;
		add(&t, check_chains(_metadata, r, r->wl[0].pid, pat, nr_pat, expect_good));
		if (met)
			pcs_add_run(met, r);
		/* Does the entry of the leaf's file say it shares its frames? */
		m = map_of(r, r->wl[0].pid, pat[0].file);
		if (m && tables_of(&r->wl[0])) {
			for (const char *p = tables_of(&r->wl[0]); p && *p;
			     p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
				unsigned long long s, e;
				char origin[16];

				snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
				if (sscanf(line, "%llx-%llx %15s", &s, &e, origin) == 3 &&
				    s < m->start + m->len && m->start < e &&
				    strstr(line, " shared"))
					snprintf(shared, 16, "%s", origin);
			}
		}
		run_free(r);
	}
	ret = read_shared(&after);
	EXPECT_EQ(0, ret) TH_LOG("cannot read %s/shared", DEBUGFS_DIR);
	if (ret)
		return t;
	delta->hits = after.hits - before.hits;
	delta->misses = after.misses - before.misses;
	delta->inserted = after.inserted - before.inserted;
	delta->refused = after.refused - before.refused;
	return t;
}

static struct tally run_path(struct __test_metadata *_metadata, char *argv[],
			     const struct step *pat, unsigned int nr_pat, bool expect_good,
			     struct shared_stats *delta, char *shared)
{
	return run_path_met(_metadata, argv, pat, nr_pat, expect_good, delta, shared, NULL);
}

static struct tally run_qsort_met(struct __test_metadata *_metadata, char *argv[],
				  struct shared_stats *delta, char *shared, struct pcs *met)
{
	return run_path_met(_metadata, argv, qsort_path, NR(qsort_path), true, delta, shared,
			    met);
}

static struct tally run_qsort(struct __test_metadata *_metadata, char *argv[],
			      bool expect_good, struct shared_stats *delta, char *shared)
{
	return run_path(_metadata, argv, qsort_path, NR(qsort_path), expect_good, delta,
			shared);
}

/*
 * More processes of @argv, up to WARM_RUNS, until one decodes less than a
 * quarter of what the first (@first rows) did: the shared cache then holds
 * the rows of most pcs the samples meet (at the tick's rate, one process
 * samples only some of them).  Whether the next process starts warm is
 * measured after that.  With rows that were not shared, every process
 * decodes about as many as the first, and this gives up.  @met gets the
 * pcs they met.
 */
#define WARM_RUNS	4
/*
 * A test of them runs up to 8 processes, each up to MAX_RUNS times: under
 * KASAN on s390x's emulation that is more than the harness' 30 s.
 */
#define SHARED_TIMEOUT	300

static void warm_up(struct __test_metadata *_metadata, char *argv[], long long first,
		    struct pcs *met)
{
	struct shared_stats d;
	char s[16];

	for (unsigned int i = 0; i < WARM_RUNS; i++) {
		run_qsort_met(_metadata, argv, &d, s, met);
		ksft_print_msg("warming up: %lld rows inserted\n", d.inserted);
		if (4 * d.inserted <= first)
			break;
	}
}

/*
 * Two processes of @argv, one after the other: the first one's entry for
 * the program is @origin's and marked shared, and it shares frames it
 * decoded; the second's chains are whole (cmp <libc> run main), and it
 * decodes few of the rows of the pcs the first one (or a warm-up) met.
 */
static void first_then_next(struct __test_metadata *_metadata, char *argv[],
			    const char *origin)
{
	struct pcs *before = calloc(1, sizeof(*before)), *next = calloc(1, sizeof(*next));
	struct shared_stats d1, d2;
	struct tally t1, t2;
	char s1[16], s2[16];

	ASSERT_TRUE(before && next);
	t1 = run_qsort_met(_metadata, argv, &d1, s1, before);
	warm_up(_metadata, argv, d1.inserted, before);
	t2 = run_qsort_met(_metadata, argv, &d2, s2, next);
	ksft_print_msg("%s, first process: %u samples in cmp, %u whole; %s %lld inserted\n",
		       origin, t1.leaf, t1.good, "shared:", d1.inserted);
	ksft_print_msg("%s, next process: %u samples in cmp, %u whole; %s %lld hits, %lld %s\n",
		       origin, t2.leaf, t2.good, "shared:", d2.hits, d2.misses, "misses");
	EXPECT_LE(MIN_LEAF, t1.leaf);
	EXPECT_EQ(t1.leaf, t1.good);
	EXPECT_STREQ(origin, s1) TH_LOG("the program's table is not shared");
	EXPECT_LT(0, d1.inserted);
	EXPECT_LE(MIN_LEAF, t2.leaf);
	EXPECT_EQ(t2.leaf, t2.good);
	EXPECT_STREQ(origin, s2) TH_LOG("the program's table is not shared");
	/* Every walk from cmp has its frames of cmp, run and main. */
	EXPECT_LE((long long)t2.leaf, d2.hits);
	expect_warm(_metadata, "next process", next, before, d2.inserted);
	free(before);
	free(next);
}

/*
 * Two processes of a program nobody ran before, one after the other: the
 * second's walks find what the first one's decoded in the shared cache,
 * and its chains are whole.  Then the same with
 * kernel.unwind_tables_share=0: no hits, whole chains still.
 */
TEST_F_TIMEOUT(disc, shared_next_process, SHARED_TIMEOUT)
{
	char path[PATH_MAX], *argv[] = { path, "qsort", SPIN_MS, NULL };
	struct shared_stats d3;
	struct tally t3;
	char s3[16];

	ASSERT_EQ(0, shared_setup(_metadata, self->prog, &self->share, self->dir,
				  sizeof(self->dir), path, sizeof(path)));
	first_then_next(_metadata, argv, "discovered");

	ASSERT_EQ(0, write_sysctl(SHARE_SYSCTL, 0));
	t3 = run_qsort(_metadata, argv, true, &d3, s3);
	ksft_print_msg("sharing off: %u samples in cmp, %u whole; %s %lld hits, %lld inserted\n",
		       t3.leaf, t3.good, "shared:", d3.hits, d3.inserted);
	EXPECT_LE(MIN_LEAF, t3.leaf);
	EXPECT_EQ(t3.leaf, t3.good);
	EXPECT_EQ(0, d3.hits);
	EXPECT_EQ(0, d3.inserted);
}

/*
 * Rows are shared within one user: a process of another user (here
 * nobody: the program drops to it, then runs) finds none of what a process
 * of root decoded, and decodes most rows of the pcs it meets; the next
 * process of root finds them again, and decodes few.
 */
TEST_F_TIMEOUT(disc, shared_per_user, SHARED_TIMEOUT)
{
	char path[PATH_MAX], *root[] = { path, "qsort", SPIN_MS, NULL },
	     *nobody[] = { path, "as-nobody", "qsort", SPIN_MS, NULL };
	struct pcs *met_root = calloc(1, sizeof(*met_root)),
		   *met_nobody = calloc(1, sizeof(*met_nobody)),
		   *met_again = calloc(1, sizeof(*met_again));
	struct shared_stats d1, d2, d3;
	struct tally t1, t2, t3;
	char s1[16], s2[16], s3[16];

	ASSERT_TRUE(met_root && met_nobody && met_again);
	ASSERT_EQ(0, shared_setup(_metadata, self->prog, &self->share, self->dir,
				  sizeof(self->dir), path, sizeof(path)));
	ASSERT_EQ(0, chmod(self->dir, 0755));

	t1 = run_qsort_met(_metadata, root, &d1, s1, met_root);
	warm_up(_metadata, root, d1.inserted, met_root);
	t2 = run_qsort_met(_metadata, nobody, &d2, s2, met_nobody);
	t3 = run_qsort_met(_metadata, root, &d3, s3, met_again);
	ksft_print_msg("root: %u samples in cmp, %u whole; %s %lld inserted\n", t1.leaf,
		       t1.good, "shared:", d1.inserted);
	ksft_print_msg("nobody: %u samples in cmp, %u whole; %s %lld inserted\n", t2.leaf,
		       t2.good, "shared:", d2.inserted);
	ksft_print_msg("root again: %u samples in cmp, %u whole; %s %lld inserted\n", t3.leaf,
		       t3.good, "shared:", d3.inserted);
	EXPECT_LE(MIN_LEAF, t1.leaf);
	EXPECT_EQ(t1.leaf, t1.good);
	EXPECT_STREQ("discovered", s1) TH_LOG("the program's table is not shared");
	EXPECT_LE(MIN_LEAF, t2.leaf);
	EXPECT_EQ(t2.leaf, t2.good);
	EXPECT_STREQ("discovered", s2) TH_LOG("the program's table is not shared");
	EXPECT_LE(MIN_LEAF, t3.leaf);
	EXPECT_EQ(t3.leaf, t3.good);
	/* Another user starts cold. */
	expect_cold(_metadata, "nobody", met_nobody, d2.inserted);
	/* The control: within one user the rows are found: root decodes few. */
	expect_warm(_metadata, "root again", met_again, met_root, d3.inserted);
	free(met_root);
	free(met_nobody);
	free(met_again);
}

/*
 * The same, with discovery off and the tables of the program and libc
 * registered by each process: their entries are prctl's, and share their
 * frames as the kernel's do.
 */
TEST_F_TIMEOUT(disc, shared_registered, SHARED_TIMEOUT)
{
	char path[PATH_MAX], *argv[] = { path, "qsort-register", SPIN_MS, NULL };

	ASSERT_EQ(0, shared_setup(_metadata, self->prog, &self->share, self->dir,
				  sizeof(self->dir), path, sizeof(path)));
	self->discover = 1;
	ASSERT_EQ(0, write_sysctl(DISCOVER_SYSCTL, 0));
	first_then_next(_metadata, argv, "prctl");
}

/*
 * A process that wrote its copy of the program's .eh_frame (the data
 * alignment of every CIE doubled: its return addresses are read from the
 * wrong slot) decodes wrong frames: they stay its own.  The next process
 * of the same, unwritten file must not get them: its chains are whole.
 */
TEST_F(disc, shared_not_from_written_copy)
{
	char path[PATH_MAX], *bad[] = { path, "qsort-scribble", SPIN_MS, NULL },
	     *good[] = { path, "qsort", SPIN_MS, NULL };
	struct shared_stats d1, d2;
	struct tally t1, t2;
	char s1[16], s2[16];

	ASSERT_EQ(0, shared_setup(_metadata, self->prog, &self->share, self->dir,
				  sizeof(self->dir), path, sizeof(path)));

	t1 = run_qsort(_metadata, bad, false, &d1, s1);
	t2 = run_qsort(_metadata, good, true, &d2, s2);
	ksft_print_msg("written copy: %u samples in cmp, %u whole; %s %lld refused\n",
		       t1.leaf, t1.good, "shared:", d1.refused);
	ksft_print_msg("next process: %u samples in cmp, %u whole; %s %lld hits, %lld inserted\n",
		       t2.leaf, t2.good, "shared:", d2.hits, d2.inserted);
	EXPECT_LE(MIN_LEAF, t1.leaf);
	/* The scribble took: most of the writer's own chains are wrong. */
	EXPECT_GT(t1.leaf / 2, t1.good);
	EXPECT_LT(0, d1.refused);
	EXPECT_LE(MIN_LEAF, t2.leaf);
	EXPECT_EQ(t2.leaf, t2.good);
}

#ifdef __x86_64__
/*
 * A process writes its copy of the program's header (the FDE count cut to
 * 1), registers the program's table (the kernel reads the header), then
 * maps the segment that holds the header and .eh_frame again from the
 * file: its entry keeps the count it read, and finds no FDE for cmp, over
 * pages that are the file's again.  That "none" must stay the process's own:
 * the header, read again, is not the entry's.  The next process of the
 * file, registering as a loader does, must find cmp's frames.  (The
 * remapping is x86-64's: its linker puts the header and .eh_frame in a
 * segment of their own, apart from the text.)
 */
TEST_F(disc, shared_not_from_written_header)
{
	char path[PATH_MAX], *bad[] = { path, "qsort-hdr-remap", SPIN_MS, NULL },
	     *good[] = { path, "qsort-register", SPIN_MS, NULL };
	struct shared_stats d1, d2;
	struct tally t1, t2;
	char s1[16], s2[16];

	ASSERT_EQ(0, shared_setup(_metadata, self->prog, &self->share, self->dir,
				  sizeof(self->dir), path, sizeof(path)));
	/* Registrations alone: the kernel would find the table itself. */
	self->discover = 1;
	ASSERT_EQ(0, write_sysctl(DISCOVER_SYSCTL, 0));

	t1 = run_qsort(_metadata, bad, false, &d1, s1);
	t2 = run_qsort(_metadata, good, true, &d2, s2);
	ksft_print_msg("written header: %u samples in cmp, %u whole; %s %lld refused\n",
		       t1.leaf, t1.good, "shared:", d1.refused);
	ksft_print_msg("next process: %u samples in cmp, %u whole; %s %lld hits, %lld inserted\n",
		       t2.leaf, t2.good, "shared:", d2.hits, d2.inserted);
	EXPECT_LE(MIN_LEAF, t1.leaf);
	/* The written count took: the writer's own chains stop at cmp. */
	EXPECT_GT(t1.leaf / 2, t1.good);
	EXPECT_LT(0, d1.refused);
	EXPECT_LE(MIN_LEAF, t2.leaf);
	EXPECT_EQ(t2.leaf, t2.good);
}

/* discover_abs.S's leaf, called from discover_workload-abs's run_spin. */
static const struct step abs_path[] = {
	ONE(PROG_ABS, "abs_spin"), ONE(PROG_ABS, "run_spin"), ONE(PROG_ABS, "main"),
};

/*
 * A frame found through an FDE whose addresses are absolute holds where the
 * table was linked to be mapped only.  A process (discover_workload) maps
 * discover_workload-abs one page above its link address and runs its
 * abs_spin there: the FDE its lookups find covers the next page
 * (discover_abs.S).  Then a process of the program as linked: its chains
 * must be whole, as with kernel.unwind_tables_share=0, which follows.
 * (Frames of absolute FDEs are never shared; the hand-written table is
 * x86-64's, the reader that decides is not.)
 */
TEST_F(disc, shared_not_absolute)
{
	char abs[PATH_MAX], path[PATH_MAX], *victim[] = { path, "abs", SPIN_MS, NULL },
	     *moved[] = { self->prog, "shifted", path, SPIN_MS, NULL };
	struct shared_stats d1, d2, d3;
	struct tally t1, t2, t3;
	char s1[16], s2[16], s3[16];

	prog_path(abs, sizeof(abs), PROG_ABS);
	ASSERT_EQ(0, shared_setup(_metadata, abs, &self->share, self->dir, sizeof(self->dir),
				  path, sizeof(path)));

	t1 = run_path(_metadata, moved, abs_path, 1, false, &d1, s1);
	t2 = run_path(_metadata, victim, abs_path, NR(abs_path), true, &d2, s2);
	ASSERT_EQ(0, write_sysctl(SHARE_SYSCTL, 0));
	t3 = run_path(_metadata, victim, abs_path, NR(abs_path), true, &d3, s3);
	ksft_print_msg("moved a page: %u samples in abs_spin; %s %lld inserted\n", t1.leaf,
		       "shared:", d1.inserted);
	ksft_print_msg("as linked: %u samples in abs_spin, %u whole; %s %lld hits\n", t2.leaf,
		       t2.good, "shared:", d2.hits);
	ksft_print_msg("sharing off: %u samples in abs_spin, %u whole\n", t3.leaf, t3.good);
	/* The moved copy was sampled: its lookups were made. */
	EXPECT_LE(MIN_LEAF, t1.leaf);
	EXPECT_LE(MIN_LEAF, t2.leaf);
	EXPECT_EQ(t2.leaf, t2.good);
	EXPECT_LE(MIN_LEAF, t3.leaf);
	EXPECT_EQ(t3.leaf, t3.good);
}
#endif

#ifdef __x86_64__
/* Two frames of anonymous memory: no file is mapped there. */
#define ANON	""
#define AUDIT	"unwind_user_audit.so"

static const struct step jit_path[] = {
	ONE(PROG, "jit_leaf"), ONE(ANON, NULL), ONE(ANON, NULL), ONE(PROG, "run_jit"),
	ONE(PROG, "main"),
};

/*
 * A JIT that gives the .eh_frame of its code to libgcc with
 * __register_frame(), as JIT compilers do for C++ exceptions, and
 * registers nothing with the kernel (discover_workload jit; libgcc's own
 * unwinder gets through the JIT's frames, checked first): with the LD_AUDIT
 * helper, which forwards the table, every chain from the leaf crosses the
 * two JIT frames, which have no frame pointer, to main; without it (the
 * control), the chains break there.
 */
TEST_F(disc, jit_register_frame)
{
	char audit[PATH_MAX], *with[] = { self->prog, "jit-audit", audit, SPIN_MS, NULL },
	     *without[] = { self->prog, "jit", SPIN_MS, NULL };
	struct shared_stats d1, d2;
	struct tally t1, t2;
	char s1[16], s2[16];

	prog_path(audit, sizeof(audit), AUDIT);
	ASSERT_EQ(0, access(audit, R_OK)) TH_LOG("no %s", audit);
	ASSERT_EQ(0, debugfs_ready()) TH_LOG("no %s", DEBUGFS_DIR);
	t1 = run_path(_metadata, with, jit_path, NR(jit_path), true, &d1, s1);
	t2 = run_path(_metadata, without, jit_path, NR(jit_path), false, &d2, s2);
	ksft_print_msg("with the helper: %u samples in jit_leaf, %u whole\n", t1.leaf, t1.good);
	ksft_print_msg("without: %u samples in jit_leaf, %u whole (%u delivered)\n", t2.leaf,
		       t2.good, t2.resolved);
	EXPECT_LE(MIN_LEAF, t1.leaf);
	EXPECT_EQ(t1.leaf, t1.good);
	EXPECT_LE(MIN_LEAF, t2.leaf);
	EXPECT_EQ(t2.leaf, t2.resolved);
	EXPECT_EQ(0U, t2.good);
}
#endif

/*
 * A fork child makes its own copy of the program's .eh_frame corrupt, after
 * the kernel found the table for the parent (fork shares the entry), and
 * is sampled: its lookups drop the table.  In the child only: the child's
 * tables say "dropped" for the program, the parent's do not, and every
 * chain the parent's samples in cmp read afterwards is whole.
 */
TEST_F(disc, dead_in_child)
{
	char path[PATH_MAX], *argv[] = { path, "fork-corrupt", SPIN_MS, NULL };
	char **argvs[] = { argv };
	struct tally t = { 0, 0, 0 };
	unsigned int runs = 0;

	ASSERT_EQ(0, copy_prog(_metadata, self->prog, self->dir, sizeof(self->dir), path,
			       sizeof(path)));
	while (!runs || more(&t, MIN_LEAF, runs)) {
		struct run *r = attach(_metadata, argvs, 1, true);
		char corigin[16], cformat[16], porigin[16], pformat[16];
		const char *child, *parent = NULL, *p;
		const struct chain_mmap *m;

		ASSERT_NE(NULL, r);
		runs++;
		add(&t, check_chains(_metadata, r, r->wl[0].pid, fork_path, NR(fork_path), true));
		m = map_of(r, r->wl[0].pid, PROG);
		ASSERT_NE(NULL, m) TH_LOG("the program's mapping is not known");
		/* The child's tables come first, then the parent's. */
		child = strstr(r->wl[0].text ?: "", "== child tables\n");
		for (p = child; p && (p = strstr(p, "== tables\n")); p++)
			parent = p + 10;
		ASSERT_NE(NULL, child) TH_LOG("no tables of the child: %s", r->wl[0].text);
		ASSERT_NE(NULL, parent);
		ASSERT_TRUE(table_over(child, m->start, m->start + m->len, corigin, cformat));
		ASSERT_TRUE(table_over(parent, m->start, m->start + m->len, porigin, pformat));
		ksft_print_msg("the program's table: in the child %s %s, in the parent %s %s\n",
			       corigin, cformat, porigin, pformat);
		/* Else the child's lookups never found the corruption. */
		EXPECT_STREQ("dropped", cformat);
		EXPECT_STREQ("discovered", porigin);
		EXPECT_STRNE("dropped", pformat);
		run_free(r);
	}
	ksft_print_msg("%u runs: the parent's %u samples in cmp, %u whole\n", runs, t.leaf,
		       t.good);
	EXPECT_LE(MIN_LEAF, t.leaf);
	EXPECT_EQ(t.leaf, t.good);
}

/* The same for C++: xsputn, std::__ostream_insert in libstdc++, run, main. */
TEST_F(disc, attach_cxx)
{
	char *argv[] = { self->cxx, SPIN_MS, NULL }, **argvs[] = { argv };
	struct tally t = { 0, 0, 0 };
	unsigned int runs = 0;

	while (!runs || more(&t, MIN_LEAF, runs)) {
		struct run *r = attach(_metadata, argvs, 1, false);

		ASSERT_NE(NULL, r);
		runs++;
		add(&t, check_chains(_metadata, r, r->wl[0].pid, cxx_path, NR(cxx_path), true));
		expect_found(_metadata, r, &r->wl[0], LIBSTDCXX, "discovered");
		expect_found(_metadata, r, &r->wl[0], LIBC, "discovered");
		check_vdso(_metadata, r, &r->wl[0]);
		run_free(r);
	}
	ksft_print_msg("%u runs: %u samples in xsputn, %u with xsputn <libstdc++> run main\n",
		       runs, t.leaf, t.good);
	EXPECT_LE(MIN_LEAF, t.leaf);
	EXPECT_EQ(t.leaf, t.good);
}

/* perf record -a: one event per CPU, both programs at once; only theirs count. */
TEST_F(disc, system_wide)
{
	char *argv0[] = { self->prog, "qsort", SPIN_MS, NULL };
	char *argv1[] = { self->cxx, SPIN_MS, NULL };
	char **argvs[] = { argv0, argv1 };
	struct tally t0 = { 0, 0, 0 }, t1 = { 0, 0, 0 };
	unsigned int runs = 0;

	while (!runs || more(&t0, MIN_LEAF, runs) || more(&t1, MIN_LEAF, runs)) {
		struct run *r = attach(_metadata, argvs, 2, true);

		ASSERT_NE(NULL, r);
		runs++;
		add(&t0, check_chains(_metadata, r, r->wl[0].pid, qsort_path, NR(qsort_path),
				      true));
		add(&t1, check_chains(_metadata, r, r->wl[1].pid, cxx_path, NR(cxx_path), true));
		expect_found(_metadata, r, &r->wl[0], LIBC, "discovered");
		expect_found(_metadata, r, &r->wl[1], LIBSTDCXX, "discovered");
		run_free(r);
	}
	ksft_print_msg("%u runs: %u samples in cmp, %u complete; %u in xsputn, %u complete\n",
		       runs, t0.leaf, t0.good, t1.leaf, t1.good);
	EXPECT_LE(MIN_LEAF, t0.leaf);
	EXPECT_EQ(t0.leaf, t0.good);
	EXPECT_LE(MIN_LEAF, t1.leaf);
	EXPECT_EQ(t1.leaf, t1.good);
}

/*
 * The mapping of @path (a full path) that PERF_RECORD_MMAP2 reported for
 * @pid: mapped after the attach.
 */
static const struct chain_mmap *mmap2_of(const struct run *r, pid_t pid, const char *path)
{
	for (unsigned int i = 0; i < r->cap.nr_maps; i++) {
		const struct chain_mmap *m = &r->cap.maps[i];

		if (m->pid == (uint32_t)pid && !strcmp(m->path, path))
			return m;
	}
	return NULL;
}

/*
 * A library dlopen()ed after the attach, then dlclose()d, and another
 * dlopen()ed at its address: every sample in cb_spin reads the path of
 * the library mapped when it was taken, with that library's functions.
 */
TEST_F(disc, dlopen)
{
	static const struct step path1[] = {
		ONE(PROG, "cb_spin"), ONE(LIB1, "lib_b"), ONE(LIB1, "lib_a"),
		ONE(PROG, "call_lib"), ONE(PROG, "main"),
	};
	static const struct step path2[] = {
		ONE(PROG, "cb_spin"), ONE(LIB2, "lib2_x"), ONE(LIB2, "lib2_y"),
		ONE(PROG, "call_lib"), ONE(PROG, "main"),
	};
	char *argv[] = { self->prog, "dlopen", SPIN_MS, self->lib1, self->lib2, NULL };
	char **argvs[] = { argv };
	unsigned int in_cb = 0, good1 = 0, good2 = 0, bad = 0, runs = 0;

	while (!runs || ((good1 < MIN_LEAF || good2 < MIN_LEAF) && runs < MAX_RUNS)) {
		struct run *r = attach(_metadata, argvs, 1, false);
		const struct chain_mmap *m1, *m2;
		pid_t pid;

		ASSERT_NE(NULL, r);
		runs++;
		pid = r->wl[0].pid;
		m1 = mmap2_of(r, pid, self->lib1);
		m2 = mmap2_of(r, pid, self->lib2);
		ASSERT_NE(NULL, m1) TH_LOG("no PERF_RECORD_MMAP2 for %s", self->lib1);
		ASSERT_NE(NULL, m2) TH_LOG("no PERF_RECORD_MMAP2 for %s", self->lib2);
		/* The point of the test: the second library's text where the first's was. */
		ASSERT_EQ(m1->start - m1->pgoff, m2->start - m2->pgoff)
			TH_LOG("%s loaded at %llx, %s at %llx", LIB1,
			       (unsigned long long)(m1->start - m1->pgoff), LIB2,
			       (unsigned long long)(m2->start - m2->pgoff));
		ASSERT_TRUE(m1->start < m2->start + m2->len && m2->start < m1->start + m1->len);

		for (unsigned int i = 0; i < r->cap.nr_samples; i++) {
			const struct chain_sample *s = &r->cap.samples[i];

			if (!sample_in(r, s, pid, PROG, "cb_spin"))
				continue;
			in_cb++;
			if (chain_is(r, s, path1, NR(path1))) {
				good1++;
			} else if (chain_is(r, s, path2, NR(path2))) {
				good2++;
			} else if (bad++ < 5) {
				format_chain(r, s);
				TH_LOG("chain of %u frames%s:%s", s->nr,
				       s->resolved ? "" : " (never delivered)", r->chain);
			}
		}
		/* The second library is what the kernel knows there now. */
		expect_found(_metadata, r, &r->wl[0], LIB2, "discovered");
		run_free(r);
	}
	ksft_print_msg("%u runs: %u samples in cb_spin, %u through %s, %u through %s\n",
		       runs, in_cb, good1, LIB1, good2, LIB2);
	EXPECT_LE(MIN_LEAF, good1);
	EXPECT_LE(MIN_LEAF, good2);
	EXPECT_EQ(in_cb, good1 + good2);
}

/*
 * An mm probes at most UNWIND_USER_DISCOVER_RATE (64) mappings a second: a
 * program that runs 1 ms at a time in 224 mappings of files that hold no
 * table (the chain capture reads up to 256 executable mappings) meets a
 * new one at most samples, more than 64 in its first second at a hundred
 * samples a second.  The probes beyond the rate must be
 * refused (discover "limited"), and the probes stay within the rate for
 * the run's wall time (each second may be cut by the run's start and end:
 * one more).  A run that met fewer than 64 new mappings in a second (too
 * few samples: a loaded host) is run again.
 */
#define MANY_MAPPINGS	"224"
#define MANY_MS		"1500"
#define DISCOVER_RATE	64

static double wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Up to MAX_RUNS runs of several seconds each under a debug kernel. */
TEST_F_TIMEOUT(disc, rate_limited, 300)
{
	char *argv[] = { self->prog, "many", MANY_MAPPINGS, MANY_MS, NULL };
	char **argvs[] = { argv };
	long long refused = 0;
	unsigned int runs = 0;

	ASSERT_EQ(0, debugfs_ready()) TH_LOG("no %s", DEBUGFS_DIR);
	while (!refused && runs < MAX_RUNS) {
		long long probes0, probes1, limited0, limited1, bound;
		double t0, secs;
		struct run *r;

		ASSERT_EQ(0, ut_debugfs_counter("discover", "probes", &probes0));
		ASSERT_EQ(0, ut_debugfs_counter("discover", "limited", &limited0));
		t0 = wall_s();
		r = attach(_metadata, argvs, 1, false);
		ASSERT_NE(NULL, r);
		secs = wall_s() - t0;
		runs++;
		ASSERT_EQ(0, ut_debugfs_counter("discover", "probes", &probes1));
		ASSERT_EQ(0, ut_debugfs_counter("discover", "limited", &limited1));
		bound = DISCOVER_RATE * ((long long)secs + 2);
		ksft_print_msg("run %u: %lld probes (at most %lld in %.1f s), %lld refused\n",
			       runs, probes1 - probes0, bound, secs, limited1 - limited0);
		EXPECT_GE(bound, probes1 - probes0);
		refused += limited1 - limited0;
		run_free(r);
	}
	EXPECT_LT(0, refused) TH_LOG("no probe refused in %u runs", runs);
}

/*
 * libdiscover_obj.so brought into memory some way (discover_workload.c's
 * map_case()) and sampled while main -> run_obj -> obj_loop -> obj_cb
 * spins.  @found: the kernel must find its table (origin "discovered") and
 * every chain from obj_cb go through obj_loop to main; else a marker
 * ("discovered none") must cover it.  Either way no kernel warning, the
 * program unharmed, and a few probes at most.
 */
FIXTURE(obj) {
	char prog[PATH_MAX], obj[PATH_MAX];
};

FIXTURE_VARIANT(obj) {
	const char *name;
	bool found;
};

FIXTURE_VARIANT_ADD(obj, plain) { "plain", true };
FIXTURE_VARIANT_ADD(obj, memfd) { "memfd", true };
FIXTURE_VARIANT_ADD(obj, nohdr) { "nohdr", true };
FIXTURE_VARIANT_ADD(obj, nonelf) { "nonelf", false };
FIXTURE_VARIANT_ADD(obj, phdr_eof) { "phdr_eof", false };
FIXTURE_VARIANT_ADD(obj, overlap) { "overlap", false };
FIXTURE_VARIANT_ADD(obj, pn_xnum) { "pn_xnum", false };
FIXTURE_VARIANT_ADD(obj, truncated) { "truncated", false };
FIXTURE_VARIANT_ADD(obj, texthole) { "texthole", false };

FIXTURE_SETUP(obj)
{
	prog_path(self->prog, sizeof(self->prog), PROG);
	prog_path(self->obj, sizeof(self->obj), OBJ);
	ASSERT_EQ(0, access(self->obj, R_OK)) TH_LOG("no %s", self->obj);
	ASSERT_EQ(1, read_sysctl(DISCOVER_SYSCTL)) TH_LOG("discovery is off");
	ASSERT_EQ(0, debugfs_ready()) TH_LOG("no %s", DEBUGFS_DIR);
}

FIXTURE_TEARDOWN(obj)
{
}

TEST_F(obj, object)
{
	static const struct step path[] = {
		ONE(PROG, "obj_cb"), ONE(OBJ, "obj_loop"), ONE(PROG, "run_obj"),
		ONE(PROG, "main"),
	};
	char *argv[] = { self->prog, "obj", (char *)variant->name, self->obj, SPIN_MS, NULL };
	char **argvs[] = { argv };
	struct tally t = { 0, 0, 0 };
	unsigned int runs = 0;

	while (!runs || more(&t, MIN_LEAF, runs)) {
		long long probes0, probes1;
		char msg[512], o[16], f[16];
		unsigned long long loop;
		struct tally rt;
		struct run *r;
		int kmsg, ret;

		kmsg = ut_kmsg_open();
		ASSERT_LE(0, kmsg);
		ASSERT_EQ(0, ut_debugfs_counter("discover", "probes", &probes0));
		r = attach(_metadata, argvs, 1, false);
		ASSERT_NE(NULL, r);
		runs++;
		ASSERT_EQ(0, ut_debugfs_counter("discover", "probes", &probes1));
		EXPECT_FALSE(ut_kmsg_splat(kmsg, msg, sizeof(msg))) TH_LOG("kernel: %s", msg);
		close(kmsg);
		ret = sscanf(r->wl[0].text, "obj %llx", &loop);
		ASSERT_EQ(1, ret) TH_LOG("no address from the program: %s", r->wl[0].text);

		rt = check_chains(_metadata, r, r->wl[0].pid, path, NR(path), variant->found);
		add(&t, rt);
		ksft_print_msg("%s: %u samples in obj_cb, %u with %s, %lld probes\n",
			       variant->name, rt.leaf, rt.good, "obj_cb obj_loop run_obj main",
			       probes1 - probes0);
		/* However many samples met the object. */
		EXPECT_GE(MAX_PROBES, probes1 - probes0);
		ASSERT_NE(NULL, tables_of(&r->wl[0]));
		ASSERT_TRUE(table_over(tables_of(&r->wl[0]), loop, loop + 1, o, f))
			TH_LOG("nothing over obj_loop (%llx) in:\n%s", loop,
			       tables_of(&r->wl[0]));
		EXPECT_STREQ("discovered", o);
		EXPECT_STREQ(variant->found ? "eh_frame_hdr" : "none", f);
		run_free(r);
	}
	EXPECT_LE(MIN_LEAF, t.leaf);
	EXPECT_EQ(t.leaf, t.resolved);
	/* A marker: no chain through the object, however it is named. */
	EXPECT_EQ(variant->found ? t.leaf : 0U, t.good);
}

TEST_HARNESS_MAIN
