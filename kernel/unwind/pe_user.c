// SPDX-License-Identifier: GPL-2.0
/*
 * The Windows x64 (PE32+) backend of the user unwinder, for code running
 * under Wine: the handler of PR_EH_FRAME_FORMAT_PE registrations.
 *
 * A loader registers an image by its base and mapped size; init reads and
 * checks its headers and function table (pe.c).  Without a loader's help,
 * the kernel finds the images Wine maps itself (discover.c), and the
 * handler reads the headers of each where discovery found them.  A lookup turns the PE
 * frame at a pc into the generic rules of struct unwind_user_frame, which
 * the walk applies like those of an .eh_frame row.  The walk tracks only
 * the stack pointer, rbp and the ip from frame to frame, so a frame based
 * on another register is followed only where pt_regs hold it (the topmost
 * frame); below, the chain ends there rather than guess.
 *
 * Each registered image holds a reference on this module (see
 * kernel/unwind/registry.c): it cannot be unloaded while one is left.
 */
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/unwind_user.h>
#include <linux/unwind_user_registry.h>

#include "pe.h"

static_assert(sizeof(struct pe_unwind_image) <= UNWIND_USER_FORMAT_DATA_SIZE);

static int pe_user_init(void *data, unsigned long start, unsigned long end)
{
	enum pe_unwind_check why = PE_UNWIND_OK;
	int ret;

	ret = pe_unwind_image_init(data, start, end - start, &why);
	if (ret)
		pr_debug("unwind_user_pe: %s[%d]: image at %#lx refused: %s\n",
			 current->comm, task_pid_nr(current), start,
			 pe_unwind_check_str(why));
	return ret;
}

static int pe_user_discover(void *data, unsigned long start,
			    unsigned long limit, unsigned long pc,
			    unsigned long *end)
{
	struct pe_unwind_image *img = data;
	enum pe_unwind_check why = PE_UNWIND_OK;
	int ret;

	ret = pe_unwind_image_find(img, start, limit, pc, &why);
	if (ret) {
		pr_debug("unwind_user_pe: %s[%d]: no image at %#lx for %#lx: %s\n",
			 current->comm, task_pid_nr(current), start, pc,
			 pe_unwind_check_str(why));
		return ret;
	}
	*end = start + img->size;
	return 0;
}

/* A frame that ends the walk: this frame's ip is the last one known. */
static void pe_user_end_frame(struct unwind_user_frame *frame)
{
	*frame = (struct unwind_user_frame) {
		.cfa = { .type = UNWIND_USER_RULE_REG_OFF,
			 .reg = UNWIND_USER_REG_SP, .off = sizeof(long) },
		.ra  = { .type = UNWIND_USER_RULE_UNDEFINED },
		.fp  = { .type = UNWIND_USER_RULE_RETAIN },
	};
}

/*
 * The rules of @pf as a generic frame, or -ENOENT when one of its values
 * cannot be known here.
 */
static int pe_user_frame(const struct pe_unwind_frame *pf, unsigned int flags,
			 struct unwind_user_frame *frame)
{
	int rbp = pe_unwind_nonvol_index(PE_UNWIND_RBP);

	memset(frame, 0, sizeof(*frame));
	frame->cfa.type = UNWIND_USER_RULE_REG_OFF;
	frame->cfa.off = pf->cfa_off;
	switch (pf->cfa_reg) {
	case PE_UNWIND_RSP:
		frame->cfa.reg = UNWIND_USER_REG_SP;
		break;
	case PE_UNWIND_RBP:
		frame->cfa.reg = UNWIND_USER_REG_FP;
		break;
	default:
		/* Another frame register: only pt_regs have its value. */
		if (!(flags & UNWIND_USER_LOOKUP_TOPMOST))
			return -ENOENT;
		frame->cfa.reg = UNWIND_USER_REG_OTHER;
		frame->cfa.regno = pe_unwind_gpr_to_dwarf(pf->cfa_reg);
		break;
	}

	frame->ra.type = UNWIND_USER_RULE_CFA_OFF_DEREF;
	frame->ra.off = pf->ra_off;

	/* A nonvolatile register the function did not save is unchanged. */
	if (pf->saved & BIT(rbp)) {
		frame->fp.type = UNWIND_USER_RULE_CFA_OFF_DEREF;
		frame->fp.off = pf->saved_off[rbp];
	} else {
		frame->fp.type = UNWIND_USER_RULE_RETAIN;
	}

	/* An interrupted caller: its rsp was pushed with its exact rip. */
	if (pf->flags & PE_UNWIND_FRAME_MACHINE) {
		frame->sp_off = pf->sp_off;
		frame->sp_deref = true;
		frame->signal = true;
	}
	return 0;
}

static int pe_user_find_frame(const void *data, unsigned long pc,
			      unsigned int flags,
			      struct unwind_user_frame *frame,
			      unsigned int *budget)
{
	struct pe_unwind_frame pf;
	int ret;

	ret = pe_unwind_find_frame(data, pc,
				   flags & UNWIND_USER_LOOKUP_EXACT ?
				   PE_UNWIND_EXACT_PC : 0, &pf, budget);
	if (!ret && pe_user_frame(&pf, flags, frame))
		ret = -EOPNOTSUPP;
	/*
	 * PE code keeps no frame-pointer chain that another method could
	 * follow: a frame this table cannot describe (or not read, or not
	 * within the walk's budget) ends the walk.  Other errors: -ENOENT,
	 * -EINVAL (a corrupt table, which the registry drops), -EINTR.
	 */
	if (ret == -EOPNOTSUPP || ret == -EFAULT) {
		pe_user_end_frame(frame);
		return 0;
	}
	return ret;
}

static const struct unwind_user_format pe_user_format = {
	.owner		= THIS_MODULE,
	.format		= UNWIND_USER_FORMAT_PE,
	.name		= "pe",
	.init		= pe_user_init,
	.discover	= pe_user_discover,
	.find_frame	= pe_user_find_frame,
};

static int __init pe_user_module_init(void)
{
	return unwind_user_register_format(&pe_user_format);
}
module_init(pe_user_module_init);

static void __exit pe_user_module_exit(void)
{
	unwind_user_unregister_format(&pe_user_format);
}
module_exit(pe_user_module_exit);

MODULE_DESCRIPTION("User stack unwinding through Windows x64 (PE32+) code");
/* What the registry asks for at the first PE registration: see registry.c */
MODULE_ALIAS("unwind-user-format-" __stringify(UNWIND_USER_FORMAT_PE));
MODULE_LICENSE("GPL");
