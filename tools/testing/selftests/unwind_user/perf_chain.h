/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Run a program under a perf event with deferred user callchains
 * (attr.defer_callchain) and collect each sample's user callchain, as the
 * kernel reports it in PERF_RECORD_CALLCHAIN_DEFERRED, with the program's
 * mappings (PERF_RECORD_MMAP2) to symbolize it.  Uses perf_event_open()
 * directly: no perf tool.
 */
#ifndef UNWIND_USER_PERF_CHAIN_H
#define UNWIND_USER_PERF_CHAIN_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define CHAIN_MAX_IPS	512

struct chain_sample {
	uint32_t pid, tid;
	uint64_t ip;		/* PERF_SAMPLE_IP: where the event fired */
	uint64_t cookie;	/* from the PERF_CONTEXT_USER_DEFERRED entry */
	bool deferred;		/* the sample announced a deferred chain */
	bool resolved;		/* ...and its PERF_RECORD_CALLCHAIN_DEFERRED came */
	unsigned int nr_maps;	/* chain_capture.nr_maps when the sample came */
	unsigned int nr;
	uint64_t ips[CHAIN_MAX_IPS];
};

struct chain_mmap {
	uint32_t pid;
	uint64_t start, len, pgoff;
	char path[256];
};

struct chain_capture {
	struct chain_sample *samples;
	unsigned int nr_samples;
	struct chain_mmap maps[256];
	unsigned int nr_maps;
	unsigned int nr_deferred;	/* PERF_RECORD_CALLCHAIN_DEFERRED seen */
	uint64_t lost;
	int exit_status;		/* the program's, from waitpid() */
};

/* perf_event_attr for a uprobe at @offset of @path (uprobe PMU), or -1. */
int chain_attr_uprobe(struct perf_event_attr *attr, const char *path, uint64_t offset);
/* The same for a uretprobe there, the uprobe PMU's "retprobe" format bit set: 0, or -1. */
int chain_attr_uretprobe(struct perf_event_attr *attr, const char *path, uint64_t offset);
/*
 * A uretprobe there that only counts (chain_run_extra()): it changes the
 * stack the samples see, and takes no samples of its own.  0, or -1.
 */
int chain_attr_uretprobe_count(struct perf_event_attr *attr, const char *path,
			       uint64_t offset);
/* perf_event_attr for the cpu-clock software event, one sample per @period_ns. */
void chain_attr_cpu_clock(struct perf_event_attr *attr, uint64_t period_ns);

/*
 * Run argv[0] with @attr attached to it from its exec on (and to its
 * children when @inherit), wait for it, and fill @cap.  0 or -errno.
 */
int chain_run(struct chain_capture *cap, struct perf_event_attr *attr,
	      char *const argv[], bool inherit);
/*
 * The same, with @nr_extra more events (@extra) attached to the program
 * only (not to its children), for counting: their counts go to @counts.
 * A uretprobe, say, whose presence changes the stack the samples see.
 */
int chain_run_extra(struct chain_capture *cap, struct perf_event_attr *attr,
		    char *const argv[], bool inherit, struct perf_event_attr *extra,
		    unsigned int nr_extra, uint64_t *counts);
/*
 * Attach @attr to the running task @pid (its threads and children not
 * included), call @attached(@arg), wait for the process @child (which @pid
 * is, or runs in), and fill @cap.  For programs whose code is not mapped
 * for good when they exec (a uprobe set then would never be installed).
 */
int chain_attach(struct chain_capture *cap, struct perf_event_attr *attr, pid_t pid,
		 pid_t child, void (*attached)(void *arg), void *arg);
/*
 * Sample processes that are running already: an event on each of the
 * @nr_pids tasks @pids (or, @system_wide, one on each online CPU for every
 * task), whose executable mappings so far are read from /proc/<pid>/maps
 * (the events report only the mappings made after they open).  Then call
 * @attached(@arg), which lets the programs run to their end, wait for each
 * (children of the caller; their status in @status[]), and fill @cap.
 */
int chain_attach_tasks(struct chain_capture *cap, struct perf_event_attr *attr,
		       const pid_t *pids, unsigned int nr_pids, bool system_wide,
		       void (*attached)(void *arg), void *arg, int *status);
void chain_free(struct chain_capture *cap);

/* The mapping of @pid (0: any) that holds @ip, or NULL. */
const struct chain_mmap *chain_find_map(const struct chain_capture *cap,
					uint32_t pid, uint64_t ip);
/*
 * The same, as it was when sample @s was taken: a range unmapped and mapped
 * again later (dlclose, dlopen) names what was there at the time.
 */
const struct chain_mmap *chain_find_map_at(const struct chain_capture *cap,
					   const struct chain_sample *s, uint64_t ip);

#endif
