// SPDX-License-Identifier: GPL-2.0
/*
 * What a user stack walk costs in the kernel: through the benchmark hook
 * (CONFIG_UNWIND_USER_BENCH, /sys/kernel/debug/unwind_user/bench), unwind
 * this process's own stack, 32 distinct functions deep, many times.
 *
 *	walk_bench-fp fp [WALKS]	frame pointers: every table of the
 *					process is unregistered first, and
 *					kernel.unwind_tables_discover is 0
 *					for the run, so the kernel walks
 *					frame pointers only
 *	walk_bench uaccess [N]		104 bytes of user memory read N
 *					times with one copy_from_user(),
 *					with a user access window and
 *					unsafe_get_user(), and with get_user()
 *	walk_bench libc [WALKS [SUFFIX]] no frame pointers, through libc (the
 *					32 functions called back by qsort()):
 *					"discover", every table the kernel
 *					found and every frame shared between
 *					processes forgotten before each walk
 *					(the first sample of the first process
 *					of these files, in the page cache),
 *					"known", the tables forgotten but the
 *					shared frames kept (the first sample
 *					of a new process of the same files),
 *					next to cold and warm; also in ns per
 *					walk
 *	walk_bench cfi [WALKS [SUFFIX]]	no frame pointers: the walk reads the
 *					tables the kernel found at a first,
 *					untimed walk, with the frame caches
 *					emptied before each walk (cold), with
 *					the tables forgotten and the shared
 *					frames kept (known), then all kept
 *					(warm)
 *	walk_bench jit [WALKS [SUFFIX]]	no frame pointers, through code of the
 *					program's own JIT (see jit_root()):
 *					after a first, untimed walk, cold and
 *					warm as cfi; with each run, the
 *					deltas of debugfs unwind_user/registry
 *					"searches", "searches_none",
 *					"none_cached" and "marker", if the
 *					kernel has them
 *	walk_bench-fp jit-fp [WALKS]	the same stack, walked by frame
 *					pointers as fp is
 *
 * Each prints one line per run, "walk_bench MODE: F frames, N ns/frame",
 * with F checked against the depth; MODE ends in "-SUFFIX" if one is given
 * (the harness names the kernel.unwind_tables_share setting of the run).
 * The jit runs also print "registry MODE: walks W searches S searches_none
 * N none_cached C marker M", the counters' growth over the run.
 * The stack starts at chain_root(), whose CFI marks the return address
 * undefined and which clears the frame pointer: both walks end there (the
 * frame-pointer walk one frame short).  The topmost frame is bottom()
 * (jit_bottom() in the jit modes) itself, which makes the system calls
 * inline.  Figures, not verdicts; harness/bench-kernel-guest.sh puts them
 * side by side.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "jit_chain.h"
#include "unwind_table.h"

#define BENCH_PATH	"/sys/kernel/debug/unwind_user/bench"
#define DEPTH		32

static int bench_fd;
static const char *bench_cmd;
static long bench_len;
static char bench_out[128];
static long bench_ret;

#define ALWAYS_INLINE	__attribute__((always_inline, unused))
#define NOINLINE	__attribute__((noinline, noclone))

static inline ALWAYS_INLINE long
sys3(long nr, long a, long b, long c)
{
	long ret;

	asm volatile("syscall"
		     : "=a" (ret)
		     : "0" (nr), "D" (a), "S" (b), "d" (c)
		     : "rcx", "r11", "memory");
	return ret;
}

/* The topmost frame of every walk: the write() that starts them. */
static NOINLINE void bottom(void)
{
	bench_ret = sys3(SYS_write, bench_fd, (long)bench_cmd, bench_len);
	asm volatile("" ::: "memory");
}

/* f0 .. f31: distinct functions, none a tail call. */
#define FN(n, next)							\
	static NOINLINE void f##n(void)					\
	{								\
		next();							\
		asm volatile("" ::: "memory");				\
	}
FN(31, bottom) FN(30, f31) FN(29, f30) FN(28, f29) FN(27, f28) FN(26, f27)
FN(25, f26) FN(24, f25) FN(23, f24) FN(22, f23) FN(21, f22) FN(20, f21)
FN(19, f20) FN(18, f19) FN(17, f18) FN(16, f17) FN(15, f16) FN(14, f15)
FN(13, f14) FN(12, f13) FN(11, f12) FN(10, f11) FN(9, f10) FN(8, f9)
FN(7, f8) FN(6, f7) FN(5, f6) FN(4, f5) FN(3, f4) FN(2, f3) FN(1, f2)
FN(0, f1)

/* The outermost frame: return address undefined, frame pointer 0. */
void chain_root(void (*fn)(void));
asm(".text\n"
	".globl chain_root\n"
	".type chain_root, @function\n"
	"chain_root:\n"
	"	.cfi_startproc\n"
	"	.cfi_undefined rip\n"
	"	push %rbp\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	xor %ebp, %ebp\n"
	"	call *%rdi\n"
	"	pop %rbp\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size chain_root, .-chain_root\n");

/*
 * The jit modes' stack, DEPTH + 2 frames as the others':
 *
 *	chain_root
 *	  -> jit_root			C, CFI (no frame pointer in walk_bench)
 *	    -> asm_nocfi		the program's text, frame pointer, no FDE
 *					(jit_chain_asm.S)
 *	      -> jit 0 .. JIT_DEPTH - 1	anonymous memory, frame pointers, no
 *					table
 *		-> jit_bottom		C, CFI, the topmost frame
 *
 * so that every walk meets JIT_DEPTH pcs of memory the kernel marks as
 * having no table, and one that the program's table covers but that no
 * FDE describes.
 */
#define JIT_DEPTH	(DEPTH - 2)
#define JIT_STRIDE	32
#define JIT_SIZE	4096
/* push %rbp; mov %rsp,%rbp; movabs $next,%rax; call *%rax; pop %rbp; ret */
#define JIT_FN_SIZE	18

_Static_assert(JIT_DEPTH * JIT_STRIDE <= JIT_SIZE, "the JIT's code fits its page");

/* The first function of the JIT: what asm_nocfi() calls. */
static long (*jit_entry)(long);

/* The topmost frame of the jit modes' walks, called by the JIT's last function. */
static NOINLINE long jit_bottom(long n)
{
	bench_ret = sys3(SYS_write, bench_fd, (long)bench_cmd, bench_len);
	asm volatile("" ::: "memory");
	return n;
}

/* Emit at @p a function that calls @target: JIT_FN_SIZE bytes. */
static void jit_emit(unsigned char *p, unsigned long target)
{
	static const unsigned char head[] = { 0x55, 0x48, 0x89, 0xe5, 0x48, 0xb8 };
	static const unsigned char tail[] = { 0xff, 0xd0, 0x5d, 0xc3 };

	memcpy(p, head, sizeof(head));
	memcpy(p + sizeof(head), &target, sizeof(target));
	memcpy(p + sizeof(head) + sizeof(target), tail, sizeof(tail));
}

/*
 * Map the JIT's code read-write, write its JIT_DEPTH functions, each
 * calling the next and the last jit_bottom(), and make it read-execute.
 */
static int jit_build(void)
{
	unsigned char *code;
	unsigned long target;
	int i;

	code = mmap(NULL, JIT_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return -1;
	memset(code, 0xcc, JIT_SIZE);
	for (i = 0; i < JIT_DEPTH; i++) {
		target = i == JIT_DEPTH - 1 ? (uintptr_t)jit_bottom :
		       (uintptr_t)(code + JIT_STRIDE * (i + 1));
		jit_emit(code + JIT_STRIDE * i, target);
	}
	if (mprotect(code, JIT_SIZE, PROT_READ | PROT_EXEC))
		return -1;
	jit_entry = (long (*)(long))(uintptr_t)code;
	return 0;
}

static NOINLINE void jit_root(void)
{
	asm_nocfi(0, jit_entry);
	asm volatile("" ::: "memory");
}

/* What the jit runs read from debugfs unwind_user/registry. */
static const char * const registry_names[] = {
	"searches", "searches_none", "none_cached", "marker",
};

#define REGISTRY_NR	(sizeof(registry_names) / sizeof(registry_names[0]))

/* The counters, or -1 if the kernel has not all of them. */
static int registry_read(long long *val)
{
	unsigned int i;

	for (i = 0; i < REGISTRY_NR; i++)
		if (ut_debugfs_counter("registry", registry_names[i], &val[i]))
			return -1;
	return 0;
}

/* The walks start under qsort() in libc, through its callback. */
static bool via_libc, libc_pending;
/* They start at jit_root(). */
static bool via_jit;

static int cmp_calls_f0(const void *a, const void *b)
{
	/* One run of walks per qsort(): the first comparison makes it. */
	if (libc_pending) {
		libc_pending = false;
		f0();
	}
	return *(const int *)a - *(const int *)b;
}

static NOINLINE void libc_root(void)
{
	int v[2] = { 2, 1 };

	qsort(v, 2, sizeof(v[0]), cmp_calls_f0);
	asm volatile("" ::: "memory");
}

static const char *mode_suffix = "";

static int run(const char *mode, const char *cmd)
{
	long long before[REGISTRY_NR], after[REGISTRY_NR];
	unsigned long walks, frames;
	bool counted = false;
	unsigned long long ns;
	unsigned int i;

	bench_cmd = cmd;
	bench_len = strlen(cmd);
	libc_pending = true;
	if (via_jit)
		counted = !registry_read(before);
	chain_root(via_libc ? libc_root : via_jit ? jit_root : f0);
	if (counted)
		counted = !registry_read(after);
	if (bench_ret < 0) {
		fprintf(stderr, "walk_bench: %s: %s\n", cmd, strerror(-bench_ret));
		return -1;
	}
	memset(bench_out, 0, sizeof(bench_out));
	if (pread(bench_fd, bench_out, sizeof(bench_out) - 1, 0) <= 0) {
		perror("walk_bench: read");
		return -1;
	}
	if (sscanf(bench_out, "walks %lu frames %lu ns %llu", &walks, &frames, &ns) != 3 ||
	    !walks || !frames) {
		fprintf(stderr, "walk_bench: %s: bad answer: %s\n", cmd, bench_out);
		return -1;
	}
	printf("walk_bench %s%s: %lu frames, %.1f ns/frame, %.1f ns/walk\n", mode,
	       mode_suffix, frames, (double)ns / walks / frames, (double)ns / walks);
	if (counted) {
		printf("registry %s%s: walks %lu", mode, mode_suffix, walks);
		for (i = 0; i < REGISTRY_NR; i++)
			printf(" %s %lld", registry_names[i], after[i] - before[i]);
		printf("\n");
	}
	/*
	 * Under qsort(): bottom, f31..f0, the comparison, glibc's sort
	 * (a few frames), libc_root, chain_root.
	 */
	if (via_libc && (frames < DEPTH + 5 || frames > DEPTH + 12)) {
		fprintf(stderr, "walk_bench: %s: %lu frames, want %d to %d\n", mode,
			frames, DEPTH + 5, DEPTH + 12);
		return -1;
	}
	/*
	 * bottom, f31..f0, chain_root (or jit_bottom, the JIT's functions,
	 * asm_nocfi, jit_root, chain_root); the frame-pointer walk stops
	 * before chain_root, whose caller's frame pointer it finds 0.
	 */
	if (!via_libc && (frames < DEPTH + 1 || frames > DEPTH + 2)) {
		fprintf(stderr, "walk_bench: %s: %lu frames, want %d or %d\n", mode,
			frames, DEPTH + 1, DEPTH + 2);
		return -1;
	}
	return 0;
}

/*
 * The kernel's two ways of reading the 104 bytes of an FDE, next to each
 * other: one copy_from_user(), or a user access window of unsafe_get_user().
 */
static int run_uaccess(const char *n)
{
	unsigned long long copy, window, get;
	unsigned long runs;
	char cmd[32];

	snprintf(cmd, sizeof(cmd), "uaccess %s", n);
	if (pwrite(bench_fd, cmd, strlen(cmd), 0) != (ssize_t)strlen(cmd)) {
		perror("walk_bench: uaccess");
		return -1;
	}
	memset(bench_out, 0, sizeof(bench_out));
	if (pread(bench_fd, bench_out, sizeof(bench_out) - 1, 0) <= 0 ||
	    sscanf(bench_out, "uaccess %lu copy %llu window %llu get_user %llu", &runs,
		   &copy, &window, &get) != 4 || !runs) {
		fprintf(stderr, "walk_bench: uaccess: bad answer: %s\n", bench_out);
		return -1;
	}
	printf("walk_bench uaccess: copy_from_user %.1f ns, window %.1f ns, get_user %.1f ns\n",
	       (double)copy / runs, (double)window / runs, (double)get / runs);
	return 0;
}

/*
 * Unregister everything, registered or found (unregistering takes either):
 * with no table, the kernel walks frame pointers.
 */
static int unregister_all(void)
{
	char *tables = ut_read_tables(), *line;
	struct ut_line l;
	int ret = 0, err;

	if (!tables)
		return -1;
	for (line = tables; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (ut_parse_line(line, &l) || (strcmp(l.format, "eh_frame_hdr") &&
						strcmp(l.format, "eh_frame")))
			continue;
		err = ut_unregister_format(strcmp(l.format, "eh_frame") ?
					   PR_EH_FRAME_FORMAT_EH_FRAME_HDR :
					   PR_EH_FRAME_FORMAT_EH_FRAME, l.start, l.end);
		if (err) {
			fprintf(stderr, "walk_bench: unregister %llx-%llx: %s\n",
				(unsigned long long)l.start, (unsigned long long)l.end,
				strerror(-err));
			ret = -1;
		}
	}
	free(tables);
	return ret;
}

int main(int argc, char **argv)
{
	const char *walks = argc > 2 ? argv[2] : "20000";
	char cold[32], warm[32], discover[32], known[32], suffix[32] = "";

	if (argc < 2 || (strcmp(argv[1], "fp") && strcmp(argv[1], "cfi") &&
			 strcmp(argv[1], "uaccess") && strcmp(argv[1], "libc") &&
			 strcmp(argv[1], "jit") && strcmp(argv[1], "jit-fp"))) {
		fprintf(stderr,
			"usage: walk_bench fp|cfi|libc|jit|jit-fp|uaccess [WALKS [SUFFIX]]\n");
		return 2;
	}
	via_jit = !strncmp(argv[1], "jit", 3);
	if (via_jit && jit_build()) {
		perror("walk_bench: the JIT");
		return 1;
	}
	bench_fd = open(BENCH_PATH, O_RDWR);
	if (bench_fd < 0) {
		perror(BENCH_PATH);
		return 1;
	}
	snprintf(cold, sizeof(cold), "cold %s", walks);
	snprintf(warm, sizeof(warm), "warm %s", walks);
	snprintf(discover, sizeof(discover), "discover %s", walks);
	snprintf(known, sizeof(known), "known %s", walks);
	if (argc > 3) {
		snprintf(suffix, sizeof(suffix), "-%s", argv[3]);
		mode_suffix = suffix;
	}

	if (!strcmp(argv[1], "uaccess"))
		return run_uaccess(walks) ? 1 : 0;
	if (!strcmp(argv[1], "fp") || !strcmp(argv[1], "jit-fp")) {
		int discover = ut_read_discover(), ret;

		/* Else the walk would find the tables again. */
		if (discover < 0 || ut_write_discover(0)) {
			perror("walk_bench: " UNWIND_TABLES_DISCOVER_PATH);
			return 1;
		}
		ret = unregister_all() || run(argv[1], warm);
		if (ut_write_discover(discover)) {
			perror("walk_bench: " UNWIND_TABLES_DISCOVER_PATH);
			ret = 1;
		}
		return ret;
	}
	/* The tables found anew at every walk, then known, then cached. */
	if (!strcmp(argv[1], "libc")) {
		via_libc = true;
		if (run("libc-discover", discover) || run("libc-known", known) ||
		    run("libc-cold", cold) || run("libc-warm", warm))
			return 1;
		return 0;
	}
	/* One walk finds the tables: what the timed ones measure is lookups. */
	bench_cmd = "warm 1";
	bench_len = strlen(bench_cmd);
	libc_pending = false;
	chain_root(via_jit ? jit_root : f0);
	/*
	 * Not "known": forgetting the tables found would forget the JIT's
	 * marker too, and each walk would probe its memory again.
	 */
	if (via_jit)
		return run("jit-cold", cold) || run("jit-warm", warm) ? 1 : 0;
	if (run("cfi-cold", cold) || run("cfi-known", known) ||
	    run("cfi-warm", warm))
		return 1;
	return 0;
}
