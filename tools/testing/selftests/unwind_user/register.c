// SPDX-License-Identifier: GPL-2.0
/*
 * prctl(PR_REGISTER_EH_FRAME) and PR_UNREGISTER_EH_FRAME: every
 * errno path of the interface (Documentation/userspace-api/unwind_tables.rst),
 * the success path, the per-mm cap (kernel.unwind_tables_max), and the
 * registrations the kernel drops by itself (munmap, MAP_FIXED, dlclose,
 * MADV_DONTFORK text at fork), moves (mremap) or shares (fork) or forgets
 * (exec); who may read /proc/<pid>/unwind_tables.
 *
 * Exec registers nothing: the kernel finds the tables of the program, the
 * dynamic linker and the vDSO at the first walk that needs them.  Where a
 * test needs them found, it samples itself (a task-clock event with
 * deferred callchains) while it runs in that object's code, and then
 * checks what precedence says: a registration replaces what the kernel
 * found, and fails with EEXIST over another registration; the vDSO's entry
 * moves with mremap() and counts against the cap.
 *
 * The valid registration every case starts from is a real object's:
 * libunwind_cb.so (built without frame pointers), dlopen()ed, its text and
 * .eh_frame_hdr found through dl_iterate_phdr().  Each case breaks one thing
 * and checks the errno, that the registrations in /proc/self/unwind_tables
 * did not change (a failed call changes nothing) and that the kernel logged
 * no warning or oops.  Each prints "case NAME: errno E", the table the TAP
 * output gives.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <asm/prctl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib_cb.h"
#include "unwind_table.h"
#include "../kselftest_harness.h"

#define LIB_NAME	"libunwind_cb.so"
#define LIB2_NAME	"libunwind_cb2.so"

/*
 * libunwind_cb.so calls back into the program that loads it (see
 * dso_workload.c); here nothing runs it, but dlopen(RTLD_NOW) needs the
 * symbol (this program is linked with -rdynamic).
 */
void cb_spin(unsigned long ms)
{
	(void)ms;
}

/* What every test starts from. */
struct ctx {
	size_t page;
	void *handle;			/* libunwind_cb.so */
	struct ut_object lib;		/* its text and .eh_frame_hdr */
	struct ut_object exe;		/* this program's */
	int kmsg;
	/*
	 * A copy of the library's .eh_frame_hdr and .eh_frame (which follows
	 * it), in anonymous memory between two unmapped pages: the header's
	 * pc-relative pointer to .eh_frame still holds.
	 */
	uint64_t eh_frame;		/* the library's .eh_frame */
	size_t data_size;		/* .eh_frame_hdr up to the end of .eh_frame */
	/*
	 * kernel.unwind_tables_discover as it was before the test turned it
	 * off: the parent puts it back (FIXTURE_TEARDOWN_PARENT), whatever
	 * became of the test.
	 */
	bool discover_saved;
	int discover_old;
};

static void lib_path(char *buf, size_t size, const char *name)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	snprintf(buf, size, "%s/%s", dirname(exe), name);
}

static int32_t get_s32(const void *p)
{
	int32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void put_s32(void *p, int32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void ctx_setup(struct __test_metadata *_metadata, struct ctx *ctx)
{
	char path[PATH_MAX];
	const unsigned char *hdr, *p;
	uint32_t len;

	ctx->page = sysconf(_SC_PAGESIZE);
	lib_path(path, sizeof(path), LIB_NAME);
	ctx->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	ASSERT_NE(NULL, ctx->handle) TH_LOG("dlopen: %s", dlerror());
	ASSERT_EQ(0, ut_find_object(LIB_NAME, &ctx->lib));
	ASSERT_EQ(0, ut_find_object("", &ctx->exe));
	ctx->kmsg = ut_kmsg_open();
	ASSERT_LE(0, ctx->kmsg) TH_LOG("cannot read /dev/kmsg: %s", strerror(errno));

	/* The header GNU ld writes: version 1, pcrel|sdata4, udata4, datarel|sdata4. */
	hdr = (const void *)(uintptr_t)ctx->lib.hdr_start;
	ASSERT_EQ(1, hdr[0]);
	ASSERT_EQ(EH_PE_pcrel | EH_PE_sdata4, hdr[1]);
	ASSERT_EQ(EH_PE_udata4, hdr[2]);
	ASSERT_EQ(EH_PE_datarel | EH_PE_sdata4, hdr[3]);
	ctx->eh_frame = ctx->lib.hdr_start + 4 + get_s32(hdr + 4);
	ASSERT_GE(ctx->eh_frame, ctx->lib.hdr_start + ctx->lib.hdr_size);

	/* .eh_frame ends with a zero length (no 64-bit records in it). */
	p = (const void *)(uintptr_t)ctx->eh_frame;
	for (;;) {
		memcpy(&len, p, sizeof(len));
		ASSERT_NE(0xffffffffU, len);
		p += 4;
		if (!len)
			break;
		p += len;
		ASSERT_LT(p - hdr, 1 << 20);
	}
	ctx->data_size = p - hdr;
}

/*
 * Turn kernel.unwind_tables_discover off, so that nothing the kernel finds
 * can change what the test compares; discovery_restore() turns it back on.
 */
static void discovery_off(struct __test_metadata *_metadata, struct ctx *ctx)
{
	int old = ut_read_discover();

	ASSERT_LE(0, old) TH_LOG("cannot read %s", UNWIND_TABLES_DISCOVER_PATH);
	if (!ctx->discover_saved) {
		ctx->discover_old = old;
		ctx->discover_saved = true;
	}
	ASSERT_EQ(0, ut_write_discover(0)) TH_LOG("cannot write %s",
						  UNWIND_TABLES_DISCOVER_PATH);
}

/* In the test, and again from the parent after it (the fixtures' teardown). */
static void discovery_restore(struct ctx *ctx)
{
	if (!ctx->discover_saved)
		return;
	if (ut_write_discover(ctx->discover_old))
		fprintf(stderr, "# cannot restore %s to %d\n", UNWIND_TABLES_DISCOVER_PATH,
			ctx->discover_old);
	ctx->discover_saved = false;
}

/* @pages pages of anonymous memory with @prot, with an unmapped page on each side. */
static char *map_guarded(struct __test_metadata *_metadata, struct ctx *ctx, size_t pages,
			 int prot)
{
	char *p = mmap(NULL, (pages + 2) * ctx->page, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p, ctx->page));
	ASSERT_EQ(0, munmap(p + (pages + 1) * ctx->page, ctx->page));
	return p + ctx->page;
}

/* An address where nothing is mapped. */
static uint64_t unmapped(struct __test_metadata *_metadata, struct ctx *ctx)
{
	char *p = map_guarded(_metadata, ctx, 1, PROT_READ);

	ASSERT_EQ(0, munmap(p, ctx->page));
	return (uintptr_t)p;
}

/*
 * A copy of the library's .eh_frame_hdr and .eh_frame, readable, ending
 * where its mapping ends (an unmapped page follows, and one precedes it).
 * Returns the copy's header; the caller changes it, then mprotect()s it.
 */
static unsigned char *copy_hdr(struct __test_metadata *_metadata, struct ctx *ctx)
{
	size_t pages = (ctx->data_size + ctx->page - 1) / ctx->page;
	char *p = map_guarded(_metadata, ctx, pages, PROT_READ | PROT_WRITE);
	unsigned char *hdr = (unsigned char *)p + pages * ctx->page - ctx->data_size;

	memcpy(hdr, (const void *)(uintptr_t)ctx->lib.hdr_start, ctx->data_size);
	return hdr;
}

/*
 * The library's registration, with its tables replaced by the copy at @hdr:
 * the header, @size bytes, and .eh_frame in the rest of the copy.
 */
static void use_hdr(struct ctx *ctx, struct prctl_eh_frame *tbl, const unsigned char *hdr,
		    uint64_t size)
{
	tbl->eh_frame_hdr_start = (uintptr_t)hdr;
	tbl->eh_frame_hdr_size = size;
	tbl->eh_frame_start = (uintptr_t)hdr;
	tbl->eh_frame_size = ctx->data_size;
}

/* One call of the table: what the case sets up, then prctl(option, arg, size, arg4, arg5). */
struct call {
	int option;
	const void *arg;		/* &tbl unless the case says otherwise */
	unsigned long size, arg4, arg5;
	struct prctl_eh_frame tbl;
	bool unregisters;		/* a success removes a line instead of adding one */
	/* What the kernel found, and the case is about: its text, or 0, 0. */
	uint64_t found_start, found_end;
};

typedef void (*prep_fn)(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c);

static const char *errno_name(int err)
{
	static char buf[16];
	const char *name = err ? strerrorname_np(err) : "0";

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "%d", err);
	return buf;
}

/* All of /proc/self/unwind_tables. */
static char *tables(struct __test_metadata *_metadata)
{
	char *t = ut_read_tables();

	ASSERT_NE(NULL, t) TH_LOG("%s: %s", UNWIND_TABLES_PATH, strerror(errno));
	return t;
}

/*
 * Only this process's registrations: what the kernel finds when something
 * samples the process may come and go between two reads, and the prctl
 * changes none of it but what its own range replaces (checked apart).
 */
static char *registrations(struct __test_metadata *_metadata)
{
	char *t = ut_read_registrations();

	ASSERT_NE(NULL, t) TH_LOG("%s: %s", UNWIND_TABLES_PATH, strerror(errno));
	return t;
}

/* The kernel logged no warning, BUG or oops since the last check. */
static void check_kmsg(struct __test_metadata *_metadata, struct ctx *ctx, const char *what)
{
	char msg[512];

	EXPECT_FALSE(ut_kmsg_splat(ctx->kmsg, msg, sizeof(msg)))
		TH_LOG("%s: the kernel logged: %s", what, msg);
}

/*
 * After a registration of @t succeeded: @after (all of the file) lists
 * nothing the kernel found over its text, which the registration replaced,
 * and over [@start, @end), what it replaced, if that is not 0, 0.
 */
static void check_replaced(struct __test_metadata *_metadata, const char *after,
			   const struct prctl_eh_frame *t, uint64_t start, uint64_t end)
{
	EXPECT_EQ(NULL, ut_find_origin(after, "found", t->text_start,
				       t->text_start + t->text_size, NULL))
		TH_LOG("found over the registration %llx+%llx:\n%s",
		       (unsigned long long)t->text_start, (unsigned long long)t->text_size,
		       after);
	if (end)
		EXPECT_EQ(NULL, ut_find_origin(after, "found", start, end, NULL))
			TH_LOG("what the kernel found at %llx-%llx survived:\n%s",
			       (unsigned long long)start, (unsigned long long)end, after);
}

/* Register @c->tbl: the kernel must list exactly that line, once. */
static void must_register(struct __test_metadata *_metadata, const struct prctl_eh_frame *t)
{
	char *before = registrations(_metadata), *after, *all;

	ASSERT_EQ(0, ut_prctl(PR_REGISTER_EH_FRAME, t, sizeof(*t), 0, 0));
	after = registrations(_metadata);
	all = tables(_metadata);
	EXPECT_EQ(ut_count_lines(before) + 1, ut_count_lines(after));
	EXPECT_NE(NULL, ut_find_line(after, t))
		TH_LOG("no line for %llx+%llx in:\n%s", (unsigned long long)t->text_start,
		       (unsigned long long)t->text_size, all);
	check_replaced(_metadata, all, t, 0, 0);
	free(before);
	free(after);
	free(all);
}

/*
 * Let the kernel find @obj's table, as the first sample in @obj's code
 * does: sample this process while @spin runs there.  What it found is what
 * the program headers say (the rule of ut_desc_of()), made by @origin; its
 * line in @l.
 */
static void kernel_finds(struct __test_metadata *_metadata, const struct ut_object *obj,
			 void (*spin)(void *), const char *origin, struct ut_line *l)
{
	int ret = ut_discover(obj->text_start, obj->text_end, spin, NULL, 5000, l);
	char *t = tables(_metadata);

	ASSERT_EQ(0, ret) TH_LOG("the kernel found nothing over %s's text (%s):\n%s",
				 obj->name, strerror(-ret), t);
	EXPECT_STREQ(origin, l->origin) TH_LOG("%s:\n%s", obj->name, t);
	EXPECT_STREQ("eh_frame_hdr", l->format) TH_LOG("%s:\n%s", obj->name, t);
	EXPECT_EQ(obj->text_start, l->start);
	EXPECT_EQ(obj->text_end, l->end);
	EXPECT_EQ(obj->hdr_start, l->hdr);
	EXPECT_EQ(obj->hdr_size, l->hdr_size);
	EXPECT_EQ(obj->eh_frame_start + obj->eh_frame_size, l->eh_frame + l->eh_frame_size);
	free(t);
}

/*
 * Run one case: the call must fail with @err (or succeed, @err 0), leave
 * the registrations as they were (or with exactly the one more or less),
 * and the kernel log clean.  A registration must replace what the kernel
 * found over its text; a case about what the kernel found checks that it
 * was there before the call, and gone after.
 */
static void run_case(struct __test_metadata *_metadata, struct ctx *ctx, const char *name,
		     int err, prep_fn prep)
{
	const struct prctl_eh_frame *t;
	struct call c = { .option = PR_REGISTER_EH_FRAME, .size = sizeof(c.tbl) };
	char *reason = _metadata->results->reason, *before, *after, *all_before, *all_after;
	size_t size = sizeof(_metadata->results->reason);
	uint64_t end;
	int ret, len;

	c.arg = &c.tbl;
	ut_desc_of(&ctx->lib, &c.tbl);
	if (prep)
		prep(_metadata, ctx, &c);
	t = &c.tbl;
	end = t->text_start + t->text_size;
	check_kmsg(_metadata, ctx, "before the case");

	all_before = tables(_metadata);
	before = registrations(_metadata);
	ret = ut_prctl(c.option, c.arg, c.size, c.arg4, c.arg5);
	after = registrations(_metadata);
	all_after = tables(_metadata);

	ksft_print_msg("case %s: errno %s%s%s\n", name, errno_name(-ret),
		       -ret == err ? "" : ", expected ", -ret == err ? "" : errno_name(err));
	EXPECT_EQ(err, -ret)
		TH_LOG("%s: errno %s, expected %s", name, errno_name(-ret), errno_name(err));
	if (c.found_end)
		EXPECT_NE(NULL, ut_find_origin(all_before, "found", c.found_start, c.found_end,
					       NULL))
			TH_LOG("nothing found at %llx-%llx before the call:\n%s",
			       (unsigned long long)c.found_start,
			       (unsigned long long)c.found_end, all_before);
	if (ret) {
		EXPECT_STREQ(before, after);
	} else if (c.unregisters) {
		/* What the kernel found is no registration. */
		EXPECT_EQ(ut_count_lines(before), ut_count_lines(after) + !c.found_end);
		EXPECT_EQ(NULL, ut_find_overlap(all_after, t->text_start, end, NULL, NULL, NULL))
			TH_LOG("still listed:\n%s", all_after);
	} else {
		EXPECT_EQ(ut_count_lines(before) + 1, ut_count_lines(after));
		EXPECT_NE(NULL, ut_find_line(after, t))
			TH_LOG("no line for the registration in:\n%s", all_after);
		check_replaced(_metadata, all_after, t, c.found_start, c.found_end);
		EXPECT_EQ(0, ut_unregister_format(t->format, t->text_start, end));
		free(after);
		after = registrations(_metadata);
		EXPECT_STREQ(before, after);
	}
	check_kmsg(_metadata, ctx, name);
	/* errno_name() returns a static buffer for unnamed values: two calls. */
	len = snprintf(reason, size, "errno %s", errno_name(-ret));
	if (-ret != err)
		snprintf(reason + len, size - len, ", expected %s", errno_name(err));
	free(before);
	free(after);
	free(all_before);
	free(all_after);
}

/* --- the argument itself --- */

static void size_small(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->size = PRCTL_EH_FRAME_SIZE_VER0 - 8;
}

static void size_zero(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->size = 0;
}

/* A bigger struct, as a newer program would pass: a page and more. */
static unsigned char big[2 * 65536] __attribute__((aligned(65536)));

static void size_too_big(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	memcpy(big, &c->tbl, sizeof(c->tbl));
	c->arg = big;
	c->size = ctx->page + 8;
}

static void size_big_tail_set(struct __test_metadata *_metadata, struct ctx *ctx,
			      struct call *c)
{
	memcpy(big, &c->tbl, sizeof(c->tbl));
	big[sizeof(c->tbl) + 5] = 1;
	c->arg = big;
	c->size = sizeof(c->tbl) + 8;
}

static void size_big_tail_zero(struct __test_metadata *_metadata, struct ctx *ctx,
			       struct call *c)
{
	memcpy(big, &c->tbl, sizeof(c->tbl));
	c->arg = big;
	c->size = sizeof(c->tbl) + 8;
}

static void size_page_tail_zero(struct __test_metadata *_metadata, struct ctx *ctx,
				struct call *c)
{
	memcpy(big, &c->tbl, sizeof(c->tbl));
	c->arg = big;
	c->size = ctx->page;
}

static void arg4_set(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->arg4 = 1;
}

static void arg5_set(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->arg5 = 1;
}

static void struct_null(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->arg = NULL;
}

static void struct_unmapped(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->arg = (const void *)(uintptr_t)unmapped(_metadata, ctx);
}

/* The struct's first half at the end of a page, its second half unmapped. */
static void struct_half_mapped(struct __test_metadata *_metadata, struct ctx *ctx,
			       struct call *c)
{
	char *p = map_guarded(_metadata, ctx, 1, PROT_READ | PROT_WRITE);
	char *arg = p + ctx->page - sizeof(c->tbl) / 2;

	memcpy(arg, &c->tbl, sizeof(c->tbl) / 2);
	c->arg = arg;
}

static void format_zero(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.format = 0;
}

static void format_unknown(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.format = PR_EH_FRAME_FORMAT_PE + 1;
}

/* .eh_frame without a header: the library's, registered as a static one is. */
static void bare(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.format = PR_EH_FRAME_FORMAT_EH_FRAME;
	c->tbl.eh_frame_hdr_start = 0;
	c->tbl.eh_frame_hdr_size = 0;
	c->tbl.eh_frame_start = ctx->eh_frame;
	c->tbl.eh_frame_size = ctx->lib.hdr_start + ctx->data_size - ctx->eh_frame;
}

static void bare_hdr_set(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	bare(_metadata, ctx, c);
	c->tbl.eh_frame_hdr_start = ctx->lib.hdr_start;
	c->tbl.eh_frame_hdr_size = ctx->lib.hdr_size;
}

static void bare_hdr_size_set(struct __test_metadata *_metadata, struct ctx *ctx,
			      struct call *c)
{
	bare(_metadata, ctx, c);
	c->tbl.eh_frame_hdr_size = 8;
}

/* More .eh_frame than the kernel indexes: 32 MiB and a page, all readable. */
static void bare_too_big(struct __test_metadata *_metadata, struct ctx *ctx,
			 struct call *c)
{
	size_t pages = (32 << 20) / ctx->page + 1;
	char *p = map_guarded(_metadata, ctx, pages, PROT_READ);

	bare(_metadata, ctx, c);
	c->tbl.eh_frame_start = (uintptr_t)p;
	c->tbl.eh_frame_size = pages * ctx->page;
}

static void bare_at_bound(struct __test_metadata *_metadata, struct ctx *ctx,
			  struct call *c)
{
	size_t pages = (32 << 20) / ctx->page;
	char *p = map_guarded(_metadata, ctx, pages, PROT_READ);

	bare(_metadata, ctx, c);
	c->tbl.eh_frame_start = (uintptr_t)p;
	c->tbl.eh_frame_size = pages * ctx->page;
}

static void bare_unmapped(struct __test_metadata *_metadata, struct ctx *ctx,
			  struct call *c)
{
	bare(_metadata, ctx, c);
	c->tbl.eh_frame_start = unmapped(_metadata, ctx);
	c->tbl.eh_frame_size = ctx->page;
}

/* The header format needs the header. */
static void hdr_missing(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.eh_frame_hdr_start = 0;
	c->tbl.eh_frame_hdr_size = 0;
}

static void flags_set(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.flags = 1;
}

static void flags_high(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.flags = 0x80000000U;
}

/* --- the text range --- */

static void text_empty(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.text_size = 0;
}

static void text_wraps(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.text_size = -c->tbl.text_start + 16;
}

/* Ends beyond the user address space (and near the top of the 64-bit space). */
static void text_too_high(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.text_size = ~0ULL - c->tbl.text_start;
}

static void text_unmapped(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.text_start = unmapped(_metadata, ctx);
	c->tbl.text_size = ctx->page;
}

/* Executable text followed by a hole. */
static void text_partly_unmapped(struct __test_metadata *_metadata, struct ctx *ctx,
				 struct call *c)
{
	char *p = map_guarded(_metadata, ctx, 1, PROT_READ | PROT_EXEC);

	c->tbl.text_start = (uintptr_t)p;
	c->tbl.text_size = 2 * ctx->page;
}

static void text_not_exec(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	char *p = map_guarded(_metadata, ctx, 1, PROT_READ);

	c->tbl.text_start = (uintptr_t)p;
	c->tbl.text_size = ctx->page;
}

static void text_partly_not_exec(struct __test_metadata *_metadata, struct ctx *ctx,
				 struct call *c)
{
	char *p = map_guarded(_metadata, ctx, 2, PROT_READ | PROT_EXEC);

	ASSERT_EQ(0, mprotect(p + ctx->page, ctx->page, PROT_READ));
	c->tbl.text_start = (uintptr_t)p;
	c->tbl.text_size = 2 * ctx->page;
}

/* --- the header's range --- */

static void table_size_zero(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.eh_frame_hdr_size = 0;
}

static void table_wraps(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.eh_frame_hdr_size = -c->tbl.eh_frame_hdr_start + 16;
}

static void table_too_high(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.eh_frame_hdr_size = ~0ULL - c->tbl.eh_frame_hdr_start;
}

static void table_unmapped(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.eh_frame_hdr_start = unmapped(_metadata, ctx);
}

/* A copy of the header whose last byte is followed by a hole. */
static void table_partly_unmapped(struct __test_metadata *_metadata, struct ctx *ctx,
				  struct call *c)
{
	char *p = map_guarded(_metadata, ctx, 1, PROT_READ | PROT_WRITE);
	unsigned char *hdr = (unsigned char *)p + ctx->page - c->tbl.eh_frame_hdr_size + 1;

	memcpy(hdr, (const void *)(uintptr_t)ctx->lib.hdr_start, c->tbl.eh_frame_hdr_size - 1);
	c->tbl.eh_frame_hdr_start = (uintptr_t)hdr;
}

/* --- the range that holds .eh_frame --- */

static void eh_frame_size_zero(struct __test_metadata *_metadata, struct ctx *ctx,
			       struct call *c)
{
	c->tbl.eh_frame_size = 0;
}

static void eh_frame_wraps(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.eh_frame_size = -c->tbl.eh_frame_start + 16;
}

static void eh_frame_too_high(struct __test_metadata *_metadata, struct ctx *ctx,
			      struct call *c)
{
	c->tbl.eh_frame_size = ~0ULL - c->tbl.eh_frame_start;
}

/*
 * A copy of the header and .eh_frame in the last pages of a mapping whose
 * first page has @prot (or is unmapped if @prot is -1); the range said to
 * hold .eh_frame starts on that page.
 */
static void eh_frame_first_page(struct __test_metadata *_metadata, struct ctx *ctx,
				struct call *c, int prot)
{
	size_t pages = (ctx->data_size + ctx->page - 1) / ctx->page;
	char *p = map_guarded(_metadata, ctx, pages + 1, PROT_READ | PROT_WRITE);
	unsigned char *hdr = (unsigned char *)p + (pages + 1) * ctx->page - ctx->data_size;

	memcpy(hdr, (const void *)(uintptr_t)ctx->lib.hdr_start, ctx->data_size);
	use_hdr(ctx, &c->tbl, hdr, ctx->lib.hdr_size);
	c->tbl.eh_frame_start = (uintptr_t)p;
	c->tbl.eh_frame_size = (uintptr_t)hdr + ctx->data_size - (uintptr_t)p;
	ASSERT_EQ(0, prot < 0 ? munmap(p, ctx->page) : mprotect(p, ctx->page, prot));
}

/* The copy with a readable page before it: accepted (the cases below differ in that page). */
static void eh_frame_readable(struct __test_metadata *_metadata, struct ctx *ctx,
			      struct call *c)
{
	eh_frame_first_page(_metadata, ctx, c, PROT_READ);
}

static void eh_frame_partly_unmapped(struct __test_metadata *_metadata, struct ctx *ctx,
				     struct call *c)
{
	eh_frame_first_page(_metadata, ctx, c, -1);
}

static void eh_frame_partly_prot_none(struct __test_metadata *_metadata, struct ctx *ctx,
				      struct call *c)
{
	eh_frame_first_page(_metadata, ctx, c, PROT_NONE);
}

/* A range that ends before the .eh_frame the header points to. */
static void eh_frame_excludes_it(struct __test_metadata *_metadata, struct ctx *ctx,
				 struct call *c)
{
	c->tbl.eh_frame_start = c->tbl.eh_frame_hdr_start;
	c->tbl.eh_frame_size = c->tbl.eh_frame_hdr_size;
}

static void table_prot_none(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	unsigned char *hdr = copy_hdr(_metadata, ctx);

	use_hdr(ctx, &c->tbl, hdr, ctx->lib.hdr_size);
	ASSERT_EQ(0, mprotect((void *)((uintptr_t)hdr & ~(ctx->page - 1)), ctx->page,
			      PROT_NONE));
}

/* A valid copy: accepted, which makes the cases below that change one byte of it meaningful. */
static void hdr_copy(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	use_hdr(ctx, &c->tbl, copy_hdr(_metadata, ctx), ctx->lib.hdr_size);
}

/* --- the header's content: a copy, with one field changed --- */

static void hdr_version(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	unsigned char *hdr = copy_hdr(_metadata, ctx);

	hdr[0] = 2;
	use_hdr(ctx, &c->tbl, hdr, ctx->lib.hdr_size);
}

static void hdr_fde_count_big(struct __test_metadata *_metadata, struct ctx *ctx,
			      struct call *c)
{
	unsigned char *hdr = copy_hdr(_metadata, ctx);

	/* 12 bytes of header, then 8 per entry */
	put_s32(hdr + 8, (ctx->lib.hdr_size - 12) / 8 + 1);
	use_hdr(ctx, &c->tbl, hdr, ctx->lib.hdr_size);
}

/* The real header, with a size that cuts off its last table entry. */
static void hdr_size_short(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.eh_frame_hdr_size -= 8;
}

/* Too short for the header's fixed part. */
static void hdr_truncated(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	c->tbl.eh_frame_hdr_size = 6;
}

static void hdr_ptr_enc_bad(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	unsigned char *hdr = copy_hdr(_metadata, ctx);

	hdr[1] = 0x0f;		/* no such DW_EH_PE format */
	use_hdr(ctx, &c->tbl, hdr, ctx->lib.hdr_size);
}

static void hdr_count_enc_pcrel(struct __test_metadata *_metadata, struct ctx *ctx,
				struct call *c)
{
	unsigned char *hdr = copy_hdr(_metadata, ctx);

	hdr[2] = EH_PE_pcrel | EH_PE_udata4;	/* a count is no address */
	use_hdr(ctx, &c->tbl, hdr, ctx->lib.hdr_size);
}

/* eh_frame_ptr into the unmapped page after the copy. */
static void hdr_eh_frame_after(struct __test_metadata *_metadata, struct ctx *ctx,
			       struct call *c)
{
	unsigned char *hdr = copy_hdr(_metadata, ctx);

	put_s32(hdr + 4, ctx->data_size + 64 - 4);
	use_hdr(ctx, &c->tbl, hdr, ctx->lib.hdr_size);
}

/* eh_frame_ptr into the unmapped page before the copy. */
static void hdr_eh_frame_before(struct __test_metadata *_metadata, struct ctx *ctx,
				struct call *c)
{
	unsigned char *hdr = copy_hdr(_metadata, ctx);
	size_t pages = (ctx->data_size + ctx->page - 1) / ctx->page;
	uintptr_t hole = (uintptr_t)hdr + ctx->data_size - pages * ctx->page - ctx->page / 2;

	put_s32(hdr + 4, (int32_t)(hole - ((uintptr_t)hdr + 4)));
	use_hdr(ctx, &c->tbl, hdr, ctx->lib.hdr_size);
}

static void hdr_no_count(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	unsigned char *hdr = copy_hdr(_metadata, ctx);

	hdr[2] = EH_PE_omit;
	use_hdr(ctx, &c->tbl, hdr, ctx->lib.hdr_size);
}

static void hdr_no_table(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	unsigned char *hdr = copy_hdr(_metadata, ctx);

	hdr[3] = EH_PE_omit;
	use_hdr(ctx, &c->tbl, hdr, ctx->lib.hdr_size);
}

/* Variable-size entries: no binary search. */
static void hdr_table_uleb128(struct __test_metadata *_metadata, struct ctx *ctx,
			      struct call *c)
{
	unsigned char *hdr = copy_hdr(_metadata, ctx);

	hdr[3] = EH_PE_datarel | EH_PE_uleb128;
	use_hdr(ctx, &c->tbl, hdr, ctx->lib.hdr_size);
}

/* --- overlaps --- */

/*
 * What the kernel found gives way to a registration over it: @obj's table,
 * found at a sample in @spin, is registered over, whole.
 */
static void over_found(struct __test_metadata *_metadata, struct call *c,
		       const struct ut_object *obj, void (*spin)(void *), const char *origin)
{
	struct ut_line l;

	kernel_finds(_metadata, obj, spin, origin, &l);
	ut_desc_of(obj, &c->tbl);
	c->found_start = l.start;
	c->found_end = l.end;
}

/* The objects exec maps, and the kernel finds: the program, ld.so, the vDSO. */
static void overlap_exe(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	over_found(_metadata, c, &ctx->exe, ut_spin_program, "discovered");
}

/* One byte of what the kernel found: the whole entry goes. */
static void overlap_exe_last_byte(struct __test_metadata *_metadata, struct ctx *ctx,
				  struct call *c)
{
	overlap_exe(_metadata, ctx, c);
	c->tbl.text_start += c->tbl.text_size - 1;
	c->tbl.text_size = 1;
}

static void overlap_ld_so(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	struct ut_object ld;

	ASSERT_EQ(0, ut_find_object("ld-linux-x86-64.so.2", &ld));
	over_found(_metadata, c, &ld, ut_spin_ld_so, "discovered");
}

static void overlap_vdso(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	struct ut_object vdso;

	ASSERT_EQ(0, ut_find_object("linux-vdso.so.1", &vdso));
	over_found(_metadata, c, &vdso, ut_spin_vdso, "vdso");
}

/* A registration that replaced what the kernel found is one like any other. */
static void overlap_exe_registered(struct __test_metadata *_metadata, struct ctx *ctx,
				   struct call *c)
{
	overlap_exe(_metadata, ctx, c);
	must_register(_metadata, &c->tbl);
	c->tbl.text_start += c->tbl.text_size - 1;
	c->tbl.text_size = 1;
	c->found_start = 0;
	c->found_end = 0;
}

static void double_register(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	must_register(_metadata, &c->tbl);
}

/* A part of what is registered. */
static void overlap_registered(struct __test_metadata *_metadata, struct ctx *ctx,
			       struct call *c)
{
	must_register(_metadata, &c->tbl);
	c->tbl.text_start += 16;
}

/* --- unregistration --- */

static void as_unregister(struct call *c)
{
	c->option = PR_UNREGISTER_EH_FRAME;
	c->tbl.eh_frame_hdr_start = 0;
	c->tbl.eh_frame_hdr_size = 0;
	c->tbl.eh_frame_start = 0;
	c->tbl.eh_frame_size = 0;
}

static void unreg_unknown(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	as_unregister(c);
}

static void unreg_table_set(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	must_register(_metadata, &c->tbl);
	c->option = PR_UNREGISTER_EH_FRAME;
}

static void unreg_eh_frame_set(struct __test_metadata *_metadata, struct ctx *ctx,
			       struct call *c)
{
	must_register(_metadata, &c->tbl);
	as_unregister(c);
	c->tbl.eh_frame_size = 1;
}

static void unreg_table_size_set(struct __test_metadata *_metadata, struct ctx *ctx,
				 struct call *c)
{
	must_register(_metadata, &c->tbl);
	as_unregister(c);
	c->tbl.eh_frame_hdr_size = 1;
}

/* A registered range, named by a part of it. */
static void unreg_part(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	must_register(_metadata, &c->tbl);
	as_unregister(c);
	c->tbl.text_size--;
}

/* A registered range, named with one byte more. */
static void unreg_more(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	must_register(_metadata, &c->tbl);
	as_unregister(c);
	c->tbl.text_size++;
}

static void unreg_size_small(struct __test_metadata *_metadata, struct ctx *ctx,
			     struct call *c)
{
	must_register(_metadata, &c->tbl);
	as_unregister(c);
	c->size = PRCTL_EH_FRAME_SIZE_VER0 - 1;
}

static void unreg_format(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	must_register(_metadata, &c->tbl);
	as_unregister(c);
	c->tbl.format = 0;
}

/* A registration without a header is not one with: the format names it too. */
static void unreg_bare_as_hdr(struct __test_metadata *_metadata, struct ctx *ctx,
			      struct call *c)
{
	bare(_metadata, ctx, c);
	must_register(_metadata, &c->tbl);
	as_unregister(c);
	c->tbl.format = PR_EH_FRAME_FORMAT_EH_FRAME_HDR;
}

static void unreg_bare(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	bare(_metadata, ctx, c);
	must_register(_metadata, &c->tbl);
	as_unregister(c);
	c->unregisters = true;
}

static void unreg_flags(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	must_register(_metadata, &c->tbl);
	as_unregister(c);
	c->tbl.flags = 1;
}

static void unreg_arg4(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	must_register(_metadata, &c->tbl);
	as_unregister(c);
	c->arg4 = 1;
}

static void unreg_reversed(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	as_unregister(c);
	c->tbl.text_size = 0;
}

/*
 * What the kernel found (the program's table), named as
 * /proc/self/unwind_tables lists it, is unregistered as a registration is.
 * Discovery is off from then on: nothing may find it again before the
 * check that it is gone.
 */
static void unreg_exe(struct __test_metadata *_metadata, struct ctx *ctx, struct call *c)
{
	struct ut_line l;

	kernel_finds(_metadata, &ctx->exe, ut_spin_program, "discovered", &l);
	discovery_off(_metadata, ctx);
	as_unregister(c);
	c->tbl.text_start = l.start;
	c->tbl.text_size = l.end - l.start;
	c->unregisters = true;
	c->found_start = l.start;
	c->found_end = l.end;
}

static void unreg_registered(struct __test_metadata *_metadata, struct ctx *ctx,
			     struct call *c)
{
	must_register(_metadata, &c->tbl);
	as_unregister(c);
	c->unregisters = true;
}

FIXTURE(bad) {
	struct ctx ctx;
};

FIXTURE_VARIANT(bad) {
	const char *name;
	int err;		/* the errno the call must fail with; 0: it succeeds */
	prep_fn prep;
};

#define CASE(_name, _err) \
	FIXTURE_VARIANT_ADD(bad, _name) { .name = #_name, .err = _err, .prep = _name }

CASE(size_small, EINVAL);
CASE(size_zero, EINVAL);
CASE(size_too_big, E2BIG);
CASE(size_big_tail_set, E2BIG);
CASE(size_big_tail_zero, 0);
CASE(size_page_tail_zero, 0);
CASE(arg4_set, EINVAL);
CASE(arg5_set, EINVAL);
CASE(struct_null, EFAULT);
CASE(struct_unmapped, EFAULT);
CASE(struct_half_mapped, EFAULT);
CASE(format_zero, EINVAL);
CASE(format_unknown, EINVAL);
CASE(bare, 0);
CASE(bare_hdr_set, EINVAL);
CASE(bare_hdr_size_set, EINVAL);
CASE(bare_too_big, EFBIG);
CASE(bare_at_bound, 0);
CASE(bare_unmapped, ENOMEM);
CASE(hdr_missing, EINVAL);
CASE(flags_set, EINVAL);
CASE(flags_high, EINVAL);
CASE(text_empty, EINVAL);
CASE(text_wraps, EINVAL);
CASE(text_too_high, ENOMEM);
CASE(text_unmapped, ENOMEM);
CASE(text_partly_unmapped, ENOMEM);
CASE(text_not_exec, EACCES);
CASE(text_partly_not_exec, EACCES);
CASE(table_size_zero, EINVAL);
CASE(table_wraps, EINVAL);
CASE(table_too_high, ENOMEM);
CASE(table_unmapped, ENOMEM);
CASE(table_partly_unmapped, ENOMEM);
CASE(table_prot_none, EACCES);
CASE(eh_frame_size_zero, EINVAL);
CASE(eh_frame_wraps, EINVAL);
CASE(eh_frame_too_high, ENOMEM);
CASE(eh_frame_readable, 0);
CASE(eh_frame_partly_unmapped, ENOMEM);
CASE(eh_frame_partly_prot_none, EACCES);
CASE(eh_frame_excludes_it, ENOEXEC);
CASE(hdr_copy, 0);
CASE(hdr_version, ENOEXEC);
CASE(hdr_fde_count_big, ENOEXEC);
CASE(hdr_size_short, ENOEXEC);
CASE(hdr_truncated, ENOEXEC);
CASE(hdr_ptr_enc_bad, ENOEXEC);
CASE(hdr_count_enc_pcrel, ENOEXEC);
CASE(hdr_eh_frame_after, ENOEXEC);
CASE(hdr_eh_frame_before, ENOEXEC);
CASE(hdr_no_count, EOPNOTSUPP);
CASE(hdr_no_table, EOPNOTSUPP);
CASE(hdr_table_uleb128, EOPNOTSUPP);
CASE(overlap_exe, 0);
CASE(overlap_exe_last_byte, 0);
CASE(overlap_ld_so, 0);
CASE(overlap_vdso, 0);
CASE(overlap_exe_registered, EEXIST);
CASE(double_register, EEXIST);
CASE(overlap_registered, EEXIST);
CASE(unreg_unknown, ENOENT);
CASE(unreg_table_set, EINVAL);
CASE(unreg_table_size_set, EINVAL);
CASE(unreg_eh_frame_set, EINVAL);
CASE(unreg_part, ENOENT);
CASE(unreg_more, ENOENT);
CASE(unreg_size_small, EINVAL);
CASE(unreg_format, EINVAL);
CASE(unreg_flags, EINVAL);
CASE(unreg_bare_as_hdr, ENOENT);
CASE(unreg_bare, 0);
CASE(unreg_arg4, EINVAL);
CASE(unreg_reversed, EINVAL);
CASE(unreg_exe, 0);
CASE(unreg_registered, 0);

FIXTURE_SETUP(bad)
{
	ctx_setup(_metadata, &self->ctx);
}

FIXTURE_TEARDOWN_PARENT(bad)
{
	discovery_restore(&self->ctx);
}

TEST_F(bad, call)
{
	run_case(_metadata, &self->ctx, variant->name, variant->err, variant->prep);
	discovery_restore(&self->ctx);
}

FIXTURE(reg) {
	struct ctx ctx;
};

FIXTURE_SETUP(reg)
{
	ctx_setup(_metadata, &self->ctx);
}

FIXTURE_TEARDOWN_PARENT(reg)
{
	discovery_restore(&self->ctx);
}

/* Register, see the line, unregister, see it gone, unregister again: ENOENT. */
TEST_F(reg, register_unregister)
{
	const struct ut_object *lib = &self->ctx.lib;
	char *before = tables(_metadata), *t;
	struct prctl_eh_frame desc;

	ut_desc_of(lib, &desc);
	/* Nothing ran its code: nothing could have found it either. */
	ASSERT_EQ(NULL, ut_find_overlap(before, lib->text_start, lib->text_end, NULL, NULL, NULL))
		TH_LOG("%s listed before the test:\n%s", LIB_NAME, before);
	free(before);
	before = registrations(_metadata);
	ASSERT_EQ(0, ut_register(&desc));
	t = tables(_metadata);
	EXPECT_NE(NULL, ut_find_line(t, &desc))
		TH_LOG("no line for %s in:\n%s", LIB_NAME, t);
	ut_print_lines("registered " LIB_NAME ":", t);
	free(t);
	t = registrations(_metadata);
	EXPECT_EQ(ut_count_lines(before) + 1, ut_count_lines(t));
	free(t);

	EXPECT_EQ(0, ut_unregister(lib->text_start, lib->text_end));
	t = registrations(_metadata);
	EXPECT_STREQ(before, t);
	free(t);

	EXPECT_EQ(-ENOENT, ut_unregister(lib->text_start, lib->text_end));
	t = registrations(_metadata);
	EXPECT_STREQ(before, t);
	free(t);
	free(before);
	check_kmsg(_metadata, &self->ctx, "register_unregister");
}

/*
 * The kernel log check of every case sees a warning when there is one: a
 * line that looks like one, written to /dev/kmsg, must be caught.
 */
TEST_F(reg, kmsg_check_works)
{
	static const char line[] = "<4>unwind_user selftest: WARNING: not a real one\n";
	char msg[512];
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)strlen(line), write(fd, line, strlen(line)));
	close(fd);
	EXPECT_TRUE(ut_kmsg_splat(self->ctx.kmsg, msg, sizeof(msg)));
	EXPECT_FALSE(ut_kmsg_splat(self->ctx.kmsg, msg, sizeof(msg)));
}

/* /proc/<pid>/unwind_tables is for the owner's eyes (ptrace read access). */
TEST_F(reg, proc_mode)
{
	struct stat st;

	ASSERT_EQ(0, stat(UNWIND_TABLES_PATH, &st));
	EXPECT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ(0400U, st.st_mode & 07777);
}

/*
 * Register @pages pages of anonymous text (with the library's real table,
 * which describes other text: the kernel checks only the header), then
 * call @unmap on it: the registration must be gone.
 */
static void drop_test(struct __test_metadata *_metadata, struct ctx *ctx, size_t pages,
		      void (*unmap)(struct __test_metadata *, struct ctx *, char *))
{
	char *p = map_guarded(_metadata, ctx, pages, PROT_READ | PROT_EXEC);
	struct prctl_eh_frame tbl;
	char *before = registrations(_metadata), *t;

	ut_desc_of(&ctx->lib, &tbl);
	tbl.text_start = (uintptr_t)p;
	tbl.text_size = pages * ctx->page;
	must_register(_metadata, &tbl);
	unmap(_metadata, ctx, p);
	t = tables(_metadata);
	EXPECT_EQ(NULL, ut_find_overlap(t, tbl.text_start, tbl.text_start + tbl.text_size, NULL,
					NULL, NULL))
		TH_LOG("still registered:\n%s", t);
	free(t);
	t = registrations(_metadata);
	EXPECT_STREQ(before, t);
	free(before);
	free(t);
	check_kmsg(_metadata, ctx, "unmap");
}

static void unmap_all(struct __test_metadata *_metadata, struct ctx *ctx, char *p)
{
	ASSERT_EQ(0, munmap(p, 3 * ctx->page));
}

static void unmap_middle(struct __test_metadata *_metadata, struct ctx *ctx, char *p)
{
	ASSERT_EQ(0, munmap(p + ctx->page, ctx->page));
}

static void map_fixed_over(struct __test_metadata *_metadata, struct ctx *ctx, char *p)
{
	ASSERT_EQ(p + 2 * ctx->page, mmap(p + 2 * ctx->page, ctx->page, PROT_READ | PROT_EXEC,
					  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
}

TEST_F(reg, munmap_drops)
{
	drop_test(_metadata, &self->ctx, 3, unmap_all);
}

TEST_F(reg, munmap_part_drops)
{
	drop_test(_metadata, &self->ctx, 3, unmap_middle);
}

TEST_F(reg, map_fixed_drops)
{
	drop_test(_metadata, &self->ctx, 3, map_fixed_over);
}

/* A library whose text this program registered, then dlclose()d. */
TEST_F(reg, dlclose_drops)
{
	struct prctl_eh_frame tbl;
	struct ut_object lib2;
	char path[PATH_MAX], *before = registrations(_metadata), *t;
	void *h;

	lib_path(path, sizeof(path), LIB2_NAME);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	ASSERT_NE(NULL, h) TH_LOG("dlopen: %s", dlerror());
	ASSERT_EQ(0, ut_find_object(LIB2_NAME, &lib2));
	ut_desc_of(&lib2, &tbl);
	must_register(_metadata, &tbl);
	ASSERT_EQ(0, dlclose(h));
	ASSERT_NE(0, ut_find_object(LIB2_NAME, &lib2)) TH_LOG("%s still mapped", LIB2_NAME);
	t = tables(_metadata);
	EXPECT_EQ(NULL, ut_find_overlap(t, tbl.text_start, tbl.text_start + tbl.text_size, NULL,
					NULL, NULL))
		TH_LOG("still registered:\n%s", t);
	free(t);
	t = registrations(_metadata);
	EXPECT_STREQ(before, t);
	free(before);
	free(t);
	check_kmsg(_metadata, &self->ctx, "dlclose");
}

/*
 * A child has its parent's registrations, and what the kernel found for
 * the parent; a new program has nothing: exec registers nothing, and
 * nothing sampled it (cat runs for a few milliseconds).
 */
TEST_F(reg, fork_exec)
{
	const struct ut_object *lib = &self->ctx.lib;
	struct prctl_eh_frame desc;
	char *t, out[4096];
	int status, fd[2];
	ssize_t n, len = 0;
	struct ut_line exe;
	pid_t pid;

	kernel_finds(_metadata, &self->ctx.exe, ut_spin_program, "discovered", &exe);
	ut_desc_of(lib, &desc);
	ASSERT_EQ(0, ut_register(&desc));
	t = registrations(_metadata);

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char *c = ut_read_registrations(), *all = ut_read_tables();
		struct ut_line l;

		/* 1: registrations differ; 2: the program's entry is not the parent's */
		if (!c || !all || strcmp(c, t))
			_exit(1);
		_exit(!ut_find_origin(all, "discovered", exe.start, exe.end, &l) ||
		      l.start != exe.start || l.end != exe.end || l.hdr != exe.hdr ? 2 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_NE(1, WEXITSTATUS(status)) TH_LOG("the child's registrations differ from:\n%s",
						 t);
	EXPECT_NE(2, WEXITSTATUS(status))
		TH_LOG("the child has not the program's entry %llx-%llx the parent's kernel found",
		       (unsigned long long)exe.start, (unsigned long long)exe.end);
	EXPECT_EQ(0, WEXITSTATUS(status));

	ASSERT_EQ(0, pipe(fd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		dup2(fd[1], 1);
		execl("/bin/cat", "cat", UNWIND_TABLES_PATH, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while (len < (ssize_t)sizeof(out) - 1 &&
	       (n = read(fd[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	close(fd[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_EQ(NULL, ut_find_line(out, &desc))
		TH_LOG("the registration survived exec:\n%s", out);
	EXPECT_STREQ("", out) TH_LOG("cat, never sampled, lists something");
	ksft_print_msg("after exec of cat: %u lines\n", ut_count_lines(out));
	free(t);
	check_kmsg(_metadata, &self->ctx, "fork_exec");
}

/* Text the child does not get (MADV_DONTFORK) has no registration there. */
TEST_F(reg, dontfork_dropped)
{
	struct ctx *ctx = &self->ctx;
	char *p = map_guarded(_metadata, ctx, 1, PROT_READ | PROT_EXEC);
	struct prctl_eh_frame tbl;
	int status;
	pid_t pid;

	ut_desc_of(&ctx->lib, &tbl);
	tbl.text_start = (uintptr_t)p;
	tbl.text_size = ctx->page;
	must_register(_metadata, &tbl);
	ASSERT_EQ(0, madvise(p, ctx->page, MADV_DONTFORK));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char *t = ut_read_tables();
		uint64_t end = tbl.text_start + ctx->page;

		/* 2: cannot tell; 1: the child inherited it; 0: as it should be */
		_exit(!t ? 2 : !!ut_find_overlap(t, tbl.text_start, end, NULL, NULL, NULL));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("the child has the parent's MADV_DONTFORK text registered");
	EXPECT_EQ(0, ut_unregister(tbl.text_start, tbl.text_start + ctx->page))
		TH_LOG("the parent lost its registration");
	check_kmsg(_metadata, ctx, "dontfork");
}

/*
 * The line of /proc/self/unwind_tables for a table with a header, made by
 * @origin, for text starting at @start: its end and header.
 */
static bool line_at(const char *tables, const char *origin, uint64_t start, uint64_t *end,
		    uint64_t *hdr)
{
	struct ut_line l;

	if (!ut_find_origin(tables, origin, start, start + 1, &l) || l.start != start ||
	    strcmp(l.format, "eh_frame_hdr"))
		return false;
	*end = l.end;
	*hdr = l.hdr;
	return true;
}

/*
 * An object whose text and tables are all in one mapping moves with it:
 * three pages, the text in the first, a copy of the library's header and
 * .eh_frame after it.  Text moved without its tables is dropped.
 */
TEST_F(reg, mremap_moves)
{
	struct ctx *ctx = &self->ctx;
	size_t len = 3 * ctx->page;
	char *p = map_guarded(_metadata, ctx, 3, PROT_READ | PROT_WRITE | PROT_EXEC);
	char *dst = map_guarded(_metadata, ctx, 3, PROT_NONE);
	char *text = map_guarded(_metadata, ctx, 1, PROT_READ | PROT_EXEC);
	struct prctl_eh_frame tbl;
	uint64_t end, hdr;
	char *t;

	ASSERT_LE(ctx->data_size, 2 * ctx->page);
	memcpy(p + ctx->page, (const void *)(uintptr_t)ctx->lib.hdr_start, ctx->data_size);
	ut_desc_of(&ctx->lib, &tbl);
	tbl.text_start = (uintptr_t)p;
	tbl.text_size = ctx->page;
	use_hdr(ctx, &tbl, (unsigned char *)p + ctx->page, ctx->lib.hdr_size);
	must_register(_metadata, &tbl);

	ASSERT_EQ(dst, mremap(p, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, dst));
	t = tables(_metadata);
	EXPECT_FALSE(line_at(t, "prctl", (uintptr_t)p, &end, &hdr)) TH_LOG("left behind:\n%s", t);
	EXPECT_TRUE(line_at(t, "prctl", (uintptr_t)dst, &end, &hdr)) TH_LOG("not moved:\n%s", t);
	EXPECT_EQ((uintptr_t)dst + ctx->page, end);
	EXPECT_EQ((uintptr_t)dst + ctx->page, hdr);
	free(t);
	EXPECT_EQ(0, ut_unregister((uintptr_t)dst, (uintptr_t)dst + ctx->page));

	/* The text alone, its tables in another mapping: dropped. */
	ut_desc_of(&ctx->lib, &tbl);
	tbl.text_start = (uintptr_t)text;
	tbl.text_size = ctx->page;
	must_register(_metadata, &tbl);
	ASSERT_EQ(dst, mremap(text, ctx->page, ctx->page, MREMAP_MAYMOVE | MREMAP_FIXED, dst));
	t = tables(_metadata);
	EXPECT_EQ(NULL, ut_find_overlap(t, (uintptr_t)text, (uintptr_t)text + ctx->page, NULL,
					NULL, NULL));
	EXPECT_EQ(NULL, ut_find_overlap(t, (uintptr_t)dst, (uintptr_t)dst + ctx->page, NULL,
					NULL, NULL));
	free(t);
	check_kmsg(_metadata, ctx, "mremap");
}

/* The vDSO, its data pages before it: [start, end). */
static void find_vdso(struct __test_metadata *_metadata, uint64_t *start, uint64_t *text,
		      uint64_t *end)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];

	ASSERT_NE(NULL, f);
	*start = *text = *end = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e;

		if (sscanf(line, "%llx-%llx", &s, &e) != 2)
			continue;
		if (strstr(line, "[vvar") && !*start)
			*start = s;
		if (strstr(line, "[vdso]")) {
			*text = s;
			*end = e;
		}
	}
	fclose(f);
	ASSERT_NE(0ULL, (unsigned long long)*text) TH_LOG("no [vdso] in /proc/self/maps");
	if (!*start)
		*start = *text;
}

/*
 * CRIU moves the vDSO with mremap(): the entry the kernel found for it (at
 * a sample in it) moves with it.  Discovery is off while it moves, so that
 * no sample can find it anew where it went.  (No glibc call that uses the
 * vDSO runs while it is away.)
 */
TEST_F(reg, mremap_vdso)
{
	uint64_t start, text, end, hdr_end, hdr, hdr2;
	char *dst = map_guarded(_metadata, &self->ctx, 8, PROT_NONE);
	struct ut_object vdso;
	struct ut_line l;
	char *t;

	find_vdso(_metadata, &start, &text, &end);
	ASSERT_LE(end - text, 8 * self->ctx.page);
	ASSERT_EQ(0, ut_find_object("linux-vdso.so.1", &vdso));
	ASSERT_EQ(text, vdso.text_start);
	kernel_finds(_metadata, &vdso, ut_spin_vdso, "vdso", &l);
	hdr = l.hdr;
	discovery_off(_metadata, &self->ctx);

	ASSERT_EQ(dst, mremap((void *)(uintptr_t)text, end - text, end - text,
			      MREMAP_MAYMOVE | MREMAP_FIXED, dst));
	t = tables(_metadata);
	EXPECT_TRUE(line_at(t, "vdso", (uintptr_t)dst, &hdr_end, &hdr2))
		TH_LOG("not moved:\n%s", t);
	EXPECT_EQ(hdr - text, hdr2 - (uintptr_t)dst);
	EXPECT_EQ(NULL, ut_find_overlap(t, text, end, NULL, NULL, NULL))
		TH_LOG("left behind:\n%s", t);
	free(t);
	ASSERT_EQ((void *)(uintptr_t)text, mremap(dst, end - text, end - text,
						  MREMAP_MAYMOVE | MREMAP_FIXED,
						  (void *)(uintptr_t)text));
	t = tables(_metadata);
	EXPECT_TRUE(line_at(t, "vdso", text, &hdr_end, &hdr2)) TH_LOG("not back:\n%s", t);
	EXPECT_EQ(hdr, hdr2);
	free(t);
	discovery_restore(&self->ctx);
	check_kmsg(_metadata, &self->ctx, "mremap_vdso");
}

/*
 * /proc/<pid>/unwind_tables, like maps, is checked when it is opened.  An
 * unprivileged process opens its own, as stdin of a set-user-ID program it
 * execs (a copy on a tmpfs of a private mount namespace): the program,
 * which could read anyone's, must get nothing of its own layout from that
 * file.
 *
 * suid_child() starts that process, a child of this one, with @file as its
 * stdin and @out_fd as its stdout, and execs a set-user-ID root copy of
 * @src named @argv[0] with @argv; with @argv NULL, it copies its stdin to
 * its stdout itself.  Its pid.
 */
static pid_t suid_child(struct __test_metadata *_metadata, const char *dir, const char *src,
			const char *file, char *const argv[], int out_fd)
{
	char copy[PATH_MAX], buf[4096];
	int in, o, fd;
	ssize_t n;
	pid_t pid;

	snprintf(copy, sizeof(copy), "%s/%s", dir, argv ? argv[0] : "unused");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid)
		return pid;
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("tmpfs", dir, "tmpfs", 0, "mode=0755"))
		_exit(10);
	in = open(src, O_RDONLY);
	o = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in < 0 || o < 0)
		_exit(11);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(o, buf, n) != n)
			_exit(12);
	close(in);
	if (fchown(o, 0, 0) || fchmod(o, 04755) || close(o))
		_exit(13);
	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534) ||
	    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		_exit(14);
	fd = open(file, O_RDONLY);
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(out_fd, 1) < 0)
		_exit(15);
	if (argv) {
		execv(copy, argv);
		_exit(16);
	}
	while ((n = read(0, buf, sizeof(buf))) > 0)
		if (write(1, buf, n) != n)
			_exit(17);
	_exit(0);
}

/* What a set-user-ID cat, or the child itself (@do_exec false), reads from @file. */
static void suid_cat(struct __test_metadata *_metadata, const char *file, bool do_exec,
		     char *out, size_t size)
{
	char dir[] = "/tmp/unwind_user_suid_XXXXXX", *argv[] = { "cat", NULL };
	int pipefd[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, pipe(pipefd));
	pid = suid_child(_metadata, dir, "/bin/cat", file, do_exec ? argv : NULL, pipefd[1]);
	close(pipefd[1]);
	while (len < (ssize_t)size - 1 && (n = read(pipefd[0], out + len, size - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	close(pipefd[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	rmdir(dir);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("setting up the set-user-ID cat failed");
}

/*
 * The program's own layout is listed only once the kernel found its tables
 * (exec registers nothing): a set-user-ID copy of workload-nofp spins while
 * this process samples it, and once its /proc/PID/unwind_tables (which root
 * may read) lists what the kernel found, @seen, the file it was given as
 * stdin is read through that stdin (pidfd_getfd()) into @out.
 */
static void suid_sampled(struct __test_metadata *_metadata, char *seen, size_t seen_size,
			 char *out, size_t size)
{
	char dir[] = "/tmp/unwind_user_suid_XXXXXX", prog[PATH_MAX], path[64], comm[32];
	char *argv[] = { "suid_spin", "spin", "10000", NULL }, *t = NULL;
	int pipefd[2], status, perf = -1, pidfd, fd;
	ssize_t n, len = 0;
	pid_t pid;
	FILE *f;

	seen[0] = '\0';
	out[0] = '\0';
	lib_path(prog, sizeof(prog), "workload-nofp");
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, pipe(pipefd));
	pid = suid_child(_metadata, dir, prog, UNWIND_TABLES_PATH, argv, pipefd[1]);
	close(pipefd[1]);
	close(pipefd[0]);

	/* Up to 10 s for the exec and the first samples, in 20 ms steps. */
	for (int i = 0; i < 500 && !t; i++) {
		usleep(20000);
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		f = fopen(path, "r");
		if (!f || !fgets(comm, sizeof(comm), f) || strcmp(comm, "suid_spin\n")) {
			if (f)
				fclose(f);
			continue;
		}
		fclose(f);
		if (perf < 0)
			perf = ut_sample_task(pid, 200000);
		snprintf(path, sizeof(path), "/proc/%d/unwind_tables", pid);
		f = fopen(path, "r");
		len = f ? fread(seen, 1, seen_size - 1, f) : 0;
		seen[len] = '\0';
		if (f)
			fclose(f);
		if (ut_find_origin(seen, "found", 0, ~0ULL, NULL))
			t = seen;
	}
	len = 0;
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	fd = pidfd < 0 ? -1 : syscall(SYS_pidfd_getfd, pidfd, 0, 0);
	while (fd >= 0 && len < (ssize_t)size - 1 && (n = read(fd, out + len, size - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	rmdir(dir);
	if (fd >= 0)
		close(fd);
	if (pidfd >= 0)
		close(pidfd);
	if (perf >= 0)
		close(perf);
	ASSERT_LE(0, perf) TH_LOG("the set-user-ID program never ran (status %#x)", status);
	ASSERT_LE(0, fd) TH_LOG("cannot get the program's stdin: %s", strerror(errno));
}

TEST(proc_checked_at_open)
{
	char out[8192], seen[8192];
	struct prctl_eh_frame d;
	struct ut_object exe;
	long page = sysconf(_SC_PAGESIZE);
	char *text;

	ASSERT_EQ(0U, geteuid()) TH_LOG("needs root, for the set-user-ID copies");

	/* Without the exec, the file shows the process's registrations. */
	ASSERT_EQ(0, ut_find_object("", &exe));
	text = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, text);
	ut_desc_of(&exe, &d);
	d.text_start = (uintptr_t)text;
	d.text_size = page;
	ASSERT_EQ(0, ut_register(&d));
	suid_cat(_metadata, UNWIND_TABLES_PATH, false, out, sizeof(out));
	EXPECT_NE(NULL, ut_find_line(out, &d)) TH_LOG("the registration not read:\n%s", out);

	suid_cat(_metadata, "/proc/self/maps", true, out, sizeof(out));
	EXPECT_STREQ("", out) TH_LOG("maps leaked the set-user-ID program's layout");
	suid_sampled(_metadata, seen, sizeof(seen), out, sizeof(out));
	EXPECT_NE(NULL, ut_find_origin(seen, "found", 0, ~0ULL, NULL))
		TH_LOG("the kernel found nothing for the set-user-ID program:\n%s", seen);
	EXPECT_STREQ("", out) TH_LOG("unwind_tables leaked the set-user-ID program's layout");
}

/* An x32 task is refused, with EOPNOTSUPP (x32_register.c says which errno). */
TEST(x32_refused)
{
	char exe[PATH_MAX] = "", path[PATH_MAX];
	int status;
	pid_t pid;

	ASSERT_LT(0, readlink("/proc/self/exe", exe, sizeof(exe) - 1));
	snprintf(path, sizeof(path), "%s/x32_register", dirname(exe));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("x32_register: status %#x", status);
	ASSERT_NE(127, WEXITSTATUS(status)) TH_LOG("cannot run %s (no x32 ABI?)", path);
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("errno %d, not EOPNOTSUPP (1: accepted)",
						 WEXITSTATUS(status));
}

/*
 * kernel.unwind_tables_max caps the entries of an mm, counting those the
 * kernel found.  The old value (and kernel.unwind_tables_discover's, which
 * some tests turn off) is restored from the parent, whatever happened in
 * the test.
 */
FIXTURE(cap) {
	struct ctx ctx;
	long old_max;
};

FIXTURE_SETUP(cap)
{
	self->old_max = ut_read_max();
	ASSERT_LT(0, self->old_max) TH_LOG("cannot read %s", UNWIND_TABLES_MAX_PATH);
	ctx_setup(_metadata, &self->ctx);
}

FIXTURE_TEARDOWN_PARENT(cap)
{
	if (self->old_max > 0 && ut_write_max(self->old_max))
		TH_LOG("cannot restore %s to %ld", UNWIND_TABLES_MAX_PATH, self->old_max);
	discovery_restore(&self->ctx);
}

/* Entries: what the kernel found (not its markers), and the registrations. */
static unsigned int count_entries(struct __test_metadata *_metadata)
{
	char *t = tables(_metadata);
	unsigned int n = ut_count_entries(t);

	free(t);
	return n;
}

/*
 * The program's table, found at a sample of this process, is one of the
 * entries the cap counts; discovery is then off, so that nothing else is
 * found while the test counts.  Set the cap to what the process holds + 2:
 * two more registrations fit, the third fails with ENOSPC and changes
 * nothing; a registration over what the kernel found needs no room (it
 * takes that entry's place); one fits again after an unregistration.
 */
TEST_F(cap, enospc)
{
	struct ctx *ctx = &self->ctx;
	char *p = map_guarded(_metadata, ctx, 3, PROT_READ | PROT_EXEC);
	struct prctl_eh_frame tbl[3], exe;
	char *before, *t, *t2;
	unsigned int count;
	struct ut_line l;
	int ret;

	kernel_finds(_metadata, &ctx->exe, ut_spin_program, "discovered", &l);
	discovery_off(_metadata, ctx);
	before = registrations(_metadata);
	count = count_entries(_metadata);
	ASSERT_LE(1U, count);
	for (int i = 0; i < 3; i++) {
		ut_desc_of(&ctx->lib, &tbl[i]);
		tbl[i].text_start = (uintptr_t)p + i * ctx->page;
		tbl[i].text_size = ctx->page;
	}
	ASSERT_EQ(0, ut_write_max((long)count + 2))
		TH_LOG("cannot write %s", UNWIND_TABLES_MAX_PATH);
	ASSERT_EQ((long)count + 2, ut_read_max());

	must_register(_metadata, &tbl[0]);
	must_register(_metadata, &tbl[1]);
	t = ut_read_entries();
	ASSERT_NE(NULL, t);
	ret = ut_prctl(PR_REGISTER_EH_FRAME, &tbl[2], sizeof(tbl[2]), 0, 0);
	ksft_print_msg("case cap_reached: errno %s\n", errno_name(-ret));
	EXPECT_EQ(-ENOSPC, ret);
	t2 = ut_read_entries();
	ASSERT_NE(NULL, t2);
	EXPECT_STREQ(t, t2);
	EXPECT_EQ(count + 2, ut_count_entries(t2));
	free(t);
	free(t2);

	/* Over the program's entry, at the cap: it takes that entry's place. */
	ut_desc_of(&ctx->exe, &exe);
	must_register(_metadata, &exe);
	EXPECT_EQ(count + 2, count_entries(_metadata));

	/* Room again after an unregistration. */
	EXPECT_EQ(0, ut_unregister(tbl[0].text_start, tbl[0].text_start + ctx->page));
	must_register(_metadata, &tbl[2]);
	EXPECT_EQ(0, ut_unregister(tbl[1].text_start, tbl[1].text_start + ctx->page));
	EXPECT_EQ(0, ut_unregister(tbl[2].text_start, tbl[2].text_start + ctx->page));
	EXPECT_EQ(0, ut_unregister(ctx->exe.text_start, ctx->exe.text_end));
	t = registrations(_metadata);
	EXPECT_STREQ(before, t);
	free(t);
	free(before);
	discovery_restore(ctx);
	check_kmsg(_metadata, ctx, "cap");
}

/*
 * A registration the cap refuses changes nothing, not even what the kernel
 * found over its text: with the cap lowered below what the process holds
 * (which removes nothing), one over the program's entry fails with ENOSPC,
 * and the entry stays.  (Discovery is off, as above.)
 */
TEST_F(cap, enospc_keeps_found)
{
	struct ctx *ctx = &self->ctx;
	struct prctl_eh_frame exe;
	unsigned int count;
	struct ut_line l;
	char *t, *t2;
	int ret;

	kernel_finds(_metadata, &ctx->exe, ut_spin_program, "discovered", &l);
	discovery_off(_metadata, ctx);
	count = count_entries(_metadata);
	ASSERT_LE(1U, count);
	ASSERT_EQ(0, ut_write_max((long)count - 1));
	t = ut_read_entries();
	ASSERT_NE(NULL, t);
	ut_desc_of(&ctx->exe, &exe);
	ret = ut_register(&exe);
	ksft_print_msg("case cap_below: errno %s\n", errno_name(-ret));
	EXPECT_EQ(-ENOSPC, ret);
	t2 = ut_read_entries();
	ASSERT_NE(NULL, t2);
	EXPECT_STREQ(t, t2) TH_LOG("the refused registration removed what the kernel found");
	free(t);
	free(t2);
	discovery_restore(ctx);
	check_kmsg(_metadata, ctx, "cap_below");
}

static long slab_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/*
 * Slab once it stops shrinking: what is freed after an RCU grace period
 * takes longer on a debug kernel (KASAN, lockdep, kmemleak) under TCG.
 * At most 8 s, in 250 ms steps, until two readings are within 64 kB.
 */
static long slab_kb_settled(void)
{
	long prev = slab_kb(), kb = prev;

	for (int i = 0; i < 32; i++) {
		usleep(250000);
		kb = slab_kb();
		if (prev - kb < 64)
			break;
		prev = kb;
	}
	return kb;
}

/*
 * A process's registrations are freed when its address space goes, not when
 * the last reference to its mm_struct does: an open /proc/<pid>/maps holds
 * one of those, long after the process exited.  A child registers many
 * ranges and is killed while this process holds its maps open; the slab
 * memory must come back at exit, before the file is closed.
 *
 * The child registers for 5 s at most, and the figures scale with what it
 * did: a TCG guest does the 20000 in about a second, a debug kernel
 * (KASAN, lockdep, kmemleak) there a tenth of that or less.  With the
 * waits for Slab to settle (up to 18.5 s), the test takes up to 30 s:
 * hence 90 s, not the harness' default of 30.
 */
TEST_F_TIMEOUT(cap, exit_frees_with_mm_pinned, 90)
{
	const long n = 20000, min = 2000;
	long page = self->ctx.page, before, held, exited, closed, done;
	char path[64];
	int pipefd[2], fd, status;
	pid_t pid;

	ASSERT_EQ(0, ut_write_max(n + 100));
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char *text = mmap(NULL, n * page, PROT_READ | PROT_EXEC,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct prctl_eh_frame d;
		struct timespec t0, t;
		long i = 0;

		if (text == MAP_FAILED)
			_exit(1);
		ut_desc_of(&self->ctx.lib, &d);
		d.text_size = page;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			d.text_start = (uintptr_t)text + i * page;
			if (ut_register(&d))
				_exit(2);
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while (++i < n && t.tv_sec - t0.tv_sec < 5);
		if (write(pipefd[1], &i, sizeof(i)) != sizeof(i))
			_exit(3);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	before = slab_kb();
	ASSERT_EQ((ssize_t)sizeof(done), read(pipefd[0], &done, sizeof(done)))
		TH_LOG("the child could not register");
	ASSERT_LE(min, done) TH_LOG("%ld registrations in 5 s: too few to measure", done);
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd);
	usleep(500000);
	held = slab_kb();
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	/* Entries and tree nodes are freed after an RCU grace period. */
	usleep(1000000);
	exited = slab_kb_settled();
	close(fd);
	usleep(1000000);
	closed = slab_kb_settled();
	ksft_print_msg("Slab: %ld kB before, %ld with %ld registrations, %ld after exit, %s %ld\n",
		       before, held, done, exited, "after close", closed);
	ASSERT_LT(before + done * 100 / 1024, held) TH_LOG("the registrations used no memory?");
	/* At most a fifth of it left when the process is gone. */
	EXPECT_LT(exited - closed, (held - closed) / 5)
		TH_LOG("the registrations outlived the process until the file was closed");
}

/*
 * The vDSO, mapped again by arch_prctl(ARCH_MAP_VDSO_64) after munmap(),
 * has no entry until a walk needs it (mapping it registers nothing), and
 * is then found under the same cap as everything else: with no room, walks
 * in it leave a marker (no entry: the cap lasts as long as the process's
 * tables, and a marker keeps every sample from probing again); mapped
 * again, with room, it is found again.  (No glibc call that uses the vDSO
 * runs while it is unmapped.)
 */
TEST_F(cap, vdso)
{
	uint64_t start, text, end;
	struct ut_object vdso;
	struct ut_line l, l2;
	unsigned int count;
	char *t;
	int ret;

	find_vdso(_metadata, &start, &text, &end);
	ASSERT_EQ(0, ut_find_object("linux-vdso.so.1", &vdso));
	ASSERT_EQ(text, vdso.text_start);
	kernel_finds(_metadata, &vdso, ut_spin_vdso, "vdso", &l);
	count = count_entries(_metadata);

	ASSERT_EQ(0, munmap((void *)(uintptr_t)start, end - start));
	t = tables(_metadata);
	EXPECT_EQ(NULL, ut_find_overlap(t, text, end, NULL, NULL, NULL))
		TH_LOG("the vDSO's entry outlived its munmap():\n%s", t);
	EXPECT_EQ(count - 1, ut_count_entries(t));
	free(t);
	/* It returns the size of the vDSO. */
	ASSERT_LT(0, syscall(SYS_arch_prctl, ARCH_MAP_VDSO_64, start));
	t = tables(_metadata);
	EXPECT_EQ(NULL, ut_find_overlap(t, text, end, NULL, NULL, NULL))
		TH_LOG("mapping the vDSO registered it:\n%s", t);
	free(t);

	/* No room: what the process holds, and a marker. */
	ASSERT_EQ(0, ut_write_max((long)count - 1));
	ret = ut_discover(text, end, ut_spin_vdso, NULL, 5000, &l2);
	t = tables(_metadata);
	EXPECT_EQ(0, ret) TH_LOG("no marker beyond kernel.unwind_tables_max = %u:\n%s",
				 count - 1, t);
	EXPECT_STREQ("none", l2.format) TH_LOG("found beyond kernel.unwind_tables_max:\n%s", t);
	EXPECT_EQ(count - 1, ut_count_entries(t));
	free(t);

	ASSERT_EQ(0, munmap((void *)(uintptr_t)start, end - start));
	ASSERT_LT(0, syscall(SYS_arch_prctl, ARCH_MAP_VDSO_64, start));
	ASSERT_EQ(0, ut_write_max((long)count));
	ret = ut_discover(text, end, ut_spin_vdso, NULL, 5000, &l2);
	t = tables(_metadata);
	ASSERT_EQ(0, ret) TH_LOG("not found again with room:\n%s", t);
	EXPECT_STREQ("vdso", l2.origin);
	EXPECT_EQ(l.start, l2.start);
	EXPECT_EQ(l.end, l2.end);
	EXPECT_EQ(l.hdr, l2.hdr);
	EXPECT_EQ(count, ut_count_entries(t));
	free(t);
	check_kmsg(_metadata, &self->ctx, "vdso");
}

TEST_HARNESS_MAIN
