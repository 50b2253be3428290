/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test libraries (libunwind_cb.so, libunwind_cb2.so) and the function
 * of the program that loads them that they call back.
 */
#ifndef UNWIND_USER_LIB_CB_H
#define UNWIND_USER_LIB_CB_H

/* In the program (exported with -rdynamic): spins for @ms ms of CPU time. */
void cb_spin(unsigned long ms);

/* libunwind_cb.so: lib_a -> lib_b -> cb_spin */
void lib_a(unsigned long ms);
void lib_b(unsigned long ms);

/* libunwind_cb2.so: lib2_y -> lib2_x -> cb_spin */
void lib2_y(unsigned long ms);
void lib2_x(unsigned long ms);

#endif
