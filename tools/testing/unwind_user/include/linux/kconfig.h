/* SPDX-License-Identifier: GPL-2.0 */
/* The real header of the kernel tree, over an empty generated/autoconf.h. */
#include "../../../../../include/linux/kconfig.h"
