// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the .eh_frame decoder and the CFI evaluator.
 *
 * An input (fuzz.h) is a small header, section bytes laid out as
 * .eh_frame_hdr + .eh_frame in the fake user address space, and a fake
 * stack.  The target initialises the section, looks up the frame of a pc
 * (and of a few functions the search table names), and walks the fake
 * stack from there with kernel/unwind/user.c's own steps (walk.c), which
 * look up each caller, for a bounded number of steps.  The stack also
 * holds an expression (its first byte is the length, its bytes follow),
 * run through cfi_expr_rule() directly as each kind of CFI row's, past the
 * 16 bytes cfi.c would hand it.
 * Anything the kernel code must never do aborts: an error outside the
 * documented ones, a rule it must not return, a result that depends on
 * more than the input, a fault that changes more than the error, or
 * unbounded work.  The sanitizers catch the rest (out of bounds, undefined
 * behaviour).
 */
#include <errno.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../kernel/unwind/cache.h"
#include "../../../kernel/unwind/cfi_expr.h"
#include "../../../kernel/unwind/dwarf.h"
#include "../../../kernel/unwind/eh_frame.h"
#include "../../../kernel/unwind/dwarf_read.h"
#include "dwarf_regs.h"
#include "lookup.h"
#include "fake_user.h"
#include "fuzz.h"
#include "walk.h"

static_assert(sizeof(struct fuzz_input) == 32, "fuzz_seeds.py writes 32 bytes");

static const struct eh_frame_regs regs_x86_64 = DWARF_REGS_X86_64;
static const struct eh_frame_regs regs_i386 = DWARF_REGS_I386;
/* sp, x29, x30, and DW_CFA 0x2d as AArch64's negate_ra_state */
static const struct eh_frame_regs regs_aarch64 = DWARF_REGS_AARCH64;

/*
 * Bound on the copy_from_user() calls of one lookup.  A window refill
 * happens at most every 7 bytes read (a LEB128 wants 10 of the 16), the
 * bytes read are bounded by the FDE and CIE size limits (32 KiB + 512,
 * the CIE read twice), and the binary search reads at most 33 entries.
 * Anything near this means some loop is not bounded the way it should be.
 */
#define FUZZ_MAX_COPIES		8192

/* An invariant broke: say which and abort, which libFuzzer reports. */
#define FUZZ_ASSERT(cond, fmt, ...)					\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "fuzz.c:%d: %s: " fmt "\n",	\
				__LINE__, #cond, ##__VA_ARGS__);	\
			abort();					\
		}							\
	} while (0)

/* The input being run, for the callbacks of the walk. */
static struct {
	const struct fuzz_input		*in;
	const struct eh_frame_regs	*regs;
	const struct eh_frame_section	*sec;	/* of the walk */
	unsigned int			ptr_size;
	unsigned long			stack_len;
	/* What the input reached, for UNWIND_FUZZ_VERBOSE. */
	unsigned int			found;
	unsigned int			steps;
	int				expr_ret;
	/*
	 * The row cache, next to every lookup: a new generation for every
	 * new address space, as the registry bumps it at every change.
	 */
	struct unwind_user_cache	*cache;
	u64				gen;
	/* The frame the walk's last lookup found: the one it applied. */
	struct unwind_user_frame	last;
} fz;

/*
 * Bytes of the free-standing expression: enough for 16 operators of up to
 * 10 bytes; cfi_expr_rule() is not bounded by cfi.c's window here.
 */
#define FUZZ_EXPR_MAX		64

/* unwind_user_get_reg() of the topmost frame: made-up register values. */
static int fuzz_get_reg(unsigned int regno, unsigned long *val)
{
	if (regno > fz.regs->ra)
		return -EINVAL;
	*val = FUZZ_STACK_BASE + regno * 16;
	return 0;
}

static bool is_error(int ret)
{
	return ret == -ENOENT || ret == -EFAULT || ret == -EINVAL ||
	       ret == -EOPNOTSUPP;
}

/* What a returned rule may look like (unwind_user_types.h, cfi.c). */
static void check_rule(const struct unwind_user_rule *r, const char *name,
		       bool is_cfa)
{
	FUZZ_ASSERT(r->type <= UNWIND_USER_RULE_REG_OFF_DEREF, "%s type %u",
		    name, r->type);
	if (is_cfa)
		FUZZ_ASSERT(r->type == UNWIND_USER_RULE_REG_OFF ||
			    r->type == UNWIND_USER_RULE_REG_OFF_DEREF,
			    "%s type %u", name, r->type);

	switch (r->type) {
	case UNWIND_USER_RULE_REG_OFF:
	case UNWIND_USER_RULE_REG_OFF_DEREF:
		FUZZ_ASSERT(r->reg <= UNWIND_USER_REG_OTHER, "%s reg %u",
			    name, r->reg);
		/* SP and FP have names of their own, never a number. */
		if (r->reg == UNWIND_USER_REG_OTHER)
			FUZZ_ASSERT(r->regno != fz.regs->sp &&
				    r->regno != fz.regs->fp,
				    "%s regno %u", name, r->regno);
		else
			FUZZ_ASSERT(!r->regno, "%s regno %u", name, r->regno);
		break;
	default:
		FUZZ_ASSERT(!r->reg && !r->regno, "%s reg %u regno %u", name,
			    r->reg, r->regno);
		/* "Unchanged" and "no value" have no offset either. */
		if (r->type == UNWIND_USER_RULE_RETAIN ||
		    r->type == UNWIND_USER_RULE_UNDEFINED)
			FUZZ_ASSERT(!r->off, "%s off %d", name, r->off);
	}
}

/*
 * The same frames, field by field: the structure has padding, which a
 * lookup need not write.  A field left unwritten differs between two
 * lookups into differently poisoned frames.
 */
static bool frame_same(const struct unwind_user_frame *a,
		       const struct unwind_user_frame *b)
{
	return !memcmp(&a->cfa, &b->cfa, sizeof(a->cfa)) &&
	       !memcmp(&a->ra, &b->ra, sizeof(a->ra)) &&
	       !memcmp(&a->fp, &b->fp, sizeof(a->fp)) &&
	       a->sp_off == b->sp_off &&
	       !memcmp(&a->sp_deref, &b->sp_deref, sizeof(a->sp_deref)) &&
	       !memcmp(&a->signal, &b->signal, sizeof(a->signal));
}

/*
 * Cache on and off must agree: a row for @pc in this address space holds
 * what the lookup found again just now, and what it found goes in.
 */
static void check_cache(unsigned long pc, int ret,
			const struct unwind_user_frame *frame)
{
	struct unwind_user_frame cached;
	unsigned int cost;

	if (!fz.cache) {
		fz.cache = unwind_user_cache_alloc();
		FUZZ_ASSERT(fz.cache, "no cache");
	}
	memset(&cached, 0x3c, sizeof(cached));
	if (unwind_user_cache_lookup(fz.cache, pc, fz.ptr_size, fz.gen, &cached,
				     &cost))
		FUZZ_ASSERT(!ret && frame_same(frame, &cached),
			    "pc %#lx: cached frame, lookup now %d or other rules",
			    pc, ret);
	if (ret)
		return;
	unwind_user_cache_insert(fz.cache, pc, fz.ptr_size, fz.gen, frame, 1);
	FUZZ_ASSERT(unwind_user_cache_lookup(fz.cache, pc, fz.ptr_size, fz.gen,
					     &cached, &cost) &&
		    frame_same(frame, &cached), "pc %#lx: row lost or changed", pc);
}

/* Lookups of one input: its pc, and the functions it picks. */
#define FUZZ_PICKS	ARRAY_SIZE(((struct fuzz_input *)0)->picks)

/* The index of the section being looked up in, or NULL. */
static struct eh_frame_index *fz_index;

/* One lookup, with the checks that apply to every lookup. */
static int lookup(const struct eh_frame_section *sec, unsigned long pc,
		  struct unwind_user_frame *frame, bool twice)
{
	struct eh_frame_section saved = *sec;
	struct unwind_user_frame again;
	int ret, ret2;

	fake_user_copies = 0;
	/* Poison: on success every field must have been written. */
	memset(frame, 0x5a, sizeof(*frame));
	ret = eh_lookup(sec, fz_index, fz.regs, pc, frame, NULL);
	FUZZ_ASSERT(ret == 0 || is_error(ret), "pc %#lx: ret %d", pc, ret);
	FUZZ_ASSERT(fake_user_copies <= FUZZ_MAX_COPIES, "pc %#lx: %lu copies",
		    pc, fake_user_copies);
	FUZZ_ASSERT(!memcmp(&saved, sec, sizeof(saved)), "section changed");
	if (pc < sec->text_start || pc >= sec->text_end)
		FUZZ_ASSERT(ret == -ENOENT, "pc %#lx outside text: ret %d",
			    pc, ret);
	check_cache(pc, ret, frame);

	/* A lookup keeps no state: the same again gives the same. */
	if (twice) {
		memset(&again, 0xa5, sizeof(again));
		ret2 = eh_lookup(sec, fz_index, fz.regs, pc, &again, NULL);
		FUZZ_ASSERT(ret2 == ret, "pc %#lx: %d, then %d", pc, ret, ret2);
		FUZZ_ASSERT(ret || frame_same(frame, &again),
			    "pc %#lx: frame differs, or a field not written", pc);
	}

	if (!ret) {
		fz.found++;
		check_rule(&frame->cfa, "cfa", true);
		check_rule(&frame->ra, "ra", false);
		check_rule(&frame->fp, "fp", false);
		FUZZ_ASSERT(*(const u8 *)&frame->signal <= 1, "signal %#x",
			    *(const u8 *)&frame->signal);
		/* The .eh_frame reader never loads the caller's sp. */
		FUZZ_ASSERT(*(const u8 *)&frame->sp_deref == 0, "sp_deref %#x",
			    *(const u8 *)&frame->sp_deref);
	}
	return ret;
}

/* The registry of the walk's steps: the input's section. */
static int fuzz_find(unsigned long pc, unsigned int *budget,
		     struct unwind_user_frame *frame)
{
	int ret = lookup(fz.sec, pc, frame, false);

	if (!ret)
		fz.last = *frame;
	return ret;
}

/* The initial location of table entry @idx, read as the kernel reads it. */
static int table_loc(const struct eh_frame_section *sec, unsigned int idx,
		     unsigned long *loc)
{
	struct dwarf_cursor cur;
	unsigned long addr;

	addr = sec->table + (unsigned long)idx * 2 * sec->table_entry_size;
	dwarf_cursor_init(&cur, addr, addr + sec->table_entry_size);
	return dwarf_read_pointer(&cur, sec->table_enc, sec->ptr_size,
				     sec->hdr_start, loc);
}

/*
 * Walk the fake stack from @pc, as unwind_user() does, @steps frames up.
 * Return what the lookup of @pc itself gave, and its rules in @first.
 */
static int walk(const struct eh_frame_section *sec, unsigned long pc,
		unsigned long sp, unsigned long fp, unsigned int steps,
		struct unwind_user_frame *first)
{
	struct walk_state st = {
		.ip = pc, .sp = sp, .fp = fp, .ws = fz.ptr_size,
		.topmost = true, .get_reg = fuzz_get_reg,
	};
	unsigned long prev_sp;
	unsigned int step;
	int ret;

	ret = lookup(sec, pc, first, true);
	if (ret)
		return ret;
	/*
	 * The kernel's steps: each looks up its frame (the topmost again,
	 * then the callers inside their call, or a signal frame's caller at
	 * its interrupted pc) and moves to its caller.
	 */
	fz.sec = sec;
	for (step = 0; step < steps; step++) {
		prev_sp = st.sp;
		if (walk_step(&st, fuzz_find) || st.done)
			break;
		/*
		 * The kernel's own check: up, but for a signal frame or a
		 * stack switch (a CFA loaded from memory).
		 */
		FUZZ_ASSERT(st.sp > prev_sp || st.interrupted ||
			    fz.last.cfa.type == UNWIND_USER_RULE_REG_OFF_DEREF,
			    "sp %#lx after %#lx", st.sp, prev_sp);
		fz.steps++;
	}
	return 0;
}

/* What cfi_expr_rule() may return for an expression of a row. */
static void check_expr_rule(u8 op, const struct unwind_user_rule *r, u16 regno)
{
	bool reg = r->type == UNWIND_USER_RULE_REG_OFF ||
		   r->type == UNWIND_USER_RULE_REG_OFF_DEREF;

	switch (op) {
	case DW_CFA_def_cfa_expression:
		FUZZ_ASSERT(reg, "CFA type %u", r->type);
		break;
	case DW_CFA_expression:		/* an address: of a saved value */
		FUZZ_ASSERT(r->type == UNWIND_USER_RULE_CFA_OFF_DEREF ||
			    r->type == UNWIND_USER_RULE_REG_OFF_DEREF,
			    "expression type %u", r->type);
		break;
	default:
		FUZZ_ASSERT(r->type == UNWIND_USER_RULE_CFA_OFF || reg ||
			    r->type == UNWIND_USER_RULE_CFA_OFF_DEREF,
			    "val_expression type %u", r->type);
	}
	/* The register is a DWARF number, left for cfi.c to name. */
	FUZZ_ASSERT(!r->reg && !r->regno, "reg %u regno %u", r->reg, r->regno);
	FUZZ_ASSERT(reg || !regno, "type %u, regno %u", r->type, regno);
	/* breg of the RA column is the pc, a constant: never a register. */
	FUZZ_ASSERT(!reg || regno != fz.regs->ra, "regno %u", regno);
}

/* @expr as the expression of each kind of row, at @pc. */
static void run_expr(const u8 *expr, unsigned int len, unsigned long pc)
{
	static const u8 ops[] = {
		DW_CFA_def_cfa_expression, DW_CFA_expression,
		DW_CFA_val_expression,
	};
	struct unwind_user_rule rule, again;
	unsigned int i;
	u16 regno, regno2;
	int ret;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		memset(&rule, 0x5a, sizeof(rule));
		ret = cfi_expr_rule(ops[i], expr, len, pc, fz.regs, &rule,
				    &regno);
		FUZZ_ASSERT(!ret || ret == -EINVAL || ret == -EOPNOTSUPP,
			    "cfi_expr_rule: %d", ret);
		if (!i)
			fz.expr_ret = ret;
		if (ret)
			continue;
		check_expr_rule(ops[i], &rule, regno);
		memset(&again, 0xa5, sizeof(again));
		ret = cfi_expr_rule(ops[i], expr, len, pc, fz.regs, &again,
				    &regno2);
		FUZZ_ASSERT(!ret && !memcmp(&rule, &again, sizeof(rule)) &&
			    regno == regno2, "cfi_expr_rule: not the same");
	}
}

/* The input, taken apart. */
struct fuzz_case {
	struct fuzz_input	in;
	const u8		*sec_data;
	unsigned long		sec_len;
	unsigned long		text_start;
	unsigned long		text_end;
	unsigned long		eh_end;
};

/* Lay out the section bytes, with or without the input's hole, and init. */
static int map_and_init(const struct fuzz_case *c, bool hole,
			struct eh_frame_section *sec)
{
	unsigned long base = FUZZ_SEC_BASE, off, len;
	struct unwind_user_eh_frame desc;
	int ret;

	fake_user_reset();
	fz.gen++;
	if (hole) {
		off = min_t(unsigned long, c->in.hole_off, c->sec_len);
		len = min_t(unsigned long, c->in.hole_len, c->sec_len - off);
		fake_user_map(base, c->sec_data, off);
		fake_user_map(base + off + len, c->sec_data + off + len,
			      c->sec_len - off - len);
	} else {
		fake_user_map(base, c->sec_data, c->sec_len);
	}
	/* The stack goes right after them: it is what follows in the input. */
	fake_user_map(FUZZ_STACK_BASE, c->sec_data + c->sec_len,
		      fz.stack_len);

	desc = (struct unwind_user_eh_frame) {
		.text_start = c->text_start, .text_end = c->text_end,
		.eh_frame_start = base, .eh_frame_end = c->eh_end,
		.hdr_start = base, .hdr_end = base + c->in.hdr_size,
		.ptr_size = fz.ptr_size,
	};
	ret = eh_frame_section_init(sec, &desc, NULL);
	FUZZ_ASSERT(ret == 0 || ret == -EFAULT || ret == -EINVAL ||
		    ret == -EOPNOTSUPP, "init: ret %d", ret);
	if (ret)
		return ret;

	/* What init promises the lookups. */
	FUZZ_ASSERT(sec->hdr_start == base &&
		    sec->hdr_end == base + c->in.hdr_size &&
		    sec->text_start == c->text_start &&
		    sec->text_end == c->text_end &&
		    sec->ptr_size == fz.ptr_size, "section fields");
	FUZZ_ASSERT(sec->eh_frame_start < sec->eh_frame_end &&
		    sec->eh_frame_end == c->eh_end, "eh_frame %#lx-%#lx",
		    sec->eh_frame_start, sec->eh_frame_end);
	FUZZ_ASSERT(sec->table_entry_size == 2 || sec->table_entry_size == 4 ||
		    sec->table_entry_size == 8, "entry size %u",
		    sec->table_entry_size);
	FUZZ_ASSERT(sec->table >= sec->hdr_start + 4 &&
		    sec->table <= sec->hdr_end &&
		    (u64)sec->fde_count * 2 * sec->table_entry_size <=
		    sec->hdr_end - sec->table, "table %#lx, %u entries",
		    sec->table, sec->fde_count);
	return 0;
}

/*
 * A hole in the section can make a read fault, and do nothing else: with
 * everything mapped, init and the lookup of @pc give what they gave with
 * the hole, unless that was -EFAULT.  A reader that decoded stale or
 * partial window contents would break this.
 */
static void check_hole(const struct fuzz_case *c, int hole_init,
		       const struct eh_frame_section *hole_sec,
		       unsigned long pc, int hole_ret,
		       const struct unwind_user_frame *hole_frame)
{
	struct eh_frame_section sec;
	struct unwind_user_frame frame;
	int ret;

	ret = map_and_init(c, false, &sec);
	if (hole_init) {
		FUZZ_ASSERT(hole_init == -EFAULT || hole_init == ret,
			    "init: %d with the hole, %d without", hole_init, ret);
		return;
	}
	FUZZ_ASSERT(!ret && !memcmp(&sec, hole_sec, sizeof(sec)),
		    "init: %d without the hole, or another section", ret);

	ret = lookup(&sec, pc, &frame, false);
	if (hole_ret == -EFAULT)
		return;
	FUZZ_ASSERT(hole_ret == ret, "pc %#lx: %d with the hole, %d without",
		    pc, hole_ret, ret);
	FUZZ_ASSERT(ret || frame_same(&frame, hole_frame),
		    "pc %#lx: other rules without the hole", pc);
}

/*
 * Bound on the copy_from_user() calls of an index build: the sections of an
 * input are at most 64 KiB, read twice in 4 KiB chunks, and each of its
 * FDEs may name a CIE the index has not cached (two reads at most).
 */
#define FUZZ_MAX_BUILD_COPIES	65536

/* Build the index of @sec, as the registry does at the first lookup. */
static struct eh_frame_index *build_index(const struct eh_frame_section *sec)
{
	struct eh_frame_index *index;
	long err;

	fake_user_copies = 0;
	index = eh_frame_index_build(sec, SIZE_MAX, NULL);
	FUZZ_ASSERT(fake_user_copies <= FUZZ_MAX_BUILD_COPIES,
		    "index: %lu copies", fake_user_copies);
	if (!IS_ERR(index))
		return index;
	err = PTR_ERR(index);
	FUZZ_ASSERT(err == -EFAULT || err == -EINVAL || err == -EFBIG ||
		    err == -ENOMEM, "index: %ld", err);
	return NULL;
}

/* Is the search table sorted?  Then its index finds what it finds. */
static bool table_sorted(const struct eh_frame_section *sec)
{
	unsigned long loc, prev = 0;
	unsigned int i;

	for (i = 0; i < sec->fde_count; i++) {
		if (table_loc(sec, i, &loc) || loc < prev)
			return false;
		prev = loc;
	}
	return true;
}

/*
 * The lookups of @pcs again with the index of the search table, which must
 * give what the binary search in user memory gave, where the table is
 * sorted and nothing faults; then with the index of .eh_frame alone, the
 * section registered without its header, which must keep every invariant.
 */
static void check_index(const struct fuzz_case *c, struct eh_frame_section *sec,
			const unsigned long *pcs, const int *rets,
			const struct unwind_user_frame *frames, unsigned int n)
{
	struct unwind_user_eh_frame desc = {
		.text_start = sec->text_start, .text_end = sec->text_end,
		.eh_frame_start = sec->eh_frame_start,
		.eh_frame_end = sec->eh_frame_end, .ptr_size = fz.ptr_size,
	};
	bool compare = !(c->in.flags & FUZZ_F_HOLE) && table_sorted(sec);
	struct eh_frame_section bare;
	struct unwind_user_frame frame;
	unsigned int i;
	int ret;

	/* Rows cached from other lookups are no truth for these. */
	fz.gen++;
	fz_index = build_index(sec);
	for (i = 0; fz_index && i < n; i++) {
		ret = lookup(sec, pcs[i], &frame, true);
		FUZZ_ASSERT(!compare ||
			    (ret == rets[i] && (ret || frame_same(&frame, &frames[i]))),
			    "pc %#lx: %d with the index, %d without", pcs[i],
			    ret, rets[i]);
	}
	if (fz_index)
		kvfree(fz_index);
	fz_index = NULL;

	ret = eh_frame_section_init(&bare, &desc, NULL);
	FUZZ_ASSERT(!ret || ret == -EFBIG, "init without the header: %d", ret);
	if (ret)
		return;
	fz.gen++;
	fz_index = build_index(&bare);
	for (i = 0; fz_index && i < n; i++)
		lookup(&bare, pcs[i], &frame, true);
	if (fz_index)
		kvfree(fz_index);
	fz_index = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct unwind_user_frame first, frames[1 + FUZZ_PICKS];
	unsigned long pc, loc, pcs[1 + FUZZ_PICKS];
	int init, ret = 0, rets[1 + FUZZ_PICKS];
	struct eh_frame_section sec;
	unsigned int i, n = 0;
	struct fuzz_case c;
	bool hole;

	if (size < sizeof(c.in))
		return -1;	/* not worth keeping in the corpus */
	memcpy(&c.in, data, sizeof(c.in));
	c.sec_data = data + sizeof(c.in);
	c.sec_len = min_t(unsigned long, c.in.sec_len, size - sizeof(c.in));
	c.text_start = FUZZ_SEC_BASE - c.in.text_delta;
	c.text_end = c.text_start + c.in.text_size;
	c.eh_end = FUZZ_SEC_BASE + c.sec_len + c.in.end_adjust;
	hole = c.in.flags & FUZZ_F_HOLE;

	fz.in = &c.in;
	fz.ptr_size = c.in.flags & FUZZ_F_ELF32 ? 4 : 8;
	if (fz.ptr_size == 4)
		fz.regs = &regs_i386;
	else if (c.in.flags & FUZZ_F_ARM64)
		fz.regs = &regs_aarch64;
	else
		fz.regs = &regs_x86_64;
	fz.stack_len = size - sizeof(c.in) - c.sec_len;
	fz.found = 0;
	fz.steps = 0;
	fz.expr_ret = 0;

	pc = c.text_start + c.in.pc_off;
	init = map_and_init(&c, hole, &sec);
	if (!init) {
		ret = walk(&sec, pc, FUZZ_STACK_BASE + c.in.sp_off,
			   FUZZ_STACK_BASE + c.in.fp_off,
			   c.in.steps % (FUZZ_MAX_STEPS + 1), &first);
		pcs[n] = pc;
		rets[n] = ret;
		frames[n++] = first;

		/* The first instruction of a few functions the table names. */
		for (i = 0; sec.fde_count && i < ARRAY_SIZE(c.in.picks); i++) {
			if (table_loc(&sec, c.in.picks[i] % sec.fde_count, &loc))
				continue;
			pcs[n] = loc;
			rets[n] = lookup(&sec, loc, &frames[n], false);
			n++;
		}
	}
	if (hole)
		check_hole(&c, init, &sec, pc, ret, &first);
	if (!init) {
		/* check_hole() mapped all of the section: map the hole again. */
		if (hole)
			map_and_init(&c, true, &sec);
		check_index(&c, &sec, pcs, rets, frames, n);
	}

	/* The first byte of the stack: the length of an expression after it. */
	if (fz.stack_len)
		run_expr(c.sec_data + c.sec_len + 1,
			 min_t(unsigned long, fz.stack_len - 1,
			       c.sec_data[c.sec_len] % (FUZZ_EXPR_MAX + 1)), pc);

	/* To see what seeds reach: UNWIND_FUZZ_VERBOSE=1 ./fuzz-eh-frame DIR -runs=0 */
	if (getenv("UNWIND_FUZZ_VERBOSE"))
		fprintf(stderr, "input: init %d, %u frames found, %u walk steps, expression: %d\n",
			init, fz.found, fz.steps, fz.expr_ret);
	return 0;
}
