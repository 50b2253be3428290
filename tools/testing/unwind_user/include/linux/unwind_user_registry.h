/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The real header of the kernel tree, without CONFIG_UNWIND_USER_EH_FRAME:
 * its stubs.  The tests call the reader directly, not through the registry.
 */
#include "../../../../../include/linux/unwind_user_registry.h"
