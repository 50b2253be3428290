// SPDX-License-Identifier: GPL-2.0
/* Registrations of user unwind tables, from user space (see unwind_table.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "unwind_table.h"

struct find_arg {
	const char *suffix;
	struct ut_object *obj;
	bool found;
};

static int find_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct find_arg *arg = data;
	const char *name = info->dlpi_name ?: "";
	size_t len = strlen(name), slen = strlen(arg->suffix);
	struct ut_object *obj = arg->obj;

	(void)size;
	/* "" names the main program, which comes first. */
	if (slen ? len < slen || strcmp(name + len - slen, arg->suffix) : len != 0)
		return 0;

	memset(obj, 0, sizeof(*obj));
	snprintf(obj->name, sizeof(obj->name), "%s", name);
	obj->base = info->dlpi_addr;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const Elf64_Phdr *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && !obj->text_start) {
			obj->text_start = info->dlpi_addr + ph->p_vaddr;
			obj->text_end = obj->text_start + ph->p_memsz;
		} else if (ph->p_type == PT_GNU_EH_FRAME) {
			obj->hdr_start = info->dlpi_addr + ph->p_vaddr;
			obj->hdr_size = ph->p_memsz;
		}
	}
	for (int i = 0; obj->hdr_start && i < info->dlpi_phnum; i++) {
		const Elf64_Phdr *ph = &info->dlpi_phdr[i];
		uint64_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && obj->hdr_start >= start &&
		    obj->hdr_start < start + ph->p_filesz) {
			obj->eh_frame_start = start;
			obj->eh_frame_size = ph->p_filesz;
		}
	}
	arg->found = obj->text_start && obj->hdr_start && obj->eh_frame_start;
	return 1;
}

int ut_find_object(const char *suffix, struct ut_object *obj)
{
	struct find_arg arg = { .suffix = suffix, .obj = obj };

	dl_iterate_phdr(find_cb, &arg);
	return arg.found ? 0 : -1;
}

void ut_desc_of(const struct ut_object *obj, struct prctl_eh_frame *desc)
{
	memset(desc, 0, sizeof(*desc));
	desc->format = PR_EH_FRAME_FORMAT_EH_FRAME_HDR;
	desc->text_start = obj->text_start;
	desc->text_size = obj->text_end - obj->text_start;
	desc->eh_frame_start = obj->eh_frame_start;
	desc->eh_frame_size = obj->eh_frame_size;
	desc->eh_frame_hdr_start = obj->hdr_start;
	desc->eh_frame_hdr_size = obj->hdr_size;
}

int ut_prctl(int option, const void *desc, unsigned long size, unsigned long arg4,
	     unsigned long arg5)
{
	return prctl(option, (unsigned long)desc, size, arg4, arg5) ? -errno : 0;
}

int ut_register(const struct prctl_eh_frame *desc)
{
	return ut_prctl(PR_REGISTER_EH_FRAME, desc, sizeof(*desc), 0, 0);
}

int ut_register_object(const struct ut_object *obj)
{
	struct prctl_eh_frame desc;

	ut_desc_of(obj, &desc);
	return ut_register(&desc);
}

int ut_unregister_format(uint32_t format, uint64_t text_start, uint64_t text_end)
{
	struct prctl_eh_frame desc = {
		.format = format,
		.text_start = text_start,
		.text_size = text_end - text_start,
	};

	return ut_prctl(PR_UNREGISTER_EH_FRAME, &desc, sizeof(desc), 0, 0);
}

int ut_unregister(uint64_t text_start, uint64_t text_end)
{
	return ut_unregister_format(PR_EH_FRAME_FORMAT_EH_FRAME_HDR, text_start, text_end);
}

char *ut_read_tables(void)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap), *p;
	int fd = open(UNWIND_TABLES_PATH, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !buf) {
		int err = errno;

		free(buf);
		if (fd >= 0)
			close(fd);
		errno = err;
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len > 1)
			continue;
		p = realloc(buf, cap * 2);
		if (!p) {
			n = -1;
			break;
		}
		buf = p;
		cap *= 2;
	}
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

unsigned int ut_count_lines(const char *tables)
{
	unsigned int n = 0;
	bool bol = true;

	for (; *tables; tables++) {
		if (bol && !strncmp(tables, "cache ", 6))
			n--;
		n += *tables == '\n';
		bol = *tables == '\n';
	}
	return n;
}

const char *ut_find_line(const char *tables, const struct prctl_eh_frame *desc)
{
	char want[128];
	size_t len;

	/* Without a header: .eh_frame exactly as registered. */
	if (desc->format == PR_EH_FRAME_FORMAT_EH_FRAME) {
		len = snprintf(want, sizeof(want), "%llx-%llx eh_frame %llx %llu",
			       (unsigned long long)desc->text_start,
			       (unsigned long long)(desc->text_start + desc->text_size),
			       (unsigned long long)desc->eh_frame_start,
			       (unsigned long long)desc->eh_frame_size);
		for (const char *p = tables; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
			if (!strncmp(p, want, len) && (p[len] == '\n' || p[len] == ' '))
				return p;
		}
		return NULL;
	}

	/* What follows is where .eh_frame starts, as the header says. */
	len = snprintf(want, sizeof(want), "%llx-%llx eh_frame_hdr %llx %llu eh_frame ",
		       (unsigned long long)desc->text_start,
		       (unsigned long long)(desc->text_start + desc->text_size),
		       (unsigned long long)desc->eh_frame_hdr_start,
		       (unsigned long long)desc->eh_frame_hdr_size);
	for (const char *p = tables; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long eh_start, eh_size;

		if (strncmp(p, want, len) || sscanf(p + len, "%llx %llu", &eh_start, &eh_size) != 2)
			continue;
		/* Reads of .eh_frame stop where the registration said. */
		if (eh_start + eh_size == desc->eh_frame_start + desc->eh_frame_size)
			return p;
	}
	return NULL;
}

const char *ut_find_overlap(const char *tables, uint64_t start, uint64_t end,
			    uint64_t *line_start, uint64_t *line_end, uint64_t *line_table)
{
	for (const char *p = tables; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long s, e, t;

		if (sscanf(p, "%llx-%llx %*s %llx", &s, &e, &t) != 3)
			continue;
		if (s < end && start < e) {
			if (line_start)
				*line_start = s;
			if (line_end)
				*line_end = e;
			if (line_table)
				*line_table = t;
			return p;
		}
	}
	return NULL;
}

long ut_read_max(void)
{
	FILE *f = fopen(UNWIND_TABLES_MAX_PATH, "r");
	long max = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &max) != 1)
		max = -1;
	fclose(f);
	return max;
}

int ut_write_max(long max)
{
	char buf[32];
	int fd = open(UNWIND_TABLES_MAX_PATH, O_WRONLY | O_CLOEXEC);
	int len = snprintf(buf, sizeof(buf), "%ld\n", max);
	int ret;

	if (fd < 0)
		return -1;
	ret = write(fd, buf, len) == len ? 0 : -1;
	close(fd);
	return ret;
}

int ut_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

bool ut_kmsg_splat(int fd, char *msg, size_t size)
{
	static const char * const bad[] = {
		"WARNING:", "BUG:", "Oops", "kernel BUG", "refcount_t",
		"general protection",
	};
	char rec[8192];
	bool found = false;
	ssize_t n;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* records were overwritten */
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]) && !found; i++) {
			const char *text = strchr(rec, ';');

			if (strstr(text ?: rec, bad[i])) {
				snprintf(msg, size, "%s", text ? text + 1 : rec);
				found = true;
			}
		}
	}
	return found;
}

void ut_print_lines(const char *title, const char *text)
{
	const char *nl;

	printf("# %s\n", title);
	for (; *text; text = nl + 1) {
		nl = strchr(text, '\n');
		if (!nl) {
			printf("#   %s\n", text);
			break;
		}
		printf("#   %.*s\n", (int)(nl - text), text);
	}
	fflush(stdout);
}

char *ut_read_registrations(void)
{
	char *tables = ut_read_tables(), *line, *end;

	for (line = tables; line && *line; line = end) {
		char *index;

		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		if (!strncmp(line, "cache ", 6)) {
			memmove(line, end, strlen(end) + 1);
			end = line;
			continue;
		}
		/* A lookup may have built the table's index since: cut its size. */
		index = strstr(line, " index ");
		if (index && index < end) {
			char *nl = strchr(index, '\n');

			if (nl) {
				memmove(index, nl, strlen(nl) + 1);
				end = index + 1;
			} else {
				*index = '\0';
				end = index;
			}
		}
	}
	return tables;
}
