// SPDX-License-Identifier: GPL-2.0
/*
 * libunwind_cb2.so: lib2_y -> lib2_x -> cb_spin, like libunwind_cb.so but
 * from other code with other frame sizes.  Loaded at the address
 * libunwind_cb.so had, after it was closed: an unwinder that kept the first
 * library's table would find wrong CFAs here and lose the chain.
 */
#define LIB_FN	__attribute__((noinline, noclone, used, visibility("default")))

#include "lib_cb.h"

volatile unsigned long lib2_sink;

static inline void after_call(void)
{
	asm volatile("" ::: "memory");
}

/* Frames much bigger than libunwind_cb.so's, and different from each other. */
LIB_FN void lib2_x(unsigned long ms)
{
	volatile char buf[1000];

	buf[0] = 3;
	buf[999] = 4;
	asm volatile("" : : "r"(buf) : "memory");
	cb_spin(ms);
	after_call();
	lib2_sink += buf[0] + buf[999];
}

LIB_FN void lib2_y(unsigned long ms)
{
	volatile char buf[2040];
	unsigned long n = ms;

	buf[0] = 5;
	buf[2039] = 6;
	asm volatile("" : "+r"(n) : "r"(buf) : "memory");
	lib2_x(n);
	after_call();
	lib2_sink += buf[0] + buf[2039];
}
