// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF side of pe_chain.c: map pe_dll.dll with the minimal loader of
 * pe_map.c, register it with prctl(PR_REGISTER_EH_FRAME) as a PE image
 * (unless told not to), then for @ms milliseconds call into it:
 *
 *   main -> run_chain -> pe_a -> pe_b -> pe_c -> pe_spin   (in the DLL)
 *                                        pe_c -> cb_spin   (back in ELF)
 *
 * The program has no frame pointers; its own frames are described by its
 * .eh_frame (which the kernel finds at the first sample), the DLL's by its
 * exception directory.
 *
 *   pe_host DLL register|noregister MS
 */
#define _GNU_SOURCE
#include <linux/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "pe_map.h"

typedef void __attribute__((ms_abi)) (*pe_cb)(unsigned long long n);
typedef void __attribute__((ms_abi)) (*pe_a_fn)(pe_cb cb, unsigned long long n);

/* Iterations of each spin: a few ms under TCG. */
#define SPIN	200000ULL

static volatile unsigned long long sink;

/* Called back from the DLL, with the Windows calling convention. */
__attribute__((ms_abi, noinline)) static void cb_spin(unsigned long long n)
{
	for (unsigned long long i = 0; i < n; i++)
		sink += i;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) static void run_chain(pe_a_fn pe_a, double ms)
{
	double end = now_ms() + ms;

	do {
		pe_a(cb_spin, SPIN);
	} while (now_ms() < end);
	sink++;
}

int main(int argc, char **argv)
{
	struct prctl_eh_frame d = { .format = PR_EH_FRAME_FORMAT_PE };
	struct pe_file pf;
	uint8_t *base;
	uint32_t rva;

	if (argc != 4 || (strcmp(argv[2], "register") && strcmp(argv[2], "noregister"))) {
		fprintf(stderr, "usage: %s DLL register|noregister MS\n", argv[0]);
		return 2;
	}
	if (pe_file_load(&pf, argv[1]))
		return 1;
	base = pe_file_map(&pf, argv[1]);
	rva = pe_file_sym_rva(&pf, "pe_a");
	if (!base || !rva)
		return 1;
	if (!strcmp(argv[2], "register")) {
		d.text_start = (uintptr_t)base;
		d.text_size = pf.image_size;
		if (prctl(PR_REGISTER_EH_FRAME, &d, sizeof(d), 0, 0)) {
			perror("PR_REGISTER_EH_FRAME");
			return 1;
		}
	}
	run_chain((pe_a_fn)(base + rva), atof(argv[3]));
	return 0;
}
