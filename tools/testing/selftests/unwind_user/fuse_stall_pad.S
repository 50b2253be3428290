/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions nobody calls, an FDE each, linked after fuse_stall_lib.c: they
 * make .eh_frame a few pages long, with the FDEs the walk reads at its
 * start, so that the last page of .eh_frame, which the first page of the
 * data segment shares in the file (and the loader reads), holds none of
 * them.
 */
	.text
	.rept	1024
	.cfi_startproc
	ret
	.cfi_endproc
	.endr
	.section .note.GNU-stack, "", @progbits
