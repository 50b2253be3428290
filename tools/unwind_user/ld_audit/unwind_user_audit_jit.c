// SPDX-License-Identifier: GPL-2.0
/*
 * The frames of JIT-compiled code, for the kernel's user unwinder.
 *
 * A JIT compiler that emits .eh_frame for its code, so that C++ exceptions
 * and libgcc's unwinder get through it (LLVM's MCJIT and ORC, and what is
 * built on them), hands each table to libgcc_s with __register_frame() or
 * __register_frame_info(), and takes it back with __deregister_frame() or
 * __deregister_frame_info().  The kernel hears nothing of it.  Here the
 * bindings of those four symbols to libgcc_s.so.1 are audited (LA_FLG_BINDTO
 * on libgcc_s alone, LA_FLG_BINDFROM on every other object): each call goes to
 * libgcc first, then the table, a bare .eh_frame, is registered with the
 * kernel as PR_EH_FRAME_FORMAT_EH_FRAME over the code its FDEs cover, and
 * unregistered before libgcc lets go of it.
 *
 * Only calls that go through the dynamic linker are seen: a program that
 * links libgcc statically (a C program does unless it asks for
 * -shared-libgcc; a C++ one links libgcc_s) calls its own copy.  The
 * table is read as libgcc reads it, in place, from the address the JIT
 * gave, within bounds: at most JIT_MAX_BYTES and JIT_MAX_RECORDS, records
 * with the encodings compilers emit.  A table the kernel refuses (its code
 * not mapped executable in one piece, say) or this code cannot read is
 * left to libgcc alone, and so are calls while the kernel lacks the prctl.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>

#include "unwind_user_audit.h"

/* What the kernel indexes at most (see unwind_tables.rst). */
#define JIT_MAX_BYTES		(32UL << 20)
#define JIT_MAX_RECORDS		262144
/* Tables registered at once: their text, for __deregister_frame(). */
#define JIT_SLOTS		256

#define DW_EH_PE_absptr		0x00
#define DW_EH_PE_udata2		0x02
#define DW_EH_PE_udata4		0x03
#define DW_EH_PE_udata8		0x04
#define DW_EH_PE_sdata2		0x0a
#define DW_EH_PE_sdata4		0x0b
#define DW_EH_PE_sdata8		0x0c
#define DW_EH_PE_pcrel		0x10
#define DW_EH_PE_omit		0xff

static struct jit_slot {
	uintptr_t table;	/* what the JIT passed; 0: free */
	uintptr_t start, end;	/* the text registered */
} jit_slots[JIT_SLOTS];

/* libgcc_s's own functions, as the dynamic linker bound them */
static void (*real_register_frame)(void *);
static void (*real_deregister_frame)(void *);
static void (*real_register_frame_info)(const void *, void *);
static void *(*real_deregister_frame_info)(const void *);

static uint32_t get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The size of a value of encoding @enc; 0 for one not handled here. */
static unsigned int enc_size(uint8_t enc)
{
	switch (enc & 0x0f) {
	case DW_EH_PE_absptr:
		return sizeof(uintptr_t);
	case DW_EH_PE_udata2:
	case DW_EH_PE_sdata2:
		return 2;
	case DW_EH_PE_udata4:
	case DW_EH_PE_sdata4:
		return 4;
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		return 8;
	}
	return 0;
}

/*
 * The value of encoding @enc at @p, below @end, into *@val: absolute, or
 * relative to its own address (pc-relative, as compilers emit it).
 */
static bool read_enc(const uint8_t *p, const uint8_t *end, uint8_t enc, bool apply,
		     uintptr_t *val)
{
	unsigned int size = enc_size(enc);
	int64_t s = 0;
	uint64_t u = 0;

	if (!size || (size_t)(end - p) < size ||
	    (apply && (enc & 0x70) != DW_EH_PE_absptr && (enc & 0x70) != DW_EH_PE_pcrel) ||
	    (enc & 0x80))
		return false;
	if ((enc & 0x0f) == DW_EH_PE_sdata2) {
		int16_t v;

		memcpy(&v, p, sizeof(v));
		s = v;
		u = s;
	} else if ((enc & 0x0f) == DW_EH_PE_sdata4) {
		int32_t v;

		memcpy(&v, p, sizeof(v));
		s = v;
		u = s;
	} else if ((enc & 0x0f) == DW_EH_PE_udata2) {
		uint16_t v;

		memcpy(&v, p, sizeof(v));
		u = v;
	} else if (size == 4) {
		u = get_u32(p);
	} else {
		memcpy(&u, p, size);
	}
	if (apply && (enc & 0x70) == DW_EH_PE_pcrel)
		u += (uintptr_t)p;
	*val = (uintptr_t)u;
	return true;
}

static const uint8_t *skip_uleb(const uint8_t *p, const uint8_t *end)
{
	while (p < end && (*p & 0x80))
		p++;
	return p < end ? p + 1 : NULL;
}

/* The FDE pointer encoding of the CIE at @cie (its length word), or -1. */
static int cie_fde_enc(const uint8_t *cie, const uint8_t *end)
{
	const uint8_t *p = cie + 8, *aug, *data, *rec_end;
	uint32_t len = get_u32(cie);
	uint8_t version;

	if (len == 0 || len == 0xffffffff || (size_t)(end - cie) - 4 < len ||
	    get_u32(cie + 4) != 0)
		return -1;
	rec_end = cie + 4 + len;
	if (p >= rec_end)
		return -1;
	version = *p++;
	aug = p;
	while (p < rec_end && *p)
		p++;
	if (p >= rec_end || (version != 1 && version != 3))
		return -1;
	p++;
	if (aug[0] != 'z')
		return aug[0] ? -1 : DW_EH_PE_absptr;
	p = skip_uleb(p, rec_end);			/* code alignment */
	p = p ? skip_uleb(p, rec_end) : NULL;		/* data alignment */
	if (p && version == 1)
		p++;					/* return address register */
	else if (p)
		p = skip_uleb(p, rec_end);
	data = p ? skip_uleb(p, rec_end) : NULL;	/* past the data's length */
	if (!data)
		return -1;
	for (aug++, p = data; *aug && p < rec_end; aug++) {
		switch (*aug) {
		case 'R':
			return *p;
		case 'L':
			p++;
			break;
		case 'P':
			if (!enc_size(*p))
				return -1;
			p += 1 + enc_size(*p);
			break;
		case 'S':
		case 'B':
			break;
		default:
			return -1;
		}
	}
	return DW_EH_PE_absptr;
}

/*
 * The text the FDEs of the .eh_frame at @table cover, and the table's end
 * (past its zero terminator, or its last record within the bounds).
 */
static bool scan_table(const uint8_t *table, uintptr_t *start, uintptr_t *end,
		       uintptr_t *table_end)
{
	const uint8_t *p = table, *limit = table + JIT_MAX_BYTES;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	unsigned int n;

	for (n = 0; n < JIT_MAX_RECORDS; n++) {
		uint32_t len = get_u32(p), id;
		uintptr_t pc, range;
		int enc;

		if (!len) {
			p += 4;
			break;
		}
		if (len == 0xffffffff || (size_t)(limit - p) - 4 < len || len < 4)
			return false;
		id = get_u32(p + 4);
		if (id) {
			/* An FDE: its CIE is @id bytes before the id field. */
			if (id > (uintptr_t)(p + 4 - table))
				return false;
			enc = cie_fde_enc(p + 4 - id, limit);
			if (enc < 0 || enc == DW_EH_PE_omit ||
			    !read_enc(p + 8, p + 4 + len, enc, true, &pc) ||
			    !read_enc(p + 8 + enc_size(enc), p + 4 + len, enc & 0x0f, false,
				      &range))
				return false;
			if (range && pc < lo)
				lo = pc;
			if (range && pc + range > hi)
				hi = pc + range;
		}
		p += 4 + len;
	}
	if (lo >= hi)
		return false;
	*start = lo;
	*end = hi;
	*table_end = (uintptr_t)p;
	return true;
}

static int jit_prctl(int option, uintptr_t table, uintptr_t table_end, uintptr_t start,
		     uintptr_t end)
{
	struct uu_table t = {
		.format = PR_EH_FRAME_FORMAT_EH_FRAME,
		.text_start = start,
		.text_size = end - start,
		.eh_frame_start = table,
		.eh_frame_size = table_end - table,
	};

	if (prctl(option, (unsigned long)&t, (unsigned long)sizeof(t), 0UL, 0UL))
		return errno;
	return 0;
}

static void jit_register(const void *table)
{
	uintptr_t start, end, table_end;
	struct line l = { .len = 0 };
	unsigned int i;
	int err;

	if (!table || (!supported && !debug))
		return;
	line_add(&l, PREFIX "__register_frame(%p): ", table);
	if (!scan_table(table, &start, &end, &table_end)) {
		if (debug) {
			line_add(&l, "a table this module does not read, left to libgcc");
			line_write(&l);
		}
		return;
	}
	line_add(&l, "text %lx-%lx, .eh_frame %lu bytes: ", (unsigned long)start,
		 (unsigned long)end, (unsigned long)(table_end - (uintptr_t)table));
	if (!supported) {
		line_add(&l, "not registered (kernel without PR_REGISTER_EH_FRAME)");
		line_write(&l);
		return;
	}
	err = jit_prctl(PR_REGISTER_EH_FRAME, (uintptr_t)table, table_end, start, end);
	line_add_result(&l, err);
	if (debug)
		line_write(&l);
	if (err)
		return;
	for (i = 0; i < JIT_SLOTS; i++) {
		uintptr_t free = 0;

		if (__atomic_compare_exchange_n(&jit_slots[i].table, &free, (uintptr_t)table,
						false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			jit_slots[i].start = start;
			jit_slots[i].end = end;
			return;
		}
	}
	/* No slot: the registration lasts until the code is unmapped. */
}

static void jit_unregister(const void *table)
{
	unsigned int i;

	for (i = 0; table && i < JIT_SLOTS; i++) {
		if (__atomic_load_n(&jit_slots[i].table, __ATOMIC_ACQUIRE) != (uintptr_t)table)
			continue;
		jit_prctl(PR_UNREGISTER_EH_FRAME, 0, 0, jit_slots[i].start, jit_slots[i].end);
		__atomic_store_n(&jit_slots[i].table, 0, __ATOMIC_RELEASE);
		return;
	}
}

static void wrap_register_frame(void *begin)
{
	real_register_frame(begin);
	jit_register(begin);
}

static void wrap_deregister_frame(void *begin)
{
	jit_unregister(begin);
	real_deregister_frame(begin);
}

static void wrap_register_frame_info(const void *begin, void *ob)
{
	real_register_frame_info(begin, ob);
	jit_register(begin);
}

static void *wrap_deregister_frame_info(const void *begin)
{
	jit_unregister(begin);
	return real_deregister_frame_info(begin);
}

unsigned int jit_objopen(struct link_map *map, const char *name)
{
	const char *base = name ? strrchr(name, '/') : NULL;

	(void)map;
	base = base ? base + 1 : name;
	/*
	 * Not libgcc_s's own calls: its __register_frame() calls
	 * __register_frame_info() through its PLT.
	 */
	if (base && !strcmp(base, "libgcc_s.so.1"))
		return LA_FLG_BINDTO;
	return LA_FLG_BINDFROM;
}

/* Bind the four symbols to the wrappers, and keep libgcc's own. */
static uintptr_t jit_symbind(uintptr_t value, const char *name)
{
	static const struct {
		const char *name;
		void **real;
		void *wrap;
	} syms[] = {
		{ "__register_frame", (void **)&real_register_frame, wrap_register_frame },
		{ "__deregister_frame", (void **)&real_deregister_frame,
		  wrap_deregister_frame },
		{ "__register_frame_info", (void **)&real_register_frame_info,
		  wrap_register_frame_info },
		{ "__deregister_frame_info", (void **)&real_deregister_frame_info,
		  wrap_deregister_frame_info },
	};
	unsigned int i;

	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		if (strcmp(name, syms[i].name))
			continue;
		__atomic_store_n(syms[i].real, (void *)value, __ATOMIC_RELEASE);
		return (uintptr_t)syms[i].wrap;
	}
	return value;
}

#if __ELF_NATIVE_CLASS == 64
__attribute__((visibility("default")))
uintptr_t la_symbind64(Elf64_Sym *sym, unsigned int ndx, uintptr_t *refcook,
		       uintptr_t *defcook, unsigned int *flags, const char *symname)
{
	(void)ndx;
	(void)refcook;
	(void)defcook;
	(void)flags;
	return jit_symbind(sym->st_value, symname);
}
#else
__attribute__((visibility("default")))
uintptr_t la_symbind32(Elf32_Sym *sym, unsigned int ndx, uintptr_t *refcook,
		       uintptr_t *defcook, unsigned int *flags, const char *symname)
{
	(void)ndx;
	(void)refcook;
	(void)defcook;
	(void)flags;
	return jit_symbind(sym->st_value, symname);
}
#endif
