// SPDX-License-Identifier: GPL-2.0
/*
 * Find the unwind table of a mapped object at the first walk that needs it.
 *
 * A walk meets a pc that no registry entry covers.  If an executable
 * mapping of a regular file is there, the file's ELF headers say where the
 * object keeps .eh_frame_hdr (elf_table.c); the vDSO's come from the
 * kernel's own image.  Code of another format, a Windows x64 (PE) image
 * that Wine maps, starts with its headers at its base, mapped from the
 * file or copied into anonymous memory: a short look back from the pc for
 * an "MZ" header with a "PE\0\0" signature finds them, and the format's
 * handler (a module, asked for through a worker the first time) reads the
 * rest.  What is found is registered as user space would register it,
 * under the same checks, for this process alone in the PE case; an object
 * with no usable table, and anonymous code with no header (a JIT's), gets
 * a marker, so that it is not probed again until it is unmapped.
 *
 * The walk runs in task context on the way back to user space, where the
 * sampled task must not do what it did not ask for: discovery reads files
 * only from the page cache and user memory only where it is present, under
 * the mmap lock held for reading.  A header that is not cached is read by a
 * worker instead, and a later sample finds the table; a walk that may not
 * fault (a task that is exiting) does not discover at all.  The entry goes
 * in under the mmap read lock and the registry's own lock, after checking
 * that the same file is still mapped the same way: never the mmap write
 * lock.  The work is bounded three ways: a probe costs the walk a share of
 * its table budget, an mm makes at most UNWIND_USER_DISCOVER_RATE probes a
 * second, and at most UNWIND_USER_DISCOVER_PREFETCH reads wait for a
 * worker.  Nothing is probed while kernel.unwind_tables_discover is 0.
 */
#include <linux/atomic.h>
#include <linux/buildid.h>
#include <linux/debugfs.h>
#include <linux/elf.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/pagemap.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <linux/unwind_user.h>
#include <linux/unwind_user_registry.h>
#include <linux/workqueue.h>

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

/* Reads of headers that were not cached, waiting for the worker at once. */
#define UNWIND_USER_DISCOVER_PREFETCH	8

/*
 * How far back from a pc's mapping a PE image's headers may be: Wine maps
 * an image as one run of mappings, one per section or less, and real
 * images have a dozen sections at most.  A PE32+ image is below 4 GiB.
 */
#define DISCOVER_PE_VMAS		16
#define DISCOVER_PE_SPAN		SZ_4G

/*
 * The first bytes of a file, which say what it is: an ELF header, or the
 * MZ header of a PE image (the least of it the core looks at, see
 * discover_pe_sig()).
 */
#define DISCOVER_HEAD_SIZE		64
#define DISCOVER_MZ_LFANEW		0x3c

/* The counters of unwind_user/discover in debugfs. */
enum {
	DISCOVER_PROBES,	/* mappings probed */
	DISCOVER_FOUND,		/* tables registered */
	DISCOVER_NONE,		/* markers: no usable table */
	DISCOVER_AGAIN,		/* probes that left nothing, to be retried */
	DISCOVER_LIMITED,	/* probes refused by the rate limit */
	DISCOVER_PREFETCHED,	/* headers handed to the worker to read */
	DISCOVER_FOUND_PE,	/* of DISCOVER_FOUND: images of another format */
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
	/* @file is an ELF object */
	bool		elf;
	/* Where the headers of a PE image that holds the pc are, or 0 */
	unsigned long	pe_base;
	/* A file whose first page must be read before the next probe */
	struct file	*prefetch;
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

/* A worker's read of headers that were not in the page cache. */
struct discover_prefetch {
	struct work_struct	work;
	struct file		*file;
	/* An ELF object mapped there, or a PE image's first page */
	struct elf_table_map	map;
	bool			elf;
};

static atomic_t discover_prefetching;

/*
 * Bytes of a header that are not in the page cache, on the sampled task's
 * way: past the end of the file, the header is malformed; else a worker is
 * to read them (-EFAULT).
 */
static int discover_miss(struct freader *r, u64 off, size_t sz)
{
	return off + sz > i_size_read(file_inode(r->file)) ? -ENOEXEC : -EFAULT;
}

/*
 * ... and in the worker: bring [off, off + sz) of the reader's file into
 * the page cache, through the file's own read_folio() as a page fault on a
 * mapping of it would: not read(), which some file systems serve around
 * the page cache (9p without a cache, FUSE direct I/O) and which tells
 * file watchers.
 */
static int discover_fill(struct freader *r, u64 off, size_t sz)
{
	struct address_space *mapping = r->file->f_mapping;
	pgoff_t index = off >> PAGE_SHIFT, last = (off + sz - 1) >> PAGE_SHIFT;
	struct folio *folio;
	int ret = discover_miss(r, off, sz);

	if (ret != -EFAULT)
		return ret;
	if (!mapping->a_ops->read_folio)
		return -EIO;
	/* A fetch is at most a few dozen bytes: one or two pages. */
	for (; index <= last; index++) {
		folio = read_cache_folio(mapping, index, NULL, r->file);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folio_put(folio);
	}
	return 0;
}

/*
 * Read what a probe of the file needs into the page cache: the same reads
 * as the probe, each page it misses brought in.  The worker keeps nothing;
 * the next probe finds the pages.
 */
static void discover_prefetch_work(struct work_struct *work)
{
	struct discover_prefetch *p = container_of(work, typeof(*p), work);
	struct unwind_user_eh_frame desc;
	char buf[DISCOVER_HEAD_SIZE];
	struct freader r;
	u64 hdr_off;

	p->map.miss = discover_fill;
	freader_init_from_file(&r, buf, sizeof(buf), p->file, false);
	if (p->elf)
		elf_table_find(&r, &p->map, &desc, &hdr_off);
	else
		discover_fill(&r, 0, DISCOVER_HEAD_SIZE);
	freader_cleanup(&r);
	fput(p->file);
	kfree(p);
	atomic_dec(&discover_prefetching);
}

/*
 * Hand the read of @file's headers to a worker, within the bound on
 * reads in flight; the next probe of the mapping finds them cached.
 */
static void discover_prefetch(struct file *file, const struct elf_table_map *map)
{
	struct discover_prefetch *p;

	if (atomic_inc_return(&discover_prefetching) > UNWIND_USER_DISCOVER_PREFETCH)
		goto out;
	p = kzalloc_obj(*p, GFP_KERNEL);
	if (!p)
		goto out;
	INIT_WORK(&p->work, discover_prefetch_work);
	p->file = get_file(file);
	if (map) {
		p->map = *map;
		p->elf = true;
	}
	atomic_long_inc(&discover_stats[DISCOVER_PREFETCHED]);
	queue_work(system_unbound_wq, &p->work);
	return;
out:
	atomic_dec(&discover_prefetching);
}

/*
 * The first bytes of @file, from the page cache only.  Safe under the mmap
 * lock: nothing waits for I/O or faults.  0; -EFAULT when not cached.
 */
static int discover_file_head(struct file *file, u8 *head, size_t size)
{
	struct freader r;
	const void *p;
	char buf[DISCOVER_HEAD_SIZE];
	int ret;

	freader_init_from_file(&r, buf, sizeof(buf), file, false);
	p = freader_fetch(&r, 0, size);
	ret = p ? 0 : r.err ? r.err : -EIO;
	if (p)
		memcpy(head, p, size);
	freader_cleanup(&r);
	return ret;
}

/*
 * Is there a PE image's "MZ" header with its "PE\0\0" signature at the
 * start of @vma?  All the core reads of the format: the rest is the
 * handler's.  From the page cache for a file (mapped from offset 0), from
 * memory that is present for anonymous memory: nothing faults, so the
 * mmap lock may be held.  1 or 0; -EFAULT when the bytes are not at hand.
 */
static int discover_pe_sig(struct vm_area_struct *vma)
{
	u8 head[DISCOVER_HEAD_SIZE];
	struct freader r;
	char buf[4];
	const u8 *sig;
	u32 nt;
	int ret;

	if (vma->vm_file) {
		if (vma->vm_pgoff || !discover_file_ok(vma->vm_file))
			return 0;
		ret = discover_file_head(vma->vm_file, head, sizeof(head));
	} else {
		ret = copy_from_user_nofault(head, (const void __user *)vma->vm_start,
					     sizeof(head)) ? -EFAULT : 0;
	}
	if (ret)
		return ret;
	if (head[0] != 'M' || head[1] != 'Z')
		return 0;
	/* The NT headers, within the first page, as every linker puts them. */
	nt = get_unaligned_le32(head + DISCOVER_MZ_LFANEW);
	if (nt < DISCOVER_HEAD_SIZE || nt > PAGE_SIZE - 4)
		return 0;
	if (!vma->vm_file)
		return copy_from_user_nofault(buf, (const void __user *)(vma->vm_start + nt),
					      4) ? -EFAULT : !memcmp(buf, "PE\0\0", 4);
	freader_init_from_file(&r, buf, sizeof(buf), vma->vm_file, false);
	sig = freader_fetch(&r, nt, 4);
	ret = sig ? !memcmp(sig, "PE\0\0", 4) : -EFAULT;
	freader_cleanup(&r);
	return ret;
}

/*
 * Find the headers of a PE image that may hold the pc of @vma: the start
 * of @vma or of one of the mappings right before it.  Under the mmap lock.
 */
static void discover_pe_base(struct mm_struct *mm, struct vm_area_struct *vma,
			     struct discover_map *m)
{
	VMA_ITERATOR(vmi, mm, vma->vm_start);
	unsigned long pc = m->addr, next = vma->vm_end;
	int i, ret;

	/* Positioned on @vma, so that vma_prev() goes to the one before. */
	vma = vma_find(&vmi, vma->vm_end);
	for (i = 0; i < DISCOVER_PE_VMAS && vma; i++, vma = vma_prev(&vmi)) {
		if (vma->vm_end != next || pc - vma->vm_start >= DISCOVER_PE_SPAN)
			break;
		next = vma->vm_start;
		ret = discover_pe_sig(vma);
		if (ret > 0) {
			m->pe_base = vma->vm_start;
			return;
		}
		/* Not cached: the worker reads the file, the next probe looks. */
		if (ret == -EFAULT && vma->vm_file && !m->prefetch)
			m->prefetch = get_file(vma->vm_file);
	}
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
	       (m->addr & PAGE_MASK) - m->off;
}

/*
 * What is mapped at @pc: 0, or -ENXIO if no executable mapping is there.
 * Under the mmap read lock, whose holder may not fault: the bytes it looks
 * at come from the page cache, or from memory that is present.
 */
static int discover_vma(struct mm_struct *mm, unsigned long pc,
			struct discover_map *m)
{
	u8 head[SELFMAG];
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
	m->addr = pc;
	/*
	 * The page of @pc says which PT_LOAD is there: a VMA may map more
	 * than one (adjacent segments that merged).
	 */
	if (vma->vm_file && discover_file_ok(vma->vm_file)) {
		m->file = get_file(vma->vm_file);
		unwind_user_share_id(&m->share, m->file);
		m->off = ((u64)vma->vm_pgoff << PAGE_SHIFT) +
			 ((pc & PAGE_MASK) - vma->vm_start);
		ret = discover_file_head(m->file, head, sizeof(head));
		if (ret == -EFAULT) {
			m->prefetch = get_file(m->file);
			m->elf = true;
			ret = 0;
			goto out;
		}
		m->elf = !ret && !memcmp(head, ELFMAG, SELFMAG);
		ret = 0;
	}
	if (!m->elf)
		discover_pe_base(mm, vma, m);
out:
	mmap_read_unlock(mm);
	return ret;
}

/*
 * The table of the ELF object @m maps, and the kernel's copy of its header
 * for the vDSO.  A file is read from the page cache only: -EFAULT when a
 * page is not there.
 */
static int discover_read(const struct discover_map *m,
			 struct unwind_user_eh_frame *desc,
			 const void **hdr_data)
{
	struct elf_table_map map = {
		.addr = m->addr & PAGE_MASK, .off = m->off, .miss = discover_miss,
	};
	struct freader r;
	char buf[64];
	u64 hdr_off;
	int ret;

	*hdr_data = NULL;
	if (m->image) {
		map.addr = m->addr;
		map.miss = NULL;
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
	freader_init_from_file(&r, buf, sizeof(buf), m->file, false);
	ret = elf_table_find(&r, &map, desc, &hdr_off);
	freader_cleanup(&r);
	if (ret == -EFAULT)
		discover_prefetch(m->file, &map);
	return ret;
}

/*
 * Failures that say nothing lasting about the object: try again later.
 * -EFAULT from the page cache is a header not read yet (a worker reads it).
 */
static bool discover_transient(int err)
{
	return err == -ENOMEM || err == -EINTR || err == -EAGAIN;
}

/* Is @addr mapped from a file, at an offset inside it?  Under the mmap lock. */
static bool discover_in_file(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma = vma_lookup(mm, addr);
	u64 off;

	if (!vma || !vma->vm_file)
		return false;
	off = ((u64)vma->vm_pgoff << PAGE_SHIFT) + (addr - vma->vm_start);
	return off < i_size_read(file_inode(vma->vm_file));
}

/*
 * The entry's header was read through the mapping and the read faulted.
 * On memory that is mapped readable from a file, inside the file, the
 * file failed the read (an I/O error, a soft NFS mount that timed out),
 * which says nothing lasting about the object: -EAGAIN, and a later probe
 * reads it again.  A header not all mapped or not readable, past the end
 * of its file, or in anonymous memory lasts as long as the mapping:
 * -EFAULT, which gets a marker.
 */
static int discover_header_fault(struct mm_struct *mm,
				 const struct unwind_user_eh_frame *desc)
{
	bool io;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	io = unwind_user_range_readable(mm, desc->hdr_start, desc->hdr_end) &&
	     discover_in_file(mm, desc->hdr_start) &&
	     discover_in_file(mm, desc->hdr_end - 1);
	mmap_read_unlock(mm);
	return io ? -EAGAIN : -EFAULT;
}

/*
 * Put what was found (*@ep, which the tree takes: then NULL) in, or a
 * marker, if @m still describes the mapping at @pc.  Under the mmap read
 * lock and the registry's: 0 when something now covers @pc.
 */
static int discover_insert(struct mm_struct *mm, unsigned long pc,
			   const struct discover_map *m,
			   struct unwind_user_entry **ep)
{
	struct vm_area_struct *vma;
	int ret;

	if (unwind_user_registry_lock(mm))
		return -EINTR;
	vma = vma_lookup(mm, pc);
	if (!discover_same(vma, m)) {
		ret = -EAGAIN;
		goto out;
	}
	/*
	 * The text or the table not mapped as the headers say (a hole, or
	 * memory that cannot be read) lasts as long as the mapping: mark it.
	 */
	if (*ep && unwind_user_entry_check_locked(mm, *ep)) {
		unwind_user_entry_discard(*ep);
		*ep = NULL;
	}
	if (*ep) {
		/* Not the vDSO's nor a PE image's: those are this mm's own. */
		if (m->file && m->elf)
			unwind_user_entry_share(mm, *ep, m->file, &m->share);
		ret = unwind_user_add_entry_locked(mm, *ep);
		if (!ret) {
			*ep = NULL;
			atomic_long_inc(&discover_stats[DISCOVER_FOUND]);
			if (!m->elf && !m->image)
				atomic_long_inc(&discover_stats[DISCOVER_FOUND_PE]);
			goto out;
		}
		/*
		 * No memory to insert it: later.  Else the cap is reached or a
		 * registration overlaps it: nothing to use around @pc until the
		 * mapping changes.
		 */
		if (discover_transient(ret))
			goto out;
	}
	ret = unwind_user_add_none_locked(mm, pc, vma->vm_start, vma->vm_end);
	if (!ret)
		atomic_long_inc(&discover_stats[DISCOVER_NONE]);
	else if (ret == -EEXIST)
		ret = 0;
out:
	unwind_user_registry_unlock(mm);
	return ret;
}

/*
 * An entry for a PE image (another format's object) that holds @m's pc,
 * by @fmt, its handler (which the entry takes), or its error.
 */
static int discover_format(const struct discover_map *m,
			   const struct unwind_user_format *fmt,
			   struct unwind_user_entry **ep)
{
	struct unwind_user_entry *e;

	if (IS_ERR(fmt))
		return PTR_ERR(fmt);
	e = unwind_user_entry_create_format(fmt, m->pe_base,
					    min(m->pe_base + DISCOVER_PE_SPAN,
						TASK_SIZE), m->addr);
	if (IS_ERR(e))
		return PTR_ERR(e);
	*ep = e;
	return 0;
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
 * spent), -EAGAIN when the rate limit, a header not yet read from its file,
 * a module being loaded or a change of the mapping stopped the probe,
 * -ENOMEM, -EINTR.
 */
int unwind_user_discover(struct mm_struct *mm, unsigned long pc,
			 unsigned int *budget)
{
	const struct unwind_user_format *fmt = NULL;
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
		goto out;
	/*
	 * A PE image whose handler is being loaded: no probe yet, nor one
	 * of the rate limit's, which the objects met meanwhile need.
	 */
	if (m.pe_base && !m.image && !m.elf) {
		fmt = unwind_user_format_find(UNWIND_USER_FORMAT_PE);
		if (fmt == ERR_PTR(-EAGAIN)) {
			ret = -EAGAIN;
			goto out;
		}
	}
	if (!discover_allow(mm)) {
		atomic_long_inc(&discover_stats[DISCOVER_LIMITED]);
		if (!IS_ERR_OR_NULL(fmt))
			unwind_user_format_put(fmt);
		ret = -EAGAIN;
		goto out;
	}
	*budget -= UNWIND_USER_DISCOVER_COST - UNWIND_USER_DISCOVER_CHECK_COST;
	atomic_long_inc(&discover_stats[DISCOVER_PROBES]);

	if (m.image || (m.elf && !m.prefetch)) {
		ret = discover_read(&m, &desc, &hdr_data);
		/* Headers not in the page cache: a worker reads them. */
		if (ret == -EFAULT && !m.image)
			ret = -EAGAIN;
		if (!ret) {
			/* The header is read from user memory, unless it is the vDSO's. */
			origin = m.image ? UNWIND_USER_ORIGIN_VDSO :
					   UNWIND_USER_ORIGIN_FILE;
			e = unwind_user_entry_create(&desc, hdr_data, origin);
			if (IS_ERR(e)) {
				ret = PTR_ERR(e);
				e = NULL;
			}
			if (ret == -EFAULT && !hdr_data)
				ret = discover_header_fault(mm, &desc);
		}
	} else if (m.pe_base) {
		ret = discover_format(&m, fmt, &e);
	} else if (m.prefetch) {
		/* A header that may say what is mapped here is being read. */
		discover_prefetch(m.prefetch, NULL);
		ret = -EAGAIN;
	} else {
		/* Anonymous code with no header (a JIT's), or no object known. */
		ret = -ENOEXEC;
	}
	/*
	 * A malformed table, or a fault reading it where it is not mapped,
	 * is the object's: mark it.
	 */
	if (!discover_transient(ret))
		ret = discover_insert(mm, pc, &m, &e);
	if (e)
		unwind_user_entry_discard(e);
	if (ret)
		atomic_long_inc(&discover_stats[DISCOVER_AGAIN]);
out:
	if (m.file)
		fput(m.file);
	if (m.prefetch)
		fput(m.prefetch);
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
		[DISCOVER_PREFETCHED]	= "prefetched",
		[DISCOVER_FOUND_PE]	= "found_pe",
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
