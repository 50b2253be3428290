/* SPDX-License-Identifier: GPL-2.0 */
/* No kernel configuration: every option is off unless a test defines it. */
