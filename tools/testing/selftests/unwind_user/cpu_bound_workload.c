// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of cpu_bound.c: a program whose stack is expensive to walk.
 *
 * 8192 functions (cpu_bound_gen.sh) call each other through a table, each
 * picking the next from a pseudo-random sequence, DEPTH levels deep, down
 * to a leaf that spins a little.  Built without frame pointers and linked
 * without .eh_frame_hdr (gcc -static), so that the kernel indexes the
 * program's .eh_frame at its first walk and then looks up, at nearly every
 * frame of every walk, a return address that its frame cache does not hold
 * (1024 rows per process, none shared without a header: 8192 return
 * addresses).
 *
 *	cpu_bound_workload SECONDS DEPTH LEAF_SPIN
 *
 * Prints "ready", waits for a byte on stdin, runs the recursion again and
 * again for SECONDS of wall time, prints "done iters N wall_ns N", and waits
 * for another byte (or EOF) on stdin before it exits, so that its
 * /proc/<pid> files can be read while it is still there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cpu_bound_workload.h"

static long leaf_spin;

static inline unsigned long keep(unsigned long val)
{
	asm volatile("" : "+r" (val));
	return val;
}

long cpu_bound_leaf(unsigned long seed)
{
	unsigned long acc = seed;

	for (long i = 0; i < leaf_spin; i++)
		acc = keep(acc ^ i);
	return (long)acc;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long seed = 1, iters = 0, sum = 0;
	unsigned long long start, stop, end;
	long depth;
	char c;

	if (argc != 4) {
		fprintf(stderr, "usage: %s SECONDS DEPTH LEAF_SPIN\n", argv[0]);
		return 2;
	}
	depth = atol(argv[2]);
	leaf_spin = atol(argv[3]);
	printf("ready\n");
	fflush(stdout);
	if (read(STDIN_FILENO, &c, 1) != 1)
		return 1;

	start = now_ns();
	stop = start + (unsigned long long)(atof(argv[1]) * 1e9);
	do {
		sum = keep(sum + cpu_bound_table[seed & (CPU_BOUND_FUNCS - 1)](depth, seed));
		seed = seed * 2862933555777941757UL + 3037000493UL;
		iters++;
	} while ((end = now_ns()) < stop);

	printf("done iters %lu wall_ns %llu\n", iters, end - start);
	fflush(stdout);
	if (read(STDIN_FILENO, &c, 1) < 0)
		return 1;
	return 0;
}
