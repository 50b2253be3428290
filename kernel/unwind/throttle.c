// SPDX-License-Identifier: GPL-2.0
/*
 * The share of a task's CPU time that walks of its user stack may take.
 *
 * A deferred walk runs in the sampled task, on its way back to user space,
 * and its time counts as the task's.  With unwind tables a walk costs more
 * than a frame-pointer walk, and what it costs depends on the tables: a
 * cold index over a large table, a chain of hundreds of frames, discovery
 * of a new library.  At a high sampling rate that could leave the task
 * little time for its own code, and nothing would say why.  So, as perf
 * bounds the CPU time of its sampling interrupts
 * (kernel.perf_cpu_time_max_percent), the walks of each task are bounded:
 * they may take kernel.unwind_user_cpu_time_max_percent of its CPU time.
 *
 * Each task has a credit of walking time: it earns that share of the CPU
 * time it runs, up to the share of UNWIND_USER_CPU_WINDOW (a new task
 * starts with that much, for its first walks, which find the tables), and
 * each walk spends what it took.  A walk that starts without credit uses
 * only the tables found and indexed so far: a discovery probe or an index
 * build (each may read a file's headers or a whole table) is what may be
 * expensive, and the walk ends where one would be needed, rather than
 * guess with frame pointers through code built without them.  In a
 * program whose objects were met before, that is the whole chain.  Walks
 * still cost (a deep stack, at a high rate, under emulation): when they
 * have taken another window's share beyond the credit, a walk gives the
 * task's ip alone, which costs nothing to speak of, until the task has
 * earned credit again.  Each kind is counted, per mm in
 * /proc/<pid>/unwind_tables and in debugfs unwind_user/walks, so that a
 * chain cut short says why.  Over any stretch of a task's life its walks
 * take at most the share of its CPU time, plus twice the share of
 * UNWIND_USER_CPU_WINDOW, plus one walk.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/sysctl.h>
#include <linux/time64.h>
#include <linux/unwind_deferred_types.h>
#include <linux/unwind_user_registry.h>

#include "registry.h"

/* kernel.unwind_user_cpu_time_max_percent: 0 or 100 lifts the bound. */
static int unwind_user_cpu_max_percent = 25;

/* The stretch of CPU time over which a task may spend its share at once. */
#define UNWIND_USER_CPU_WINDOW	(100 * NSEC_PER_MSEC)

enum {
	WALKS,		/* walks of tasks with an mm */
	WALKS_KNOWN,	/* ... with the tables known so far: no credit left */
	WALKS_IP,	/* ... giving the ip alone: deep in debt */
	WALKS_NSEC,	/* their time */
	WALKS_NR,
};

static atomic64_t walk_stats[WALKS_NR];

/**
 * unwind_user_walk_begin - start a walk of current's user stack
 * @start:	for unwind_user_walk_end()
 *
 * Return: what the walk may use: unwind tables while the task has credit
 * left, then the tables known so far, then nothing but the ip.
 */
enum unwind_user_walk unwind_user_walk_begin(u64 *start)
{
	struct unwind_task_info *info = &current->unwind_info;
	int pct = READ_ONCE(unwind_user_cpu_max_percent);
	u64 runtime = current->se.sum_exec_runtime;
	s64 cap, earned;

	*start = local_clock();
	if (pct <= 0 || pct >= 100)
		return UNWIND_USER_WALK_TABLES;
	cap = div_u64(UNWIND_USER_CPU_WINDOW * pct, 100);
	if (!info->walk_runtime) {
		info->walk_credit = cap;
	} else {
		/* Earned since the last walk, bounded before the product. */
		earned = min_t(u64, runtime - info->walk_runtime,
			       UNWIND_USER_CPU_WINDOW);
		earned = div_u64(earned * pct, 100);
		info->walk_credit = min(info->walk_credit + earned, cap);
	}
	/* 0 means "never walked". */
	info->walk_runtime = runtime ?: 1;
	if (info->walk_credit > 0)
		return UNWIND_USER_WALK_TABLES;
	if (info->walk_credit > -cap)
		return UNWIND_USER_WALK_KNOWN;
	return UNWIND_USER_WALK_IP;
}

/**
 * unwind_user_walk_end - a walk of current's user stack is over
 * @start:	from unwind_user_walk_begin()
 * @walk:	what it used, as unwind_user_walk_begin() said
 */
void unwind_user_walk_end(u64 start, enum unwind_user_walk walk)
{
	struct unwind_task_info *info = &current->unwind_info;
	struct mm_struct *mm = current->mm;
	u64 took = local_clock() - start;

	info->walk_credit -= min_t(u64, took, UNWIND_USER_CPU_WINDOW);
	atomic64_inc(&walk_stats[WALKS]);
	atomic64_add(took, &walk_stats[WALKS_NSEC]);
	if (walk == UNWIND_USER_WALK_KNOWN)
		atomic64_inc(&walk_stats[WALKS_KNOWN]);
	else if (walk == UNWIND_USER_WALK_IP)
		atomic64_inc(&walk_stats[WALKS_IP]);
	if (!mm)
		return;
	atomic64_inc(&mm->unwind_user_walks);
	atomic64_add(took, &mm->unwind_user_walk_ns);
	if (walk == UNWIND_USER_WALK_KNOWN)
		atomic64_inc(&mm->unwind_user_walks_known);
	else if (walk == UNWIND_USER_WALK_IP)
		atomic64_inc(&mm->unwind_user_walks_ip);
}

/* For /proc/<pid>/unwind_tables. */
void unwind_user_walks_show(struct seq_file *m, struct mm_struct *mm)
{
	u64 walks = atomic64_read(&mm->unwind_user_walks);

	if (walks)
		seq_printf(m, "walks %llu known %llu ip %llu nsec %llu\n", walks,
			   atomic64_read(&mm->unwind_user_walks_known),
			   atomic64_read(&mm->unwind_user_walks_ip),
			   atomic64_read(&mm->unwind_user_walk_ns));
}

static int walk_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "walks %lld\nknown %lld\nip %lld\nnsec %lld\n",
		   atomic64_read(&walk_stats[WALKS]),
		   atomic64_read(&walk_stats[WALKS_KNOWN]),
		   atomic64_read(&walk_stats[WALKS_IP]),
		   atomic64_read(&walk_stats[WALKS_NSEC]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(walk_stats);

static const struct ctl_table throttle_sysctls[] = {
	{
		.procname	= "unwind_user_cpu_time_max_percent",
		.data		= &unwind_user_cpu_max_percent,
		.maxlen		= sizeof(unwind_user_cpu_max_percent),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE_HUNDRED,
	},
};

static int __init unwind_user_throttle_init(void)
{
	register_sysctl_init("kernel", throttle_sysctls);
	debugfs_create_file("walks", 0444, unwind_user_debugfs_dir(), NULL,
			    &walk_stats_fops);
	return 0;
}
late_initcall(unwind_user_throttle_init);
