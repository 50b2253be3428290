// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle tool of elf_oracle.py: kernel/unwind/elf_table.c over the
 * bytes of a real ELF file, for mappings the script chose as the kernel
 * would make them (from readelf's program headers).
 *
 *	elf-table-oracle FILE ADDR:OFF...
 *
 * prints, for each mapping (file offset OFF at address ADDR, hex), one
 * line: the return value, then the description found and the header's file
 * offset, in hex:
 *
 *	ret text_start text_end hdr_start hdr_end eh_frame_start eh_frame_end
 *	ptr_size hdr_off
 *
 * A fetch larger than discover.c's 64-byte buffer is an error.
 *
 *	elf-table-oracle --seed-out PREFIX FILE ADDR:OFF...
 *
 * writes, for the fuzz target, an input for each mapping: the file's first
 * 64 KiB, and its headers alone, moved to the front.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/buildid.h>

#include "../../../kernel/unwind/elf_table.h"
#include "elf_fuzz.h"

static char *read_file(const char *path, size_t *len)
{
	size_t cap = 1 << 20, n = 0, got;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "rb");

	if (!f || !buf) {
		perror(path);
		exit(2);
	}
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf) {
				perror("realloc");
				exit(2);
			}
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

static void write_seed(const char *path, const struct elf_fuzz_input *in,
		       const char *data, size_t len)
{
	FILE *out = fopen(path, "wb");

	if (!out || fwrite(in, sizeof(*in), 1, out) != 1 ||
	    fwrite(data, 1, len, out) != len || fclose(out)) {
		perror(path);
		exit(2);
	}
}

/* The class's word at @off of @data, in this machine's byte order. */
static u64 word(const char *data, size_t off, bool is64)
{
	u64 v64;
	u32 v32;

	if (is64) {
		memcpy(&v64, data + off, 8);
		return v64;
	}
	memcpy(&v32, data + off, 4);
	return v32;
}

static void put_word(char *data, size_t off, bool is64, u64 v)
{
	u32 v32 = v;

	if (is64)
		memcpy(data + off, &v, 8);
	else
		memcpy(data + off, &v32, 4);
}

/*
 * The ELF header, program headers, section headers and section name table
 * of @data, packed at the front and their offsets changed to match: what
 * the reader reads, in a seed the fuzzer can mutate as a whole.
 */
static size_t pack_headers(const char *data, size_t len, char *out,
			   size_t cap)
{
	bool is64 = len > 4 && data[4] == 2;
	size_t eh = is64 ? 64 : 52, phoff_at = is64 ? 32 : 28;
	size_t shoff_at = is64 ? 40 : 32, num_at = is64 ? 56 : 44;
	size_t phsz = is64 ? 56 : 32, shsz = is64 ? 64 : 40;
	size_t str_off_at = is64 ? 24 : 16, str_size_at = is64 ? 32 : 20;
	u64 phoff, shoff, str_off, str_size, at;
	u16 phnum, shnum, shstrndx;

	if (len < eh)
		return 0;
	phoff = word(data, phoff_at, is64);
	shoff = word(data, shoff_at, is64);
	memcpy(&phnum, data + num_at, 2);
	memcpy(&shnum, data + num_at + 4, 2);
	memcpy(&shstrndx, data + num_at + 6, 2);
	if (phoff + phnum * phsz > len || shoff + shnum * shsz > len ||
	    shstrndx >= shnum)
		return 0;
	str_off = word(data, shoff + shstrndx * shsz + str_off_at, is64);
	str_size = word(data, shoff + shstrndx * shsz + str_size_at, is64);
	if (str_off + str_size > len ||
	    eh + phnum * phsz + shnum * shsz + str_size > cap)
		return 0;

	memcpy(out, data, eh);
	at = eh;
	memcpy(out + at, data + phoff, phnum * phsz);
	put_word(out, phoff_at, is64, at);
	at += phnum * phsz;
	memcpy(out + at, data + shoff, shnum * shsz);
	put_word(out, shoff_at, is64, at);
	put_word(out, at + shstrndx * shsz + str_off_at, is64,
		 at + shnum * shsz);
	at += shnum * shsz;
	memcpy(out + at, data + str_off, str_size);
	return at + str_size;
}

int main(int argc, char **argv)
{
	const char *seed_prefix = NULL;
	static char packed[65536];
	struct unwind_user_eh_frame d;
	struct elf_table_map map;
	struct freader r;
	unsigned long long addr, off;
	char *data, path[4096];
	size_t len, plen;
	u64 hdr_off;
	int i, ret, status = 0;

	if (argc > 2 && !strcmp(argv[1], "--seed-out")) {
		seed_prefix = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: %s [--seed-out PREFIX] FILE ADDR:OFF...\n",
			argv[0]);
		return 2;
	}
	data = read_file(argv[1], &len);
	for (i = 2; i < argc; i++) {
		if (sscanf(argv[i], "%llx:%llx", &addr, &off) != 2) {
			fprintf(stderr, "not ADDR:OFF: %s\n", argv[i]);
			return 2;
		}
		map = (struct elf_table_map){ .addr = addr, .off = off };
		if (seed_prefix) {
			struct elf_fuzz_input in = {
				.addr = addr, .off = off, .fail_off = ~0U,
			};

			snprintf(path, sizeof(path), "%s-%d", seed_prefix, i - 1);
			write_seed(path, &in, data, len < 65536 ? len : 65536);
			plen = pack_headers(data, len, packed, sizeof(packed));
			snprintf(path, sizeof(path), "%s-%d-headers",
				 seed_prefix, i - 1);
			if (plen)
				write_seed(path, &in, packed, plen);
			continue;
		}
		memset(&d, 0, sizeof(d));
		hdr_off = 0;
		freader_init_from_mem(&r, data, len);
		ret = elf_table_find(&r, &map, &d, &hdr_off);
		freader_cleanup(&r);
		if (r.max_sz > 64) {
			fprintf(stderr, "%s: a fetch of %zu bytes\n", argv[1],
				r.max_sz);
			status = 1;
		}
		printf("%d %lx %lx %lx %lx %lx %lx %u %llx\n", ret,
		       d.text_start, d.text_end, d.hdr_start, d.hdr_end,
		       d.eh_frame_start, d.eh_frame_end, d.ptr_size,
		       (unsigned long long)hdr_off);
	}
	free(data);
	return status;
}
