/* SPDX-License-Identifier: GPL-2.0 */
/* Enough of sysctl for a table the test never registers. */
#ifndef _REGISTRY_TEST_LINUX_SYSCTL_H
#define _REGISTRY_TEST_LINUX_SYSCTL_H

#include <stddef.h>

struct ctl_table {
	const char	*procname;
	void		*data;
	int		maxlen;
	unsigned short	mode;
	int		(*proc_handler)(const struct ctl_table *table,
					int write, void *buffer,
					size_t *lenp, long long *ppos);
};

int proc_douintvec(const struct ctl_table *table, int write, void *buffer,
		   size_t *lenp, long long *ppos);

#define register_sysctl_init(path, table)	((void)(path), (void)(table))

/* Referenced, so that the initcall is not an unused function. */
#define late_initcall(fn)						\
	int (*const __test_initcall_##fn)(void) __attribute__((used)) = fn

#endif
