// SPDX-License-Identifier: GPL-2.0
/*
 * Leaks on purpose, for make check-debug's proof that kmemleak reports
 * leaks on s390x, where the kernel's own sample (samples/kmemleak) oopses
 * under KASAN in Linux 7.2 at its first store to a per-CPU variable of a
 * module.  Objects to which no reference is kept anywhere.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#define LEAKS	64

static int __init kmemleak_leak_init(void)
{
	void **p;
	int i;

	/*
	 * A stale copy of a pointer (a register, a stack slot) hides the
	 * object it points to from a conservative scan: many objects, each
	 * alone, and each filled with what points nowhere.
	 */
	for (i = 0; i < LEAKS; i++) {
		p = kmalloc(512, GFP_KERNEL);
		if (!p)
			return -ENOMEM;
		memset(p, 0x5a, 512);
		OPTIMIZER_HIDE_VAR(p);
	}
	pr_info("kmemleak_leak: %d objects leaked on purpose\n", LEAKS);
	return 0;
}

module_init(kmemleak_leak_init);
MODULE_DESCRIPTION("Objects leaked on purpose, for kmemleak's check");
MODULE_LICENSE("GPL");
