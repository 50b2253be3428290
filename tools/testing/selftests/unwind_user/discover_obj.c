// SPDX-License-Identifier: GPL-2.0
/*
 * libdiscover_obj.so, the object discover.c maps by hand (whole, with a page
 * unmapped, or from corrupted copies) or dlopen()s from a memfd: one
 * function without frame pointers and without relocations, so that its
 * code runs wherever its file is mapped.  Linked with -nostdlib and -z
 * separate-code: headers r--, text r-x, .eh_frame_hdr and .eh_frame r--
 * (the Makefile checks the layout).
 */

/*
 * Call @cb until it returns 0.  The buffer gives obj_loop a frame of its
 * own, which only its CFI describes; the asm keeps each call a call.
 */
__attribute__((noinline, used, visibility("default")))
void obj_loop(int (*cb)(void))
{
	volatile char buf[48];

	buf[0] = 1;
	asm volatile("" : : "r"(buf) : "memory");
	while (cb())
		asm volatile("" ::: "memory");
	buf[1] = buf[0];
}
