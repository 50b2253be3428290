// SPDX-License-Identifier: GPL-2.0
/*
 * A profiler that never stalls what it profiles: a program built without
 * frame pointers that runs code of its own JIT, sampled at 10 kHz with
 * deferred callchains.  The sampled path is
 *
 *	main -> run_loop		C, no frame pointer, CFI
 *	  -> asm_nocfi			the program's text, frame pointer, no FDE
 *	    -> jit1 -> jit2 -> jit3	anonymous memory, frame pointers
 *	      -> leaf			C, no frame pointer, CFI
 *
 * so that every walk meets a pc that the program's table covers but no FDE
 * describes, and three pcs of anonymous executable memory without a table:
 * the lookups that found nothing and were repeated at every sample.
 *
 *   - chains: once the first samples are past (a warm-up of WARM_MS of the
 *     program's CPU time, sampled by an event of its own), every chain is
 *     whole, from the leaf through the JIT frames and the assembly function
 *     to main (99% of the chains delivered, at least 100 of them), and no
 *     lookup repeats a table search or a discovery probe: debugfs
 *     unwind_user discover "probes" stays where it was, registry
 *     "searches_none" grows only by the first lookups of pcs in asm_nocfi
 *     that no sample met before (at most one per byte of it), while
 *     "none_cached" + "marker" grow by at least one per walk
 *     (/proc/<pid>/unwind_tables "walks", less the lean ones); the JIT's
 *     memory has its marker ("discovered none");
 *   - overhead: the same program, a fixed number of iterations: the CPU
 *     time it takes under deferred callchains next to the kernel's own
 *     frame-pointer callchain (taken in the interrupt, no defer_callchain)
 *     at the same rate, printed against the 1.5 target; it fails above
 *     MAX_RATIO (a walk gone pathological).
 *
 * cpu-clock samples at 10 kHz only with high-resolution timers: a kernel
 * without them samples at its tick, which the tests print and say.
 *
 *	jit_chain			the tests
 *	jit_chain child phases		the program: sampled in two phases,
 *					told when to go on its stdin
 *	jit_chain child fixed N FD	N iterations, then their wall and CPU
 *					time (ns) to file descriptor FD
 *	jit_chain child cpu MS		iterations for MS ms of its CPU time,
 *					printed
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "elf_syms.h"
#include "jit_chain.h"
#include "perf_chain.h"
#include "unwind_table.h"
#include "../kselftest_harness.h"

/* 10 kHz of cpu-clock; a rate below RATE_LOW means no high-resolution timers. */
#define PERIOD_NS	100000ULL
#define RATE_ASKED	(1000000000.0 / PERIOD_NS)
#define RATE_LOW	5000.0
/* The program's CPU time in each phase of the chains test. */
#define WARM_MS		500
#define MEASURE_MS	2000
/* What the leaf spins at each call. */
#define LEAF_SPIN	50000
#define MIN_SAMPLES	100U
#define MIN_WHOLE_PCT	99.0
/* The overhead test: the unsampled run's CPU time, rounds, the bound. */
#define FIXED_MS	2000
#define STR_(x)		#x
#define STR(x)		STR_(x)
#define ROUNDS		5
/*
 * A guard against a walk gone pathological (a table search or a discovery
 * probe per frame), not the target: the target, 1.5, is a figure this test
 * prints (1.14 measured on 5 Dec), and under TCG single rounds of the same
 * build vary by a third (1.07 to 1.90 in one run).  A kernel that makes
 * every walk slower by itself (KASAN, lockdep: make check-debug) sets its
 * own guard in UNWIND_USER_OVERHEAD_MAX_RATIO.
 */
#define MAX_RATIO	2.5

static double max_ratio(void)
{
	const char *env = getenv("UNWIND_USER_OVERHEAD_MAX_RATIO");
	double r = env ? strtod(env, NULL) : 0;

	return r >= 1 ? r : MAX_RATIO;
}

/* The program's side. */

/*
 * Keep @val in a register and the code that computed it: the leaves'
 * loops are what the samples land in.
 */
static inline unsigned long keep(unsigned long val)
{
	asm volatile("" : "+r" (val));
	return val;
}

/* What jit3 calls, through leaf_slot: called only from the JIT, never inlined. */
long leaf(long n)
{
	unsigned long acc = 0;

	for (long i = 0; i < n; i++)
		acc = keep(acc + i * 5);
	return n + (acc & 2);
}

/* Where jit3 finds the leaf (the JIT code reads it: its address escapes). */
static long (*leaf_slot)(long) = leaf;

#define JIT_SIZE	4096
#define JIT_FUNCS	3
#define JIT_STRIDE	64
/*
 * asm_nocfi's size, and the instructions where the frame pointer is not
 * its own (the push, the mov after it, the ret): with no CFI, nothing can
 * walk from there.
 */
#define ASM_NOCFI_SIZE		8
#define ASM_NOCFI_PUSH		0
#define ASM_NOCFI_MOV		1
#define ASM_NOCFI_RET		7
/* Where in each JIT function its call returns to (see jit_emit()). */
#define JIT_RET_OFF	16

struct jit {
	unsigned char *code;
	unsigned long fn[JIT_FUNCS];		/* jit1, jit2, jit3 */
	unsigned long ret[JIT_FUNCS];	/* the return address after each one's call */
	unsigned long asm_nocfi;	/* where the program has it */
};

/*
 * Emit at @p: push %rbp; mov %rsp,%rbp; movabs $@target,%rax; call *%rax
 * (or, @indirect, call *(%rax)); pop %rbp; ret.  The address after the
 * call, the return address it pushes, goes to *@ret.
 */
static int jit_emit(unsigned char *p, unsigned long target, int indirect, unsigned long *ret)
{
	unsigned char *q = p;

	*q++ = 0x55;
	*q++ = 0x48;
	*q++ = 0x89;
	*q++ = 0xe5;
	*q++ = 0x48;
	*q++ = 0xb8;
	memcpy(q, &target, sizeof(target));
	q += sizeof(target);
	*q++ = 0xff;
	*q++ = indirect ? 0x10 : 0xd0;
	*ret = (uintptr_t)p + JIT_RET_OFF;
	*q++ = 0x5d;
	*q++ = 0xc3;
	return q - p == JIT_RET_OFF + 2 ? 0 : -EINVAL;
}

/* Map the JIT's code read-write, write it, make it read-execute. */
static int jit_build(struct jit *j)
{
	j->code = mmap(NULL, JIT_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (j->code == MAP_FAILED)
		return -errno;
	memset(j->code, 0xcc, JIT_SIZE);
	for (int i = 0; i < JIT_FUNCS; i++)
		j->fn[i] = (uintptr_t)j->code + JIT_STRIDE * (i + 1);
	for (int i = 0; i < JIT_FUNCS; i++) {
		int last = i == JIT_FUNCS - 1;
		unsigned long target = last ? (uintptr_t)&leaf_slot : j->fn[i + 1];

		if (jit_emit((unsigned char *)(uintptr_t)j->fn[i], target, last, &j->ret[i]))
			return -EINVAL;
	}
	if (mprotect(j->code, JIT_SIZE, PROT_READ | PROT_EXEC))
		return -errno;
	return 0;
}

static unsigned long long clock_ns(clockid_t clock)
{
	struct timespec ts;

	/* The system call itself: no sample lands in the vDSO, nothing to probe there. */
	syscall(SYS_clock_gettime, clock, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long long cpu_ns(void)
{
	return clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

/* The sampled loop: @iters iterations, or (@iters 0) @ms of CPU time. */
static unsigned long run_loop(const struct jit *j, unsigned long iters, unsigned int ms)
{
	long (*jit1)(long) = (long (*)(long))(uintptr_t)j->fn[0];
	unsigned long long stop = cpu_ns() + ms * 1000000ULL;
	unsigned long i;
	unsigned long sum = 0;

	for (i = 0; iters ? i < iters : 1; i++) {
		sum = keep(sum + asm_nocfi(LEAF_SPIN, jit1));
		if (!iters && !(i & 15) && cpu_ns() >= stop)
			break;
	}
	return i;
}

static int wait_go(void)
{
	char c;

	return read(STDIN_FILENO, &c, 1) == 1 ? 0 : -1;
}

static void say(const char *what)
{
	printf("%s\n", what);
	fflush(stdout);
}

static int child(int argc, char **argv)
{
	const char *mode = argv[2];
	struct jit j;
	int ret;

	ret = jit_build(&j);
	if (ret) {
		fprintf(stderr, "jit_chain: cannot build the JIT: %s\n", strerror(-ret));
		return 1;
	}
	if (!strcmp(mode, "fixed") && argc == 5) {
		unsigned long long wall = clock_ns(CLOCK_MONOTONIC), cpu = cpu_ns();

		run_loop(&j, strtoul(argv[3], NULL, 0), 0);
		wall = clock_ns(CLOCK_MONOTONIC) - wall;
		cpu = cpu_ns() - cpu;
		return dprintf(atoi(argv[4]), "%llu %llu\n", wall, cpu) > 0 ? 0 : 1;
	}
	if (!strcmp(mode, "cpu") && argc == 4) {
		printf("iters %lu\n", run_loop(&j, 0, strtoul(argv[3], NULL, 0)));
		return 0;
	}
	if (strcmp(mode, "phases"))
		return 2;
	printf("ready jit %lx asm %lx\n", (unsigned long)(uintptr_t)j.code,
	       (unsigned long)(uintptr_t)asm_nocfi);
	fflush(stdout);
	if (wait_go())
		return 1;
	run_loop(&j, 0, WARM_MS);
	say("warm");
	if (wait_go())
		return 1;
	run_loop(&j, 0, MEASURE_MS);
	say("done");
	return wait_go() ? 1 : 0;
}

/* The test's side. */

static char self_exe[4096];

/*
 * The FDE of this program's .eh_frame_hdr search table that covers @pc:
 * 1 (its range in *@begin, *@end), 0 if none does, -1 if the table is not
 * in the layout gcc and ld make for x86-64 (datarel sdata4 search table,
 * pcrel sdata4 FDE addresses).
 */
static int fde_covering(unsigned long pc, unsigned long *begin, unsigned long *end)
{
	const unsigned char *hdr, *fde;
	int loc, off, fde_pc;
	struct ut_object obj;
	unsigned int count, range;
	unsigned long lo, hi, mid;

	if (ut_find_object("", &obj))
		return -1;
	hdr = (const unsigned char *)(uintptr_t)obj.hdr_start;
	if (hdr[0] != 1 || (hdr[1] & 0x0f) != EH_PE_sdata4 || hdr[2] != EH_PE_udata4 ||
	    hdr[3] != (EH_PE_datarel | EH_PE_sdata4))
		return -1;
	memcpy(&count, hdr + 8, sizeof(count));
	if (!count)
		return 0;
	/* The last entry whose initial location is at or below @pc. */
	lo = 0;
	hi = count;
	while (hi - lo > 1) {
		mid = (lo + hi) / 2;
		memcpy(&loc, hdr + 12 + 8 * mid, sizeof(loc));
		if ((uintptr_t)hdr + loc <= pc)
			lo = mid;
		else
			hi = mid;
	}
	memcpy(&loc, hdr + 12 + 8 * lo, sizeof(loc));
	memcpy(&off, hdr + 12 + 8 * lo + 4, sizeof(off));
	fde = hdr + off;
	memcpy(&fde_pc, fde + 8, sizeof(fde_pc));
	memcpy(&range, fde + 12, sizeof(range));
	if ((uintptr_t)fde + 8 + fde_pc != (uintptr_t)hdr + loc)
		return -1;
	*begin = (uintptr_t)hdr + loc;
	*end = *begin + range;
	return pc >= *begin && pc < *end;
}

/* Read lines of @p until one starts with @what: 0, or -1 at EOF. */
static int proc_expect(struct ut_proc *p, const char *what, char *line, size_t size)
{
	while (fgets(line, size, p->out))
		if (!strncmp(line, what, strlen(what)))
			return 0;
	return -1;
}

/* The CPU time of task @pid so far, in ns: /proc/<pid>/schedstat, else stat. */
static double task_cpu_ns(pid_t pid)
{
	unsigned long long run, ut, st;
	char path[64];
	double ns = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "%llu", &run) == 1)
			ns = run;
		fclose(f);
		if (ns > 0)
			return ns;
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	/* pid (comm) state ppid pgrp session tty tpgid flags 4 faults utime stime */
	if (fscanf(f, "%*d (%*[^)]) %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
		   &ut, &st) == 2)
		ns = (ut + st) * 1e9 / sysconf(_SC_CLK_TCK);
	fclose(f);
	return ns;
}

/* What the tests read from debugfs unwind_user. */
static const struct {
	const char *file, *name;
} counter_names[] = {
	{ "registry", "searches" },
	{ "registry", "searches_none" },
	{ "registry", "none_cached" },
	{ "registry", "marker" },
	{ "discover", "probes" },
};

enum { C_SEARCHES, C_SEARCHES_NONE, C_NONE_CACHED, C_MARKER, C_PROBES, C_NR };

struct counters {
	long long val[C_NR];
	bool ok[C_NR];
};

static void read_counters(struct counters *c)
{
	for (int i = 0; i < C_NR; i++)
		c->ok[i] = !ut_debugfs_counter(counter_names[i].file, counter_names[i].name,
					       &c->val[i]);
}

/* /proc/<pid>/unwind_tables: the text, malloc()ed, or NULL. */
static char *read_tables(pid_t pid)
{
	size_t len = 0, size = 65536;
	char path[64], *text;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/unwind_tables", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	text = calloc(1, size);
	while (text && len < size - 1 && (n = read(fd, text + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	return text;
}

/*
 * Its line "walks N fp N ip N nsec N": the walks of the process's stacks,
 * lean those with the tables known so far, or the ip alone.
 */
struct walks {
	bool ok;
	unsigned long long walks, lean, nsec;
};

static void parse_walks(const char *tables, struct walks *w)
{
	const char *line = tables;

	unsigned long long fp, ip;

	memset(w, 0, sizeof(*w));
	while (line && *line) {
		if (sscanf(line, "walks %llu known %llu ip %llu nsec %llu", &w->walks, &fp,
			   &ip, &w->nsec) == 4) {
			w->lean = fp + ip;
			w->ok = true;
			return;
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
}

/* The chains test's run: the program, and what the test read between its phases. */
struct phases {
	struct ut_proc p;
	struct counters before, after;
	struct walks w_before, w_after;
	double cpu_go, cpu_warm, cpu_done;	/* the program's CPU time, ns */
	char *tables;				/* its /proc/<pid>/unwind_tables at the end */
	int failed;
};

/*
 * The warm-up, under an event with no ring buffer: its samples make the
 * kernel walk the program's stack (and find its tables, and cache what
 * it found) as the measured phase's do, and fill no ring: the measured
 * phase's chains must fit in the ring of chain_attach_tasks().
 */
static int warm_up(struct phases *ph)
{
	struct perf_event_attr attr;
	char line[256], *tables;
	int fd;

	chain_attr_cpu_clock(&attr, PERIOD_NS);
	attr.disabled = 0;
	attr.enable_on_exec = 0;
	fd = syscall(SYS_perf_event_open, &attr, ph->p.pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	ph->cpu_go = task_cpu_ns(ph->p.pid);
	if (write(ph->p.in, "g", 1) != 1 || proc_expect(&ph->p, "warm", line, sizeof(line))) {
		close(fd);
		return -EIO;
	}
	close(fd);
	ph->cpu_warm = task_cpu_ns(ph->p.pid);
	read_counters(&ph->before);
	tables = read_tables(ph->p.pid);
	parse_walks(tables, &ph->w_before);
	free(tables);
	return 0;
}

/* The measured phase, sampled by chain_attach_tasks(). */
static void measured_go(void *arg)
{
	struct phases *ph = arg;
	char line[256];

	if (write(ph->p.in, "g", 1) != 1 || proc_expect(&ph->p, "done", line, sizeof(line)))
		goto fail;
	read_counters(&ph->after);
	ph->cpu_done = task_cpu_ns(ph->p.pid);
	ph->tables = read_tables(ph->p.pid);
	parse_walks(ph->tables, &ph->w_after);
	if (write(ph->p.in, "g", 1) == 1)
		return;
fail:
	ph->failed = 1;
	kill(ph->p.pid, SIGKILL);
}

/* The function of the program (or another file) at @ip, or NULL. */
static const char *frame_name(struct elf_dsos *ds, const struct chain_capture *cap,
			      const struct chain_sample *s, unsigned long ip)
{
	const struct chain_mmap *m = chain_find_map_at(cap, s, ip);
	const struct elf_sym *sym;

	if (!m || !m->path[0] || m->path[0] == '[')
		return NULL;
	sym = elf_dsos_lookup(ds, m->path, ip - m->start + m->pgoff);
	return sym ? sym->name : NULL;
}

static bool is_fn(const char *name, const char *want)
{
	return name && !strcmp(name, want);
}

/* Print @s's chain as a TAP comment: function names, JIT frames, addresses. */
static void print_chain(struct elf_dsos *ds, const struct chain_capture *cap,
			const struct chain_sample *s, const struct jit *j)
{
	unsigned long jit = (uintptr_t)j->code;

	char buf[1024];
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < s->nr && i < 16 && len < sizeof(buf); i++) {
		unsigned long ip = s->ips[i] - (i ? 1 : 0);
		const char *name = frame_name(ds, cap, s, ip);

		if (ip - jit < JIT_SIZE)
			len += snprintf(buf + len, sizeof(buf) - len, " jit+%#lx", ip - jit);
		else if (ip - j->asm_nocfi < ASM_NOCFI_SIZE)
			len += snprintf(buf + len, sizeof(buf) - len, " asm_nocfi+%lu",
					ip - j->asm_nocfi);
		else if (name)
			len += snprintf(buf + len, sizeof(buf) - len, " %s", name);
		else
			len += snprintf(buf + len, sizeof(buf) - len, " %#lx",
					(unsigned long)s->ips[i]);
	}
	printf("#   [%u]%s\n", s->nr, buf);
}

struct chain_stats {
	unsigned int total, whole, unresolved;
	unsigned int leaf, leaf_whole;
	unsigned int printed;
	unsigned int no_frame;	/* broken, in asm_nocfi without its frame */
};

/*
 * Is @s whole?  A sample in a leaf: the leaf, jit3, jit2, jit1 (their
 * return addresses), asm_nocfi, then the program's frames to main.  Any
 * other: main among its frames, or _start (a sample as the program exits,
 * main done).
 */
static bool chain_whole(struct elf_dsos *ds, const struct chain_capture *cap,
			const struct chain_sample *s, const struct jit *j, bool *leaf)
{
	const char *name = s->nr ? frame_name(ds, cap, s, s->ips[0]) : NULL;

	*leaf = is_fn(name, "leaf");
	if (*leaf) {
		if (s->nr < 6)
			return false;
		for (int i = 0; i < JIT_FUNCS; i++)
			if (s->ips[1 + i] != j->ret[JIT_FUNCS - 1 - i])
				return false;
		if (!is_fn(frame_name(ds, cap, s, s->ips[4] - 1), "asm_nocfi"))
			return false;
	}
	for (unsigned int i = 0; i < s->nr; i++) {
		name = frame_name(ds, cap, s, s->ips[i] - (i ? 1 : 0));
		if (is_fn(name, "main") || (!*leaf && is_fn(name, "_start")))
			return true;
	}
	return false;
}

static void count_chains(struct chain_capture *cap, pid_t pid, const struct jit *j,
			 struct chain_stats *st)
{
	struct elf_dsos ds = {};

	memset(st, 0, sizeof(*st));
	for (unsigned int i = 0; i < cap->nr_samples; i++) {
		const struct chain_sample *s = &cap->samples[i];
		bool leaf, whole;

		if (s->pid != (unsigned int)pid)
			continue;
		if (!s->resolved) {
			st->unresolved++;
			continue;
		}
		st->total++;
		whole = chain_whole(&ds, cap, s, j, &leaf);
		st->whole += whole;
		st->leaf += leaf;
		st->leaf_whole += leaf && whole;
		if (!whole && (s->ips[0] == j->asm_nocfi + ASM_NOCFI_PUSH ||
			       s->ips[0] == j->asm_nocfi + ASM_NOCFI_MOV ||
			       s->ips[0] == j->asm_nocfi + ASM_NOCFI_RET))
			st->no_frame++;
		if (!whole && st->printed < 4) {
			if (!st->printed)
				printf("# chains: broken ones (frames, first 16):\n");
			print_chain(&ds, cap, s, j);
			st->printed++;
		}
	}
	elf_dsos_free(&ds);
}

/* Say so if cpu-clock sampled far below the rate asked. */
static void check_rate(const char *what, double rate)
{
	struct timespec res = {};

	clock_getres(CLOCK_MONOTONIC, &res);
	printf("# %s: cpu-clock sampled at %.0f Hz of the program's CPU time (%.0f Hz asked)\n",
	       what, rate, RATE_ASKED);
	if (rate >= RATE_LOW)
		return;
	if (res.tv_sec || res.tv_nsec > 1000)
		printf("# %s: far below %.0f Hz: no high-resolution timers (%s %ld ns): %s\n",
		       what, RATE_ASKED, "CLOCK_MONOTONIC resolution",
		       res.tv_sec * 1000000000L + res.tv_nsec, "cpu-clock fires at the tick");
	else
		printf("# %s: far below %.0f Hz, with high-resolution timers\n", what,
		       RATE_ASKED);
}

FIXTURE(jit) {};
FIXTURE_SETUP(jit)
{
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);

	ASSERT_LT(0, n);
	self_exe[n] = 0;
	/* A program that died must fail the test, not kill it at our write. */
	signal(SIGPIPE, SIG_IGN);
}

FIXTURE_TEARDOWN(jit) {}

/* The program is built as the test needs it: asm_nocfi without an FDE, the leaves with one. */
TEST_F(jit, layout)
{
	/* push %rbp; mov %rsp,%rbp; call *%rsi; pop %rbp; ret */
	static const unsigned char code[ASM_NOCFI_SIZE] = {
		0x55, 0x48, 0x89, 0xe5, 0xff, 0xd6, 0x5d, 0xc3,
	};
	unsigned long begin = 0, end = 0;
	int ret;

	EXPECT_EQ(0, memcmp((const void *)asm_nocfi, code, sizeof(code)))
		TH_LOG("asm_nocfi is not the code the test expects");

	ret = fde_covering((uintptr_t)asm_nocfi, &begin, &end);
	ASSERT_LE(0, ret) TH_LOG("cannot read this program's .eh_frame_hdr");
	EXPECT_EQ(0, ret) TH_LOG("an FDE covers asm_nocfi: %#lx-%#lx",
				 (unsigned long)begin, (unsigned long)end);
	EXPECT_EQ(1, fde_covering((uintptr_t)leaf, &begin, &end));
	EXPECT_EQ(1, fde_covering((uintptr_t)run_loop, &begin, &end));
}

TEST_F_TIMEOUT(jit, chains, 600)
{
	char *const argv[] = { self_exe, "child", "phases", NULL };
	unsigned long long walks = 0, lean = 0, nsec = 0;
	long long d[C_NR], per, looked_up;
	struct perf_event_attr attr;
	struct chain_capture cap;
	struct chain_stats st;
	struct phases ph = { .p.in = -1 };
	bool have_all = true;
	struct ut_line l;
	char line[256];
	struct jit j = {};
	unsigned long jit;
	double measured_s;
	int status, ret;

	ASSERT_EQ(0, ut_proc_start(&ph.p, argv));
	ASSERT_EQ(0, proc_expect(&ph.p, "ready", line, sizeof(line)));
	ret = sscanf(line, "ready jit %lx asm %lx", &jit, &j.asm_nocfi);
	ASSERT_EQ(2, ret);
	/* The child's JIT, where this process would put it: the same code. */
	j.code = (unsigned char *)jit;
	for (int i = 0; i < JIT_FUNCS; i++) {
		j.fn[i] = jit + JIT_STRIDE * (i + 1);
		j.ret[i] = j.fn[i] + JIT_RET_OFF;
	}

	ret = warm_up(&ph);
	if (ret) {
		kill(ph.p.pid, SIGKILL);
		waitpid(ph.p.pid, NULL, 0);
	}
	ASSERT_EQ(0, ret) TH_LOG("the warm-up failed: %s", strerror(-ret));
	chain_attr_cpu_clock(&attr, PERIOD_NS);
	ret = chain_attach_tasks(&cap, &attr, &ph.p.pid, 1, false, measured_go, &ph, &status);
	ut_proc_close(&ph.p);
	ASSERT_EQ(0, ret) TH_LOG("cannot sample: %s", strerror(-ret));
	ASSERT_EQ(0, ph.failed) TH_LOG("the program did not go through its phases");
	ASSERT_EQ(0, status);

	count_chains(&cap, ph.p.pid, &j, &st);
	measured_s = (ph.cpu_done - ph.cpu_warm) / 1e9;
	printf("# chains: the program's CPU time: %.2f s warm-up, %.2f s measured\n",
	       (ph.cpu_warm - ph.cpu_go) / 1e9, measured_s);
	printf("# chains: measured phase: %u delivered, %u whole (%.2f%%); %s: %u; %llu lost\n",
	       st.total, st.whole, st.total ? 100.0 * st.whole / st.total : 0,
	       "announced but never delivered", st.unresolved,
	       (unsigned long long)cap.lost);
	printf("# chains: %u in the leaf, %u of them whole\n", st.leaf, st.leaf_whole);
	printf("# chains: %u broken at an instruction of asm_nocfi %s\n", st.no_frame,
	       "without its frame pointer (no CFI: no unwinder can walk from there)");
	if (ph.w_before.ok && ph.w_after.ok) {
		walks = ph.w_after.walks - ph.w_before.walks;
		lean = ph.w_after.lean - ph.w_before.lean;
		nsec = ph.w_after.nsec - ph.w_before.nsec;
		printf("# chains: measured: %llu walks, %llu lean, %.3f s in walks (%.1f%%)\n",
		       walks, lean, nsec / 1e9, 100.0 * nsec / (measured_s * 1e9));
		check_rate("chains", walks / measured_s);
	} else {
		printf("# chains: no \"walks\" line in /proc/<pid>/unwind_tables\n");
		check_rate("chains", (st.total + st.unresolved) / measured_s);
	}

	/*
	 * Each walk with tables looks up three JIT pcs and asm_nocfi's: at
	 * least one answered by a marker or a cached row, no search.
	 */
	looked_up = walks ? (long long)(walks - lean) : st.leaf;
	for (int i = 0; i < C_NR; i++) {
		if (!ph.before.ok[i] || !ph.after.ok[i]) {
			printf("# counters: %s %s: counter missing\n", counter_names[i].file,
			       counter_names[i].name);
			have_all = false;
			d[i] = 0;
			continue;
		}
		d[i] = ph.after.val[i] - ph.before.val[i];
		per = looked_up ? looked_up : 1;
		printf("# counters: %-8s %-13s %8lld %s, %8lld at the end: +%lld, %.2f %s\n",
		       counter_names[i].file, counter_names[i].name, ph.before.val[i],
		       "after warm-up", ph.after.val[i], d[i], (double)d[i] / per,
		       walks ? "a walk with tables" : "a sample in the leaf");
	}
	if (ph.tables)
		ut_print_lines("/proc/<pid>/unwind_tables at the end:", ph.tables);

	EXPECT_LE(MIN_SAMPLES, st.total);
	EXPECT_LE(MIN_WHOLE_PCT, st.total ? 100.0 * st.whole / st.total : 0)
		TH_LOG("%u of %u chains whole", st.whole, st.total);
	EXPECT_TRUE(have_all) TH_LOG("counter missing (see above): a kernel without them");
	/*
	 * A sample may still meet a pc of asm_nocfi for the first time (a
	 * lookup exact at the sampled ip, or one byte back from a return
	 * address): at most one search each.  Repeated, they would add one
	 * a walk.
	 */
	EXPECT_GE(ASM_NOCFI_SIZE, d[C_SEARCHES_NONE])
		TH_LOG("searches that found no FDE repeated after the warm-up");
	EXPECT_EQ(0, d[C_PROBES]) TH_LOG("discovery probes repeated after the warm-up");
	EXPECT_LE(looked_up, d[C_NONE_CACHED] + d[C_MARKER])
		TH_LOG("lookups of no FDE / no table not answered from the cache");
	EXPECT_TRUE(ph.tables && ut_find_origin(ph.tables, "discovered", jit, jit + JIT_SIZE, &l) &&
		    !strcmp(l.format, "none"))
		TH_LOG("no marker over the JIT's memory in /proc/<pid>/unwind_tables");
	chain_free(&cap);
	free(ph.tables);
}

struct timed {
	double cpu, wall;		/* the loop's, as the program measured them: ns */
	/* samples of the program that came through the ring */
	unsigned int samples, chains;
	/* debugfs unwind_user/walks over the run: the walks of its stack */
	long long walks, lean, nsec;
};

/* debugfs unwind_user/walks: lean walks, known tables only or the ip alone. */
static long long walks_lean(void)
{
	long long fp, ip;

	if (ut_debugfs_counter("walks", "known", &fp) || ut_debugfs_counter("walks", "ip", &ip))
		return -1;
	return fp + ip;
}

/* Run "child fixed @iters" under @attr; NULL: unsampled. */
static void run_fixed(struct __test_metadata *_metadata, struct perf_event_attr *attr,
		      const char *iters, struct timed *t)
{
	char fd[16], line[64];
	char *const argv[] = { self_exe, "child", "fixed", (char *)iters, fd, NULL };
	long long walks0 = 0, lean0 = 0, nsec0 = 0;
	struct chain_capture cap;
	unsigned long long wall, cpu;
	int ret, status, p[2];
	ssize_t n;
	pid_t pid;

	memset(t, 0, sizeof(*t));
	/* The program's times come back through a pipe it inherits. */
	ASSERT_EQ(0, pipe(p));
	snprintf(fd, sizeof(fd), "%d", p[1]);
	ut_debugfs_counter("walks", "walks", &walks0);
	lean0 = walks_lean();
	ut_debugfs_counter("walks", "nsec", &nsec0);
	if (!attr) {
		pid = fork();
		if (!pid) {
			execv(argv[0], argv);
			_exit(127);
		}
		ret = pid < 0 || waitpid(pid, &status, 0) != pid ? -ECHILD : 0;
	} else {
		ret = chain_run(&cap, attr, argv, false);
		status = cap.exit_status;
	}
	close(p[1]);
	n = read(p[0], line, sizeof(line) - 1);
	close(p[0]);
	ASSERT_EQ(0, ret) TH_LOG("cannot run the program: %s", strerror(-ret));
	ASSERT_EQ(0, status);
	ASSERT_LT(0, n);
	line[n] = '\0';
	ret = sscanf(line, "%llu %llu", &wall, &cpu);
	ASSERT_EQ(2, ret);
	t->wall = wall;
	t->cpu = cpu;
	if (attr) {
		t->samples = cap.nr_samples;
		t->chains = cap.nr_deferred;
		chain_free(&cap);
	}
	t->lean = walks_lean();
	if (!ut_debugfs_counter("walks", "walks", &t->walks) && t->lean >= 0 &&
	    !ut_debugfs_counter("walks", "nsec", &t->nsec)) {
		t->walks -= walks0;
		t->lean -= lean0;
		t->nsec -= nsec0;
	} else {
		t->walks = -1;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/*
 * The program's time for a fixed number of iterations under deferred
 * callchains against the kernel's frame-pointer callchain in the interrupt,
 * at the same rate.  Under TCG other work on the host stretches a run's
 * time: ROUNDS of each, alternating, and the medians count.
 */
TEST_F_TIMEOUT(jit, overhead, 900)
{
	char *const argv[] = { self_exe, "child", "cpu", STR(FIXED_MS), NULL };
	double fp_cpu[ROUNDS], fp_wall[ROUNDS], df_cpu[ROUNDS], df_wall[ROUNDS];
	double fp_c, fp_w, df_c, df_w, ratio, bound = max_ratio();
	struct perf_event_attr fp, df;
	struct timed base, t_fp, t_df;
	char line[256], iters[32];
	unsigned long n = 0;
	struct ut_proc p;
	int status, ret;

	/* How many iterations the program runs in FIXED_MS of CPU time, unsampled. */
	ASSERT_EQ(0, ut_proc_start(&p, argv));
	ASSERT_EQ(0, proc_expect(&p, "iters", line, sizeof(line)));
	ret = sscanf(line, "iters %lu", &n);
	ASSERT_EQ(1, ret);
	ut_proc_close(&p);
	ASSERT_EQ(p.pid, waitpid(p.pid, &status, 0));
	ASSERT_EQ(0, status);
	ASSERT_LT(0UL, n);
	snprintf(iters, sizeof(iters), "%lu", n);

	chain_attr_cpu_clock(&df, PERIOD_NS);
	fp = df;
	fp.defer_callchain = 0;
	fp.defer_output = 0;

	run_fixed(_metadata, NULL, iters, &base);
	for (int i = 0; i < ROUNDS; i++) {
		run_fixed(_metadata, &fp, iters, &t_fp);
		run_fixed(_metadata, &df, iters, &t_df);
		fp_cpu[i] = t_fp.cpu;
		fp_wall[i] = t_fp.wall;
		df_cpu[i] = t_df.cpu;
		df_wall[i] = t_df.wall;
		printf("# overhead: %d: %s %.3f s CPU, %.3f s wall, %u samples in the ring\n",
		       i + 1, "frame pointers", t_fp.cpu / 1e9, t_fp.wall / 1e9, t_fp.samples);
		printf("# overhead: %d: deferred %.3f s CPU, %.3f s wall, ", i + 1,
		       t_df.cpu / 1e9, t_df.wall / 1e9);
		if (t_df.walks >= 0)
			printf("%lld walks, %lld lean, %.3fs\n", t_df.walks, t_df.lean,
			       t_df.nsec / 1e9);
		else
			printf("%u samples in the ring\n", t_df.samples);
	}
	fp_c = median(fp_cpu, ROUNDS);
	fp_w = median(fp_wall, ROUNDS);
	df_c = median(df_cpu, ROUNDS);
	df_w = median(df_wall, ROUNDS);
	ratio = df_c / fp_c;
	printf("# overhead: %lu iterations; medians of %d rounds\n", n, ROUNDS);
	printf("# overhead: %-32s %7.3f s CPU, %7.3f s wall\n", "unsampled:",
	       base.cpu / 1e9, base.wall / 1e9);
	printf("# overhead: %-32s %7.3f s CPU, %7.3f s wall\n",
	       "frame pointers, in the interrupt:", fp_c / 1e9, fp_w / 1e9);
	printf("# overhead: %-32s %7.3f s CPU, %7.3f s wall\n", "deferred callchain:",
	       df_c / 1e9, df_w / 1e9);
	printf("# overhead: deferred / frame pointers: %.2f CPU, %.2f wall (bound %.1f)\n",
	       ratio, df_w / fp_w, bound);
	/*
	 * The rate, from the last round's walks (one a sample): the samples
	 * that came through the ring are those it had room for, nothing
	 * reads it before the program ends.
	 */
	if (t_df.walks >= 0)
		check_rate("overhead, deferred", t_df.walks / (t_df.cpu / 1e9));
	else
		check_rate("overhead, deferred (samples in the ring)",
			   t_df.samples / (t_df.cpu / 1e9));
	EXPECT_GE(bound, ratio);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "child"))
		return child(argc, argv);
	return test_harness_run(argc, argv);
}
