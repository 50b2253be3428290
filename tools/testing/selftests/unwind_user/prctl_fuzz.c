// SPDX-License-Identifier: GPL-2.0
/*
 * Random PR_REGISTER_EH_FRAME / PR_UNREGISTER_EH_FRAME calls: sizes,
 * formats, flags and ranges drawn from values that matter (a real object's
 * text and tables, parts of them, unmapped, unreadable and non-executable
 * memory, the ends of the address space, kernel addresses), for a fixed
 * number of calls (UNWIND_USER_FUZZ_CALLS, default 20000) from a seed
 * (UNWIND_USER_FUZZ_SEED, default the time) that is printed.  Every call
 * must return 0 or one of the documented errnos, and a call that fails must
 * leave the registrations /proc/self/unwind_tables lists as they were
 * (checked on a sample of them; what the kernel finds at a sample of the
 * process is no registration, and may come at any time); at the end, with
 * what succeeded unregistered, the registrations are as they began, and
 * the kernel logged no warning, BUG or oops.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "unwind_table.h"
#include "../kselftest_harness.h"

static uint64_t rng;

static uint64_t next(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static uint64_t pick(const uint64_t *v, unsigned int n)
{
	return v[next() % n];
}

static bool documented(int err)
{
	switch (err) {
	case 0: case EINVAL: case E2BIG: case EFAULT: case ENOMEM: case EACCES:
	case ENOEXEC: case EOPNOTSUPP: case EEXIST: case ENOSPC: case ENOENT:
		return true;
	}
	return false;
}

FIXTURE(fuzz) {
};

FIXTURE_SETUP(fuzz)
{
}

FIXTURE_TEARDOWN(fuzz)
{
}

/* Past the harness's 30 s: make check-debug runs five times the calls. */
TEST_F_TIMEOUT(fuzz, prctl, 900)
{
	const char *calls_env = getenv("UNWIND_USER_FUZZ_CALLS");
	const char *seed_env = getenv("UNWIND_USER_FUZZ_SEED");
	unsigned long calls = calls_env && *calls_env ? strtoul(calls_env, NULL, 0) : 20000;
	unsigned long counts[512] = { 0 }, done = 0;
	uint64_t page = sysconf(_SC_PAGESIZE);
	char path[PATH_MAX], exe[PATH_MAX], msg[512];
	unsigned char big[2 * 4096 + 64];
	char *before, *t, *u;
	struct ut_object lib;
	uint64_t vals[40];
	unsigned int nv = 0;
	char *rx, *ro, *none;
	void *h;
	int kmsg;

	rng = seed_env && *seed_env ? strtoull(seed_env, NULL, 0) : (uint64_t)time(NULL);
	ksft_print_msg("seed %llu, %lu calls\n", (unsigned long long)rng, calls);
	rng = rng ? rng : 1;

	memset(exe, 0, sizeof(exe));
	ASSERT_LT(0, readlink("/proc/self/exe", exe, sizeof(exe) - 1));
	snprintf(path, sizeof(path), "%s/libunwind_cb.so", dirname(exe));
	/* Lazily: the library's call back to cb_spin() is never made here. */
	h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
	ASSERT_NE(NULL, h) TH_LOG("dlopen: %s", dlerror());
	ASSERT_EQ(0, ut_find_object("libunwind_cb.so", &lib));
	rx = mmap(NULL, 4 * page, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro = mmap(NULL, 4 * page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	none = mmap(NULL, 4 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(rx != MAP_FAILED && ro != MAP_FAILED && none != MAP_FAILED);
	ASSERT_EQ(0, munmap(none + 2 * page, page));
	kmsg = ut_kmsg_open();
	ASSERT_LE(0, kmsg);

	/* Addresses and sizes that mean something to the kernel's checks. */
	vals[nv++] = 0;
	vals[nv++] = 1;
	vals[nv++] = page;
	vals[nv++] = lib.text_start;
	vals[nv++] = lib.text_end;
	vals[nv++] = lib.text_end - lib.text_start;
	vals[nv++] = lib.hdr_start;
	vals[nv++] = lib.hdr_size;
	vals[nv++] = lib.hdr_size - 1;
	vals[nv++] = lib.eh_frame_start;
	vals[nv++] = lib.eh_frame_size;
	vals[nv++] = lib.hdr_start + 4;
	vals[nv++] = (uintptr_t)rx;
	vals[nv++] = (uintptr_t)rx + page;
	vals[nv++] = (uintptr_t)ro;
	vals[nv++] = (uintptr_t)none;
	vals[nv++] = (uintptr_t)none + 2 * page;
	vals[nv++] = 2 * page;
	vals[nv++] = 4 * page;
	vals[nv++] = 0x7fffffffe000ULL;
	vals[nv++] = 0x7ffffffff000ULL;
	vals[nv++] = 0x800000000000ULL;
	vals[nv++] = 0xffff888000000000ULL;
	vals[nv++] = 0xffffffff81000000ULL;
	vals[nv++] = ~0ULL;
	vals[nv++] = ~0ULL - 15;
	vals[nv++] = 1ULL << 63;

	before = ut_read_registrations();
	ASSERT_NE(NULL, before);
	for (unsigned long i = 0; i < calls; i++) {
		struct prctl_eh_frame d = {
			.format = next() % 4 ? PR_EH_FRAME_FORMAT_EH_FRAME_HDR : next() % 8,
			.flags = next() % 16 ? 0 : 1U << (next() % 32),
			.text_start = pick(vals, nv) + (next() % 8 ? 0 : next() % 64),
			.text_size = pick(vals, nv),
			.eh_frame_start = pick(vals, nv),
			.eh_frame_size = pick(vals, nv),
			.eh_frame_hdr_start = pick(vals, nv),
			.eh_frame_hdr_size = pick(vals, nv),
		};
		int option = next() % 3 ? PR_REGISTER_EH_FRAME : PR_UNREGISTER_EH_FRAME;
		unsigned long size = sizeof(d), a4 = 0, a5 = 0;
		const void *arg = &d;
		bool check = next() % 64 == 0;
		int ret;

		/* Mostly the real object, sometimes with a field changed. */
		if (next() % 2) {
			__u64 *fields[] = {
				&d.text_start, &d.text_size, &d.eh_frame_start,
				&d.eh_frame_size, &d.eh_frame_hdr_start, &d.eh_frame_hdr_size,
			};

			ut_desc_of(&lib, &d);
			if (next() % 2)
				d.text_start = (uintptr_t)rx + (next() % 4) * page;
			*fields[next() % 6] = pick(vals, nv);
		}
		if (option == PR_UNREGISTER_EH_FRAME && next() % 2) {
			d.eh_frame_start = 0;
			d.eh_frame_size = 0;
			d.eh_frame_hdr_start = 0;
			d.eh_frame_hdr_size = 0;
		}
		switch (next() % 16) {
		case 0:
			size = next() % (sizeof(big) - 8);
			memset(big, next() % 4 ? 0 : 0xff, sizeof(big));
			memcpy(big, &d, size < sizeof(d) ? size : sizeof(d));
			arg = big;
			break;
		case 1:
			arg = (const void *)(uintptr_t)pick(vals, nv);
			break;
		case 2:
			a4 = next() % 2;
			a5 = !a4;
			break;
		}

		t = check ? ut_read_registrations() : NULL;
		ret = ut_prctl(option, arg, size, a4, a5);
		counts[-ret & 511]++;
		EXPECT_TRUE(documented(-ret)) TH_LOG("call %lu: errno %d", i, -ret);
		if (t) {
			u = ut_read_registrations();
			if (ret)
				EXPECT_STREQ(t, u) TH_LOG("call %lu failed (%d), changed things",
							  i, ret);
			free(u);
			free(t);
		}
		done++;
	}

	/* Undo what succeeded: every registration that was not there before. */
	t = ut_read_registrations();
	ASSERT_NE(NULL, t);
	for (char *l = t; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		size_t len = strcspn(l, "\n");
		struct ut_line reg;
		uint32_t format;
		char line[256];

		snprintf(line, sizeof(line), "%.*s\n", (int)len, l);
		if (strstr(before, line) || ut_parse_line(l, &reg))
			continue;
		format = !strcmp(reg.format, "eh_frame") ? PR_EH_FRAME_FORMAT_EH_FRAME :
			 !strcmp(reg.format, "pe") ? PR_EH_FRAME_FORMAT_PE :
			 PR_EH_FRAME_FORMAT_EH_FRAME_HDR;
		EXPECT_EQ(0, ut_unregister_format(format, reg.start, reg.end)) TH_LOG("%s", line);
	}
	free(t);
	t = ut_read_registrations();
	EXPECT_STREQ(before, t);
	ksft_print_msg("%lu calls: 0 %lu, EINVAL %lu, E2BIG %lu, EFAULT %lu, ENOMEM %lu,\n",
		       done, counts[0], counts[EINVAL], counts[E2BIG], counts[EFAULT],
		       counts[ENOMEM]);
	ksft_print_msg("  EACCES %lu, ENOEXEC %lu, EOPNOTSUPP %lu, EEXIST %lu, %s %lu, %s %lu\n",
		       counts[EACCES], counts[ENOEXEC], counts[EOPNOTSUPP], counts[EEXIST],
		       "ENOSPC", counts[ENOSPC], "ENOENT", counts[ENOENT]);
	EXPECT_FALSE(ut_kmsg_splat(kmsg, msg, sizeof(msg))) TH_LOG("the kernel logged: %s", msg);
	free(t);
	free(before);
	close(kmsg);
}

TEST_HARNESS_MAIN
