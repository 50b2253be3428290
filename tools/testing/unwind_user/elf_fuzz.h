/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The input of the ELF table fuzz target (elf_fuzz.c): this header, then
 * the bytes of the file.  Seeds are written by unit --elf-seeds (the unit
 * tests' files) and elf_seeds.py (real objects, as mapped).
 */
#ifndef _UNWIND_TEST_ELF_FUZZ_H
#define _UNWIND_TEST_ELF_FUZZ_H

#include <linux/types.h>

/* Errors a fetch can be made to fail with, by elf_fuzz_input.fail_err. */
#define ELF_FUZZ_ERRS	{ -EFAULT, -EIO, -ENOMEM, -EINTR }

struct elf_fuzz_input {
	u64	addr;		/* the VMA's start: page-aligned, user */
	u64	off;		/* its file offset: page-aligned */
	u32	fail_off;	/* a fetch reaching this byte fails, once */
	u8	fail_err;	/* with ELF_FUZZ_ERRS[fail_err % 4] */
	u8	signal_after;	/* a fatal signal after so many fetches */
	u16	pad;
};

#endif
