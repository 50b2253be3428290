/* SPDX-License-Identifier: GPL-2.0 */
/* The real header of the kernel tree; <asm/unwind_user.h> is the test one. */
#include "../../../../../../include/linux/unwind_user.h"
