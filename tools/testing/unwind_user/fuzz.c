// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the .eh_frame decoder and the CFI evaluator.
 *
 * An input (fuzz.h) is a small header, section bytes laid out as
 * .eh_frame_hdr + .eh_frame in the fake user address space, and a fake
 * stack.  The target initialises the section, looks up the frame of a pc
 * (and of a few functions the search table names), and walks the fake
 * stack with the rules it gets back, as the kernel would (walk.c), for a
 * bounded number of steps.  Anything the kernel code must never do aborts:
 * an error outside the documented ones, a rule it must not return, a
 * result that depends on more than the input, a fault that changes more
 * than the error, or unbounded work.  The sanitizers catch the rest (out
 * of bounds, undefined behaviour).
 *
 * Built with the arch expression hook (UNWIND_TEST_EXPR_HOOK), whose double
 * here checks what cfi.c hands it and, if the input says so, answers with a
 * rule made from the expression's bytes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../kernel/unwind/dwarf.h"
#include "../../../kernel/unwind/eh_frame.h"
#include "fake_user.h"
#include "fuzz.h"
#include "walk.h"

static_assert(sizeof(struct fuzz_input) == 32, "fuzz_seeds.py writes 32 bytes");

static const struct eh_frame_regs regs_x86_64 = { .sp = 7, .fp = 6, .ra = 16 };
static const struct eh_frame_regs regs_i386 = { .sp = 4, .fp = 5, .ra = 8 };

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

/* The input being run, for the hook and the register callback. */
static struct {
	const struct fuzz_input		*in;
	const struct eh_frame_regs	*regs;
	unsigned int			ptr_size;
	unsigned long			pc;	/* of the lookup in progress */
	unsigned long			stack_len;
	bool				in_lookup;
	unsigned int			hook_calls;
	/* What the input reached, for UNWIND_FUZZ_VERBOSE. */
	unsigned int			found;
	unsigned int			steps;
} fz;

/* Where the hook sums its bytes to: a global, so the reads are not dropped. */
u8 fuzz_expr_sum;

/* The arch hook (asm/unwind_user.h of the tests routes it here). */
int test_eh_frame_expr(u8 op, const u8 *expr, unsigned int len,
		       unsigned long pc, unsigned int ptr_size,
		       struct unwind_user_rule *rule)
{
	unsigned int i;
	u8 regno;

	FUZZ_ASSERT(fz.in_lookup, "hook called outside a lookup");
	FUZZ_ASSERT(op == DW_CFA_def_cfa_expression || op == DW_CFA_expression ||
		    op == DW_CFA_val_expression, "op %#x", op);
	FUZZ_ASSERT(pc == fz.pc, "pc %#lx, lookup of %#lx", pc, fz.pc);
	FUZZ_ASSERT(ptr_size == fz.ptr_size, "ptr_size %u", ptr_size);
	/* cfi.c hands over at most one window of bytes. */
	FUZZ_ASSERT(len <= EH_FRAME_WINDOW_SIZE, "len %u", len);
	/* Touch every byte, so that ASan checks @expr holds @len of them. */
	for (i = 0; i < len; i++)
		fuzz_expr_sum += expr[i];
	fz.hook_calls++;

	if (!(fz.in->flags & FUZZ_F_EXPR) || len < 4)
		return -EOPNOTSUPP;

	/*
	 * Any well-formed rule, picked by the expression's bytes, as an arch
	 * hook could return it: cfi.c must refuse those that are no CFA rule.
	 */
	memset(rule, 0, sizeof(*rule));
	rule->type = expr[0] % (UNWIND_USER_RULE_REG_OFF_DEREF + 1);
	rule->off = (s8)expr[3] * (int)ptr_size;
	switch (rule->type) {
	case UNWIND_USER_RULE_RETAIN:
	case UNWIND_USER_RULE_UNDEFINED:
		rule->off = 0;
		break;
	case UNWIND_USER_RULE_REG_OFF:
	case UNWIND_USER_RULE_REG_OFF_DEREF:
		regno = expr[2] % (fz.regs->ra + 1);
		if (regno == fz.regs->sp) {
			rule->reg = UNWIND_USER_REG_SP;
		} else if (regno == fz.regs->fp) {
			rule->reg = UNWIND_USER_REG_FP;
		} else {
			rule->reg = UNWIND_USER_REG_OTHER;
			rule->regno = regno;
		}
		break;
	}
	return 0;
}

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

/* One lookup, with the checks that apply to every lookup. */
static int lookup(const struct eh_frame_section *sec, unsigned long pc,
		  struct unwind_user_frame *frame, bool twice)
{
	struct eh_frame_section saved = *sec;
	struct unwind_user_frame again;
	int ret, ret2;

	fz.pc = pc;
	fz.in_lookup = true;
	fake_user_copies = 0;
	/* Poison: on success every field must have been written. */
	memset(frame, 0x5a, sizeof(*frame));
	ret = eh_frame_find_frame(sec, fz.regs, pc, frame);
	FUZZ_ASSERT(ret == 0 || is_error(ret), "pc %#lx: ret %d", pc, ret);
	FUZZ_ASSERT(fake_user_copies <= FUZZ_MAX_COPIES, "pc %#lx: %lu copies",
		    pc, fake_user_copies);
	FUZZ_ASSERT(!memcmp(&saved, sec, sizeof(saved)), "section changed");
	if (pc < sec->text_start || pc >= sec->text_end)
		FUZZ_ASSERT(ret == -ENOENT, "pc %#lx outside text: ret %d",
			    pc, ret);

	/* A lookup keeps no state: the same again gives the same. */
	if (twice) {
		memset(&again, 0xa5, sizeof(again));
		ret2 = eh_frame_find_frame(sec, fz.regs, pc, &again);
		FUZZ_ASSERT(ret2 == ret, "pc %#lx: %d, then %d", pc, ret, ret2);
		FUZZ_ASSERT(ret || !memcmp(frame, &again, sizeof(again)),
			    "pc %#lx: frame differs, or a field not written", pc);
	}
	fz.in_lookup = false;

	if (!ret) {
		fz.found++;
		check_rule(&frame->cfa, "cfa", true);
		check_rule(&frame->ra, "ra", false);
		check_rule(&frame->fp, "fp", false);
	}
	return ret;
}

/* The initial location of table entry @idx, read as the kernel reads it. */
static int table_loc(const struct eh_frame_section *sec, unsigned int idx,
		     unsigned long *loc)
{
	struct eh_frame_cursor cur;
	unsigned long addr;

	addr = sec->table + (unsigned long)idx * 2 * sec->table_entry_size;
	eh_frame_cursor_init(&cur, addr, addr + sec->table_entry_size);
	return eh_frame_read_pointer(&cur, sec->table_enc, sec->ptr_size,
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
	struct unwind_user_frame frame;
	unsigned long prev_sp;
	unsigned int step;
	int ret;

	ret = lookup(sec, pc, first, true);
	if (ret)
		return ret;
	frame = *first;
	for (step = 0; step < steps; step++) {
		prev_sp = st.sp;
		if (walk_next(&st, &frame) || st.done)
			break;
		/* The kernel's own check: the walk can only go up. */
		FUZZ_ASSERT(st.sp > prev_sp, "sp %#lx after %#lx", st.sp, prev_sp);
		fz.steps++;
		/* A caller's frame: look up inside its call instruction. */
		if (lookup(sec, st.ip - 1, &frame, false))
			break;
	}
	return 0;
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
	int ret;

	fake_user_reset();
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

	ret = eh_frame_section_init(sec, base, c->in.hdr_size, c->text_start,
				    c->text_end, c->eh_end, fz.ptr_size);
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
	FUZZ_ASSERT(ret || !memcmp(&frame, hole_frame, sizeof(frame)),
		    "pc %#lx: other rules without the hole", pc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct unwind_user_frame first, frame;
	struct eh_frame_section sec;
	struct fuzz_case c;
	unsigned long pc, loc;
	bool hole;
	unsigned int i;
	int init, ret = 0;

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
	fz.regs = fz.ptr_size == 4 ? &regs_i386 : &regs_x86_64;
	fz.stack_len = size - sizeof(c.in) - c.sec_len;
	fz.in_lookup = false;
	fz.found = 0;
	fz.steps = 0;
	fz.hook_calls = 0;

	pc = c.text_start + c.in.pc_off;
	init = map_and_init(&c, hole, &sec);
	if (!init) {
		ret = walk(&sec, pc, FUZZ_STACK_BASE + c.in.sp_off,
			   FUZZ_STACK_BASE + c.in.fp_off,
			   c.in.steps % (FUZZ_MAX_STEPS + 1), &first);

		/* The first instruction of a few functions the table names. */
		for (i = 0; sec.fde_count && i < ARRAY_SIZE(c.in.picks); i++) {
			if (!table_loc(&sec, c.in.picks[i] % sec.fde_count, &loc))
				lookup(&sec, loc, &frame, false);
		}
	}
	if (hole)
		check_hole(&c, init, &sec, pc, ret, &first);

	/* To see what seeds reach: UNWIND_FUZZ_VERBOSE=1 ./fuzz-eh-frame DIR -runs=0 */
	if (getenv("UNWIND_FUZZ_VERBOSE"))
		fprintf(stderr, "input: init %d, %u frames found, %u walk steps, %u hook calls\n",
			init, fz.found, fz.steps, fz.hook_calls);
	return 0;
}
