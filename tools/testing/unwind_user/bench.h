/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark (bench.c) and its recursion (bench_rec.c, built twice: with
 * REC_PREFIX omit_ and -fomit-frame-pointer, and with REC_PREFIX fp_ and
 * frame pointers).
 */
#ifndef _UNWIND_TEST_BENCH_H
#define _UNWIND_TEST_BENCH_H

/* Distinct functions between the entry point and the bottom. */
#define BENCH_DEPTH	64

struct bench_ctx {
	/*
	 * Called by bottom(), which rec_63() calls, with the return address
	 * into rec_63() and bottom()'s frame address: in the frame-pointer
	 * build, the frame record that starts the chain of the recursion.
	 */
	int	(*bottom)(struct bench_ctx *ctx, unsigned long ra,
			  unsigned long frame);
};

int omit_recurse(struct bench_ctx *ctx);
int fp_recurse(struct bench_ctx *ctx);

#endif
