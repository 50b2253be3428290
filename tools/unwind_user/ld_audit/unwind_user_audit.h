/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of unwind_user_audit.so share: the registration interface
 * (for headers from before it), the module's state and its debugging
 * output.  Nothing here is exported from the module.
 */
#ifndef UNWIND_USER_AUDIT_H
#define UNWIND_USER_AUDIT_H

#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <linux/types.h>

#pragma GCC visibility push(hidden)

/*
 * The registration interface, for headers from before it (<sys/prctl.h>
 * includes <linux/prctl.h>).
 */
#ifdef PR_REGISTER_EH_FRAME
#define uu_table prctl_eh_frame
#else
struct uu_table {
	__u32	format;			/* PR_EH_FRAME_FORMAT_* */
	__u32	flags;			/* none defined yet: must be 0 */
	__u64	text_start;		/* the text the table describes */
	__u64	text_size;
	__u64	eh_frame_start;		/* the PT_LOAD that holds .eh_frame */
	__u64	eh_frame_size;
	__u64	eh_frame_hdr_start;	/* PT_GNU_EH_FRAME */
	__u64	eh_frame_hdr_size;
};

#define PR_REGISTER_EH_FRAME		82
#define PR_UNREGISTER_EH_FRAME		83
#define PR_EH_FRAME_FORMAT_EH_FRAME_HDR	1
#define PRCTL_EH_FRAME_SIZE_VER0	56
#endif

_Static_assert(sizeof(struct uu_table) == PRCTL_EH_FRAME_SIZE_VER0,
	       "struct prctl_eh_frame changed size");

#define PREFIX		"unwind_user_audit: "
#ifndef PR_EH_FRAME_FORMAT_EH_FRAME
#define PR_EH_FRAME_FORMAT_EH_FRAME	2
#endif

extern bool debug;		/* UNWIND_USER_AUDIT_DEBUG=1 */
extern bool supported;		/* the kernel knows PR_REGISTER_EH_FRAME */

/* One line of debugging output, written with a single write(2). */
struct line {
	char buf[1024];
	size_t len;
};

__attribute__((format(printf, 2, 3)))
void line_add(struct line *l, const char *fmt, ...);
/* "ok", or what the prctl's errno @err means */
void line_add_result(struct line *l, int err);
void line_write(struct line *l);

/*
 * Frames that JIT compilers give libgcc (unwind_user_audit_jit.c): the
 * flags la_objopen() returns for @map, which has the name @name.
 */
unsigned int jit_objopen(struct link_map *map, const char *name);

#pragma GCC visibility pop

#endif
