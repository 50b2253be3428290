// SPDX-License-Identifier: GPL-2.0
/*
 * Find the unwind table of a mapped object at the first walk that needs it.
 *
 * A walk meets a pc that no registry entry covers.  If an executable
 * mapping of a regular file is there, the file's ELF headers say where the
 * object keeps .eh_frame_hdr (elf_table.c); the vDSO's come from the
 * kernel's own image.  What is found is registered as user space would
 * register it, under the same checks; an object with no usable table gets
 * a marker, so that it is not probed again until it is unmapped.
 *
 * The walk runs in task context on the way back to user space and may
 * sleep.  The file is read holding a reference on it and no lock; the
 * entry goes in under the mmap write lock, after checking that the same
 * file is still mapped the same way.  The work is bounded three ways: a
 * probe costs the walk a share of its table budget, an mm makes at most
 * UNWIND_USER_DISCOVER_RATE probes a second, and every read of the file
 * stops at a fatal signal.  Nothing is probed while
 * kernel.unwind_tables_discover is 0.
 */
#include <linux/atomic.h>
#include <linux/buildid.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/sysctl.h>
#include <linux/unwind_user.h>
#include <linux/unwind_user_registry.h>

#include "elf_table.h"
#include "registry.h"
#include "shared.h"

/* kernel.unwind_tables_discover */
static int unwind_tables_discover = 1;

/*
 * What a probe costs the walk's table budget: at most eight a walk, which
 * a first sample through a program and its libraries rarely needs.  Looking
 * at a mapping that is not a file's executable text costs a lookup's worth.
 */
#define UNWIND_USER_DISCOVER_COST	(UNWIND_USER_TABLE_BUDGET / 8)
#define UNWIND_USER_DISCOVER_CHECK_COST	UNWIND_USER_FORMAT_LOOKUP_COST

/*
 * Probes an mm may make per second: what the start of a large program
 * needs, not what a process mapping thousands of unusable files could make
 * every sample pay.
 */
#define UNWIND_USER_DISCOVER_RATE	64

/* The counters of unwind_user/discover in debugfs. */
enum {
	DISCOVER_PROBES,	/* mappings probed */
	DISCOVER_FOUND,		/* tables registered */
	DISCOVER_NONE,		/* markers: no usable table */
	DISCOVER_AGAIN,		/* probes that left nothing, to be retried */
	DISCOVER_LIMITED,	/* probes refused by the rate limit */
	DISCOVER_NR,
};

static atomic_long_t discover_stats[DISCOVER_NR];

/* What the mmap read lock told about the mapping at a pc. */
struct discover_map {
	struct file	*file;		/* a reference, or NULL */
	const void	*image;		/* the kernel's copy of the vDSO */
	unsigned long	image_size;
	unsigned long	start;		/* the VMA */
	unsigned long	end;
	/* File offset @off is at @addr: the pc's page (the vDSO: its start) */
	unsigned long	addr;
	u64		off;
	/* Which file, as it was before the headers were read */
	struct unwind_user_share share;
};

/* Architectures whose vDSO the unwinder cannot read: none. */
bool __weak unwind_user_vdso_image(const struct vm_area_struct *vma,
				   const void **data, unsigned long *size,
				   unsigned long *start)
{
	return false;
}

bool unwind_user_discover_enabled(void)
{
	return READ_ONCE(unwind_tables_discover);
}

/*
 * One more probe in @mm's current second, if it has room.  The count and
 * the second share a word, so that racing threads cannot both start one.
 */
static bool discover_allow(struct mm_struct *mm)
{
	unsigned long second = (jiffies / HZ) << 8, old, new;
	int tries;

	old = atomic_long_read(&mm->unwind_user_probes);
	for (tries = 0; tries < 4; tries++) {
		if ((old & 0xff) >= UNWIND_USER_DISCOVER_RATE &&
		    (old & ~0xffUL) == second)
			return false;
		new = (old & ~0xffUL) == second ? old + 1 : second | 1;
		if (atomic_long_try_cmpxchg(&mm->unwind_user_probes, &old, new))
			return true;
	}
	return false;
}

/*
 * Only regular files are read: a device that allows mmap() may do anything
 * on read().  The mapping proves the file was opened for reading.
 */
static bool discover_file_ok(const struct file *file)
{
	return S_ISREG(file_inode(file)->i_mode) &&
	       (file->f_mode & FMODE_READ);
}

/* Is @vma still the mapping @m describes? */
static bool discover_same(const struct vm_area_struct *vma,
			  const struct discover_map *m)
{
	const void *image = NULL;
	unsigned long size, addr;

	if (!vma || !(vma->vm_flags & VM_EXEC) || vma->vm_file != m->file)
		return false;
	if (m->image)
		return unwind_user_vdso_image(vma, &image, &size, &addr) &&
		       image == m->image && addr == m->addr;
	if (!m->file)
		return true;
	return vma->vm_start - ((u64)vma->vm_pgoff << PAGE_SHIFT) ==
	       m->addr - m->off;
}

/* The executable mapping at @pc: 0, or -ENXIO if there is none. */
static int discover_vma(struct mm_struct *mm, unsigned long pc,
			struct discover_map *m)
{
	struct vm_area_struct *vma;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	if (mmap_read_lock_killable(mm))
		return -EINTR;
	vma = vma_lookup(mm, pc);
	if (!vma || !(vma->vm_flags & VM_EXEC)) {
		ret = -ENXIO;
		goto out;
	}
	m->start = vma->vm_start;
	m->end = vma->vm_end;
	if (unwind_user_vdso_image(vma, &m->image, &m->image_size, &m->addr))
		goto out;
	/*
	 * The page of @pc says which PT_LOAD is there: a VMA may map more
	 * than one (adjacent segments that merged).
	 */
	if (vma->vm_file && discover_file_ok(vma->vm_file)) {
		m->file = get_file(vma->vm_file);
		unwind_user_share_id(&m->share, m->file);
		m->addr = pc & PAGE_MASK;
		m->off = ((u64)vma->vm_pgoff << PAGE_SHIFT) +
			 (m->addr - vma->vm_start);
	}
out:
	mmap_read_unlock(mm);
	return ret;
}

/*
 * The table of the object @m maps, and the kernel's copy of its header for
 * the vDSO.  A file is read from the page cache first, which does no I/O
 * and tells nobody; only a page that is not cached is read from the file.
 */
static int discover_read(const struct discover_map *m,
			 struct unwind_user_eh_frame *desc,
			 const void **hdr_data)
{
	struct elf_table_map map = { .addr = m->addr, .off = m->off };
	struct freader r;
	char buf[64];
	u64 hdr_off;
	int ret;

	*hdr_data = NULL;
	if (m->image) {
		freader_init_from_mem(&r, m->image, m->image_size);
		ret = elf_table_find(&r, &map, desc, &hdr_off);
		if (ret || !desc->hdr_start)
			return ret;
		if (hdr_off > m->image_size ||
		    desc->hdr_end - desc->hdr_start > m->image_size - hdr_off)
			return -ENOEXEC;
		*hdr_data = m->image + hdr_off;
		return 0;
	}
	if (!m->file)
		return -ENOEXEC;

	freader_init_from_file(&r, buf, sizeof(buf), m->file, false);
	ret = elf_table_find(&r, &map, desc, &hdr_off);
	freader_cleanup(&r);
	if (ret != -EFAULT)
		return ret;
	freader_init_from_file(&r, buf, sizeof(buf), m->file, true);
	ret = elf_table_find(&r, &map, desc, &hdr_off);
	freader_cleanup(&r);
	return ret;
}

/* Failures that say nothing about the object: try again later. */
static bool discover_transient(int err)
{
	return err == -ENOMEM || err == -EINTR || err == -EAGAIN;
}

/*
 * Put what was found (*@ep, which the tree takes: then NULL) in, or a
 * marker, if @m still describes the mapping at @pc.  Under the mmap write
 * lock: 0 when something now covers @pc.
 */
static int discover_insert(struct mm_struct *mm, unsigned long pc,
			   const struct discover_map *m,
			   struct unwind_user_entry **ep)
{
	struct vm_area_struct *vma;
	int ret;

	if (mmap_write_lock_killable(mm))
		return -EINTR;
	vma = vma_lookup(mm, pc);
	if (!discover_same(vma, m)) {
		ret = -EAGAIN;
		goto out;
	}
	if (*ep) {
		/* Not the vDSO's: its image is no file. */
		if (m->file)
			unwind_user_entry_share(mm, *ep, m->file, &m->share);
		ret = unwind_user_add_entry_locked(mm, *ep);
		if (!ret) {
			*ep = NULL;
			atomic_long_inc(&discover_stats[DISCOVER_FOUND]);
			goto out;
		}
		if (discover_transient(ret) || ret == -ENOSPC)
			goto out;
		/*
		 * The text or the table is not mapped as the headers say, or a
		 * registration overlaps it: nothing to use around @pc.
		 */
	}
	ret = unwind_user_add_none_locked(mm, pc, vma->vm_start, vma->vm_end);
	if (!ret)
		atomic_long_inc(&discover_stats[DISCOVER_NONE]);
	else if (ret == -EEXIST)
		ret = 0;
out:
	mmap_write_unlock(mm);
	return ret;
}

/**
 * unwind_user_discover - find and register the table of the object at a pc
 * @mm:		current's mm
 * @pc:		a pc that nothing in @mm's registry covers
 * @budget:	what the walk's table lookups may still spend
 *
 * Return: 0 when an entry or a marker may now cover @pc; else a negative
 * errno, and nothing changed: -ENXIO when no executable mapping holds @pc,
 * -ENOENT when there is nothing else to probe (discovery off, budget
 * spent), -EAGAIN when the rate
 * limit or a change of the mapping stopped the probe, -ENOMEM, -EINTR.
 */
int unwind_user_discover(struct mm_struct *mm, unsigned long pc,
			 unsigned int *budget)
{
	struct unwind_user_entry *e = NULL;
	struct unwind_user_eh_frame desc;
	enum unwind_user_origin origin;
	const void *hdr_data;
	struct discover_map m;
	int ret;

	if (!unwind_user_discover_enabled() ||
	    *budget < UNWIND_USER_DISCOVER_COST)
		return -ENOENT;
	*budget -= UNWIND_USER_DISCOVER_CHECK_COST;
	ret = discover_vma(mm, pc, &m);
	if (ret)
		return ret;
	if (!discover_allow(mm)) {
		atomic_long_inc(&discover_stats[DISCOVER_LIMITED]);
		ret = -EAGAIN;
		goto out;
	}
	*budget -= UNWIND_USER_DISCOVER_COST - UNWIND_USER_DISCOVER_CHECK_COST;
	atomic_long_inc(&discover_stats[DISCOVER_PROBES]);

	ret = discover_read(&m, &desc, &hdr_data);
	if (!ret) {
		/* The header is read from user memory, unless it is the vDSO's. */
		origin = m.image ? UNWIND_USER_ORIGIN_VDSO :
				   UNWIND_USER_ORIGIN_FILE;
		e = unwind_user_entry_create(&desc, hdr_data, origin);
		if (IS_ERR(e)) {
			ret = PTR_ERR(e);
			e = NULL;
		}
	}
	/* A fault or a malformed table is the object's: mark it. */
	if (!discover_transient(ret))
		ret = discover_insert(mm, pc, &m, &e);
	if (e)
		unwind_user_entry_discard(e);
	if (ret)
		atomic_long_inc(&discover_stats[DISCOVER_AGAIN]);
out:
	if (m.file)
		fput(m.file);
	return ret;
}

static int discover_stats_show(struct seq_file *m, void *v)
{
	static const char *const names[DISCOVER_NR] = {
		[DISCOVER_PROBES]	= "probes",
		[DISCOVER_FOUND]	= "found",
		[DISCOVER_NONE]		= "none",
		[DISCOVER_AGAIN]	= "again",
		[DISCOVER_LIMITED]	= "limited",
	};
	int i;

	for (i = 0; i < DISCOVER_NR; i++)
		seq_printf(m, "%s %ld\n", names[i],
			   atomic_long_read(&discover_stats[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(discover_stats);

static const struct ctl_table discover_sysctls[] = {
	{
		.procname	= "unwind_tables_discover",
		.data		= &unwind_tables_discover,
		.maxlen		= sizeof(unwind_tables_discover),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

static int __init unwind_user_discover_init(void)
{
	register_sysctl_init("kernel", discover_sysctls);
	debugfs_create_file("discover", 0444, unwind_user_debugfs_dir(), NULL,
			    &discover_stats_fops);
	return 0;
}
late_initcall(unwind_user_discover_init);
