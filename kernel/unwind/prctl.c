// SPDX-License-Identifier: GPL-2.0
/*
 * prctl(PR_REGISTER_EH_FRAME) and PR_UNREGISTER_EH_FRAME: user space tells
 * the user unwinder where the unwind tables of the code it maps are.
 *
 * The kernel finds the tables of the ELF files a process maps by itself, at
 * the first walk that needs them; this interface is for what it cannot find
 * (code without a file, tables that are not where the program headers say,
 * PE images) and for loaders that want their objects known from the start.
 * A registration takes precedence over what the kernel found.  Everything
 * in the argument is untrusted: this file checks its form, the registry
 * checks it against the address space and reads the header.  See
 * Documentation/userspace-api/unwind_tables.rst.
 */
#include <linux/compat.h>
#include <linux/mm.h>
#include <linux/prctl.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/unwind_user_registry.h>

/* The registry takes a format by the value user space names it with. */
static_assert(PR_EH_FRAME_FORMAT_EH_FRAME_HDR == UNWIND_USER_FORMAT_EH_FRAME_HDR);
static_assert(PR_EH_FRAME_FORMAT_EH_FRAME == UNWIND_USER_FORMAT_EH_FRAME);
static_assert(PR_EH_FRAME_FORMAT_PE == UNWIND_USER_FORMAT_PE);

/* An x32 task: the walk has no rules for its 4-byte frames in a 64-bit task. */
static bool caller_is_x32(void)
{
#ifdef CONFIG_X86_X32_ABI
	return in_x32_syscall();
#else
	return false;
#endif
}

/*
 * Copy in @uarg and check what does not depend on the address space.
 * Ranges are returned with exclusive ends.
 */
static int eh_frame_desc_from_user(int option, const void __user *uarg,
				   unsigned long usize,
				   struct prctl_eh_frame *d,
				   struct unwind_user_eh_frame *desc)
{
	int ret;

	if (usize < PRCTL_EH_FRAME_SIZE_VER0)
		return -EINVAL;
	if (usize > PAGE_SIZE)
		return -E2BIG;
	ret = copy_struct_from_user(d, sizeof(*d), uarg, usize);
	if (ret)
		return ret;

	if (d->flags)
		return -EINVAL;
	if (d->format != PR_EH_FRAME_FORMAT_EH_FRAME_HDR &&
	    d->format != PR_EH_FRAME_FORMAT_EH_FRAME &&
	    d->format != PR_EH_FRAME_FORMAT_PE)
		return -EINVAL;
	if (caller_is_x32())
		return -EOPNOTSUPP;
	/* PE32+ images are 64-bit code. */
	if (d->format == PR_EH_FRAME_FORMAT_PE && in_compat_syscall())
		return -EOPNOTSUPP;

	/* The text range names a registration in both operations. */
	if (!d->text_size || d->text_start + d->text_size < d->text_start)
		return -EINVAL;
	/* Nothing is mapped beyond the task's address space. */
	if (d->text_start + d->text_size > TASK_SIZE)
		return -ENOMEM;

	memset(desc, 0, sizeof(*desc));
	desc->text_start = d->text_start;
	desc->text_end = d->text_start + d->text_size;

	/* A PE image holds its own table: only its range is given. */
	if (option == PR_UNREGISTER_EH_FRAME ||
	    d->format == PR_EH_FRAME_FORMAT_PE) {
		if (d->eh_frame_start || d->eh_frame_size ||
		    d->eh_frame_hdr_start || d->eh_frame_hdr_size)
			return -EINVAL;
		return 0;
	}

	if (!d->eh_frame_size ||
	    d->eh_frame_start + d->eh_frame_size < d->eh_frame_start)
		return -EINVAL;
	if (d->eh_frame_start + d->eh_frame_size > TASK_SIZE)
		return -ENOMEM;

	/* A bare .eh_frame: the kernel indexes it, within a bound. */
	if (d->format == PR_EH_FRAME_FORMAT_EH_FRAME) {
		if (d->eh_frame_hdr_start || d->eh_frame_hdr_size)
			return -EINVAL;
	} else {
		if (!d->eh_frame_hdr_size || !d->eh_frame_hdr_start ||
		    d->eh_frame_hdr_start + d->eh_frame_hdr_size <
		    d->eh_frame_hdr_start)
			return -EINVAL;
		if (d->eh_frame_hdr_start + d->eh_frame_hdr_size > TASK_SIZE)
			return -ENOMEM;
		desc->hdr_start = d->eh_frame_hdr_start;
		desc->hdr_end = d->eh_frame_hdr_start + d->eh_frame_hdr_size;
	}

	desc->eh_frame_start = d->eh_frame_start;
	desc->eh_frame_end = d->eh_frame_start + d->eh_frame_size;
	desc->ptr_size = in_compat_syscall() ? 4 : sizeof(long);
	return 0;
}

/**
 * unwind_user_eh_frame_prctl - PR_REGISTER_EH_FRAME, PR_UNREGISTER_EH_FRAME
 * @option:	which of the two
 * @uarg:	the user's struct prctl_eh_frame
 * @usize:	its size as the user knows it
 *
 * Return: 0 or a negative errno, as listed in
 * Documentation/userspace-api/unwind_tables.rst.  A failed call changes
 * nothing.
 */
int unwind_user_eh_frame_prctl(int option, const void __user *uarg,
			       unsigned long usize)
{
	struct unwind_user_eh_frame desc;
	struct prctl_eh_frame d;
	int ret;

	ret = eh_frame_desc_from_user(option, uarg, usize, &d, &desc);
	if (ret)
		return ret;

	if (option == PR_REGISTER_EH_FRAME &&
	    d.format != PR_EH_FRAME_FORMAT_EH_FRAME_HDR &&
	    d.format != PR_EH_FRAME_FORMAT_EH_FRAME)
		return unwind_user_add_table(current->mm, d.format,
					     desc.text_start, desc.text_end);
	if (option == PR_REGISTER_EH_FRAME)
		return unwind_user_add_eh_frame(current->mm, &desc);
	return unwind_user_remove(current->mm, d.format, desc.text_start,
				  desc.text_end);
}
