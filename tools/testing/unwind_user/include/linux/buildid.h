/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User space stand-in for the reader of <linux/buildid.h> (lib/buildid.c),
 * in its memory mode only (freader.c): elf_table.c reads ELF headers
 * through it.  A test can make every fetch that reaches a chosen offset
 * fail with a chosen error, as the file mode fails for a page that is not
 * cached (-EFAULT) or a file shorter than its headers say (-EIO); or let a
 * fatal signal arrive after a number of fetches.
 */
#ifndef _UNWIND_TEST_LINUX_BUILDID_H
#define _UNWIND_TEST_LINUX_BUILDID_H

#include <linux/types.h>

struct freader {
	void		*buf;		/* always NULL: memory mode */
	u32		buf_sz;
	int		err;
	const char	*data;
	u64		data_sz;
	/* The tests' own: a fetch reaching byte @fail_off gets @fail_err. */
	u64		fail_off;
	int		fail_err;
	/* After this many fetches, a fatal signal is pending (0: never). */
	unsigned long	signal_after;
	/* What the code under test asked for: fetches, their largest size. */
	unsigned long	fetches;
	size_t		max_sz;
	/* The end of the furthest fetch that did not wrap, failed or not. */
	u64		reach;
};

void freader_init_from_mem(struct freader *r, const char *data, u64 data_sz);
const void *freader_fetch(struct freader *r, long long file_off, size_t sz);
void freader_cleanup(struct freader *r);

/* Make every later fetch of @r that reaches byte @off fail with @err. */
void freader_fail_from(struct freader *r, u64 off, int err);

#endif
