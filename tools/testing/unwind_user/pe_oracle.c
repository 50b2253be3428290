// SPDX-License-Identifier: GPL-2.0
/*
 * The PE side of the objdump oracle (pe_oracle.py): map a PE32+ file as a
 * loader does (pe_load.c), check it with pe_unwind_image_init(), then answer one
 * query per line of stdin, "RVA EXACT" (hex, 0/1), with one line:
 *
 *	RVA EXACT 0 CFA_REG CFA_OFF RA_OFF SP_OFF FLAGS rbx rbp rsi rdi r12 r13 r14 r15
 *	RVA EXACT -ERRNO
 *
 * where each saved register is its CFA offset or "-".  The first line of
 * output is "image SIZE ENTRIES" or "init -ERRNO REASON".
 *
 * pe-oracle --image-out SEED FILE writes the mapped image as a seed of the
 * PE fuzz target instead.  pe-oracle --laid-out IMAGE takes an image already
 * laid out, as a process has it in memory (pe_load_laid_out()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/unwind_user_registry.h>

#include "../../../kernel/unwind/pe.h"
#include "fake_user.h"
#include "pe_load.h"
#include "pe_fuzz.h"

static u32 le32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

static void write_seed(const char *path, const u8 *img, u32 size)
{
	u32 nt = le32(img + 0x3c);
	struct pe_fuzz_input in = {
		.mode = PE_FUZZ_RAW,
		.table = le32(img + nt + 24 + 112 + 24),
		.entries = le32(img + nt + 24 + 112 + 28) / 12,
		.hole = le32(img + nt + 24 + 112 + 24) + 5,
		.pc = le32(img + nt + 24 + 16),		/* the entry point */
	};
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(&in, sizeof(in), 1, f) != 1 ||
	    fwrite(img, size, 1, f) != 1 || fclose(f)) {
		perror(path);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	struct pe_unwind_image pe;
	enum pe_unwind_check why;
	struct pe_unwind_frame f;
	unsigned int rva, exact, i, budget;
	unsigned long copies;
	u32 image_size;
	u64 base;
	u8 *img;
	int ret;

	if (argc == 4 && !strcmp(argv[1], "--image-out")) {
		img = pe_load(argv[3], &image_size, &base);
		write_seed(argv[2], img, image_size);
		free(img);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--laid-out")) {
		img = pe_load_laid_out(argv[2], &image_size, &base);
	} else if (argc == 2) {
		img = pe_load(argv[1], &image_size, &base);
	} else {
		fprintf(stderr, "usage: %s [--laid-out] PE-FILE < queries\n"
			"       %s --image-out SEED PE-FILE\n", argv[0], argv[0]);
		return 2;
	}
	fake_user_reset();
	fake_user_map(base, img, image_size);
	ret = pe_unwind_image_init(&pe, base, image_size, &why);
	if (ret) {
		printf("init %d %s\n", ret, pe_unwind_check_str(why));
		free(img);
		return 0;
	}
	printf("image %#x %u\n", pe.size, pe.nr_entries);

	while (scanf("%x %u", &rva, &exact) == 2) {
		budget = UNWIND_USER_TABLE_BUDGET;
		copies = fake_user_copies;
		ret = pe_unwind_find_frame(&pe, base + rva,
					   exact ? PE_UNWIND_EXACT_PC : 0, &f,
					   &budget);
		/* Each read paid for: real images, not only the unit's */
		copies = fake_user_copies - copies;
		if (UNWIND_USER_TABLE_BUDGET - budget !=
		    copies * UNWIND_USER_READ_COST) {
			fprintf(stderr, "rva %#x: %lu reads, %u charged\n", rva,
				copies, UNWIND_USER_TABLE_BUDGET - budget);
			return 1;
		}
		printf("%x %u %d", rva, exact, ret);
		if (!ret) {
			printf(" %u %d %d %d %u", f.cfa_reg, f.cfa_off, f.ra_off,
			       f.sp_off, f.flags);
			for (i = 0; i < PE_UNWIND_NR_NONVOL; i++) {
				if (f.saved & (1U << i))
					printf(" %d", f.saved_off[i]);
				else
					printf(" -");
			}
		}
		printf("\n");
	}
	free(img);
	return 0;
}
