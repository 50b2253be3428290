/* SPDX-License-Identifier: GPL-2.0 */
/* perf's debug.h as tools/perf/util/symbol-pe.c uses it: quiet. */
#ifndef PERF_PE_SHIM_DEBUG_H
#define PERF_PE_SHIM_DEBUG_H

#define pr_debug2(...)		do { } while (0)

#endif
