/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A frame-pointer function without CFI (see jit_chain.h): no .cfi
 * directives, so the assembler makes no FDE for it.
 */
	.text
	.globl	asm_nocfi
	.type	asm_nocfi, @function
	.p2align 4
asm_nocfi:
	push	%rbp
	mov	%rsp, %rbp
	call	*%rsi
	pop	%rbp
	ret
	.size	asm_nocfi, . - asm_nocfi

	.section .note.GNU-stack, "", @progbits
