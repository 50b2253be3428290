/* SPDX-License-Identifier: GPL-2.0 */
/* What discover_workload.c calls that no system header declares. */
#ifndef DISCOVER_WORKLOAD_H
#define DISCOVER_WORKLOAD_H

/* libgcc_s's registry of .eh_frame tables, as JIT compilers call it */
void __register_frame(void *begin);
void __deregister_frame(void *begin);

/* discover_abs.S, in discover_workload-abs only */
void abs_spin(unsigned long n);

#endif
