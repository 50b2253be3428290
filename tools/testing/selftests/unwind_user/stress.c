// SPDX-License-Identifier: GPL-2.0
/*
 * stress_workload's threads change their process's unwind table
 * registrations in every way there is (register, unregister, munmap,
 * mremap, MAP_FIXED, dlopen/dlclose, lookups that drop a corrupt table,
 * fork, exec) while cpu-clock samples every thread with deferred
 * callchains, so that lookups race all of them.  The workload checks that
 * its registrations end as they began; this checks that it ran, that
 * samples were unwound, and that the kernel logged no warning, BUG or
 * oops.  UNWIND_USER_STRESS_SECONDS (default 10) is how long it runs;
 * make check-debug runs it longer, under KASAN, lockdep and kmemleak.
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf_chain.h"
#include "unwind_table.h"
#include "../kselftest_harness.h"

static void prog_path(char *buf, size_t size, const char *name)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	snprintf(buf, size, "%s/%s", dirname(exe), name);
}

FIXTURE(stress) {
};

FIXTURE_SETUP(stress)
{
}

FIXTURE_TEARDOWN(stress)
{
}

/* Past the harness's 30 s: make check-debug runs it for a minute. */
TEST_F_TIMEOUT(stress, run, 900)
{
	const char *env = getenv("UNWIND_USER_STRESS_SECONDS");
	char prog[PATH_MAX], lib1[PATH_MAX], lib2[PATH_MAX], secs[16], msg[512];
	char *argv[] = { prog, secs, lib1, lib2, NULL };
	struct perf_event_attr attr;
	struct chain_capture cap;
	unsigned int deep = 0;
	int kmsg, ret;

	snprintf(secs, sizeof(secs), "%s", env && *env ? env : "10");
	prog_path(prog, sizeof(prog), "stress_workload");
	prog_path(lib1, sizeof(lib1), "libunwind_cb.so");
	prog_path(lib2, sizeof(lib2), "libunwind_cb2.so");
	kmsg = ut_kmsg_open();
	ASSERT_LE(0, kmsg);

	chain_attr_cpu_clock(&attr, 100000);
	ret = chain_run(&cap, &attr, argv, true);
	ASSERT_EQ(0, ret) TH_LOG("cannot profile %s: %s", prog, strerror(-ret));
	EXPECT_TRUE(WIFEXITED(cap.exit_status) && !WEXITSTATUS(cap.exit_status))
		TH_LOG("%s exited with status %#x", prog, cap.exit_status);
	for (unsigned int i = 0; i < cap.nr_samples; i++)
		deep += cap.samples[i].resolved && cap.samples[i].nr >= 8;
	ksft_print_msg("%u samples, %u deferred chains, %u of 8 frames or more, %llu lost\n",
		       cap.nr_samples, cap.nr_deferred, deep, (unsigned long long)cap.lost);
	EXPECT_LT(100U, cap.nr_samples);
	EXPECT_LT(0U, deep);
	EXPECT_FALSE(ut_kmsg_splat(kmsg, msg, sizeof(msg))) TH_LOG("the kernel logged: %s", msg);
	close(kmsg);
	chain_free(&cap);
}

TEST_HARNESS_MAIN
