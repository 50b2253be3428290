/* SPDX-License-Identifier: GPL-2.0 */
/* What jit_chain.c calls in jit_chain_asm.S. */
#ifndef UNWIND_USER_JIT_CHAIN_H
#define UNWIND_USER_JIT_CHAIN_H

/*
 * Call @fn(@n) from a frame-pointer frame (push %rbp; mov %rsp,%rbp) of
 * code that no CFI describes: the program's .eh_frame covers its text but
 * has no FDE for it.
 */
long asm_nocfi(long n, long (*fn)(long));

#endif
