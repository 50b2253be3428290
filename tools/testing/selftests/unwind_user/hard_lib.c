// SPDX-License-Identifier: GPL-2.0
/*
 * libhard_plt.so, built without frame pointers: the function hard_plt (see
 * hard_plt.c) calls through its PLT.
 */
#include "hard_lib.h"

volatile unsigned long hard_lib_sink;

__attribute__((noinline, used, visibility("default"))) void hard_lib_fn(unsigned long n)
{
	hard_lib_sink += n;
}
