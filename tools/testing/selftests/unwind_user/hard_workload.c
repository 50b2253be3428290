// SPDX-License-Identifier: GPL-2.0
/*
 * Call paths whose frames need more than simple CFA rules, for hard_cases.c.
 * Built without frame pointers; the Makefile checks with readelf that the
 * compiler produced the CFI each case is about (hard_check.sh).
 *
 * Every path is main -> a -> b -> c -> ..., where c allocates a variable
 * amount of stack: it keeps its CFA in %rbp, so a chain gets past c only if
 * the frames below it gave back the right %rbp.
 *
 *   hard_workload drap calls N	c -> drap_mid -> drap_fn (stack realignment
 *				with a DRAP register: its CFA is a DWARF
 *				expression) -> drap_leaf, which returns at
 *				once; N times
 *   hard_workload drap spin MS	the same once; drap_leaf spins MS ms
 *   hard_workload signal MS	c -> sig_d, which sends itself SIGUSR1 with
 *				a syscall instruction of its own; the handler
 *				(handler_spin) spins MS ms
 *   hard_workload nested MS	the same, but SIGUSR1's handler (handler_raise)
 *				sends SIGUSR2, whose handler spins
 *   hard_workload altstack MS	signal, the handler on an mmap()ed
 *				sigaltstack (below the main stack)
 *   hard_workload altstack_up MS
 *				signal, the handler on a sigaltstack in main's
 *				frame: above the frames it interrupted
 *   hard_workload timer N MS	c -> d_tight, a tight loop; a CPU-time
 *				interval timer interrupts it anywhere in the
 *				loop, N times; each handler (handler_tick)
 *				spins MS ms
 *   hard_workload longjmp MS	c -> lj_f, which calls lj_g; lj_g longjmp()s
 *				back into lj_f, which then calls lj_spin: it
 *				spins MS ms (for uretprobes on lj_f and lj_g:
 *				lj_g's never fires, its frame is gone)
 *   hard_workload nx N		c -> nx_call -> nx_mid, which keeps a frame
 *				pointer and enters nx_leaf with a return
 *				address in .data, where no code is; N times
 *   hard_workload null N	c -> null_call, which calls through a NULL
 *				function pointer; the SIGSEGV handler jumps
 *				back into null_call; N times
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* See workload.c: real, separately named functions, no tail calls. */
#define WORKLOAD_FN	__attribute__((noinline, noclone, used))

#define STR(x)		#x

static inline void after_call(void)
{
	asm volatile("" ::: "memory");
}

volatile unsigned long sink;

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Inlined: the samples must land in the function that spins. */
static inline __attribute__((always_inline)) void spin(unsigned long ms)
{
	double end = cpu_ms() + ms;

	do {
		for (unsigned long i = 0; i < 100000; i++)
			sink += i;
	} while (cpu_ms() < end);
}

enum mode { M_DRAP, M_SIGNAL, M_TIMER, M_LONGJMP, M_NX, M_NULL };

/* DRAP ------------------------------------------------------------------ */

WORKLOAD_FN void drap_leaf(char *p, unsigned long ms)
{
	sink += p[0];
	if (!ms)
		return;
	spin(ms);
}

/*
 * A local aligned beyond the ABI's 16 bytes makes GCC realign the stack;
 * with a dynamic allocation as well it keeps the incoming stack pointer in
 * a DRAP register and describes the frame with DW_CFA_def_cfa_expression
 * (CFA = *(%rbp - 8)) and %rbp with DW_CFA_expression.  The nop past the
 * prologue is where the uprobe goes (its offset in drap_fn is the first
 * word of .probe_drap); nops are emulated, not single-stepped.
 */
WORKLOAD_FN void drap_fn(unsigned long n, unsigned long ms)
{
	char aligned[64] __attribute__((aligned(64)));
	char *dyn = __builtin_alloca(n);

	aligned[0] = 1;
	dyn[0] = 2;
	asm volatile("" : : "r"(aligned), "r"(dyn) : "memory");
	asm volatile("1: nop\n"
		     ".pushsection .probe_drap, \"\", @progbits\n"
		     ".long 1b - " STR(drap_fn) "\n"
		     ".popsection");
	drap_leaf(aligned, ms);
	after_call();
	sink += dyn[0] + aligned[0];
}

/*
 * drap_fn's caller keeps its CFA in %rsp: a walk that took drap_fn's frame
 * for a frame-pointer one (CFA = %rbp + 16, the realigned frame; GCC copies
 * the return address there for such walks) would look for drap_mid's
 * return address in the wrong place.
 */
WORKLOAD_FN void drap_mid(unsigned long n, unsigned long ms)
{
	volatile char buf[40];

	buf[0] = 4;
	asm volatile("" : : "r"(buf) : "memory");
	drap_fn(n, ms);
	after_call();
	sink += buf[0];
}

/* Signals --------------------------------------------------------------- */

static pid_t self_pid, self_tid;
static unsigned long handler_ms;
int sig_done;			/* read by d_tight */
static unsigned long ticks, nr_ticks;

/* tgkill(self, @sig) with a syscall instruction of the caller's own. */
static inline __attribute__((always_inline)) void raise_here(int sig)
{
	long ret;

	asm volatile("syscall"
		     : "=a"(ret)
		     : "0"((long)SYS_tgkill), "D"((long)self_pid), "S"((long)self_tid),
		       "d"((long)sig)
		     : "rcx", "r11", "memory");
	(void)ret;
}

WORKLOAD_FN void handler_spin(int sig)
{
	sink += sig;
	spin(handler_ms);
	after_call();
}

WORKLOAD_FN void handler_raise(int sig)
{
	sink += sig;
	raise_here(SIGUSR2);
	after_call();
}

/*
 * The timer's: spins, and after the last tick stops the timer, so that no
 * tick comes (and spins) after d_tight has returned.
 */
WORKLOAD_FN void handler_tick(int sig)
{
	static const struct itimerval stop;

	sink += sig;
	if (sig_done)
		return;
	spin(handler_ms);
	if (++ticks < nr_ticks)
		return;
	setitimer(ITIMER_VIRTUAL, &stop, NULL);
	sig_done = 1;
}

WORKLOAD_FN void sig_d(unsigned long unused)
{
	volatile char buf[32];

	buf[0] = (char)unused;
	asm volatile("" : : "r"(buf) : "memory");
	raise_here(SIGUSR1);
	after_call();
	sink += buf[0];
}

/*
 * A loop at the first instruction after a change of CFA rule (the push): a
 * signal that interrupts it at the loop head leaves an ip that must be
 * looked up as it is.  One byte back is the push, where the CFA is 8 bytes
 * lower: the return address would be read from the 0 the push stored.
 */
void d_tight(void);
asm(".pushsection .text, \"ax\", @progbits\n"
	".globl d_tight\n"
	".type d_tight, @function\n"
	".p2align 4\n"
	"d_tight:\n"
	".cfi_startproc\n"
	"	pushq $0\n"
	".cfi_adjust_cfa_offset 8\n"
	"d_tight_loop:\n"
	"	cmpl $0, sig_done(%rip)\n"
	"	je d_tight_loop\n"
	"	addq $8, %rsp\n"
	".cfi_adjust_cfa_offset -8\n"
	"	ret\n"
	".cfi_endproc\n"
	".size d_tight, . - d_tight\n"
	".pushsection .probe_tight, \"\", @progbits\n"
	".long d_tight_loop - d_tight\n"
	".popsection\n"
	".popsection");

static void handle(int sig, void (*fn)(int), bool onstack)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = onstack ? SA_ONSTACK : 0;
	if (sigaction(sig, &sa, NULL)) {
		perror("sigaction");
		exit(1);
	}
}

static void altstack(void *base, size_t size)
{
	stack_t ss = { .ss_sp = base, .ss_size = size };

	if (sigaltstack(&ss, NULL)) {
		perror("sigaltstack");
		exit(1);
	}
}

/* longjmp --------------------------------------------------------------- */

static jmp_buf lj_env;

WORKLOAD_FN void lj_spin(unsigned long ms)
{
	spin(ms);
}

WORKLOAD_FN void lj_g(void)
{
	longjmp(lj_env, 1);
}

WORKLOAD_FN void lj_f(unsigned long ms)
{
	if (!setjmp(lj_env))
		lj_g();
	lj_spin(ms);
	after_call();
}

long nx_data[16] = { 1 };	/* in .data, not .bss: the test finds it in the file */

/*
 * nx_leaf's return address is in nx_data, which is no code: its table
 * says so (CFA = %rsp + 8, the return address below it), and a walk must
 * end there.  nx_mid keeps a frame pointer, which a frame-pointer walk
 * from there would follow on to c ... main.  nx_leaf goes back through
 * %r11, not to its return address.  nx_call calls nx_mid from a function
 * of its own (no local of it lives below its stack pointer).
 */
asm(".pushsection .text, \"ax\", @progbits\n"
	".globl nx_mid\n"
	".type nx_mid, @function\n"
	"nx_mid:\n"
	".cfi_startproc\n"
	"	pushq %rbp\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset %rbp, -16\n"
	"	movq %rsp, %rbp\n"
	".cfi_def_cfa_register %rbp\n"
	"	leaq 1f(%rip), %r11\n"
	"	leaq nx_data+64(%rip), %rax\n"
	"	pushq %rax\n"
	"	jmp nx_leaf\n"
	"1:	leave\n"
	".cfi_def_cfa %rsp, 8\n"
	"	ret\n"
	".cfi_endproc\n"
	".size nx_mid, . - nx_mid\n"
	".globl nx_leaf\n"
	".type nx_leaf, @function\n"
	"nx_leaf:\n"
	".cfi_startproc\n"
	"	nop\n"
	"	addq $8, %rsp\n"
	".cfi_def_cfa_offset 0\n"
	"	jmp *%r11\n"
	".cfi_endproc\n"
	".size nx_leaf, . - nx_leaf\n"
	".popsection");

WORKLOAD_FN void nx_call(void)
{
	asm volatile("call nx_mid" : : : "rax", "r11", "memory");
}

/* A call through a NULL pointer; stays NULL, volatile: the call happens. */
void (*volatile null_fn)(void);
static sigjmp_buf null_env;

WORKLOAD_FN void null_call(void)
{
	if (!sigsetjmp(null_env, 1))
		null_fn();
	after_call();
}

static void handler_segv(int sig)
{
	siglongjmp(null_env, 1);
}

/* The call path -------------------------------------------------------- */

WORKLOAD_FN void c(int mode, unsigned long n, unsigned long ms)
{
	/* A variable-sized frame: c's CFA is %rbp + 16. */
	volatile char *pad = __builtin_alloca(16 + (n & 0xf));

	pad[0] = 3;
	switch (mode) {
	case M_DRAP:
		drap_mid(n, ms);
		break;
	case M_SIGNAL:
		sig_d(n);
		break;
	case M_TIMER:
		d_tight();
		break;
	case M_LONGJMP:
		lj_f(ms);
		break;
	case M_NX:
		nx_call();
		break;
	case M_NULL:
		null_call();
		break;
	}
	after_call();
	sink += pad[0];
}

WORKLOAD_FN void b(int mode, unsigned long n, unsigned long ms)
{
	c(mode, n, ms);
	after_call();
	sink += 2;
}

WORKLOAD_FN void a(int mode, unsigned long n, unsigned long ms)
{
	b(mode, n, ms);
	after_call();
	sink += 1;
}

static int print_usage(const char *prog)
{
	fprintf(stderr, "usage: %s drap calls N | drap spin MS | %s MS | timer N MS | nx|null N\n",
		prog, "signal|nested|altstack|altstack_up|longjmp");
	return 2;
}

int main(int argc, char **argv)
{
	/* A sigaltstack in main's frame, above those of a, b, c and sig_d. */
	static const size_t up_size = 256 * 1024;
	char *up_stack = __builtin_alloca(up_size);
	unsigned long ms;

	up_stack[0] = 0;
	self_pid = getpid();
	self_tid = gettid();
	if (argc == 4 && !strcmp(argv[1], "drap")) {
		unsigned long n = strtoul(argv[3], NULL, 0);

		if (!strcmp(argv[2], "calls")) {
			for (unsigned long i = 0; i < n; i++)
				a(M_DRAP, 40, 0);
		} else if (!strcmp(argv[2], "spin")) {
			a(M_DRAP, 40, n);
		} else {
			return print_usage(argv[0]);
		}
		after_call();
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "timer")) {
		struct itimerval it;

		nr_ticks = strtoul(argv[2], NULL, 0);
		handler_ms = strtoul(argv[3], NULL, 0);
		/* Some time in the loop between two handlers. */
		it.it_interval.tv_sec = 0;
		it.it_interval.tv_usec = (handler_ms + 5) * 1000;
		it.it_value = it.it_interval;
		handle(SIGVTALRM, handler_tick, false);
		if (setitimer(ITIMER_VIRTUAL, &it, NULL)) {
			perror("setitimer");
			return 1;
		}
		a(M_TIMER, 0, 0);
		after_call();
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "null")) {
		unsigned long n = strtoul(argv[2], NULL, 0);

		handle(SIGSEGV, handler_segv, false);
		for (unsigned long i = 0; i < n; i++)
			a(M_NULL, 0, 0);
		after_call();
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "nx")) {
		unsigned long n = strtoul(argv[2], NULL, 0);

		for (unsigned long i = 0; i < n; i++)
			a(M_NX, 0, 0);
		after_call();
		return 0;
	}
	if (argc != 3)
		return print_usage(argv[0]);
	ms = strtoul(argv[2], NULL, 0);
	handler_ms = ms;
	if (!strcmp(argv[1], "longjmp")) {
		a(M_LONGJMP, 0, ms);
		after_call();
		return 0;
	}
	if (!strcmp(argv[1], "signal")) {
		handle(SIGUSR1, handler_spin, false);
	} else if (!strcmp(argv[1], "nested")) {
		handle(SIGUSR1, handler_raise, false);
		handle(SIGUSR2, handler_spin, false);
	} else if (!strcmp(argv[1], "altstack")) {
		void *p = mmap(NULL, up_size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED || (char *)p > up_stack) {
			fprintf(stderr, "the mmap()ed stack is not below the stack\n");
			return 1;
		}
		altstack(p, up_size);
		handle(SIGUSR1, handler_spin, true);
	} else if (!strcmp(argv[1], "altstack_up")) {
		altstack(up_stack, up_size);
		handle(SIGUSR1, handler_spin, true);
	} else {
		return print_usage(argv[0]);
	}
	a(M_SIGNAL, 0, 0);
	after_call();
	return 0;
}
