/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Modules for the registry tests: one reference count, which the tests
 * read to check that every entry of a format holds one and drops it.
 */
#ifndef _REGISTRY_TEST_LINUX_MODULE_H
#define _REGISTRY_TEST_LINUX_MODULE_H

#include <stdbool.h>

struct module {
	int	refs;
	bool	going;	/* try_module_get() fails, as for a module unloading */
};

static inline bool try_module_get(struct module *mod)
{
	if (!mod)
		return true;
	if (__atomic_load_n(&mod->going, __ATOMIC_ACQUIRE))
		return false;
	__atomic_fetch_add(&mod->refs, 1, __ATOMIC_ACQ_REL);
	return true;
}

/* Another reference, for a caller that holds one already. */
static inline void __module_get(struct module *mod)
{
	if (mod)
		__atomic_fetch_add(&mod->refs, 1, __ATOMIC_ACQ_REL);
}

static inline void module_put(struct module *mod)
{
	if (mod)
		__atomic_fetch_sub(&mod->refs, 1, __ATOMIC_ACQ_REL);
}

#define THIS_MODULE		((struct module *)0)
/* Exports: nothing to do in a program. */
#define EXPORT_SYMBOL_GPL(sym)	extern typeof(sym) sym

#endif
