/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions for the PE oracle that GCC does not write: unwind data from
 * GAS's .seh_* directives (machine frames, frame registers other than
 * rbp, 32-bit allocation and save offsets, xmm saves) and, written out
 * byte by byte, chained info and a version 2 UNWIND_INFO.  Never run.
 */
	.text

	.globl	seh_machframe
	.def	seh_machframe; .scl 2; .type 32; .endef
	.seh_proc seh_machframe
seh_machframe:
	.seh_pushframe
	push	%rbp
	.seh_pushreg %rbp
	sub	$0x28, %rsp
	.seh_stackalloc 0x28
	.seh_endprologue
	nop
	add	$0x28, %rsp
	pop	%rbp
	ret
	.seh_endproc

	.globl	seh_machframe_code
	.def	seh_machframe_code; .scl 2; .type 32; .endef
	.seh_proc seh_machframe_code
seh_machframe_code:
	.seh_pushframe code
	push	%rbx
	.seh_pushreg %rbx
	mov	%rsi, 0x30(%rsp)
	.seh_savereg %rsi, 0x30
	.seh_endprologue
	nop
	pop	%rbx
	ret
	.seh_endproc

	/* r13 as the frame register, FrameOffset 2 */
	.globl	seh_r13
	.def	seh_r13; .scl 2; .type 32; .endef
	.seh_proc seh_r13
seh_r13:
	push	%r13
	.seh_pushreg %r13
	push	%rbx
	.seh_pushreg %rbx
	sub	$0x40, %rsp
	.seh_stackalloc 0x40
	lea	0x20(%rsp), %r13
	.seh_setframe %r13, 0x20
	.seh_endprologue
	call	seh_r12
	lea	0x20(%r13), %rsp
	pop	%rbx
	pop	%r13
	ret
	.seh_endproc

	/* r12: lea rsp needs a SIB byte */
	.globl	seh_r12
	.def	seh_r12; .scl 2; .type 32; .endef
	.seh_proc seh_r12
seh_r12:
	push	%r12
	.seh_pushreg %r12
	sub	$0x30, %rsp
	.seh_stackalloc 0x30
	lea	0x10(%rsp), %r12
	.seh_setframe %r12, 0x10
	.seh_endprologue
	call	seh_far
	lea	0x20(%r12), %rsp
	pop	%r12
	rep ret
	.seh_endproc

	/* a 1 MiB frame, saves at 32-bit offsets, xmm saves */
	.globl	seh_far
	.def	seh_far; .scl 2; .type 32; .endef
	.seh_proc seh_far
seh_far:
	push	%rdi
	.seh_pushreg %rdi
	sub	$0x100000, %rsp
	.seh_stackalloc 0x100000
	mov	%rsi, 0x80000(%rsp)
	.seh_savereg %rsi, 0x80000
	mov	%rbx, 0x20(%rsp)
	.seh_savereg %rbx, 0x20
	movaps	%xmm6, 0x30(%rsp)
	.seh_savexmm %xmm6, 0x30
	movaps	%xmm7, 0x90000(%rsp)
	.seh_savexmm %xmm7, 0x90000
	.seh_endprologue
	call	seh_tail
	mov	0x80000(%rsp), %rsi
	mov	0x20(%rsp), %rbx
	add	$0x100000, %rsp
	pop	%rdi
	ret	$8
	.seh_endproc

	/* epilogs that end in jumps */
	.globl	seh_tail
	.def	seh_tail; .scl 2; .type 32; .endef
	.seh_proc seh_tail
seh_tail:
	push	%rsi
	.seh_pushreg %rsi
	sub	$0x20, %rsp
	.seh_stackalloc 0x20
	.seh_endprologue
	test	%ecx, %ecx
	je	1f
	cmp	$1, %ecx
	je	2f
	cmp	$2, %ecx
	je	3f
	add	$0x20, %rsp
	pop	%rsi
	jmp	seh_r13
1:	add	$0x20, %rsp
	pop	%rsi
	jmp	*seh_ptr(%rip)
2:	add	$0x20, %rsp
	pop	%rsi
	rex.W jmp *%rax
3:	add	$0x20, %rsp
	pop	%rsi
	jmp	seh_tail
	.seh_endproc

	/*
	 * A function whose cold part lies elsewhere, its unwind info chained
	 * to the function's: written out, GAS has no directive for it.
	 */
	.globl	seh_parent
	.def	seh_parent; .scl 2; .type 32; .endef
seh_parent:
	push	%rbx
	push	%rbp
	sub	$0x38, %rsp
	test	%ecx, %ecx
	jne	seh_cold
seh_parent_ret:
	add	$0x38, %rsp
	pop	%rbp
	pop	%rbx
	ret
seh_parent_end:
	nop
seh_cold:
	call	seh_r13
	jmp	seh_parent_ret
	add	$0x38, %rsp
	pop	%rbp
	pop	%rbx
	ret
seh_cold_end:

	/* version 2: an epilog at the end, described by EPILOG codes */
	.globl	seh_v2
	.def	seh_v2; .scl 2; .type 32; .endef
seh_v2:
	push	%rbx
	sub	$0x20, %rsp
	call	seh_r13
	add	$0x20, %rsp
	pop	%rbx
	ret
seh_v2_end:

	.section .xdata
	.p2align 2
seh_parent_xdata:
	.byte	1, 6, 3, 0
	.byte	6, 0x62			/* 6: ALLOC_SMALL 0x38 */
	.byte	2, 0x50			/* 2: PUSH_NONVOL rbp */
	.byte	1, 0x30			/* 1: PUSH_NONVOL rbx */
	.byte	0, 0			/* padding */
	.p2align 2
seh_cold_xdata:
	.byte	1 | (4 << 3), 0, 0, 0	/* CHAININFO, no codes */
	.rva	seh_parent, seh_parent_end, seh_parent_xdata
	.p2align 2
seh_v2_xdata:
	.byte	2, 5, 4, 0
	.byte	6, 0x16			/* EPILOG: size 6, at the end */
	.byte	0, 0x06			/* EPILOG: padding */
	.byte	5, 0x32			/* 5: ALLOC_SMALL 0x20 */
	.byte	1, 0x30			/* 1: PUSH_NONVOL rbx */

	.section .pdata
	.p2align 2
	.rva	seh_parent, seh_parent_end, seh_parent_xdata
	.rva	seh_cold, seh_cold_end, seh_cold_xdata
	.rva	seh_v2, seh_v2_end, seh_v2_xdata

	.data
seh_ptr:
	.quad	seh_r13
