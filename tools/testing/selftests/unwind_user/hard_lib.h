/* SPDX-License-Identifier: GPL-2.0 */
/* libhard_plt.so (hard_lib.c), which hard_plt.c calls through its PLT. */
#ifndef UNWIND_USER_HARD_LIB_H
#define UNWIND_USER_HARD_LIB_H

void hard_lib_fn(unsigned long n);

#endif
