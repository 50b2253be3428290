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
 *   pe_host DLL register|noregister|anon|anon-bad-N MS [TABLES]
 *
 * "anon" copies the image into anonymous memory at its base, as Wine does
 * with images whose sections are not page aligned in the file, and
 * registers nothing (the kernel must find it); "anon-bad-N" does the same
 * with its headers corrupted in memory (enum pe_host_bad below) before the
 * code runs.  At the end, /proc/self/unwind_tables is copied to TABLES.
 */
#define _GNU_SOURCE
#include <linux/prctl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

static uint32_t rd32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = v >> (8 * i);
}

/* Corrupt the headers of the image copied to @base, as "anon-bad-N" says. */
static int corrupt(const struct pe_file *pf, uint8_t *base, int bad)
{
	uint8_t *pe = base + rd32(base + PE_LFANEW);
	uint8_t *opt = pe + PE_OPT;
	uint8_t *dir = opt + PE_OPT_DIRS + 8 * PE_DIR_EXCEPTION;

	switch (bad) {
	case PE_HOST_BAD_SIG:
		pe[1] = 'X';
		break;
	case PE_HOST_BAD_LFANEW:
		/* The NT headers cut off by the end of the first page. */
		memmove(base + 4096 - 8, pe, 8);
		wr32(base + PE_LFANEW, 4096 - 8);
		break;
	case PE_HOST_BAD_SIZE:
		/* SizeOfImage that ends before the code. */
		wr32(opt + PE_OPT_IMAGE_SIZE, rd32(opt + PE_OPT_HEADERS_SIZE));
		break;
	case PE_HOST_BAD_DIR:
		wr32(dir, pf->image_size - 12);
		wr32(dir + 4, 24);
		break;
	case PE_HOST_BAD_MACHINE:
		pe[PE_COFF_MACHINE] = 0x4c;
		pe[PE_COFF_MACHINE + 1] = 0x01;
		break;
	default:
		return -1;
	}
	return 0;
}

/*
 * Lay the image out in anonymous memory at its base, corrupt its headers
 * if @bad, then protect it as Wine does: headers read-only, each section
 * as its flags say.
 */
static uint8_t *map_anon(const struct pe_file *pf, int bad)
{
	uint8_t *base = (uint8_t *)(uintptr_t)pf->image_base;
	size_t size = (pf->image_size + 4095) & ~4095UL;

	if (mmap(base, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != base ||
	    pe_file_copy(pf, base) || (bad && corrupt(pf, base, bad)) ||
	    pe_file_protect(pf, base))
		return NULL;
	return base;
}

/* A copy of /proc/self/unwind_tables, for the test to read. */
static void save_tables(const char *path)
{
	char buf[65536];
	FILE *in = fopen("/proc/self/unwind_tables", "r");
	FILE *out = fopen(path, "w");
	size_t n;

	while (in && out && (n = fread(buf, 1, sizeof(buf), in)))
		fwrite(buf, 1, n, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
}

int main(int argc, char **argv)
{
	struct prctl_eh_frame d = { .format = PR_EH_FRAME_FORMAT_PE };
	bool anon = argc > 2 && !strncmp(argv[2], "anon", 4);
	int bad = anon && !strncmp(argv[2], "anon-bad-", 9) ? atoi(argv[2] + 9) : 0;
	struct pe_file pf;
	uint8_t *base;
	uint32_t rva;

	if ((argc != 4 && argc != 5) ||
	    (strcmp(argv[2], "register") && strcmp(argv[2], "noregister") && !anon)) {
		fprintf(stderr, "usage: %s DLL register|noregister|anon|anon-bad-N MS [TABLES]\n",
			argv[0]);
		return 2;
	}
	if (pe_file_load(&pf, argv[1]))
		return 1;
	base = anon ? map_anon(&pf, bad) : pe_file_map(&pf, argv[1]);
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
	if (argc == 5)
		save_tables(argv[4]);
	return 0;
}
