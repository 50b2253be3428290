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
 * "warm N" walks N times; "cold N" also empties the task's frame cache
 * before each walk (outside the timed part), so that every frame is a
 * table lookup.  Reading the file gives the figures of the writer's last
 * run: "walks W frames F ns N", frames being those of one walk and ns the
 * time of all W walks.  Which unwinder the walk uses is the task's affair:
 * with no table registered it is the frame-pointer walk.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/unwind_user.h>
#include <linux/unwind_user_registry.h>

#define BENCH_MAX_FRAMES	128
#define BENCH_MAX_WALKS		1000000

static DEFINE_MUTEX(bench_lock);
static unsigned long bench_walks, bench_frames;
static u64 bench_ns;

static ssize_t bench_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct unwind_stacktrace trace;
	unsigned long walks, i;
	char buf[32], mode[8];
	u64 ns = 0, t0;
	bool cold;
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%7s %lu", mode, &walks) != 2 || !walks ||
	    walks > BENCH_MAX_WALKS)
		return -EINVAL;
	if (!strcmp(mode, "cold"))
		cold = true;
	else if (!strcmp(mode, "warm"))
		cold = false;
	else
		return -EINVAL;

	trace.entries = kmalloc_array(BENCH_MAX_FRAMES, sizeof(long),
				      GFP_KERNEL);
	if (!trace.entries)
		return -ENOMEM;

	ret = 0;
	for (i = 0; i < walks; i++) {
		if (cold) {
			ret = unwind_user_cache_flush(current->mm);
			if (ret)
				break;
		}
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
	mutex_unlock(&bench_lock);
	return count;
}

static ssize_t bench_read(struct file *file, char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	char buf[96];
	int len;

	mutex_lock(&bench_lock);
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
	struct dentry *dir = debugfs_create_dir("unwind_user", NULL);

	debugfs_create_file("bench", 0600, dir, NULL, &bench_fops);
	return 0;
}
late_initcall(unwind_user_bench_init);
