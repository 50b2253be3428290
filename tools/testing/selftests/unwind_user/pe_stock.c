// SPDX-License-Identifier: GPL-2.0
/*
 * Windows programs under Wine as distributions ship it (bookworm's wine64
 * 8.0, no patches/wine), registering nothing: the kernel must find each PE
 * image a walk meets by itself (an "MZ" header with a "PE\0\0" signature at
 * the start of one of the mappings before the pc, from the file's page
 * cache or from anonymous memory), load the PE module the first time it
 * needs it (request_module()), and unwind through the image.  For each
 * build of pe_wine_prog.exe given (see its "stock" modes): linked with
 * 4096-byte file alignment, which Wine maps from the file, and with mingw's
 * default 512 bytes, whose sections Wine copies into anonymous memory (only
 * the header page comes from the file):
 *
 *   spin     cpu-clock samples (1 ms) of pe_w_leaf, a leaf without a frame
 *	      under main -> pe_w_a -> pe_w_b -> pe_w_c -> pe_w_d -> pe_w_e: of
 *	      the samples whose pc is in the program's image, at least 99% must
 *	      reach main and RtlUserThreadStart, and those of the leaf that do
 *	      must pass every frame of the path one after the other;
 *	      /proc/PID/unwind_tables must list the image, kernel32.dll,
 *	      ntdll.dll and every other PE module the chains passed as
 *	      "discovered pe";
 *   unix     the same chain down to pe_w_unix, which yields the CPU in a
 *	      loop (SwitchToThread, Sleep(0)): at least 95% of the samples on
 *	      Wine's unix side (ntdll.so and libc, under Wine's syscall
 *	      dispatcher, on a stack of its own) must get back into the PE
 *	      frames, to main and RtlUserThreadStart, through pe_w_unix ...
 *	      RtlUserThreadStart one frame after the other; the same listing;
 *   uprobe   the kernel's chain at a uprobe, in a process no sample has
 *	      touched before: frame 0 at the probe, frame 1 the probed
 *	      function's return into pe_w_mark (as the program saw it), and
 *	      from frame 2 on Wine's own chain (RtlCaptureStackBackTrace in
 *	      pe_w_mark, one call earlier), frame for frame, to
 *	      RtlUserThreadStart.  The probe is on pe_w_probe when the
 *	      program's text is mapped from its file; else (512-byte alignment:
 *	      anonymous memory, where no uprobe can go) on pe_s_dll_probe of
 *	      pe_stock_dll.dll, which Wine maps from its file and pe_w_mark
 *	      calls right after pe_w_probe;
 *   control  spin again with kernel.unwind_tables_discover=0: no sample may
 *	      reach main (the sysctl is put back after).
 *
 * The spin and unix runs sample the program from its start, while it
 * spins in pe_w_wait, and let it go down its chain once unwind_tables lists
 * the program, kernel32 and ntdll as found (at most WARM_MS; a kernel that
 * finds no PE image, without the "found_pe" counter in debugfs, gets a
 * second): the first samples of a process, and all those before the PE
 * module is loaded, may miss.  Samples in pe_w_wait are counted apart.
 *
 * With --autoload LOG (harness/pe-autoload.sh unloaded the module and made
 * the kernel's modprobe a script that logs what it is asked for in LOG):
 * the module must not be loaded when the first run starts, the kernel must
 * have asked for its alias, and it must be loaded after the first run.
 *
 * With --msvc DUMPDIR IMAGE...: each image (MSVC-built, such as the Python
 * launchers harness/msvc-pe.sh fetches, at 0x140000000 with 512-byte
 * alignment) runs under wine64, which it leaves early with an error, under
 * a cpu-clock event (0.1 ms), an event that walks its stack at each of its
 * context switches (its calls into Wine ask wineserver) and ptrace:
 * at each thread's exit stop (PTRACE_O_TRACEEXIT, before the address space
 * goes) unwind_tables is read, and the image, [base, base + SizeOfImage),
 * is copied from /proc/TID/mem into DUMPDIR (listed in DUMPDIR/manifest as
 * "DUMP IMAGE"), for the PE oracle on the host (pe_oracle.py --laid-out).
 * The image must have been listed as "discovered pe" at its exit.  These
 * runs lift kernel.unwind_user_cpu_time_max_percent (see main()).
 *
 *   pe_stock WINE64 OUT [--autoload LOG] EXE... [--msvc DUMPDIR IMAGE...]
 *
 * OUT is the prefix of the files the program writes.  pe_stock_dll.dll
 * must be next to each EXE.  Prints TAP, a line per check, and the figures
 * as diagnostics; exits non-zero unless every check passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pe_map.h"
#include "perf_chain.h"
#include "unwind_table.h"

#define MAX_TRACE	64
#define MAX_MODS	64
#define MAX_XMAPS	256
#define MAX_EXES	4
#define MAX_MSVC	16
#define NR_PATH		11
#define PATH_MAIN	6	/* path_names[] from here on: main and below */
#define PATH_EXE	9	/* ... and up to here: in the program's image */
#define PAGE		4096ULL
#define PERIOD_NS	1000000ULL
#define MSVC_PERIOD_NS	100000ULL
/* How long the spin and unix runs wait for the kernel to find the images. */
#define WARM_MS		15000
/* Samples a run needs for its share to mean something. */
#define SPIN_MIN	100
#define UNIX_MIN	40
/* An MSVC image that has not exited by then is killed. */
#define MSVC_TIMEOUT_MS	90000
#define MODULE_DIR	"/sys/module/unwind_user_pe"
#define ALIAS		"unwind-user-format-3"
#define DLL_NAME	"pe_stock_dll.dll"

enum kind { SPIN, UNIX, PROBE, CONTROL, NR_KINDS };

static const char * const kind_names[NR_KINDS] = { "spin", "unix", "uprobe", "control" };
static const char * const kind_modes[NR_KINDS] = {
	"stock-spin", "stock-unix", "stock-wait", "stock-spin",
};

/* The bottom of each kind's chain, then the frames above it. */
static const char * const bottoms[NR_KINDS] = {
	"pe_w_leaf", "pe_w_unix", "pe_w_mark", "pe_w_leaf",
};

static const char * const path_names[NR_PATH] = {
	NULL, "pe_w_e", "pe_w_d", "pe_w_c", "pe_w_b", "pe_w_a", "main", "__tmainCRTStartup",
	"mainCRTStartup", "BaseThreadInitThunk", "RtlUserThreadStart",
};

/* A build of the program: its file, and the DLL next to it. */
struct build {
	const char *path;
	const char *name;
	struct pe_file exe, dll;
	char dll_path[PATH_MAX];
	bool probe_in_dll;	/* the program's text is not mapped from its file */
	uint64_t probe_off;	/* the uprobe's file offset, in the exe or the DLL */
	uint32_t probe_rva;
};

struct module {
	uint64_t base, size;
	char name[64];
};

/* An executable mapping of the program, from /proc/PID/maps: to name frames. */
struct xmap {
	uint64_t start, end;
	char name[64];
};

struct run {
	char tag[96];		/* of its TAP lines */
	enum kind kind;
	const struct build *b;
	char out[PATH_MAX], go[PATH_MAX + 8], end[PATH_MAX + 16];
	pid_t child, pid;
	int ret;		/* chain_attach()'s */
	struct chain_capture cap;
	struct module mods[MAX_MODS];
	unsigned int nr_mods;
	uint64_t base, dll_base;	/* of the program and of the DLL */
	uint64_t start[NR_PATH], end_ip[NR_PATH];	/* of path_name() */
	uint64_t wait_start, wait_end;			/* of pe_w_wait() */
	struct xmap xmaps[MAX_XMAPS];
	unsigned int nr_xmaps;
	uint64_t trace[MAX_TRACE];
	unsigned int nt;
	uint64_t ret_ip, dll_ret_ip;	/* where the probed functions returned to */
	uint64_t flag;			/* the program's word, for pe_w_wait() */
	bool probed, done, warm_found;
	unsigned int warm_ms;		/* how long it spun before it went down */
	char *tables_before, *tables_after;	/* /proc/PID/unwind_tables */
	char *maps;			/* /proc/PID/maps, when it went down */
};

static const char *wine;
static bool finds_pe;		/* the kernel has the "found_pe" counter */
static unsigned int tests, failed;

static bool tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %u - ", ok ? "ok" : "not ok", ++tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	failed += !ok;
	return ok;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* The whole of /proc/@pid/unwind_tables, or "". */
static char *read_tables(pid_t pid)
{
	char path[64], *buf = NULL;
	size_t size = 0;
	FILE *f, *m;

	snprintf(path, sizeof(path), "/proc/%d/unwind_tables", pid);
	m = open_memstream(&buf, &size);
	if (!m)
		return strdup("");
	f = fopen(path, "re");
	while (f && !feof(f)) {
		char chunk[4096];
		size_t n = fread(chunk, 1, sizeof(chunk), f);

		fwrite(chunk, 1, n, m);
		if (!n)
			break;
	}
	if (f)
		fclose(f);
	fclose(m);
	return buf;
}

/*
 * Is there a line "START-END @origin @format" in @tables over [@start,
 * @end) (START <= @start, @end <= END)?  0 for @start: the number of lines
 * of that origin and format.
 */
static unsigned int table_has(const char *tables, const char *origin, const char *format,
			      uint64_t start, uint64_t end)
{
	unsigned int n = 0;
	const char *p;

	for (p = tables; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		struct ut_line l;
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
		if (ut_parse_line(line, &l) || strcmp(l.origin, origin) ||
		    strcmp(l.format, format))
			continue;
		if (!start || (l.start <= start && start < l.end && end <= l.end))
			n++;
	}
	return n;
}

/* Print the lines of @tables that overlap [@start, @end) (all: 0, ~0). */
static void print_tables(const char *tag, const char *what, const char *tables,
			 uint64_t start, uint64_t end)
{
	const char *p;

	printf("# %s: %s:\n", tag, what);
	for (p = tables; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long s, e;
		int len = strcspn(p, "\n");

		if (sscanf(p, "%llx-%llx", &s, &e) == 2 && (e <= start || s >= end))
			continue;
		printf("#   %.*s\n", len, p);
	}
}

/* The counters of /sys/kernel/debug/unwind_user/@file, on one line. */
static void print_debugfs(const char *tag, const char *file)
{
	char path[128], line[128];
	bool first = true;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/unwind_user/%s", file);
	f = fopen(path, "re");
	printf("# %s: %s:", tag, file);
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		printf("%s %s", first ? "" : ",", line);
		first = false;
	}
	printf("%s\n", f ? "" : " (none)");
	if (f)
		fclose(f);
}

/* The program's C runtime (msvcrt) ends its text lines with "\r\n". */
static void chomp(char *line)
{
	line[strcspn(line, "\r\n")] = '\0';
}

/* Does @path hold a line @what? */
static bool file_has(const char *path, const char *what)
{
	char line[4096];
	bool found = false;
	FILE *f = fopen(path, "re");

	while (f && !found && fgets(line, sizeof(line), f)) {
		chomp(line);
		found = !strcmp(line, what);
	}
	if (f)
		fclose(f);
	return found;
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd >= 0)
		close(fd);
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* The executable mappings of the program, to name its unix-side frames. */
static void read_xmaps(struct run *r)
{
	unsigned long long start, end;
	char path[64], line[512], perms[8];
	FILE *f;
	int pos;

	snprintf(path, sizeof(path), "/proc/%d/maps", r->pid);
	f = fopen(path, "re");
	while (f && r->nr_xmaps < MAX_XMAPS && fgets(line, sizeof(line), f)) {
		struct xmap *x = &r->xmaps[r->nr_xmaps];
		const char *slash;

		pos = 0;
		if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %n", &start, &end, perms, &pos) != 3 ||
		    perms[2] != 'x')
			continue;
		line[strcspn(line, "\n")] = '\0';
		slash = strrchr(line + pos, '/');
		x->start = start;
		x->end = end;
		snprintf(x->name, sizeof(x->name), "%s", slash ? slash + 1 :
			 pos && line[pos] ? line + pos : "[anon]");
		r->nr_xmaps++;
	}
	if (f)
		fclose(f);
}

/* The whole of /proc/@pid/maps, or "". */
static char *read_maps(pid_t pid)
{
	char path[64], line[512], *buf = NULL;
	size_t size = 0;
	FILE *f, *m;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	m = open_memstream(&buf, &size);
	if (!m)
		return strdup("");
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		fputs(line, m);
	if (f)
		fclose(f);
	fclose(m);
	return buf;
}

/* Print the lines of @maps (of /proc/PID/maps) over [@start, @end). */
static void print_maps(const char *tag, const char *maps, uint64_t start, uint64_t end)
{
	const char *p;

	printf("# %s: /proc/PID/maps over %llx-%llx:\n", tag, (unsigned long long)start,
	       (unsigned long long)end);
	for (p = maps; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long s, e;

		if (sscanf(p, "%llx-%llx", &s, &e) == 2 && e > start && s < end)
			printf("#   %.*s\n", (int)strcspn(p, "\n"), p);
	}
}

/* Where @name of @b's program is, by its COFF symbol table, at @base. */
static void exe_func(const struct run *r, const char *name, uint64_t *start, uint64_t *end)
{
	uint32_t rva = r->base ? pe_file_sym_rva(&r->b->exe, name) : 0;
	const struct pe_sym *sym = rva ? pe_file_sym(&r->b->exe, rva) : NULL;

	*start = sym ? r->base + sym->rva : 0;
	*end = sym ? *start + sym->size : 0;
}

static const char *path_name(const struct run *r, unsigned int i)
{
	return i ? path_names[i] : bottoms[r->kind];
}

/* What the program wrote to its OUT. */
static void read_out(struct run *r)
{
	unsigned long long b, s;
	char line[4096], name[64];
	unsigned int i;
	FILE *f;

	r->nr_mods = 0;
	f = fopen(r->out, "re");
	while (f && fgets(line, sizeof(line), f)) {
		char *end;

		chomp(line);
		if (sscanf(line, "module %llx %llx %63s", &b, &s, name) == 3 &&
		    r->nr_mods < MAX_MODS) {
			r->mods[r->nr_mods] = (struct module){ .base = b, .size = s };
			snprintf(r->mods[r->nr_mods++].name, sizeof(name), "%s", name);
			if (!strcasecmp(name, r->b->name))
				r->base = b;
			if (!strcasecmp(name, DLL_NAME))
				r->dll_base = b;
		} else if (sscanf(line, "func %63s %llx %llx", name, &b, &s) == 3) {
			for (i = PATH_EXE; i < NR_PATH; i++) {
				if (strcmp(name, path_names[i]))
					continue;
				r->start[i] = b;
				r->end_ip[i] = s;
			}
		} else if (sscanf(line, "ret %llx", &b) == 1) {
			r->ret_ip = b;
		} else if (sscanf(line, "dllret %llx", &b) == 1) {
			r->dll_ret_ip = b;
		} else if (sscanf(line, "flag %llx", &b) == 1) {
			r->flag = b;
		} else if (!strcmp(line, "probed")) {
			r->probed = true;
		} else if (!strcmp(line, "done")) {
			r->done = true;
		} else if (!strncmp(line, "trace ", 6)) {
			r->nt = strtoul(line + 6, &end, 10);
			for (i = 0; i < r->nt && i < MAX_TRACE; i++)
				r->trace[i] = strtoull(end, &end, 16);
			r->nt = i;
		}
	}
	if (f)
		fclose(f);
	for (i = 0; i < PATH_EXE; i++)
		exe_func(r, path_name(r, i), &r->start[i], &r->end_ip[i]);
	exe_func(r, "pe_w_wait", &r->wait_start, &r->wait_end);
}

/* Is @ip inside path_name(@k)? */
static bool in_path(const struct run *r, unsigned int k, uint64_t ip)
{
	return r->end_ip[k] && ip >= r->start[k] && ip < r->end_ip[k];
}

/* The module of the program's list that holds @ip, or -1. */
static int module_of(const struct run *r, uint64_t ip)
{
	unsigned int i;

	for (i = 0; i < r->nr_mods; i++)
		if (ip - r->mods[i].base < r->mods[i].size)
			return i;
	return -1;
}

static bool in_exe(const struct run *r, uint64_t ip)
{
	return r->base && ip - r->base < r->b->exe.image_size;
}

/*
 * How many frames of the path from path_name(@from) the frames @ips[@nr]
 * pass one after the other; the first is the exact pc if @exact, else (and
 * the others) a return address.
 */
static unsigned int path_depth(const struct run *r, unsigned int from, const uint64_t *ips,
			       unsigned int nr, bool exact)
{
	unsigned int i;

	for (i = 0; i < nr && from + i < NR_PATH &&
	     in_path(r, from + i, ips[i] - (i || !exact)); i++)
		;
	return i;
}

/* Name @ip (a return address unless @exact) for the log. */
static const char *frame_name(const struct run *r, uint64_t ip, bool exact, char *buf,
			      size_t size)
{
	uint64_t at = ip - !exact;
	const struct pe_sym *sym;
	unsigned int i;
	int m;

	for (i = 0; i < NR_PATH; i++)
		if (in_path(r, i, at))
			return path_name(r, i);
	if (in_exe(r, at)) {
		sym = pe_file_sym(&r->b->exe, at - r->base);
		return sym ? sym->name : "?[exe]";
	}
	if (r->dll_base && at - r->dll_base < r->b->dll.image_size) {
		sym = pe_file_sym(&r->b->dll, at - r->dll_base);
		return sym ? sym->name : "?[dll]";
	}
	m = module_of(r, at);
	if (m >= 0) {
		snprintf(buf, size, "%s+%llx", r->mods[m].name,
			 (unsigned long long)(ip - r->mods[m].base));
		return buf;
	}
	for (i = 0; i < r->nr_xmaps; i++) {
		if (at >= r->xmaps[i].start && at < r->xmaps[i].end) {
			snprintf(buf, size, "%s@%llx", r->xmaps[i].name,
				 (unsigned long long)(ip - r->xmaps[i].start));
			return buf;
		}
	}
	return "?";
}

static void print_chain(const struct run *r, const char *what, const uint64_t *ips,
			unsigned int nr, bool top_exact)
{
	char buf[96];
	unsigned int i;

	printf("# %s: %s (%u frames):", r->tag, what, nr);
	for (i = 0; i < nr && i < 24; i++)
		printf(" %llx %s", (unsigned long long)ips[i],
		       frame_name(r, ips[i], top_exact && !i, buf, sizeof(buf)));
	printf("\n");
}

/* Write @val to the program's word, through /proc/PID/mem. */
static void set_flag(const struct run *r, int32_t val)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", r->pid);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || pwrite(fd, &val, sizeof(val), r->flag) != sizeof(val))
		printf("# %s: cannot write the program's word at %llx: %s\n", r->tag,
		       (unsigned long long)r->flag, strerror(errno));
	if (fd >= 0)
		close(fd);
}

static bool child_gone(const struct run *r)
{
	siginfo_t si = {};

	return !waitid(P_PID, r->child, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid;
}

/* Have the kernel's walks found the program, kernel32 and ntdll? */
static bool images_found(struct run *r, const char *tables)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->nr_mods; i++) {
		const struct module *m = &r->mods[i];

		if ((!strcasecmp(m->name, r->b->name) || !strcasecmp(m->name, "kernel32.dll") ||
		     !strcasecmp(m->name, "ntdll.dll")) &&
		    table_has(tables, "discovered", "pe", m->base, m->base + m->size))
			n++;
	}
	return n == 3;
}

/*
 * The event is on (spin, unix, control): let the program spin in pe_w_wait
 * until the kernel has found its images, let it go down its chain, wait
 * until it is done, read what the kernel holds for it, then let it end.
 */
static void go_sampled(void *arg)
{
	struct run *r = arg;
	double t0 = now_s(), limit = r->kind == CONTROL ? 0 : finds_pe ? WARM_MS : 1000;
	int i;

	/* The line after the pid's; msvcrt may have written them apart. */
	for (i = 0; i < 50 && !r->flag && !child_gone(r); i++) {
		read_out(r);
		if (!r->flag)
			usleep(100000);
	}
	while (r->flag && !child_gone(r) && (now_s() - t0) * 1000 < limit) {
		char *tables = read_tables(r->pid);

		r->warm_found = images_found(r, tables);
		free(tables);
		if (r->warm_found)
			break;
		usleep(50000);
	}
	r->warm_ms = (now_s() - t0) * 1000;
	r->tables_before = read_tables(r->pid);
	if (r->flag)
		set_flag(r, 1);
	for (i = 0; i < 1200 && !file_has(r->out, "done") && !child_gone(r); i++)
		usleep(100000);
	r->tables_after = read_tables(r->pid);
	r->maps = read_maps(r->pid);
	read_xmaps(r);
	if (r->flag)
		set_flag(r, 2);
}

/*
 * The uprobe is in place: let the program go down its chain, wait until it
 * has passed the probe (the kernel's walk is over then) and read what the
 * kernel holds for it, then let it end.
 */
static void go_probe(void *arg)
{
	struct run *r = arg;
	int i;

	r->tables_before = read_tables(r->pid);
	read_xmaps(r);
	r->maps = read_maps(r->pid);
	touch(r->go);
	for (i = 0; i < 600 && !file_has(r->out, "probed") && !child_gone(r); i++)
		usleep(100000);
	r->tables_after = read_tables(r->pid);
	touch(r->end);
}

/* The Linux pid the program wrote to @out, waiting up to two minutes. */
static pid_t program_pid(const char *out, pid_t child)
{
	char line[256];
	int i, status;

	for (i = 0; i < 1200; i++) {
		FILE *f = fopen(out, "re");
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

/* Run the program in @r->kind's mode under @attr. */
static void run_program(struct run *r, const char *out, struct perf_event_attr *attr)
{
	double t0 = now_s();

	snprintf(r->out, sizeof(r->out), "%s-%s", out, kind_names[r->kind]);
	snprintf(r->go, sizeof(r->go), "%s.go", r->out);
	snprintf(r->end, sizeof(r->end), "%s.end", r->go);
	remove(r->out);
	remove(r->go);
	remove(r->end);
	r->child = fork();
	if (r->child < 0) {
		r->ret = -1;
		return;
	}
	if (!r->child) {
		char *args[] = {
			(char *)wine, (char *)r->b->path, r->out, (char *)kind_modes[r->kind],
			r->kind == PROBE ? r->go : "-", NULL,
		};

		execv(wine, args);
		_exit(127);
	}
	r->pid = program_pid(r->out, r->child);
	if (r->pid < 0) {
		printf("# %s: %s never said its pid\n", r->tag, r->b->name);
		kill(r->child, SIGKILL);
		waitpid(r->child, NULL, 0);
		r->ret = -1;
		return;
	}
	printf("# %s: %s runs as pid %d after %.1f s: the %s goes on it\n", r->tag,
	       r->b->name, r->pid, now_s() - t0, r->kind == PROBE ? "uprobe" : "cpu-clock event");
	r->ret = chain_attach(&r->cap, attr, r->pid, r->child,
			      r->kind == PROBE ? go_probe : go_sampled, r);
	remove(r->go);
	remove(r->end);
	read_out(r);
	printf("# %s: the run took %.1f s; %u samples (%llu lost)\n", r->tag, now_s() - t0,
	       r->cap.nr_samples, (unsigned long long)r->cap.lost);
	print_debugfs(r->tag, "discover");
	print_debugfs(r->tag, "registry");
}

static void free_run(struct run *r)
{
	chain_free(&r->cap);
	free(r->tables_before);
	free(r->tables_after);
	free(r->maps);
}

/* The program ran to its end, with its modules: the first check of a run. */
static void check_ran(struct run *r, bool extra, const char *what)
{
	unsigned int i;

	tap(!r->ret && WIFEXITED(r->cap.exit_status) && !WEXITSTATUS(r->cap.exit_status) &&
	    r->base && r->dll_base && r->nr_mods && extra,
	    "%s: %s ran to its end (status %#x%s) at %llx with %u modules, %s", r->tag,
	    r->b->name, r->cap.exit_status, r->ret ? ", not profiled" : "",
	    (unsigned long long)r->base, r->nr_mods, what);
	for (i = 0; i < NR_PATH; i++)
		if (!r->end_ip[i])
			printf("# %s: %s not found in the image or process\n", r->tag,
			       path_name(r, i));
}

/* What a sample's chain passes: its pc, then return addresses. */
struct reach {
	bool main, start;	/* main, RtlUserThreadStart */
	bool main_caller;	/* main as a caller: a return address in it */
	bool bottom, whole;	/* the path's bottom; and from there the whole path */
};

static struct reach chain_reach(const struct run *r, const struct chain_sample *s)
{
	struct reach to = {};
	unsigned int j;

	for (j = 0; j < s->nr; j++) {
		uint64_t at = s->ips[j] - !!j;

		if (!to.bottom && in_path(r, 0, at)) {
			to.bottom = true;
			to.whole = path_depth(r, 0, s->ips + j, s->nr - j, !j) == NR_PATH;
		}
		to.main |= in_path(r, PATH_MAIN, at);
		to.main_caller |= j && in_path(r, PATH_MAIN, at);
		to.start |= in_path(r, NR_PATH - 1, at);
	}
	return to;
}

/*
 * Mark in @passed[] the modules the frames of sample @i are in: the first
 * sample that passed each, plus one.
 */
static void mark_modules(const struct run *r, unsigned int i, unsigned int *passed)
{
	const struct chain_sample *s = &r->cap.samples[i];
	unsigned int j;
	int m;

	for (j = 0; j < s->nr; j++) {
		m = module_of(r, s->ips[j] - !!j);
		if (m >= 0 && !passed[m])
			passed[m] = i + 1;
	}
}

/*
 * (e): unwind_tables lists the program, kernel32, ntdll and every module
 * the chains of the run's loop passed (@passed: through the bottom of the
 * path, hundreds of walks) as "discovered pe".  The modules only other
 * chains passed (@other: msvcrt's, once or twice) are shown, not required:
 * unwind_tables is read when the program says it is done, and its last
 * calls (fclose()) come after.
 */
static void check_listed(struct run *r, const unsigned int *passed, const unsigned int *other)
{
	unsigned int i, need = 0, listed = 0, core = 0;

	for (i = 0; i < r->nr_mods; i++) {
		const struct module *m = &r->mods[i];
		bool is_core = !strcasecmp(m->name, r->b->name) ||
			       !strcasecmp(m->name, "kernel32.dll") ||
			       !strcasecmp(m->name, "ntdll.dll");
		bool found = table_has(r->tables_after, "discovered", "pe", m->base,
				       m->base + m->size);
		unsigned int first = passed[i] ? passed[i] : other[i];

		if (!is_core && !first)
			continue;
		if (is_core || passed[i]) {
			need++;
			listed += found;
		}
		core += is_core && found;
		printf("# %s: %s at %llx-%llx%s: %s\n", r->tag, m->name,
		       (unsigned long long)m->base, (unsigned long long)(m->base + m->size),
		       passed[i] ? " (the loop's chains pass it)" :
		       other[i] ? " (only other chains pass it, maybe after: not required)" : "",
		       found ? "discovered pe" : "NOT listed as discovered pe");
		if (!found && first) {
			const struct chain_sample *s = &r->cap.samples[first - 1];

			print_chain(r, "the first chain that passes it", s->ips, s->nr, true);
		}
	}
	if (listed < need)
		print_tables(r->tag, "unwind_tables at the end", r->tables_after, 0, ~0ULL);
	tap(core == 3 && listed == need,
	    "%s: unwind_tables lists the program, kernel32 and ntdll, and every PE module the loop's chains passed, as \"discovered pe\": %u of %u",
	    r->tag, listed, need);
}

/* (a) and (d): the samples of pe_w_leaf's spin. */
static void check_spin(struct run *r)
{
	unsigned int n = r->cap.nr_samples, img = 0, ok = 0, leaf = 0, leaf_ok = 0, whole = 0;
	unsigned int waiting = 0, waiting_ok = 0, pe = 0, pe_ok = 0, elsewhere = 0, lost = 0;
	unsigned int to_main = 0, shown = 0, shown_bad = 0, i;
	unsigned int passed[MAX_MODS] = {}, other[MAX_MODS] = {};
	bool control = r->kind == CONTROL;

	for (i = 0; i < n; i++) {
		const struct chain_sample *s = &r->cap.samples[i];
		uint64_t pc = s->resolved && s->nr ? s->ips[0] : s->ip;
		struct reach to = {};

		if (s->resolved && s->nr) {
			to = chain_reach(r, s);
			mark_modules(r, i, to.bottom ? passed : other);
		} else {
			lost++;
		}
		if (pc >= r->wait_start && pc < r->wait_end) {
			waiting++;
			waiting_ok += to.main && to.start;
			continue;
		}
		if (!in_exe(r, pc)) {
			if (module_of(r, pc) >= 0) {
				pe++;
				pe_ok += to.main && to.start;
			} else {
				elsewhere++;
			}
			continue;
		}
		img++;
		ok += to.main && to.start;
		/* A sample in main itself has main without a walk. */
		to_main += to.main_caller;
		if (in_path(r, 0, pc)) {
			leaf++;
			leaf_ok += to.main && to.start;
			whole += to.main && to.start && to.whole;
		}
		if (control ? to.main_caller : !(to.main && to.start)) {
			if (shown_bad++ < 4)
				print_chain(r, control ? "a chain that reached main" :
					    "a chain short of main", s->ips, s->nr, true);
		} else if (in_path(r, 0, pc) && !shown++) {
			print_chain(r, "a chain of pe_w_leaf", s->ips, s->nr, true);
		}
	}
	printf("# %s: the program spun %u ms in pe_w_wait before it went down (%s)\n", r->tag,
	       r->warm_ms, r->warm_found ? "the kernel had found the program, kernel32 and ntdll" :
	       control ? "no wait: discovery is off" : "the kernel had not found them");
	printf("# %s: %u samples: %u in the program's image out of pe_w_wait (%u in pe_w_leaf), ",
	       r->tag, n, img, leaf);
	printf("%u in pe_w_wait, %u in other PE modules, %u elsewhere, %u without a chain\n",
	       waiting, pe, elsewhere, lost);
	printf("# %s: reach main and RtlUserThreadStart: %u of %u in the image (%.1f%%), ",
	       r->tag, ok, img, img ? 100.0 * ok / img : 0.0);
	printf("%u of %u in pe_w_leaf (%u through the whole path), %u of %u in pe_w_wait, ",
	       leaf_ok, leaf, whole, waiting_ok, waiting);
	printf("%u of %u in other PE modules\n", pe_ok, pe);
	if (!control && ok < img)
		print_maps(r->tag, r->maps, r->base, r->base + r->b->exe.image_size);
	check_ran(r, r->flag && r->done && img >= SPIN_MIN,
		  r->done ? "down its chain and back" : "never said it was done");
	if (control) {
		print_tables(r->tag, "unwind_tables at the end", r->tables_after, r->base,
			     r->base + r->b->exe.image_size);
		tap(img >= SPIN_MIN && !to_main &&
		    !table_has(r->tables_after, "discovered", "pe", 0, 0),
		    "%s: with kernel.unwind_tables_discover=0, %u of %u samples in the image reach main as a caller (none may), and unwind_tables lists no PE image",
		    r->tag, to_main, img);
		return;
	}
	tap(img >= SPIN_MIN && ok * 100 >= img * 99,
	    "%s: %u of %u samples in the program's image reach main and RtlUserThreadStart (%.1f%%, at least 99%% of at least %u)",
	    r->tag, ok, img, img ? 100.0 * ok / img : 0.0, SPIN_MIN);
	tap(leaf >= SPIN_MIN && whole == leaf_ok && whole * 100 >= leaf * 99,
	    "%s: %u of %u samples in pe_w_leaf pass %s ... %s one frame after the other",
	    r->tag, whole, leaf, path_name(r, 0), path_names[NR_PATH - 1]);
	check_listed(r, passed, other);
}

/* (b): the unix side of pe_w_unix's loop. */
static void check_unix(struct run *r)
{
	unsigned int n = r->cap.nr_samples, lost = 0, nr_unix = 0, unix_ok = 0;
	unsigned int loop = 0, whole = 0, nr_pe = 0, pe_ok = 0, waiting = 0;
	unsigned int shown = 0, shown_bad = 0, i, passed[MAX_MODS] = {}, other[MAX_MODS] = {};
	unsigned int first_bad = 0, last_bad = 0;

	for (i = 0; i < n; i++) {
		const struct chain_sample *s = &r->cap.samples[i];
		struct reach to;

		if (!s->resolved || !s->nr) {
			lost++;
			continue;
		}
		to = chain_reach(r, s);
		mark_modules(r, i, to.bottom ? passed : other);
		if (s->ips[0] >= r->wait_start && s->ips[0] < r->wait_end) {
			waiting++;
			continue;
		}
		if (module_of(r, s->ips[0]) >= 0) {
			nr_pe++;
			pe_ok += to.main && to.start;
			continue;
		}
		nr_unix++;
		unix_ok += to.main && to.start;
		loop += to.bottom;
		whole += to.bottom && to.whole;
		if (!(to.main && to.start)) {
			/* The first walks of a process, or anywhere in the run? */
			if (!shown_bad)
				first_bad = nr_unix;
			last_bad = nr_unix;
			if (shown_bad++ < 5)
				print_chain(r, "a unix-side chain short of main", s->ips, s->nr,
					    true);
		} else if (to.bottom && shown++ < 2) {
			print_chain(r, "a unix-side chain", s->ips, s->nr, true);
		}
	}
	if (shown_bad)
		printf("# %s: the unix-side chains short of main are the %u..%u-th of %u\n",
		       r->tag, first_bad, last_bad, nr_unix);
	printf("# %s: the program spun %u ms in pe_w_wait before it went down (%s)\n", r->tag,
	       r->warm_ms, r->warm_found ? "the kernel had found the program, kernel32 and ntdll" :
	       "the kernel had not found them");
	printf("# %s: %u samples: %u on the unix side (%u through pe_w_unix), ", r->tag, n,
	       nr_unix, loop);
	printf("%u on the PE side out of pe_w_wait (%u reach main), ", nr_pe, pe_ok);
	printf("%u in pe_w_wait, %u without a chain\n", waiting, lost);
	check_ran(r, r->flag && r->done, r->done ? "down its chain and back" :
		  "never said it was done");
	tap(nr_unix >= UNIX_MIN && unix_ok * 100 >= nr_unix * 95,
	    "%s: %u of %u unix-side samples get back to main and RtlUserThreadStart (%.1f%%, at least 95%% of at least %u)",
	    r->tag, unix_ok, nr_unix, nr_unix ? 100.0 * unix_ok / nr_unix : 0.0, UNIX_MIN);
	tap(loop >= UNIX_MIN && whole == loop,
	    "%s: %u unix-side samples through pe_w_unix (at least %u) pass %s ... %s one frame after the other: %u",
	    r->tag, loop, UNIX_MIN, path_name(r, 0), path_names[NR_PATH - 1], whole);
	check_listed(r, passed, other);
}

/* (c): the chain at the uprobe is Wine's. */
static void check_probe(struct run *r)
{
	uint64_t probe = r->b->probe_in_dll ? r->dll_base + r->b->probe_rva :
			 r->base + r->b->probe_rva;
	uint64_t ret = r->b->probe_in_dll ? r->dll_ret_ip : r->ret_ip;
	unsigned int depth = path_depth(r, 0, r->trace, r->nt, false);
	unsigned int i, j, last, bad = 0, f1 = 0, deep = 0, same = 0, n = r->cap.nr_samples;

	check_ran(r, r->nt && r->probed && ret, r->probed && ret ? "past the probe" :
		  "never said it passed the probe");
	print_chain(r, "Wine's chain in pe_w_mark", r->trace, r->nt, false);
	tap(depth == NR_PATH, "%s: Wine's own chain passes %s ... %s (%u of %u)", r->tag,
	    path_name(r, 0), path_names[NR_PATH - 1], depth, NR_PATH);
	for (i = 0; i < n; i++) {
		const struct chain_sample *s = &r->cap.samples[i];

		print_chain(r, s->resolved ? "the kernel's chain" :
			    "the kernel's chain, never delivered", s->ips, s->nr, true);
		if (s->ip != probe || !s->nr || s->ips[0] != probe || !s->resolved)
			bad++;
	}
	tap(n == 1 && !bad, "%s: %u uprobe samples, all at %s (%llx) with a chain: %u bad",
	    r->tag, n, r->b->probe_in_dll ? "pe_s_dll_probe in " DLL_NAME : "pe_w_probe",
	    (unsigned long long)probe, bad);
	/* Wine's chain ends with a 0 after RtlUserThreadStart; compare up to it. */
	for (last = 1; last < r->nt && r->trace[last]; last++)
		;
	for (i = 0; i < n; i++) {
		const struct chain_sample *s = &r->cap.samples[i];
		bool eq = s->nr > last;

		f1 += s->nr > 1 && s->ips[1] == ret;
		deep += s->nr > 1 && path_depth(r, 0, s->ips + 1, s->nr - 1, false) == NR_PATH;
		for (j = 1; eq && j < last; j++)
			eq = s->ips[j + 1] == r->trace[j];
		same += eq;
		/* Where it went astray: frame 1 is @ret, frame j + 1 Wine's j. */
		for (j = 1; !eq && j < s->nr && j <= last; j++) {
			uint64_t want = j == 1 ? ret : r->trace[j - 1];

			if (s->ips[j] == want)
				continue;
			printf("# %s: the kernel's chain differs from frame %u on: %llx, ",
			       r->tag, j, (unsigned long long)s->ips[j]);
			printf("where Wine's has %llx\n", (unsigned long long)want);
			break;
		}
		if (!eq && j == s->nr && j <= last)
			printf("# %s: the kernel's chain ends after %u frames, Wine's at %u\n",
			       r->tag, j, last + 1);
	}
	tap(n && f1 == n && in_path(r, 0, ret - 1),
	    "%s: frame 1 is the probed function's return into pe_w_mark, %llx, in %u of %u",
	    r->tag, (unsigned long long)ret, f1, n);
	tap(n && same == n && deep == n && last >= NR_PATH,
	    "%s: from frame 2 on, the kernel's chain is Wine's (%u frames, %s ... %s) in %u of %u",
	    r->tag, last - 1, path_names[1], path_names[NR_PATH - 1], same, n);
	if (same < n || !n) {
		print_tables(r->tag, "unwind_tables after the walk", r->tables_after, 0, ~0ULL);
		print_maps(r->tag, r->maps, r->base, r->base + r->b->exe.image_size);
	}
}

static bool module_loaded(void)
{
	return exists(MODULE_DIR);
}

/* (e): the first run loaded the PE module through modprobe. */
static void check_autoload(const char *log, bool loaded_before, long long req_before)
{
	long long req = -1;

	ut_debugfs_counter("registry", "module_requests", &req);
	printf("# autoload: module_requests %lld before the first run, %lld after\n",
	       req_before, req);
	tap(!loaded_before && file_has(log, ALIAS) && module_loaded(),
	    "autoload: unwind_user_pe was %s when the first run started, the kernel %s modprobe for %s, and it is %s",
	    loaded_before ? "LOADED" : "not loaded", file_has(log, ALIAS) ? "asked" : "NEVER asked",
	    ALIAS, module_loaded() ? "loaded now" : "NOT loaded");
}

/* The offset in @pf's file of @rva, if its section is mapped from there. */
static bool file_mapped(const struct pe_file *pf, uint32_t rva, uint64_t *off)
{
	int64_t o = pe_file_rva_to_offset(pf, rva);

	*off = o;
	return o >= 0 && (o & (PAGE - 1)) == (rva & (PAGE - 1));
}

static int load_build(struct build *b, const char *path)
{
	char dir[PATH_MAX];
	uint32_t rva;

	b->path = path;
	b->name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(b->dll_path, sizeof(b->dll_path), "%s/%s", dirname(dir), DLL_NAME);
	if (pe_file_load(&b->exe, path) || pe_file_load(&b->dll, b->dll_path))
		return -1;
	rva = pe_file_sym_rva(&b->exe, "pe_w_probe");
	b->probe_in_dll = !rva || !file_mapped(&b->exe, rva, &b->probe_off);
	if (b->probe_in_dll) {
		rva = pe_file_sym_rva(&b->dll, "pe_s_dll_probe");
		if (!rva || !file_mapped(&b->dll, rva, &b->probe_off))
			return -1;
	}
	b->probe_rva = rva;
	return 0;
}

static void run_build(struct build *b, const char *out, const char *autoload_log)
{
	static bool first = true;
	struct perf_event_attr clock, probe;
	enum kind k;
	int discover = ut_read_discover();

	chain_attr_cpu_clock(&clock, PERIOD_NS);
	if (chain_attr_uprobe(&probe, b->probe_in_dll ? b->dll_path : b->path, b->probe_off))
		printf("# %s: no uprobe PMU\n", b->name);
	printf("# %s: image base %llx, %u bytes, sections at file offsets %s; ", b->name,
	       (unsigned long long)b->exe.image_base, b->exe.image_size,
	       b->probe_in_dll ? "not page-aligned (Wine copies them)" : "page-aligned (mapped)");
	printf("the uprobe goes on %s at offset %#llx of %s\n",
	       b->probe_in_dll ? "pe_s_dll_probe" : "pe_w_probe",
	       (unsigned long long)b->probe_off, b->probe_in_dll ? b->dll_path : b->path);
	for (k = 0; k < NR_KINDS; k++) {
		struct run *r = calloc(1, sizeof(*r));
		bool loaded_before = module_loaded();
		long long req_before = -1;

		if (!r)
			exit(1);
		r->kind = k;
		r->b = b;
		snprintf(r->tag, sizeof(r->tag), "%s %s", b->name, kind_names[k]);
		ut_debugfs_counter("registry", "module_requests", &req_before);
		if (k == CONTROL && ut_write_discover(0))
			printf("# %s: cannot set kernel.unwind_tables_discover to 0\n", r->tag);
		run_program(r, out, k == PROBE ? &probe : &clock);
		if (k == CONTROL) {
			ut_write_discover(discover < 0 ? 1 : discover);
			printf("# %s: kernel.unwind_tables_discover was %d, is %d again\n", r->tag,
			       discover, ut_read_discover());
		}
		if (k == SPIN || k == CONTROL)
			check_spin(r);
		else if (k == UNIX)
			check_unix(r);
		else
			check_probe(r);
		if (k == SPIN && first) {
			print_tables(r->tag, "unwind_tables at the end of the first run",
				     r->tables_after, 0, ~0ULL);
			if (autoload_log)
				check_autoload(autoload_log, loaded_before, req_before);
			first = false;
		}
		if (k == CONTROL)
			tap(discover >= 0 && ut_read_discover() == discover,
			    "%s: kernel.unwind_tables_discover is back to %d", r->tag, discover);
		free_run(r);
		free(r);
	}
}

/* --msvc: an MSVC-built image under wine64, stopped at its exit. */
struct msvc {
	const char *path;
	const char *name;
	unsigned int nr;
	uint64_t base;
	uint32_t size;
	pid_t pid;
	int status;
	bool exited, killed;
	unsigned int stops, threads;
	char *tables;		/* at the last exit stop */
	char dump[PATH_MAX];
	bool dumped;
	struct chain_capture cap;
};

/*
 * An event on each context switch of @pid with a deferred user callchain,
 * and no ring buffer: the walk is the point.  A Wine process switches at
 * each request to wineserver, which the MSVC code's calls into Wine make:
 * more walks through its frames than the timer's samples of its short life
 * give.  The event's fd, or -1.
 */
static int switch_walks(pid_t pid)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN,
		.exclude_hv = 1,
		.exclude_callchain_kernel = 1,
		.defer_callchain = 1,
	};

	return syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* The image base and SizeOfImage of the PE32+ file @m->path: 0, or -1. */
static int msvc_headers(struct msvc *m)
{
	unsigned char h[4096];
	uint32_t pe;
	ssize_t n;
	int fd;

	fd = open(m->path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, h, sizeof(h)) : -1;
	if (fd >= 0)
		close(fd);
	if (n < 0x200 || memcmp(h, "MZ", 2))
		return -1;
	memcpy(&pe, h + PE_LFANEW, 4);
	if (pe > n - PE_OPT - PE_OPT_IMAGE_SIZE - 4 || memcmp(h + pe, "PE\0\0", 4) ||
	    h[pe + PE_OPT] != 0x0b || h[pe + PE_OPT + 1] != 0x02)
		return -1;
	memcpy(&m->base, h + pe + PE_OPT + PE_OPT_IMAGE_BASE, 8);
	memcpy(&m->size, h + pe + PE_OPT + PE_OPT_IMAGE_SIZE, 4);
	return 0;
}

/* Copy [base, base + size) of @tid's memory to @m->dump: 0, or -errno. */
static int msvc_dump(struct msvc *m, pid_t tid)
{
	char path[64], *buf = malloc(m->size);
	int fd, out, ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/mem", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (!buf || fd < 0 || pread(fd, buf, m->size, m->base) != (ssize_t)m->size ||
	    memcmp(buf, "MZ", 2))
		ret = -(errno ?: EIO);
	if (fd >= 0)
		close(fd);
	if (!ret) {
		out = open(m->dump, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (out < 0 || write(out, buf, m->size) != (ssize_t)m->size)
			ret = -(errno ?: EIO);
		if (out >= 0 && close(out) && !ret)
			ret = -errno;
	}
	free(buf);
	return ret;
}

/* A thread of the image's process stops at its exit: the mm is still there. */
static void msvc_at_exit(struct msvc *m, pid_t tid)
{
	char *tables = read_tables(tid);
	int ret;

	m->stops++;
	if (tables && *tables) {
		free(m->tables);
		m->tables = tables;
	} else {
		free(tables);
	}
	if (m->dumped)
		return;
	ret = msvc_dump(m, tid);
	m->dumped = !ret;
	if (ret)
		printf("# msvc %s: thread %d at its exit: no dump: %s\n", m->name, tid,
		       strerror(-ret));
}

/*
 * The event is on the stopped child: let it exec wine64 under ptrace,
 * following its threads, and stop each at its exit until the process is
 * gone (or killed after MSVC_TIMEOUT_MS).
 */
static void msvc_trace(void *arg)
{
	long opts = PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT |
		    PTRACE_O_EXITKILL;
	struct msvc *m = arg;
	double t0 = now_s();
	int st;

	if (ptrace(PTRACE_SETOPTIONS, m->pid, 0, opts) ||
	    ptrace(PTRACE_CONT, m->pid, 0, 0)) {
		printf("# msvc %s: ptrace: %s\n", m->name, strerror(errno));
		kill(m->pid, SIGKILL);
		return;
	}
	m->threads = 1;
	for (;;) {
		pid_t tid = waitpid(-1, &st, __WALL | WNOHANG);
		int sig = 0, ev;
		siginfo_t si;

		if (!tid) {
			if (!m->killed && (now_s() - t0) * 1000 > MSVC_TIMEOUT_MS) {
				printf("# msvc %s: still running after %u ms: killed\n", m->name,
				       MSVC_TIMEOUT_MS);
				kill(m->pid, SIGKILL);
				m->killed = true;
			}
			usleep(2000);
			continue;
		}
		if (tid < 0)
			break;
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (tid != m->pid)
				continue;
			m->status = st;
			m->exited = true;
			break;
		}
		if (!WIFSTOPPED(st))
			continue;
		ev = st >> 16;
		if (ev == PTRACE_EVENT_EXIT) {
			msvc_at_exit(m, tid);
		} else if (ev == PTRACE_EVENT_CLONE) {
			m->threads++;
		} else if (!ev) {
			sig = WSTOPSIG(st);
			if (sig == SIGTRAP)
				sig = 0;
			/* A new thread's first stop, or a group stop: no signal to pass. */
			else if (sig == SIGSTOP && !ptrace(PTRACE_GETSIGINFO, tid, 0, &si) &&
				 si.si_code == SI_USER && !si.si_pid)
				sig = 0;
			else if (ptrace(PTRACE_GETSIGINFO, tid, 0, &si) && errno == EINVAL)
				sig = 0;
		}
		ptrace(PTRACE_CONT, tid, 0, sig);
	}
}

static void run_msvc(struct msvc *m, const char *dumpdir, FILE *manifest)
{
	struct perf_event_attr clock;
	unsigned int i, j, in_img = 0, through = 0;
	unsigned long long nr_switches = 0;
	double t0 = now_s();
	int status, switches;

	snprintf(m->dump, sizeof(m->dump), "%s/msvc-%u-%s.mem", dumpdir, m->nr, m->name);
	remove(m->dump);
	if (msvc_headers(m)) {
		printf("# msvc %s: not a PE32+ image\n", m->name);
		return;
	}
	m->pid = fork();
	if (m->pid < 0)
		return;
	if (!m->pid) {
		char *args[] = { (char *)wine, (char *)m->path, NULL };

		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(126);
		raise(SIGSTOP);
		execv(wine, args);
		_exit(127);
	}
	if (waitpid(m->pid, &status, __WALL) != m->pid || !WIFSTOPPED(status)) {
		printf("# msvc %s: the child did not stop\n", m->name);
		return;
	}
	chain_attr_cpu_clock(&clock, MSVC_PERIOD_NS);
	switches = switch_walks(m->pid);
	if (chain_attach_tasks(&m->cap, &clock, &m->pid, 1, false, msvc_trace, m, &status))
		printf("# msvc %s: no event on it\n", m->name);
	if (switches < 0 || read(switches, &nr_switches, sizeof(nr_switches)) < 0)
		printf("# msvc %s: no context-switch event on it\n", m->name);
	if (switches >= 0)
		close(switches);
	for (i = 0; i < m->cap.nr_samples; i++) {
		const struct chain_sample *s = &m->cap.samples[i];
		bool in = false;

		in_img += s->ip - m->base < m->size;
		for (j = 0; s->resolved && j < s->nr; j++)
			in |= s->ips[j] - !!j - m->base < m->size;
		through += in;
	}
	printf("# msvc %s: %s at %llx, %u bytes: %s after %.1f s (status %#x), ", m->name,
	       m->path, (unsigned long long)m->base, m->size,
	       m->killed ? "killed" : m->exited ? "exited" : "lost", now_s() - t0, m->status);
	printf("%u threads, %u exit stops; %u samples, %u in the image, %u walks through it; ",
	       m->threads, m->stops, m->cap.nr_samples, in_img, through);
	printf("%llu context switches, each a walk; %llu records lost\n", nr_switches,
	       (unsigned long long)m->cap.lost);
	print_tables("msvc", "unwind_tables at its last exit stop, PE lines and the image",
		     m->tables, m->base, m->base + m->size);
	tap(m->exited && !m->killed && m->stops && m->cap.nr_samples,
	    "msvc %s: ran under wine64 to its exit, sampled (%u samples, %u walked through its frames), stopped there (%u stops)",
	    m->name, m->cap.nr_samples, through, m->stops);
	tap(table_has(m->tables, "discovered", "pe", m->base, m->base + m->size),
	    "msvc %s: unwind_tables at its exit lists %llx-%llx as \"discovered pe\"", m->name,
	    (unsigned long long)m->base, (unsigned long long)(m->base + m->size));
	tap(m->dumped, "msvc %s: its image in memory, %u bytes from %llx, dumped to %s",
	    m->name, m->size, (unsigned long long)m->base, m->dump);
	if (m->dumped && manifest)
		fprintf(manifest, "%s %s\n", m->dump, m->path);
	chain_free(&m->cap);
	free(m->tables);
}

int main(int argc, char **argv)
{
	const char *out, *autoload_log = NULL, *dumpdir = NULL;
	struct msvc msvc[MAX_MSVC] = {};
	struct build builds[MAX_EXES];
	unsigned int nr_builds = 0, nr_msvc = 0, i;
	int cpu_max;
	long long v;
	FILE *manifest = NULL;
	struct utsname u;
	int a = 3;

	if (argc < 4) {
		fprintf(stderr, "usage: %s WINE64 OUT [--autoload LOG] EXE... %s\n", argv[0],
			"[--msvc DUMPDIR IMAGE...]");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	wine = argv[1];
	out = argv[2];
	if (!strcmp(argv[a], "--autoload") && a + 1 < argc) {
		autoload_log = argv[a + 1];
		a += 2;
	}
	for (; a < argc && strcmp(argv[a], "--msvc"); a++) {
		if (nr_builds == MAX_EXES || load_build(&builds[nr_builds], argv[a])) {
			printf("Bail out! cannot use %s (and %s next to it)\n", argv[a], DLL_NAME);
			return 1;
		}
		nr_builds++;
	}
	if (a + 1 < argc) {
		dumpdir = argv[a + 1];
		for (a += 2; a < argc && nr_msvc < MAX_MSVC; a++, nr_msvc++) {
			msvc[nr_msvc].path = argv[a];
			msvc[nr_msvc].nr = nr_msvc;
			msvc[nr_msvc].name = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 :
					     argv[a];
		}
	}
	printf("TAP version 13\n1..%u\n", nr_builds * 16 + !!autoload_log + nr_msvc * 3);
	if (!uname(&u))
		printf("# %s %s %s\n", u.sysname, u.release, u.version);
	/* Mounts debugfs if need be. */
	finds_pe = !ut_debugfs_counter("discover", "found_pe", &v);
	printf("# the kernel %s\n", finds_pe ? "counts the PE images it finds (found_pe)" :
	       "has no found_pe counter: it finds no PE image");
	print_debugfs("start", "discover");
	print_debugfs("start", "registry");
	printf("# start: unwind_user_pe is %s, kernel.unwind_tables_discover %d\n",
	       module_loaded() ? "loaded" : "not loaded", ut_read_discover());
	for (i = 0; i < nr_builds; i++)
		run_build(&builds[i], out, autoload_log);
	if (dumpdir) {
		char path[PATH_MAX];

		mkdir(dumpdir, 0755);
		snprintf(path, sizeof(path), "%s/manifest", dumpdir);
		manifest = fopen(path, "we");
	}
	/*
	 * Each MSVC image is walked at 10 kHz and at every context switch:
	 * under emulation its walks spend their share of its CPU time
	 * (kernel.unwind_user_cpu_time_max_percent) and go on with the tables
	 * known so far, and the image may never be looked for.  What these
	 * runs check is discovery and how the kernel reads the image, not the
	 * bound (cpu_bound checks it): lifted for them.
	 */
	cpu_max = ut_read_cpu_max();
	if (nr_msvc && cpu_max >= 0 && ut_write_cpu_max(100))
		printf("# cannot lift kernel.unwind_user_cpu_time_max_percent\n");
	for (i = 0; i < nr_msvc; i++)
		run_msvc(&msvc[i], dumpdir, manifest);
	if (nr_msvc && cpu_max >= 0 && ut_write_cpu_max(cpu_max))
		printf("# cannot put kernel.unwind_user_cpu_time_max_percent back to %d\n",
		       cpu_max);
	if (manifest)
		fclose(manifest);
	for (i = 0; i < nr_builds; i++) {
		pe_file_free(&builds[i].exe);
		pe_file_free(&builds[i].dll);
	}
	printf("# %u of %u checks failed\n", failed, tests);
	return failed ? 1 : 0;
}
