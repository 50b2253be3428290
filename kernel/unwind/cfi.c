// SPDX-License-Identifier: GPL-2.0
/*
 * Evaluate DWARF call frame instructions for one pc.
 *
 * An FDE describes a table with a row per code location and a column per
 * register.  The unwinder only needs three cells of the row for one pc: the
 * CFA, the return address column and the frame pointer column.  So this runs
 * the CIE's initial instructions and then the FDE's instructions up to the pc
 * and keeps just those three rules; instructions about other registers are
 * decoded and dropped.  That keeps the state small enough for the stack.
 *
 * DWARF expressions are not run while the instructions are.  Their bytes are
 * skipped, and when the final rule for the CFA, RA or FP is an expression,
 * cfi_expr.c works out which plain rule it amounts to, or gives up.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <linux/unwind_user_types.h>

#include "cfi.h"
#include "cfi_expr.h"
#include "dwarf.h"
#include "dwarf_read.h"
#include "eh_frame.h"

/*
 * Instructions run for one lookup, CIE and FDE together: the work of a
 * lookup is bounded by this, not only by the size of the records.  The
 * largest FDEs in distribution binaries hold about 13,400 instructions
 * (cc1's generated recognisers); typical ones a few dozen.
 */
#define CFI_MAX_INSNS		16384
static_assert(CFI_MAX_INSNS < U16_MAX);

/*
 * Depth of the DW_CFA_remember_state stack.  GCC nests it one deep (around
 * each epilogue in the middle of a function) and clang does not use it; no
 * distribution binary we looked at (glibc, CPython, node, LLVM, cc1) goes
 * deeper.  Each level costs a row, 24 bytes, of kernel stack: two levels
 * leave one to spare, and keep the instruction run under the stack the
 * expression reader needs (see cfi_row_frame()).
 */
#define CFI_MAX_STATE_DEPTH	2

/* cfi_step() found the row for pc: the next row starts after it. */
#define CFI_ROW_FOUND		1

struct cfi_state {
	const struct eh_frame_section	*sec;
	const struct eh_frame_cie	*cie;
	struct dwarf_cursor		cur;
	unsigned long			loc;	/* where the current row starts */
	unsigned long			pc;	/* the pc whose row we want */
	u16				insns;	/* instructions run so far */
	u8				depth;	/* rows in stack[] */
	u16				fp_column;
	bool				negate_ra_state;
	struct cfi_cells		row;
	struct cfi_rule			init_ra; /* after the CIE's instructions, */
	struct cfi_rule			init_fp; /* for DW_CFA_restore */
	struct cfi_cells		stack[CFI_MAX_STATE_DEPTH];
};

/* The rule of a tracked register, or NULL for any other register. */
static struct cfi_rule *cfi_column(struct cfi_state *st, u32 reg)
{
	if (reg == st->cie->ra_column)
		return &st->row.ra;
	if (reg == st->fp_column)
		return &st->row.fp;
	return NULL;
}

/*
 * Operands of the extended opcodes: an optional ULEB128 register first, then
 * at most one more operand.  Opcodes not in the table are invalid.
 */
#define CFI_OP_VALID		0x80	/* a known opcode */
#define CFI_OP_REG		0x40	/* a register operand comes first */
#define CFI_OP_ULEB		0x01	/* ULEB128 */
#define CFI_OP_SLEB		0x02	/* SLEB128 */
#define CFI_OP_BLOCK		0x03	/* ULEB128 length, then that many bytes */
#define CFI_OP_ADDR		0x04	/* address in the FDE's encoding */
#define CFI_OP_DATA1		0x05	/* 1, 2 or 4 byte unsigned delta */
#define CFI_OP_DATA2		0x06
#define CFI_OP_DATA4		0x07
#define CFI_OP_KIND_MASK	0x0f

static const u8 cfi_ops[] = {
	[DW_CFA_nop]			= CFI_OP_VALID,
	[DW_CFA_set_loc]		= CFI_OP_VALID | CFI_OP_ADDR,
	[DW_CFA_advance_loc1]		= CFI_OP_VALID | CFI_OP_DATA1,
	[DW_CFA_advance_loc2]		= CFI_OP_VALID | CFI_OP_DATA2,
	[DW_CFA_advance_loc4]		= CFI_OP_VALID | CFI_OP_DATA4,
	[DW_CFA_offset_extended]	= CFI_OP_VALID | CFI_OP_REG | CFI_OP_ULEB,
	[DW_CFA_restore_extended]	= CFI_OP_VALID | CFI_OP_REG,
	[DW_CFA_undefined]		= CFI_OP_VALID | CFI_OP_REG,
	[DW_CFA_same_value]		= CFI_OP_VALID | CFI_OP_REG,
	[DW_CFA_register]		= CFI_OP_VALID | CFI_OP_REG | CFI_OP_ULEB,
	[DW_CFA_remember_state]		= CFI_OP_VALID,
	[DW_CFA_restore_state]		= CFI_OP_VALID,
	[DW_CFA_def_cfa]		= CFI_OP_VALID | CFI_OP_REG | CFI_OP_ULEB,
	[DW_CFA_def_cfa_register]	= CFI_OP_VALID | CFI_OP_REG,
	[DW_CFA_def_cfa_offset]		= CFI_OP_VALID | CFI_OP_ULEB,
	[DW_CFA_def_cfa_expression]	= CFI_OP_VALID | CFI_OP_BLOCK,
	[DW_CFA_expression]		= CFI_OP_VALID | CFI_OP_REG | CFI_OP_BLOCK,
	[DW_CFA_offset_extended_sf]	= CFI_OP_VALID | CFI_OP_REG | CFI_OP_SLEB,
	[DW_CFA_def_cfa_sf]		= CFI_OP_VALID | CFI_OP_REG | CFI_OP_SLEB,
	[DW_CFA_def_cfa_offset_sf]	= CFI_OP_VALID | CFI_OP_SLEB,
	[DW_CFA_val_offset]		= CFI_OP_VALID | CFI_OP_REG | CFI_OP_ULEB,
	[DW_CFA_val_offset_sf]		= CFI_OP_VALID | CFI_OP_REG | CFI_OP_SLEB,
	[DW_CFA_val_expression]		= CFI_OP_VALID | CFI_OP_REG | CFI_OP_BLOCK,
	[DW_CFA_GNU_args_size]		= CFI_OP_VALID | CFI_OP_ULEB,
	[DW_CFA_GNU_negative_offset_extended] = CFI_OP_VALID | CFI_OP_REG | CFI_OP_ULEB,
};

/* One decoded instruction. */
struct cfi_insn {
	union {
		u64	uval;	/* ULEB128, delta, block length, or register */
		s64	sval;	/* SLEB128 */
	};
	unsigned long	addr;	/* DW_CFA_set_loc address, or a block's */
	u32		reg;	/* first operand, if a register (capped) */
	u8		op;	/* extended opcode */
};

static int cfi_decode(struct cfi_state *st, struct cfi_insn *insn)
{
	struct dwarf_cursor *cur = &st->cur;
	u8 op, ops;
	int ret;

	ret = dwarf_read_u8(cur, &op);
	if (ret)
		return ret;

	/* The primary opcodes carry an operand in their low bits. */
	switch (op & DW_CFA_primary_mask) {
	case DW_CFA_advance_loc:
		insn->op = DW_CFA_advance_loc1;
		insn->uval = op & DW_CFA_operand_mask;
		return 0;
	case DW_CFA_offset:
		insn->op = DW_CFA_offset_extended;
		insn->reg = op & DW_CFA_operand_mask;
		return dwarf_read_uleb128(cur, &insn->uval);
	case DW_CFA_restore:
		insn->op = DW_CFA_restore_extended;
		insn->reg = op & DW_CFA_operand_mask;
		return 0;
	}

	/* AArch64's negate_ra_state: nothing to do (see eh_frame_regs). */
	if (op == DW_CFA_GNU_window_save && st->negate_ra_state) {
		insn->op = DW_CFA_nop;
		return 0;
	}
	/* Known, but for architectures this does not run on. */
	if (op == DW_CFA_GNU_window_save || op == DW_CFA_MIPS_advance_loc8)
		return -EOPNOTSUPP;
	if (op >= ARRAY_SIZE(cfi_ops) || !(cfi_ops[op] & CFI_OP_VALID))
		return -EINVAL;

	insn->op = op;
	ops = cfi_ops[op];
	if (ops & CFI_OP_REG) {
		ret = dwarf_read_uleb128(cur, &insn->uval);
		if (ret)
			return ret;
		/* Register numbers above U16_MAX are only ever refused. */
		insn->reg = min_t(u64, insn->uval, U32_MAX);
	}

	switch (ops & CFI_OP_KIND_MASK) {
	case CFI_OP_ULEB:
		return dwarf_read_uleb128(cur, &insn->uval);
	case CFI_OP_SLEB:
		return dwarf_read_sleb128(cur, &insn->sval);
	case CFI_OP_BLOCK:
		ret = dwarf_read_uleb128(cur, &insn->uval);
		if (ret)
			return ret;
		insn->addr = cur->pos;
		return dwarf_skip(cur, insn->uval);
	case CFI_OP_ADDR:
		return dwarf_read_pointer(cur, st->cie->fde_enc,
					     st->sec->ptr_size, 0, &insn->addr);
	case CFI_OP_DATA1:
		return dwarf_read_udata(cur, 1, &insn->uval);
	case CFI_OP_DATA2:
		return dwarf_read_udata(cur, 2, &insn->uval);
	case CFI_OP_DATA4:
		return dwarf_read_udata(cur, 4, &insn->uval);
	}
	return 0;
}

/*
 * Scale an offset operand by the data alignment factor (or by 1).  The rules
 * hold 32 bits; anything larger is not a stack offset we can use.
 */
static int cfi_offset(s64 val, s32 factor, bool negate, s32 *off)
{
	s64 res;

	if (check_mul_overflow(val, (s64)factor, &res) ||
	    (negate && check_mul_overflow(res, (s64)-1, &res)) ||
	    res < S32_MIN || res > S32_MAX)
		return -EOPNOTSUPP;
	*off = res;
	return 0;
}

/* The signed value of a ULEB128 offset operand. */
static int cfi_uleb_offset(u64 uval, s32 factor, bool negate, s32 *off)
{
	if (uval > S64_MAX)
		return -EOPNOTSUPP;
	return cfi_offset(uval, factor, negate, off);
}

/* Move to the row that starts at @loc, unless that is past pc. */
static int cfi_move_to(struct cfi_state *st, unsigned long loc)
{
	if (loc > st->pc)
		return CFI_ROW_FOUND;
	st->loc = loc;
	return 0;
}

static int cfi_advance(struct cfi_state *st, u64 delta)
{
	unsigned long loc;
	u64 off;

	if (check_mul_overflow(delta, (u64)st->cie->code_align, &off) ||
	    check_add_overflow(st->loc, off, &loc))
		return -EINVAL;
	return cfi_move_to(st, loc);
}

/* Note where an expression is: it is read only if its row is final. */
static int cfi_set_expr(struct cfi_state *st, struct cfi_rule *rule, u8 type,
			const struct cfi_insn *insn)
{
	unsigned long off = insn->addr - st->sec->eh_frame_start;

	if (off > S32_MAX)
		return -EOPNOTSUPP;
	rule->type = type;
	rule->expr_len = min_t(u64, insn->uval, U16_MAX);
	rule->expr_off = off;
	return 0;
}

/* Apply an instruction about a register other than the CFA. */
static int cfi_apply_reg(struct cfi_state *st, const struct cfi_insn *insn)
{
	struct cfi_rule *rule = cfi_column(st, insn->reg);
	s32 factor = st->cie->data_align;
	int ret = 0;

	/* Registers we do not track: the operands were all we had to read. */
	if (!rule)
		return 0;

	switch (insn->op) {
	case DW_CFA_offset_extended:
	case DW_CFA_GNU_negative_offset_extended:
		ret = cfi_uleb_offset(insn->uval, factor,
				      insn->op != DW_CFA_offset_extended,
				      &rule->off);
		rule->type = CFI_RULE_OFFSET;
		break;
	case DW_CFA_offset_extended_sf:
		ret = cfi_offset(insn->sval, factor, false, &rule->off);
		rule->type = CFI_RULE_OFFSET;
		break;
	case DW_CFA_val_offset:
		ret = cfi_uleb_offset(insn->uval, factor, false, &rule->off);
		rule->type = CFI_RULE_VAL_OFFSET;
		break;
	case DW_CFA_val_offset_sf:
		ret = cfi_offset(insn->sval, factor, false, &rule->off);
		rule->type = CFI_RULE_VAL_OFFSET;
		break;
	case DW_CFA_restore_extended:
		*rule = rule == &st->row.ra ? st->init_ra : st->init_fp;
		break;
	case DW_CFA_undefined:
		*rule = (struct cfi_rule){ .type = CFI_RULE_UNDEFINED };
		break;
	case DW_CFA_same_value:
		*rule = (struct cfi_rule){ .type = CFI_RULE_SAME };
		break;
	case DW_CFA_register:
		if (insn->uval > U16_MAX)
			return -EINVAL;
		*rule = (struct cfi_rule){
			.type = CFI_RULE_REGISTER,
			.reg = insn->uval,
		};
		break;
	case DW_CFA_expression:
		ret = cfi_set_expr(st, rule, CFI_RULE_EXPR, insn);
		break;
	case DW_CFA_val_expression:
		ret = cfi_set_expr(st, rule, CFI_RULE_VAL_EXPR, insn);
		break;
	}
	if (ret)
		return ret;
	if (rule->type != CFI_RULE_REGISTER && rule->type != CFI_RULE_EXPR &&
	    rule->type != CFI_RULE_VAL_EXPR)
		rule->reg = 0;
	return 0;
}

/* Apply an instruction about the CFA. */
static int cfi_apply_cfa(struct cfi_state *st, const struct cfi_insn *insn)
{
	struct cfi_rule *cfa = &st->row.cfa;
	s32 factor = st->cie->data_align;
	int ret;
	s32 off;

	switch (insn->op) {
	case DW_CFA_def_cfa:
	case DW_CFA_def_cfa_sf:
		if (insn->op == DW_CFA_def_cfa)
			ret = cfi_uleb_offset(insn->uval, 1, false, &off);
		else
			ret = cfi_offset(insn->sval, factor, false, &off);
		if (ret)
			return ret;
		if (insn->reg > U16_MAX)
			return -EINVAL;
		*cfa = (struct cfi_rule){
			.type = CFI_RULE_CFA_REG,
			.reg = insn->reg,
			.off = off,
		};
		return 0;

	/* These two only modify a register-based CFA rule. */
	case DW_CFA_def_cfa_register:
		if (cfa->type != CFI_RULE_CFA_REG || insn->reg > U16_MAX)
			return -EINVAL;
		cfa->reg = insn->reg;
		return 0;
	case DW_CFA_def_cfa_offset:
	case DW_CFA_def_cfa_offset_sf:
		if (insn->op == DW_CFA_def_cfa_offset)
			ret = cfi_uleb_offset(insn->uval, 1, false, &off);
		else
			ret = cfi_offset(insn->sval, factor, false, &off);
		if (ret)
			return ret;
		if (cfa->type != CFI_RULE_CFA_REG)
			return -EINVAL;
		cfa->off = off;
		return 0;

	case DW_CFA_def_cfa_expression:
		return cfi_set_expr(st, cfa, CFI_RULE_CFA_EXPR, insn);
	}
	return -EINVAL;
}

/* Decode and apply one instruction. */
static int cfi_step(struct cfi_state *st)
{
	struct cfi_insn insn;
	int ret;

	ret = cfi_decode(st, &insn);
	if (ret)
		return ret;

	switch (insn.op) {
	case DW_CFA_nop:
	case DW_CFA_GNU_args_size:	/* only matters to landing pads */
		return 0;

	case DW_CFA_advance_loc1:
	case DW_CFA_advance_loc2:
	case DW_CFA_advance_loc4:
		return cfi_advance(st, insn.uval);
	case DW_CFA_set_loc:
		/* Rows are in address order. */
		if (insn.addr < st->loc)
			return -EINVAL;
		return cfi_move_to(st, insn.addr);

	case DW_CFA_remember_state:
		if (st->depth >= CFI_MAX_STATE_DEPTH)
			return -EOPNOTSUPP;
		st->stack[st->depth++] = st->row;
		return 0;
	case DW_CFA_restore_state:
		if (!st->depth)
			return -EINVAL;
		st->row = st->stack[--st->depth];
		return 0;

	case DW_CFA_def_cfa:
	case DW_CFA_def_cfa_sf:
	case DW_CFA_def_cfa_register:
	case DW_CFA_def_cfa_offset:
	case DW_CFA_def_cfa_offset_sf:
	case DW_CFA_def_cfa_expression:
		return cfi_apply_cfa(st, &insn);
	}
	return cfi_apply_reg(st, &insn);
}

static void cfi_map_reg(const struct eh_frame_regs *regs, u16 regno,
			struct unwind_user_rule *rule)
{
	rule->regno = 0;
	if (regno == regs->sp) {
		rule->reg = UNWIND_USER_REG_SP;
	} else if (regno == regs->fp) {
		rule->reg = UNWIND_USER_REG_FP;
	} else {
		rule->reg = UNWIND_USER_REG_OTHER;
		rule->regno = regno;
	}
}

/*
 * What the mapping of a row into frame rules needs to know; the state of the
 * instruction run is gone by then (see cfi_row_frame()).
 */
struct cfi_map {
	const struct eh_frame_section	*sec;
	const struct eh_frame_regs	*regs;
	unsigned long			pc;
};

/*
 * Read an expression of the final row and turn it into a rule.  A malformed
 * expression is unsupported, not corrupt: cfi.c has already checked that it
 * lies inside its FDE, so the rest of the table is as good as before.
 */
static int cfi_map_expr(const struct cfi_map *m, const struct cfi_rule *rule,
			u8 op, struct unwind_user_rule *out)
{
	unsigned long start = m->sec->eh_frame_start + rule->expr_off;
	unsigned int len = rule->expr_len;
	struct dwarf_cursor cur;
	u16 regno;
	int ret;

	if (len > DWARF_CURSOR_BUF_SIZE)
		return -EOPNOTSUPP;

	dwarf_cursor_init(&cur, start, start + len);
	if (len) {
		ret = dwarf_cursor_fill(&cur, len);
		if (ret)
			return ret;
		if (cur.win_len < len)
			return -EFAULT;
	}
	ret = cfi_expr_rule(op, cur.win, len, m->pc, m->regs, out, &regno);
	if (ret)
		return -EOPNOTSUPP;
	if (out->type == UNWIND_USER_RULE_REG_OFF ||
	    out->type == UNWIND_USER_RULE_REG_OFF_DEREF)
		cfi_map_reg(m->regs, regno, out);
	return 0;
}

/* Translate the rule of the RA or FP column. */
static int cfi_map_rule(const struct cfi_map *m, const struct cfi_rule *rule,
			struct unwind_user_rule *out)
{
	memset(out, 0, sizeof(*out));

	switch (rule->type) {
	case CFI_RULE_SAME:
		out->type = UNWIND_USER_RULE_RETAIN;
		return 0;
	case CFI_RULE_UNDEFINED:
		out->type = UNWIND_USER_RULE_UNDEFINED;
		return 0;
	case CFI_RULE_OFFSET:
		out->type = UNWIND_USER_RULE_CFA_OFF_DEREF;
		out->off = rule->off;
		return 0;
	case CFI_RULE_VAL_OFFSET:
		out->type = UNWIND_USER_RULE_CFA_OFF;
		out->off = rule->off;
		return 0;
	case CFI_RULE_REGISTER:
		out->type = UNWIND_USER_RULE_REG_OFF;
		cfi_map_reg(m->regs, rule->reg, out);
		return 0;
	case CFI_RULE_EXPR:
		return cfi_map_expr(m, rule, DW_CFA_expression, out);
	case CFI_RULE_VAL_EXPR:
		return cfi_map_expr(m, rule, DW_CFA_val_expression, out);
	}
	return -EINVAL;
}

/* Turn the row for pc into frame rules. */
static noinline int cfi_map_frame(const struct cfi_map *m,
				  const struct cfi_row *row,
				  struct unwind_user_frame *frame)
{
	const struct cfi_rule *cfa = &row->cells.cfa;
	int ret;

	memset(&frame->cfa, 0, sizeof(frame->cfa));
	switch (cfa->type) {
	case CFI_RULE_CFA_REG:
		frame->cfa.type = UNWIND_USER_RULE_REG_OFF;
		frame->cfa.off = cfa->off;
		cfi_map_reg(m->regs, cfa->reg, &frame->cfa);
		break;
	case CFI_RULE_CFA_EXPR:
		ret = cfi_map_expr(m, cfa, DW_CFA_def_cfa_expression,
				   &frame->cfa);
		if (ret)
			return ret;
		if (frame->cfa.type != UNWIND_USER_RULE_REG_OFF &&
		    frame->cfa.type != UNWIND_USER_RULE_REG_OFF_DEREF)
			return -EOPNOTSUPP;
		break;
	default:
		/* No CFA rule at all: every CIE defines one. */
		return -EINVAL;
	}

	ret = cfi_map_rule(m, &row->cells.ra, &frame->ra);
	if (ret)
		return ret;
	/*
	 * Where the return address column is a real register (s390: r14),
	 * "unchanged" means the return address is still in it: until a
	 * function saves it, and in leaf functions that never do.  Only the
	 * topmost frame has that register's value.  On x86 the column is not
	 * a register and no frame can use this rule.
	 */
	if (frame->ra.type == UNWIND_USER_RULE_RETAIN) {
		frame->ra.type = UNWIND_USER_RULE_REG_OFF;
		cfi_map_reg(m->regs, m->regs->ra, &frame->ra);
	}
	return cfi_map_rule(m, &row->cells.fp, &frame->fp);
}

/*
 * Run the CIE's initial instructions, then the FDE's, until the row for pc
 * is complete or the instructions run out: at most @limit of them, and
 * *@insns says how many ran.
 */
static int cfi_run(const struct eh_frame_section *sec,
		   const struct eh_frame_regs *regs,
		   const struct eh_frame_fde *fde, unsigned long pc,
		   unsigned int limit, unsigned int *insns, struct cfi_row *row)
{
	struct cfi_state st;
	bool in_fde = false;
	int ret = 0;

	st.sec = sec;
	st.cie = &fde->cie;
	st.loc = fde->pc_begin;
	st.pc = pc;
	st.insns = 0;
	st.depth = 0;
	st.fp_column = regs->fp;
	st.negate_ra_state = regs->negate_ra_state;
	st.row.cfa = (struct cfi_rule){ .type = CFI_RULE_UNDEFINED };
	st.row.ra = (struct cfi_rule){ .type = CFI_RULE_SAME };
	st.row.fp = (struct cfi_rule){ .type = CFI_RULE_SAME };
	/* DW_CFA_restore in the CIE itself goes back to "no rule". */
	st.init_ra = st.row.ra;
	st.init_fp = st.row.fp;

	/* The instructions come from the copies the lookup made, if any. */
	dwarf_cursor_init_copy(&st.cur, fde->cie.insns,
			       fde->cie.insns + fde->cie.insns_len,
			       fde->cie.init,
			       fde->cie.insns + fde->cie.insns_copied);
	for (;;) {
		if (st.cur.pos >= st.cur.end) {
			if (in_fde)
				break;
			in_fde = true;
			st.init_ra = st.row.ra;
			st.init_fp = st.row.fp;
			dwarf_cursor_init_copy(&st.cur, fde->insns,
					       fde->insns + fde->insns_len,
					       fde->raw + fde->insns_off,
					       fde->insns + fde->insns_copied);
			continue;
		}
		if (st.insns >= limit) {
			ret = -EOPNOTSUPP;
			break;
		}
		st.insns++;
		ret = cfi_step(&st);
		if (ret == CFI_ROW_FOUND) {
			ret = 0;
			break;
		}
		if (ret)
			break;
	}
	*insns = st.insns;
	if (!ret)
		row->cells = st.row;
	return ret;
}

/**
 * cfi_find_row - the row of the CFI table for @pc
 * @sec: the section the FDE is in
 * @regs: the DWARF numbers of SP, FP and RA
 * @fde: the decoded FDE, which covers @pc
 * @pc: the address the row is wanted for
 * @row: filled in on success
 * @budget: if not NULL, the instructions the walk may still run, less the
 *	ones this evaluation ran on return
 *
 * Runs the CIE's initial instructions and the FDE's up to @pc, from the
 * copies the lookup made where it has them.  The caller turns the row into
 * frame rules with cfi_row_frame() once @fde is off the stack.
 *
 * Return: 0, -EFAULT, -EINVAL for corrupt instructions, or -EOPNOTSUPP for
 * something outside the supported subset (a bound or the budget exceeded,
 * an RA column other than the arch's).
 */
int cfi_find_row(const struct eh_frame_section *sec,
		 const struct eh_frame_regs *regs,
		 const struct eh_frame_fde *fde, unsigned long pc,
		 struct cfi_row *row, unsigned int *budget)
{
	unsigned int limit = CFI_MAX_INSNS, insns;
	int ret;

	if (fde->cie.ra_column != regs->ra)
		return -EOPNOTSUPP;

	if (budget)
		limit = min_t(unsigned int, limit, *budget);
	ret = cfi_run(sec, regs, fde, pc, limit, &insns, row);
	if (budget)
		*budget -= insns;
	row->signal = fde->cie.signal_frame;
	return ret;
}

/**
 * cfi_row_frame - the frame rules of a row
 * @sec: the section the row's FDE is in (its expressions are read there)
 * @regs: the DWARF numbers of SP, FP and RA
 * @row: what cfi_find_row() found for @pc
 * @pc: the address the row is for
 * @frame: filled in on success
 *
 * Return: 0, -EFAULT, -EINVAL for a row without a CFA, or -EOPNOTSUPP for
 * an expression this reader does not turn into a rule.
 */
int cfi_row_frame(const struct eh_frame_section *sec,
		  const struct eh_frame_regs *regs, const struct cfi_row *row,
		  unsigned long pc, struct unwind_user_frame *frame)
{
	struct cfi_map m = { .sec = sec, .regs = regs, .pc = pc };
	int ret;

	ret = cfi_map_frame(&m, row, frame);
	frame->sp_off = -(s32)regs->cfa_off;
	frame->sp_deref = false;
	frame->signal = row->signal;
	frame->cfa_low = false;
	return ret;
}
