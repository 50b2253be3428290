/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal loader of Windows x64 (PE32+) DLLs for the PE unwinding tests:
 * it maps an image without imports at its preferred base the way Wine does
 * (the headers and each section from the file, the rest anonymous) and
 * reads the image's own COFF symbol table, to name its functions.
 */
#ifndef UNWIND_USER_PE_MAP_H
#define UNWIND_USER_PE_MAP_H

#include <stddef.h>
#include <stdint.h>

struct pe_sym {
	uint32_t rva;
	uint32_t size;		/* to the next function */
	char name[64];
};

struct pe_file {
	uint8_t *data;		/* the whole file */
	size_t size;
	uint64_t image_base;
	uint32_t image_size;	/* SizeOfImage */
	uint32_t headers_size;	/* SizeOfHeaders */
	uint32_t opt_off;	/* file offset of the optional header */
	uint32_t sec_off;	/* ... of the section table */
	unsigned int nr_secs;
	struct pe_sym *syms;	/* functions, sorted by rva */
	unsigned int nr_syms;
};

/* Read and parse @path: 0, or -1 with a message on stderr. */
int pe_file_load(struct pe_file *pf, const char *path);
void pe_file_free(struct pe_file *pf);
/* Map @path as Wine would, at its ImageBase: the base, or NULL. */
void *pe_file_map(const struct pe_file *pf, const char *path);
/*
 * Lay the image out in anonymous read-write memory at @where (page
 * aligned, image_size bytes), for tests that corrupt it.
 */
int pe_file_copy(const struct pe_file *pf, void *where);
/* Then give its headers and sections the protections Wine gives them. */
int pe_file_protect(const struct pe_file *pf, void *where);
/* The function that covers @rva, or NULL. */
const struct pe_sym *pe_file_sym(const struct pe_file *pf, uint32_t rva);
/* The file offset of @rva, or -1 if no section holds it in the file. */
int64_t pe_file_rva_to_offset(const struct pe_file *pf, uint32_t rva);
/* The rva of the function named @name, or 0. */
uint32_t pe_file_sym_rva(const struct pe_file *pf, const char *name);

/* What pe_host's "anon-bad-N" does to the headers it copied (pe_chain.c). */
enum pe_host_bad {
	PE_HOST_BAD_SIG = 1,	/* no "PE\0\0" signature */
	PE_HOST_BAD_LFANEW,	/* NT headers cut off by the end of the first page */
	PE_HOST_BAD_SIZE,	/* SizeOfImage ends before the code */
	PE_HOST_BAD_DIR,	/* the exception directory outside the image */
	PE_HOST_BAD_MACHINE,	/* i386, not AMD64 */
	PE_HOST_NR_BAD
};

/* Offsets into the headers (PE32+). */
#define PE_LFANEW		0x3c
#define PE_COFF_MACHINE		4	/* from the "PE\0\0" signature */
#define PE_COFF_NR_SECS		6
#define PE_COFF_SYMTAB		12
#define PE_COFF_NR_SYMS		16
#define PE_COFF_OPT_SIZE	20
#define PE_OPT			24	/* the optional header */
#define PE_OPT_IMAGE_BASE	24	/* in the optional header */
#define PE_OPT_IMAGE_SIZE	56
#define PE_OPT_HEADERS_SIZE	60
#define PE_OPT_NR_DIRS		108
#define PE_OPT_DIRS		112
#define PE_DIR_IMPORT		1
#define PE_DIR_EXCEPTION	3

#endif
