/* SPDX-License-Identifier: GPL-2.0 */
/* The real header of the kernel tree this directory sits in. */
#include "../../../../../../include/linux/unwind_user_types.h"
