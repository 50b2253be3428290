// SPDX-License-Identifier: GPL-2.0
/*
 * libunwind_cb.so, built without frame pointers: lib_a -> lib_b -> cb_spin,
 * a function of the program that loaded it (exported with -rdynamic).  The
 * chain from cb_spin crosses this library's frames only if the kernel
 * knows its unwind table (see libchain.c, register.c).
 */
#define LIB_FN	__attribute__((noinline, noclone, used, visibility("default")))

#include "lib_cb.h"

volatile unsigned long lib_sink;

/* An instruction after each call: no tail calls. */
static inline void after_call(void)
{
	asm volatile("" ::: "memory");
}

LIB_FN void lib_b(unsigned long ms)
{
	volatile char buf[24];

	buf[0] = 2;
	asm volatile("" : : "r"(buf) : "memory");
	cb_spin(ms);
	after_call();
	lib_sink += buf[0];
}

LIB_FN void lib_a(unsigned long ms)
{
	volatile char buf[40];

	buf[0] = 1;
	asm volatile("" : : "r"(buf) : "memory");
	lib_b(ms);
	after_call();
	lib_sink += buf[0];
}
