// SPDX-License-Identifier: GPL-2.0
/*
 * s390x programs with known call paths, for what is special about s390
 * user stacks (s390_cases.c):
 *
 *   s390_workload leaf MS	main -> a -> b -> c -> leaf, for MS ms of CPU
 *				time; leaf needs no stack and keeps the
 *				callers' r11 in a floating-point register,
 *				and its return address stays in r14
 *   s390_workload signal MS	main -> a -> b -> c -> sig_d, which sends
 *				itself SIGUSR1; the handler, handler_spin,
 *				spins MS ms (an rt signal frame, SA_SIGINFO)
 *   s390_workload oldsig MS	the same with a handler without SA_SIGINFO
 *				(a non-rt signal frame)
 *   s390_workload leafsig MS	main -> a -> b -> c -> leaf_until, which
 *				loops like leaf until a timer's SIGALRM has
 *				interrupted it and handler_spin_info has run
 *
 * Built with -fno-omit-frame-pointer: a, b and c compute their CFA from
 * r11, so a chain through them is complete only if the unwinder read the
 * r11 that leaf (or leaf_until) saved in a floating-point register.  The
 * Makefile checks with readelf that their CFI says so (s390_check.sh).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define WORKLOAD_FN	__attribute__((noinline, noclone, used))
static inline void after_call(void)
{
	asm volatile("" ::: "memory");
}

volatile long sink;

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static volatile sig_atomic_t handled;

/*
 * Six accumulators that the loop keeps in registers: GCC saves the
 * call-saved registers it needs, r11 among them, in floating-point
 * registers rather than on the stack, and leaves r14 alone.  n rounds,
 * again and again until *stop if there is one.
 */
static inline __attribute__((always_inline))
long accumulate(long a, long n, const volatile sig_atomic_t *stop)
{
	long b = a + 1, c = a + 2, d = a + 3, e = a + 4, f = a + 5;

	do {
		for (long x = 0; x < n; x++) {
			a += b * c;
			b += c ^ d;
			c += d * e;
			d += e | f;
			e += f * a;
			f += a ^ b;
		}
	} while (stop && !*stop);
	return a + b + c + d + e + f;
}

WORKLOAD_FN long leaf(long n)
{
	return accumulate(sink, n, NULL);
}

/*
 * leaf's loop until a signal handler has run: the signal lands in it while
 * r14 holds its return address and an FPR the r11 of its callers.
 */
WORKLOAD_FN long leaf_until(long n)
{
	return accumulate(sink + 5, n, &handled);
}

static unsigned long handler_ms;

WORKLOAD_FN void handler_spin(int sig)
{
	double end = cpu_ms() + handler_ms;

	do {
		sink += leaf(100000) + sig;
	} while (cpu_ms() < end);
	after_call();
	handled = 1;
}

WORKLOAD_FN void handler_spin_info(int sig, siginfo_t *info, void *uc)
{
	handler_spin(sig);
	after_call();
}

/* tgkill(self, SIGUSR1) with a supervisor call of sig_d's own. */
WORKLOAD_FN void sig_d(unsigned long unused)
{
	/* Both calls first: a call may clobber r2 once it holds the pid. */
	long pid = getpid(), tid = syscall(SYS_gettid);

	register long r2 asm("2") = pid;
	register long r3 asm("3") = tid;
	register long r4 asm("4") = SIGUSR1;

	asm volatile("svc %[nr]"
		     : "+d"(r2)
		     : [nr] "i"(__NR_tgkill), "d"(r3), "d"(r4)
		     : "memory");
	after_call();
	sink += r2;
}

WORKLOAD_FN void c(int mode, unsigned long ms)
{
	/* A SIGALRM 10 ms into leaf_until's loop. */
	struct itimerval it = { .it_value = { .tv_usec = 10000 } };

	if (mode == 2) {
		if (!setitimer(ITIMER_REAL, &it, NULL))
			sink += leaf_until(1000);
	} else if (mode) {
		sig_d(ms);
	} else {
		double end = cpu_ms() + ms;

		do {
			sink += leaf(100000);
			after_call();
		} while (cpu_ms() < end);
	}
	after_call();
	sink += 3;
}

WORKLOAD_FN void b(int mode, unsigned long ms)
{
	c(mode, ms);
	after_call();
	sink += 2;
}

WORKLOAD_FN void a(int mode, unsigned long ms)
{
	b(mode, ms);
	after_call();
	sink += 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	unsigned long ms;
	int mode;

	if (argc != 3)
		goto usage;
	ms = strtoul(argv[2], NULL, 0);
	memset(&sa, 0, sizeof(sa));
	if (!strcmp(argv[1], "leaf")) {
		mode = 0;
	} else if (!strcmp(argv[1], "signal")) {
		mode = 1;
		sa.sa_sigaction = handler_spin_info;
		sa.sa_flags = SA_SIGINFO;
	} else if (!strcmp(argv[1], "oldsig")) {
		mode = 1;
		sa.sa_handler = handler_spin;
	} else if (!strcmp(argv[1], "leafsig")) {
		mode = 2;
		sa.sa_sigaction = handler_spin_info;
		sa.sa_flags = SA_SIGINFO;
	} else {
		goto usage;
	}
	if (mode) {
		handler_ms = ms;
		if (sigaction(mode == 2 ? SIGALRM : SIGUSR1, &sa, NULL)) {
			perror("sigaction");
			return 1;
		}
	}
	a(mode, ms);
	after_call();
	return 0;
usage:
	fprintf(stderr, "usage: %s leaf|signal|oldsig|leafsig MS\n", argv[0]);
	return 2;
}
