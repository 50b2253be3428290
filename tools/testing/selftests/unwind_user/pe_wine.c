// SPDX-License-Identifier: GPL-2.0
/*
 * The PE backend under real Wine: run pe_wine_prog.exe with wine64, put a
 * uprobe on its pe_w_probe once it runs (Wine maps its sections writable
 * first, and a uprobe is only installed in a mapping that is not: one set
 * before would never fire), and check the kernel's deferred callchain
 * there:
 *
 *   - every uprobe sample is at pe_w_probe, and its chain was delivered;
 *   - frame 1 is pe_w_probe's return into pe_w_mark, as the program saw it
 *     (__builtin_return_address);
 *   - the chain passes, one frame after the other, pe_w_mark, pe_w_c,
 *     pe_w_b, pe_w_a, main, mingw's __tmainCRTStartup and mainCRTStartup
 *     (named by the image's COFF symbol table), kernel32's
 *     BaseThreadInitThunk and ntdll's RtlUserThreadStart (named by their
 *     exports and .pdata entries in the process, which the program
 *     prints), and Wine's own chain (RtlCaptureStackBackTrace in
 *     pe_w_mark, one call earlier) must pass the same frames, or comparing
 *     with it proves nothing;
 *   - from pe_w_mark's caller on, the return addresses equal Wine's, frame
 *     for frame, to RtlUserThreadStart (Wine's chain ends with a 0 there).
 *
 * Then the unix side: the program goes down the same chain to pe_w_unix,
 * which yields the CPU in a loop (SwitchToThread, Sleep(0)): Wine runs
 * those in ntdll.so and libc, on its own stack, under its syscall
 * dispatcher.  A cpu-clock event samples it; a sample is on the unix side
 * when its pc is in none of the PE modules the program listed.  Each such
 * sample's chain must get back into the PE frames and reach main and
 * RtlUserThreadStart (the program leaves with a Linux exit_group(), so no
 * sample is outside main), those of the loop through pe_w_unix ...
 * RtlUserThreadStart one frame after the other, and enough of them must
 * be the loop's for that to mean something.  Samples on the PE side must
 * reach main as well.
 *
 * The program registers itself and Wine's loaded modules with the prctl.
 * Then a control: the same program registering nothing, with the kernel's
 * discovery off (kernel.unwind_tables_discover=0: the kernel finds PE
 * images by itself, pe_stock.c's test).  Its chain must not reach main, or
 * the first run would not show that the PE registrations made it, and
 * /proc/PID/unwind_tables must list no PE image and nothing the kernel
 * found.  The unix side has its control too: registering nothing, no
 * sample there may get back to main.  Last, a figure and no check: the unix call dispatcher of
 * the stock wine 8.0 (gethostname() in a loop, through ws2_32.so).
 *
 *   pe_wine WINE64 EXE OUT [--loader-registers]
 *
 * With --loader-registers (make wine-loader) there are three runs, where
 * the program registers nothing: Wine's loader must have registered every
 * module (patches/wine) before the uprobe goes on, and the chain is
 * checked as in the first run; the unix side is checked as above, once
 * under the syscall dispatcher, once under the unix call dispatcher
 * (gethostname() in a loop: ws2_32.so, libc), whose call frame
 * information the second patch of patches/wine makes followable.
 *
 * Prints TAP, a line per check; exits non-zero unless all pass.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pe_map.h"
#include "perf_chain.h"
#include "unwind_table.h"

#define MAX_TRACE	64
#define MAX_MODS	64
#define NR_PATH		9
#define PATH_MAIN	4	/* path_names[] from here on: main and below */
#define PATH_EXE	7	/* ... and up to here: in the program's image */
#define PAGE		4096ULL
#define MAX_XMAPS	256
#define UNIX_PERIOD_NS	1000000ULL
/* Samples of pe_w_unix's loop on the unix side that make the run count. */
#define UNIX_MIN	40

/* The frames from pe_w_mark down, one after the other. */
static const char * const path_names[NR_PATH] = {
	"pe_w_mark", "pe_w_c", "pe_w_b", "pe_w_a", "main", "__tmainCRTStartup",
	"mainCRTStartup", "BaseThreadInitThunk", "RtlUserThreadStart",
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
	const char *tag;	/* of its TAP lines */
	const char *mode;	/* pe_wine_prog.exe's */
	bool unix_side;		/* pe_w_unix under a cpu-clock, not the uprobe */
	bool figure;		/* ... only counted, not checked */
	char out[PATH_MAX], go[PATH_MAX + 8], end[PATH_MAX + 16];
	pid_t child, pid;
	int ret;		/* chain_attach()'s */
	struct chain_capture cap;
	struct module mods[MAX_MODS];
	unsigned int nr_mods, nr_reg, nr_reg_ok;
	uint64_t base;		/* where pe_wine_prog.exe is */
	uint64_t start[NR_PATH], end_ip[NR_PATH];	/* of path_name() */
	uint64_t wait_start, wait_end;			/* of wait_for() */
	struct xmap xmaps[MAX_XMAPS];
	unsigned int nr_xmaps;
	uint64_t trace[MAX_TRACE];
	unsigned int nt;
	uint64_t ret_ip;	/* pe_w_probe's return address */
	bool probed;
	char *tables_before, *tables_after;	/* /proc/PID/unwind_tables */
};

/* path_names[@i], with pe_w_unix at the bottom of a unix-side run. */
static const char *path_name(const struct run *r, unsigned int i)
{
	return i || !r->unix_side ? path_names[i] : "pe_w_unix";
}

static const struct pe_file *exe;
static const char *exe_name;
static unsigned int tests, failed;

static bool tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %u - ", ok ? "ok" : "not ok", ++tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failed += !ok;
	return ok;
}

/* The whole of /proc/@pid/unwind_tables, or "". */
static char *read_tables(pid_t pid)
{
	char path[64], *buf = NULL;
	size_t size = 0;
	FILE *f, *m;

	snprintf(path, sizeof(path), "/proc/%d/unwind_tables", pid);
	m = open_memstream(&buf, &size);
	f = fopen(path, "r");
	if (!m)
		return strdup("");
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
 * Is there a line "START-END @origin @format" in @tables, with START <=
 * @start and @end <= END (a range of 0 bytes: any line that holds @start)?
 * 0 for @start: the number of lines of that origin and format.
 */
static unsigned int table_has(const char *tables, const char *origin, const char *format,
			      uint64_t start, uint64_t end)
{
	unsigned long long s, e;
	char o[16], fmt[16];
	unsigned int n = 0;
	const char *p;

	for (p = tables; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (sscanf(p, "%llx-%llx %15s %15s", &s, &e, o, fmt) != 4 ||
		    strcmp(o, origin) || strcmp(fmt, format))
			continue;
		if (!start || (s <= start && start < e && end <= e))
			n++;
	}
	return n;
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
	FILE *f = fopen(path, "r");

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

/* The executable mappings of the program, to name its unix-side frames. */
static void read_xmaps(struct run *r)
{
	unsigned long long start, end;
	char path[64], line[512], perms[8];
	FILE *f;
	int pos;

	snprintf(path, sizeof(path), "/proc/%d/maps", r->pid);
	f = fopen(path, "r");
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

/*
 * The uprobe is in place: let the program go down its chain, wait until it
 * has passed pe_w_probe (the kernel's walk is over then) and read what the
 * kernel holds for it, then let it end.
 */
static void go(void *arg)
{
	struct run *r = arg;
	siginfo_t si;
	int i;

	r->tables_before = read_tables(r->pid);
	read_xmaps(r);
	touch(r->go);
	for (i = 0; i < 600 && !file_has(r->out, "probed"); i++) {
		si.si_pid = 0;
		if (!waitid(P_PID, r->child, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid)
			break;
		usleep(100000);
	}
	r->tables_after = read_tables(r->pid);
	touch(r->end);
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

/* What the program wrote to its OUT. */
static void read_out(struct run *r)
{
	char line[4096], name[64];
	const struct pe_sym *wait;
	unsigned long long b, s;
	unsigned int i;
	long long err;
	uint32_t rva;
	FILE *f;

	f = fopen(r->out, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *end;

		chomp(line);

		if (sscanf(line, "module %llx %llx %63s", &b, &s, name) == 3 &&
		    r->nr_mods < MAX_MODS) {
			r->mods[r->nr_mods] = (struct module){ .base = b, .size = s };
			snprintf(r->mods[r->nr_mods++].name, sizeof(name), "%s", name);
			if (!strcasecmp(name, exe_name))
				r->base = b;
		} else if (sscanf(line, "register %llx %llx %63s %lld", &b, &s, name, &err) == 4) {
			printf("# %s: registered %s at %llx (%llx bytes): %s\n", r->tag, name,
			       b, s, err ? strerror(-err) : "ok");
			r->nr_reg++;
			r->nr_reg_ok += !err;
		} else if (sscanf(line, "func %63s %llx %llx", name, &b, &s) == 3) {
			for (i = PATH_EXE; i < NR_PATH; i++) {
				if (strcmp(name, path_names[i]))
					continue;
				r->start[i] = b;
				r->end_ip[i] = s;
			}
		} else if (sscanf(line, "ret %llx", &b) == 1) {
			r->ret_ip = b;
		} else if (!strcmp(line, "probed")) {
			r->probed = true;
		} else if (!strncmp(line, "trace ", 6)) {
			r->nt = strtoul(line + 6, &end, 10);
			for (i = 0; i < r->nt && i < MAX_TRACE; i++)
				r->trace[i] = strtoull(end, &end, 16);
			r->nt = i;
		}
	}
	if (f)
		fclose(f);
	/* The program's own functions, by its COFF symbol table. */
	for (i = 0; r->base && i < PATH_EXE; i++) {
		uint32_t rva = pe_file_sym_rva(exe, path_name(r, i));
		const struct pe_sym *sym = rva ? pe_file_sym(exe, rva) : NULL;

		if (sym) {
			r->start[i] = r->base + sym->rva;
			r->end_ip[i] = r->start[i] + sym->size;
		}
	}
	rva = r->base ? pe_file_sym_rva(exe, "wait_for") : 0;
	wait = rva ? pe_file_sym(exe, rva) : NULL;
	if (wait) {
		r->wait_start = r->base + wait->rva;
		r->wait_end = r->wait_start + wait->size;
	}
}

/* Is @ip inside path_names[@k]? */
static bool in_path(const struct run *r, unsigned int k, uint64_t ip)
{
	return r->end_ip[k] && ip >= r->start[k] && ip < r->end_ip[k];
}

/* How many of path_names[] the return addresses @ips[@nr] pass, in order. */
static unsigned int path_depth(const struct run *r, const uint64_t *ips, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr && i < NR_PATH && in_path(r, i, ips[i] - 1); i++)
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

	for (i = 0; i < NR_PATH; i++)
		if (in_path(r, i, at))
			return path_name(r, i);
	if (r->base && at - r->base < exe->image_size) {
		sym = pe_file_sym(exe, at - r->base);
		return sym ? sym->name : "?[exe]";
	}
	for (i = 0; i < r->nr_mods; i++) {
		if (at - r->mods[i].base < r->mods[i].size) {
			snprintf(buf, size, "%s+%llx", r->mods[i].name,
				 (unsigned long long)(ip - r->mods[i].base));
			return buf;
		}
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

/* Run pe_wine_prog.exe in @r->mode under the uprobe @attr. */
static void run_program(struct run *r, char **argv, struct perf_event_attr *attr)
{
	remove(r->out);
	remove(r->go);
	remove(r->end);
	r->child = fork();
	if (r->child < 0) {
		r->ret = -1;
		return;
	}
	if (!r->child) {
		char *args[] = { argv[1], argv[2], r->out, (char *)r->mode, r->go, NULL };

		execv(argv[1], args);
		_exit(127);
	}
	r->pid = program_pid(r->out, r->child);
	if (r->pid < 0) {
		printf("# %s: %s never said its pid\n", r->tag, argv[2]);
		kill(r->child, SIGKILL);
		waitpid(r->child, NULL, 0);
		r->ret = -1;
		return;
	}
	printf("# %s: %s runs as pid %d: the %s goes on it\n", r->tag, argv[2], r->pid,
	       r->unix_side ? "cpu-clock event" : "uprobe");
	r->ret = chain_attach(&r->cap, attr, r->pid, r->child, go, r);
	remove(r->go);
	remove(r->end);
	read_out(r);
}

/* The checks all runs share: see the comment at the top. */
static void check_ran(struct run *r)
{
	unsigned int depth = path_depth(r, r->trace, r->nt);
	unsigned int i;

	tap(!r->ret && !r->cap.exit_status && r->base && r->nr_mods && r->nt && r->probed &&
	    r->ret_ip, "%s: %s ran to its end (exit %#x%s), at %llx with %u modules, %s%s",
	    r->tag, exe_name, r->cap.exit_status, r->ret ? ", not profiled" : "",
	    (unsigned long long)r->base, r->nr_mods, r->nt ? "its trace" : "no trace",
	    r->probed && r->ret_ip ? ", past the probe" : ", never said it passed the probe");
	for (i = 0; i < NR_PATH; i++)
		if (!r->end_ip[i])
			printf("# %s: %s not found in the image or process\n", r->tag,
			       path_name(r, i));
	print_chain(r, "Wine's chain in pe_w_mark", r->trace, r->nt, false);
	tap(depth == NR_PATH, "%s: Wine's own chain passes %s ... %s (%u of %u)", r->tag,
	    path_name(r, 0), path_names[NR_PATH - 1], depth, NR_PATH);
}

/* Every sample is the uprobe's, with its chain: 0, or the failures. */
static void check_samples(struct run *r, uint64_t probe)
{
	unsigned int i, bad = 0;

	for (i = 0; i < r->cap.nr_samples; i++) {
		const struct chain_sample *s = &r->cap.samples[i];

		print_chain(r, s->resolved ? "the kernel's chain" :
			    "the kernel's chain, never delivered", s->ips, s->nr, true);
		if (s->ip != probe || !s->nr || s->ips[0] != probe || !s->resolved) {
			printf("# %s: sample %u at %llx, chain from %llx: not the probe's\n",
			       r->tag, i, (unsigned long long)s->ip,
			       (unsigned long long)(s->nr ? s->ips[0] : 0));
			bad++;
		}
	}
	/* pe_w_probe runs once, on the one thread the event is on. */
	tap(r->cap.nr_samples == 1 && !bad,
	    "%s: %u uprobe samples, all at pe_w_probe (%llx) with a chain: %u bad", r->tag,
	    r->cap.nr_samples, (unsigned long long)probe, bad);
}

/* The kernel's chain is Wine's: frame 1 and the whole path. */
static void check_chain(struct run *r)
{
	unsigned int i, j, last, f1 = 0, deep = 0, same = 0, n = r->cap.nr_samples;

	/* Wine's chain ends with a 0 after RtlUserThreadStart; compare up to it. */
	for (last = 1; last < r->nt && r->trace[last]; last++)
		;
	for (i = 0; i < n; i++) {
		const struct chain_sample *s = &r->cap.samples[i];
		bool eq = s->nr > last;

		f1 += s->nr > 1 && s->ips[1] == r->ret_ip;
		deep += s->nr > 1 && path_depth(r, s->ips + 1, s->nr - 1) == NR_PATH;
		for (j = 1; eq && j < last; j++)
			eq = s->ips[j + 1] == r->trace[j];
		same += eq;
	}
	tap(n && f1 == n && in_path(r, 0, r->ret_ip - 1),
	    "%s: frame 1 is pe_w_probe's return into pe_w_mark, %llx, in %u of %u", r->tag,
	    (unsigned long long)r->ret_ip, f1, n);
	tap(n && deep == n, "%s: the kernel's chain passes %s ... %s in %u of %u", r->tag,
	    path_name(r, 0), path_names[NR_PATH - 1], deep, n);
	tap(n && same == n && last >= NR_PATH,
	    "%s: from frame 2 on, the kernel's chain is Wine's (%u frames) in %u of %u",
	    r->tag, last - 1, same, n);
}

/* Each module Wine loaded is registered as a PE image in @tables. */
static unsigned int modules_listed(const struct run *r, const char *tables)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->nr_mods; i++) {
		const struct module *m = &r->mods[i];
		uint64_t end = m->base + ((m->size + PAGE - 1) & ~(PAGE - 1));

		if (table_has(tables, "prctl", "pe", m->base, end))
			n++;
		else
			printf("# %s: %s (%llx-%llx) is not listed as a PE image\n", r->tag,
			       m->name, (unsigned long long)m->base, (unsigned long long)end);
	}
	return n;
}

/* Nothing registered: the kernel's chain must not get to main. */
static void check_control(struct run *r, uint64_t probe)
{
	unsigned int i, j, k, reached = 0, depth = 0, n = r->cap.nr_samples;
	char buf[96];

	printf("# %s: unwind_tables after the walk:\n", r->tag);
	for (const char *p = r->tables_after; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : 0)
		printf("#   %.*s\n", (int)strcspn(p, "\n"), p);
	/* Empty, with discovery off. */
	tap(!r->nr_reg && !table_has(r->tables_before, "prctl", "pe", 0, 0) &&
	    !table_has(r->tables_after, "prctl", "pe", 0, 0) && r->tables_after,
	    "%s: the program registered nothing, and unwind_tables %s", r->tag,
	    "lists no PE image before or after the walk");
	/* Discovery is off: the kernel found nothing there by itself. */
	tap(!ut_find_origin(r->tables_after, "found", probe, probe + 1, NULL),
	    "%s: with discovery off, unwind_tables lists nothing found over %s's text at the probe",
	    r->tag, exe_name);

	for (i = 0; i < n; i++) {
		const struct chain_sample *s = &r->cap.samples[i];
		unsigned int d = s->nr > 1 ? path_depth(r, s->ips + 1, s->nr - 1) : 0;
		bool deep = false;

		for (j = 1; j < s->nr; j++)
			for (k = PATH_MAIN; k < NR_PATH; k++)
				deep |= in_path(r, k, s->ips[j] - 1);
		reached += deep;
		depth = d > depth ? d : depth;
		printf("# %s: sample %u: %u frames, the last %s; %u of the path from %s\n",
		       r->tag, i, s->nr,
		       s->nr ? frame_name(r, s->ips[s->nr - 1], s->nr == 1, buf, sizeof(buf)) :
		       "-", d, path_name(r, 0));
	}
	tap(n && !reached,
	    "%s: the kernel's chain does not reach main in %u of %u (it got %u frames of %s, %s)",
	    r->tag, n - reached, n, depth, path_name(r, 0),
	    depth ? path_name(r, depth - 1) : "none");
}

/* Is @ip in one of the PE modules the program listed? */
static bool in_pe(const struct run *r, uint64_t ip)
{
	unsigned int i;

	for (i = 0; i < r->nr_mods; i++)
		if (ip - r->mods[i].base < r->mods[i].size)
			return true;
	return false;
}

/* What a sample's chain passes: its pc, then return addresses. */
struct reach {
	bool main, start;	/* main, RtlUserThreadStart */
	bool loop, whole;	/* pe_w_unix; and from there the whole path */
	bool wait;		/* wait_for() */
};

static struct reach chain_reach(const struct run *r, const struct chain_sample *s)
{
	struct reach to = {};
	unsigned int j;

	/* The sampled pc itself may be in main (a PE-side sample). */
	to.main = s->nr && in_path(r, PATH_MAIN, s->ips[0]);
	for (j = 1; j < s->nr; j++) {
		uint64_t at = s->ips[j] - 1;

		if (!to.loop && in_path(r, 0, at)) {
			to.loop = true;
			to.whole = path_depth(r, s->ips + j, s->nr - j) == NR_PATH;
		}
		to.wait |= at >= r->wait_start && at < r->wait_end;
		to.main |= in_path(r, PATH_MAIN, at);
		to.start |= in_path(r, NR_PATH - 1, at);
	}
	return to;
}

/* The unix side of pe_w_unix's loop, sampled: see the comment at the top. */
static void check_unix(struct run *r, bool control)
{
	unsigned int n = r->cap.nr_samples, lost = 0, nr_unix = 0, unix_ok = 0;
	unsigned int loop = 0, whole = 0, wait = 0, nr_pe = 0, pe_ok = 0;
	unsigned int shown = 0, shown_bad = 0, i;

	for (i = 0; i < n; i++) {
		const struct chain_sample *s = &r->cap.samples[i];
		struct reach to;

		if (!s->resolved || !s->nr) {
			lost++;
			continue;
		}
		to = chain_reach(r, s);
		if (in_pe(r, s->ips[0])) {
			nr_pe++;
			pe_ok += to.main && to.start;
			if (!(to.main && to.start) && !control && shown_bad++ < 5)
				print_chain(r, "a PE-side chain short of main", s->ips, s->nr,
					    true);
			continue;
		}
		nr_unix++;
		unix_ok += to.main && to.start;
		loop += to.loop;
		whole += to.whole;
		wait += to.wait;
		if ((to.main && to.start) == control && shown_bad++ < 5)
			print_chain(r, control ? "a unix-side chain that reached main" :
				    "a unix-side chain short of main", s->ips, s->nr, true);
		else if (to.loop && shown++ < 2)
			print_chain(r, "a unix-side chain", s->ips, s->nr, true);
	}
	printf("# %s: %u samples: %u on the unix side (%u through pe_w_unix, %u through %s), ",
	       r->tag, n, nr_unix, loop, wait, "wait_for");
	printf("%u on the PE side, %u without a chain\n", nr_pe, lost);
	if (r->figure) {
		printf("# %s: %u of %u unix-side samples get back to main and RtlUserThreadStart\n",
		       r->tag, unix_ok, nr_unix);
		return;
	}
	/* A sample taken as the process dies may never get its chain. */
	tap(!r->ret && !r->cap.exit_status && r->base && r->nr_mods && r->probed && n &&
	    lost <= 2, "%s: %s ran to its end (exit %#x%s) with %u modules, %u samples, %s",
	    r->tag, exe_name, r->cap.exit_status, r->ret ? ", not profiled" : "", r->nr_mods, n,
	    lost ? "a few without a chain" : "each with its chain");
	if (control) {
		tap(nr_unix >= UNIX_MIN && !unix_ok,
		    "%s: registering nothing, %u of %u unix-side samples got back to main (none may; at least %u samples)",
		    r->tag, unix_ok, nr_unix, UNIX_MIN);
		return;
	}
	tap(nr_unix && unix_ok == nr_unix,
	    "%s: every unix-side sample gets back to main and RtlUserThreadStart: %u of %u",
	    r->tag, unix_ok, nr_unix);
	tap(loop >= UNIX_MIN && whole == loop,
	    "%s: %u unix-side samples of pe_w_unix's loop (at least %u) pass %s ... %s one frame after the other: %u",
	    r->tag, loop, UNIX_MIN, path_name(r, 0), path_names[NR_PATH - 1], whole);
	tap(nr_pe && pe_ok == nr_pe,
	    "%s: every PE-side sample gets to main and RtlUserThreadStart: %u of %u", r->tag,
	    pe_ok, nr_pe);
}

int main(int argc, char **argv)
{
	struct run runs[5] = {
		{ .tag = "wine", .mode = "wait" },
		{ .tag = "control", .mode = "wait-none" },
		{ .tag = "unix", .mode = "unix", .unix_side = true },
		{ .tag = "unix-control", .mode = "unix-none", .unix_side = true },
		/*
		 * Not a check: the stock wine 8.0 describes its unix call
		 * dispatcher's frame by rcx, which the walk cannot know
		 * there (patches/wine's second change describes it by rsp).
		 */
		{ .tag = "unixcall-stock", .mode = "unixcall", .unix_side = true, .figure = true },
	};
	struct perf_event_attr attr, clock;
	int discover = ut_read_discover(), cpu_max = ut_read_cpu_max();
	unsigned int nr_runs = 5, i;
	bool loader = false, control;
	uint64_t probe;
	struct pe_file pf;
	int64_t off;
	uint32_t rva;

	loader = argc == 5 && !strcmp(argv[4], "--loader-registers");
	if (argc != 4 && !loader) {
		fprintf(stderr, "usage: %s WINE64 EXE OUT [--loader-registers]\n", argv[0]);
		return 2;
	}
	if (loader) {
		runs[0] = (struct run){ .tag = "loader", .mode = "wait-loader" };
		runs[1] = (struct run){
			.tag = "loader-unix", .mode = "unix-loader", .unix_side = true,
		};
		runs[2] = (struct run){
			.tag = "loader-unixcall", .mode = "unixcall-loader", .unix_side = true,
		};
		nr_runs = 3;
	}
	printf("TAP version 13\n1..%u\n", loader ? 17 : 21);
	if (pe_file_load(&pf, argv[2]))
		return 1;
	exe = &pf;
	exe_name = basename(argv[2]);
	rva = pe_file_sym_rva(&pf, "pe_w_probe");
	off = rva ? pe_file_rva_to_offset(&pf, rva) : -1;
	if (off < 0 || chain_attr_uprobe(&attr, argv[2], off)) {
		printf("Bail out! no uprobe on pe_w_probe\n");
		return 1;
	}
	chain_attr_cpu_clock(&clock, UNIX_PERIOD_NS);
	/*
	 * What is checked here is chains: the walks' share of the CPU is
	 * not bounded while they run, or a walk deep in debt after Wine's
	 * start (dozens of objects found) gives the ip alone (4 of 935
	 * samples once).  cpu_bound tests the bound; make wine-stock's
	 * guest runs under it.
	 */
	if (cpu_max > 0 && cpu_max < 100 && ut_write_cpu_max(100))
		printf("# cannot lift kernel.unwind_user_cpu_time_max_percent\n");
	for (i = 0; i < nr_runs; i++) {
		struct run *r = &runs[i];

		snprintf(r->out, sizeof(r->out), "%s-%s", argv[3], r->tag);
		snprintf(r->go, sizeof(r->go), "%s.go", r->out);
		snprintf(r->end, sizeof(r->end), "%s.end", r->go);
		control = strstr(r->mode, "-none");
		if (control && ut_write_discover(0))
			printf("# %s: cannot turn discovery off\n", r->tag);
		run_program(r, argv, r->unix_side ? &clock : &attr);
		if (control)
			ut_write_discover(discover < 0 ? 1 : discover);
		if (r->unix_side) {
			if (!r->figure && !loader)
				tap(!strcmp(r->mode, "unix-none") ? !r->nr_reg :
				    r->nr_reg && r->nr_reg_ok == r->nr_mods,
				    "%s: the program registered %u of its %u modules", r->tag,
				    r->nr_reg_ok, r->nr_mods);
			else if (!r->figure)
				tap(!r->nr_reg && r->nr_mods &&
				    modules_listed(r, r->tables_before) == r->nr_mods,
				    "%s: Wine's loader registered its %u modules, the program none",
				    r->tag, r->nr_mods);
			check_unix(r, !strcmp(r->mode, "unix-none"));
			chain_free(&r->cap);
			free(r->tables_before);
			free(r->tables_after);
			continue;
		}
		/* The program's image at its preferred base: the probe is there. */
		probe = (r->base ? r->base : pf.image_base) + rva;
		check_ran(r);
		check_samples(r, probe);
		if (!strcmp(r->mode, "wait")) {
			tap(r->nr_reg && r->nr_reg_ok == r->nr_mods &&
			    modules_listed(r, r->tables_after) == r->nr_mods,
			    "%s: the program registered its %u modules (%u ok), %s", r->tag,
			    r->nr_mods, r->nr_reg_ok, "listed as PE images after the walk");
			check_chain(r);
		} else if (loader) {
			tap(!r->nr_reg && r->nr_mods &&
			    modules_listed(r, r->tables_before) == r->nr_mods,
			    "%s: Wine's loader registered its %u modules %s", r->tag, r->nr_mods,
			    "before the uprobe went on, the program none");
			check_chain(r);
		} else {
			check_control(r, probe);
		}
		chain_free(&r->cap);
		free(r->tables_before);
		free(r->tables_after);
	}
	if (cpu_max > 0 && cpu_max < 100)
		ut_write_cpu_max(cpu_max);
	pe_file_free(&pf);
	printf("# %u of %u checks failed\n", failed, tests);
	return failed ? 1 : 0;
}
