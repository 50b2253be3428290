/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A program for the oracle (oracle.py) whose call frame information is made
 * of DWARF expressions: one row per instruction, each with another
 * expression for the CFA, the return address or %rbp.  The code is never
 * run; readelf decodes the expressions, oracle.py works out the rule each
 * amounts to, the kernel code must agree (or fail as oracle.py says).
 */

/* One row: a nop, and the DW_CFA_* @op with the expression @bytes. */
	.macro cfa bytes:vararg
	.byte 0x90		/* nop */
	.Lcount\@ = 0
	.irp b, \bytes
	.Lcount\@ = .Lcount\@ + 1
	.endr
	.cfi_escape 0x0f, .Lcount\@, \bytes
	.endm

	.macro reg op, regno, bytes:vararg
	.byte 0x90
	.Lcount\@ = 0
	.irp b, \bytes
	.Lcount\@ = .Lcount\@ + 1
	.endr
	.cfi_escape \op, \regno, .Lcount\@, \bytes
	.endm

/* An empty expression, for register @regno */
	.macro empty op, regno
	.byte 0x90
	.cfi_escape \op, \regno, 0
	.endm

	.text

/* A function that realigns its stack, as GCC writes it. */
	.p2align 4
	.type	drap, @function
drap:
	.cfi_startproc
	lea	0x8(%rsp), %r10
	.cfi_def_cfa %r10, 0
	and	$-64, %rsp
	pushq	-0x8(%r10)
	push	%rbp
	mov	%rsp, %rbp
	.cfi_escape 0x10, 6, 2, 0x76, 0
	push	%r10
	.cfi_escape 0x0f, 3, 0x76, 0x78, 0x06
	mov	-0x8(%rbp), %r10
	.cfi_def_cfa %r10, 0
	leave
	lea	-0x8(%r10), %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	drap, .-drap

/* glibc's signal trampoline: the registers are in the ucontext at %rsp. */
	.p2align 4
	nop
	.type	restore_rt, @function
restore_rt:
	.cfi_startproc simple
	.cfi_signal_frame
	.cfi_escape 0x0f, 4, 0x77, 0xa0, 0x01, 0x06	/* CFA: *(rsp + 160) */
	.cfi_escape 0x10, 6, 3, 0x77, 0xf8, 0x00	/* rbp at rsp + 120 */
	.cfi_escape 0x10, 7, 3, 0x77, 0xa0, 0x01	/* rsp at rsp + 160 */
	.cfi_escape 0x10, 16, 3, 0x77, 0xa8, 0x01	/* rip at rsp + 168 */
	mov	$15, %eax
	syscall
	.cfi_endproc
	.size	restore_rt, .-restore_rt

	.p2align 4
	.globl	main
	.type	main, @function
main:
	.cfi_startproc
	xor	%eax, %eax
	ret
	.cfi_endproc
	.size	main, .-main

/*
 * The rows: DW_OP_* and the column, by name (after the code, which has
 * instructions and registers of the same names).
 */
#define DEF_CFA_EXPR	0x0f
#define EXPR		0x10
#define VAL_EXPR	0x16
#define RA		16
#define RBP		6

#define deref		0x06
#define const1u		0x08
#define const1s		0x09
#define const2u		0x0a
#define const2s		0x0b
#define const4u		0x0c
#define const4s		0x0d
#define const8u		0x0e
#define const8s		0x0f
#define constu		0x10
#define consts		0x11
#define dup		0x12
#define drop		0x13
#define over		0x14
#define pick		0x15
#define swap		0x16
#define rot		0x17
#define abs		0x19
#define and		0x1a
#define div		0x1b
#define minus		0x1c
#define mul		0x1e
#define neg		0x1f
#define not		0x20
#define or		0x21
#define plus		0x22
#define plus_uconst	0x23
#define shl		0x24
#define shr		0x25
#define shra		0x26
#define xor		0x27
#define bra		0x28
#define eq		0x29
#define ge		0x2a
#define gt		0x2b
#define le		0x2c
#define lt		0x2d
#define ne		0x2e
#define skip		0x2f
#define lit0		0x30
#define lit1		0x31
#define lit2		0x32
#define lit3		0x33
#define lit4		0x34
#define lit5		0x35
#define lit7		0x37
#define lit8		0x38
#define lit10		0x3a
#define lit11		0x3b
#define lit12		0x3c
#define lit15		0x3f
#define lit16		0x40
#define lit31		0x4f
#define reg0		0x50
#define rbx		0x73	/* DW_OP_breg3 */
#define rbp		0x76
#define rsp		0x77
#define r10		0x7a
#define rip		0x80
#define regx		0x90
#define bregx		0x92
#define deref_size	0x94
#define nop		0x96
#define call2		0x98
#define call_frame_cfa	0x9c
#define stack_value	0x9f

/* The CFA: the operators, and what the result may be. */
	.p2align 4
	.type	cfa_exprs, @function
cfa_exprs:
	.cfi_startproc
	cfa rsp, 8
	cfa rsp, 8, deref
	cfa rbp, 0x78, deref			/* DRAP */
	cfa r10, 0x78, deref
	cfa bregx, 13, 16, deref
	cfa bregx, 7, 0x70
	cfa rbx, 0
	cfa rsp, 0, const1u, 0xf8, plus
	cfa rsp, 0, const1s, 0xf8, plus
	cfa rsp, 0, const2u, 0xf0, 0xff, plus
	cfa rsp, 0, const2s, 0xf0, 0xff, plus
	cfa rsp, 0, const4u, 0xf0, 0xff, 0xff, 0x7f, plus
	cfa rsp, 0, const4u, 0xf0, 0xff, 0xff, 0xff, plus
	cfa rsp, 0, const4s, 0xf0, 0xff, 0xff, 0xff, plus
	cfa rsp, 0, const8u, 0xf0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, plus
	cfa rsp, 0, const8s, 0x34, 0x12, 0, 0, 0, 0, 0, 0, plus
	cfa rsp, 0, constu, 0xac, 0x02, plus
	cfa rsp, 0, consts, 0xd4, 0x7d, plus
	cfa rsp, 0, lit31, plus
	cfa rbp, 0, plus_uconst, 0x80, 0x01
	cfa lit16, rsp, 8, plus
	cfa rsp, 0, lit8, minus
	cfa rsp, 8, dup, drop
	cfa lit8, rsp, 0, swap, minus
	cfa rsp, 0, lit16, over, drop, plus
	cfa lit8, rbp, 0, over, plus, swap, drop
	cfa rsp, 8, dup, deref, swap, drop
	cfa rsp, 0, lit3, lit5, mul, plus
	cfa rsp, 0, lit12, lit10, and, plus
	cfa rsp, 0, lit12, lit10, or, plus
	cfa rsp, 0, lit12, lit10, xor, plus
	cfa rsp, 0, lit3, lit5, minus, plus
	cfa rsp, 0, lit1, lit4, shl, plus
	cfa rsp, 0, lit16, lit2, shr, plus
	cfa rsp, 0, const1s, 0xf0, const1u, 60, shr, plus
	cfa rsp, 0, const1s, 0xf0, lit2, shra, plus
	cfa rsp, 0, lit1, const1u, 64, shl, plus
	cfa rsp, 0, const1s, 0xff, const1u, 200, shra, plus
	cfa rsp, 0, lit8, neg, plus
	cfa rsp, 0, lit7, not, plus
	cfa rsp, 0, lit3, lit3, eq, plus
	cfa rsp, 0, lit3, lit4, ne, plus
	cfa rsp, 0, const1s, 0xff, lit0, lt, plus
	cfa rsp, 0, const1s, 0xff, lit0, gt, plus
	cfa rsp, 0, lit5, lit4, le, plus
	cfa rsp, 0, lit4, lit4, ge, plus
	cfa rsp, 8, rip, 0, lit15, and, lit11, ge, lit3, shl, plus	/* PLT */
	cfa rsp, 8, rip, 0, lit15, and, lit10, ge, lit3, shl, plus
	cfa rsp, 8, rip, 0, const2u, 0xff, 0xff, and, plus
	cfa rsp, 0xff, 0xff, 0xff, 0xff, 0x07
	cfa rsp, 0x80, 0x80, 0x80, 0x80, 0x08
	cfa rsp, 0x88, 0x80, 0x80, 0x80, 0x10, consts, 0x80, 0x80, 0x80, 0x80, 0x10, minus
	cfa nop, rsp, 8, nop
	cfa rsp, 8, nop, nop, nop, nop, nop, nop, nop, nop, nop, nop, nop, nop, nop, nop
	cfa rsp, 8, nop, nop, nop, nop, nop, nop, nop, nop, nop, nop, nop, nop, nop, nop, nop
	cfa rsp, 8, lit0, lit0, lit0, lit0, lit0, lit0, lit0, \
	    drop, drop, drop, drop, drop, drop, drop
	/* No rule, outside the subset, malformed */
	cfa lit8
	cfa rip, 0
	cfa rsp, 8, deref, deref
	cfa lit8, deref
	cfa lit8, rsp, 0, minus
	cfa rsp, 0, rbp, 0, plus
	cfa rsp, 0, lit2, mul
	cfa rsp, 0, deref, lit8, plus
	cfa rsp, 8, lit0, lit0, lit0, lit0, lit0, lit0, lit0, lit0
	cfa rsp, 8, skip, 0, 0
	cfa rsp, 8, lit0, bra, 0, 0
	cfa rsp, 8, pick, 0
	cfa rsp, 8, deref_size, 8
	cfa rsp, 8, lit1, lit2, rot
	cfa rsp, 8, abs
	cfa rsp, 8, lit1, div
	cfa reg0 + 7
	cfa regx, 7
	cfa call2, 0, 0
	cfa rsp, 8, stack_value
	cfa plus
	cfa lit8, plus
	cfa drop
	cfa lit8, swap
	cfa rsp, 8, drop
	cfa plus, skip, 0, 0
	ret
	.cfi_endproc
	.size	cfa_exprs, .-cfa_exprs

/* The return address and %rbp: where they are saved, or their values. */
	.p2align 4
	.type	reg_exprs, @function
reg_exprs:
	.cfi_startproc
	reg EXPR, RA, rsp, 16
	reg EXPR, RA, lit8, minus
	reg EXPR, RBP, nop, lit16, minus
	reg EXPR, RBP, rbp, 0			/* DRAP */
	reg EXPR, RBP, rbx, 8
	reg EXPR, RA, r10, 0x70
	empty EXPR, RBP
	reg VAL_EXPR, RBP, plus_uconst, 16
	reg VAL_EXPR, RBP, lit16, minus, deref
	reg VAL_EXPR, RBP, rsp, 24
	reg VAL_EXPR, RBP, rsp, 8, deref
	empty VAL_EXPR, RBP
	reg VAL_EXPR, RA, lit8, minus, deref
	reg VAL_EXPR, RA, rbx, 0x7f
	reg EXPR, RA, const4u, 0xff, 0xff, 0xff, 0x7f, plus
	reg EXPR, RA, const4u, 0, 0, 0, 0x80, plus
	reg VAL_EXPR, RBP, const4u, 0, 0, 0, 0x80, minus
	reg VAL_EXPR, RBP, const4u, 1, 0, 0, 0x80, minus
	/* No rule, outside the subset, malformed */
	reg EXPR, RA, lit8
	reg EXPR, RA, rsp, 8, deref
	reg EXPR, RA, deref
	reg VAL_EXPR, RA, rip, 1
	reg VAL_EXPR, RBP, lit0
	reg VAL_EXPR, RBP, deref, deref
	reg EXPR, RBP, call_frame_cfa
	reg EXPR, RBP, lit0, lit0, lit0, lit0, lit0, lit0, lit0, lit0
	reg EXPR, RBP, dup, dup, dup, dup, dup, dup, dup, dup
	reg EXPR, RBP, plus
	reg EXPR, RBP, drop, drop
	reg VAL_EXPR, RBP, swap
	reg EXPR, RBP, drop
	ret
	.cfi_endproc
	.size	reg_exprs, .-reg_exprs

	.section .note.GNU-stack, "", @progbits
