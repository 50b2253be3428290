/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registration of user unwind tables, prctl(PR_REGISTER_EH_FRAME),
 * seen from user space: the UAPI (from <linux/prctl.h> once the kernel
 * headers have it, else the copy below), the objects a process has mapped
 * (their text and .eh_frame_hdr, from the program headers), the
 * registrations the kernel lists in /proc/self/unwind_tables, and the
 * kernel log.
 */
#ifndef UNWIND_USER_UNWIND_TABLE_H
#define UNWIND_USER_UNWIND_TABLE_H

#include <linux/prctl.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef PR_REGISTER_EH_FRAME
#define PR_REGISTER_EH_FRAME		82
#define PR_UNREGISTER_EH_FRAME		83
# define PR_EH_FRAME_FORMAT_EH_FRAME_HDR	1

struct prctl_eh_frame {
	__u32	format;
	__u32	flags;
	__u64	text_start;
	__u64	text_size;
	__u64	eh_frame_start;
	__u64	eh_frame_size;
	__u64	eh_frame_hdr_start;
	__u64	eh_frame_hdr_size;
};

#define PRCTL_EH_FRAME_SIZE_VER0	56
#endif
#ifndef PR_EH_FRAME_FORMAT_EH_FRAME
# define PR_EH_FRAME_FORMAT_EH_FRAME	2
#endif
#ifndef PR_EH_FRAME_FORMAT_PE
# define PR_EH_FRAME_FORMAT_PE		3
#endif

#define UNWIND_TABLES_PATH	"/proc/self/unwind_tables"
#define UNWIND_TABLES_MAX_PATH	"/proc/sys/kernel/unwind_tables_max"

/* .eh_frame_hdr pointer encodings (DW_EH_PE_*) */
#define EH_PE_absptr	0x00
#define EH_PE_uleb128	0x01
#define EH_PE_udata4	0x03
#define EH_PE_sdata4	0x0b
#define EH_PE_pcrel	0x10
#define EH_PE_datarel	0x30
#define EH_PE_omit	0xff

/*
 * A mapped object: its text (the PF_X PT_LOAD), its .eh_frame_hdr, and the
 * PT_LOAD that holds the header, which bounds .eh_frame (the rule exec uses).
 */
struct ut_object {
	char name[256];
	uint64_t base;			/* load bias (link_map l_addr) */
	uint64_t text_start, text_end;
	uint64_t hdr_start, hdr_size;
	uint64_t eh_frame_start, eh_frame_size;
};

/*
 * Find the object whose path ends with @suffix ("" for the main program)
 * among those dl_iterate_phdr() sees: 0, or -1.
 */
int ut_find_object(const char *suffix, struct ut_object *obj);

/* A registration of @obj's text and tables, as PR_REGISTER_EH_FRAME takes it. */
void ut_desc_of(const struct ut_object *obj, struct prctl_eh_frame *desc);

/* prctl(@option, @desc, @size, @arg4, @arg5): 0, or -errno. */
int ut_prctl(int option, const void *desc, unsigned long size, unsigned long arg4,
	     unsigned long arg5);
/* Register @desc; register @obj; unregister the text [@text_start, @text_end). */
int ut_register(const struct prctl_eh_frame *desc);
int ut_register_object(const struct ut_object *obj);
int ut_unregister(uint64_t text_start, uint64_t text_end);
/* The same for a registration of another format than .eh_frame_hdr's. */
int ut_unregister_format(uint32_t format, uint64_t text_start, uint64_t text_end);

/*
 * The registrations of the calling process: the text of
 * /proc/self/unwind_tables, malloc()ed (the caller frees it), or NULL with
 * errno set.
 */
char *ut_read_tables(void);
/*
 * The same without the frame cache's line, whose counters move whenever the
 * process is sampled, and without the size of the tables' indexes, which a
 * lookup builds: what compares equal while the registrations do.
 */
char *ut_read_registrations(void);
/* How many registrations @tables lists (lines, less the cache's). */
unsigned int ut_count_lines(const char *tables);
/* Print @title and then @text line by line as TAP comments ("# ..."). */
void ut_print_lines(const char *title, const char *text);
/* The line of @tables that lists the registration @desc, or NULL. */
const char *ut_find_line(const char *tables, const struct prctl_eh_frame *desc);
/* Is any line's text range overlapping [@start, @end)? The first one, or NULL. */
const char *ut_find_overlap(const char *tables, uint64_t start, uint64_t end,
			    uint64_t *line_start, uint64_t *line_end, uint64_t *line_table);

/* The sysctl kernel.unwind_tables_max: the value, or -1. */
long ut_read_max(void);
int ut_write_max(long max);

/*
 * The kernel log, from the current end on: ut_kmsg_open() positions a
 * reader at the end of /dev/kmsg (-1 if it cannot), ut_kmsg_splat() reads
 * what was logged since and copies into @msg the first record that looks
 * like a kernel warning, bug or oops (returns true), else returns false.
 */
int ut_kmsg_open(void);
bool ut_kmsg_splat(int fd, char *msg, size_t size);

#endif
