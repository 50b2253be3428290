// SPDX-License-Identifier: GPL-2.0
/*
 * A benchmark hook for the user unwinder (CONFIG_UNWIND_USER_BENCH, for
 * testing only): /sys/kernel/debug/unwind_user/bench unwinds the user stack
 * of the task that writes it, as the deferred unwinder would at its return
 * to user space, and says how long that took.
 *
 *	echo "warm 1000" > bench; cat bench
 *	echo "cold 1000" > bench; cat bench
 *
 *	echo "uaccess 1000" > bench; cat bench
 *
 * "warm N" walks N times; "cold N" also empties the task's frame cache and
 * the cache that processes share before each walk (outside the timed
 * part), so that every frame is a table lookup; "discover N" forgets,
 * before each walk, every table the kernel found by itself and every
 * shared frame, so that the walk finds them again: the first sample of the
 * first process of its programs, but for the cost of the page cache;
 * "known N" forgets the tables but keeps the shared frames: the first
 * sample of a new process of programs that another process's walks went
 * through already.  Reading the
 * file gives the figures of the writer's last run: "walks W frames F ns N",
 * frames being those of one walk and ns the time of all W walks.  Which
 * unwinder the walk uses is the task's affair: with no table known (and
 * kernel.unwind_tables_discover 0) it is the frame-pointer walk.
 *
 * "warn 1" makes the kernel warn (WARN_ONCE, no more), so that the test
 * harness can show that its scan of the kernel log catches a warning.
 *
 * "uaccess N" times the ways of reading BENCH_UACCESS_BYTES of user memory
 * that a table lookup could use, N times each, on the writer's own stack:
 * one copy_from_user() of all of it, and one user_read_access_begin()
 * window with unsafe_get_user() of each word (what dwarf_read.c chose, as
 * the SFrame series does), with get_user() of each word for reference; it
 * reads "uaccess N copy C window W get_user G", the ns of all N of each.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/unwind_user.h>
#include <linux/unwind_user_registry.h>

#include "registry.h"
#include "shared.h"

#define BENCH_MAX_FRAMES	128
#define BENCH_MAX_WALKS		1000000
/* An FDE read whole: what eh_frame.c's first read of one takes. */
#define BENCH_UACCESS_BYTES	104
#define BENCH_UACCESS_WORDS	DIV_ROUND_UP(BENCH_UACCESS_BYTES, sizeof(long))

static DEFINE_MUTEX(bench_lock);
static unsigned long bench_walks, bench_frames;
static u64 bench_ns;
/* The last "uaccess" run, or 0 */
static unsigned long bench_uaccess_n;
static u64 bench_uaccess_ns[3];

/* The words at @uptr, through one user access window. */
static int bench_read_window(const unsigned long __user *uptr,
			     unsigned long *words)
{
	unsigned int i;

	if (!user_read_access_begin(uptr, BENCH_UACCESS_WORDS * sizeof(long)))
		return -EFAULT;
	for (i = 0; i < BENCH_UACCESS_WORDS; i++)
		unsafe_get_user(words[i], &uptr[i], fault);
	user_read_access_end();
	return 0;
fault:
	user_read_access_end();
	return -EFAULT;
}

static int bench_uaccess(unsigned long n)
{
	struct pt_regs *regs = task_pt_regs(current);
	const unsigned long __user *uptr =
		(const unsigned long __user *)ALIGN(user_stack_pointer(regs),
						    sizeof(long));
	unsigned long words[BENCH_UACCESS_WORDS], i, j;
	u64 ns[3] = {}, t0;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		t0 = ktime_get_ns();
		if (copy_from_user(words, uptr, BENCH_UACCESS_BYTES))
			ret = -EFAULT;
		ns[0] += ktime_get_ns() - t0;

		t0 = ktime_get_ns();
		if (!ret)
			ret = bench_read_window(uptr, words);
		ns[1] += ktime_get_ns() - t0;

		t0 = ktime_get_ns();
		for (j = 0; j < BENCH_UACCESS_WORDS && !ret; j++)
			if (get_user(words[j], &uptr[j]))
				ret = -EFAULT;
		ns[2] += ktime_get_ns() - t0;
		cond_resched();
	}
	if (ret)
		return ret;

	mutex_lock(&bench_lock);
	bench_uaccess_n = n;
	memcpy(bench_uaccess_ns, ns, sizeof(ns));
	mutex_unlock(&bench_lock);
	return 0;
}

static ssize_t bench_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct unwind_stacktrace trace;
	unsigned long walks, i;
	char buf[32], mode[16];
	u64 ns = 0, t0;
	int ret, cold, keep_shared;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%15s %lu", mode, &walks) != 2 || !walks ||
	    walks > BENCH_MAX_WALKS)
		return -EINVAL;
	if (!strcmp(mode, "uaccess")) {
		ret = bench_uaccess(walks);
		return ret ? ret : count;
	}
	if (!strcmp(mode, "warn")) {
		WARN_ONCE(1, "unwind_user: a warning planted through debugfs\n");
		return count;
	}
	keep_shared = !strcmp(mode, "known");
	if (keep_shared || !strcmp(mode, "discover"))
		cold = 2;
	else if (!strcmp(mode, "cold"))
		cold = 1;
	else if (!strcmp(mode, "warm"))
		cold = 0;
	else
		return -EINVAL;

	trace.entries = kmalloc_array(BENCH_MAX_FRAMES, sizeof(long),
				      GFP_KERNEL);
	if (!trace.entries)
		return -ENOMEM;

	ret = 0;
	for (i = 0; i < walks; i++) {
		if (cold == 2)
			ret = unwind_user_forget_found(current->mm);
		else if (cold)
			ret = unwind_user_cache_flush(current->mm);
		if (ret)
			break;
		if (cold && !keep_shared)
			unwind_user_shared_flush();
		t0 = ktime_get_ns();
		unwind_user(&trace, BENCH_MAX_FRAMES);
		ns += ktime_get_ns() - t0;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	kfree(trace.entries);
	if (ret)
		return ret;

	mutex_lock(&bench_lock);
	bench_walks = walks;
	bench_frames = trace.nr;
	bench_ns = ns;
	bench_uaccess_n = 0;
	mutex_unlock(&bench_lock);
	return count;
}

static ssize_t bench_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	char buf[128];
	int len;

	mutex_lock(&bench_lock);
	if (bench_uaccess_n)
		len = scnprintf(buf, sizeof(buf),
				"uaccess %lu copy %llu window %llu get_user %llu\n",
				bench_uaccess_n, bench_uaccess_ns[0],
				bench_uaccess_ns[1], bench_uaccess_ns[2]);
	else
		len = scnprintf(buf, sizeof(buf), "walks %lu frames %lu ns %llu\n",
				bench_walks, bench_frames, bench_ns);
	mutex_unlock(&bench_lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations bench_fops = {
	.owner	= THIS_MODULE,
	.write	= bench_write,
	.read	= bench_read,
	.llseek	= default_llseek,
};

static int __init unwind_user_bench_init(void)
{
	debugfs_create_file("bench", 0600, unwind_user_debugfs_dir(), NULL,
			    &bench_fops);
	return 0;
}
late_initcall(unwind_user_bench_init);
