// SPDX-License-Identifier: GPL-2.0
/*
 * The PE side of the objdump oracle (pe_oracle.py): map a PE32+ file as a
 * loader does (each section at its RVA in an image of SizeOfImage bytes,
 * the rest zero), check it with pe_unwind_image_init(), then answer one
 * query per line of stdin, "RVA EXACT" (hex, 0/1), with one line:
 *
 *	RVA EXACT 0 CFA_REG CFA_OFF RA_OFF SP_OFF FLAGS rbx rbp rsi rdi r12 r13 r14 r15
 *	RVA EXACT -ERRNO
 *
 * where each saved register is its CFA offset or "-".  The first line of
 * output is "image SIZE ENTRIES" or "init -ERRNO REASON".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>

#include "../../../kernel/unwind/pe.h"
#include "fake_user.h"

static u32 le32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

static u16 le16(const u8 *p)
{
	return p[0] | p[1] << 8;
}

static u8 *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	u8 *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END)) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(2);
	}
	n = ftell(f);
	if (n < 0x200 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(2);
	}
	buf = malloc(n);
	if (!buf || fread(buf, 1, n, f) != (size_t)n) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(2);
	}
	fclose(f);
	*len = n;
	return buf;
}

/* Lay out the sections as a loader would; returns the image and its base. */
static u8 *load(const u8 *file, size_t len, u32 *image_size, u64 *base)
{
	u32 nt = le32(file + 0x3c), opt, sec, nsec, i, hdrs;
	u8 *img;

	if (nt + 24 + 112 > len || le16(file + nt + 24) != 0x20b) {
		fprintf(stderr, "not a PE32+ file\n");
		exit(2);
	}
	opt = nt + 24;
	nsec = le16(file + nt + 6);
	sec = opt + le16(file + nt + 20);
	*image_size = le32(file + opt + 56);
	hdrs = le32(file + opt + 60);
	*base = le32(file + opt + 24) | (u64)le32(file + opt + 28) << 32;
	img = calloc(1, *image_size);
	if (!img || hdrs > len || hdrs > *image_size) {
		fprintf(stderr, "bad image size\n");
		exit(2);
	}
	memcpy(img, file, hdrs);
	for (i = 0; i < nsec; i++) {
		const u8 *s = file + sec + 40 * i;
		u32 vsize = le32(s + 8), va = le32(s + 12);
		u32 rawsize = le32(s + 16), raw = le32(s + 20);
		u32 n = rawsize < vsize ? rawsize : vsize;

		if (sec + 40 * (i + 1) > len || (u64)raw + n > len ||
		    (u64)va + n > *image_size) {
			fprintf(stderr, "bad section %u\n", i);
			exit(2);
		}
		memcpy(img + va, file + raw, n);
	}
	return img;
}

int main(int argc, char **argv)
{
	struct pe_unwind_image pe;
	enum pe_unwind_check why;
	struct pe_unwind_frame f;
	unsigned int rva, exact, i;
	u32 image_size;
	size_t len;
	u8 *file, *img;
	u64 base;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: %s PE-FILE < queries\n", argv[0]);
		return 2;
	}
	file = read_file(argv[1], &len);
	img = load(file, len, &image_size, &base);
	free(file);
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
		ret = pe_unwind_find_frame(&pe, base + rva,
					   exact ? PE_UNWIND_EXACT_PC : 0, &f);
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
