// SPDX-License-Identifier: GPL-2.0
/*
 * Deferred user callchains through shared libraries built without frame
 * pointers, which the kernel can walk only with their unwind tables: those
 * the kernel finds by itself at the first walk that needs them, or, with
 * that off (kernel.unwind_tables_discover = 0), those the dynamic loader's
 * audit module (unwind_user_audit.so, through LD_AUDIT) registers with
 * prctl(PR_REGISTER_EH_FRAME).
 *
 *   - libc: main -> a -> qsort() -> cmp, a callback that spins; samples in
 *     cmp must walk back through libc's own frames to a and main, and on to
 *     libc's start code and _start;
 *   - dlopen: main -> call_lib -> lib_a -> lib_b (libunwind_cb.so) -> cb_spin
 *     in the program; then dlclose and dlopen of libunwind_cb2.so, other code
 *     with other frame sizes mapped at the same address: its chains must be
 *     right, which they cannot be if the first library's table survived,
 *     nor its frames in a cache (the one processes share, or with
 *     kernel.unwind_tables_share=0 the process's own);
 *
 *   - unreadable: the same library, registered, with the memory of its
 *     table made unreadable: the walk must go on with frame pointers.
 *
 * The first two run three ways: under the audit module with discovery off
 * (the registrations do it); without either (the control: no chain gets
 * past the first library frame, which shows what the other two do); and
 * without the audit module, with discovery on, as any program is profiled
 * (the tables the kernel finds do it).  Every frame is named from the
 * symbol table of the file its mapping (PERF_RECORD_MMAP2, as it was when
 * the sample was taken) names, never by the unwinder.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <libgen.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elf_syms.h"
#include "perf_chain.h"
#include "unwind_table.h"
#include "../kselftest_harness.h"

#define AUDIT_NAME	"unwind_user_audit.so"
#define WORKLOAD_NAME	"dso_workload"
#define LIB1_NAME	"libunwind_cb.so"
#define LIB2_NAME	"libunwind_cb2.so"
#define SPIN_MS		"500"
#define MIN_SAMPLES	30U
#define SHARED_STATS	"/sys/kernel/debug/unwind_user/shared"

static void prog_path(char *buf, size_t size, const char *name)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	snprintf(buf, size, "%s/%s", dirname(exe), name);
}

/* One frame of a chain, named from the file mapped at its address. */
struct frame {
	uint64_t ip;
	const char *file;	/* basename of the mapped file; NULL: nothing mapped */
	const char *name;	/* the function; NULL: no symbol covers it */
	bool libc;
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static bool is_libc(const char *file)
{
	return !strncmp(file, "libc.so", 7) || !strncmp(file, "libc-", 5);
}

/* Frame @i of @s.  Return addresses are looked up inside the call, one byte back. */
static void get_frame(struct elf_dsos *ds, const struct chain_capture *cap,
		      const struct chain_sample *s, unsigned int i, struct frame *f)
{
	uint64_t ip = s->ips[i] - (i ? 1 : 0);
	const struct chain_mmap *m = chain_find_map_at(cap, s, ip);
	const struct elf_sym *sym;

	memset(f, 0, sizeof(*f));
	f->ip = s->ips[i];
	if (!m)
		return;
	f->file = base_name(m->path);
	f->libc = is_libc(f->file);
	sym = elf_dsos_lookup(ds, m->path, ip - m->start + m->pgoff);
	f->name = sym ? sym->name : NULL;
}

/* The chain, for the log: name[file] per frame. */
static void format_chain(struct elf_dsos *ds, const struct chain_capture *cap,
			 const struct chain_sample *s, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < s->nr && len < size; i++) {
		struct frame f;

		get_frame(ds, cap, s, i, &f);
		if (i == 24) {
			len += snprintf(buf + len, size - len, " ... (%u frames)", s->nr);
			break;
		}
		len += snprintf(buf + len, size - len, " %s[%s]", f.name ?: "?", f.file ?: "?");
	}
}

/*
 * Does @s match @pat?  Each element names a function of a file other than
 * libc, or is "<libc>+": one or more frames inside libc, whatever their
 * symbols say (libc's internal functions are not in its .dynsym).
 * @prefix: frames after the pattern are allowed.
 */
static bool chain_is(struct elf_dsos *ds, const struct chain_capture *cap,
		     const struct chain_sample *s, const char * const *pat, unsigned int nr_pat,
		     bool prefix)
{
	unsigned int i = 0;

	if (!s->resolved)
		return false;
	for (unsigned int p = 0; p < nr_pat; p++) {
		struct frame f;

		if (i >= s->nr)
			return false;
		get_frame(ds, cap, s, i, &f);
		if (!strcmp(pat[p], "<libc>+")) {
			if (!f.libc)
				return false;
			do {
				if (++i >= s->nr)
					break;
				get_frame(ds, cap, s, i, &f);
			} while (f.libc);
			continue;
		}
		if (f.libc || !f.name || strcmp(f.name, pat[p]))
			return false;
		i++;
	}
	return prefix || i == s->nr;
}

/* Does any frame of @s name @func? */
static bool chain_has(struct elf_dsos *ds, const struct chain_capture *cap,
		      const struct chain_sample *s, const char *func)
{
	for (unsigned int i = 0; i < s->nr; i++) {
		struct frame f;

		get_frame(ds, cap, s, i, &f);
		if (!f.libc && f.name && !strcmp(f.name, func))
			return true;
	}
	return false;
}

/* Is the sample's own address in @func? */
static bool sample_in(struct elf_dsos *ds, const struct chain_capture *cap,
		      const struct chain_sample *s, const char *func)
{
	const struct chain_mmap *m = chain_find_map_at(cap, s, s->ip);
	const struct elf_sym *sym;

	if (!m)
		return false;
	sym = elf_dsos_lookup(ds, m->path, s->ip - m->start + m->pgoff);
	return sym && !strcmp(sym->name, func) && !is_libc(base_name(m->path));
}

/*
 * The parent tears down (unlinks the dump, restores the sysctl), whatever
 * became of the test: what the child allocated goes with it.
 */
FIXTURE(dso) {
	char prog[PATH_MAX], audit[PATH_MAX], lib1[PATH_MAX], lib2[PATH_MAX];
	char dump[PATH_MAX];
	char libdir[64];	/* the copies of the libraries, or "" */
	struct chain_capture cap;
	struct elf_dsos dsos;
	char chain[2048];
	bool discover_saved;	/* kernel.unwind_tables_discover was... */
	int discover_old;
	int share_old;		/* kernel.unwind_tables_share was, or -1 */
};

/* Copy @from to @to: 0, or -1. */
static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, ret = -1;
	ssize_t n = -1;

	if (in >= 0)
		out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			break;
	if (out >= 0 && !n && !close(out)) {
		out = -1;
		ret = 0;
	}
	if (out >= 0)
		close(out);
	if (in >= 0)
		close(in);
	return ret;
}

FIXTURE_SETUP(dso)
{
	char lib[PATH_MAX];
	int fd;

	self->share_old = -1;
	prog_path(self->prog, sizeof(self->prog), WORKLOAD_NAME);
	prog_path(self->audit, sizeof(self->audit), AUDIT_NAME);
	/*
	 * The libraries are dlopen()ed from copies in /tmp: frames are shared
	 * only for files whose changes the kernel counts, and the test
	 * directory may be on 9p or NFS.
	 */
	snprintf(self->libdir, sizeof(self->libdir), "/tmp/unwind_libs.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->libdir));
	prog_path(lib, sizeof(lib), LIB1_NAME);
	snprintf(self->lib1, sizeof(self->lib1), "%s/%s", self->libdir, LIB1_NAME);
	ASSERT_EQ(0, copy_file(lib, self->lib1)) TH_LOG("cannot copy %s", lib);
	prog_path(lib, sizeof(lib), LIB2_NAME);
	snprintf(self->lib2, sizeof(self->lib2), "%s/%s", self->libdir, LIB2_NAME);
	ASSERT_EQ(0, copy_file(lib, self->lib2)) TH_LOG("cannot copy %s", lib);
	ASSERT_EQ(0, access(self->prog, X_OK)) TH_LOG("no %s", self->prog);
	ASSERT_EQ(0, access(self->audit, R_OK)) TH_LOG("no %s", self->audit);
	snprintf(self->dump, sizeof(self->dump), "/tmp/unwind_user_dump_XXXXXX");
	fd = mkstemp(self->dump);
	ASSERT_LE(0, fd);
	close(fd);
}

FIXTURE_TEARDOWN_PARENT(dso)
{
	unlink(self->dump);
	if (self->libdir[0]) {
		unlink(self->lib1);
		unlink(self->lib2);
		rmdir(self->libdir);
	}
	if (self->discover_saved && ut_write_discover(self->discover_old))
		TH_LOG("cannot restore %s to %d", UNWIND_TABLES_DISCOVER_PATH,
		       self->discover_old);
	if (self->share_old >= 0 && ut_write_share(self->share_old))
		TH_LOG("cannot restore %s to %d", UNWIND_TABLES_SHARE_PATH, self->share_old);
}

/* kernel.unwind_tables_discover for the test: @on. */
static void discovery(struct __test_metadata *_metadata, struct _test_data_dso *self, int on)
{
	int old = ut_read_discover();

	ASSERT_LE(0, old) TH_LOG("cannot read %s", UNWIND_TABLES_DISCOVER_PATH);
	if (!self->discover_saved) {
		self->discover_old = old;
		self->discover_saved = true;
	}
	ASSERT_EQ(0, ut_write_discover(on));
}

/* kernel.unwind_tables_share for the test: @on. */
static void sharing(struct __test_metadata *_metadata, struct _test_data_dso *self, int on)
{
	int old = ut_read_share();

	ASSERT_LE(0, old) TH_LOG("cannot read %s", UNWIND_TABLES_SHARE_PATH);
	if (self->share_old < 0)
		self->share_old = old;
	ASSERT_EQ(0, ut_write_share(on));
}

/* Profile @argv with cpu-clock samples, under LD_AUDIT=@audit (NULL: none). */
static void run(struct __test_metadata *_metadata, struct chain_capture *cap,
		char *const argv[], const char *audit)
{
	struct perf_event_attr attr;
	int ret;

	/* The child inherits the environment; the harness forked this test off. */
	ASSERT_EQ(0, audit ? setenv("LD_AUDIT", audit, 1) : unsetenv("LD_AUDIT"));
	chain_attr_cpu_clock(&attr, 1000000);
	ret = chain_run(cap, &attr, argv, false);
	unsetenv("LD_AUDIT");
	ASSERT_EQ(0, ret) TH_LOG("cannot profile %s: %s", argv[0], strerror(-ret));
	ASSERT_EQ(0, cap->exit_status)
		TH_LOG("%s exited with status %#x", argv[0], cap->exit_status);
}

/*
 * main -> a -> qsort -> (libc) -> cmp: every sample in cmp reads cmp,
 * libc's sort, a, main, libc's start code, _start.
 */
static void check_qsort(struct __test_metadata *_metadata, struct _test_data_dso *self,
			const char *audit)
{
	static const char * const path[] = {
		"cmp", "<libc>+", "a", "main", "<libc>+", "_start",
	};
	char *argv[] = { self->prog, "qsort", SPIN_MS, NULL };
	unsigned int in_cmp = 0, good = 0, bad = 0;

	run(_metadata, &self->cap, argv, audit);
	for (unsigned int i = 0; i < self->cap.nr_samples; i++) {
		const struct chain_sample *s = &self->cap.samples[i];

		if (!sample_in(&self->dsos, &self->cap, s, "cmp"))
			continue;
		in_cmp++;
		/* Anything the unwinder finds beyond _start is not checked. */
		if (chain_is(&self->dsos, &self->cap, s, path, 6, true)) {
			good++;
			if (good == 1) {
				format_chain(&self->dsos, &self->cap, s, self->chain,
					     sizeof(self->chain));
				ksft_print_msg("a chain from cmp:%s\n", self->chain);
			}
		} else if (bad++ < 5) {
			format_chain(&self->dsos, &self->cap, s, self->chain, sizeof(self->chain));
			TH_LOG("chain of %u frames%s:%s", s->nr,
			       s->resolved ? "" : " (never delivered)", self->chain);
		}
	}
	ksft_print_msg("%u samples, %u in cmp, %u with cmp <libc> a main <libc> _start\n",
		       self->cap.nr_samples, in_cmp, good);
	EXPECT_LE(MIN_SAMPLES, in_cmp);
	EXPECT_EQ(in_cmp, good);
}

/* With the audit module, which registers every object, and discovery off. */
TEST_F(dso, qsort)
{
	discovery(_metadata, self, 0);
	check_qsort(_metadata, self, self->audit);
}

/*
 * The same without the audit module, and nothing found: no table at all.
 * The program and libc (Debian's) keep no frame pointers, so the walk
 * cannot get from cmp through libc back to a and main: it stops, or
 * strays.  If these chains reached a, the other two would not show that
 * the tables are what does it.
 */
TEST_F(dso, qsort_no_audit)
{
	char *argv[] = { self->prog, "qsort", SPIN_MS, NULL };
	unsigned int in_cmp = 0, to_a = 0;

	discovery(_metadata, self, 0);
	run(_metadata, &self->cap, argv, NULL);
	for (unsigned int i = 0; i < self->cap.nr_samples; i++) {
		const struct chain_sample *s = &self->cap.samples[i];

		if (!sample_in(&self->dsos, &self->cap, s, "cmp"))
			continue;
		in_cmp++;
		if ((chain_has(&self->dsos, &self->cap, s, "a") ||
		     chain_has(&self->dsos, &self->cap, s, "main")) && to_a++ < 3) {
			format_chain(&self->dsos, &self->cap, s, self->chain, sizeof(self->chain));
			TH_LOG("got past libc without a table:%s", self->chain);
		}
	}
	ksft_print_msg("%u samples, %u in cmp, %u reached a or main\n",
		       self->cap.nr_samples, in_cmp, to_a);
	EXPECT_LE(MIN_SAMPLES, in_cmp);
	EXPECT_EQ(0U, to_a);
}

/* Without the audit module, discovery on (the default): the kernel finds them all. */
TEST_F(dso, qsort_discover)
{
	discovery(_metadata, self, 1);
	check_qsort(_metadata, self, NULL);
}

/* One "== open|close PATH ..." section of the workload's dump. */
struct dump_section {
	char what[8];
	bool mapped;
	unsigned long long base, text_start, text_end, hdr, hdr_size;
	char *tables;		/* the lines that follow, up to the next section */
};

static unsigned int parse_dump(const char *buf, struct dump_section *sec, unsigned int max)
{
	unsigned int n = 0;
	const char *p = strstr(buf, "== ");

	while (p && n < max) {
		const char *body = strchr(p, '\n'), *next;

		memset(&sec[n], 0, sizeof(sec[n]));
		sec[n].mapped = sscanf(p, "== %7s %*s base %llx text %llx-%llx hdr %llx %llu",
				       sec[n].what, &sec[n].base, &sec[n].text_start,
				       &sec[n].text_end, &sec[n].hdr, &sec[n].hdr_size) == 6;
		if (!sec[n].mapped && sscanf(p, "== %7s", sec[n].what) != 1)
			break;
		body = body ? body + 1 : p + strlen(p);
		next = strstr(body, "== ");
		while (next && next != body && next[-1] != '\n')
			next = strstr(next + 1, "== ");
		sec[n].tables = strndup(body, next ? (size_t)(next - body) : strlen(body));
		p = next;
		n++;
	}
	return n;
}

static void free_dump(struct dump_section *sec, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		free(sec[i].tables);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc(len + 1);
	if (buf && fread(buf, 1, len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[len] = '\0';
	fclose(f);
	return buf;
}

/*
 * Is @sec's library listed (some line over its text)?  Then it must be
 * with its own table, made by @origin (NULL: whoever).
 */
static bool lib_listed(struct __test_metadata *_metadata, const struct dump_section *sec,
		       const char *origin)
{
	struct ut_line l;

	if (!ut_find_origin(sec->tables, NULL, sec->text_start, sec->text_end, &l))
		return false;
	EXPECT_EQ(sec->hdr, l.hdr)
		TH_LOG("%llx-%llx is listed with the table at %llx, not %llx",
		       (unsigned long long)l.start, (unsigned long long)l.end,
		       (unsigned long long)l.hdr, sec->hdr);
	if (origin)
		EXPECT_STREQ(origin, l.origin)
			TH_LOG("%llx-%llx: %s, not %s", (unsigned long long)l.start,
			       (unsigned long long)l.end, l.origin, origin);
	return true;
}

/*
 * The statistics line of the kernel's frame cache in @tables: false if there
 * is none (no frame was found in a table yet).
 */
static bool cache_stats(const char *tables, unsigned long *rows, unsigned long *hits,
			unsigned long *misses)
{
	const char *line = strstr(tables, "cache ");
	unsigned long bytes;

	while (line && line != tables && line[-1] != '\n')
		line = strstr(line + 1, "cache ");
	return line && sscanf(line, "cache %lu rows %lu bytes %lu hits %lu misses",
			      rows, &bytes, hits, misses) == 4;
}

/* Does the line over @sec's library say its frames may be shared? */
static bool lib_shares(const struct dump_section *sec)
{
	const char *line = ut_find_origin(sec->tables, NULL, sec->text_start, sec->text_end,
					  NULL);
	const char *shared = line ? strstr(line, " shared") : NULL;

	return shared && shared < line + strcspn(line, "\n");
}

/*
 * The hits and misses of the cache that processes share (debugfs
 * unwind_user/shared), counted for all of them: false if it cannot be read.
 */
static bool shared_stats(long long *hits, long long *misses)
{
	char line[64];
	bool h = false, m = false;
	FILE *f;

	if (access(SHARED_STATS, R_OK))
		mount("none", "/sys/kernel/debug", "debugfs", 0, NULL);
	f = fopen(SHARED_STATS, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		h |= sscanf(line, "hits %lld", hits) == 1;
		m |= sscanf(line, "misses %lld", misses) == 1;
	}
	fclose(f);
	return h && m;
}

/*
 * main -> call_lib -> lib_a -> lib_b -> cb_spin, then, after dlclose, the
 * second library where the first was: main -> call_lib -> lib2_y -> lib2_x
 * -> cb_spin.  Every sample in cb_spin must show the whole path of the
 * library that was mapped when it was taken, and the tables must follow
 * the libraries: with @audit, its registrations; else what the kernel
 * finds, which it finds only when a walk needs it and drops with the
 * library's text.  @shared: the frames of the libraries' tables (mapped
 * from their files) go to the cache that processes share, else to the
 * process's own.
 */
static void check_dlopen(struct __test_metadata *_metadata, struct _test_data_dso *self,
			 const char *audit, bool shared)
{
	static const char * const path1[] = { "cb_spin", "lib_b", "lib_a", "call_lib", "main" };
	static const char * const path2[] = { "cb_spin", "lib2_x", "lib2_y", "call_lib", "main" };
	char *argv[] = { self->prog, "dlopen", SPIN_MS, self->lib1, self->lib2, self->dump, NULL };
	unsigned int in_cb = 0, good1 = 0, good2 = 0, bad = 0;
	long long shits0 = 0, smisses0 = 0, shits1 = 0, smisses1 = 0;
	unsigned long rows, hits, misses;
	struct dump_section sec[3];
	char *dump;

	ASSERT_TRUE(shared_stats(&shits0, &smisses0)) TH_LOG("no %s", SHARED_STATS);
	run(_metadata, &self->cap, argv, audit);
	ASSERT_TRUE(shared_stats(&shits1, &smisses1)) TH_LOG("no %s", SHARED_STATS);

	dump = read_file(self->dump);
	ASSERT_NE(NULL, dump);
	ut_print_lines("the workload's view of its tables:", dump);
	ASSERT_EQ(3U, parse_dump(dump, sec, 3)) TH_LOG("not 3 sections in the dump");
	ASSERT_TRUE(sec[0].mapped && sec[2].mapped);
	EXPECT_STREQ("close", sec[1].what);
	EXPECT_FALSE(sec[1].mapped) TH_LOG("%s still mapped after dlclose", LIB1_NAME);
	if (audit) {
		EXPECT_TRUE(lib_listed(_metadata, &sec[0], "prctl"))
			TH_LOG("%s not registered after dlopen", LIB1_NAME);
		EXPECT_TRUE(lib_listed(_metadata, &sec[2], "prctl"))
			TH_LOG("%s not registered after dlopen", LIB2_NAME);
		/* Tables mapped from their files, so whether or not sharing is on. */
		EXPECT_TRUE(lib_shares(&sec[0]))
			TH_LOG("%s's registration does not share its frames", LIB1_NAME);
		EXPECT_TRUE(lib_shares(&sec[2]))
			TH_LOG("%s's registration does not share its frames", LIB2_NAME);
	} else {
		/*
		 * dlopen() runs the library's constructors, where a sample may
		 * have found its table already: then it is the library's own.
		 */
		lib_listed(_metadata, &sec[0], "discovered");
		lib_listed(_metadata, &sec[2], "discovered");
	}
	EXPECT_EQ(NULL, ut_find_overlap(sec[1].tables, sec[0].text_start, sec[0].text_end,
					NULL, NULL, NULL))
		TH_LOG("%s's text still listed after dlclose", LIB1_NAME);
	/*
	 * Sampled for 500 ms by then: the frames came from a cache, which
	 * has one row per distinct pc (a few here), not one per sample: the
	 * one processes share (counted for the whole run), whoever made the
	 * entries; with sharing off, the process's own.
	 */
	if (!shared) {
		ASSERT_TRUE(cache_stats(sec[1].tables, &rows, &hits, &misses))
			TH_LOG("no cache line after %s's samples:\n%s", LIB1_NAME,
			       sec[1].tables);
		ksft_print_msg("frame cache after %s: %lu rows, %lu hits, %lu misses\n",
			       LIB1_NAME, rows, hits, misses);
		EXPECT_LT(misses, hits);
	} else {
		ksft_print_msg("shared frame cache over the run: %lld hits, %lld misses\n",
			       shits1 - shits0, smisses1 - smisses0);
		EXPECT_LT(smisses1 - smisses0, shits1 - shits0);
	}
	/* The point of the test: the second library reuses the first's addresses. */
	ASSERT_EQ(sec[0].base, sec[2].base)
		TH_LOG("%s loaded at %llx, %s at %llx: not at the same address",
		       LIB1_NAME, sec[0].base, LIB2_NAME, sec[2].base);

	for (unsigned int i = 0; i < self->cap.nr_samples; i++) {
		const struct chain_sample *s = &self->cap.samples[i];

		if (!sample_in(&self->dsos, &self->cap, s, "cb_spin"))
			continue;
		in_cb++;
		if (chain_is(&self->dsos, &self->cap, s, path1, 5, true)) {
			good1++;
		} else if (chain_is(&self->dsos, &self->cap, s, path2, 5, true)) {
			good2++;
		} else if (bad++ < 5) {
			format_chain(&self->dsos, &self->cap, s, self->chain, sizeof(self->chain));
			TH_LOG("chain of %u frames%s:%s", s->nr,
			       s->resolved ? "" : " (never delivered)", self->chain);
		}
	}
	ksft_print_msg("%u samples, %u in cb_spin: %u with %s's path, %u with %s's\n",
		       self->cap.nr_samples, in_cb, good1, LIB1_NAME, good2, LIB2_NAME);
	EXPECT_LE(MIN_SAMPLES, good1);
	EXPECT_LE(MIN_SAMPLES, good2);
	EXPECT_EQ(in_cb, good1 + good2);
	free_dump(sec, 3);
	free(dump);
}

/* With the audit module, and discovery off. */
TEST_F(dso, dlopen)
{
	discovery(_metadata, self, 0);
	check_dlopen(_metadata, self, self->audit, true);
}

/* The same, each process keeping the frames it decodes. */
TEST_F(dso, dlopen_unshared)
{
	discovery(_metadata, self, 0);
	sharing(_metadata, self, 0);
	check_dlopen(_metadata, self, self->audit, false);
}

/*
 * Without either: nothing lists the libraries, whose frames have no frame
 * pointers, so no chain from cb_spin gets through them.
 */
TEST_F(dso, dlopen_no_audit)
{
	char *argv[] = { self->prog, "dlopen", SPIN_MS, self->lib1, self->lib2, self->dump, NULL };
	unsigned int in_cb = 0, through = 0;
	struct dump_section sec[3];
	char *dump;

	discovery(_metadata, self, 0);
	run(_metadata, &self->cap, argv, NULL);
	dump = read_file(self->dump);
	ASSERT_NE(NULL, dump);
	ASSERT_EQ(3U, parse_dump(dump, sec, 3)) TH_LOG("not 3 sections in:\n%s", dump);
	ASSERT_TRUE(sec[0].mapped);
	/* Exec registers nothing: with neither, nothing at all. */
	for (unsigned int i = 0; i < 3; i++)
		EXPECT_STREQ("", sec[i].tables)
			TH_LOG("listed without the audit module nor discovery:\n%s", dump);

	for (unsigned int i = 0; i < self->cap.nr_samples; i++) {
		const struct chain_sample *s = &self->cap.samples[i];

		if (!sample_in(&self->dsos, &self->cap, s, "cb_spin"))
			continue;
		in_cb++;
		if (chain_has(&self->dsos, &self->cap, s, "call_lib") && through++ < 3) {
			format_chain(&self->dsos, &self->cap, s, self->chain, sizeof(self->chain));
			TH_LOG("got through without the libraries' tables:%s", self->chain);
		}
	}
	ksft_print_msg("%u samples, %u in cb_spin, %u reached call_lib\n",
		       self->cap.nr_samples, in_cb, through);
	EXPECT_LE(2 * MIN_SAMPLES, in_cb);
	EXPECT_EQ(0U, through);
	free_dump(sec, 3);
	free(dump);
}

/* Without the audit module, discovery on (the default). */
TEST_F(dso, dlopen_discover)
{
	discovery(_metadata, self, 1);
	check_dlopen(_metadata, self, NULL, true);
}

/*
 * Frame-pointer builds of the program and the library; the program
 * registers the library's table, then makes it unreadable (PROT_NONE) while
 * cb_spin spins.  Every lookup in the library then faults: the walk must
 * unwind those frames with frame pointers and go on, not stop at the first
 * library frame with the table it cannot read.
 */
TEST_F(dso, table_unreadable)
{
	static const char * const path[] = { "cb_spin", "lib_b", "lib_a", "call_lib", "main" };
	char prog[PATH_MAX], lib[PATH_MAX];
	char *argv[] = { prog, "unreadable", SPIN_MS, lib, NULL };
	unsigned int in_cb = 0, good = 0, bad = 0;

	prog_path(prog, sizeof(prog), "dso_workload-fp");
	prog_path(lib, sizeof(lib), "libunwind_cb_fp.so");
	run(_metadata, &self->cap, argv, NULL);
	for (unsigned int i = 0; i < self->cap.nr_samples; i++) {
		const struct chain_sample *s = &self->cap.samples[i];

		if (!sample_in(&self->dsos, &self->cap, s, "cb_spin"))
			continue;
		in_cb++;
		if (chain_is(&self->dsos, &self->cap, s, path, 5, true)) {
			good++;
		} else if (bad++ < 5) {
			format_chain(&self->dsos, &self->cap, s, self->chain, sizeof(self->chain));
			TH_LOG("chain of %u frames%s:%s", s->nr,
			       s->resolved ? "" : " (never delivered)", self->chain);
		}
	}
	ksft_print_msg("%u samples, %u in cb_spin, %u with cb_spin lib_b lib_a call_lib main\n",
		       self->cap.nr_samples, in_cb, good);
	EXPECT_LE(MIN_SAMPLES, in_cb);
	EXPECT_EQ(in_cb, good);
}

TEST_HARNESS_MAIN
