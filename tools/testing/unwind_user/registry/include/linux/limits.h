/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's fixed-width limits, which the tools' headers lack. */
#ifndef _REGISTRY_TEST_LINUX_LIMITS_H
#define _REGISTRY_TEST_LINUX_LIMITS_H

#include_next <linux/limits.h>

#ifndef U16_MAX
#define U16_MAX		((u16)~0U)
#endif

#endif
