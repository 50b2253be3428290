// SPDX-License-Identifier: GPL-2.0
/*
 * The most table work one sample can cost, in the kernel: a registered
 * table whose two frames lead round in a circle (one marked as a signal
 * frame, so its CFA may go down), the first with as many CFI instructions
 * before its row as a lookup may run (16384).  Only the walk's budget
 * (UNWIND_USER_TABLE_BUDGET, two such lookups) ends the circle.
 *
 * A child spins on a crafted stack in an anonymous text page that the
 * table covers, sampled by cpu-clock with deferred callchains.  The test
 * checks that each chain holds at most the frames the budget allows, and
 * prints the CPU time a sample costs the child, next to a one-frame table
 * (what an ordinary leaf sample costs) in the same boot.  The cost is the
 * child's CPU time (getrusage, from the scheduler's exact runtime) less
 * that of the same spin without sampling, divided by the samples.
 *
 * A second test is the worst a table that cannot be indexed may cost: a
 * bare .eh_frame of the largest size the kernel indexes (32 MiB, a CIE for
 * every FDE, more than the index's CIE cache holds) whose last page faults,
 * over the text of a frame-pointer chain as deep as a deferred callchain
 * holds.  Every frame's lookup finds that table; the index build fails
 * with -EFAULT.  The kernel must read it once, not once per frame or per
 * sample (debugfs unwind_user/registry counts index builds and the bytes
 * they read), and the chains go on with frame pointers.  Its CPU per sample is printed
 * next to that of the same chain with no table at all.
 *
 * Both show what the walk's table budget bounds by itself: the bound on the
 * share of a task's CPU its walks take is lifted while they run
 * (kernel.unwind_user_cpu_time_max_percent at 100; cpu_bound.c tests it).
 *
 *	worst_sample			the tests
 *	worst_sample child MODE N	the child: MODE "worst", "leaf",
 *					"badindex" or "fpchain"
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_chain.h"
#include "unwind_table.h"

/* kernel/unwind/cfi.c's bound on the CFI instructions of one lookup */
#define LOOKUP_MAX_INSNS	16384
/* Spin iterations of the child; ~1 s under TCG. */
#define SPIN			300000000L
/* One sample per 10 ms of the child's CPU time */
#define PERIOD_NS		10000000ULL

/* Where the two functions of the circle sit in the text page. */
#define DOWN_OFF	0x000
#define UP_OFF		0x200
#define FUNC_SIZE	0x100
/*
 * The text page, at an address the parent knows too, and the tables close
 * enough for the tables' 32-bit relative offsets.
 */
#define TEXT_ADDR	0x50000000UL
#define TABLES_ADDR	(TEXT_ADDR + 0x10000)

/*
 * mov %rsp,%rax; mov %rdi,%rsp; 1: dec %rsi; jnz 1b; mov %rax,%rsp; ret
 * The spin runs on the stack at %rdi; nothing in it pushes or calls.
 */
static const unsigned char spin_code[] = {
	0x48, 0x89, 0xe0, 0x48, 0x89, 0xfc, 0x48, 0xff, 0xce, 0x75, 0xfb,
	0x48, 0x89, 0xc4, 0xc3,
};

/* The loop: where a sample sees the crafted stack */
#define SPIN_START	6
#define SPIN_END	11

/*
 * mov %rsp,%rax; mov %rbp,%r8; mov %rdi,%rsp; mov %rdx,%rbp;
 * 1: dec %rsi; jnz 1b; mov %r8,%rbp; mov %rax,%rsp; ret
 * The same spin with %rbp at the frame-pointer chain at %rdx.
 */
static const unsigned char fp_spin_code[] = {
	0x48, 0x89, 0xe0, 0x49, 0x89, 0xe8, 0x48, 0x89, 0xfc, 0x48, 0x89, 0xd5,
	0x48, 0xff, 0xce, 0x75, 0xfb, 0x4c, 0x89, 0xc5, 0x48, 0x89, 0xc4, 0xc3,
};

#define FP_OFF		0x400
#define FP_SPIN_START	12
#define FP_SPIN_END	17
/* The return addresses of the chain: in the text page, never executed */
#define FP_RET_OFF	0x800
/* More frames than a deferred callchain holds (a 4 KiB page of entries) */
#define FP_FRAMES	600
/* A chain the test accepts as whole: the deferred unwinder's limit, less slack */
#define FP_MIN_CHAIN	500U

/* eh_frame.c's largest bare .eh_frame */
#define BIG_TABLE	(32UL << 20)
/* What the indexes of the child's own objects may read besides */
#define SMALL_READS	(1024UL * 1024)

/* DWARF CFA opcodes and register numbers (x86-64 psABI) */
#define CFA_nop			0x00
#define CFA_def_cfa		0x0c
#define CFA_def_cfa_offset	0x0e
#define CFA_offset_extended_sf	0x11
#define CFA_def_cfa_sf		0x12
#define CFA_offset_r16		0x90	/* DW_CFA_offset | 16 */
#define REG_SP	7
#define REG_RA	16

struct buf {
	unsigned char *p;
	size_t len;
};

static void put(struct buf *b, const void *src, size_t n)
{
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

static void put8(struct buf *b, unsigned char v)
{
	put(b, &v, 1);
}

static void put32(struct buf *b, unsigned int v)
{
	put(b, &v, 4);
}

static void put32_at(struct buf *b, size_t off, unsigned int v)
{
	memcpy(b->p + off, &v, 4);
}

/* Pad an entry that starts at @start to 8 bytes with DW_CFA_nop and set its length. */
static void end_entry(struct buf *b, size_t start)
{
	while ((b->len - start) % 8)
		put8(b, CFA_nop);
	put32_at(b, start, b->len - start - 4);
}

/* A CIE: "zR" or "zRS", FDE pointers pcrel|sdata4, @insns initially. */
static size_t add_cie(struct buf *b, const char *aug, const unsigned char *insns, size_t n)
{
	size_t start = b->len;

	put32(b, 0);			/* length, set by end_entry() */
	put32(b, 0);			/* CIE id */
	put8(b, 1);			/* version */
	put(b, aug, strlen(aug) + 1);
	put8(b, 1);			/* code alignment */
	put8(b, 0x78);			/* data alignment -8 */
	put8(b, REG_RA);
	put8(b, 1);			/* augmentation data: */
	put8(b, 0x1b);			/* DW_EH_PE_pcrel | DW_EH_PE_sdata4 */
	put(b, insns, n);
	end_entry(b, start);
	return start;
}

/* An FDE for [@pc, @pc + FUNC_SIZE), its table mapped at @addr. */
static size_t add_fde(struct buf *b, unsigned long addr, size_t cie, unsigned long pc,
		      const unsigned char *insns, size_t n, size_t nops)
{
	size_t start = b->len;

	put32(b, 0);
	put32(b, b->len - cie);				/* CIE pointer */
	put32(b, (unsigned int)(pc - (addr + b->len)));	/* pc_begin, pcrel */
	put32(b, FUNC_SIZE);
	put8(b, 0);					/* augmentation data */
	memset(b->p + b->len, CFA_nop, nops);
	b->len += nops;
	put(b, insns, n);
	end_entry(b, start);
	return start;
}

struct circle {
	unsigned char *text;
	unsigned char *tables;
	size_t tables_size;
	unsigned long *stack;
	struct prctl_eh_frame desc;
};

/*
 * Map and register the text page and its table; "worst": the circle, with
 * the down frame at the lookup bound; "leaf": one ordinary frame whose
 * return address is 0, so every chain has one entry.
 */
static int circle_setup(struct circle *c, bool worst)
{
	static const unsigned char down_cie[] = {	/* CFA = sp - 8, RA at CFA */
		CFA_def_cfa_sf, REG_SP, 1, CFA_offset_extended_sf, REG_RA, 0,
	};
	static const unsigned char plain_cie[] = {	/* CFA = sp + 8, RA at CFA - 8 */
		CFA_def_cfa, REG_SP, 8, CFA_offset_r16, 1,
	};
	static const unsigned char up_fde[] = {	/* CFA = sp + 8, RA at CFA */
		CFA_def_cfa_offset, 8, CFA_offset_extended_sf, REG_RA, 0,
	};
	const size_t hdr_size = 12 + 2 * 8;
	unsigned long text, eh, hdr;
	struct buf b;
	size_t cie, fde_down, fde_up = 0;
	unsigned int nr_fdes = worst ? 2 : 1;

	c->tables_size = 65536;
	c->text = mmap((void *)TEXT_ADDR, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	c->tables = mmap((void *)TABLES_ADDR, c->tables_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	c->stack = calloc(64, sizeof(*c->stack));
	if (c->text != (void *)TEXT_ADDR || c->tables != (void *)TABLES_ADDR || !c->stack)
		return -ENOMEM;
	memset(c->text, 0xcc, 4096);
	memcpy(c->text + DOWN_OFF, spin_code, sizeof(spin_code));
	if (mprotect(c->text, 4096, PROT_READ | PROT_EXEC))
		return -errno;
	text = (uintptr_t)c->text;
	hdr = (uintptr_t)c->tables;
	eh = hdr + 64;

	b = (struct buf){ .p = c->tables + 64 };
	if (worst) {
		/*
		 * The down frame's CFI runs close to the lookup bound: the
		 * CIE's two rules, the nops and the FDE's padding (7 nops).
		 */
		size_t nops = LOOKUP_MAX_INSNS - 16;

		cie = add_cie(&b, "zRS", down_cie, sizeof(down_cie));
		fde_down = add_fde(&b, eh, cie, text + DOWN_OFF, NULL, 0, nops);
		cie = add_cie(&b, "zR", plain_cie, sizeof(plain_cie));
		fde_up = add_fde(&b, eh, cie, text + UP_OFF, up_fde, sizeof(up_fde), 0);
		/* down's return address leads to up, up's back to down */
		c->stack[31] = text + UP_OFF + 0x10;
		c->stack[32] = text + DOWN_OFF + 0x10;
	} else {
		cie = add_cie(&b, "zR", plain_cie, sizeof(plain_cie));
		fde_down = add_fde(&b, eh, cie, text + DOWN_OFF, NULL, 0, 0);
		c->stack[32] = 0;
	}
	put32(&b, 0);				/* terminator */

	/* .eh_frame_hdr: version, encodings, eh_frame_ptr, count, table */
	b = (struct buf){ .p = c->tables };
	put8(&b, 1);
	put8(&b, EH_PE_pcrel | EH_PE_sdata4);
	put8(&b, EH_PE_udata4);
	put8(&b, EH_PE_datarel | EH_PE_sdata4);
	put32(&b, (unsigned int)(eh - (hdr + 4)));
	put32(&b, nr_fdes);
	put32(&b, (unsigned int)(text + DOWN_OFF - hdr));
	put32(&b, (unsigned int)(eh + fde_down - hdr));
	if (worst) {
		put32(&b, (unsigned int)(text + UP_OFF - hdr));
		put32(&b, (unsigned int)(eh + fde_up - hdr));
	}

	c->desc = (struct prctl_eh_frame){
		.format = PR_EH_FRAME_FORMAT_EH_FRAME_HDR,
		.text_start = text, .text_size = 4096,
		.eh_frame_start = eh, .eh_frame_size = c->tables_size - 64,
		.eh_frame_hdr_start = hdr, .eh_frame_hdr_size = hdr_size,
	};
	return ut_register(&c->desc);
}

/*
 * The text page with the frame-pointer spin and, for @bad, the 32 MiB
 * .eh_frame over it: CIE, FDE, CIE, FDE, ... (each FDE for a range outside
 * the text, so that none would be indexed), up to its last page, which is
 * made unreadable once the table is registered.  Sets @frames to the top
 * of the chain.
 */
static int fp_setup(struct circle *c, bool bad, unsigned long **frames)
{
	static const unsigned char plain_cie[] = {	/* CFA = sp + 8, RA at CFA - 8 */
		CFA_def_cfa, REG_SP, 8, CFA_offset_r16, 1,
	};
	unsigned long text, eh, *f;
	size_t pair = 0, cie;
	struct buf b;
	int ret, i;

	c->text = mmap((void *)TEXT_ADDR, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	c->stack = calloc(2 * FP_FRAMES + 64, sizeof(*c->stack));
	if (c->text != (void *)TEXT_ADDR || !c->stack)
		return -ENOMEM;
	memset(c->text, 0xcc, 4096);
	memcpy(c->text + FP_OFF, fp_spin_code, sizeof(fp_spin_code));
	if (mprotect(c->text, 4096, PROT_READ | PROT_EXEC))
		return -errno;
	text = (uintptr_t)c->text;

	/* Frame i: the next frame's %rbp, then its return address. */
	f = c->stack + 32;
	for (i = 0; i < FP_FRAMES; i++) {
		f[2 * i] = i + 1 < FP_FRAMES ? (uintptr_t)&f[2 * i + 2] : 0;
		f[2 * i + 1] = text + FP_RET_OFF + 8 * (i % 0xe0);
	}
	*frames = f;
	if (!bad)
		return 0;

	c->tables_size = BIG_TABLE;
	c->tables = mmap((void *)TABLES_ADDR, c->tables_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (c->tables != (void *)TABLES_ADDR)
		return -ENOMEM;
	eh = (uintptr_t)c->tables;
	b = (struct buf){ .p = c->tables };
	while (!pair || b.len + pair <= BIG_TABLE - 4096) {
		size_t start = b.len;

		cie = add_cie(&b, "zR", plain_cie, sizeof(plain_cie));
		/* 104 bytes of FDE: 128 a pair, so that the pairs end at the page. */
		add_fde(&b, eh, cie, text + 0x100000, NULL, 0, 87);
		if (!pair)
			pair = b.len - start;
	}
	if ((BIG_TABLE - 4096) % pair || b.len != BIG_TABLE - 4096)
		return -EINVAL;

	c->desc = (struct prctl_eh_frame){
		.format = PR_EH_FRAME_FORMAT_EH_FRAME,
		.text_start = text, .text_size = 4096,
		.eh_frame_start = eh, .eh_frame_size = BIG_TABLE,
	};
	ret = ut_register(&c->desc);
	if (ret)
		return ret;
	/* The build reads up to here, and faults. */
	if (mprotect(c->tables + BIG_TABLE - 4096, 4096, PROT_NONE))
		return -errno;
	return 0;
}

static int child(const char *mode, long spin)
{
	void (*fn)(unsigned long *sp, long n);
	struct circle c;
	int ret;

	if (!strcmp(mode, "badindex") || !strcmp(mode, "fpchain")) {
		void (*fp_fn)(unsigned long *sp, long n, unsigned long *fp);
		unsigned long *frames = NULL;

		ret = fp_setup(&c, !strcmp(mode, "badindex"), &frames);
		if (ret) {
			fprintf(stderr, "worst_sample: cannot set up %s: %s\n", mode,
				strerror(-ret));
			return 1;
		}
		fp_fn = (void (*)(unsigned long *, long, unsigned long *))(c.text + FP_OFF);
		fp_fn(&c.stack[16], spin, frames);
		return 0;
	}
	ret = circle_setup(&c, !strcmp(mode, "worst"));
	if (ret) {
		fprintf(stderr, "worst_sample: cannot register the table: %s\n", strerror(-ret));
		return 1;
	}
	fn = (void (*)(unsigned long *, long))(c.text + DOWN_OFF);
	fn(&c.stack[32], spin);
	return 0;
}

/* CPU time of the finished children so far, in ns */
static double children_cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
}

static char self_exe[4096];

static double run_unsampled(struct __test_metadata *_metadata, const char *mode)
{
	double t0 = children_cpu_ns();
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		execl(self_exe, self_exe, "child", mode, NULL);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	return children_cpu_ns() - t0;
}

struct sampled {
	double cpu_ns;
	unsigned int samples;		/* in the spin, chain resolved */
	unsigned int max_in_text;	/* most chain entries in the text page */
	unsigned int min_in_text;
};

static void run_sampled(struct __test_metadata *_metadata, const char *mode,
			struct sampled *r)
{
	char *argv[] = { self_exe, "child", (char *)mode, NULL };
	struct perf_event_attr attr;
	struct chain_capture cap;
	double t0 = children_cpu_ns();
	int ret;

	memset(r, 0, sizeof(*r));
	chain_attr_cpu_clock(&attr, PERIOD_NS);
	ret = chain_run(&cap, &attr, argv, false);
	ASSERT_EQ(0, ret) TH_LOG("cannot profile: %s", strerror(-ret));
	r->cpu_ns = children_cpu_ns() - t0;
	ASSERT_EQ(0, cap.exit_status);

	r->min_in_text = ~0U;
	for (unsigned int i = 0; i < cap.nr_samples; i++) {
		const struct chain_sample *s = &cap.samples[i];
		unsigned int in_text = 0;

		/* The spin's samples: the ip is in the spin loop. */
		if (!s->resolved || !s->nr ||
		    ((s->ip < TEXT_ADDR + DOWN_OFF + SPIN_START ||
		      s->ip >= TEXT_ADDR + DOWN_OFF + SPIN_END) &&
		     (s->ip < TEXT_ADDR + FP_OFF + FP_SPIN_START ||
		      s->ip >= TEXT_ADDR + FP_OFF + FP_SPIN_END)))
			continue;
		for (unsigned int j = 0; j < s->nr; j++)
			in_text += s->ips[j] >= TEXT_ADDR && s->ips[j] < TEXT_ADDR + 4096;
		r->samples++;
		if (in_text > r->max_in_text)
			r->max_in_text = in_text;
		if (in_text < r->min_in_text)
			r->min_in_text = in_text;
	}
	chain_free(&cap);
}

FIXTURE(worst) {
	int cpu_max;		/* the sysctl as it was */
};

FIXTURE_SETUP(worst)
{
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);

	ASSERT_LT(0, n);
	self_exe[n] = 0;
	self->cpu_max = ut_read_cpu_max();
	ASSERT_LE(0, self->cpu_max) TH_LOG("no kernel.unwind_user_cpu_time_max_percent");
	ASSERT_EQ(0, ut_write_cpu_max(100));
}

FIXTURE_TEARDOWN(worst)
{
	if (self->cpu_max >= 0)
		ut_write_cpu_max(self->cpu_max);
}

/*
 * The circle's chains hold what two bounded lookups allow: the sampled ip,
 * up, down, and the return address the second down lookup found (4 entries
 * in the text page); the next lookup finds the budget spent.  Without the
 * budget each chain would go round to the deferred unwinder's entry limit.
 */
/*
 * What a sample costs the child: its CPU time sampled less the same spin
 * unsampled, per sample.  Under TCG other work on the host stretches a
 * run's CPU time, so each mode runs ROUNDS times, alternating, and the
 * median counts.
 */
#define ROUNDS	3

static double median3(double a, double b, double c)
{
	if ((a <= b && b <= c) || (c <= b && b <= a))
		return b;
	if ((b <= a && a <= c) || (c <= a && a <= b))
		return a;
	return c;
}

TEST_F_TIMEOUT(worst, circle_bounded, 900)
{
	double c_leaf[ROUNDS], c_worst[ROUNDS], spin_leaf = 0, spin_worst = 0;
	struct sampled leaf, worst;
	double cl, cw;

	for (int i = 0; i < ROUNDS; i++) {
		spin_leaf = run_unsampled(_metadata, "leaf");
		run_sampled(_metadata, "leaf", &leaf);
		spin_worst = run_unsampled(_metadata, "worst");
		run_sampled(_metadata, "worst", &worst);

		ASSERT_LE(20U, leaf.samples);
		ASSERT_LE(20U, worst.samples);
		EXPECT_EQ(1U, leaf.min_in_text);
		EXPECT_EQ(1U, leaf.max_in_text);
		EXPECT_LE(3U, worst.min_in_text);
		EXPECT_GE(4U, worst.max_in_text);

		c_leaf[i] = (leaf.cpu_ns - spin_leaf) / leaf.samples;
		c_worst[i] = (worst.cpu_ns - spin_worst) / worst.samples;
	}
	cl = median3(c_leaf[0], c_leaf[1], c_leaf[2]);
	cw = median3(c_worst[0], c_worst[1], c_worst[2]);
	printf("# worst: medians of %d rounds\n", ROUNDS);
	printf("# worst: one-frame table: %u samples, %.1f us of CPU per sample\n",
	       leaf.samples, cl / 1e3);
	printf("# worst: circle at the lookup bound: %u samples, %.1f us of CPU per sample\n",
	       worst.samples, cw / 1e3);
	printf("# worst: %u-%u frames of each chain in the circle\n",
	       worst.min_in_text, worst.max_in_text);
	printf("# worst: a worst-case sample costs %.1f us more than a one-frame one\n",
	       (cw - cl) / 1e3);
	printf("# worst: the spins alone, unsampled: %.0f ms, %.0f ms\n",
	       spin_leaf / 1e6, spin_worst / 1e6);
}

/*
 * The table that cannot be indexed, under samples through the deepest
 * chain: read once in the whole run (by the first sample that met it; the
 * failure stays until the registry changes), every chain whole by frame
 * pointers.
 */
TEST_F_TIMEOUT(worst, failed_index_built_once, 900)
{
	double c_fp[ROUNDS], c_bad[ROUNDS], spin_fp = 0, spin_bad = 0, cf, cb;
	long long builds0, builds1, read0, read1, max_builds = 0, max_read = 0;
	struct sampled fp, bad;

	for (int i = 0; i < ROUNDS; i++) {
		spin_fp = run_unsampled(_metadata, "fpchain");
		run_sampled(_metadata, "fpchain", &fp);
		spin_bad = run_unsampled(_metadata, "badindex");
		ASSERT_EQ(0, ut_debugfs_counter("registry", "index_builds", &builds0));
		ASSERT_EQ(0, ut_debugfs_counter("registry", "index_read", &read0));
		run_sampled(_metadata, "badindex", &bad);
		ASSERT_EQ(0, ut_debugfs_counter("registry", "index_builds", &builds1));
		ASSERT_EQ(0, ut_debugfs_counter("registry", "index_read", &read1));

		ASSERT_LE(20U, fp.samples);
		ASSERT_LE(20U, bad.samples);
		EXPECT_LE(FP_MIN_CHAIN, fp.min_in_text);
		EXPECT_LE(FP_MIN_CHAIN, bad.min_in_text)
			TH_LOG("the chains must go on with frame pointers");
		/*
		 * The table read through once, to its unreadable page, and
		 * not again: each further build of it would read 32 MiB.
		 * The rest are the small indexes of the objects the kernel
		 * found under samples of the child's setup (its program,
		 * libc, ld.so).
		 */
		EXPECT_LE((long long)(BIG_TABLE - 4096), read1 - read0);
		EXPECT_GE((long long)(BIG_TABLE + SMALL_READS), read1 - read0)
			TH_LOG("%lld index builds for %u samples, %lld MiB read",
			       builds1 - builds0, bad.samples, (read1 - read0) >> 20);
		if (builds1 - builds0 > max_builds)
			max_builds = builds1 - builds0;
		if (read1 - read0 > max_read)
			max_read = read1 - read0;

		c_fp[i] = (fp.cpu_ns - spin_fp) / fp.samples;
		c_bad[i] = (bad.cpu_ns - spin_bad) / bad.samples;
	}
	cf = median3(c_fp[0], c_fp[1], c_fp[2]);
	cb = median3(c_bad[0], c_bad[1], c_bad[2]);
	printf("# badindex: medians of %d rounds, chains of %u-%u frames\n", ROUNDS,
	       bad.min_in_text, bad.max_in_text);
	printf("# badindex: frame pointers, no table: %u samples, %.1f us of CPU per sample\n",
	       fp.samples, cf / 1e3);
	printf("# badindex: a 32 MiB table that faults: %u samples, %.1f us of CPU per sample\n",
	       bad.samples, cb / 1e3);
	printf("# badindex: at most %lld index build(s) per run, %.2f MiB read\n",
	       max_builds, max_read / 1048576.0);
	printf("# badindex: (the table's, and those of the child's own objects)\n");
	printf("# badindex: the run's whole extra CPU, the build included: %.1f ms\n",
	       (cb - cf) * bad.samples / 1e6);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "child"))
		return child(argv[2], strtol(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "child"))
		return child(argv[2], SPIN);
	return test_harness_run(argc, argv);
}
