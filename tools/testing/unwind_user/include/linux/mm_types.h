/* SPDX-License-Identifier: GPL-2.0 */
/* Nothing: only the registry's stubs are built here. */
struct mm_struct;
