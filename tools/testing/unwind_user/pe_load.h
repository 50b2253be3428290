/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load a PE32+ file as Wine maps it: each section at its RVA in an image
 * of SizeOfImage bytes, the headers at 0, the rest zero.  For the oracle
 * and the benchmark; exits on a file it cannot lay out.
 */
#ifndef _UNWIND_TEST_PE_LOAD_H
#define _UNWIND_TEST_PE_LOAD_H

#include <linux/types.h>

/* The image (malloc'ed), its SizeOfImage and its preferred base. */
u8 *pe_load(const char *path, u32 *image_size, u64 *base);
/*
 * The same from a file that holds an image as a loader laid it out (RVA ==
 * file offset, SizeOfImage bytes: a copy of a process's memory); the base
 * is the one its headers name.
 */
u8 *pe_load_laid_out(const char *path, u32 *image_size, u64 *base);

#endif
