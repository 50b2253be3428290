/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registration of user unwind tables, prctl(PR_REGISTER_EH_FRAME),
 * seen from user space: the UAPI (from <linux/prctl.h> once the kernel
 * headers have it, else the copy below), the objects a process has mapped
 * (their text and .eh_frame_hdr, from the program headers), what the
 * kernel lists in /proc/self/unwind_tables (the registrations, and the
 * tables it found by itself), the sysctls, sampling a task so that the
 * kernel walks its stack, and the kernel log.
 */
#ifndef UNWIND_USER_UNWIND_TABLE_H
#define UNWIND_USER_UNWIND_TABLE_H

#include <linux/prctl.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

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
#define UNWIND_TABLES_DISCOVER_PATH	"/proc/sys/kernel/unwind_tables_discover"
#define UNWIND_TABLES_SHARE_PATH	"/proc/sys/kernel/unwind_tables_share"
#define UNWIND_USER_CPU_MAX_PATH	"/proc/sys/kernel/unwind_user_cpu_time_max_percent"

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
 * PT_LOAD that holds the header, which bounds .eh_frame (the rule the kernel
 * uses for what it finds).
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
 * What /proc/self/unwind_tables lists: the text of the file, malloc()ed
 * (the caller frees it), or NULL with errno set.  Each line is an entry or a
 * marker, "START-END ORIGIN FORMAT ...", where ORIGIN says who made it
 * (prctl: this process, with PR_REGISTER_EH_FRAME; discovered or vdso: the
 * kernel, at a walk that needed it), then the frame cache's line.
 */
char *ut_read_tables(void);
/*
 * Only the lines of the registrations this process made (origin prctl),
 * without the size of their indexes, which a lookup builds: what compares
 * equal while the registrations do.  A sample of the process (by any
 * profiler) may add what the kernel finds at any time, but never over a
 * registration, and it changes no registration.
 */
char *ut_read_registrations(void);
/* Every entry and marker, without the indexes' sizes nor the cache's line. */
char *ut_read_entries(void);
/* How many lines @tables lists (less the cache's). */
unsigned int ut_count_lines(const char *tables);
/* How many entries: lines less markers (none) and the cache's line. */
unsigned int ut_count_entries(const char *tables);
/* Print @title and then @text line by line as TAP comments ("# ..."). */
void ut_print_lines(const char *title, const char *text);

/* One line of /proc/<pid>/unwind_tables. */
struct ut_line {
	uint64_t start, end;		/* the text range */
	char origin[16];		/* prctl, discovered, vdso */
	char format[16];		/* eh_frame_hdr, eh_frame, pe, none, dropped */
	uint64_t hdr, hdr_size;		/* the .eh_frame_hdr (eh_frame_hdr) */
	/* where .eh_frame starts, and how many bytes may be read from there */
	uint64_t eh_frame, eh_frame_size;
};

/* Parse @line: 0, or -1 if it is not an entry's nor a marker's. */
int ut_parse_line(const char *line, struct ut_line *l);
/* The line of @tables for the registration @desc (origin prctl), or NULL. */
const char *ut_find_line(const char *tables, const struct prctl_eh_frame *desc);
/*
 * The first line of @origin (NULL: any; "found": any but prctl) whose text
 * range overlaps [@start, @end), parsed into @l if not NULL; or NULL.
 */
const char *ut_find_origin(const char *tables, const char *origin, uint64_t start,
			   uint64_t end, struct ut_line *l);
/*
 * Is any line's text range overlapping [@start, @end), whatever made it?
 * The first one, or NULL; its range and table (the header, or .eh_frame
 * without one; 0 for a marker, a dropped entry or a PE image).
 */
const char *ut_find_overlap(const char *tables, uint64_t start, uint64_t end,
			    uint64_t *line_start, uint64_t *line_end, uint64_t *line_table);

/* The sysctl kernel.unwind_tables_max: the value, or -1. */
long ut_read_max(void);
int ut_write_max(long max);

/*
 * The sysctl kernel.unwind_tables_discover (1: the kernel finds the tables
 * of what a walk meets; 0: only registrations are used): the value, or -1.
 */
int ut_read_discover(void);
int ut_write_discover(int on);

/*
 * The sysctl kernel.unwind_tables_share (1: the frames of tables mapped
 * from files go to the cache processes share): the value, or -1.
 */
int ut_read_share(void);
int ut_write_share(int on);

/*
 * The sysctl kernel.unwind_user_cpu_time_max_percent (the share of its CPU
 * time a task's walks may take; 0 or 100: no bound): the value, or -1.
 */
int ut_read_cpu_max(void);
int ut_write_cpu_max(int percent);

/*
 * A task-clock event sampling the task @pid (0: the caller) every
 * @period_ns ns of its CPU time, in user mode, with deferred user
 * callchains: each sample makes the kernel walk the task's user stack
 * when it returns to user space.  No ring buffer: the walk is the point.
 * The event's fd, counting from now on, or -errno.
 */
int ut_sample_task(pid_t pid, uint64_t period_ns);

/*
 * Code that spins a little (about a millisecond under TCG) in this
 * program's own text, in the dynamic linker's (__tls_get_addr(), x86-64),
 * or in the vDSO's (clock_gettime()).  @arg is unused.
 */
void ut_spin_program(void *arg);
void ut_spin_ld_so(void *arg);
void ut_spin_vdso(void *arg);

/*
 * Let the kernel find the table of the object whose text is [@start,
 * @end): sample the calling thread (ut_sample_task()) while it calls
 * @spin(@arg), until /proc/self/unwind_tables lists a line the kernel made
 * over that text (an entry, or a marker), parsed into @l.  0, or -ETIMEDOUT
 * after @ms ms of the thread's CPU time, or -errno.
 */
int ut_discover(uint64_t start, uint64_t end, void (*spin)(void *), void *arg,
		unsigned int ms, struct ut_line *l);

/*
 * The kernel log, from the current end on: ut_kmsg_open() positions a
 * reader at the end of /dev/kmsg (-1 if it cannot), ut_kmsg_splat() reads
 * what was logged since and copies into @msg the first record that looks
 * like a kernel warning, bug or oops (returns true), else returns false.
 */
/*
 * The counter "@name VALUE" of /sys/kernel/debug/unwind_user/@file
 * (mounting debugfs first if need be): 0, or -1.
 */
int ut_debugfs_counter(const char *file, const char *name, long long *val);
int ut_kmsg_open(void);
bool ut_kmsg_splat(int fd, char *msg, size_t size);

/* A program started with pipes on its stdin (ours: @in) and stdout (ours: @out). */
struct ut_proc {
	pid_t pid;
	int in;
	FILE *out;
};

int ut_proc_start(struct ut_proc *p, char *const argv[]);
void ut_proc_close(struct ut_proc *p);

#endif
