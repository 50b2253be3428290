/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake user address space for copy_from_user(): a few regions of host
 * memory, each placed at a "user" address.  Reads of anything else fault.
 */
#ifndef _UNWIND_TEST_FAKE_USER_H
#define _UNWIND_TEST_FAKE_USER_H

#include <stddef.h>

#define FAKE_USER_MAX_REGIONS	32

/* Forget all regions. */
void fake_user_reset(void);
/* Make [addr, addr + len) readable, backed by @data. */
int fake_user_map(unsigned long addr, const void *data, unsigned long len);

/* Statistics: copy_from_user() calls and bytes asked for since reset. */
extern unsigned long fake_user_copies;
extern unsigned long fake_user_bytes;

#endif
