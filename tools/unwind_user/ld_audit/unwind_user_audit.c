// SPDX-License-Identifier: GPL-2.0
/*
 * unwind_user_audit.so: register the unwind tables of shared libraries with
 * the kernel's user stack unwinder from an rtld-audit module (rtld-audit(7)),
 * for C libraries whose dynamic linker does not do it itself:
 *
 *	LD_AUDIT=/path/to/unwind_user_audit.so perf record --call-graph fp,defer -- prog
 *
 * A kernel that finds tables by itself (kernel.unwind_tables_discover, on
 * by default) needs no help; this is for one that does not.  Every object
 * the dynamic linker reports (the program, itself, the vDSO, DT_NEEDED
 * libraries, LD_PRELOAD, dlopen(), dlmopen()) is registered here, in
 * la_objopen(), with prctl(PR_REGISTER_EH_FRAME), and unregistered in
 * la_objclose() with PR_UNREGISTER_EH_FRAME.  A registration replaces what
 * the kernel found over the same text.
 *
 * An object's table is its PT_GNU_EH_FRAME (.eh_frame_hdr), its text the
 * span of its executable PT_LOAD segments.  The kernel wants all of a text
 * range mapped and executable, so executable segments with a whole page
 * between them are registered separately, each with the same table.
 *
 * It also forwards the frames that JIT compilers hand libgcc's unwinder
 * (__register_frame() and its family) to the kernel, as format
 * PR_EH_FRAME_FORMAT_EH_FRAME registrations: see unwind_user_audit_jit.c,
 * the only symbol bindings it audits, those to libgcc_s.so.1.  It
 * allocates no memory, and touches stdio only to format debugging output
 * (vsnprintf(), then write(2)).  Errors are silent: EEXIST means
 * something registered the text already, a kernel without the prctl
 * makes the module a no-op (probed once, in la_version()), and an object
 * the kernel refuses is unwound with frame pointers as before.  With
 * UNWIND_USER_AUDIT_DEBUG=1 in the environment, it writes one line per
 * object to stderr: its name, what it registers (or would register, on a
 * kernel without the prctl) and the outcome.
 *
 * The callbacks run with the dynamic linker's lock held, or before any
 * other thread exists, except la_objclose() at exit (_dl_fini() drops the
 * lock to run destructors): the table of registrations is updated with
 * atomic operations, everything else static is written under the lock.
 *
 * At exit, _dl_fini() calls la_objclose() for every object, the main
 * program first, while later destructors may still be profiled.  The main
 * program is never dlclose()d, so its la_objclose() marks the exit: from
 * then on nothing is unregistered, and the kernel frees the registrations
 * with the mm.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "unwind_user_audit.h"

#define MAX_PHDRS	64	/* ordinary objects have about ten */
#define MAX_TEXT	8	/* executable segments per object */
#define MAX_PHOFF	0x10000	/* in-memory program headers must start below this */
#define SLOTS		1024

#if __ELF_NATIVE_CLASS == 64
#define NATIVE_CLASS	ELFCLASS64
#define Elf_Ehdr	Elf64_Ehdr
#define Elf_Phdr	Elf64_Phdr
#else
#define NATIVE_CLASS	ELFCLASS32
#define Elf_Ehdr	Elf32_Ehdr
#define Elf_Phdr	Elf32_Phdr
#endif
#if __BYTE_ORDER == __LITTLE_ENDIAN
#define NATIVE_DATA	ELFDATA2LSB
#else
#define NATIVE_DATA	ELFDATA2MSB
#endif

bool debug;		/* UNWIND_USER_AUDIT_DEBUG=1 */
bool supported;		/* the kernel knows PR_REGISTER_EH_FRAME */
static bool seen_first;		/* la_objopen() saw the main program */
static uintptr_t main_cookie;	/* its link map */
static bool exiting;		/* _dl_fini() closes objects */
static uintptr_t page_size;

/*
 * What la_objopen() registered, one slot per text range, so that
 * la_objclose() unregisters exactly that.  An object that finds the table
 * full is registered all the same, only not unregistered at dlclose(): the
 * kernel drops a registration by itself when any part of its text is
 * unmapped, which dlclose() does right after la_objclose().
 */
static struct slot {
	uintptr_t cookie;	/* the object's struct link_map *; 0: free */
	uintptr_t start, end;
} slots[SLOTS];

/* The program headers of the object at hand: la_objopen() runs locked. */
static Elf_Phdr phdr_buf[MAX_PHDRS];

struct object {
	struct link_map *map;
	const char *name;	/* for messages */
	const char *from;	/* where the program headers came from */
	unsigned int phnum;
	uintptr_t bias;		/* load address - link-time address */
};

struct range {
	uintptr_t start, end;
};

void line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!debug || l->len >= sizeof(l->buf) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, sizeof(l->buf) - 1 - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < sizeof(l->buf) - 1 - l->len ?
			  (size_t)n : sizeof(l->buf) - 2 - l->len;
}

void line_add_result(struct line *l, int err)
{
	switch (err) {
	case 0:
		line_add(l, "ok");
		return;
	case EEXIST:
		line_add(l, "EEXIST (registered already)");
		return;
	case ENOENT:
		line_add(l, "ENOENT (not registered)");
		return;
	case EINVAL:
		line_add(l, "EINVAL");
		return;
	case EFAULT:
		line_add(l, "EFAULT (not mapped)");
		return;
	case EACCES:
		line_add(l, "EACCES (not executable or not readable)");
		return;
	case ENOEXEC:
		line_add(l, "ENOEXEC (bad .eh_frame_hdr)");
		return;
	case EOPNOTSUPP:
		line_add(l, "EOPNOTSUPP (.eh_frame_hdr without search table)");
		return;
	case ENOSPC:
		line_add(l, "ENOSPC (unwind_tables_max reached)");
		return;
	case ENOMEM:
		line_add(l, "ENOMEM");
		return;
	}
	line_add(l, "errno %d", err);
}

void line_write(struct line *l)
{
	ssize_t ret;

	l->buf[l->len++] = '\n';
	ret = write(STDERR_FILENO, l->buf, l->len);
	(void)ret;
}

/*
 * Copy len bytes at addr in our own address space to buf; 0 or -1.
 *
 * The program headers of an object are read where the dynamic linker
 * mapped them, and an address computed from a link map and a header is
 * only a guess until the read succeeds: dereferencing it could kill the
 * audited program with SIGSEGV.  process_vm_readv() on ourselves is the
 * kernel's user copy: a page that is not mapped, or not readable (ld.so
 * leaves PROT_NONE holes between segments), fails the call with EFAULT or
 * cuts it short, and since it copies rather than probes there is no window
 * for another thread to munmap() the page between a check and the read.
 * msync(MS_ASYNC) or mincore() only tell whether a page is mapped, not
 * whether it is readable, and a SIGSEGV handler would have to replace the
 * program's own.  A process may always read itself this way (ptrace access
 * checks pass for the same thread group); if a seccomp filter refuses the
 * call, the caller falls back to reading the file.
 */
static int read_self(uintptr_t addr, void *buf, size_t len)
{
	struct iovec local = { .iov_base = buf, .iov_len = len };
	struct iovec remote = { .iov_base = (void *)addr, .iov_len = len };

	/* getpid() every time: the module may run in a child after fork(). */
	if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)len)
		return -1;
	return 0;
}

/*
 * Whether the program headers in phdr_buf describe o->map as loaded at
 * o->bias: PT_DYNAMIC must land on the link map's l_ld, which the dynamic
 * linker computed from the headers it used.  This catches a file replaced
 * on disk, a relative name read from another directory, and auxv entries
 * that describe ld.so instead of the program (ld.so run as a command).
 */
static bool phdrs_fit(const struct object *o)
{
	uintptr_t ld = 0;
	bool load = false;
	unsigned int i;

	for (i = 0; i < o->phnum; i++) {
		if (phdr_buf[i].p_type == PT_DYNAMIC)
			ld = o->bias + phdr_buf[i].p_vaddr;
		if (phdr_buf[i].p_type == PT_LOAD)
			load = true;
	}
	return load && ld == (uintptr_t)o->map->l_ld;
}

static bool ehdr_ok(const Elf_Ehdr *eh, bool allow_exec)
{
	return !memcmp(eh->e_ident, ELFMAG, SELFMAG) &&
	       eh->e_ident[EI_CLASS] == NATIVE_CLASS &&
	       eh->e_ident[EI_DATA] == NATIVE_DATA &&
	       (eh->e_type == ET_DYN || (allow_exec && eh->e_type == ET_EXEC)) &&
	       eh->e_phentsize == sizeof(Elf_Phdr) &&
	       eh->e_phnum > 0 && eh->e_phnum <= MAX_PHDRS;
}

/*
 * The main program: the kernel's AT_PHDR and AT_PHNUM, at the bias that
 * puts PT_PHDR at AT_PHDR (without PT_PHDR, trust l_addr).
 */
static bool phdrs_from_auxv(struct object *o)
{
	uintptr_t at_phdr = getauxval(AT_PHDR);
	unsigned long phnum = getauxval(AT_PHNUM);
	unsigned int i;

	if (!at_phdr || !phnum || phnum > MAX_PHDRS ||
	    getauxval(AT_PHENT) != sizeof(Elf_Phdr) ||
	    read_self(at_phdr, phdr_buf, phnum * sizeof(Elf_Phdr)))
		return false;
	o->phnum = phnum;
	o->bias = o->map->l_addr;
	for (i = 0; i < o->phnum; i++)
		if (phdr_buf[i].p_type == PT_PHDR)
			o->bias = at_phdr - phdr_buf[i].p_vaddr;
	o->from = "auxv";
	return o->bias == o->map->l_addr && phdrs_fit(o);
}

/*
 * An ET_DYN object whose first PT_LOAD maps the start of the file at
 * link-time address 0 (every ordinary shared object, PIE and ld.so) has
 * its ELF header and, right after it, its program headers at l_addr.
 */
static bool phdrs_from_memory(struct object *o)
{
	uintptr_t base = o->map->l_addr;
	Elf_Ehdr eh;
	size_t size;
	unsigned int i;

	if (!base || base % page_size ||
	    read_self(base, &eh, sizeof(eh)) || !ehdr_ok(&eh, false) ||
	    eh.e_phoff >= MAX_PHOFF)
		return false;
	size = eh.e_phnum * sizeof(Elf_Phdr);
	if (read_self(base + eh.e_phoff, phdr_buf, size))
		return false;
	o->phnum = eh.e_phnum;
	o->bias = base;
	o->from = "memory";
	/* The headers must lie in the file-backed part of that first PT_LOAD. */
	for (i = 0; i < o->phnum; i++) {
		if (phdr_buf[i].p_type != PT_LOAD)
			continue;
		if (phdr_buf[i].p_vaddr || phdr_buf[i].p_offset ||
		    eh.e_phoff + size > phdr_buf[i].p_filesz)
			return false;
		return phdrs_fit(o);
	}
	return false;
}

/* Anything else with a file name: the headers from the file. */
static bool phdrs_from_file(struct object *o)
{
	const char *name = o->map->l_name;
	Elf_Ehdr eh;
	bool ok = false;
	size_t size;
	int fd;

	if (!name || !name[0])
		return false;
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (pread(fd, &eh, sizeof(eh), 0) == sizeof(eh) && ehdr_ok(&eh, true)) {
		size = eh.e_phnum * sizeof(Elf_Phdr);
		if (pread(fd, phdr_buf, size, eh.e_phoff) == (ssize_t)size) {
			o->phnum = eh.e_phnum;
			o->bias = o->map->l_addr;
			o->from = "file";
			ok = phdrs_fit(o);
		}
	}
	close(fd);
	return ok;
}

/* The one PT_GNU_EH_FRAME; more than one is malformed (exec thinks so too). */
static const Elf_Phdr *eh_frame_hdr(const struct object *o)
{
	const Elf_Phdr *eh = NULL;
	unsigned int i;

	for (i = 0; i < o->phnum; i++) {
		if (phdr_buf[i].p_type != PT_GNU_EH_FRAME)
			continue;
		if (eh)
			return NULL;
		eh = &phdr_buf[i];
	}
	return eh && eh->p_memsz ? eh : NULL;
}

/* The PT_LOAD that holds @eh: .eh_frame is in there too (exec's rule). */
static const Elf_Phdr *eh_frame_segment(const struct object *o, const Elf_Phdr *eh)
{
	unsigned int i;

	for (i = 0; i < o->phnum; i++) {
		const Elf_Phdr *p = &phdr_buf[i];

		if (p->p_type == PT_LOAD && eh->p_vaddr >= p->p_vaddr &&
		    eh->p_vaddr - p->p_vaddr < p->p_filesz)
			return p;
	}
	return NULL;
}

/*
 * The executable PT_LOAD segments as text ranges, sorted, merged where no
 * whole page lies between them (all pages in between then belong to one of
 * the two, and are executable).  Returns how many, MAX_TEXT + 1 if there
 * are more executable segments than that.
 */
static unsigned int text_ranges(const struct object *o, struct range *r)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < o->phnum; i++) {
		const Elf_Phdr *p = &phdr_buf[i];
		uintptr_t start = o->bias + p->p_vaddr;
		uintptr_t end = start + p->p_memsz;

		/* end <= start: empty, or wraps around */
		if (p->p_type != PT_LOAD || !(p->p_flags & PF_X) || end <= start)
			continue;
		if (n == MAX_TEXT)
			return MAX_TEXT + 1;
		for (j = n++; j > 0 && r[j - 1].start > start; j--)
			r[j] = r[j - 1];
		r[j].start = start;
		r[j].end = end;
	}
	if (!n)
		return 0;
	for (i = 1, j = 0; i < n; i++) {
		if ((r[i].start & ~(page_size - 1)) <=
		    ((r[j].end + page_size - 1) & ~(page_size - 1))) {
			if (r[i].end > r[j].end)
				r[j].end = r[i].end;
		} else {
			r[++j] = r[i];
		}
	}
	return j + 1;
}

/*
 * prctl(option) for one text range, with the object's tables (all zero to
 * unregister); 0 or an errno value.
 */
static int unwind_prctl(int option, const struct range *text, const struct object *o,
			const Elf_Phdr *eh, const Elf_Phdr *data)
{
	struct uu_table t = {
		.format = PR_EH_FRAME_FORMAT_EH_FRAME_HDR,
		.text_start = text->start,
		.text_size = text->end - text->start,
	};

	if (eh) {
		t.eh_frame_start = o->bias + data->p_vaddr;
		t.eh_frame_size = data->p_filesz;
		t.eh_frame_hdr_start = o->bias + eh->p_vaddr;
		t.eh_frame_hdr_size = eh->p_memsz;
	}
	if (prctl(option, (unsigned long)&t, (unsigned long)sizeof(t), 0UL, 0UL))
		return errno;
	return 0;
}

static void remember(uintptr_t cookie, const struct range *text)
{
	unsigned int i;

	for (i = 0; i < SLOTS; i++) {
		uintptr_t free = 0;

		if (__atomic_compare_exchange_n(&slots[i].cookie, &free, cookie, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			slots[i].start = text->start;
			slots[i].end = text->end;
			return;
		}
	}
}

/*
 * Slots of an earlier object whose link map had this address: it went away
 * without la_objclose() (if that ever happens), and with it, unmapped, the
 * kernel's registrations.
 */
static void forget(uintptr_t cookie)
{
	unsigned int i;

	for (i = 0; i < SLOTS; i++)
		if (__atomic_load_n(&slots[i].cookie, __ATOMIC_RELAXED) == cookie)
			__atomic_store_n(&slots[i].cookie, 0, __ATOMIC_RELEASE);
}

static const char *object_name(struct link_map *map, bool first)
{
	const char *execfn;

	if (map->l_name && map->l_name[0])
		return map->l_name;
	if (first) {
		execfn = (const char *)getauxval(AT_EXECFN);
		return execfn ? execfn : "(main program)";
	}
	return "(no name)";
}

static void register_object(struct link_map *map, bool first)
{
	struct object o = { .map = map, .name = object_name(map, first) };
	struct range text[MAX_TEXT];
	const Elf_Phdr *eh, *data = NULL;
	struct line l;
	unsigned int i, n;
	int err;

	forget((uintptr_t)map);
	l.len = 0;
	line_add(&l, PREFIX "open %s: ", o.name);

	if (!((first && (!map->l_name || !map->l_name[0]) && phdrs_from_auxv(&o)) ||
	      phdrs_from_memory(&o) || phdrs_from_file(&o))) {
		if (debug) {
			line_add(&l, "program headers not found, skipped");
			line_write(&l);
		}
		return;
	}
	line_add(&l, "(headers from %s) ", o.from);
	eh = eh_frame_hdr(&o);
	if (eh)
		data = eh_frame_segment(&o, eh);
	n = text_ranges(&o, text);
	if (!data || !n || n > MAX_TEXT) {
		if (debug) {
			line_add(&l, "%s, skipped", !eh ? "no PT_GNU_EH_FRAME" :
				 !data ? "no PT_LOAD holds PT_GNU_EH_FRAME" :
				 !n ? "no executable PT_LOAD" : "too many executable PT_LOADs");
			line_write(&l);
		}
		return;
	}

	line_add(&l, "table %lx size %lu",
		 (unsigned long)(o.bias + eh->p_vaddr), (unsigned long)eh->p_memsz);
	for (i = 0; i < n; i++) {
		line_add(&l, ", text %lx-%lx: ", (unsigned long)text[i].start,
			 (unsigned long)text[i].end);
		if (!supported) {
			line_add(&l, "not registered (kernel without PR_REGISTER_EH_FRAME)");
			continue;
		}
		err = unwind_prctl(PR_REGISTER_EH_FRAME, &text[i], &o, eh, data);
		if (!err)
			remember((uintptr_t)map, &text[i]);
		line_add_result(&l, err);
	}
	if (debug)
		line_write(&l);
}

unsigned int la_version(unsigned int version)
{
	const char *env = getenv("UNWIND_USER_AUDIT_DEBUG");
	struct range probe;
	struct line l;
	int err;

	if (!version)
		return 0;
	debug = env && env[0] && strcmp(env, "0");
	page_size = getauxval(AT_PAGESZ);
	if (!page_size)
		page_size = sysconf(_SC_PAGESIZE);

	/*
	 * Unregister a range that cannot have been registered (nothing is
	 * mapped in the second page): a kernel with the prctl says ENOENT,
	 * one without says EINVAL (unknown option), and then nothing is
	 * tried again.  Asking this once, rather than taking EINVAL from a
	 * registration for "unsupported", keeps one bad object from turning
	 * the module off.
	 */
	probe.start = page_size;
	probe.end = 2 * page_size;
	err = unwind_prctl(PR_UNREGISTER_EH_FRAME, &probe, NULL, NULL, NULL);
	supported = err == ENOENT;
	if (debug) {
		l.len = 0;
		line_add(&l, PREFIX "kernel %s PR_REGISTER_EH_FRAME (probe: ",
			 supported ? "has" : "lacks");
		line_add_result(&l, err);
		line_add(&l, ")");
		line_write(&l);
	}
	return version < LAV_CURRENT ? version : LAV_CURRENT;
}

unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
	bool first = !seen_first;

	(void)lmid;
	seen_first = true;
	/* la_objclose() is handed the cookie only: make it the link map. */
	*cookie = (uintptr_t)map;
	if (first)
		main_cookie = *cookie;
	if (supported || debug)
		register_object(map, first);
	return jit_objopen(map, map->l_name);
}

unsigned int la_objclose(uintptr_t *cookie)
{
	struct link_map *map = (struct link_map *)*cookie;
	struct range text;
	struct line l;
	unsigned int i;
	int err;

	if (*cookie == main_cookie)
		__atomic_store_n(&exiting, true, __ATOMIC_RELAXED);
	if (!supported || __atomic_load_n(&exiting, __ATOMIC_RELAXED))
		return 0;
	for (i = 0; i < SLOTS; i++) {
		if (__atomic_load_n(&slots[i].cookie, __ATOMIC_ACQUIRE) != *cookie)
			continue;
		text.start = slots[i].start;
		text.end = slots[i].end;
		err = unwind_prctl(PR_UNREGISTER_EH_FRAME, &text, NULL, NULL, NULL);
		__atomic_store_n(&slots[i].cookie, 0, __ATOMIC_RELEASE);
		if (debug) {
			l.len = 0;
			line_add(&l, PREFIX "close %s: text %lx-%lx: ",
				 object_name(map, false), (unsigned long)text.start,
				 (unsigned long)text.end);
			line_add_result(&l, err);
			line_write(&l);
		}
	}
	return 0;
}
