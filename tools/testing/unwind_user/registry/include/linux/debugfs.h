/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs for the registry tests: nothing is created, but each show
 * function is kept (DEFINE_SHOW_ATTRIBUTE), and the tests call it.
 */
#ifndef _REGISTRY_TEST_LINUX_DEBUGFS_H
#define _REGISTRY_TEST_LINUX_DEBUGFS_H

#include <linux/seq_file.h>

struct dentry;

struct test_show_attribute {
	int	(*show)(struct seq_file *m, void *v);
};

#define DEFINE_SHOW_ATTRIBUTE(__name)					\
	static const struct test_show_attribute __name##_fops = {	\
		.show = __name##_show,					\
	}

static inline struct dentry *debugfs_create_dir(const char *name,
						struct dentry *parent)
{
	return NULL;
}

static inline struct dentry *
debugfs_create_file(const char *name, unsigned short mode,
		    struct dentry *parent, void *data,
		    const struct test_show_attribute *fops)
{
	return NULL;
}

#endif
