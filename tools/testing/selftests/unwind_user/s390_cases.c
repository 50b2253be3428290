// SPDX-License-Identifier: GPL-2.0
/*
 * Deferred user callchains through what is special about s390x stacks,
 * checked against the known call paths of s390_workload.c:
 *
 *   - leaf: cpu-clock samples in a leaf function that keeps its callers'
 *     r11 in a floating-point register and its return address in r14,
 *     under callers whose CFA is r11-based: the topmost frame's rules read
 *     r14 and an FPR;
 *   - leaf_entry: a uprobe on the leaf's first instruction;
 *   - signal, oldsig: samples in a signal handler, through the vDSO's
 *     __kernel_rt_sigreturn or __kernel_sigreturn (whose CFI describes no
 *     signal frame) into the interrupted function, sig_d, and on to main;
 *   - leafsig: the same where a timer's signal interrupted a leaf, whose
 *     return address is in r14 and its callers' r11 in an FPR: the frame
 *     below the signal frame reads both from the signal's _sigregs.
 *
 * Frames are named from the program's own symbol table and the mappings
 * perf reports ([vdso] for the trampoline), never with the unwinder's help.
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elf_syms.h"
#include "perf_chain.h"
#include "../kselftest_harness.h"

#define PROG		"s390_workload"
#define MIN_SAMPLES	30U

static void prog_path(char *buf, size_t size, const char *name)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	snprintf(buf, size, "%s/%s", dirname(exe), name);
}

/* The function of @prog at @ip, "[vdso]" in the vDSO, or NULL. */
static const char *symbolize(const struct chain_capture *cap, const struct elf_syms *syms,
			     const char *prog, uint64_t ip)
{
	const struct chain_mmap *m = chain_find_map(cap, 0, ip);
	const struct elf_sym *sym;
	int64_t vaddr;

	if (!m)
		return NULL;
	if (!strcmp(m->path, "[vdso]"))
		return "[vdso]";
	if (strcmp(m->path, prog))
		return NULL;
	vaddr = elf_offset_to_vaddr(syms, ip - m->start + m->pgoff);
	if (vaddr < 0)
		return NULL;
	sym = elf_syms_lookup(syms, vaddr);
	return sym ? sym->name : NULL;
}

/*
 * Every sample that landed in @path[0] must show @path (return addresses
 * looked up one byte back, as perf does), and there must be @min of them.
 */
static void check_samples(struct __test_metadata *_metadata, const struct chain_capture *cap,
			  const struct elf_syms *syms, const char *prog,
			  const char * const *path, unsigned int nr_path, unsigned int min)
{
	unsigned int in_top = 0, good = 0;

	for (unsigned int i = 0; i < cap->nr_samples; i++) {
		const struct chain_sample *s = &cap->samples[i];
		const char *name = symbolize(cap, syms, prog, s->ip);
		bool ok = s->resolved && s->nr >= nr_path;
		char got[1024] = "";

		if (!name || strcmp(name, path[0]))
			continue;
		in_top++;
		for (unsigned int j = 0; j < s->nr && j < nr_path + 2; j++) {
			const char *fn = symbolize(cap, syms, prog, s->ips[j] - (j ? 1 : 0));
			size_t len = strlen(got);

			if (j < nr_path && (!fn || strcmp(fn, path[j])))
				ok = false;
			snprintf(got + len, sizeof(got) - len, " %s@%#llx", fn ?: "?",
				 (unsigned long long)s->ips[j]);
		}
		/* The first chain, and the first few bad ones, go to the log. */
		if ((!ok && in_top - good <= 5) || in_top == 1)
			TH_LOG("tid %u: chain of %u entries (%s):%s", s->tid, s->nr,
			       s->resolved ? "deferred" : "never delivered", got);
		good += ok;
	}
	TH_LOG("%u samples, %u in %s, %u with the whole path of %u frames, %u deferred records",
	       cap->nr_samples, in_top, path[0], good, nr_path, cap->nr_deferred);
	EXPECT_GE(in_top, min);
	EXPECT_EQ(in_top, good);
	if (in_top < min || good < in_top)
		snprintf(_metadata->results->reason, sizeof(_metadata->results->reason),
			 "%u of %u chains from %s incomplete", in_top - good, in_top, path[0]);
}

FIXTURE(s390) {
	char prog[PATH_MAX];
	struct elf_syms syms;
	struct chain_capture cap;
};

FIXTURE_SETUP(s390)
{
	prog_path(self->prog, sizeof(self->prog), PROG);
	ASSERT_EQ(0, elf_syms_load(&self->syms, self->prog))
		TH_LOG("cannot read the symbols of %s", self->prog);
}

FIXTURE_TEARDOWN(s390)
{
	chain_free(&self->cap);
	elf_syms_free(&self->syms);
}

static void run(struct __test_metadata *_metadata, struct chain_capture *cap,
		struct perf_event_attr *attr, char *prog, char *mode)
{
	char *argv[] = { prog, mode, "400", NULL };
	int ret = chain_run(cap, attr, argv, false);

	ASSERT_EQ(0, ret) TH_LOG("cannot profile %s: %s", prog, strerror(-ret));
	ASSERT_TRUE(WIFEXITED(cap->exit_status) && !WEXITSTATUS(cap->exit_status))
		TH_LOG("%s %s exited with status %#x", prog, mode, cap->exit_status);
}

static const char * const leaf_path[] = { "leaf", "c", "b", "a", "main" };

/* The topmost frame: r14 holds the return address, an FPR the callers' r11. */
TEST_F(s390, leaf)
{
	struct perf_event_attr attr;

	chain_attr_cpu_clock(&attr, 1000000);
	run(_metadata, &self->cap, &attr, self->prog, "leaf");
	check_samples(_metadata, &self->cap, &self->syms, self->prog, leaf_path, 5, MIN_SAMPLES);
}

/* A uprobe on the leaf's first instruction. */
TEST_F(s390, leaf_entry)
{
	const struct elf_sym *leaf = elf_syms_find(&self->syms, "leaf");
	struct perf_event_attr attr;
	int64_t offset;

	ASSERT_NE(NULL, leaf);
	offset = elf_vaddr_to_offset(&self->syms, leaf->addr);
	ASSERT_GE(offset, 0);
	ASSERT_EQ(0, chain_attr_uprobe(&attr, self->prog, offset))
		TH_LOG("no uprobe PMU (CONFIG_UPROBES)");
	run(_metadata, &self->cap, &attr, self->prog, "leaf");
	check_samples(_metadata, &self->cap, &self->syms, self->prog, leaf_path, 5, MIN_SAMPLES);
}

/* An rt signal frame: SA_SIGINFO, __kernel_rt_sigreturn. */
TEST_F(s390, signal)
{
	static const char * const path[] = {
		"leaf", "handler_spin", "handler_spin_info", "[vdso]",
		"sig_d", "c", "b", "a", "main",
	};
	struct perf_event_attr attr;

	chain_attr_cpu_clock(&attr, 1000000);
	run(_metadata, &self->cap, &attr, self->prog, "signal");
	check_samples(_metadata, &self->cap, &self->syms, self->prog, path, 9, MIN_SAMPLES);
}

/* A non-rt signal frame: no SA_SIGINFO, __kernel_sigreturn. */
TEST_F(s390, oldsig)
{
	static const char * const path[] = {
		"leaf", "handler_spin", "[vdso]", "sig_d", "c", "b", "a", "main",
	};
	struct perf_event_attr attr;

	chain_attr_cpu_clock(&attr, 1000000);
	run(_metadata, &self->cap, &attr, self->prog, "oldsig");
	check_samples(_metadata, &self->cap, &self->syms, self->prog, path, 8, MIN_SAMPLES);
}

/* A leaf interrupted: its r14 and FPR from the rt signal frame. */
TEST_F(s390, leafsig)
{
	static const char * const path[] = {
		"leaf", "handler_spin", "handler_spin_info", "[vdso]",
		"leaf_until", "c", "b", "a", "main",
	};
	struct perf_event_attr attr;

	chain_attr_cpu_clock(&attr, 1000000);
	run(_metadata, &self->cap, &attr, self->prog, "leafsig");
	check_samples(_metadata, &self->cap, &self->syms, self->prog, path, 9, MIN_SAMPLES);
}

/*
 * Uretprobes on functions of the leaf path: each replaced its return
 * address, at its entry, with the [uprobes] trampoline, in r14, where leaf
 * keeps it, or in the register save area, where a, b and c saved it.  The
 * walk must put the real ones back: the chains are those without the
 * probes.  Nothing else says which uretprobe a trampoline stands for than
 * the stack pointer at the function's entry, 160 bytes below its CFA.
 */
static void uretprobes(struct __test_metadata *_metadata, struct _test_data_s390 *self,
		       const char * const *funcs, unsigned int nr)
{
	char *argv[] = { self->prog, "leaf", "800", NULL };
	struct perf_event_attr attr, ret[4];
	uint64_t counts[4] = { 0 };
	int err;

	ASSERT_LE(nr, 4U);
	for (unsigned int i = 0; i < nr; i++) {
		const struct elf_sym *fn = elf_syms_find(&self->syms, funcs[i]);

		ASSERT_NE(NULL, fn);
		ASSERT_EQ(0, chain_attr_uretprobe_count(&ret[i], self->prog,
							elf_vaddr_to_offset(&self->syms, fn->addr)))
			TH_LOG("no uprobe PMU with a retprobe format bit");
	}
	chain_attr_cpu_clock(&attr, 1000000);
	err = chain_run_extra(&self->cap, &attr, argv, false, ret, nr, counts);
	ASSERT_EQ(0, err) TH_LOG("cannot profile %s: %s", self->prog, strerror(-err));
	ASSERT_TRUE(WIFEXITED(self->cap.exit_status) && !WEXITSTATUS(self->cap.exit_status))
		TH_LOG("%s exited with status %#x", self->prog, self->cap.exit_status);
	/*
	 * a, b and c run once: their uretprobes fire once, at their return;
	 * c calls leaf in a loop.
	 */
	for (unsigned int i = 0; i < nr; i++) {
		if (strcmp(funcs[i], "leaf")) {
			EXPECT_EQ(1U, counts[i])
				TH_LOG("the uretprobe on %s fired %llu times", funcs[i],
				       (unsigned long long)counts[i]);
		} else {
			EXPECT_LE(1U, counts[i])
				TH_LOG("the uretprobe on leaf never fired");
		}
	}
	check_samples(_metadata, &self->cap, &self->syms, self->prog, leaf_path, 5, MIN_SAMPLES);
}

/* On b, which saved its return address in the register save area. */
TEST_F(s390, uretprobe_b)
{
	static const char * const funcs[] = { "b" };

	uretprobes(_metadata, self, funcs, 1);
}

/* On the leaf, which keeps its return address in r14. */
TEST_F(s390, uretprobe_leaf)
{
	static const char * const funcs[] = { "leaf" };

	uretprobes(_metadata, self, funcs, 1);
}

/* On every function of the path but main. */
TEST_F(s390, uretprobe_all)
{
	static const char * const funcs[] = { "leaf", "c", "b", "a" };

	uretprobes(_metadata, self, funcs, 4);
}

TEST_HARNESS_MAIN
