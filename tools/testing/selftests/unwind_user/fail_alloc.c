// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures on every path that changes the registrations, with
 * the kernel's fault injection (failslab, fail_page_alloc; a debug kernel:
 * make check-debug runs this, make check does not).  For each path and
 * each point in it where an allocation can fail (failslab's "space" moves
 * the failure one allocation further each time), the call must succeed or
 * fail with its documented errno, and leave /proc/self/unwind_tables
 * consistent: a failed registration adds nothing, a removal always
 * removes.  Leaks are kmemleak's to find, after the run.  Only the
 * registrations are compared: what the kernel finds when something samples
 * the process is none, and may come at any time.
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
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unwind_table.h"
#include "../kselftest_harness.h"

#define FI_DIR		"/sys/kernel/debug/"

static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = -1;

	if (fd >= 0) {
		n = write(fd, val, strlen(val));
		close(fd);
	}
	if (n != (ssize_t)strlen(val)) {
		fprintf(stderr, "# %s <- %s: %s\n", path, val, strerror(errno));
		return -1;
	}
	return 0;
}

static int fi_set(const char *fi, const char *attr, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), FI_DIR "%s/%s", fi, attr);
	return write_str(path, val);
}

/*
 * This thread's /proc/thread-self/make-it-fail, opened before anything is
 * armed: switching injection off again must not need an allocation, which
 * could be the one that fails.
 */
static int make_it_fail = -1;

/* Fail this thread's first allocation after @space bytes, once. */
static int fi_arm(const char *fi, unsigned long space)
{
	char buf[32];

	if (make_it_fail < 0)
		make_it_fail = open("/proc/thread-self/make-it-fail", O_WRONLY | O_CLOEXEC);
	snprintf(buf, sizeof(buf), "%lu", space);
	if (make_it_fail < 0 ||
	    fi_set(fi, "probability", "100") || fi_set(fi, "interval", "1") ||
	    fi_set(fi, "times", "1") || fi_set(fi, "space", buf) ||
	    fi_set(fi, "task-filter", "Y") || fi_set(fi, "ignore-gfp-wait", "N") ||
	    fi_set(fi, "verbose", "0"))
		return -1;
	return pwrite(make_it_fail, "1", 1, 0) == 1 ? 0 : -1;
}

/*
 * Switch injection off; true if it failed an allocation since fi_arm():
 * the one failure it was allowed counts "times" down to 0.
 */
static bool fi_disarm(const char *fi)
{
	char path[128], buf[32] = "";
	ssize_t n = -1;
	int fd;

	if (make_it_fail >= 0 && pwrite(make_it_fail, "0", 1, 0) != 1)
		perror("make-it-fail");
	snprintf(path, sizeof(path), FI_DIR "%s/times", fi);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	fi_set(fi, "times", "0");
	return n > 0 && atoi(buf) == 0;
}

/*
 * The registry's own allocations (entries, maple tree nodes) are slab
 * objects: failslab fails them at every point of every path.  A page
 * allocation fails under them only when a slab happens to grow, which a
 * test cannot make happen, so registering and removing run under failslab
 * alone; fork() allocates the child's page tables from pages, and runs
 * under both.
 */
struct fail_state {
	struct ut_object lib;
	long page;
	char *before;
	unsigned int ok, failed, injected;
	const char *fi;		/* failslab or fail_page_alloc */
};

static void fi_state_setup(struct __test_metadata *_metadata, struct fail_state *s,
			   const char *fi)
{
	char exe[PATH_MAX] = "", path[PATH_MAX];

	s->fi = fi;
	ASSERT_EQ(0, access(FI_DIR "failslab", F_OK))
		TH_LOG("no %sfailslab: a kernel without fault injection", FI_DIR);
	ASSERT_LT(0, readlink("/proc/self/exe", exe, sizeof(exe) - 1));
	snprintf(path, sizeof(path), "%s/libunwind_cb.so", dirname(exe));
	/* Lazily: the library's call back to cb_spin() is never made here. */
	ASSERT_NE(NULL, dlopen(path, RTLD_LAZY | RTLD_LOCAL));
	ASSERT_EQ(0, ut_find_object("libunwind_cb.so", &s->lib));
	s->page = sysconf(_SC_PAGESIZE);
	s->before = ut_read_registrations();
	ASSERT_NE(NULL, s->before);
	if (!strcmp(fi, "fail_page_alloc"))
		fi_set(fi, "min-order", "0");
}

static void fi_state_teardown(struct fail_state *s)
{
	fi_disarm(s->fi);
	free(s->before);
}

/*
 * Each test makes a few hundred system calls that each may fail an
 * allocation: more than the default 30 s under KASAN in an arm64 guest.
 */
#define FAIL_TIMEOUT	300

FIXTURE(fail) {
	struct fail_state s;
};

FIXTURE_SETUP(fail)
{
	fi_state_setup(_metadata, &self->s, "failslab");
}

FIXTURE_TEARDOWN(fail)
{
	fi_state_teardown(&self->s);
}

FIXTURE(fail_page) {
	struct fail_state s;
};

FIXTURE_SETUP(fail_page)
{
	fi_state_setup(_metadata, &self->s, "fail_page_alloc");
}

FIXTURE_TEARDOWN(fail_page)
{
	fi_state_teardown(&self->s);
}

/* Anonymous text registered with the library's table. */
static char *registered(const struct ut_object *lib, long page, size_t pages)
{
	char *p = mmap(NULL, pages * page, PROT_READ | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct prctl_eh_frame d;

	if (p == MAP_FAILED)
		return NULL;
	ut_desc_of(lib, &d);
	d.text_start = (uintptr_t)p;
	d.text_size = pages * page;
	if (ut_register(&d)) {
		munmap(p, pages * page);
		return NULL;
	}
	return p;
}

static bool listed(uint64_t start, uint64_t end)
{
	char *t = ut_read_tables();
	bool found = t && ut_find_overlap(t, start, end, NULL, NULL, NULL);

	free(t);
	return found;
}

static void must_be_back(struct __test_metadata *_metadata, const char *before,
			 const char *what, unsigned long space)
{
	char *t = ut_read_registrations();

	ASSERT_NE(NULL, t);
	EXPECT_STREQ(before, t) TH_LOG("%s, failure after %lu bytes", what, space);
	free(t);
}

TEST_F_TIMEOUT(fail, register, FAIL_TIMEOUT)
{
	struct fail_state *f = &self->s;

	for (unsigned long space = 0; space <= 8192; space += 64) {
		char *p = mmap(NULL, f->page, PROT_READ | PROT_EXEC,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct prctl_eh_frame d;
		int ret;

		ASSERT_NE(MAP_FAILED, p);
		ut_desc_of(&f->lib, &d);
		d.text_start = (uintptr_t)p;
		d.text_size = f->page;
		ASSERT_EQ(0, fi_arm(f->fi, space));
		ret = ut_register(&d);
		fi_disarm(f->fi);
		EXPECT_TRUE(ret == 0 || ret == -ENOMEM) TH_LOG("errno %d", -ret);
		EXPECT_EQ(!ret, listed(d.text_start, d.text_start + f->page));
		if (!ret) {
			f->ok++;
			EXPECT_EQ(0, ut_unregister(d.text_start, d.text_start + f->page));
		} else {
			f->failed++;
		}
		munmap(p, f->page);
		must_be_back(_metadata, f->before, "register", space);
	}
	ksft_print_msg("%s: %u registrations failed, %u succeeded\n", f->fi,
		       f->failed, f->ok);
	EXPECT_LT(0U, f->failed);
}

/* Unregistering, munmap() and mremap() never fail to remove the entry. */
TEST_F_TIMEOUT(fail, remove, FAIL_TIMEOUT)
{
	struct fail_state *f = &self->s;
	static const char * const hows[] = { "unregister", "munmap of half", "mremap" };
	unsigned int injected[3] = { 0 };

	for (unsigned long space = 0; space <= 4096; space += 64) {
		for (int how = 0; how < 3; how++) {
			char *p = registered(&f->lib, f->page, 2), *q, *t = NULL;
			bool hit;
			int err;

			ASSERT_NE(NULL, p);
			/*
			 * Where mremap() moves it: a move of the same size
			 * with no target would leave it where it is.
			 */
			if (how == 2) {
				t = mmap(NULL, 2 * f->page, PROT_NONE,
					 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
				ASSERT_NE(MAP_FAILED, t);
			}
			ASSERT_EQ(0, fi_arm(f->fi, space));
			switch (how) {
			case 0:
				EXPECT_EQ(0, ut_unregister((uintptr_t)p,
							   (uintptr_t)p + 2 * f->page));
				hit = fi_disarm(f->fi);
				munmap(p, 2 * f->page);
				break;
			case 1:
				/* Half of it: a split that may need memory. */
				munmap(p + f->page, f->page);
				hit = fi_disarm(f->fi);
				munmap(p, 2 * f->page);
				break;
			default:
				q = mremap(p, 2 * f->page, 2 * f->page,
					   MREMAP_MAYMOVE | MREMAP_FIXED, t);
				err = errno;
				hit = fi_disarm(f->fi);
				if (q == MAP_FAILED) {
					EXPECT_EQ(ENOMEM, err);
					munmap(p, 2 * f->page);
					munmap(t, 2 * f->page);
				} else {
					EXPECT_EQ(t, q);
					munmap(q, 2 * f->page);
					/*
					 * A move whose unmap of the source ran
					 * out of memory leaves the source mapped
					 * too, its entry with it (mremap.c's
					 * unmap_source_vma()).
					 */
					munmap(p, 2 * f->page);
				}
				break;
			}
			injected[how] += hit;
			EXPECT_FALSE(listed((uintptr_t)p, (uintptr_t)p + 2 * f->page))
				TH_LOG("%s, failure after %lu bytes%s", hows[how], space,
				       hit ? ", an allocation failed" : "");
			must_be_back(_metadata, f->before, "remove", space);
		}
	}
	for (int how = 0; how < 3; how++) {
		ksft_print_msg("%s: %s: %u of 65 calls had an allocation failed\n",
			       f->fi, hows[how], injected[how]);
		/*
		 * A VMA split or move allocates from the slab, so failslab
		 * must have hit those; an unregistration may need no memory.
		 */
		if (how)
			EXPECT_LT(0U, injected[how]) TH_LOG("%s: nothing failed", hows[how]);
	}
}

/* fork() with the child's copy of the registry failing part way. */
static void fork_case(struct __test_metadata *_metadata, struct fail_state *f)
{
	char *p = registered(&f->lib, f->page, 1);
	int go[2];

	ASSERT_NE(NULL, p);
	for (unsigned long space = 0; space <= 65536; space += 1024) {
		int status, err;
		char c = 0;
		pid_t pid;

		ASSERT_EQ(0, pipe2(go, O_CLOEXEC));
		ASSERT_EQ(0, fi_arm(f->fi, space));
		pid = fork();
		err = errno;
		if (!pid) {
			/*
			 * Armed still (make-it-fail is inherited): wait until
			 * the parent has read and reset the injection, which
			 * a read of a pipe does not allocate for.
			 */
			if (read(go[0], &c, 1) != 1)
				_exit(2);
			_exit(listed((uintptr_t)p, (uintptr_t)p + f->page) ? 0 : 1);
		}
		f->injected += fi_disarm(f->fi);
		ASSERT_EQ(1, write(go[1], &c, 1));
		close(go[0]);
		close(go[1]);
		if (pid < 0) {
			f->failed++;
			EXPECT_EQ(ENOMEM, err);
			continue;
		}
		f->ok++;
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
	ksft_print_msg("%s: %u forks failed, %u succeeded, %u had an allocation failed\n",
		       f->fi, f->failed, f->ok, f->injected);
	/* fork() copies the mm from the slab and its page tables from pages. */
	EXPECT_LT(0U, f->injected);
	EXPECT_EQ(0, ut_unregister((uintptr_t)p, (uintptr_t)p + f->page));
	munmap(p, f->page);
	must_be_back(_metadata, f->before, "fork", 0);
}

TEST_F_TIMEOUT(fail, fork, FAIL_TIMEOUT)
{
	fork_case(_metadata, &self->s);
}

TEST_F_TIMEOUT(fail_page, fork, FAIL_TIMEOUT)
{
	fork_case(_metadata, &self->s);
}

TEST_HARNESS_MAIN
