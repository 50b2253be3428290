// SPDX-License-Identifier: GPL-2.0
/*
 * The Windows x64 (PE) backend, CONFIG_UNWIND_USER_PE (the module
 * unwind_user_pe, which the harness loads before the tests):
 *
 *   - chain: pe_host maps a mingw-built DLL (pe_dll.dll) as Wine would,
 *     registers it as PR_EH_FRAME_FORMAT_PE, and calls into it; the DLL
 *     spins and calls back into the program, which spins too.  Every
 *     cpu-clock sample in the DLL's pe_spin and in the program's cb_spin
 *     must show the exact chain through both to main.  Program frames are
 *     named from its ELF symbol table, DLL frames from the DLL's own COFF
 *     symbol table, never by the unwinder.
 *   - discovered, discovered_anon: the same without the registration, the
 *     DLL mapped from its file or copied into anonymous memory: the kernel
 *     finds the image by its headers at the first sample that needs it
 *     (the module is loaded), lists it "discovered pe", and the chains are
 *     the same;
 *   - no_discover: registering nothing with kernel.unwind_tables_discover
 *     at 0: no chain may reach main, or the tests above would not show
 *     that the PE table does it;
 *   - bad_header: the image copied into anonymous memory with its headers
 *     corrupted there (no signature, NT headers cut off by the end of the
 *     page, a SizeOfImage that ends before the code, the exception
 *     directory outside the image, the wrong machine): the code runs, is
 *     sampled, and the kernel marks it "discovered none" instead of
 *     finding an image; no chain reaches main, and nothing lands in the
 *     kernel log;
 *   - bad_input: corrupt copies of the DLL (headers, directory, table
 *     order, machine): each registration fails with its documented errno
 *     and leaves the registrations in /proc/self/unwind_tables as they
 *     were; the intact copy registers.
 *   - module: the module cannot be unloaded while an image is registered
 *     (each holds a reference); once unregistered it can, and then a PE
 *     registration asks modprobe for "unwind-user-format-3": with one that
 *     cannot find it (the guest has no modules installed) the registration
 *     fails with ENOPROTOOPT; with one that loads $UNWIND_USER_PE_KO (which
 *     the harness sets) it succeeds, the module loaded by it; gone again,
 *     100 registrations of root and 1000 of nobody in the next minute ask
 *     modprobe nothing more.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elf_syms.h"
#include "pe_map.h"
#include "perf_chain.h"
#include "unwind_table.h"
#include "../kselftest_harness.h"

#define HOST_NAME	"pe_host"
#define DLL_NAME	"pe_dll.dll"
#define MODULE_NAME	"unwind_user_pe"
#define SPIN_MS		"1500"
#define MIN_SAMPLES	20U

static void prog_path(char *buf, size_t size, const char *name)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	snprintf(buf, size, "%s/%s", dirname(exe), name);
}

FIXTURE(pe) {
	char host[PATH_MAX], dll[PATH_MAX], tables[64];
	struct pe_file pf;
	struct elf_dsos dsos;
	struct chain_capture cap;
	char chain[2048];
};

FIXTURE_SETUP(pe)
{
	prog_path(self->host, sizeof(self->host), HOST_NAME);
	prog_path(self->dll, sizeof(self->dll), DLL_NAME);
	snprintf(self->tables, sizeof(self->tables), "/tmp/pe_chain.%d.tables", getpid());
	ASSERT_EQ(0, access(self->host, X_OK)) TH_LOG("no %s", self->host);
	ASSERT_EQ(0, pe_file_load(&self->pf, self->dll));
}

FIXTURE_TEARDOWN(pe)
{
	chain_free(&self->cap);
	unlink(self->tables);
	elf_dsos_free(&self->dsos);
	pe_file_free(&self->pf);
}

/*
 * The name of frame @i of @s: from the DLL's symbol table when the address
 * is in the image (mapped at its ImageBase), else from the ELF file mapped
 * there.  Return addresses are looked up one byte back, inside the call.
 */
static const char *frame_name(struct _test_data_pe *self,
			      const struct chain_sample *s, unsigned int i)
{
	uint64_t ip = s->ips[i] - (i ? 1 : 0);
	const struct chain_mmap *m;
	const struct elf_sym *sym;
	const struct pe_sym *ps;

	if (ip - self->pf.image_base < self->pf.image_size) {
		ps = pe_file_sym(&self->pf, ip - self->pf.image_base);
		return ps ? ps->name : "?[pe]";
	}
	m = chain_find_map_at(&self->cap, s, ip);
	if (!m)
		return "?";
	sym = elf_dsos_lookup(&self->dsos, m->path, ip - m->start + m->pgoff);
	return sym ? sym->name : "?[elf]";
}

static void format_chain(struct _test_data_pe *self, const struct chain_sample *s)
{
	size_t len = 0, size = sizeof(self->chain);

	self->chain[0] = '\0';
	for (unsigned int i = 0; i < s->nr && i < 16 && len < size; i++)
		len += snprintf(self->chain + len, size - len, " %s",
				frame_name(self, s, i));
}

/* Do the first frames of @s read @pat? */
static bool chain_is(struct _test_data_pe *self, const struct chain_sample *s,
		     const char * const *pat, unsigned int nr)
{
	if (!s->resolved || s->nr < nr)
		return false;
	for (unsigned int i = 0; i < nr; i++)
		if (strcmp(frame_name(self, s, i), pat[i]))
			return false;
	return true;
}

static bool chain_has(struct _test_data_pe *self, const struct chain_sample *s,
		      const char *name)
{
	for (unsigned int i = 0; i < s->nr; i++)
		if (!strcmp(frame_name(self, s, i), name))
			return true;
	return false;
}

static void run(struct __test_metadata *_metadata, struct _test_data_pe *self,
		const char *mode)
{
	char *argv[] = { self->host, self->dll, (char *)mode, SPIN_MS, self->tables, NULL };
	struct perf_event_attr attr;
	int ret;

	chain_attr_cpu_clock(&attr, 1000000);
	ret = chain_run(&self->cap, &attr, argv, false);
	ASSERT_EQ(0, ret) TH_LOG("cannot profile %s: %s", argv[0], strerror(-ret));
	ASSERT_EQ(0, self->cap.exit_status)
		TH_LOG("%s exited with status %#x", argv[0], self->cap.exit_status);
}

/*
 * Every sample in pe_spin or cb_spin of a run of @mode has the whole chain
 * through the DLL and back.
 */
static void check_chains(struct __test_metadata *_metadata,
			 struct _test_data_pe *self, const char *mode)
{
	/* In the DLL, and back in the program called from the DLL. */
	static const char * const in_dll[] = {
		"pe_spin", "pe_c", "pe_b", "pe_a", "run_chain", "main",
	};
	static const char * const in_cb[] = {
		"cb_spin", "pe_c", "pe_b", "pe_a", "run_chain", "main",
	};
	unsigned int dll = 0, dll_good = 0, cb = 0, cb_good = 0, bad = 0;

	run(_metadata, self, mode);
	for (unsigned int i = 0; i < self->cap.nr_samples; i++) {
		const struct chain_sample *s = &self->cap.samples[i];
		const char *leaf;
		bool good;

		if (!s->nr)
			continue;
		leaf = frame_name(self, s, 0);
		if (!strcmp(leaf, "pe_spin")) {
			dll++;
			good = chain_is(self, s, in_dll, 6);
			dll_good += good;
		} else if (!strcmp(leaf, "cb_spin")) {
			cb++;
			good = chain_is(self, s, in_cb, 6);
			cb_good += good;
		} else {
			continue;
		}
		format_chain(self, s);
		if (!good && bad++ < 5)
			TH_LOG("chain of %u frames%s:%s", s->nr,
			       s->resolved ? "" : " (never delivered)", self->chain);
		else if (good && dll_good + cb_good == 1)
			ksft_print_msg("a chain:%s\n", self->chain);
	}
	ksft_print_msg("%u samples; in pe_spin %u, %u complete; in cb_spin %u, %u complete\n",
		       self->cap.nr_samples, dll, dll_good, cb, cb_good);
	EXPECT_LE(MIN_SAMPLES, dll);
	EXPECT_LE(MIN_SAMPLES, cb);
	EXPECT_EQ(dll, dll_good);
	EXPECT_EQ(cb, cb_good);
}

/* The lines of the child's /proc/PID/unwind_tables of @origin and @format over the image. */
static unsigned int image_listed(struct _test_data_pe *self, const char *origin,
				 const char *format)
{
	uint64_t spin = self->pf.image_base + pe_file_sym_rva(&self->pf, "pe_spin");
	unsigned long long start, end;
	char line[256], o[32], f[32];
	unsigned int n = 0;
	FILE *in = fopen(self->tables, "r");

	while (in && fgets(line, sizeof(line), in)) {
		if (sscanf(line, "%llx-%llx %31s %31s", &start, &end, o, f) == 4 &&
		    !strcmp(o, origin) && !strcmp(f, format) && start <= spin && spin < end)
			n++;
	}
	if (in)
		fclose(in);
	return n;
}

TEST_F(pe, chain)
{
	check_chains(_metadata, self, "register");
	EXPECT_EQ(1U, image_listed(self, "prctl", "pe"));
}

/* What the kernel finds without a registration: the same chains. */
TEST_F(pe, discovered)
{
	check_chains(_metadata, self, "noregister");
	EXPECT_EQ(1U, image_listed(self, "discovered", "pe"));
}

TEST_F(pe, discovered_anon)
{
	check_chains(_metadata, self, "anon");
	EXPECT_EQ(1U, image_listed(self, "discovered", "pe"));
}

/* The chains of the last run through pe_spin or cb_spin that reach main. */
static void count_main(struct __test_metadata *_metadata, struct _test_data_pe *self,
		       unsigned int *in_spin, unsigned int *to_main)
{
	*in_spin = *to_main = 0;
	for (unsigned int i = 0; i < self->cap.nr_samples; i++) {
		const struct chain_sample *s = &self->cap.samples[i];
		const char *leaf;

		if (!s->nr)
			continue;
		leaf = frame_name(self, s, 0);
		if (strcmp(leaf, "pe_spin") && strcmp(leaf, "cb_spin"))
			continue;
		(*in_spin)++;
		if (chain_has(self, s, "main") && (*to_main)++ < 3) {
			format_chain(self, s);
			TH_LOG("reached main without the PE table:%s", self->chain);
		}
	}
}

TEST_F(pe, no_discover)
{
	unsigned int in_spin, to_main;
	int was = ut_read_discover();

	ASSERT_LE(0, was);
	ASSERT_EQ(0, ut_write_discover(0));
	run(_metadata, self, "noregister");
	ut_write_discover(was);
	count_main(_metadata, self, &in_spin, &to_main);
	ksft_print_msg("%u samples in pe_spin or cb_spin, %u reached main\n",
		       in_spin, to_main);
	EXPECT_LE(MIN_SAMPLES, in_spin);
	EXPECT_EQ(0U, to_main);
	EXPECT_EQ(0U, image_listed(self, "discovered", "pe"));
}

/* Headers corrupted in memory: a marker, no image, nothing in the log. */
TEST_F(pe, bad_header)
{
	static const char * const what[PE_HOST_NR_BAD] = {
		[PE_HOST_BAD_SIG]	= "no PE signature",
		[PE_HOST_BAD_LFANEW]	= "NT headers cut off by the end of the page",
		[PE_HOST_BAD_SIZE]	= "SizeOfImage ends before the code",
		[PE_HOST_BAD_DIR]	= "exception directory outside the image",
		[PE_HOST_BAD_MACHINE]	= "machine i386",
	};
	unsigned int in_spin, to_main;
	char mode[32], msg[512];
	int kmsg = ut_kmsg_open();

	ASSERT_LE(0, kmsg);
	for (int bad = 1; bad < PE_HOST_NR_BAD; bad++) {
		snprintf(mode, sizeof(mode), "anon-bad-%d", bad);
		chain_free(&self->cap);
		run(_metadata, self, mode);
		count_main(_metadata, self, &in_spin, &to_main);
		ksft_print_msg("%s: %u samples in pe_spin or cb_spin, %u reached main, marker %u\n",
			       what[bad], in_spin, to_main,
			       image_listed(self, "discovered", "none"));
		EXPECT_LE(MIN_SAMPLES, in_spin);
		EXPECT_EQ(0U, to_main);
		EXPECT_EQ(0U, image_listed(self, "discovered", "pe")) TH_LOG("%s", what[bad]);
		EXPECT_EQ(1U, image_listed(self, "discovered", "none")) TH_LOG("%s", what[bad]);
	}
	EXPECT_FALSE(ut_kmsg_splat(kmsg, msg, sizeof(msg))) TH_LOG("%s", msg);
	close(kmsg);
}

static uint16_t rd16(const uint8_t *p) { return p[0] | p[1] << 8; }
static uint32_t rd32(const uint8_t *p) { return rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static void wr16(uint8_t *p, uint16_t v) { p[0] = v; p[1] = v >> 8; }
static void wr32(uint8_t *p, uint32_t v) { wr16(p, v); wr16(p + 2, v >> 16); }

static int register_pe(void *base, uint64_t size)
{
	struct prctl_eh_frame d = {
		.format = PR_EH_FRAME_FORMAT_PE,
		.text_start = (uintptr_t)base,
		.text_size = size,
	};

	return ut_register(&d);
}

static int unregister_pe(void *base, uint64_t size)
{
	struct prctl_eh_frame d = {
		.format = PR_EH_FRAME_FORMAT_PE,
		.text_start = (uintptr_t)base,
		.text_size = size,
	};

	return ut_prctl(PR_UNREGISTER_EH_FRAME, &d, sizeof(d), 0, 0);
}

/*
 * Each corruption of a copy of the DLL and the errno its registration
 * must fail with.
 */
enum corrupt {
	C_NONE, C_MZ, C_PE_SIG, C_LFANEW, C_DIR_OUTSIDE, C_DIR_SIZE, C_UNSORTED,
	C_MACHINE, C_OPT_MAGIC, C_ENTRY_OUTSIDE, C_NR
};

static const struct {
	const char *what;
	int err;
} corruptions[C_NR] = {
	[C_NONE]		= { "intact", 0 },
	[C_MZ]			= { "no MZ", ENOEXEC },
	[C_PE_SIG]		= { "no PE signature", ENOEXEC },
	[C_LFANEW]		= { "e_lfanew beyond the image", ENOEXEC },
	[C_DIR_OUTSIDE]		= { "exception directory outside the image", ENOEXEC },
	[C_DIR_SIZE]		= { "directory size not a multiple of 12", ENOEXEC },
	[C_UNSORTED]		= { "function table not sorted", ENOEXEC },
	[C_MACHINE]		= { "machine i386", EOPNOTSUPP },
	[C_OPT_MAGIC]		= { "PE32, not PE32+", EOPNOTSUPP },
	[C_ENTRY_OUTSIDE]	= { "an entry beyond the image", ENOEXEC },
};

static void corrupt(const struct pe_file *pf, uint8_t *img, enum corrupt c)
{
	uint8_t *pe = img + rd32(img + PE_LFANEW);
	uint8_t *opt = pe + PE_OPT;
	uint8_t *dir = opt + PE_OPT_DIRS + 8 * PE_DIR_EXCEPTION;
	uint8_t *table = img + rd32(dir), tmp[12];

	switch (c) {
	case C_NONE:
		break;
	case C_MZ:
		img[0] = 'X';
		break;
	case C_PE_SIG:
		pe[0] = 'X';
		break;
	case C_LFANEW:
		wr32(img + PE_LFANEW, pf->image_size - 2);
		break;
	case C_DIR_OUTSIDE:
		wr32(dir, pf->image_size - 12);
		wr32(dir + 4, 24);
		break;
	case C_DIR_SIZE:
		wr32(dir + 4, rd32(dir + 4) - 4);
		break;
	case C_UNSORTED:
		memcpy(tmp, table, 12);
		memcpy(table, table + 12, 12);
		memcpy(table + 12, tmp, 12);
		break;
	case C_MACHINE:
		wr16(pe + PE_COFF_MACHINE, 0x14c);
		break;
	case C_OPT_MAGIC:
		wr16(opt, 0x10b);
		break;
	case C_ENTRY_OUTSIDE:
		wr32(table + 4, pf->image_size + 0x1000);
		break;
	default:
		break;
	}
}

TEST_F(pe, bad_input)
{
	uint64_t size = (self->pf.image_size + 4095) & ~4095ULL;
	char *before, *after;
	struct ut_line l;
	uint8_t *img;
	int ret;

	ASSERT_LE(3U * 12, rd32((uint8_t *)self->pf.data + self->pf.opt_off + PE_OPT_DIRS +
			       8 * PE_DIR_EXCEPTION + 4))
		TH_LOG("the DLL has too few functions to unsort");
	/* 64 pages more, unmapped below to make a hole after the image */
	img = mmap(NULL, size + 64 * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, img);
	/* Only registrations: what the kernel finds may come at any sample. */
	before = ut_read_registrations();
	ASSERT_NE(NULL, before);

	for (int c = 0; c < C_NR; c++) {
		memset(img, 0, size);
		ASSERT_EQ(0, pe_file_copy(&self->pf, img));
		corrupt(&self->pf, img, c);
		ret = register_pe(img, size);
		EXPECT_EQ(-corruptions[c].err, ret)
			TH_LOG("%s: %s, expected %s", corruptions[c].what,
			       strerror(-ret), strerror(corruptions[c].err));
		if (!ret) {
			after = ut_read_registrations();
			ASSERT_NE(NULL, after);
			EXPECT_EQ(ut_count_lines(before) + 1, ut_count_lines(after));
			EXPECT_NE(NULL, ut_find_origin(after, "prctl", (uintptr_t)img,
						       (uintptr_t)img + size, &l));
			EXPECT_STREQ("pe", l.format) TH_LOG("%s", after);
			EXPECT_EQ((uintptr_t)img, l.start);
			EXPECT_EQ((uintptr_t)img + size, l.end);
			free(after);
			/* A registration is named with its format. */
			EXPECT_EQ(-ENOENT, ut_unregister((uintptr_t)img,
							 (uintptr_t)img + size));
			EXPECT_EQ(0, unregister_pe(img, size));
		}
		after = ut_read_registrations();
		ASSERT_NE(NULL, after);
		EXPECT_STREQ(before, after) TH_LOG("%s left a registration",
						   corruptions[c].what);
		free(after);
	}

	/* The form of the call: no .eh_frame fields, a mapped range. */
	{
		struct prctl_eh_frame d = {
			.format = PR_EH_FRAME_FORMAT_PE,
			.text_start = (uintptr_t)img, .text_size = size,
			.eh_frame_start = (uintptr_t)img, .eh_frame_size = 4096,
		};

		ASSERT_EQ(0, pe_file_copy(&self->pf, img));
		EXPECT_EQ(-EINVAL, ut_register(&d));
		d.eh_frame_start = 0;
		d.eh_frame_size = 0;
		d.text_size = size + 64 * 4096;	/* beyond the mapping */
		munmap(img + size, 64 * 4096);
		EXPECT_EQ(-ENOMEM, ut_register(&d));
	}
	munmap(img, size + 64 * 4096);
	free(before);
}

#define MODPROBE_SYSCTL	"/proc/sys/kernel/modprobe"
#define MODPROBE_PATH	"/tmp/unwind_user_modprobe"
#define MODPROBE_LOG	"/tmp/unwind_user_modprobe.log"

/*
 * Make the kernel's modprobe a script that logs what it is asked for and
 * loads @ko for the PE format's alias only; @old gets the path it had.
 */
static int modprobe_set(const char *ko, char *old, size_t size)
{
	FILE *f = fopen(MODPROBE_PATH, "w");
	ssize_t n;
	int fd;

	if (!f)
		return -1;
	/* The kernel runs "modprobe -q -- NAME"; busybox-static has insmod. */
	fprintf(f, "#!/bin/sh\nfor a; do n=$a; done\necho \"$n\" >> %s\n"
		"[ \"$n\" = unwind-user-format-%d ] || exit 1\n"
		"exec busybox insmod '%s'\n", MODPROBE_LOG, PR_EH_FRAME_FORMAT_PE, ko);
	if (fclose(f) || chmod(MODPROBE_PATH, 0755))
		return -1;
	remove(MODPROBE_LOG);
	fd = open(MODPROBE_SYSCTL, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, old, size - 1);
	old[n > 0 ? n : 0] = '\0';
	old[strcspn(old, "\n")] = '\0';
	n = pwrite(fd, MODPROBE_PATH, strlen(MODPROBE_PATH), 0);
	close(fd);
	return n == (ssize_t)strlen(MODPROBE_PATH) ? 0 : -1;
}

static void modprobe_restore(const char *old)
{
	int fd = open(MODPROBE_SYSCTL, O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, old, strlen(old)) < 0)
			perror(MODPROBE_SYSCTL);
		close(fd);
	}
}

/* How many times the modprobe script's log holds the line @what. */
static unsigned int modprobe_asked(const char *what)
{
	unsigned int n = 0;
	char line[128];
	FILE *f = fopen(MODPROBE_LOG, "r");

	while (f && fgets(line, sizeof(line), f))
		n += !strncmp(line, what, strlen(what)) && line[strlen(what)] == '\n';
	if (f)
		fclose(f);
	return n;
}

/*
 * Register the image at @img @n times from a child running as nobody: did
 * every registration fail with ENOPROTOOPT?
 */
static bool refused_as_nobody(void *img, uint64_t size, unsigned int n)
{
	unsigned int i, refused = 0;
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return false;
	if (!pid) {
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(2);
		for (i = 0; i < n; i++)
			refused += register_pe(img, size) == -ENOPROTOOPT;
		ksft_print_msg("as nobody: %u of %u registrations refused\n", refused, n);
		_exit(refused == n ? 0 : 1);
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status);
}

static int module_refs(void)
{
	char buf[32] = "";
	int fd = open("/sys/module/" MODULE_NAME "/refcnt", O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) <= 0)
		buf[0] = '\0';
	close(fd);
	return buf[0] ? atoi(buf) : -1;
}

TEST_F(pe, module)
{
	const char *ko = getenv("UNWIND_USER_PE_KO");
	uint64_t size = (self->pf.image_size + 4095) & ~4095ULL;
	int refs, fd;
	uint8_t *img;

	ASSERT_NE(NULL, ko) TH_LOG("UNWIND_USER_PE_KO names no module file");
	refs = module_refs();
	ASSERT_LE(0, refs) TH_LOG("%s is not loaded", MODULE_NAME);
	img = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, img);
	ASSERT_EQ(0, pe_file_copy(&self->pf, img));

	/* A registered image holds the module. */
	ASSERT_EQ(0, register_pe(img, size));
	EXPECT_EQ(refs + 1, module_refs());
	errno = 0;
	EXPECT_EQ(-1, syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK));
	EXPECT_EQ(EWOULDBLOCK, errno);
	EXPECT_EQ(refs + 1, module_refs());

	/* Unmapping the image drops the registration, and the reference. */
	ASSERT_EQ(0, munmap(img, size));
	EXPECT_EQ(refs, module_refs());
	img = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, img);
	ASSERT_EQ(0, pe_file_copy(&self->pf, img));
	ASSERT_EQ(0, register_pe(img, size));
	EXPECT_EQ(0, unregister_pe(img, size));
	EXPECT_EQ(refs, module_refs());

	/*
	 * Without other users, it goes; a PE registration then asks modprobe
	 * for it, and loads it.  Once it is gone again, the registrations of
	 * the next minute do not ask again, and fail with ENOPROTOOPT: a
	 * module that does not come is not asked for at every registration.
	 */
	if (refs == 0) {
		char name[32], old[PATH_MAX];
		unsigned int i, refused = 0;
		int ret;

		snprintf(name, sizeof(name), "unwind-user-format-%d", PR_EH_FRAME_FORMAT_PE);
		EXPECT_EQ(0, syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK))
			TH_LOG("delete_module: %s", strerror(errno));
		EXPECT_EQ(-1, module_refs());

		/* A modprobe that finds it: the registration loads the module. */
		ASSERT_EQ(0, modprobe_set(ko, old, sizeof(old)))
			TH_LOG("cannot install %s: %s", MODPROBE_PATH, strerror(errno));
		ret = register_pe(img, size);
		EXPECT_EQ(0, ret) TH_LOG("registration with the module unloaded: %s",
					 strerror(-ret));
		EXPECT_EQ(1U, modprobe_asked(name)) TH_LOG("modprobe was not asked for %s", name);
		EXPECT_EQ(ret ? -1 : 1, module_refs());
		if (!ret)
			EXPECT_EQ(0, unregister_pe(img, size));

		EXPECT_EQ(0, syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK))
			TH_LOG("delete_module: %s", strerror(errno));
		for (i = 0; i < 100; i++)
			refused += register_pe(img, size) == -ENOPROTOOPT;
		EXPECT_EQ(100U, refused);
		/* Nor by an unprivileged process's 1000 registrations. */
		EXPECT_TRUE(refused_as_nobody(img, size, 1000));
		modprobe_restore(old);
		EXPECT_EQ(1U, modprobe_asked(name))
			TH_LOG("modprobe asked %u times in the minute", modprobe_asked(name));

		/* Whatever happened, the tests after this one need the module. */
		if (module_refs() < 0) {
			fd = open(ko, O_RDONLY | O_CLOEXEC);
			ASSERT_LE(0, fd) TH_LOG("%s: %s", ko, strerror(errno));
			EXPECT_EQ(0, syscall(SYS_finit_module, fd, "", 0))
				TH_LOG("finit_module %s: %s", ko, strerror(errno));
			close(fd);
		}
		EXPECT_EQ(0, module_refs());
		EXPECT_EQ(0, register_pe(img, size));
		EXPECT_EQ(0, unregister_pe(img, size));
	} else {
		TH_LOG("other users of %s (%d): not unloaded", MODULE_NAME, refs);
		EXPECT_EQ(0, refs);
	}
	munmap(img, size);
}

TEST_HARNESS_MAIN
