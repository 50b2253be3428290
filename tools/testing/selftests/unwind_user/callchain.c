// SPDX-License-Identifier: GPL-2.0
/*
 * Deferred user callchains of a program with a known call path,
 * main -> a -> b -> c -> d (workload.c), checked against that path.
 *
 * The program is built with frame pointers (workload-fp), without them at
 * -O0, -O1, -O2, -O3 and -Os (workload-nofp, -O0, -O1, -O3, -Os), and in
 * C++ with exceptions (workload-cxx), and statically linked, which leaves
 * out .eh_frame_hdr (workload-static); other programs use threads, fork, exec
 * and a deep chain.  Samples come from a uprobe on d's entry and from the
 * cpu-clock software event; each sample's chain arrives in a
 * PERF_RECORD_CALLCHAIN_DEFERRED record and is symbolized with the program's
 * own symbol table, never with the unwinder's help.  A copy of a program
 * whose .eh_frame is garbage must still give partial chains.
 *
 * On arm64 the program is also built with its return addresses signed
 * (-mbranch-protection=pac-ret, pac-ret+leaf, pac-ret+b-key), with and
 * without frame pointers, and uretprobes on a, b, c and d replace theirs;
 * a signal handler's samples go through the vDSO's sigreturn trampoline.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elf_syms.h"
#include "perf_chain.h"
#include "../kselftest_harness.h"

/* The name of the function of @prog at run-time address @ip, or NULL. */
static const char *symbolize(const struct chain_capture *cap, const struct elf_syms *syms,
			     const char *prog, uint64_t ip)
{
	/* Any pid: forked children share the mappings of their parent. */
	const struct chain_mmap *m = chain_find_map(cap, 0, ip);
	const struct elf_sym *sym;
	int64_t vaddr;

	if (m && !strcmp(m->path, "[vdso]"))
		return "[vdso]";
	if (!m || strcmp(m->path, prog))
		return NULL;
	vaddr = elf_offset_to_vaddr(syms, ip - m->start + m->pgoff);
	if (vaddr < 0)
		return NULL;
	sym = elf_syms_lookup(syms, vaddr);
	return sym ? sym->name : NULL;
}

/*
 * Does @s's chain start with @expected?  Return addresses are looked up one
 * byte back, inside the call instruction, as perf does.
 */
static bool chain_matches(struct __test_metadata *_metadata,
			  const struct chain_capture *cap, const struct elf_syms *syms,
			  const char *prog, const struct chain_sample *s,
			  const char * const *expected, unsigned int nr_expected)
{
	bool ok = s->resolved && s->nr >= nr_expected;
	char got[1024] = "";

	for (unsigned int i = 0; i < s->nr && i < nr_expected + 2; i++) {
		uint64_t ip = s->ips[i] - (i ? 1 : 0);
		const char *name = symbolize(cap, syms, prog, ip);
		size_t len = strlen(got);

		if (i < nr_expected && (!name || strcmp(name, expected[i])))
			ok = false;
		if (i < 12 || i + 3 > nr_expected)
			snprintf(got + len, sizeof(got) - len, " %s@%#llx", name ?: "?",
				 (unsigned long long)s->ips[i]);
		else if (i == 12)
			snprintf(got + len, sizeof(got) - len, " ...");
	}
	if (!ok)
		TH_LOG("pid %u tid %u: chain of %u entries (%s):%s", s->pid, s->tid, s->nr,
		       s->resolved ? "deferred" : "never delivered", got);
	return ok;
}

/*
 * Check every sample that landed in @expected[0]: all must show the whole
 * path, and there must be at least @min of them.  Returns how many did.
 */
static unsigned int check_samples(struct __test_metadata *_metadata,
				  const struct chain_capture *cap, const struct elf_syms *syms,
				  const char *prog, const char * const *expected,
				  unsigned int nr_expected, unsigned int min)
{
	unsigned int in_top = 0, good = 0;

	for (unsigned int i = 0; i < cap->nr_samples; i++) {
		const struct chain_sample *s = &cap->samples[i];
		const char *name = symbolize(cap, syms, prog, s->ip);

		if (!name || strcmp(name, expected[0]))
			continue;
		in_top++;
		good += chain_matches(_metadata, cap, syms, prog, s, expected, nr_expected);
	}
	TH_LOG("%u samples, %u in %s, %u with the whole path of %u functions, %u deferred records",
	       cap->nr_samples, in_top, expected[0], good, nr_expected, cap->nr_deferred);
	/* Chains "never delivered" then say nothing of the unwinder. */
	if (cap->lost)
		TH_LOG("%llu records lost: the ring was too small", (unsigned long long)cap->lost);
	EXPECT_GE(in_top, min);
	EXPECT_EQ(in_top, good);
	/* Say why in the TAP line, where an expected failure shows too. */
	if (in_top < min || good < in_top)
		snprintf(_metadata->results->reason, sizeof(_metadata->results->reason),
			 "%u of %u chains from %s incomplete", in_top - good, in_top,
			 expected[0]);
	return good;
}

static int run(struct __test_metadata *_metadata, struct chain_capture *cap,
	       struct perf_event_attr *attr, char *const argv[], bool inherit)
{
	int ret = chain_run(cap, attr, argv, inherit);

	if (ret)
		TH_LOG("cannot profile %s: %s", argv[0], strerror(-ret));
	else if (!WIFEXITED(cap->exit_status) || WEXITSTATUS(cap->exit_status))
		TH_LOG("%s exited with status %#x", argv[0], cap->exit_status);
	return ret;
}

/* Copy @src into @fd, with @size bytes at @off overwritten by @fill. */
static int copy_file(const char *src, int fd, int64_t off, int64_t size, int fill)
{
	char buf[4096];
	int64_t pos = 0;
	ssize_t n;
	int in = open(src, O_RDONLY);

	if (in < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			if (pos + i >= off && pos + i < off + size)
				buf[i] = fill;
		if (write(fd, buf, n) != n)
			break;
		pos += n;
	}
	close(in);
	return n ? -1 : 0;
}

static void prog_path(char *buf, size_t size, const char *name)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	snprintf(buf, size, "%s/%s", dirname(exe), name);
}

FIXTURE(chain) {
	char prog[PATH_MAX];
	bool copy;		/* prog is a copy of the program, in /tmp */
	struct elf_syms syms;
	struct chain_capture cap;
};

/* One program, main -> a -> b -> c -> d, built in several ways. */
FIXTURE_VARIANT(chain) {
	const char *prog;
	/*
	 * The whole program is in the file, libc too: every chain must
	 * end in this function, its entry point's.
	 */
	const char *outermost;
	/* Built without .eh_frame_hdr: what the test is about. */
	bool no_eh_frame_hdr;
};

FIXTURE_VARIANT_ADD(chain, fp) {
	.prog = "workload-fp",		/* -O2, frame pointers */
};

#ifdef __aarch64__
/* Return addresses signed with the A key, in functions that save them. */
FIXTURE_VARIANT_ADD(chain, fp_pac) {
	.prog = "workload-fp-pac",
};

/* In every function, leaves included: d signs x30 too. */
FIXTURE_VARIANT_ADD(chain, fp_pac_leaf) {
	.prog = "workload-fp-pac-leaf",
};

/* With the B key. */
FIXTURE_VARIANT_ADD(chain, fp_pac_bkey) {
	.prog = "workload-fp-pac-bkey",
};

/* No frame pointers: the CFI negates the return address's state. */
FIXTURE_VARIANT_ADD(chain, nofp_pac) {
	.prog = "workload-nofp-pac",
};

/* The same with the B key: "B" in the CIE's augmentation. */
FIXTURE_VARIANT_ADD(chain, nofp_pac_bkey) {
	.prog = "workload-nofp-pac-bkey",
};
#endif

FIXTURE_VARIANT_ADD(chain, nofp) {
	.prog = "workload-nofp",	/* -O2 -fomit-frame-pointer */
};

FIXTURE_VARIANT_ADD(chain, default) {
	.prog = "workload-default",	/* -O2 and the compiler's defaults */
};

FIXTURE_VARIANT_ADD(chain, O0) {
	.prog = "workload-O0",
};

FIXTURE_VARIANT_ADD(chain, O1) {
	.prog = "workload-O1",
};

FIXTURE_VARIANT_ADD(chain, O3) {
	.prog = "workload-O3",
};

FIXTURE_VARIANT_ADD(chain, Os) {
	.prog = "workload-Os",
};

FIXTURE_VARIANT_ADD(chain, cxx) {
	.prog = "workload-cxx",		/* C++, exceptions, inlining */
};

/*
 * gcc -static: no .eh_frame_hdr, no PT_GNU_EH_FRAME.  The kernel finds
 * .eh_frame from the section headers at the first sample, and indexes it.
 * Nothing maps the section headers: the kernel reads them from the page
 * cache only, where a file system that keeps no page cache of its own
 * (the test guest's 9p root) has them only once discovery's worker read
 * them, some samples later.  The uprobe tests need the first sample's
 * chain: the program runs from a copy in /tmp (tmpfs), all in memory.
 */
FIXTURE_VARIANT_ADD(chain, static) {
	.prog = "workload-static",
	.outermost = "_start",
	.no_eh_frame_hdr = true,
};

FIXTURE_SETUP(chain)
{
	int64_t off, size;

	prog_path(self->prog, sizeof(self->prog), variant->prog);
	if (variant->no_eh_frame_hdr) {
		char copy[64];
		int fd;

		snprintf(copy, sizeof(copy), "/tmp/%s.%d", variant->prog, getpid());
		fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
		ASSERT_LE(0, fd) TH_LOG("%s: %s", copy, strerror(errno));
		ASSERT_EQ(0, copy_file(self->prog, fd, 0, 0, 0));
		close(fd);
		snprintf(self->prog, sizeof(self->prog), "%s", copy);
		self->copy = true;
	}
	ASSERT_EQ(0, elf_syms_load(&self->syms, self->prog))
		TH_LOG("cannot read the symbols of %s", self->prog);
	if (variant->no_eh_frame_hdr)
		ASSERT_NE(0, elf_section(self->prog, ".eh_frame_hdr", &off, &size))
			TH_LOG("%s has an .eh_frame_hdr: not what this tests", self->prog);
}

FIXTURE_TEARDOWN(chain)
{
	if (self->copy)
		unlink(self->prog);
	chain_free(&self->cap);
	elf_syms_free(&self->syms);
}

static const char * const abcd[] = { "d", "c", "b", "a", "main" };

/* Every sample in @top must end at @outermost: a complete chain. */
static void check_outermost(struct __test_metadata *_metadata,
			    const struct chain_capture *cap, const struct elf_syms *syms,
			    const char *prog, const char *top, const char *outermost)
{
	unsigned int in_top = 0, complete = 0;

	for (unsigned int i = 0; i < cap->nr_samples; i++) {
		const struct chain_sample *s = &cap->samples[i];
		const char *name = symbolize(cap, syms, prog, s->ip);

		if (!name || strcmp(name, top) || !s->nr)
			continue;
		in_top++;
		name = symbolize(cap, syms, prog, s->ips[s->nr - 1] - 1);
		if (name && !strcmp(name, outermost))
			complete++;
		else
			TH_LOG("pid %u: the chain of %u entries ends in %s", s->pid, s->nr,
			       name ?: "?");
	}
	TH_LOG("%u of %u chains end in %s", complete, in_top, outermost);
	EXPECT_EQ(in_top, complete);
}

/* Every hit of a uprobe at d + @off must show the whole path. */
static void uprobe_test(struct __test_metadata *_metadata, struct chain_capture *cap,
			const struct elf_syms *syms, char *prog, int64_t off,
			const char *outermost)
{
	const struct elf_sym *d = elf_syms_find(syms, "d");
	char *argv[] = { prog, "calls", "20", NULL };
	struct perf_event_attr attr;
	int64_t offset;

	ASSERT_NE(NULL, d);
	ASSERT_GE(off, 0);
	offset = elf_vaddr_to_offset(syms, d->addr + off);
	ASSERT_GE(offset, 0);
	ASSERT_EQ(0, chain_attr_uprobe(&attr, prog, offset))
		TH_LOG("no uprobe PMU (CONFIG_UPROBES)");
	ASSERT_EQ(0, run(_metadata, cap, &attr, argv, false));
	ASSERT_EQ(0, cap->exit_status);
	ASSERT_EQ(20U, cap->nr_samples);
	check_samples(_metadata, cap, syms, prog, abcd, 5, 20);
	if (outermost)
		check_outermost(_metadata, cap, syms, prog, "d", outermost);
}

/* A uprobe past d's prologue, where its frame is set up. */
TEST_F(chain, uprobe_body)
{
	uprobe_test(_metadata, &self->cap, &self->syms, self->prog, self->syms.probe_offset,
		    variant->outermost);
}

/* A uprobe on d's first instruction, before its frame exists. */
TEST_F(chain, uprobe_entry)
{
	uprobe_test(_metadata, &self->cap, &self->syms, self->prog, 0, variant->outermost);
}

/* cpu-clock samples that land in d, where the program spends its time. */
TEST_F(chain, cpu_clock)
{
	char *argv[] = { self->prog, "spin", "500", NULL };
	struct perf_event_attr attr;

	chain_attr_cpu_clock(&attr, 1000000);
	ASSERT_EQ(0, run(_metadata, &self->cap, &attr, argv, false));
	ASSERT_EQ(0, self->cap.exit_status);
	check_samples(_metadata, &self->cap, &self->syms, self->prog, abcd, 5, 30);
	if (variant->outermost)
		check_outermost(_metadata, &self->cap, &self->syms, self->prog, "d",
				variant->outermost);
}

#ifdef __aarch64__
/*
 * Uretprobes on a, b, c and d: each replaced its return address, in x30 at
 * its entry, with the [uprobes] trampoline, which the function then signed
 * (pac-ret) and saved in its frame record.  The walk must strip it and put
 * the real one back: the chains of cpu-clock samples in d are those
 * without the probes.  GCC puts the frame record at the bottom of the
 * frame: the stack pointer at d's entry, which identifies its uretprobe,
 * is 112 bytes above d's record, where a, b and c have no locals and
 * their records at the top.
 */
TEST_F(chain, uretprobes)
{
	static const char * const funcs[] = { "a", "b", "c", "d" };
	char *argv[] = { self->prog, "spin", "500", NULL };
	struct perf_event_attr attr, ret[4];
	uint64_t counts[4] = { 0 };
	int err;

	for (unsigned int i = 0; i < 4; i++) {
		const struct elf_sym *fn = elf_syms_find(&self->syms, funcs[i]);

		ASSERT_NE(NULL, fn);
		ASSERT_EQ(0, chain_attr_uretprobe_count(&ret[i], self->prog,
							elf_vaddr_to_offset(&self->syms, fn->addr)))
			TH_LOG("no uprobe PMU with a retprobe format bit");
	}
	chain_attr_cpu_clock(&attr, 1000000);
	err = chain_run_extra(&self->cap, &attr, argv, false, ret, 4, counts);
	ASSERT_EQ(0, err) TH_LOG("cannot profile %s: %s", self->prog, strerror(-err));
	ASSERT_TRUE(WIFEXITED(self->cap.exit_status) && !WEXITSTATUS(self->cap.exit_status))
		TH_LOG("%s exited with status %#x", self->prog, self->cap.exit_status);
	/* a, b, c and d run once: each uretprobe fires once, at their return. */
	for (unsigned int i = 0; i < 4; i++) {
		EXPECT_EQ(1U, counts[i])
			TH_LOG("the uretprobe on %s fired %llu times", funcs[i],
			       (unsigned long long)counts[i]);
	}
	check_samples(_metadata, &self->cap, &self->syms, self->prog, abcd, 5, 30);
}
#endif

/*
 * Programs that exercise the registry: threads, fork, exec, and a deep
 * chain.  cpu-clock samples in the top function must show the path.
 */
FIXTURE(scenario) {
	char prog[PATH_MAX], arg_prog[PATH_MAX];
	char *argv[6];
	const char *path[112];
	char deep_names[110][8];
	struct elf_syms syms;
	struct chain_capture cap;
};

FIXTURE_VARIANT(scenario) {
	const char *run;		/* the program started */
	const char *args[4];		/* its arguments; "@" = sampled's path */
	const char *sampled;		/* the program whose samples count */
	const char * const *path;	/* expected chain; NULL: deep's */
	unsigned int nr_path;
	unsigned int nr_threads;	/* threads that must all be seen */
	bool inherit;
};

static const char * const thread_path[] = { "d", "c", "b", "a", "thread_main" };

/* 4 threads, each thread_main -> a -> b -> c -> d. */
FIXTURE_VARIANT_ADD(scenario, threads) {
	.run = "workload-nofp", .args = { "threads", "4", "200" },
	.sampled = "workload-nofp", .path = thread_path, .nr_path = 5,
	.nr_threads = 4, .inherit = true,
};

/* A forked child inherits the tables the kernel found for its parent. */
FIXTURE_VARIANT_ADD(scenario, fork_child) {
	.run = "workload-nofp", .args = { "fork", "500" },
	.sampled = "workload-nofp", .path = abcd, .nr_path = 5, .inherit = true,
};

/*
 * A program exec'd by another: exec empties the registry, and the new
 * program's tables are found at its own samples.
 */
FIXTURE_VARIANT_ADD(scenario, exec) {
	.run = "workload-fp", .args = { "exec", "@", "500" },
	.sampled = "workload-nofp", .path = abcd, .nr_path = 5,
};

/* main -> f0 -> ... -> f109 -> leaf: 112 frames without frame pointers. */
FIXTURE_VARIANT_ADD(scenario, deep) {
	.run = "deep", .args = { "500" },
	.sampled = "deep", .nr_path = 112,
};

#ifdef __aarch64__
static const char * const signal_path[] = {
	"d", "on_signal", "[vdso]", "sig_self", "sig_b", "run_signal", "main",
};

/*
 * A signal handler: through the vDSO's __kernel_rt_sigreturn, which has
 * no CFI, into the interrupted function, sig_self, and on to main.
 */
FIXTURE_VARIANT_ADD(scenario, signal) {
	.run = "workload-nofp", .args = { "signal", "500" },
	.sampled = "workload-nofp", .path = signal_path, .nr_path = 7,
};

/* The same with every return address signed, the handler's too. */
FIXTURE_VARIANT_ADD(scenario, signal_pac) {
	.run = "workload-nofp-pac", .args = { "signal", "500" },
	.sampled = "workload-nofp-pac", .path = signal_path, .nr_path = 7,
};

static const char * const signal_leaf_path[] = {
	"d", "on_signal", "[vdso]", "leaf_until", "leaf_b", "run_signal", "main",
};

/*
 * A timer's signal in a leaf, whose return address is still in x30: the
 * frame below the signal frame reads x30 from the signal's sigcontext.
 */
FIXTURE_VARIANT_ADD(scenario, signal_leaf) {
	.run = "workload-nofp", .args = { "signal_leaf", "500" },
	.sampled = "workload-nofp", .path = signal_leaf_path, .nr_path = 7,
};

FIXTURE_VARIANT_ADD(scenario, signal_leaf_pac) {
	.run = "workload-nofp-pac", .args = { "signal_leaf", "500" },
	.sampled = "workload-nofp-pac", .path = signal_leaf_path, .nr_path = 7,
};
#endif

FIXTURE_SETUP(scenario)
{
	unsigned int n = 0;

	prog_path(self->prog, sizeof(self->prog), variant->run);
	prog_path(self->arg_prog, sizeof(self->arg_prog), variant->sampled);
	self->argv[n++] = self->prog;
	for (unsigned int i = 0; i < 4 && variant->args[i]; i++)
		self->argv[n++] = strcmp(variant->args[i], "@") ?
				  (char *)variant->args[i] : self->arg_prog;
	self->argv[n] = NULL;

	if (variant->path) {
		memcpy(self->path, variant->path, variant->nr_path * sizeof(char *));
	} else {
		self->path[0] = "leaf";
		for (int i = 0; i < 110; i++) {
			snprintf(self->deep_names[i], sizeof(self->deep_names[i]), "f%d", 109 - i);
			self->path[i + 1] = self->deep_names[i];
		}
		self->path[111] = "main";
	}
	ASSERT_EQ(0, elf_syms_load(&self->syms, self->arg_prog));
}

FIXTURE_TEARDOWN(scenario)
{
	chain_free(&self->cap);
	elf_syms_free(&self->syms);
}

TEST_F(scenario, cpu_clock)
{
	struct perf_event_attr attr;
	uint32_t tids[8];
	unsigned int nr_tids = 0;

	chain_attr_cpu_clock(&attr, 1000000);
	ASSERT_EQ(0, run(_metadata, &self->cap, &attr, self->argv, variant->inherit));
	ASSERT_EQ(0, self->cap.exit_status);
	check_samples(_metadata, &self->cap, &self->syms, self->arg_prog, self->path,
		      variant->nr_path, 30);
	if (!variant->nr_threads)
		return;

	/* Every thread was sampled in the top function. */
	for (unsigned int i = 0; i < self->cap.nr_samples; i++) {
		const struct chain_sample *s = &self->cap.samples[i];
		const char *name = symbolize(&self->cap, &self->syms, self->arg_prog, s->ip);
		unsigned int j;

		if (!name || strcmp(name, self->path[0]))
			continue;
		for (j = 0; j < nr_tids && tids[j] != s->tid; j++)
			;
		if (j == nr_tids && nr_tids < 8)
			tids[nr_tids++] = s->tid;
	}
	EXPECT_EQ(variant->nr_threads, nr_tids);
}

/*
 * A program whose .eh_frame is garbage: the kernel must drop the table at
 * the first lookup (saying so in the log, naming the process but not its
 * file or addresses, which others may read there), fall back to the
 * frame-pointer walk, and still report the frame the sample was taken in: a
 * partial chain, never a crash or a hang.
 */
TEST(corrupt_eh_frame)
{
	char src[PATH_MAX], prog[] = "/tmp/unwind_user_corrupt_XXXXXX";
	char *argv[] = { prog, "spin", "500", NULL };
	struct perf_event_attr attr;
	struct chain_capture cap;
	struct elf_syms syms;
	unsigned int in_d = 0, partial = 0;
	int64_t off, size;
	char log[1 << 16], who[64], *line, *nl;
	int fd, len;

	prog_path(src, sizeof(src), "workload-nofp");
	ASSERT_EQ(0, elf_syms_load(&syms, src));
	ASSERT_EQ(0, elf_section(src, ".eh_frame", &off, &size));
	fd = mkstemp(prog);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, copy_file(src, fd, off, size, 0xff));
	fchmod(fd, 0755);
	close(fd);

	chain_attr_cpu_clock(&attr, 1000000);
	ASSERT_EQ(0, run(_metadata, &cap, &attr, argv, false));
	EXPECT_EQ(0, cap.exit_status);
	for (unsigned int i = 0; i < cap.nr_samples; i++) {
		const struct chain_sample *s = &cap.samples[i];
		const char *name = symbolize(&cap, &syms, prog, s->ip);

		if (!name || strcmp(name, "d"))
			continue;
		in_d++;
		if (s->resolved && s->nr >= 1 && s->ips[0] == s->ip)
			partial++;
	}
	TH_LOG("%u samples, %u in d, %u with a chain starting at d", cap.nr_samples,
	       in_d, partial);
	EXPECT_GE(in_d, 30U);
	EXPECT_EQ(in_d, partial);

	/* The kernel said which process it gave up on (needs CAP_SYSLOG). */
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);
	ASSERT_GT(len, 0);
	log[len] = '\0';
	/* The comm: the first 15 characters of the file's name. */
	snprintf(who, sizeof(who), "unwind_user: %.15s[", strrchr(prog, '/') + 1);
	line = strstr(log, who);
	ASSERT_NE(NULL, line) TH_LOG("no message naming %s in the kernel log", who);
	nl = strchr(line, '\n');
	if (nl)
		*nl = '\0';
	TH_LOG("the kernel said: %s", line);
	EXPECT_NE(NULL, strstr(line, "dropped a corrupt unwind table"));
	EXPECT_EQ(NULL, strstr(line, "/tmp")) TH_LOG("the message names the file");
	EXPECT_EQ(NULL, strstr(line, "0x")) TH_LOG("the message shows addresses");

	unlink(prog);
	chain_free(&cap);
	elf_syms_free(&syms);
}

TEST_HARNESS_MAIN
