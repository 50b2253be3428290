/* SPDX-License-Identifier: GPL-2.0 */
/* seq_printf() into a buffer the test reads back. */
#ifndef _REGISTRY_TEST_LINUX_SEQ_FILE_H
#define _REGISTRY_TEST_LINUX_SEQ_FILE_H

#include <stddef.h>

struct seq_file {
	char	*buf;
	size_t	size;
	size_t	count;
};

void seq_printf(struct seq_file *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void seq_putc(struct seq_file *m, char c);
void seq_puts(struct seq_file *m, const char *s);

#endif
