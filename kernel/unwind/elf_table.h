/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a mapped ELF object keeps its unwind table, read from its file
 * headers through a struct freader (lib/buildid.c): the file of a mapping,
 * or the kernel's own copy of the vDSO image.
 */
#ifndef _KERNEL_UNWIND_ELF_TABLE_H
#define _KERNEL_UNWIND_ELF_TABLE_H

#include <linux/types.h>
#include <linux/unwind_user_registry.h>

struct freader;

/*
 * Bounds of what is read: program and section headers (lib/buildid.c reads
 * at most 256 program headers too), and the bytes of a section name.
 */
#define ELF_TABLE_MAX_PHNUM	256
#define ELF_TABLE_MAX_SHNUM	256

/*
 * A mapping of the object, as a VMA says it: file offset @off is at @addr.
 * @miss, if not NULL, is called when a fetch of [off, off + sz) of the
 * reader's file found it not in the page cache (a reader that does not
 * fault): 0 when it brought the bytes in (a caller that may wait for I/O),
 * else the error to return, -ENOEXEC for bytes past the end of the file.
 */
struct elf_table_map {
	unsigned long	addr;
	u64		off;
	int		(*miss)(struct freader *r, u64 off, size_t sz);
};

/**
 * elf_table_find - the unwind table of the text an ELF object maps somewhere
 * @r:		a reader of the object's file (or image)
 * @map:	where a part of its text is mapped
 * @desc:	on success: the text of the executable PT_LOAD that @map maps,
 *		and the table that covers it, at their mapped addresses
 * @hdr_off:	on success with a header (desc->hdr_start != 0): the file
 *		offset of .eh_frame_hdr
 *
 * The load bias comes from @map: the executable PT_LOAD that holds the
 * mapped offset is where @map->addr says.  The table is .eh_frame_hdr
 * (PT_GNU_EH_FRAME), whose .eh_frame is bounded by the PT_LOAD that holds
 * the header, the rule loaders registering with prctl() follow too; or,
 * without it (gcc -static links none), the one allocated section named
 * .eh_frame that a PT_LOAD maps from the file.  Everything is checked:
 * the file is untrusted and may change while it is read.
 *
 * Return: 0; -ENOEXEC when the object is not an ELF file of this
 * architecture, or its program headers are inconsistent, beyond the bounds
 * above, or place the table outside the address space; -ENOENT when it has
 * no table (no PT_GNU_EH_FRAME, and no section headers that name one
 * .eh_frame within the bounds above); -EINTR on a fatal signal; the
 * reader's error (-EFAULT for a page that is not cached, -EIO, ...).
 */
int elf_table_find(struct freader *r, const struct elf_table_map *map,
		   struct unwind_user_eh_frame *desc, u64 *hdr_off);

#endif /* _KERNEL_UNWIND_ELF_TABLE_H */
