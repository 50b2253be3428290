/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNWIND_TEST_LINUX_SIZES_H
#define _UNWIND_TEST_LINUX_SIZES_H

#define SZ_1K		0x00000400
#define SZ_4K		0x00001000
#define SZ_32K		0x00008000
#define SZ_64K		0x00010000
#define SZ_2M		0x00200000
#define SZ_16M		0x01000000
#define SZ_32M		0x02000000
#define SZ_4G		0x100000000ULL

#endif
