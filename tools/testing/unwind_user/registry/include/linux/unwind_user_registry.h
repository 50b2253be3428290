/* SPDX-License-Identifier: GPL-2.0 */
/* The real header of the kernel tree, with CONFIG_UNWIND_USER_EH_FRAME. */
#include "../../../../../../include/linux/unwind_user_registry.h"
