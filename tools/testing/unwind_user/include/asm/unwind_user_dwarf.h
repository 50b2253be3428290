/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The real <asm/unwind_user_dwarf.h> of the architecture the tests are
 * built for: s390 for the s390x build run under qemu-s390x (the Makefile
 * defines UNWIND_TEST_S390 for it), arm64 for the one under qemu-aarch64
 * (UNWIND_TEST_ARM64), else x86.
 */
#ifdef UNWIND_TEST_S390
#include "../../../../../arch/s390/include/asm/unwind_user_dwarf.h"
#elif defined(UNWIND_TEST_ARM64)
#include "../../../../../arch/arm64/include/asm/unwind_user_dwarf.h"
#else
#include "../../../../../arch/x86/include/asm/unwind_user_dwarf.h"
#endif
