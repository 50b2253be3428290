// SPDX-License-Identifier: GPL-2.0
/* Deferred user callchains through perf_event_open() (see perf_chain.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf_chain.h"

/*
 * 1 MiB of records, read once, after the run; a program whose runs give more
 * (deep chains at a high rate) builds this file with a larger count.
 */
#ifndef CHAIN_RING_PAGES
#define CHAIN_RING_PAGES	256
#endif

static void attr_common(struct perf_event_attr *attr)
{
	attr->size = sizeof(*attr);
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	attr->exclude_callchain_kernel = 1;
	attr->defer_callchain = 1;
	attr->defer_output = 1;
	attr->sample_id_all = 1;
	attr->mmap = 1;
	attr->mmap2 = 1;
	attr->disabled = 1;
	attr->enable_on_exec = 1;
}

int chain_attr_uprobe(struct perf_event_attr *attr, const char *path, uint64_t offset)
{
	FILE *f = fopen("/sys/bus/event_source/devices/uprobe/type", "r");
	int type;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &type) != 1)
		type = -1;
	fclose(f);
	if (type < 0)
		return -1;

	memset(attr, 0, sizeof(*attr));
	attr_common(attr);
	attr->type = type;
	attr->config1 = (uint64_t)(uintptr_t)path;
	attr->config2 = offset;
	attr->sample_period = 1;
	return 0;
}

int chain_attr_uretprobe(struct perf_event_attr *attr, const char *path, uint64_t offset)
{
	FILE *f = fopen("/sys/bus/event_source/devices/uprobe/format/retprobe", "r");
	int bit;

	if (!f)
		return -1;
	if (fscanf(f, "config:%d", &bit) != 1 || bit < 0 || bit > 63)
		bit = -1;
	fclose(f);
	if (bit < 0 || chain_attr_uprobe(attr, path, offset))
		return -1;
	attr->config |= 1ULL << bit;
	return 0;
}

int chain_attr_uretprobe_count(struct perf_event_attr *attr, const char *path,
			       uint64_t offset)
{
	if (chain_attr_uretprobe(attr, path, offset))
		return -1;
	attr->sample_period = 0;
	attr->sample_type = 0;
	attr->defer_callchain = 0;
	attr->mmap = 0;
	attr->mmap2 = 0;
	return 0;
}

void chain_attr_cpu_clock(struct perf_event_attr *attr, uint64_t period_ns)
{
	memset(attr, 0, sizeof(*attr));
	attr_common(attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_CPU_CLOCK;
	attr->sample_period = period_ns;
}

static struct chain_sample *new_sample(struct chain_capture *cap)
{
	struct chain_sample *s;

	if (!(cap->nr_samples & 63)) {
		s = realloc(cap->samples, (cap->nr_samples + 64) * sizeof(*s));
		if (!s)
			return NULL;
		cap->samples = s;
	}
	s = &cap->samples[cap->nr_samples++];
	memset(s, 0, sizeof(*s));
	return s;
}

/* PERF_SAMPLE_IP | TID | CALLCHAIN, in that order. */
static int parse_sample(struct chain_capture *cap, const uint64_t *p, const uint64_t *end)
{
	struct chain_sample *s = new_sample(cap);
	uint64_t nr;

	if (!s || end - p < 3)
		return -ENOMEM;
	s->ip = p[0];
	s->nr_maps = cap->nr_maps;
	/* { u32 pid, tid; }: in memory order, whatever the byte order */
	memcpy(&s->pid, (const char *)&p[1], sizeof(s->pid));
	memcpy(&s->tid, (const char *)&p[1] + sizeof(s->pid), sizeof(s->tid));
	nr = p[2];
	p += 3;
	if (nr > (uint64_t)(end - p))
		return -EINVAL;
	for (uint64_t i = 0; i < nr; i++) {
		if (p[i] == PERF_CONTEXT_USER_DEFERRED && i + 1 < nr) {
			s->deferred = true;
			s->cookie = p[i + 1];
		}
	}
	return 0;
}

/* Attach a deferred chain to every sample that announced its cookie. */
static int parse_deferred(struct chain_capture *cap, const uint64_t *p, const uint64_t *end)
{
	uint64_t cookie, nr;

	if (end - p < 2)
		return -EINVAL;
	cookie = p[0];
	nr = p[1];
	p += 2;
	if (nr > (uint64_t)(end - p))
		return -EINVAL;
	cap->nr_deferred++;
	for (unsigned int i = 0; i < cap->nr_samples; i++) {
		struct chain_sample *s = &cap->samples[i];

		if (!s->deferred || s->resolved || s->cookie != cookie)
			continue;
		s->nr = nr < CHAIN_MAX_IPS ? nr : CHAIN_MAX_IPS;
		memcpy(s->ips, p, s->nr * sizeof(*p));
		s->resolved = true;
	}
	return 0;
}

static void parse_mmap2(struct chain_capture *cap, const struct perf_event_header *h)
{
	const struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t addr, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_gen;
		uint32_t prot, flags;
		char filename[];
	} *m = (const void *)h;
	struct chain_mmap *cm;

	if (cap->nr_maps >= sizeof(cap->maps) / sizeof(cap->maps[0]) ||
	    h->size <= sizeof(*m))
		return;
	cm = &cap->maps[cap->nr_maps++];
	cm->pid = m->pid;
	cm->start = m->addr;
	cm->len = m->len;
	cm->pgoff = m->pgoff;
	snprintf(cm->path, sizeof(cm->path), "%.*s",
		 (int)(h->size - sizeof(*m)), m->filename);
}

/*
 * Two passes over the records: samples and mappings first, deferred chains
 * second, so that a chain finds its samples whatever ring each came through.
 */
static int parse_records(struct chain_capture *cap, const unsigned char *data,
			 size_t size, bool deferred_pass)
{
	size_t off = 0;
	int ret = 0;

	while (!ret && off + sizeof(struct perf_event_header) <= size) {
		const struct perf_event_header *h = (const void *)(data + off);
		const uint64_t *body = (const void *)(h + 1);
		const uint64_t *end = (const void *)(data + off + h->size);

		if (h->size < sizeof(*h) || off + h->size > size)
			return -EINVAL;
		if (deferred_pass) {
			if (h->type == PERF_RECORD_CALLCHAIN_DEFERRED)
				ret = parse_deferred(cap, body, end);
		} else if (h->type == PERF_RECORD_SAMPLE) {
			ret = parse_sample(cap, body, end);
		} else if (h->type == PERF_RECORD_MMAP2) {
			parse_mmap2(cap, h);
		} else if (h->type == PERF_RECORD_LOST) {
			cap->lost += body[1];
		}
		off += h->size;
	}
	return ret;
}

/* Append the records of one ring to @buf, unwrapping it. */
static int read_ring(void *ring, size_t data_size, unsigned char **buf, size_t *len)
{
	struct perf_event_mmap_page *pg = ring;
	const unsigned char *data = (const unsigned char *)ring + pg->data_offset;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail;
	size_t n = head - tail;
	unsigned char *p;

	if (n > data_size)
		return -EOVERFLOW;
	p = realloc(*buf, *len + n + 1);
	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		p[*len + i] = data[(tail + i) % data_size];
	*buf = p;
	*len += n;
	return 0;
}

#define MAX_RINGS	64

int chain_run(struct chain_capture *cap, struct perf_event_attr *attr,
	      char *const argv[], bool inherit)
{
	return chain_run_extra(cap, attr, argv, inherit, NULL, 0, NULL);
}

int chain_run_extra(struct chain_capture *cap, struct perf_event_attr *attr,
		    char *const argv[], bool inherit, struct perf_event_attr *extra,
		    unsigned int nr_extra, uint64_t *counts)
{
	int extra_fds[MAX_RINGS];
	unsigned int nr_open = 0;
	size_t page = sysconf(_SC_PAGESIZE);
	size_t ring_size = (CHAIN_RING_PAGES + 1) * page;
	int go[2], status, fds[MAX_RINGS], nr = 0, ret = 0;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	void *rings[MAX_RINGS];
	unsigned char *buf = NULL;
	size_t len = 0;
	pid_t pid;
	char c;

	memset(cap, 0, sizeof(*cap));
	if (ncpus < 1 || ncpus > MAX_RINGS)
		return -ERANGE;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		/* Wait until the events are attached, then exec (which enables them). */
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	close(go[0]);

	/*
	 * An inherited per-task event cannot be mmap()ed: follow children with
	 * one event per CPU, as perf record does.
	 */
	attr->inherit = inherit;
	for (long cpu = inherit ? 0 : -1; cpu < (inherit ? ncpus : 0); cpu++) {
		fds[nr] = syscall(SYS_perf_event_open, attr, pid, cpu, -1,
				  PERF_FLAG_FD_CLOEXEC);
		if (fds[nr] < 0) {
			ret = -errno;
			break;
		}
		rings[nr] = mmap(NULL, ring_size, PROT_READ | PROT_WRITE, MAP_SHARED,
				 fds[nr], 0);
		if (rings[nr] == MAP_FAILED) {
			ret = -errno;
			close(fds[nr]);
			break;
		}
		nr++;
	}
	while (!ret && nr_open < nr_extra) {
		if (nr_extra > MAX_RINGS) {
			ret = -E2BIG;
			break;
		}
		extra_fds[nr_open] = syscall(SYS_perf_event_open, &extra[nr_open], pid, -1, -1,
					     PERF_FLAG_FD_CLOEXEC);
		if (extra_fds[nr_open] < 0) {
			ret = -errno;
			break;
		}
		nr_open++;
	}
	if (ret || write(go[1], "g", 1) != 1)
		kill(pid, SIGKILL);
	close(go[1]);
	if (waitpid(pid, &status, 0) != pid)
		status = -1;
	cap->exit_status = status;

	for (unsigned int i = 0; i < nr_open; i++) {
		if (read(extra_fds[i], &counts[i], sizeof(counts[i])) != sizeof(counts[i]) &&
		    !ret)
			ret = -EIO;
		close(extra_fds[i]);
	}
	for (int i = 0; i < nr; i++) {
		if (!ret)
			ret = read_ring(rings[i], ring_size - page, &buf, &len);
		munmap(rings[i], ring_size);
		close(fds[i]);
	}
	if (!ret)
		ret = parse_records(cap, buf, len, false);
	if (!ret)
		ret = parse_records(cap, buf, len, true);
	free(buf);
	return ret;
}

int chain_attach(struct chain_capture *cap, struct perf_event_attr *attr, pid_t pid,
		 pid_t child, void (*attached)(void *arg), void *arg)
{
	size_t page = sysconf(_SC_PAGESIZE);
	size_t ring_size = (CHAIN_RING_PAGES + 1) * page;
	unsigned char *buf = NULL;
	int fd, status, ret = 0;
	size_t len = 0;
	void *ring;

	memset(cap, 0, sizeof(*cap));
	attr->disabled = 0;
	attr->enable_on_exec = 0;
	attr->inherit = 0;
	fd = syscall(SYS_perf_event_open, attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
		return ret;
	}
	ring = mmap(NULL, ring_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		ret = -errno;
		kill(child, SIGKILL);
	} else {
		attached(arg);
	}
	if (waitpid(child, &status, 0) != child)
		status = -1;
	cap->exit_status = status;
	if (ring != MAP_FAILED) {
		if (!ret)
			ret = read_ring(ring, ring_size - page, &buf, &len);
		munmap(ring, ring_size);
	}
	close(fd);
	if (!ret)
		ret = parse_records(cap, buf, len, false);
	if (!ret)
		ret = parse_records(cap, buf, len, true);
	free(buf);
	return ret;
}

/* The executable mappings of @pid, from /proc/<pid>/maps, into @cap. */
static int read_proc_maps(struct chain_capture *cap, pid_t pid)
{
	unsigned long long start, end, pgoff;
	char path[64], line[512], perms[8];
	struct chain_mmap *cm;
	FILE *f;
	int pos;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &pgoff,
			   &pos) != 4 || perms[2] != 'x')
			continue;
		if (cap->nr_maps >= sizeof(cap->maps) / sizeof(cap->maps[0])) {
			fclose(f);
			return -E2BIG;
		}
		line[strcspn(line, "\n")] = '\0';
		cm = &cap->maps[cap->nr_maps++];
		cm->pid = pid;
		cm->start = start;
		cm->len = end - start;
		cm->pgoff = pgoff;
		snprintf(cm->path, sizeof(cm->path), "%s", line + pos);
	}
	fclose(f);
	return 0;
}

int chain_attach_tasks(struct chain_capture *cap, struct perf_event_attr *attr,
		       const pid_t *pids, unsigned int nr_pids, bool system_wide,
		       void (*attached)(void *arg), void *arg, int *status)
{
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t page = sysconf(_SC_PAGESIZE);
	size_t ring_size = (CHAIN_RING_PAGES + 1) * page;
	unsigned int nr_events = system_wide ? ncpus : nr_pids;
	int fds[MAX_RINGS], nr = 0, ret = 0;
	unsigned char *buf = NULL;
	void *rings[MAX_RINGS];
	size_t len = 0;

	memset(cap, 0, sizeof(*cap));
	if (ncpus < 1 || nr_events < 1 || nr_events > MAX_RINGS)
		return -ERANGE;
	attr->disabled = 0;
	attr->enable_on_exec = 0;
	attr->inherit = 0;
	while (nr < (int)nr_events) {
		fds[nr] = syscall(SYS_perf_event_open, attr, system_wide ? -1 : pids[nr],
				  system_wide ? nr : -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[nr] < 0) {
			ret = -errno;
			break;
		}
		rings[nr] = mmap(NULL, ring_size, PROT_READ | PROT_WRITE, MAP_SHARED,
				 fds[nr], 0);
		if (rings[nr] == MAP_FAILED) {
			ret = -errno;
			close(fds[nr]);
			break;
		}
		nr++;
	}
	/* What was mapped before the events opened; what came since, they report. */
	for (unsigned int i = 0; !ret && i < nr_pids; i++)
		ret = read_proc_maps(cap, pids[i]);
	if (!ret) {
		attached(arg);
	} else {
		for (unsigned int i = 0; i < nr_pids; i++)
			kill(pids[i], SIGKILL);
	}
	for (unsigned int i = 0; i < nr_pids; i++)
		if (waitpid(pids[i], &status[i], 0) != pids[i])
			status[i] = -1;
	for (int i = 0; i < nr; i++) {
		if (!ret)
			ret = read_ring(rings[i], ring_size - page, &buf, &len);
		munmap(rings[i], ring_size);
		close(fds[i]);
	}
	if (!ret)
		ret = parse_records(cap, buf, len, false);
	if (!ret)
		ret = parse_records(cap, buf, len, true);
	free(buf);
	return ret;
}

void chain_free(struct chain_capture *cap)
{
	free(cap->samples);
	memset(cap, 0, sizeof(*cap));
}

static const struct chain_mmap *find_map(const struct chain_capture *cap, unsigned int nr_maps,
					 uint32_t pid, uint64_t ip)
{
	/* The newest mapping wins: an address range can be mapped again. */
	for (unsigned int i = nr_maps; i-- > 0;) {
		const struct chain_mmap *m = &cap->maps[i];

		if ((!pid || m->pid == pid) && ip >= m->start && ip - m->start < m->len)
			return m;
	}
	return NULL;
}

const struct chain_mmap *chain_find_map(const struct chain_capture *cap,
					uint32_t pid, uint64_t ip)
{
	return find_map(cap, cap->nr_maps, pid, ip);
}

const struct chain_mmap *chain_find_map_at(const struct chain_capture *cap,
					   const struct chain_sample *s, uint64_t ip)
{
	return find_map(cap, s->nr_maps, s->pid, ip);
}
