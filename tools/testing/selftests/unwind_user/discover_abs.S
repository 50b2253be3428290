/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A function whose .eh_frame gives its address as an absolute one
 * (DW_EH_PE_absptr), as non-PIC code built without gas's CFI directives
 * can: discover_workload-abs (an ET_EXEC) links it.
 *
 * abs_spin(n) counts n down, a leaf without a frame: the CFA is the stack
 * pointer + 8 throughout.  abs_decoy, a page further, is never run; its
 * FDE says the CFA is the stack pointer + 64.  A process that maps the
 * program one page above its link address finds, for abs_spin's copy
 * there, the FDE whose absolute range covers that pc (abs_decoy's, or none
 * with the header's search table): a result that holds for that mapping
 * only, which the kernel must not share with processes that map the file
 * where it was linked to run.
 */
	.section .text.abs,"ax",@progbits
	.balign 4096
	.globl	abs_spin
	.type	abs_spin, @function
abs_spin:
1:	dec	%rdi
	jnz	1b
	ret
.Labs_spin_end:
	.size	abs_spin, .-abs_spin

	.balign 4096
	.type	abs_decoy, @function
abs_decoy:
	.fill	64, 1, 0xcc
.Labs_decoy_end:
	.size	abs_decoy, .-abs_decoy

	.section .eh_frame,"a",@progbits
	.balign 8
.Lcie:
	.long	.Lcie_end - .Lcie_id
.Lcie_id:
	.long	0			/* a CIE */
	.byte	1			/* version */
	.asciz	"zR"
	.uleb128 1			/* code alignment */
	.sleb128 -8			/* data alignment */
	.uleb128 16			/* the return address column */
	.uleb128 1			/* augmentation data */
	.byte	0x00			/* FDE addresses: DW_EH_PE_absptr */
	.byte	0x0c, 7, 8		/* DW_CFA_def_cfa: %rsp + 8 */
	.byte	0x90, 1			/* DW_CFA_offset: the RA at CFA - 8 */
	.balign 8, 0			/* DW_CFA_nop */
.Lcie_end:

	.long	.Lfde_spin_end - .Lfde_spin_cie
.Lfde_spin_cie:
	.long	.Lfde_spin_cie - .Lcie
	.quad	abs_spin
	.quad	.Labs_spin_end - abs_spin
	.uleb128 0
	.balign 8, 0
.Lfde_spin_end:

	.long	.Lfde_decoy_end - .Lfde_decoy_cie
.Lfde_decoy_cie:
	.long	.Lfde_decoy_cie - .Lcie
	.quad	abs_decoy
	.quad	.Labs_decoy_end - abs_decoy
	.uleb128 0
	.byte	0x0e, 64		/* DW_CFA_def_cfa_offset: %rsp + 64 */
	.balign 8, 0
.Lfde_decoy_end:

	.section .note.GNU-stack,"",@progbits
