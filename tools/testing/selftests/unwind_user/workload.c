// SPDX-License-Identifier: GPL-2.0
/*
 * A program with a known call path, main -> a -> b -> c -> d, for checking
 * user callchains against the truth.  Built once with frame pointers and
 * once without (see the Makefile); the tests resolve the addresses of a..d
 * from this file's own symbol table.
 *
 *   workload calls N		call the chain N times; d returns at once
 *   workload spin MS		call the chain once; d spins for MS ms of CPU time
 *   workload threads N MS	the same in N threads (thread_main -> a -> ...)
 *   workload fork MS		the same in a forked child (main -> a -> ...)
 *   workload exec PROG MS	exec PROG spin MS (the registry starts anew)
 *   workload signal MS		(arm64) main -> run_signal -> sig_b ->
 *				sig_self, which sends itself SIGUSR1; the
 *				handler, on_signal, calls d, which spins MS ms
 *   workload signal_leaf MS	(arm64) main -> run_signal -> leaf_b ->
 *				leaf_until, a leaf that loops until a timer's
 *				SIGALRM has interrupted it and on_signal has
 *				run
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * noinline/noclone keep each function a real, separately named symbol; the
 * empty asm after each call leaves an instruction behind the call, so that
 * no call becomes a tail call; the distinct constants keep identical-code
 * folding from merging a, b and c.
 */
#define WORKLOAD_FN	__attribute__((noinline, noclone, used))
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

/*
 * A probe point past d's prologue, where the frame is set up: a nop, which
 * uprobes emulate instead of single-stepping it out of line.  Its offset in
 * d goes to a section of its own; a symbol would change how perf names the
 * addresses after it.  Inlined even at -O0: it must land in d.
 */
static inline __attribute__((always_inline)) void probe_point_in_d(void)
{
	asm volatile("1: nop\n"
		     ".pushsection .probe_offsets, \"\", @progbits\n"
		     ".long 1b - d\n"
		     ".popsection");
}

WORKLOAD_FN void d(unsigned long spin_ms)
{
	/* A local whose address escapes: d needs a stack frame of its own. */
	volatile char buf[32];
	double end;

	buf[0] = 1;
	asm volatile("" : : "r"(buf) : "memory");
	probe_point_in_d();
	if (!spin_ms)
		return;
	end = cpu_ms() + spin_ms;
	do {
		for (unsigned long i = 0; i < 100000; i++)
			sink += i * buf[0];
	} while (cpu_ms() < end);
}

WORKLOAD_FN void c(unsigned long spin_ms)
{
	d(spin_ms);
	after_call();
	sink += 3;
}

WORKLOAD_FN void b(unsigned long spin_ms)
{
	c(spin_ms);
	after_call();
	sink += 2;
}

WORKLOAD_FN void a(unsigned long spin_ms)
{
	b(spin_ms);
	after_call();
	sink += 1;
}

WORKLOAD_FN void *thread_main(void *arg)
{
	a((unsigned long)arg);
	after_call();
	return NULL;
}

static int run_threads(unsigned long n, unsigned long ms)
{
	pthread_t t[64];

	if (n > 64)
		return 2;
	for (unsigned long i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, thread_main, (void *)ms))
			return 1;
	for (unsigned long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}

static int run_fork(unsigned long ms)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (!pid) {
		a(ms);
		after_call();
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}

#ifdef __aarch64__
static unsigned long signal_ms;
static volatile sig_atomic_t handled;

WORKLOAD_FN void on_signal(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)info;
	(void)uc;
	d(signal_ms);
	after_call();
	handled = 1;
}

/*
 * tgkill(self, SIGUSR1) with a supervisor call of sig_self's own, so that
 * the signal interrupts sig_self, which saved x30 for its calls before.
 */
WORKLOAD_FN void sig_self(void)
{
	/* Both calls first: a call may clobber x0 once it holds the pid. */
	long pid = getpid(), tid = syscall(SYS_gettid);

	register long x0 asm("x0") = pid;
	register long x1 asm("x1") = tid;
	register long x2 asm("x2") = SIGUSR1;
	register long x8 asm("x8") = SYS_tgkill;

	asm volatile("svc #0" : "+r"(x0) : "r"(x1), "r"(x2), "r"(x8) : "memory");
	after_call();
	sink += x0;
}

WORKLOAD_FN void sig_b(void)
{
	sig_self();
	after_call();
	sink += 5;
}

/*
 * A leaf: the signal lands in it while x30 holds its return address, which
 * it never saves.
 */
WORKLOAD_FN void leaf_until(void)
{
	while (!handled)
		sink++;
}

/* A SIGALRM 10 ms into leaf_until's loop. */
WORKLOAD_FN void leaf_b(void)
{
	struct itimerval it = { .it_value = { .tv_usec = 10000 } };

	if (!setitimer(ITIMER_REAL, &it, NULL))
		leaf_until();
	after_call();
	sink += 6;
}

WORKLOAD_FN int run_signal(unsigned long ms, int leaf)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	signal_ms = ms;
	if (sigaction(leaf ? SIGALRM : SIGUSR1, &sa, NULL))
		return 1;
	if (leaf)
		leaf_b();
	else
		sig_b();
	after_call();
	return 0;
}
#endif

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "calls")) {
		unsigned long n = strtoul(argv[2], NULL, 0);

		for (unsigned long i = 0; i < n; i++)
			a(0);
		after_call();
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "spin")) {
		a(strtoul(argv[2], NULL, 0));
		after_call();
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "threads"))
		return run_threads(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "fork"))
		return run_fork(strtoul(argv[2], NULL, 0));
#ifdef __aarch64__
	/* Not tail calls: main stays on the stack. */
	if (argc == 3 && (!strcmp(argv[1], "signal") ||
			  !strcmp(argv[1], "signal_leaf"))) {
		int ret = run_signal(strtoul(argv[2], NULL, 0),
				     !strcmp(argv[1], "signal_leaf"));

		after_call();
		return ret;
	}
#endif
	if (argc == 4 && !strcmp(argv[1], "exec")) {
		execl(argv[2], argv[2], "spin", argv[3], (char *)NULL);
		perror("execl");
		return 1;
	}
	fprintf(stderr, "usage: %s calls N | spin MS | threads N MS | fork MS | %s\n",
		argv[0], "exec PROG MS");
	return 2;
}
