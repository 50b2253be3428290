/* SPDX-License-Identifier: GPL-2.0 */
/* Files: the fake VMAs have none. */
#ifndef _REGISTRY_TEST_LINUX_FILE_H
#define _REGISTRY_TEST_LINUX_FILE_H

struct file;

static inline struct file *get_file(struct file *f)
{
	return f;
}

static inline void fput(struct file *f)
{
}

#endif
