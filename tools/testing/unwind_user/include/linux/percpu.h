/* SPDX-License-Identifier: GPL-2.0 */
/* User space stand-in for <linux/percpu.h>: one CPU. */
#ifndef _UNWIND_TEST_LINUX_PERCPU_H
#define _UNWIND_TEST_LINUX_PERCPU_H

#include <stdlib.h>

#ifndef __percpu
#define __percpu
#endif

#define alloc_percpu_gfp(type, gfp)	({ (void)(gfp); (type *)calloc(1, sizeof(type)); })
#define free_percpu(ptr)		free(ptr)
#define this_cpu_inc(var)		((var)++)
#define per_cpu_ptr(ptr, cpu)		({ (void)(cpu); (ptr); })
#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < 1; (cpu)++)
#define num_possible_cpus()		1U

#endif
