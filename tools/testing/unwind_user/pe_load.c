// SPDX-License-Identifier: GPL-2.0
/* Load a PE32+ file as a loader maps it; see pe_load.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pe_load.h"

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

static u8 *lay_out(const u8 *file, size_t len, u32 *image_size, u64 *base)
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

u8 *pe_load(const char *path, u32 *image_size, u64 *base)
{
	size_t len;
	u8 *file = read_file(path, &len);
	u8 *img = lay_out(file, len, image_size, base);

	free(file);
	return img;
}

u8 *pe_load_laid_out(const char *path, u32 *image_size, u64 *base)
{
	size_t len;
	u8 *img = read_file(path, &len);
	u32 nt = le32(img + 0x3c), opt = nt + 24;

	if ((u64)opt + 112 > len || le16(img + opt) != 0x20b ||
	    le32(img + opt + 56) != len) {
		fprintf(stderr, "%s: not a PE32+ image of SizeOfImage bytes\n", path);
		exit(2);
	}
	*image_size = len;
	*base = le32(img + opt + 24) | (u64)le32(img + opt + 28) << 32;
	return img;
}
