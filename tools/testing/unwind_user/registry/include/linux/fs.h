/* SPDX-License-Identifier: GPL-2.0 */
/* Inodes: the fake VMAs map no file, so none is ever asked for. */
#ifndef _REGISTRY_TEST_LINUX_FS_H
#define _REGISTRY_TEST_LINUX_FS_H

#include <stdlib.h>

struct file;
struct inode;

static inline struct inode *file_inode(const struct file *f)
{
	abort();
}

#endif
