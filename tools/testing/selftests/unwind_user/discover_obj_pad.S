/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Linked after discover_obj.c: two pages of text after obj_loop, so that
 * the text PT_LOAD spans three pages and discover_workload's "texthole"
 * case can unmap its last one and keep obj_loop's.
 */
	.text
	.skip	8192, 0xcc
	.section .note.GNU-stack, "", @progbits
