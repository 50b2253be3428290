/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNWIND_TEST_LINUX_STRING_H
#define _UNWIND_TEST_LINUX_STRING_H

#include <string.h>

#endif
