// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF expressions in call frame information, turned into frame rules.
 *
 * This is not a DWARF expression interpreter.  It reads the expression once,
 * at lookup time, without touching user memory or registers: every value on
 * its stack is a constant, a register plus an offset, the CFA plus an offset,
 * or a word loaded from one of the latter two.  The only register whose value
 * is known here is the return address column, which holds the pc the row is
 * for (x86 PLT entries compute their CFA from it).  The result must be one of
 * the rules struct unwind_user_rule can express; those are applied by the
 * unwinder like any other rule.
 *
 * What it accepts: literals and constants, DW_OP_breg*, DW_OP_bregx,
 * DW_OP_deref of a register or CFA address, stack shuffling, arithmetic,
 * bitwise and comparison operators on constants, and adding or subtracting a
 * constant to or from an address.  No branches, calls, or loads of loads:
 * the expression runs straight through, at most CFI_EXPR_MAX_OPS operators
 * with at most CFI_EXPR_MAX_STACK values.  Anything else is -EOPNOTSUPP and
 * the frame falls back to the frame-pointer walk.
 *
 * Seen in practice (x86-64): stack realignment with a DRAP register,
 *	DW_CFA_def_cfa_expression: DW_OP_breg6 -8; DW_OP_deref
 *	DW_CFA_expression: r6 DW_OP_breg6 0
 * PLT entries, where the CFA depends on where in the 16-byte entry pc is,
 *	DW_OP_breg7 8; DW_OP_breg16 0; DW_OP_lit15; DW_OP_and; DW_OP_lit11;
 *	DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus
 * and signal trampolines, which find everything in the ucontext,
 *	DW_CFA_def_cfa_expression: DW_OP_breg7 160; DW_OP_deref
 *	DW_CFA_expression: r16 DW_OP_breg7 168
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <linux/unwind_user_types.h>

#include "cfi_expr.h"
#include "dwarf.h"
#include "dwarf_read.h"

enum cfi_val_kind {
	CFI_VAL_CONST,		/* off */
	CFI_VAL_REG,		/* regno + off */
	CFI_VAL_CFA,		/* CFA + off */
	CFI_VAL_REG_DEREF,	/* the word at regno + off */
	CFI_VAL_CFA_DEREF,	/* the word at CFA + off */
};

struct cfi_val {
	u8	kind;		/* enum cfi_val_kind */
	u16	regno;
	s64	off;
};

struct cfi_expr {
	const u8		*p, *end;
	struct cfi_val		stack[CFI_EXPR_MAX_STACK];
	unsigned int		depth;
	unsigned long		pc;
	const struct eh_frame_regs *regs;
};

/* A LEB128 operand, sign-extended if @is_signed. */
static int expr_leb128(struct cfi_expr *x, bool is_signed, u64 *val)
{
	int len;

	len = dwarf_decode_leb128(x->p, x->end - x->p, is_signed, val);
	if (len < 0)
		return -EINVAL;
	x->p += len;
	return 0;
}

static int expr_uleb(struct cfi_expr *x, u64 *val)
{
	return expr_leb128(x, false, val);
}

static int expr_sleb(struct cfi_expr *x, s64 *val)
{
	return expr_leb128(x, true, (u64 *)val);
}

/*
 * A fixed-size operand of @size bytes (1, 2, 4 or 8), in the byte order of
 * the task (big-endian on s390), sign-extended if @sign.
 */
static int expr_fixed(struct cfi_expr *x, unsigned int size, bool sign,
		      s64 *val)
{
	u64 v;

	if (x->end - x->p < size)
		return -EINVAL;
	switch (size) {
	case 1:
		v = *x->p;
		break;
	case 2:
		v = get_unaligned((const u16 *)x->p);
		break;
	case 4:
		v = get_unaligned((const u32 *)x->p);
		break;
	case 8:
		v = get_unaligned((const u64 *)x->p);
		break;
	default:
		return -EINVAL;
	}
	x->p += size;
	if (sign && size < 8 && (v & ((u64)1 << (8 * size - 1))))
		v |= -((u64)1 << (8 * size));
	*val = (s64)v;
	return 0;
}

static int expr_push(struct cfi_expr *x, u8 kind, u16 regno, s64 off)
{
	if (x->depth >= CFI_EXPR_MAX_STACK)
		return -EOPNOTSUPP;
	x->stack[x->depth++] = (struct cfi_val){
		.kind = kind, .regno = regno, .off = off,
	};
	return 0;
}

static int expr_pop(struct cfi_expr *x, struct cfi_val *v)
{
	if (!x->depth)
		return -EINVAL;
	*v = x->stack[--x->depth];
	return 0;
}

/* DW_OP_breg*: the register's value plus @off. */
static int expr_breg(struct cfi_expr *x, u64 regno, s64 off)
{
	if (regno > U16_MAX)
		return -EOPNOTSUPP;
	/* The return address column is the pc the row describes. */
	if (regno == x->regs->ra)
		return expr_push(x, CFI_VAL_CONST, 0, (s64)(x->pc + (u64)off));
	return expr_push(x, CFI_VAL_REG, regno, off);
}

/* An operator on two constants, or an address and a constant. */
static int expr_binary(struct cfi_expr *x, u8 op)
{
	struct cfi_val a, b;	/* a was pushed first */
	u64 ua, ub;
	s64 r;

	if (expr_pop(x, &b) || expr_pop(x, &a))
		return -EINVAL;

	if (op == DW_OP_plus && a.kind == CFI_VAL_CONST &&
	    (b.kind == CFI_VAL_REG || b.kind == CFI_VAL_CFA))
		swap(a, b);
	if ((op == DW_OP_plus || op == DW_OP_minus) &&
	    (a.kind == CFI_VAL_REG || a.kind == CFI_VAL_CFA) &&
	    b.kind == CFI_VAL_CONST) {
		/* Wrap around as the machine would, never overflow. */
		a.off = op == DW_OP_plus ? (s64)((u64)a.off + (u64)b.off) :
					   (s64)((u64)a.off - (u64)b.off);
		return expr_push(x, a.kind, a.regno, a.off);
	}
	if (a.kind != CFI_VAL_CONST || b.kind != CFI_VAL_CONST)
		return -EOPNOTSUPP;

	ua = a.off;
	ub = b.off;
	switch (op) {
	case DW_OP_plus:
		r = ua + ub;
		break;
	case DW_OP_minus:
		r = ua - ub;
		break;
	case DW_OP_mul:
		r = ua * ub;
		break;
	case DW_OP_and:
		r = ua & ub;
		break;
	case DW_OP_or:
		r = ua | ub;
		break;
	case DW_OP_xor:
		r = ua ^ ub;
		break;
	case DW_OP_shl:
		r = ub < 64 ? ua << ub : 0;
		break;
	case DW_OP_shr:
		r = ub < 64 ? ua >> ub : 0;
		break;
	case DW_OP_shra:
		r = a.off >> min_t(u64, ub, 63);
		break;
	case DW_OP_eq:
		r = a.off == b.off;
		break;
	case DW_OP_ne:
		r = a.off != b.off;
		break;
	case DW_OP_lt:
		r = a.off < b.off;
		break;
	case DW_OP_le:
		r = a.off <= b.off;
		break;
	case DW_OP_gt:
		r = a.off > b.off;
		break;
	case DW_OP_ge:
		r = a.off >= b.off;
		break;
	default:
		return -EOPNOTSUPP;
	}
	return expr_push(x, CFI_VAL_CONST, 0, r);
}

static int expr_step(struct cfi_expr *x)
{
	struct cfi_val a;
	u8 op = *x->p++;
	s64 s;
	u64 u;
	int ret;

	if (op >= DW_OP_lit0 && op <= DW_OP_lit31)
		return expr_push(x, CFI_VAL_CONST, 0, op - DW_OP_lit0);
	if (op >= DW_OP_breg0 && op <= DW_OP_breg31) {
		ret = expr_sleb(x, &s);
		return ret ?: expr_breg(x, op - DW_OP_breg0, s);
	}

	switch (op) {
	case DW_OP_const1u:
	case DW_OP_const1s:
	case DW_OP_const2u:
	case DW_OP_const2s:
	case DW_OP_const4u:
	case DW_OP_const4s:
	case DW_OP_const8u:
	case DW_OP_const8s:
		/* 0x08..0x0f: sizes 1, 1, 2, 2, 4, 4, 8, 8; odd ones signed. */
		ret = expr_fixed(x, 1 << ((op - DW_OP_const1u) / 2),
				 (op - DW_OP_const1u) & 1, &s);
		return ret ?: expr_push(x, CFI_VAL_CONST, 0, s);
	case DW_OP_constu:
		ret = expr_uleb(x, &u);
		return ret ?: expr_push(x, CFI_VAL_CONST, 0, (s64)u);
	case DW_OP_consts:
		ret = expr_sleb(x, &s);
		return ret ?: expr_push(x, CFI_VAL_CONST, 0, s);
	case DW_OP_bregx:
		ret = expr_uleb(x, &u);
		if (!ret)
			ret = expr_sleb(x, &s);
		return ret ?: expr_breg(x, u, s);
	case DW_OP_plus_uconst:
		ret = expr_uleb(x, &u);
		if (ret)
			return ret;
		if (!x->depth)
			return -EINVAL;
		/* Adds to the top value in place: needs no stack slot. */
		a = x->stack[x->depth - 1];
		if (a.kind == CFI_VAL_REG_DEREF || a.kind == CFI_VAL_CFA_DEREF)
			return -EOPNOTSUPP;
		x->stack[x->depth - 1].off = (s64)((u64)a.off + u);
		return 0;
	case DW_OP_deref:
		if (expr_pop(x, &a))
			return -EINVAL;
		if (a.kind == CFI_VAL_REG)
			a.kind = CFI_VAL_REG_DEREF;
		else if (a.kind == CFI_VAL_CFA)
			a.kind = CFI_VAL_CFA_DEREF;
		else
			return -EOPNOTSUPP;	/* a load of a load, or of a constant */
		return expr_push(x, a.kind, a.regno, a.off);
	case DW_OP_dup:
		if (!x->depth)
			return -EINVAL;
		a = x->stack[x->depth - 1];
		return expr_push(x, a.kind, a.regno, a.off);
	case DW_OP_over:
		if (x->depth < 2)
			return -EINVAL;
		a = x->stack[x->depth - 2];
		return expr_push(x, a.kind, a.regno, a.off);
	case DW_OP_drop:
		return expr_pop(x, &a);
	case DW_OP_swap:
		if (x->depth < 2)
			return -EINVAL;
		swap(x->stack[x->depth - 1], x->stack[x->depth - 2]);
		return 0;
	case DW_OP_neg:
	case DW_OP_not:
		if (expr_pop(x, &a))
			return -EINVAL;
		if (a.kind != CFI_VAL_CONST)
			return -EOPNOTSUPP;
		a.off = op == DW_OP_neg ? -(u64)a.off : ~a.off;
		return expr_push(x, a.kind, 0, a.off);
	case DW_OP_plus:
	case DW_OP_minus:
	case DW_OP_mul:
	case DW_OP_and:
	case DW_OP_or:
	case DW_OP_xor:
	case DW_OP_shl:
	case DW_OP_shr:
	case DW_OP_shra:
	case DW_OP_eq:
	case DW_OP_ne:
	case DW_OP_lt:
	case DW_OP_le:
	case DW_OP_gt:
	case DW_OP_ge:
		return expr_binary(x, op);
	case DW_OP_nop:
		return 0;
	}
	/* Branches, calls, register locations, pieces, typed ops, ... */
	return -EOPNOTSUPP;
}

static int rule_off(struct unwind_user_rule *rule, u8 type, s64 off)
{
	if (off < S32_MIN || off > S32_MAX)
		return -EOPNOTSUPP;
	rule->type = type;
	rule->off = off;
	return 0;
}

/**
 * cfi_expr_rule - the frame rule a DWARF expression amounts to
 * @op:	the CFA instruction that carried it: DW_CFA_def_cfa_expression (the
 *	result is the CFA), DW_CFA_expression (the register is saved at the
 *	result) or DW_CFA_val_expression (the register's value is the result);
 *	for the last two the CFA is pushed first, as DWARF says
 * @expr: the expression, already copied in
 * @len: its length
 * @pc:	the pc the row is for
 * @regs: the DWARF numbers of SP, FP and the return address column
 * @rule: filled in on success; regno/reg are left for the caller to map
 * @regno: the register a REG_OFF or REG_OFF_DEREF rule is based on
 *
 * Return: 0, -EINVAL for a malformed expression (truncated operand, stack
 * underflow), -EOPNOTSUPP for one outside the subset or with no rule
 * equivalent.
 */
int cfi_expr_rule(u8 op, const u8 *expr, unsigned int len, unsigned long pc,
		  const struct eh_frame_regs *regs, struct unwind_user_rule *rule,
		  u16 *regno)
{
	struct cfi_expr x = {
		.p = expr, .end = expr + len, .pc = pc, .regs = regs,
	};
	unsigned int ops = 0;
	struct cfi_val v;
	int ret;

	memset(rule, 0, sizeof(*rule));
	*regno = 0;
	if (op != DW_CFA_def_cfa_expression)
		expr_push(&x, CFI_VAL_CFA, 0, 0);

	while (x.p < x.end) {
		if (++ops > CFI_EXPR_MAX_OPS)
			return -EOPNOTSUPP;
		ret = expr_step(&x);
		if (ret)
			return ret;
	}
	if (expr_pop(&x, &v))
		return -EINVAL;
	*regno = v.regno;

	switch (op) {
	case DW_CFA_def_cfa_expression:
		if (v.kind == CFI_VAL_REG)
			return rule_off(rule, UNWIND_USER_RULE_REG_OFF, v.off);
		if (v.kind == CFI_VAL_REG_DEREF)
			return rule_off(rule, UNWIND_USER_RULE_REG_OFF_DEREF, v.off);
		break;
	case DW_CFA_expression:		/* an address */
		if (v.kind == CFI_VAL_CFA)
			return rule_off(rule, UNWIND_USER_RULE_CFA_OFF_DEREF, v.off);
		if (v.kind == CFI_VAL_REG)
			return rule_off(rule, UNWIND_USER_RULE_REG_OFF_DEREF, v.off);
		break;
	case DW_CFA_val_expression:	/* a value */
		if (v.kind == CFI_VAL_CFA)
			return rule_off(rule, UNWIND_USER_RULE_CFA_OFF, v.off);
		if (v.kind == CFI_VAL_CFA_DEREF)
			return rule_off(rule, UNWIND_USER_RULE_CFA_OFF_DEREF, v.off);
		if (v.kind == CFI_VAL_REG)
			return rule_off(rule, UNWIND_USER_RULE_REG_OFF, v.off);
		if (v.kind == CFI_VAL_REG_DEREF)
			return rule_off(rule, UNWIND_USER_RULE_REG_OFF_DEREF, v.off);
		break;
	}
	return -EOPNOTSUPP;
}
