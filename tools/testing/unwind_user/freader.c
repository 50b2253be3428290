// SPDX-License-Identifier: GPL-2.0
/*
 * The reader of lib/buildid.c in its memory mode, which discover.c uses for
 * the vDSO: the same checks in the same order, the same errors.  The file
 * mode is emulated by failing fetches on demand (see linux/buildid.h).
 */
#include <errno.h>
#include <string.h>

#include <linux/buildid.h>
#include <linux/kernel.h>
#include <linux/sched/signal.h>

void freader_init_from_mem(struct freader *r, const char *data, u64 data_sz)
{
	memset(r, 0, sizeof(*r));
	r->data = data;
	r->data_sz = data_sz;
	r->fail_off = U64_MAX;
}

void freader_fail_from(struct freader *r, u64 off, int err)
{
	r->fail_off = off;
	r->fail_err = err;
}

const void *freader_fetch(struct freader *r, long long file_off, size_t sz)
{
	/* lib/buildid.c compares as unsigned: loff_t + size_t is. */
	u64 off = file_off;

	r->fetches++;
	if (sz > r->max_sz)
		r->max_sz = sz;
	if (r->signal_after && r->fetches >= r->signal_after)
		fake_fatal_signal = true;

	if (off + sz < off) {
		r->err = -EOVERFLOW;
		return NULL;
	}
	/* Any failure injected below this would have failed this fetch. */
	if (off + sz > r->reach)
		r->reach = off + sz;
	/* Where the file mode would fail: a page not cached, a short read. */
	if (off + sz > r->fail_off) {
		r->err = r->fail_err;
		return NULL;
	}
	if (off + sz > r->data_sz) {
		r->err = -ERANGE;
		return NULL;
	}
	return r->data + off;
}

/* Memory mode holds nothing. */
void freader_cleanup(struct freader *r)
{
}
