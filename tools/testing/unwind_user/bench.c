// SPDX-License-Identifier: GPL-2.0
/*
 * How fast is the .eh_frame unwinder, next to the alternatives?  Unwind
 * this process's own live stack, 64 distinct functions deep (bench_rec.c),
 * with:
 *
 *  (a) this project's engine: the kernel's own walk, unwind_user() of
 *      kernel/unwind/user.c (walk.c), with the registry's lookup (the row
 *      cache, then the table: eh_frame_find_fde() and cfi_eval_frame()),
 *      reading memory through the fake copy_from_user(), whose regions here
 *      map to themselves: each loaded object's .eh_frame_hdr and .eh_frame,
 *      and the stack;
 *  (b) a frame-pointer walk, over the same recursion built with frame
 *      pointers;
 *  (c) libunwind's unw_backtrace();
 *  (d) libgcc's _Unwind_Backtrace().
 *
 * and print the frames each found and the ns per frame (median of
 * BENCH_RUNS runs), with ratios to the frame-pointer walk.  It prints
 * figures, not verdicts; it only fails if a method finds fewer than 64
 * frames or the engine's return addresses for the recursion differ from
 * _Unwind_Backtrace's, the independent truth.
 *
 * The engine runs four ways: without the tables' indexes and the row cache
 * (every frame is a binary search of .eh_frame_hdr in user memory, an FDE
 * and CIE decode and a CFI evaluation, and every read is a
 * copy_from_user(): here a memcpy() from the region; in the kernel, a user
 * access with its fault handling), with the indexes the registry builds at
 * a table's first lookup (one read of a block of the search table, one of
 * the FDE; the CIEs cached), with the row cache cold as well (a new
 * registry generation before every walk: each frame is a miss, a lookup
 * and an insert), and warm (the frames of the previous walk are rows: a
 * hash probe, then the stack reads the rules need).  The cache comes
 * before the object search, as it comes before the registry's tree in the
 * kernel.
 *
 * With a PE32+ image as argument (make bench passes a mingw DLL), it also
 * times the PE unwinder (kernel/unwind/pe.c) on it: Windows code cannot
 * run here, so not a walk but a lookup at the middle of every function,
 * as a return address and as the thread's pc (which decodes the
 * instructions there), each followed by applying the frame to a stack.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unwind.h>
#include <libunwind.h>

#include <linux/err.h>
#include <linux/unaligned.h>

#include "../../../kernel/unwind/cache.h"
#include "../../../kernel/unwind/eh_frame.h"
#include "lookup.h"
#include "../../../kernel/unwind/pe.h"
#include "bench.h"
#include "dwarf_regs.h"
#include "fake_user.h"
#include "pe_builder.h"
#include "pe_load.h"
#include "walk.h"

#define MAX_FRAMES	256
/* All but one region of the fake address space; that one is the stack. */
#define MAX_OBJECTS	(FAKE_USER_MAX_REGIONS - 1)
#define BENCH_RUNS	15
/* Each timed run lasts about this long. */
#define RUN_NS		10000000.0

static const struct eh_frame_regs regs_x86_64 = DWARF_REGS_X86_64;

/* A loaded object with an .eh_frame_hdr, as the kernel's registry has it. */
struct object {
	unsigned long		text_start;
	unsigned long		text_end;
	struct eh_frame_section	sec;
	struct eh_frame_index	*index;	/* built at its first lookup */
	double			index_ns; /* what building it took */
	unsigned long		index_copies;
};

static struct object objects[MAX_OBJECTS];
static unsigned int nr_objects, nr_mapped;
static unsigned long stack_lo, stack_hi;
static bool stack_mapped;
static int engine_stop;		/* why the engine's last walk ended */

/* The row cache of the engine, and how the engine uses it. */
enum { CACHE_OFF, CACHE_COLD, CACHE_WARM };
static struct unwind_user_cache *bench_cache;
static u64 bench_gen = 1;
static int cache_mode;
static bool use_index;

/* libgcc's unwinder, from libgcc_s: libunwind exports these names too. */
static _Unwind_Reason_Code (*gcc_backtrace)(_Unwind_Trace_Fn fn, void *arg);
static _Unwind_Ptr (*gcc_get_ip)(struct _Unwind_Context *ctx);

struct method {
	const char	*name;
	int		(*unwind)(unsigned long frame, unsigned long *ips, int max);
	unsigned long	ips[MAX_FRAMES];	/* from the first, untimed run */
	int		frames;
	double		ns_per_frame;
};

/* Register one object: its text, and its .eh_frame_hdr to the end of the data. */
static int add_object(struct dl_phdr_info *info, size_t size, void *data)
{
	unsigned long hdr = 0, hdr_size = 0, data_start = 0, data_end = 0;
	unsigned long text_start = ~0UL, text_end = 0, start;
	struct unwind_user_eh_frame desc;
	struct object *obj = &objects[nr_objects];
	const char *name = info->dlpi_name[0] ? info->dlpi_name : "(main)";
	int i, ret;

	for (i = 0; i < info->dlpi_phnum; i++) {
		const Elf64_Phdr *ph = &info->dlpi_phdr[i];

		start = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_GNU_EH_FRAME) {
			hdr = start;
			hdr_size = ph->p_memsz;
		} else if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			if (start < text_start)
				text_start = start;
			if (start + ph->p_memsz > text_end)
				text_end = start + ph->p_memsz;
		}
	}
	/* .eh_frame is in the segment of .eh_frame_hdr (binfmt's rule). */
	for (i = 0; hdr && i < info->dlpi_phnum; i++) {
		const Elf64_Phdr *ph = &info->dlpi_phdr[i];

		start = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && hdr >= start &&
		    hdr < start + ph->p_filesz) {
			data_start = start;
			data_end = start + ph->p_filesz;
		}
	}
	if (!data_end || text_start >= text_end)
		return 0;
	if (nr_mapped == MAX_OBJECTS) {
		fprintf(stderr, "bench: %s: too many objects\n", name);
		return 0;
	}

	/* The section's "user" addresses are its real ones. */
	fake_user_map(data_start, (const void *)data_start, data_end - data_start);
	nr_mapped++;
	desc = (struct unwind_user_eh_frame) {
		.text_start = text_start, .text_end = text_end,
		.eh_frame_start = data_start, .eh_frame_end = data_end,
		.hdr_start = hdr, .hdr_end = hdr + hdr_size,
		.ptr_size = sizeof(long),
	};
	ret = eh_frame_section_init(&obj->sec, &desc, NULL);
	if (ret) {
		fprintf(stderr, "bench: %s: eh_frame_section_init: %d\n", name, ret);
		return 0;
	}
	obj->text_start = text_start;
	obj->text_end = text_end;
	nr_objects++;
	return 0;
}

static struct object *find_object(unsigned long pc)
{
	unsigned int i;

	for (i = 0; i < nr_objects; i++) {
		if (pc >= objects[i].text_start && pc < objects[i].text_end)
			return &objects[i];
	}
	return NULL;
}

static double now_ns(void);

/* The index of @obj, built as the registry builds it: at its first lookup. */
static struct eh_frame_index *object_index(struct object *obj)
{
	unsigned long copies = fake_user_copies;
	double t0;

	if (!use_index || obj->index)
		return use_index ? obj->index : NULL;
	t0 = now_ns();
	obj->index = eh_frame_index_build(&obj->sec, SIZE_MAX, NULL);
	obj->index_ns = now_ns() - t0;
	obj->index_copies = fake_user_copies - copies;
	if (IS_ERR(obj->index)) {
		fprintf(stderr, "bench: index: %ld\n", PTR_ERR(obj->index));
		obj->index = NULL;
	}
	return obj->index;
}

/* The registry's lookup: the row cache, then the table of the pc's object. */
static int engine_find(unsigned long pc, unsigned int *budget,
		       struct unwind_user_frame *frame)
{
	unsigned int cost, before = *budget;
	struct object *obj;

	if (cache_mode != CACHE_OFF &&
	    unwind_user_cache_lookup(bench_cache, pc, sizeof(long), bench_gen,
				     frame, &cost)) {
		if (cost > *budget) {
			*budget = 0;
			return -EOPNOTSUPP;
		}
		*budget -= cost;
		return 0;
	}
	obj = find_object(pc);
	if (!obj)
		return -ENOENT;
	engine_stop = eh_lookup(&obj->sec, object_index(obj), &regs_x86_64, pc,
				frame, budget);
	if (!engine_stop && cache_mode != CACHE_OFF)
		unwind_user_cache_insert(bench_cache, pc, sizeof(long), bench_gen,
					 frame, before - *budget);
	return engine_stop;
}

/* (a) This project's engine, from the registers at a point in this function. */
static noinline int
engine_unwind(unsigned long frame, unsigned long *ips, int max)
{
	struct walk_state st = { .ws = sizeof(long), .topmost = true };

	/* A pc, and the sp and fp that its CFI row describes. */
	asm volatile("lea 1f(%%rip), %0\n1:\n\t"
		     "mov %%rsp, %1\n\t"
		     "mov %%rbp, %2"
		     : "=r" (st.ip), "=r" (st.sp), "=r" (st.fp));

	/* Map the live stack from here up, once: no later call is deeper. */
	if (!stack_mapped) {
		fake_user_map(st.sp, (const void *)st.sp, stack_hi - st.sp);
		stack_mapped = true;
	}

	/* Cold: the registry changed since the last walk. */
	if (cache_mode == CACHE_COLD)
		bench_gen++;

	engine_stop = 0;
	return walk_unwind(&st, engine_find, ips, max);
}

static noinline int
engine_index_unwind(unsigned long frame, unsigned long *ips, int max)
{
	int n;

	use_index = true;
	n = engine_unwind(frame, ips, max);
	use_index = false;
	return n;
}

static noinline int
engine_cold_unwind(unsigned long frame, unsigned long *ips, int max)
{
	int n;

	cache_mode = CACHE_COLD;
	n = engine_index_unwind(frame, ips, max);
	cache_mode = CACHE_OFF;
	return n;
}

static noinline int
engine_warm_unwind(unsigned long frame, unsigned long *ips, int max)
{
	int n;

	cache_mode = CACHE_WARM;
	n = engine_index_unwind(frame, ips, max);
	cache_mode = CACHE_OFF;
	return n;
}

/* (b) Frame pointers, from the frame record of bottom() in the fp build. */
static noinline int
fp_unwind(unsigned long frame, unsigned long *ips, int max)
{
	const unsigned long *rec;
	int n = 0;

	/* The checks a real frame-pointer walk makes: on the stack, upwards. */
	while (n < max && frame >= stack_lo && frame <= stack_hi - 16 &&
	       !(frame & 7)) {
		rec = (const unsigned long *)frame;
		ips[n++] = rec[1];
		if (rec[0] <= frame)
			break;
		frame = rec[0];
	}
	return n;
}

/* (c) libunwind */
static noinline int
libunwind_unwind(unsigned long frame, unsigned long *ips, int max)
{
	return unw_backtrace((void **)ips, max);
}

/* (d) libgcc */
struct gcc_trace {
	unsigned long	*ips;
	int		n;
	int		max;
};

static _Unwind_Reason_Code gcc_trace_fn(struct _Unwind_Context *ctx, void *arg)
{
	struct gcc_trace *t = arg;

	if (t->n == t->max)
		return _URC_END_OF_STACK;
	/*
	 * Past the outermost frame (RA undefined) libgcc calls once more,
	 * with ip 0: that is no frame.
	 */
	t->ips[t->n] = gcc_get_ip(ctx);
	if (!t->ips[t->n])
		return _URC_END_OF_STACK;
	t->n++;
	return _URC_NO_REASON;
}

static noinline int
libgcc_unwind(unsigned long frame, unsigned long *ips, int max)
{
	struct gcc_trace t = { .ips = ips, .max = max };

	gcc_backtrace(gcc_trace_fn, &t);
	return t.n;
}

static struct method methods[] = {
	{ .name = "frame pointers (fp build)", .unwind = fp_unwind },
	{ .name = "engine, no index, no cache", .unwind = engine_unwind },
	{ .name = "engine, index, no cache", .unwind = engine_index_unwind },
	{ .name = "engine, row cache cold", .unwind = engine_cold_unwind },
	{ .name = "engine, row cache warm", .unwind = engine_warm_unwind },
	{ .name = "libunwind unw_backtrace", .unwind = libunwind_unwind },
	{ .name = "libgcc _Unwind_Backtrace", .unwind = libgcc_unwind },
};

enum {
	M_FP, M_ENGINE, M_ENGINE_INDEX, M_ENGINE_COLD, M_ENGINE_WARM,
	M_LIBUNWIND, M_LIBGCC
};

#define NR_ENGINES	4

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Iterations of @m that take about RUN_NS, after a first, untimed walk. */
static noinline unsigned long calibrate(struct method *m, unsigned long frame)
{
	static unsigned long scratch[MAX_FRAMES];
	unsigned long iters = 1, i;
	double t0, t;

	m->frames = m->unwind(frame, m->ips, MAX_FRAMES);
	if (m->frames <= 0)
		return 0;

	/* Enough iterations for a tenth of a run, then scale up. */
	for (;;) {
		t0 = now_ns();
		for (i = 0; i < iters; i++)
			m->unwind(frame, scratch, MAX_FRAMES);
		t = now_ns() - t0;
		if (t >= RUN_NS / 10)
			break;
		iters *= 2;
	}
	return iters * (RUN_NS / t) + 1;
}

/*
 * Time methods @first to @last: BENCH_RUNS rounds of a run of about RUN_NS
 * each, the methods in turn within a round, so that the machine's moods
 * (other guests, frequency) fall on all of them alike; keep the medians.
 */
static noinline void
measure(unsigned int first, unsigned int last, unsigned long frame)
{
	static unsigned long scratch[MAX_FRAMES];
	double runs[M_LIBGCC + 1][BENCH_RUNS], t0;
	unsigned long iters[M_LIBGCC + 1], i;
	unsigned int m;
	int r;

	for (m = first; m <= last; m++)
		iters[m] = calibrate(&methods[m], frame);
	for (r = 0; r < BENCH_RUNS; r++) {
		for (m = first; m <= last; m++) {
			if (!iters[m])
				continue;
			t0 = now_ns();
			for (i = 0; i < iters[m]; i++)
				methods[m].unwind(frame, scratch, MAX_FRAMES);
			runs[m][r] = (now_ns() - t0) / iters[m] / methods[m].frames;
		}
	}
	for (m = first; m <= last; m++) {
		if (!iters[m])
			continue;
		qsort(runs[m], BENCH_RUNS, sizeof(runs[m][0]), cmp_double);
		methods[m].ns_per_frame = runs[m][BENCH_RUNS / 2];
	}
}

/* The return address into omit_rec_63(): where the recursion starts, upwards. */
static unsigned long anchor;
/* Per frame, for the engine without cache, cold and warm. */
static double engine_copies[NR_ENGINES], engine_bytes[NR_ENGINES];
static double warm_hit_rate;

static int dwarf_bottom(struct bench_ctx *ctx, unsigned long ra,
			unsigned long frame)
{
	static unsigned long scratch[MAX_FRAMES];
	struct unwind_user_cache_stats st0, st1;
	unsigned long lookups;
	int i, n;

	anchor = ra;
	measure(M_ENGINE, M_LIBGCC, frame);

	/*
	 * What one walk of each engine asks of copy_from_user() (warm: after
	 * the walk before it), and how often a warm walk hits.
	 */
	for (i = 0; i < NR_ENGINES; i++) {
		struct method *e = &methods[M_ENGINE + i];

		e->unwind(frame, scratch, MAX_FRAMES);
		unwind_user_cache_get_stats(bench_cache, &st0);
		fake_user_copies = 0;
		fake_user_bytes = 0;
		n = e->unwind(frame, scratch, MAX_FRAMES);
		unwind_user_cache_get_stats(bench_cache, &st1);
		if (n > 0) {
			engine_copies[i] = (double)fake_user_copies / n;
			engine_bytes[i] = (double)fake_user_bytes / n;
		}
		lookups = st1.hits + st1.misses - st0.hits - st0.misses;
		if (M_ENGINE + i == M_ENGINE_WARM && lookups)
			warm_hit_rate = (double)(st1.hits - st0.hits) / lookups;
	}
	return 0;
}

static int fp_bottom(struct bench_ctx *ctx, unsigned long ra,
		     unsigned long frame)
{
	measure(M_FP, M_FP, frame);
	return 0;
}

static int find_ip(const struct method *m, unsigned long ip)
{
	int i;

	for (i = 0; i < m->frames; i++) {
		if (m->ips[i] == ip)
			return i;
	}
	return -1;
}

/*
 * Compare @m's return addresses from the anchor up with libgcc's: return
 * how many agree in a row, and set *@rest to how many libgcc has there.
 */
static int agree(const struct method *m, int *rest)
{
	const struct method *g = &methods[M_LIBGCC];
	int i = find_ip(m, anchor), j = find_ip(g, anchor), k = 0;

	*rest = j < 0 ? 0 : g->frames - j;
	if (i < 0 || j < 0)
		return 0;
	while (i + k < m->frames && j + k < g->frames &&
	       m->ips[i + k] == g->ips[j + k])
		k++;
	return k;
}

static int setup(void)
{
	pthread_attr_t attr;
	void *libgcc, *addr;
	size_t size;

	libgcc = dlopen("libgcc_s.so.1", RTLD_NOW);
	if (libgcc) {
		gcc_backtrace = dlsym(libgcc, "_Unwind_Backtrace");
		gcc_get_ip = dlsym(libgcc, "_Unwind_GetIP");
	}
	if (!gcc_backtrace || !gcc_get_ip) {
		fprintf(stderr, "bench: libgcc_s: %s\n", dlerror());
		return -1;
	}

	if (pthread_getattr_np(pthread_self(), &attr) ||
	    pthread_attr_getstack(&attr, &addr, &size)) {
		fprintf(stderr, "bench: no stack bounds\n");
		return -1;
	}
	pthread_attr_destroy(&attr);
	stack_lo = (unsigned long)addr;
	stack_hi = stack_lo + size;

	fake_user_reset();
	dl_iterate_phdr(add_object, NULL);
	bench_cache = unwind_user_cache_alloc();
	if (!bench_cache) {
		fprintf(stderr, "bench: no row cache\n");
		return -1;
	}
	return 0;
}

/* PE: every function's middle, looked up (and applied) in turn. */
#define PE_BENCH_MAX_PCS	65536

static struct pe_unwind_image pe_img;
static unsigned long pe_pcs[PE_BENCH_MAX_PCS];
static unsigned int pe_nr_pcs;
static u64 pe_stack[64];

static double pe_pass(unsigned int flags)
{
	struct pe_unwind_frame f;
	double t0 = now_ns();
	unsigned int i, j, budget;
	u64 regs[16], ip;
	int bad = 0;

	for (i = 0; i < pe_nr_pcs; i++) {
		/* Each lookup as the first of a walk */
		budget = UNWIND_USER_TABLE_BUDGET;
		if (pe_unwind_find_frame(&pe_img, pe_pcs[i], flags, &f,
					 &budget)) {
			bad++;
			continue;
		}
		for (j = 0; j < 16; j++)
			regs[j] = (unsigned long)&pe_stack[8];
		pb_apply(&f, regs, &ip);
	}
	if (bad)
		printf("FAIL: %d PE lookups failed\n", bad);
	return (now_ns() - t0) / pe_nr_pcs;
}

static int bench_pe(const char *path)
{
	double runs[BENCH_RUNS];
	unsigned int i, r, k;
	u32 size, table, n;
	u64 base;
	u8 *img;

	img = pe_load(path, &size, &base);
	fake_user_reset();
	fake_user_map(base, img, size);
	fake_user_map((unsigned long)pe_stack, pe_stack, sizeof(pe_stack));
	if (pe_unwind_image_init(&pe_img, base, size, NULL)) {
		printf("FAIL: %s: not a PE image the unwinder takes\n", path);
		return 0;
	}
	table = pe_img.table;
	n = pe_img.nr_entries;
	for (i = 0; i < n && pe_nr_pcs < PE_BENCH_MAX_PCS; i++) {
		const u8 *rf = img + table + 12 * i;
		u32 begin = get_unaligned((const u32 *)rf);
		u32 end = get_unaligned((const u32 *)(rf + 4));

		pe_pcs[pe_nr_pcs++] = base + begin + (end - begin) / 2;
	}
	printf("\nPE unwinder (kernel/unwind/pe.c), %s:\n", path);
	printf("%u functions, a lookup + apply at the middle of each; median of %d runs\n",
	       n, BENCH_RUNS);
	for (k = 0; k < 2; k++) {
		unsigned int flags = k ? PE_UNWIND_EXACT_PC : 0;
		unsigned long copies;

		pe_pass(flags);
		for (r = 0; r < BENCH_RUNS; r++) {
			double t = 0;
			unsigned int passes = 0;

			while (t < RUN_NS && passes < 1000) {
				t += pe_pass(flags) * pe_nr_pcs;
				passes++;
			}
			runs[r] = t / passes / pe_nr_pcs;
		}
		qsort(runs, BENCH_RUNS, sizeof(runs[0]), cmp_double);
		fake_user_copies = 0;
		pe_pass(flags);
		copies = fake_user_copies;
		printf("%-28s %10.1f ns/frame, %.1f copy_from_user() calls\n",
		       k ? "pe: topmost (epilog check)" : "pe: return address",
		       runs[BENCH_RUNS / 2], (double)copies / pe_nr_pcs);
	}
	free(img);
	return 1;
}

int main(int argc, char **argv)
{
	struct unwind_user_cache_stats cst;
	struct bench_ctx ctx;
	const struct method *fp = &methods[M_FP];
	int i, same, rest, ok = 1;

	if (setup())
		return 2;

	ctx.bottom = dwarf_bottom;
	omit_recurse(&ctx);
	ctx.bottom = fp_bottom;
	fp_recurse(&ctx);

	printf("Unwinding a live stack %d distinct functions deep (+ the frames\n"
	       "above and below), gcc -O2; median of %d runs; %u objects\n"
	       "registered with the engine\n\n",
	       BENCH_DEPTH, BENCH_RUNS, nr_objects);
	printf("%-28s %7s %10s %10s %9s\n", "method", "frames", "ns/frame",
	       "ns/walk", "vs fp");
	for (i = 0; i < (int)ARRAY_SIZE(methods); i++) {
		const struct method *m = &methods[i];

		printf("%-28s %7d %10.1f %10.0f %8.1fx\n", m->name, m->frames,
		       m->ns_per_frame, m->ns_per_frame * m->frames,
		       fp->ns_per_frame > 0 ? m->ns_per_frame / fp->ns_per_frame : 0);
		if (m->frames < BENCH_DEPTH) {
			printf("FAIL: %s found %d frames, fewer than %d\n",
			       m->name, m->frames, BENCH_DEPTH);
			ok = 0;
		}
	}
	printf("\ncopy_from_user() per frame (stack reads included):\n");
	for (i = 0; i < NR_ENGINES; i++)
		printf("%-28s %7.1f calls %7.0f bytes\n", methods[M_ENGINE + i].name,
		       engine_copies[i], engine_bytes[i]);
	unwind_user_cache_get_stats(bench_cache, &cst);
	printf("row cache: %lu rows, %lu bytes; warm walk hit rate %.1f%%\n",
	       cst.rows, cst.bytes, 100 * warm_hit_rate);
	for (i = 0; i < (int)nr_objects; i++) {
		if (objects[i].index)
			printf("index of object %d: %zu bytes, built in %.1f us with %lu reads\n",
			       i, eh_frame_index_bytes(objects[i].index),
			       objects[i].index_ns / 1000, objects[i].index_copies);
	}
	printf("engine: walk ended with %d%s\n", engine_stop,
	       engine_stop ? "" : " (outermost frame: RA undefined)");

	for (i = M_ENGINE; i < M_ENGINE + NR_ENGINES; i++) {
		same = agree(&methods[i], &rest);
		printf("%s vs _Unwind_Backtrace: %d of %d return addresses %s\n",
		       methods[i].name, same, rest, "from rec_63 up agree");
		if (same < BENCH_DEPTH) {
			printf("FAIL: %s: return addresses differ from %s\n",
			       methods[i].name, "_Unwind_Backtrace's");
			ok = 0;
		}
	}
	same = agree(&methods[M_LIBUNWIND], &rest);
	printf("libunwind vs _Unwind_Backtrace: %d of %d agree (for information)\n",
	       same, rest);
	if (argc > 1 && !bench_pe(argv[1]))
		ok = 0;
	return ok ? 0 : 1;
}
