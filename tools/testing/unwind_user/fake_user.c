// SPDX-License-Identifier: GPL-2.0
/*
 * copy_from_user() over a table of mapped regions.  Like the kernel's, it
 * copies up to the first byte that faults and returns how many it did not
 * copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/uaccess.h>

#include "fake_user.h"

struct fake_region {
	unsigned long addr;
	unsigned long len;
	const unsigned char *data;
};

static struct fake_region regions[FAKE_USER_MAX_REGIONS];
static unsigned int nr_regions;

unsigned long fake_user_copies;
unsigned long fake_user_bytes;
/* fatal_signal_pending() of the one task (linux/sched/signal.h) */
bool fake_fatal_signal;

void fake_user_reset(void)
{
	nr_regions = 0;
	fake_user_copies = 0;
	fake_user_bytes = 0;
}

int fake_user_map(unsigned long addr, const void *data, unsigned long len)
{
	if (nr_regions == FAKE_USER_MAX_REGIONS) {
		fprintf(stderr, "fake_user: too many regions\n");
		abort();
	}
	if (!len)
		return 0;
	regions[nr_regions].addr = addr;
	regions[nr_regions].len = len;
	regions[nr_regions].data = data;
	nr_regions++;
	return 0;
}

/*
 * The region of @addr.  The kernel's copy_from_user() searches nothing, so
 * the last region found is tried first: the benchmarks' figures should be
 * the unwinder's, not this table's.
 */
static const struct fake_region *fake_user_find(unsigned long addr)
{
	static unsigned int last;
	unsigned int i;

	if (last < nr_regions && addr >= regions[last].addr &&
	    addr - regions[last].addr < regions[last].len)
		return &regions[last];
	for (i = 0; i < nr_regions; i++) {
		if (addr >= regions[i].addr &&
		    addr - regions[i].addr < regions[i].len) {
			last = i;
			return &regions[i];
		}
	}
	return NULL;
}

unsigned long fake_window_start, fake_window_end;
const unsigned char *fake_window_data;

bool fake_user_access_begin(const void __user *ptr, unsigned long len)
{
	unsigned long addr = (unsigned long)ptr;
	const struct fake_region *r = fake_user_find(addr);

	fake_user_copies++;
	fake_user_bytes += len;
	/* Reads in a window in one region need no search. */
	fake_window_start = 0;
	fake_window_end = 0;
	if (r && len <= r->len - (addr - r->addr)) {
		fake_window_start = addr;
		fake_window_end = addr + len;
		fake_window_data = r->data + (addr - r->addr);
	}
	return true;
}

/* All @n bytes, or -EFAULT: a word either reads or faults. */
int fake_user_read(void *to, const void __user *from, unsigned long n)
{
	unsigned long addr = (unsigned long)from;
	const struct fake_region *r = fake_user_find(addr);

	if (!r || n > r->len - (addr - r->addr))
		return -EFAULT;
	memcpy(to, r->data + (addr - r->addr), n);
	return 0;
}

unsigned long copy_from_user(void *to, const void __user *from,
			     unsigned long n)
{
	unsigned long addr = (unsigned long)from;
	unsigned char *dst = to;

	fake_user_copies++;
	fake_user_bytes += n;

	/* All of it in one region: the common case, one memcpy(). */
	{
		const struct fake_region *r = fake_user_find(addr);

		if (r && n <= r->len - (addr - r->addr)) {
			memcpy(dst, r->data + (addr - r->addr), n);
			return 0;
		}
	}
	while (n) {
		const struct fake_region *r = fake_user_find(addr);
		unsigned long off, chunk;

		if (!r)
			break;
		off = addr - r->addr;
		chunk = r->len - off;
		if (chunk > n)
			chunk = n;
		memcpy(dst, r->data + off, chunk);
		dst += chunk;
		addr += chunk;
		n -= chunk;
	}
	return n;
}

/* See include/linux/slab.h. */
int slab_fail_next;
