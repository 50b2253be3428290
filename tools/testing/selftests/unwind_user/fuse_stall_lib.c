// SPDX-License-Identifier: GPL-2.0
/*
 * The library fuse_stall.c serves from its FUSE file system and its
 * workload dlopen()s: a chain of calls that ends in a loop, built without
 * frame pointers, so that a walk from the loop needs the library's unwind
 * table.  Nothing here reads the segment of .eh_frame_hdr and .eh_frame
 * (no string literal, no .rodata): its pages are cached only for whoever
 * reads them, and drop_caches drops them.
 */
#include <unistd.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile unsigned long fuse_lib_sink;
static volatile int fuse_lib_stop;

/* Say "ready" on @fd, then spin until fuse_lib_stop (never). */
static NOINLINE unsigned long fuse_lib_spin(int fd)
{
	unsigned long i = 0;
	char c = 'r';

	if (write(fd, &c, 1) != 1)
		return 0;
	while (!fuse_lib_stop)
		fuse_lib_sink += i++;
	return i;
}

/* Each adds to what its callee returns: no tail calls, a frame each. */
static NOINLINE unsigned long fuse_lib_f5(int fd)
{
	return fuse_lib_spin(fd) + 5;
}

static NOINLINE unsigned long fuse_lib_f4(int fd)
{
	return fuse_lib_f5(fd) + 4;
}

static NOINLINE unsigned long fuse_lib_f3(int fd)
{
	return fuse_lib_f4(fd) + 3;
}

static NOINLINE unsigned long fuse_lib_f2(int fd)
{
	return fuse_lib_f3(fd) + 2;
}

static NOINLINE unsigned long fuse_lib_f1(int fd)
{
	return fuse_lib_f2(fd) + 1;
}

unsigned long fuse_lib_run(int fd)
{
	return fuse_lib_f1(fd);
}
