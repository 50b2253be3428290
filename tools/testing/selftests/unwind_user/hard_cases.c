// SPDX-License-Identifier: GPL-2.0
/*
 * Deferred user callchains through the frames that simple CFA rules do not
 * describe, checked against known call paths:
 *
 *   - drap: stack realignment with a DRAP register, whose CFA is a DWARF
 *     expression (DW_CFA_def_cfa_expression: *(%rbp - 8)) and whose %rbp is
 *     saved by DW_CFA_expression; as a caller frame (cpu-clock samples in
 *     the function it calls) and as the topmost one (a uprobe in its body).
 *     Its caller's CFA is %rsp-based (a frame-pointer walk of the DRAP
 *     frame, which GCC makes look like one, would get it wrong) and the
 *     next one's %rbp-based (%rbp must come back through the expression);
 *   - plt: a lazily bound call through the PLT, whose entries share one CFA
 *     expression (DW_OP_breg16 (rip) ... DW_OP_lit15; DW_OP_and ...):
 *     uprobes on each instruction of the entry and of PLT0, classic .plt
 *     and IBT's .plt + .plt.sec;
 *   - signal: samples in signal handlers, through glibc's __restore_rt
 *     (an 'S' CIE whose rules read the ucontext) into the interrupted
 *     function, looked up at its interrupted ip: nested handlers, handlers
 *     on a sigaltstack below and above the interrupted frames, and a timer
 *     interrupting a loop right at a change of CFA rule; run under the
 *     audit module that registers libc (whose table the kernel would
 *     find by itself too);
 *   - uretprobe: samples under functions whose return address a uretprobe
 *     replaced with the [uprobes] trampoline;
 *   - null_call: a call through a NULL pointer, sampled on its page fault:
 *     from the topmost ip 0, where nothing is mapped, to main;
 *   - m32: an x86-32 (compat) program: its .eh_frame is read with 4-byte
 *     words; through libc to _start with the audit module built -m32 (and
 *     discovery off: its registrations do it), and with the tables the
 *     kernel finds in the 32-bit objects.
 *
 * Each program's CFI is checked at build time (hard_check.sh).  Every frame
 * is named from the symbol table of the file its mapping (PERF_RECORD_MMAP2)
 * names, never with the unwinder's help.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elf.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elf_syms.h"
#include "perf_chain.h"
#include "unwind_table.h"
#include "../kselftest_harness.h"

#define AUDIT_NAME	"unwind_user_audit.so"
#define AUDIT32_NAME	"unwind_user_audit32.so"
#define MIN_SAMPLES	30U
#define NR_CALLS	20U

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

static bool is_libc(const char *file)
{
	return !strncmp(file, "libc.so", 7) || !strncmp(file, "libc-", 5);
}

/* The first 32-bit word of section @name of @path, or -1. */
static int64_t section_word(const char *path, const char *name)
{
	int64_t off, size;
	int32_t word;
	int fd;

	if (elf_section(path, name, &off, &size) || size < 4)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (pread(fd, &word, 4, off) != 4)
		word = -1;
	close(fd);
	return word;
}

/* @len bytes at file offset @off of @path: 0, or -1. */
static int read_at(const char *path, int64_t off, void *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret = -1;

	if (fd < 0)
		return -1;
	if (pread(fd, buf, len, off) == (ssize_t)len)
		ret = 0;
	close(fd);
	return ret;
}

/* What a test knows of the program it profiles. */
struct prog {
	char path[PATH_MAX];
	struct elf_syms syms;
	/* its .plt and .plt.sec, as file offsets ([start, end); 0, 0: none) */
	int64_t plt[2][2];
};

static int prog_load(struct prog *p, const char *name)
{
	const char * const secs[] = { ".plt", ".plt.sec" };

	prog_path(p->path, sizeof(p->path), name);
	for (int i = 0; i < 2; i++) {
		int64_t off, size;

		if (!elf_section(p->path, secs[i], &off, &size)) {
			p->plt[i][0] = off;
			p->plt[i][1] = off + size;
		}
	}
	return elf_syms_load(&p->syms, p->path);
}

/* One frame of a chain, named from the file mapped at its address. */
struct frame {
	uint64_t ip;
	const char *file;	/* basename of the mapped file; NULL: nothing mapped */
	const char *name;	/* the function; "<plt>" in the program's PLT; NULL: none */
	bool libc;
	int64_t vaddr;		/* in the program: its ELF address; else -1 */
};

/*
 * Frame @i of @s.  A return address is looked up one byte back, inside the
 * call; the topmost ip and an ip a signal interrupted (@as_is) are not.
 */
static void get_frame(struct elf_dsos *ds, const struct prog *p,
		      const struct chain_capture *cap, const struct chain_sample *s,
		      unsigned int i, bool as_is, struct frame *f)
{
	uint64_t ip = (i < s->nr ? s->ips[i] : s->ip) - (as_is ? 0 : 1);
	const struct chain_mmap *m = chain_find_map_at(cap, s, ip);
	const struct elf_sym *sym;
	uint64_t off;

	memset(f, 0, sizeof(*f));
	f->ip = ip + (as_is ? 0 : 1);
	f->vaddr = -1;
	if (!m)
		return;
	off = ip - m->start + m->pgoff;
	f->file = base_name(m->path);
	f->libc = is_libc(f->file);
	if (!strcmp(m->path, p->path)) {
		f->vaddr = elf_offset_to_vaddr(&p->syms, off);
		for (int k = 0; k < 2; k++) {
			if ((int64_t)off >= p->plt[k][0] && (int64_t)off < p->plt[k][1]) {
				f->name = "<plt>";
				return;
			}
		}
	}
	sym = elf_dsos_lookup(ds, m->path, off);
	f->name = sym ? sym->name : NULL;
}

/* The frame the sample was taken in: its own ip. */
static void top_frame(struct elf_dsos *ds, const struct prog *p,
		      const struct chain_capture *cap, const struct chain_sample *s,
		      struct frame *f)
{
	get_frame(ds, p, cap, s, UINT_MAX, true, f);
}

/* Is a pattern element a signal frame, after which the ip is taken as is? */
static bool is_sigframe(const char *pat)
{
	return !strcmp(pat, "<sigreturn>");
}

/* The chain, for the log: name[file]+offset per frame. */
static void format_chain(struct elf_dsos *ds, const struct prog *p,
			 const struct chain_capture *cap, const struct chain_sample *s,
			 char *buf, size_t size)
{
	size_t len = 0;

	len += snprintf(buf, size, "%u frames%s:", s->nr,
			s->resolved ? "" : " (never delivered)");
	for (unsigned int i = 0; i < s->nr && len < size; i++) {
		struct frame f;

		if (i == 24) {
			snprintf(buf + len, size - len, " ...");
			break;
		}
		/* Name both ways: a signal-interrupted ip is taken as it is. */
		get_frame(ds, p, cap, s, i, !i, &f);
		len += snprintf(buf + len, size - len, " %s[%s]@%#llx", f.name ?: "?",
				f.file ?: "?", (unsigned long long)f.ip);
	}
}

/*
 * Does @s's chain match @pat?  Each element names a function of a file
 * other than libc, or is one of
 *	"<plt>"		a frame in the program's .plt or .plt.sec;
 *	"<sigreturn>"	exactly one frame in libc, the signal trampoline; the
 *			next frame's ip is the interrupted one, taken as is;
 *	"<libc>+"	one or more frames in libc (its internal functions are
 *			not in its .dynsym);
 *	"$"		the end of the chain.
 * Without "$", frames after the pattern are not checked.  The frame matched
 * by @vaddr_at (an index in @pat, or -1) gives its ELF address in *@vaddr.
 */
static bool chain_is(struct elf_dsos *ds, const struct prog *p,
		     const struct chain_capture *cap, const struct chain_sample *s,
		     const char * const *pat, int vaddr_at, int64_t *vaddr)
{
	unsigned int i = 0;
	bool as_is = true;	/* the topmost frame */

	if (!s->resolved)
		return false;
	for (int k = 0; pat[k]; k++) {
		struct frame f;

		if (!strcmp(pat[k], "$"))
			return i == s->nr;
		if (i >= s->nr)
			return false;
		get_frame(ds, p, cap, s, i, as_is, &f);
		as_is = false;
		if (!strcmp(pat[k], "<libc>+")) {
			if (!f.libc)
				return false;
			do {
				if (++i >= s->nr)
					break;
				get_frame(ds, p, cap, s, i, false, &f);
			} while (f.libc);
			continue;
		}
		if (is_sigframe(pat[k])) {
			if (!f.libc)
				return false;
			as_is = true;
			i++;
			continue;
		}
		if (f.libc || !f.name || strcmp(f.name, pat[k]))
			return false;
		if (k == vaddr_at && vaddr)
			*vaddr = f.vaddr;
		i++;
	}
	return true;
}

/* What a profile found: samples in the top function, and how many matched. */
struct tally {
	unsigned int samples, in_top, good;
};

/* Each test's: the program, the audit module, the profile and its symbols. */
struct hc {
	struct prog prog;
	char audit[PATH_MAX];
	struct chain_capture cap;
	struct elf_dsos dsos;
	struct tally t;
};

static void hc_free(struct hc *h)
{
	chain_free(&h->cap);
	elf_dsos_free(&h->dsos);
	elf_syms_free(&h->prog.syms);
}

/*
 * Check every sample of @h's profile taken in @pat[0] (its own ip) against
 * @pat, counting in @h->t; log the first chains that do not match, and one
 * that does.
 */
static void check_chains(struct __test_metadata *_metadata, struct hc *h,
			 const char * const *pat)
{
	const struct chain_capture *cap = &h->cap;
	const struct prog *p = &h->prog;
	struct elf_dsos *ds = &h->dsos;
	struct tally *t = &h->t;
	unsigned int bad = 0;
	char buf[4096];

	memset(t, 0, sizeof(*t));
	t->samples = cap->nr_samples;
	for (unsigned int i = 0; i < cap->nr_samples; i++) {
		const struct chain_sample *s = &cap->samples[i];
		struct frame f;

		top_frame(ds, p, cap, s, &f);
		if (f.libc || !f.name || strcmp(f.name, pat[0]))
			continue;
		t->in_top++;
		if (chain_is(ds, p, cap, s, pat, -1, NULL)) {
			if (!t->good++) {
				format_chain(ds, p, cap, s, buf, sizeof(buf));
				ksft_print_msg("a chain from %s: %s\n", pat[0], buf);
			}
		} else if (bad++ < 4) {
			format_chain(ds, p, cap, s, buf, sizeof(buf));
			TH_LOG("wrong chain from %s: %s", pat[0], buf);
		}
	}
	buf[0] = '\0';
	for (int k = 0; pat[k]; k++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %s", pat[k]);
	ksft_print_msg("%u samples, %u in %s, %u with the path%s\n", t->samples, t->in_top,
		       pat[0], t->good, buf);
	if (t->good < t->in_top)
		snprintf(_metadata->results->reason, sizeof(_metadata->results->reason),
			 "%u of %u chains from %s wrong", t->in_top - t->good, t->in_top,
			 pat[0]);
}

/*
 * Profile @argv with @attr (and counting events @extra), under
 * LD_AUDIT=@audit (NULL: none).
 */
static void profile(struct __test_metadata *_metadata, struct chain_capture *cap,
		    struct perf_event_attr *attr, char *const argv[], const char *audit,
		    struct perf_event_attr *extra, unsigned int nr_extra, uint64_t *counts)
{
	int ret;

	/* The child inherits the environment; the harness forked this test off. */
	ASSERT_EQ(0, audit ? setenv("LD_AUDIT", audit, 1) : unsetenv("LD_AUDIT"));
	ASSERT_EQ(0, unsetenv("LD_BIND_NOW"));
	ret = chain_run_extra(cap, attr, argv, false, extra, nr_extra, counts);
	unsetenv("LD_AUDIT");
	ASSERT_EQ(0, ret) TH_LOG("cannot run %s under perf: %s", argv[0], strerror(-ret));
	ASSERT_EQ(0, cap->exit_status)
		TH_LOG("%s exited with status %#x", argv[0], cap->exit_status);
}

/* A uprobe at @off bytes into function @fn of @p. */
static void uprobe_attr(struct __test_metadata *_metadata, const struct prog *p,
			const char *fn, int64_t off, struct perf_event_attr *attr)
{
	const struct elf_sym *sym;
	int64_t offset;

	sym = elf_syms_find(&p->syms, fn);
	ASSERT_NE(NULL, sym) TH_LOG("no %s in %s", fn, p->path);
	ASSERT_LE(0, off);
	offset = elf_vaddr_to_offset(&p->syms, sym->addr + off);
	ASSERT_LE(0, offset);
	ASSERT_EQ(0, chain_attr_uprobe(attr, p->path, offset))
		TH_LOG("no uprobe PMU (CONFIG_UPROBES)");
}

/* drap ------------------------------------------------------------------ */

FIXTURE(drap) {
	struct hc h;
};

FIXTURE_SETUP(drap)
{
	ASSERT_EQ(0, prog_load(&self->h.prog, "hard_workload"))
		TH_LOG("cannot read the symbols of %s", self->h.prog.path);
}

FIXTURE_TEARDOWN(drap)
{
	hc_free(&self->h);
}

/* drap_fn is a caller frame: cpu-clock samples in drap_leaf, which it calls. */
TEST_F(drap, cpu_clock)
{
	static const char * const path[] = {
		"drap_leaf", "drap_fn", "drap_mid", "c", "b", "a", "main", NULL,
	};
	struct hc *h = &self->h;
	char *argv[] = { h->prog.path, "drap", "spin", "500", NULL };
	struct perf_event_attr attr;

	chain_attr_cpu_clock(&attr, 1000000);
	profile(_metadata, &h->cap, &attr, argv, NULL, NULL, 0, NULL);
	check_chains(_metadata, h, path);
	EXPECT_LE(MIN_SAMPLES, h->t.in_top);
	EXPECT_EQ(h->t.in_top, h->t.good);
}

static void drap_uprobe(struct __test_metadata *_metadata, struct hc *h, int64_t off)
{
	static const char * const path[] = {
		"drap_fn", "drap_mid", "c", "b", "a", "main", NULL,
	};
	char *argv[] = { h->prog.path, "drap", "calls", "20", NULL };
	struct perf_event_attr attr;

	uprobe_attr(_metadata, &h->prog, "drap_fn", off, &attr);
	profile(_metadata, &h->cap, &attr, argv, NULL, NULL, 0, NULL);
	ASSERT_EQ(NR_CALLS, h->cap.nr_samples);
	check_chains(_metadata, h, path);
	EXPECT_EQ(NR_CALLS, h->t.in_top);
	EXPECT_EQ(NR_CALLS, h->t.good);
}

/*
 * drap_fn is the topmost frame, past its prologue: its CFA is the
 * expression (hard_check.sh checked that the probe point is under it).
 */
TEST_F(drap, uprobe_body)
{
	drap_uprobe(_metadata, &self->h, section_word(self->h.prog.path, ".probe_drap"));
}

/*
 * The topmost frame between the prologue's first instruction (lea
 * 0x8(%rsp),%r10) and the realignment: the CFA is %r10, a register only
 * the topmost frame knows.
 */
TEST_F(drap, uprobe_prologue)
{
	static const unsigned char lea[] = { 0x4c, 0x8d, 0x54, 0x24, 0x08 };
	struct hc *h = &self->h;
	const struct elf_sym *fn = elf_syms_find(&h->prog.syms, "drap_fn");
	unsigned char insn[sizeof(lea)];

	ASSERT_NE(NULL, fn);
	ASSERT_EQ(0, read_at(h->prog.path, elf_vaddr_to_offset(&h->prog.syms, fn->addr),
			     insn, sizeof(insn)));
	ASSERT_EQ(0, memcmp(insn, lea, sizeof(lea)))
		TH_LOG("drap_fn does not start with lea 0x8(%%rsp),%%r10");
	drap_uprobe(_metadata, h, sizeof(lea));
}

/* nx -------------------------------------------------------------------- */

/*
 * nx_leaf returns, as its table says, into nx_data, where no code is
 * mapped (hard_workload.c): the walk ends there, with that address, in the
 * program's .data, as its last entry.  A frame-pointer walk from there
 * would go on to c ... main through nx_mid's frame: frames made up.
 */
TEST(nx_return)
{
	struct hc h = {};
	char *argv[] = { h.prog.path, "nx", "20", NULL };
	struct perf_event_attr attr;
	const struct elf_sym *leaf;
	int64_t data_off, data_size;
	unsigned int i, two = 0;

	ASSERT_EQ(0, prog_load(&h.prog, "hard_workload"));
	leaf = elf_syms_find(&h.prog.syms, "nx_leaf");
	ASSERT_NE(NULL, leaf);
	ASSERT_EQ(0, elf_section(h.prog.path, ".data", &data_off, &data_size));
	uprobe_attr(_metadata, &h.prog, "nx_leaf", 0, &attr);
	profile(_metadata, &h.cap, &attr, argv, NULL, NULL, 0, NULL);
	ASSERT_EQ(NR_CALLS, h.cap.nr_samples);
	for (i = 0; i < h.cap.nr_samples; i++) {
		const struct chain_sample *s = &h.cap.samples[i];
		/* The load bias, from the probed pc: nx_leaf's first byte. */
		uint64_t bias = s->nr ? s->ips[0] - leaf->addr : 0;
		int64_t off = s->nr > 1 ? elf_vaddr_to_offset(&h.prog.syms, s->ips[1] - bias) : -1;
		bool ok = s->resolved && s->nr == 2 && off >= data_off &&
			  off < data_off + data_size;

		two += ok;
		if (!ok)
			TH_LOG("sample %u: %u entries, the second %#llx (at %lld, .data at %lld)",
			       i, s->nr, (unsigned long long)(s->nr > 1 ? s->ips[1] : 0),
			       (long long)off, (long long)data_off);
	}
	EXPECT_EQ(NR_CALLS, two);
	hc_free(&h);
}

/*
 * null_call calls through a NULL pointer (hard_workload.c): sampled on the
 * page fault, the topmost ip is 0, where nothing is mapped.  The call
 * pushed the return address and nothing else: the chain goes on from
 * there, through null_call, c, b, a to main, without frame pointers.
 */
TEST(null_call)
{
	struct hc h = {};
	char *argv[] = { h.prog.path, "null", "20", NULL };
	static const char *const path[] = { "null_call", "c", "b", "a", "main" };
	struct perf_event_attr attr;
	unsigned int i, at_null = 0, whole = 0;

	ASSERT_EQ(0, prog_load(&h.prog, "hard_workload"));
	chain_attr_cpu_clock(&attr, 1);
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	profile(_metadata, &h.cap, &attr, argv, NULL, NULL, 0, NULL);
	for (i = 0; i < h.cap.nr_samples; i++) {
		const struct chain_sample *s = &h.cap.samples[i];
		bool ok = s->resolved && s->nr > ARRAY_SIZE(path) && !s->ips[0];
		struct frame f;
		char chain[1024];

		if (s->ip)
			continue;
		at_null++;
		for (unsigned int k = 0; ok && k < ARRAY_SIZE(path); k++) {
			get_frame(&h.dsos, &h.prog, &h.cap, s, k + 1, false, &f);
			ok = f.name && !strcmp(f.name, path[k]);
		}
		whole += ok;
		if (!ok) {
			format_chain(&h.dsos, &h.prog, &h.cap, s, chain, sizeof(chain));
			TH_LOG("sample %u: %s", i, chain);
		}
	}
	ksft_print_msg("%u page faults at ip 0, %u chains through null_call to main\n",
		       at_null, whole);
	EXPECT_EQ(20U, at_null);
	EXPECT_EQ(at_null, whole);
	hc_free(&h);
}

/* plt ------------------------------------------------------------------- */

FIXTURE(plt) {
	struct hc h;
};

/*
 * A uprobe in the PLT: in @sec (".plt" or ".plt.sec"), in PLT0 (@plt0, in
 * .plt) or else in hard_lib_fn's entry (the only one); @off bytes into it,
 * where the instruction starts with @insn.
 */
FIXTURE_VARIANT(plt) {
	const char *prog;
	const char *sec;
	bool plt0;
	unsigned int off;
	unsigned char insn[4];
	unsigned int insn_len;
	unsigned int hits;	/* NR_CALLS: every call; 1: the lazy binding only */
};

/*
 * Classic .plt: jmp *GOT(%rip); push $index; jmp PLT0.  The first two are
 * single-stepped out of line: the walk starts at the probed address, under
 * the entries' CFA expression (rsp + 8 there).
 */
FIXTURE_VARIANT_ADD(plt, entry) {
	.prog = "hard_plt", .sec = ".plt", .off = 0,
	.insn = { 0xff, 0x25 }, .insn_len = 2, .hits = NR_CALLS,
};

FIXTURE_VARIANT_ADD(plt, entry_push) {
	.prog = "hard_plt", .sec = ".plt", .off = 6,
	.insn = { 0x68 }, .insn_len = 1, .hits = 1,
};

/*
 * The jump to PLT0 after the push: uprobes emulate a jmp rel32, so the walk
 * starts at PLT0 (CFA rsp + 16), not at the jump, where the expression's
 * other half (ip & 15 >= 11) would apply: only a sample that interrupts the
 * jump itself would get there.
 */
FIXTURE_VARIANT_ADD(plt, entry_jmp_plt0) {
	.prog = "hard_plt", .sec = ".plt", .off = 11,
	.insn = { 0xe9 }, .insn_len = 1, .hits = 1,
};

/* PLT0: push GOT+8(%rip); jmp *GOT+16(%rip), to the resolver */
FIXTURE_VARIANT_ADD(plt, plt0) {
	.prog = "hard_plt", .sec = ".plt", .plt0 = true, .off = 0,
	.insn = { 0xff, 0x35 }, .insn_len = 2, .hits = 1,
};

FIXTURE_VARIANT_ADD(plt, plt0_jmp) {
	.prog = "hard_plt", .sec = ".plt", .plt0 = true, .off = 6,
	.insn = { 0xff, 0x25 }, .insn_len = 2, .hits = 1,
};

/* IBT: .plt.sec: endbr64; jmp *GOT(%rip) */
FIXTURE_VARIANT_ADD(plt, ibt_sec) {
	.prog = "hard_plt_ibt", .sec = ".plt.sec", .off = 0,
	.insn = { 0xf3, 0x0f, 0x1e, 0xfa }, .insn_len = 4, .hits = NR_CALLS,
};

FIXTURE_VARIANT_ADD(plt, ibt_sec_jmp) {
	.prog = "hard_plt_ibt", .sec = ".plt.sec", .off = 4,
	.insn = { 0xff, 0x25 }, .insn_len = 2, .hits = NR_CALLS,
};

/* IBT: .plt: endbr64; push $index; jmp PLT0 (lit9 in the expression) */
FIXTURE_VARIANT_ADD(plt, ibt_entry) {
	.prog = "hard_plt_ibt", .sec = ".plt", .off = 0,
	.insn = { 0xf3, 0x0f, 0x1e, 0xfa }, .insn_len = 4, .hits = 1,
};

FIXTURE_VARIANT_ADD(plt, ibt_entry_push) {
	.prog = "hard_plt_ibt", .sec = ".plt", .off = 4,
	.insn = { 0x68 }, .insn_len = 1, .hits = 1,
};

FIXTURE_VARIANT_ADD(plt, ibt_entry_jmp_plt0) {
	.prog = "hard_plt_ibt", .sec = ".plt", .off = 9,
	.insn = { 0xe9 }, .insn_len = 1, .hits = 1,
};

FIXTURE_VARIANT_ADD(plt, ibt_plt0) {
	.prog = "hard_plt_ibt", .sec = ".plt", .plt0 = true, .off = 0,
	.insn = { 0xff, 0x35 }, .insn_len = 2, .hits = 1,
};

FIXTURE_SETUP(plt)
{
	ASSERT_EQ(0, prog_load(&self->h.prog, variant->prog))
		TH_LOG("cannot read the symbols of %s", self->h.prog.path);
}

FIXTURE_TEARDOWN(plt)
{
	hc_free(&self->h);
}

/*
 * Every hit must read <plt>, caller_fn, b, a, main: the PLT's CFA (rsp + 8
 * in the entry, + 16 after its push or in PLT0, + 24 after PLT0's push)
 * decides whether caller_fn is found.
 */
TEST_F(plt, uprobe)
{
	static const char * const path[] = { "<plt>", "caller_fn", "b", "a", "main", NULL };
	struct hc *h = &self->h;
	char *argv[] = { h->prog.path, "20", NULL };
	struct perf_event_attr attr;
	unsigned char insn[4];
	int64_t off, size;

	ASSERT_EQ(0, elf_section(h->prog.path, variant->sec, &off, &size))
		TH_LOG("%s has no %s", h->prog.path, variant->sec);
	/* .plt: PLT0, then hard_lib_fn's entry; .plt.sec: hard_lib_fn's (no PLT0) */
	if (!variant->plt0 && !strcmp(variant->sec, ".plt"))
		off += 16;
	ASSERT_GE(size, 16);
	off += variant->off;
	ASSERT_EQ(0, read_at(h->prog.path, off, insn, variant->insn_len));
	ASSERT_EQ(0, memcmp(insn, variant->insn, variant->insn_len))
		TH_LOG("%s+%#llx: not the expected instruction (%02x...)", h->prog.path,
		       (unsigned long long)off, insn[0]);
	ASSERT_EQ(0, chain_attr_uprobe(&attr, h->prog.path, off))
		TH_LOG("no uprobe PMU (CONFIG_UPROBES)");

	profile(_metadata, &h->cap, &attr, argv, NULL, NULL, 0, NULL);
	check_chains(_metadata, h, path);
	EXPECT_EQ(variant->hits, h->cap.nr_samples);
	EXPECT_EQ(variant->hits, h->t.in_top);
	EXPECT_EQ(variant->hits, h->t.good);
}

/* signal ---------------------------------------------------------------- */

FIXTURE(sig) {
	struct hc h;
};

FIXTURE_VARIANT(sig) {
	const char *args[3];
	const char * const *path;
	bool tight;		/* count the chains interrupted at d_tight's loop head */
};

#define SIG_TAIL	"sig_d", "c", "b", "a", "main", "<libc>+", "_start", "$", NULL

static const char * const sig_path[] = { "handler_spin", "<sigreturn>", SIG_TAIL };

/* sig_d sends itself SIGUSR1; the handler spins. */
FIXTURE_VARIANT_ADD(sig, signal) {
	.args = { "signal", "500" }, .path = sig_path,
};

/* SIGUSR1's handler sends SIGUSR2, whose handler spins: two signal frames. */
FIXTURE_VARIANT_ADD(sig, nested) {
	.args = { "nested", "500" },
	.path = (const char * const []){
		"handler_spin", "<sigreturn>", "handler_raise", "<sigreturn>", SIG_TAIL,
	},
};

/* The handler on an mmap()ed sigaltstack, below the stack it interrupted. */
FIXTURE_VARIANT_ADD(sig, altstack) {
	.args = { "altstack", "500" }, .path = sig_path,
};

/*
 * The handler on a sigaltstack in main's frame: the interrupted frames are
 * below the handler's, the stack "grows" across the signal frame.
 */
FIXTURE_VARIANT_ADD(sig, altstack_up) {
	.args = { "altstack_up", "500" }, .path = sig_path,
};

/*
 * A CPU-time timer interrupts d_tight's loop, 30 times; the interrupted ip
 * is often the loop head, the first byte of a row whose CFA differs from
 * the row before: one byte back would find the return address in the wrong
 * slot.
 */
FIXTURE_VARIANT_ADD(sig, timer) {
	.args = { "timer", "30", "10" },
	.path = (const char * const []){
		"handler_tick", "<sigreturn>", "d_tight", "c", "b", "a", "main", "<libc>+",
		"_start", "$", NULL,
	},
	.tight = true,
};

FIXTURE_SETUP(sig)
{
	ASSERT_EQ(0, prog_load(&self->h.prog, "hard_workload"))
		TH_LOG("cannot read the symbols of %s", self->h.prog.path);
	prog_path(self->h.audit, sizeof(self->h.audit), AUDIT_NAME);
	ASSERT_EQ(0, access(self->h.audit, R_OK)) TH_LOG("no %s", self->h.audit);
}

FIXTURE_TEARDOWN(sig)
{
	hc_free(&self->h);
}

/*
 * cpu-clock samples in the handler that spins must read it, one frame in
 * libc (__restore_rt), the interrupted function and its callers, main,
 * libc's start code and _start, where the walk ends.
 */
TEST_F(sig, cpu_clock)
{
	struct hc *h = &self->h;
	char *argv[] = { h->prog.path, (char *)variant->args[0], (char *)variant->args[1],
			 (char *)variant->args[2], NULL };
	const struct elf_sym *tight = elf_syms_find(&h->prog.syms, "d_tight");
	int64_t head = section_word(h->prog.path, ".probe_tight");
	unsigned int at_head = 0, in_loop = 0;
	struct perf_event_attr attr;

	ASSERT_NE(NULL, tight);
	ASSERT_LT(0, head);
	chain_attr_cpu_clock(&attr, 1000000);
	profile(_metadata, &h->cap, &attr, argv, h->audit, NULL, 0, NULL);
	check_chains(_metadata, h, variant->path);
	EXPECT_LE(MIN_SAMPLES, h->t.in_top);
	EXPECT_EQ(h->t.in_top, h->t.good);
	if (!variant->tight)
		return;

	/* Where the signals interrupted d_tight, among the good chains. */
	for (unsigned int i = 0; i < h->cap.nr_samples; i++) {
		int64_t vaddr = -1;

		if (!chain_is(&h->dsos, &h->prog, &h->cap, &h->cap.samples[i],
			      variant->path, 2, &vaddr))
			continue;
		in_loop++;
		at_head += vaddr == (int64_t)(tight->addr + head);
	}
	ksft_print_msg("%u of %u good chains interrupted d_tight at its loop head\n",
		       at_head, in_loop);
	/* Else the case this variant is about did not happen. */
	EXPECT_LT(0U, at_head);
}

/* uretprobe ------------------------------------------------------------- */

FIXTURE(uretprobe) {
	struct hc h;
};

FIXTURE_VARIANT(uretprobe) {
	const char *funcs[3];	/* the functions with a uretprobe */
	unsigned int nr;
};

FIXTURE_VARIANT_ADD(uretprobe, b) {
	.funcs = { "b" }, .nr = 1,
};

/* Three trampolines on the stack, each to be replaced by its own address. */
FIXTURE_VARIANT_ADD(uretprobe, abc) {
	.funcs = { "a", "b", "c" }, .nr = 3,
};

FIXTURE_SETUP(uretprobe)
{
	ASSERT_EQ(0, prog_load(&self->h.prog, "workload-nofp"))
		TH_LOG("cannot read the symbols of %s", self->h.prog.path);
}

FIXTURE_TEARDOWN(uretprobe)
{
	hc_free(&self->h);
}

/*
 * cpu-clock samples in d, while uretprobes on its callers have replaced
 * their return addresses with the [uprobes] trampoline: the chains must
 * read d, c, b, a, main with no frame in [uprobes].
 */
TEST_F(uretprobe, cpu_clock)
{
	static const char * const path[] = { "d", "c", "b", "a", "main", NULL };
	struct hc *h = &self->h;
	char *argv[] = { h->prog.path, "spin", "500", NULL };
	struct perf_event_attr attr, ret[3];
	const struct chain_mmap *tramp = NULL;
	uint64_t counts[3] = { 0 };
	unsigned int in_tramp = 0;
	char buf[4096];

	for (unsigned int i = 0; i < variant->nr; i++) {
		const struct elf_sym *fn = elf_syms_find(&h->prog.syms, variant->funcs[i]);

		ASSERT_NE(NULL, fn);
		ASSERT_EQ(0, chain_attr_uretprobe_count(&ret[i], h->prog.path,
							elf_vaddr_to_offset(&h->prog.syms,
									    fn->addr)))
			TH_LOG("no uprobe PMU with a retprobe format bit");
	}
	chain_attr_cpu_clock(&attr, 1000000);
	profile(_metadata, &h->cap, &attr, argv, NULL, ret, variant->nr, counts);
	for (unsigned int i = 0; i < variant->nr; i++) {
		EXPECT_EQ(1U, counts[i])
			TH_LOG("the uretprobe on %s fired %llu times", variant->funcs[i],
			       (unsigned long long)counts[i]);
	}

	check_chains(_metadata, h, path);
	EXPECT_LE(MIN_SAMPLES, h->t.in_top);
	EXPECT_EQ(h->t.in_top, h->t.good);

	/*
	 * The trampoline's page is mapped, and no chain has a caller's frame
	 * in it (a sample may fire while the trampoline itself runs, as b
	 * returns: its own ip, the first entry, may be there).
	 */
	for (unsigned int i = 0; i < h->cap.nr_maps; i++)
		if (!strcmp(h->cap.maps[i].path, "[uprobes]"))
			tramp = &h->cap.maps[i];
	ASSERT_NE(NULL, tramp) TH_LOG("no [uprobes] mapping recorded");
	for (unsigned int i = 0; i < h->cap.nr_samples; i++) {
		const struct chain_sample *s = &h->cap.samples[i];

		for (unsigned int k = 1; k < s->nr; k++) {
			if (s->ips[k] - tramp->start >= tramp->len)
				continue;
			if (in_tramp++ < 3) {
				format_chain(&h->dsos, &h->prog, &h->cap, s, buf,
					     sizeof(buf));
				TH_LOG("a frame in [uprobes]: %s", buf);
			}
			break;
		}
	}
	EXPECT_EQ(0U, in_tramp);
}

/*
 * uretprobes on lj_f and lj_g; lj_g longjmp()s back into lj_f, so its
 * return instance stays pending, below the stack that is live, while lj_f
 * calls lj_spin.  Samples there must read lj_spin, lj_f, c, b, a, main: the
 * trampoline in lj_f's slot is lj_f's instance, not the newer, stale one.
 */
TEST(uretprobe_longjmp)
{
	static const char * const path[] = {
		"lj_spin", "lj_f", "c", "b", "a", "main", NULL,
	};
	static const char * const funcs[] = { "lj_f", "lj_g" };
	struct hc h = { 0 };
	char *argv[] = { h.prog.path, "longjmp", "1000", NULL };
	struct perf_event_attr attr, ret[2];
	uint64_t counts[2] = { 0 };

	ASSERT_EQ(0, prog_load(&h.prog, "hard_workload"));
	for (unsigned int i = 0; i < 2; i++) {
		const struct elf_sym *fn = elf_syms_find(&h.prog.syms, funcs[i]);

		ASSERT_NE(NULL, fn);
		ASSERT_EQ(0, chain_attr_uretprobe_count(&ret[i], h.prog.path,
							elf_vaddr_to_offset(&h.prog.syms,
									    fn->addr)));
	}
	chain_attr_cpu_clock(&attr, 1000000);
	profile(_metadata, &h.cap, &attr, argv, NULL, ret, 2, counts);
	EXPECT_EQ(1U, counts[0]) TH_LOG("the uretprobe on lj_f fired %llu times",
					(unsigned long long)counts[0]);
	EXPECT_EQ(0U, counts[1]) TH_LOG("the uretprobe on lj_g fired %llu times",
					(unsigned long long)counts[1]);
	check_chains(_metadata, &h, path);
	EXPECT_LE(MIN_SAMPLES, h.t.in_top);
	EXPECT_EQ(h.t.in_top, h.t.good);
	hc_free(&h);
}

/* m32 ------------------------------------------------------------------- */

/*
 * The parent restores kernel.unwind_tables_discover, whatever became of
 * the test (what the child allocated goes with it).
 */
FIXTURE(m32) {
	struct hc h;
	bool discover_saved;
	int discover_old;
};

FIXTURE_SETUP(m32)
{
	ASSERT_EQ(0, prog_load(&self->h.prog, "workload-m32"))
		TH_LOG("cannot read the symbols of %s", self->h.prog.path);
	ASSERT_TRUE(self->h.prog.syms.elf32);
	prog_path(self->h.audit, sizeof(self->h.audit), AUDIT32_NAME);
	ASSERT_EQ(0, access(self->h.audit, R_OK)) TH_LOG("no %s", self->h.audit);
}

FIXTURE_TEARDOWN_PARENT(m32)
{
	if (self->discover_saved && ut_write_discover(self->discover_old))
		TH_LOG("cannot restore %s to %d", UNWIND_TABLES_DISCOVER_PATH,
		       self->discover_old);
}

/* kernel.unwind_tables_discover for the test: @on. */
static void m32_discovery(struct __test_metadata *_metadata, struct _test_data_m32 *self, int on)
{
	int old = ut_read_discover();

	ASSERT_LE(0, old) TH_LOG("cannot read %s", UNWIND_TABLES_DISCOVER_PATH);
	if (!self->discover_saved) {
		self->discover_old = old;
		self->discover_saved = true;
	}
	ASSERT_EQ(0, ut_write_discover(on));
}

static const char * const abcd[] = { "d", "c", "b", "a", "main", NULL };

/* cpu-clock samples in d: the program's own table, found at the first sample. */
TEST_F(m32, cpu_clock)
{
	struct hc *h = &self->h;
	char *argv[] = { h->prog.path, "spin", "500", NULL };
	struct perf_event_attr attr;

	chain_attr_cpu_clock(&attr, 1000000);
	profile(_metadata, &h->cap, &attr, argv, NULL, NULL, 0, NULL);
	check_chains(_metadata, h, abcd);
	EXPECT_LE(MIN_SAMPLES, h->t.in_top);
	EXPECT_EQ(h->t.in_top, h->t.good);
}

static void m32_uprobe(struct __test_metadata *_metadata, struct hc *h, int64_t off)
{
	char *argv[] = { h->prog.path, "calls", "20", NULL };
	struct perf_event_attr attr;

	uprobe_attr(_metadata, &h->prog, "d", off, &attr);
	profile(_metadata, &h->cap, &attr, argv, NULL, NULL, 0, NULL);
	ASSERT_EQ(NR_CALLS, h->cap.nr_samples);
	check_chains(_metadata, h, abcd);
	EXPECT_EQ(NR_CALLS, h->t.in_top);
	EXPECT_EQ(NR_CALLS, h->t.good);
}

/* A uprobe past d's prologue (workload.c's probe point). */
TEST_F(m32, uprobe_body)
{
	m32_uprobe(_metadata, &self->h, self->h.prog.syms.probe_offset);
}

/* A uprobe on d's first instruction: the CFA is %esp + 4. */
TEST_F(m32, uprobe_entry)
{
	m32_uprobe(_metadata, &self->h, 0);
}

/* Through libc to _start: with @audit; else with what the kernel finds. */
static void m32_through_libc(struct __test_metadata *_metadata, struct hc *h,
			     const char *audit)
{
	static const char * const path[] = {
		"d", "c", "b", "a", "main", "<libc>+", "_start", "$", NULL,
	};
	char *argv[] = { h->prog.path, "spin", "500", NULL };
	struct perf_event_attr attr;

	chain_attr_cpu_clock(&attr, 1000000);
	profile(_metadata, &h->cap, &attr, argv, audit, NULL, 0, NULL);
	check_chains(_metadata, h, path);
	EXPECT_LE(MIN_SAMPLES, h->t.in_top);
	EXPECT_EQ(h->t.in_top, h->t.good);
}

/* The 32-bit audit module registers every object: discovery off, it does it. */
TEST_F(m32, libc)
{
	m32_discovery(_metadata, self, 0);
	m32_through_libc(_metadata, &self->h, self->h.audit);
}

/* Without it, discovery on (the default): the kernel finds the 32-bit objects' tables. */
TEST_F(m32, libc_discover)
{
	m32_discovery(_metadata, self, 1);
	m32_through_libc(_metadata, &self->h, NULL);
}

TEST_HARNESS_MAIN
