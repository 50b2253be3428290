// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of make bench-e2e: a fixed amount of work at the bottom of a
 * 32-deep call path, main -> f0 -> ... -> f31 -> work, built with frame
 * pointers (e2e_workload-fp) and without (e2e_workload).  It prints how
 * long the work took, in wall-clock and CPU time of the process (which the
 * deferred unwinds of its samples are part of):
 *
 *	e2e_workload ROUNDS
 *	e2e: rounds R wall_ns W cpu_ns C
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define E2E_FN		__attribute__((noinline, noclone, used))

volatile unsigned long sink;

static inline void after_call(void)
{
	asm volatile("" ::: "memory");
}

E2E_FN void work(unsigned long rounds)
{
	for (unsigned long r = 0; r < rounds; r++)
		for (unsigned long i = 0; i < 100000; i++)
			sink += i ^ r;
}

#define LEVEL(n, callee)				\
	E2E_FN void f##n(unsigned long rounds)		\
	{						\
		callee(rounds);				\
		after_call();				\
		sink += n;				\
	}

LEVEL(31, work) LEVEL(30, f31) LEVEL(29, f30) LEVEL(28, f29) LEVEL(27, f28)
LEVEL(26, f27) LEVEL(25, f26) LEVEL(24, f25) LEVEL(23, f24) LEVEL(22, f23)
LEVEL(21, f22) LEVEL(20, f21) LEVEL(19, f20) LEVEL(18, f19) LEVEL(17, f18)
LEVEL(16, f17) LEVEL(15, f16) LEVEL(14, f15) LEVEL(13, f14) LEVEL(12, f13)
LEVEL(11, f12) LEVEL(10, f11) LEVEL(9, f10) LEVEL(8, f9) LEVEL(7, f8)
LEVEL(6, f7) LEVEL(5, f6) LEVEL(4, f5) LEVEL(3, f4) LEVEL(2, f3)
LEVEL(1, f2) LEVEL(0, f1)

static double ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000;
	double wall = ns(CLOCK_MONOTONIC), cpu = ns(CLOCK_PROCESS_CPUTIME_ID);

	f0(rounds);
	printf("e2e: rounds %lu wall_ns %.0f cpu_ns %.0f\n", rounds,
	       ns(CLOCK_MONOTONIC) - wall, ns(CLOCK_PROCESS_CPUTIME_ID) - cpu);
	return 0;
}
