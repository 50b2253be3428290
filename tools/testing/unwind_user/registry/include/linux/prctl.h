/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel tree's uapi header: PR_EH_FRAME_FORMAT_*. */
#include "../../../../../../include/uapi/linux/prctl.h"
