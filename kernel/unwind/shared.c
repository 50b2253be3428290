// SPDX-License-Identifier: GPL-2.0
/*
 * Decoded frames shared by the processes of one user that map the same file.
 *
 * The frame cache of an mm (cache.c) starts empty, so every new process
 * decodes FDEs and runs CFI for the same libc, ld.so and compiler again:
 * under "perf record -a" of a build, most samples are a new process's.
 * What a table lookup finds for a pc depends on nothing but the bytes of
 * the table and the pc's distance from it, when the table's addresses are
 * relative: the rules are relative to registers, and a load bias is a
 * multiple of the page size (the one reading of the pc that CFI
 * expressions make, in PLT entries, is of its offset in a 16-byte entry).
 * So the frames of a table mapped from a file, found there by the kernel
 * (discover.c) or registered by the loader, are also kept here, in one
 * cache of fixed size, keyed by the pc's offset from the table and a tag
 * that names the file's contents, the table, and who looks: a keyed hash
 * (siphash, a key drawn at boot) of the file's device, inode number,
 * generation and i_version when its headers were read (or the registration
 * went in), the table's file offset and its bounds; then of that and the
 * looking task's effective uid and user namespace.  A file written since
 * gets another tag, and fresh decodes.  Rows are values: nothing holds a
 * file or an mm, nothing needs freeing when the last user goes, and the
 * memory is bounded by the size, UNWIND_USER_SHARED_BITS (8192 rows of 56
 * bytes, some 460 KiB on 64-bit), allocated at the first row and never
 * charged to one process's memory cgroup.
 *
 * Who can make whose frames wrong, and what a row may tell:
 *  - A process can always make its own frames wrong (it can write its
 *    stack), and whoever can write a file controls the code of every
 *    process that maps it.  Neither is guarded against here.
 *  - Nobody else may: a row is found only by processes of the user (the
 *    effective uid, in the same user namespace) whose process decoded it,
 *    so one user neither poisons another's frames nor learns, from how
 *    fast a lookup is, which code another user's processes ran.
 *  - Within one user, a row must still be what the file's bytes say, or a
 *    process that wrote its own copy of a library would break the frames
 *    of its siblings.  So a file is shared only while the kernel counts
 *    its changes itself (IS_I_VERSION: not a FUSE file, whose identity its
 *    server chooses and may present again for other bytes, after a
 *    remount, under the same device number; nor a network file), and
 *    while nobody has it open for writing (stores through a shared
 *    writable mapping are not counted); a table whose addresses are
 *    absolute (an FDE encoded DW_EH_PE_absptr, as from a CIE without 'R',
 *    or such a search table) is never shared: what it says of pc - base
 *    depends on where it is mapped.
 *
 * The bytes are read through the mm that looks them up, which may have
 * written its own copy of them.  A row is shared only when what it was
 * decoded from must be the file's bytes:
 *  - the header the entry holds is read again and is the same;
 *  - then every VMA over the header and .eh_frame maps that file at the
 *    same distance, has no anonymous pages (no anon_vma: a private page
 *    written, by the process or by ptrace, gets one before its new bytes
 *    can be read), and the file's i_version is still the one in the tag,
 *    with no writer;
 *  - and no VMA changed between the start of the lookup and that check
 *    (the mmap lock's sequence count, as uprobes reads it; a kernel
 *    without CONFIG_PER_VMA_LOCK has none, and shares nothing);
 *  - the decode read every CIE afresh: an entry's CIE cache may hold what
 *    an earlier lookup, or a fork relative sharing the entry, read from a
 *    written copy.  The index may steer the search wrong only into a miss:
 *    the FDE found must cover the pc, and it is read from the file's bytes.
 * Anything else (a written page, a lock that could not be taken without
 * waiting) keeps the row in the mm's own cache, as before.  Tables in
 * anonymous memory (JIT code, images a loader copied) and the vDSO's are
 * never shared.
 *
 * That no FDE covers a pc depends on the same bytes, and is shared as a
 * row that says so, once a search of the table's own header, without the
 * entry's index (which a fork relative may have built from a copy it
 * wrote), found nothing either.
 *
 * A lookup here is a few loads under RCU and the cache's sequence counts:
 * no reference on the entry, no lock.  A walk notes the table of its last
 * shared frame; while the registry's generation says no entry went, the
 * next frame in the same text needs no look in the registry at all.  Its
 * cost to the walk's budget is what the decode that found it cost, as for
 * the mm's cache.
 *
 * kernel.unwind_tables_share (default 1) turns it off: lookups miss and
 * nothing is shared.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/iversion.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/siphash.h>
#include <linux/sysctl.h>
#include <linux/unwind_user.h>
#include <linux/unwind_user_registry.h>

#include "cache.h"
#include "eh_frame.h"
#include "registry.h"
#include "shared.h"

/* kernel.unwind_tables_share */
static int unwind_tables_share = 1;

/* VMAs a table may span and still be shared: one or two in practice. */
#define SHARED_MAX_VMAS		8

static siphash_aligned_key_t shared_key;

/* NULL until the first row, then the cache or ERR_PTR(-ENOMEM). */
static struct unwind_user_cache *shared_cache;

enum {
	SHARED_INSERTED,	/* rows decoded and shared */
	SHARED_REFUSED,		/* rows kept by their mm only */
	SHARED_NR,
};

static atomic_long_t shared_stats[SHARED_NR];

bool unwind_user_shared_enabled(void)
{
	return READ_ONCE(unwind_tables_share);
}

/*
 * May the frames of @inode's tables be shared, from its bytes as they are
 * now?  Only when the kernel itself counts the file's changes (i_version:
 * ext4, xfs, btrfs, tmpfs; not FUSE, whose server picks the identity a
 * file shows, nor 9p or NFS), and while nobody has it open for writing: a
 * store through a shared writable mapping changes bytes without counting.
 */
static bool shared_inode_tracked(const struct inode *inode)
{
	return IS_I_VERSION(inode) && !inode_is_open_for_write(inode);
}

/**
 * unwind_user_share_id - note which file a table is read from
 * @s:		to fill in; its tag stays 0 until unwind_user_share_set()
 * @file:	the file, before any of it is read
 */
void unwind_user_share_id(struct unwind_user_share *s, const struct file *file)
{
	struct inode *inode = file_inode(file);

	memset(s, 0, sizeof(*s));
	if (!shared_inode_tracked(inode))
		return;
	s->tracked = true;
	s->ino = inode->i_ino;
	s->dev = inode->i_sb->s_dev;
	s->generation = inode->i_generation;
	/* Queried: the next change of the file must count. */
	s->version = inode_query_iversion(inode);
}

/**
 * unwind_user_share_set - name the table of a file that @s identifies
 * @s:		from unwind_user_share_id()
 * @sec:	the table, at its address (rows are kept by pc - hdr_start)
 * @delta:	its address minus its file offset
 *
 * The tag holds the table's bounds too, relative to its header: a lookup
 * reads only the file's bytes within them, so two entries with one tag
 * decode the same frame for a pc, whoever set their bounds.
 */
void unwind_user_share_set(struct unwind_user_share *s,
			   const struct eh_frame_section *sec,
			   unsigned long delta)
{
	unsigned long base = sec->hdr_start;
	u64 id[10] = {
		s->ino,
		(u64)s->dev << 32 | s->generation,
		s->version,
		base - delta,
		sec->hdr_end - base,
		sec->text_start - base,
		sec->text_end - base,
		sec->eh_frame_start - base,
		sec->eh_frame_end - base,
		sec->ptr_size,
	};

	s->base = base;
	s->delta = delta;
	/* 0 is "not shared", and what an empty row holds. */
	s->tag = s->tracked ? siphash(id, sizeof(id), &shared_key) ?: 1 : 0;
}

/*
 * The tag of @tag's rows for current: each user, in each user namespace,
 * has rows of its own.  Nothing another one decoded is found, and a lookup
 * says nothing (by its speed) about what other users' processes ran.
 */
static u64 shared_scoped(u64 tag)
{
	const struct cred *cred = current_cred();

	return siphash_3u64(tag, __kuid_val(cred->euid),
			    (unsigned long)cred->user_ns, &shared_key) ?: 1;
}

/**
 * unwind_user_shared_lookup - the frame another process found for a pc
 * @tag:	the entry's share.tag, 0 if it shares nothing
 * @base:	its share.base
 * @pc:		the pc, in the entry's text
 * @ws:		the task's word size
 * @frame:	the rules, on a hit
 * @cost:	what the decode that found them cost its walk, on a hit
 *
 * Never sleeps, takes no lock.
 *
 * Return: true on a hit.
 */
bool unwind_user_shared_lookup(u64 tag, unsigned long base, unsigned long pc,
			       unsigned int ws, struct unwind_user_frame *frame,
			       unsigned int *cost)
{
	struct unwind_user_cache *cache = READ_ONCE(shared_cache);

	if (!tag || IS_ERR_OR_NULL(cache) || !unwind_user_shared_enabled())
		return false;
	return unwind_user_cache_lookup(cache, pc - base, ws, shared_scoped(tag),
					frame, cost);
}

/**
 * unwind_user_shared_begin - start a decode that may be shared
 * @mm:		current's mm
 * @seq:	for unwind_user_shared_insert()
 *
 * Return: false when its row could not be shared whatever it reads.
 */
bool unwind_user_shared_begin(struct mm_struct *mm, unsigned int *seq)
{
	return unwind_user_shared_enabled() &&
	       mmap_lock_speculate_try_begin(mm, seq);
}

/* Is every byte of [start, end) @s's file, at @s's distance, unwritten? */
static bool shared_range_is_file(struct mm_struct *mm,
				 const struct unwind_user_share *s,
				 unsigned long start, unsigned long end)
{
	VMA_ITERATOR(vmi, mm, start);
	const struct vm_area_struct *vma;
	struct inode *inode;
	unsigned long addr = start;
	unsigned int n = 0;

	for_each_vma_range(vmi, vma, end) {
		if (vma->vm_start > addr || ++n > SHARED_MAX_VMAS)
			return false;
		if (!vma->vm_file || READ_ONCE(vma->anon_vma) ||
		    vma->vm_start - (vma->vm_pgoff << PAGE_SHIFT) != s->delta)
			return false;
		inode = file_inode(vma->vm_file);
		if (inode->i_ino != s->ino || inode->i_sb->s_dev != s->dev ||
		    inode->i_generation != s->generation ||
		    !shared_inode_tracked(inode) ||
		    inode_query_iversion(inode) != s->version)
			return false;
		addr = vma->vm_end;
	}
	return addr >= end;
}

/* The entry's header, read again: is it what the entry was made from? */
static bool shared_header_same(const struct eh_frame_section *sec)
{
	struct unwind_user_eh_frame desc = {
		.text_start	= sec->text_start,
		.text_end	= sec->text_end,
		.eh_frame_start	= sec->eh_frame_start,
		.eh_frame_end	= sec->eh_frame_end,
		.hdr_start	= sec->hdr_start,
		.hdr_end	= sec->hdr_end,
		.ptr_size	= sec->ptr_size,
	};
	struct eh_frame_section again;

	if (!sec->hdr_start || eh_frame_section_init(&again, &desc, NULL))
		return false;
	return again.eh_frame_start == sec->eh_frame_start &&
	       again.table == sec->table && again.fde_count == sec->fde_count &&
	       again.table_enc == sec->table_enc &&
	       again.table_entry_size == sec->table_entry_size;
}

static struct unwind_user_cache *shared_cache_get(void)
{
	struct unwind_user_cache *cache = READ_ONCE(shared_cache), *new, *old;

	if (cache)
		return cache;
	new = unwind_user_cache_alloc_tagged(UNWIND_USER_SHARED_BITS);
	cache = new ?: ERR_PTR(-ENOMEM);
	old = cmpxchg(&shared_cache, NULL, cache);
	if (old) {
		unwind_user_cache_free(new);
		cache = old;
	}
	return cache;
}

/**
 * unwind_user_shared_insert - share what a decode found, if it may be
 * @mm:		current's mm, which the decode read
 * @s:		the entry's
 * @sec:	the entry's table, as the decode used it
 * @seq:	from unwind_user_shared_begin() before the decode
 * @pc:		the pc looked up
 * @ws:		the task's word size
 * @frame:	what the decode found
 * @cost:	what it cost the walk
 * @header_checked: in: the entry's header was found to be the file's
 *		already; out: it has been now
 *
 * May fault (the header is read again); never waits for the mmap lock.
 *
 * Return: true when the row is shared; else the caller keeps it itself.
 */
bool unwind_user_shared_insert(struct mm_struct *mm,
			       const struct unwind_user_share *s,
			       const struct eh_frame_section *sec,
			       unsigned int seq, unsigned long pc,
			       unsigned int ws,
			       const struct unwind_user_frame *frame,
			       unsigned int cost, bool *header_checked)
{
	struct unwind_user_cache *cache;
	bool ok;

	if (!s->tag)
		return false;
	/*
	 * Read first, checked after: see the comment at the top.  A header
	 * found to be the file's once stays so: the entry keeps what it read.
	 */
	ok = *header_checked || shared_header_same(sec);
	if (ok && mmap_read_trylock(mm)) {
		ok = !mmap_lock_speculate_retry(mm, seq) &&
		     shared_range_is_file(mm, s,
					  min(sec->hdr_start, sec->eh_frame_start),
					  max(sec->hdr_end, sec->eh_frame_end));
		mmap_read_unlock(mm);
	} else {
		ok = false;
	}
	if (ok)
		*header_checked = true;
	cache = ok ? shared_cache_get() : NULL;
	if (IS_ERR_OR_NULL(cache)) {
		atomic_long_inc(&shared_stats[SHARED_REFUSED]);
		return false;
	}
	unwind_user_cache_insert(cache, pc - s->base, ws, shared_scoped(s->tag),
				 frame, cost);
	atomic_long_inc(&shared_stats[SHARED_INSERTED]);
	return true;
}

/* For benchmarks: forget every shared row. */
void unwind_user_shared_flush(void)
{
	struct unwind_user_cache *cache = READ_ONCE(shared_cache);

	if (!IS_ERR_OR_NULL(cache))
		unwind_user_cache_clear(cache);
}

static int shared_stats_show(struct seq_file *m, void *v)
{
	struct unwind_user_cache *cache = READ_ONCE(shared_cache);
	struct unwind_user_cache_stats stats = {};

	if (!IS_ERR_OR_NULL(cache))
		unwind_user_cache_get_stats(cache, &stats);
	seq_printf(m, "rows %lu\nbytes %lu\nhits %lu\nmisses %lu\n",
		   stats.rows, stats.bytes, stats.hits, stats.misses);
	seq_printf(m, "inserted %ld\nrefused %ld\n",
		   atomic_long_read(&shared_stats[SHARED_INSERTED]),
		   atomic_long_read(&shared_stats[SHARED_REFUSED]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(shared_stats);

static const struct ctl_table shared_sysctls[] = {
	{
		.procname	= "unwind_tables_share",
		.data		= &unwind_tables_share,
		.maxlen		= sizeof(unwind_tables_share),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

static int __init unwind_user_shared_init(void)
{
	get_random_bytes(&shared_key, sizeof(shared_key));
	register_sysctl_init("kernel", shared_sysctls);
	debugfs_create_file("shared", 0444, unwind_user_debugfs_dir(), NULL,
			    &shared_stats_fops);
	return 0;
}
late_initcall(unwind_user_shared_init);
