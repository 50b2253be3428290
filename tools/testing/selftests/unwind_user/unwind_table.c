// SPDX-License-Identifier: GPL-2.0
/* Registrations of user unwind tables, from user space (see unwind_table.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "unwind_table.h"

struct find_arg {
	const char *suffix;
	struct ut_object *obj;
	bool found;
};

static int find_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct find_arg *arg = data;
	const char *name = info->dlpi_name ?: "";
	size_t len = strlen(name), slen = strlen(arg->suffix);
	struct ut_object *obj = arg->obj;

	(void)size;
	/* "" names the main program, which comes first. */
	if (slen ? len < slen || strcmp(name + len - slen, arg->suffix) : len != 0)
		return 0;

	memset(obj, 0, sizeof(*obj));
	snprintf(obj->name, sizeof(obj->name), "%s", name);
	obj->base = info->dlpi_addr;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const Elf64_Phdr *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && !obj->text_start) {
			obj->text_start = info->dlpi_addr + ph->p_vaddr;
			obj->text_end = obj->text_start + ph->p_memsz;
		} else if (ph->p_type == PT_GNU_EH_FRAME) {
			obj->hdr_start = info->dlpi_addr + ph->p_vaddr;
			obj->hdr_size = ph->p_memsz;
		}
	}
	for (int i = 0; obj->hdr_start && i < info->dlpi_phnum; i++) {
		const Elf64_Phdr *ph = &info->dlpi_phdr[i];
		uint64_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && obj->hdr_start >= start &&
		    obj->hdr_start < start + ph->p_filesz) {
			obj->eh_frame_start = start;
			obj->eh_frame_size = ph->p_filesz;
		}
	}
	arg->found = obj->text_start && obj->hdr_start && obj->eh_frame_start;
	return 1;
}

int ut_find_object(const char *suffix, struct ut_object *obj)
{
	struct find_arg arg = { .suffix = suffix, .obj = obj };

	dl_iterate_phdr(find_cb, &arg);
	return arg.found ? 0 : -1;
}

void ut_desc_of(const struct ut_object *obj, struct prctl_eh_frame *desc)
{
	memset(desc, 0, sizeof(*desc));
	desc->format = PR_EH_FRAME_FORMAT_EH_FRAME_HDR;
	desc->text_start = obj->text_start;
	desc->text_size = obj->text_end - obj->text_start;
	desc->eh_frame_start = obj->eh_frame_start;
	desc->eh_frame_size = obj->eh_frame_size;
	desc->eh_frame_hdr_start = obj->hdr_start;
	desc->eh_frame_hdr_size = obj->hdr_size;
}

int ut_prctl(int option, const void *desc, unsigned long size, unsigned long arg4,
	     unsigned long arg5)
{
	return prctl(option, (unsigned long)desc, size, arg4, arg5) ? -errno : 0;
}

int ut_register(const struct prctl_eh_frame *desc)
{
	return ut_prctl(PR_REGISTER_EH_FRAME, desc, sizeof(*desc), 0, 0);
}

int ut_register_object(const struct ut_object *obj)
{
	struct prctl_eh_frame desc;

	ut_desc_of(obj, &desc);
	return ut_register(&desc);
}

int ut_unregister_format(uint32_t format, uint64_t text_start, uint64_t text_end)
{
	struct prctl_eh_frame desc = {
		.format = format,
		.text_start = text_start,
		.text_size = text_end - text_start,
	};

	return ut_prctl(PR_UNREGISTER_EH_FRAME, &desc, sizeof(desc), 0, 0);
}

int ut_unregister(uint64_t text_start, uint64_t text_end)
{
	return ut_unregister_format(PR_EH_FRAME_FORMAT_EH_FRAME_HDR, text_start, text_end);
}

char *ut_read_tables(void)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap), *p;
	int fd = open(UNWIND_TABLES_PATH, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !buf) {
		int err = errno;

		free(buf);
		if (fd >= 0)
			close(fd);
		errno = err;
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len > 1)
			continue;
		p = realloc(buf, cap * 2);
		if (!p) {
			n = -1;
			break;
		}
		buf = p;
		cap *= 2;
	}
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

unsigned int ut_count_lines(const char *tables)
{
	unsigned int n = 0;
	bool bol = true;

	for (; *tables; tables++) {
		if (bol && !strncmp(tables, "cache ", 6))
			n--;
		n += *tables == '\n';
		bol = *tables == '\n';
	}
	return n;
}

/* The next line of @tables after @p, or NULL. */
static const char *next_line(const char *p)
{
	p = strchr(p, '\n');
	return p && p[1] ? p + 1 : NULL;
}

int ut_parse_line(const char *line, struct ut_line *l)
{
	unsigned long long s, e, a, b;
	char buf[256], *p = buf;
	int pos = 0;

	memset(l, 0, sizeof(*l));
	/* This line only: sscanf() would read on into the next. */
	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(line, "\n"), line);
	if (sscanf(p, "%llx-%llx %15s %15s %n", &s, &e, l->origin, l->format, &pos) != 4 ||
	    !pos || s >= e)
		return -1;
	l->start = s;
	l->end = e;
	p += pos;
	if (!strcmp(l->format, "eh_frame_hdr")) {
		if (sscanf(p, "%llx %llu eh_frame %n", &a, &b, &pos) != 2)
			return -1;
		l->hdr = a;
		l->hdr_size = b;
		p += pos;
	} else if (strcmp(l->format, "eh_frame")) {
		/* A marker, a dropped entry, a PE image: the range only. */
		return 0;
	}
	if (sscanf(p, "%llx %llu", &a, &b) != 2)
		return -1;
	l->eh_frame = a;
	l->eh_frame_size = b;
	return 0;
}

const char *ut_find_line(const char *tables, const struct prctl_eh_frame *desc)
{
	bool hdr = desc->format == PR_EH_FRAME_FORMAT_EH_FRAME_HDR;
	struct ut_line l;

	if (!hdr && desc->format != PR_EH_FRAME_FORMAT_EH_FRAME)
		return NULL;
	for (const char *p = tables; p && *p; p = next_line(p)) {
		if (ut_parse_line(p, &l) || strcmp(l.origin, "prctl") ||
		    l.start != desc->text_start || l.end != desc->text_start + desc->text_size ||
		    strcmp(l.format, hdr ? "eh_frame_hdr" : "eh_frame"))
			continue;
		/* Without a header: .eh_frame exactly as registered. */
		if (!hdr && l.eh_frame == desc->eh_frame_start &&
		    l.eh_frame_size == desc->eh_frame_size)
			return p;
		/*
		 * With one, .eh_frame starts where the header says, and reads
		 * of it stop where the registration said.
		 */
		if (hdr && l.hdr == desc->eh_frame_hdr_start &&
		    l.hdr_size == desc->eh_frame_hdr_size &&
		    l.eh_frame + l.eh_frame_size == desc->eh_frame_start + desc->eh_frame_size)
			return p;
	}
	return NULL;
}

const char *ut_find_origin(const char *tables, const char *origin, uint64_t start,
			   uint64_t end, struct ut_line *l)
{
	bool found = origin && !strcmp(origin, "found");
	struct ut_line tmp;

	if (!l)
		l = &tmp;
	for (const char *p = tables; p && *p; p = next_line(p)) {
		if (ut_parse_line(p, l) || l->start >= end || start >= l->end)
			continue;
		if (found ? strcmp(l->origin, "prctl") : !origin || !strcmp(l->origin, origin))
			return p;
	}
	return NULL;
}

const char *ut_find_overlap(const char *tables, uint64_t start, uint64_t end,
			    uint64_t *line_start, uint64_t *line_end, uint64_t *line_table)
{
	struct ut_line l;
	const char *p = ut_find_origin(tables, NULL, start, end, &l);

	if (!p)
		return NULL;
	if (line_start)
		*line_start = l.start;
	if (line_end)
		*line_end = l.end;
	if (line_table)
		*line_table = l.hdr ?: l.eh_frame;
	return p;
}

unsigned int ut_count_entries(const char *tables)
{
	unsigned int n = 0;
	struct ut_line l;

	for (const char *p = tables; p && *p; p = next_line(p))
		n += !ut_parse_line(p, &l) && strcmp(l.format, "none");
	return n;
}

/* A sysctl holding a number: its value, or -1. */
static long read_sysctl(const char *path)
{
	FILE *f = fopen(path, "r");
	long val = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &val) != 1)
		val = -1;
	fclose(f);
	return val;
}

static int write_sysctl(const char *path, long val)
{
	char buf[32];
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int len = snprintf(buf, sizeof(buf), "%ld\n", val);
	int ret;

	if (fd < 0)
		return -1;
	ret = write(fd, buf, len) == len ? 0 : -1;
	close(fd);
	return ret;
}

long ut_read_max(void)
{
	return read_sysctl(UNWIND_TABLES_MAX_PATH);
}

int ut_write_max(long max)
{
	return write_sysctl(UNWIND_TABLES_MAX_PATH, max);
}

int ut_read_discover(void)
{
	return read_sysctl(UNWIND_TABLES_DISCOVER_PATH);
}

int ut_write_discover(int on)
{
	return write_sysctl(UNWIND_TABLES_DISCOVER_PATH, on);
}

int ut_read_cpu_max(void)
{
	return read_sysctl(UNWIND_USER_CPU_MAX_PATH);
}

int ut_write_cpu_max(int percent)
{
	return write_sysctl(UNWIND_USER_CPU_MAX_PATH, percent);
}

int ut_read_share(void)
{
	return read_sysctl(UNWIND_TABLES_SHARE_PATH);
}

int ut_write_share(int on)
{
	return write_sysctl(UNWIND_TABLES_SHARE_PATH, on);
}

int ut_sample_task(pid_t pid, uint64_t period_ns)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.sample_period = period_ns,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.exclude_callchain_kernel = 1,
		.defer_callchain = 1,
	};
	long fd = syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

static volatile unsigned long spin_sink;

void ut_spin_program(void *arg)
{
	(void)arg;
	for (unsigned long i = 0; i < 100000; i++)
		spin_sink += i;
}

#ifdef __x86_64__
/* The x86-64 psABI's argument of __tls_get_addr(). */
struct tls_index {
	unsigned long module, offset;
};

/*
 * __tls_get_addr() is the dynamic linker's, exported for code that uses
 * the general-dynamic TLS model: ask it for libc's (which has TLS, so has a
 * module ID) block, again and again.
 */
void ut_spin_ld_so(void *arg)
{
	static void *(*tls_get_addr)(struct tls_index *);
	static struct tls_index ti;
	void *libc;

	(void)arg;
	if (!tls_get_addr) {
		libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
		if (!libc || dlinfo(libc, RTLD_DI_TLS_MODID, &ti.module) || !ti.module)
			return;
		tls_get_addr = (void *(*)(struct tls_index *))dlsym(RTLD_DEFAULT,
								     "__tls_get_addr");
		if (!tls_get_addr)
			return;
	}
	for (unsigned long i = 0; i < 20000; i++)
		spin_sink += (uintptr_t)tls_get_addr(&ti);
}
#else
void ut_spin_ld_so(void *arg)
{
	(void)arg;
}
#endif

void ut_spin_vdso(void *arg)
{
	struct timespec ts;

	(void)arg;
	for (unsigned long i = 0; i < 5000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		spin_sink += ts.tv_nsec;
	}
}

static double thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int ut_discover(uint64_t start, uint64_t end, void (*spin)(void *), void *arg,
		unsigned int ms, struct ut_line *l)
{
	/* A sample every 200 us of CPU time: a few dozen a spin under TCG. */
	int fd = ut_sample_task(0, 200000), ret = -ETIMEDOUT;
	double stop = thread_cpu_ms() + ms;
	char *tables;

	if (fd < 0)
		return fd;
	do {
		for (int i = 0; i < 8; i++)
			spin(arg);
		tables = ut_read_tables();
		if (!tables) {
			ret = -errno;
			break;
		}
		if (ut_find_origin(tables, "found", start, end, l))
			ret = 0;
		free(tables);
	} while (ret && thread_cpu_ms() < stop);
	close(fd);
	return ret;
}

int ut_debugfs_counter(const char *file, const char *name, long long *val)
{
	char path[128], line[128], fmt[64];
	int ret = -1;
	FILE *f;

	if (access("/sys/kernel/debug/unwind_user", R_OK))
		mount("none", "/sys/kernel/debug", "debugfs", 0, NULL);
	snprintf(path, sizeof(path), "/sys/kernel/debug/unwind_user/%s", file);
	f = fopen(path, "re");
	if (!f)
		return -1;
	snprintf(fmt, sizeof(fmt), "%s %%lld", name);
	while (ret && fgets(line, sizeof(line), f))
		ret = sscanf(line, fmt, val) == 1 ? 0 : -1;
	fclose(f);
	return ret;
}

int ut_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

bool ut_kmsg_splat(int fd, char *msg, size_t size)
{
	static const char * const bad[] = {
		"WARNING:", "BUG:", "Oops", "kernel BUG", "refcount_t",
		"general protection", "UBSAN:",
	};
	char rec[8192];
	bool found = false;
	ssize_t n;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* records were overwritten */
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]) && !found; i++) {
			const char *text = strchr(rec, ';');

			if (strstr(text ?: rec, bad[i])) {
				snprintf(msg, size, "%s", text ? text + 1 : rec);
				found = true;
			}
		}
	}
	return found;
}

void ut_print_lines(const char *title, const char *text)
{
	const char *nl;

	printf("# %s\n", title);
	for (; *text; text = nl + 1) {
		nl = strchr(text, '\n');
		if (!nl) {
			printf("#   %s\n", text);
			break;
		}
		printf("#   %.*s\n", (int)(nl - text), text);
	}
	fflush(stdout);
}

/*
 * The lines of /proc/self/unwind_tables, less the cache's, the indexes'
 * sizes, and, with @prctl_only, those of what the kernel found.
 */
static char *read_lines(bool prctl_only)
{
	char *tables = ut_read_tables(), *line, *end;

	for (line = tables; line && *line; line = end) {
		struct ut_line l;
		char *index;

		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		if (!strncmp(line, "cache ", 6) ||
		    (prctl_only && (ut_parse_line(line, &l) || strcmp(l.origin, "prctl")))) {
			memmove(line, end, strlen(end) + 1);
			end = line;
			continue;
		}
		/* A lookup may have built the table's index since: cut its size. */
		index = strstr(line, " index ");
		if (index && index < end) {
			char *nl = strchr(index, '\n');

			if (nl) {
				memmove(index, nl, strlen(nl) + 1);
				end = index + 1;
			} else {
				*index = '\0';
				end = index;
			}
		}
	}
	return tables;
}

char *ut_read_registrations(void)
{
	return read_lines(true);
}

char *ut_read_entries(void)
{
	return read_lines(false);
}

int ut_proc_start(struct ut_proc *p, char *const argv[])
{
	int in[2], out[2];

	p->in = -1;
	p->out = NULL;
	if (pipe2(in, O_CLOEXEC))
		return -1;
	if (pipe2(out, O_CLOEXEC)) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	p->pid = fork();
	if (!p->pid) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	p->in = in[1];
	p->out = fdopen(out[0], "r");
	if (p->pid < 0 || !p->out)
		return -1;
	return 0;
}

void ut_proc_close(struct ut_proc *p)
{
	if (p->in >= 0)
		close(p->in);
	if (p->out)
		fclose(p->out);
	p->in = -1;
	p->out = NULL;
}
