// SPDX-License-Identifier: GPL-2.0
/* Hand-built PE32+ images; see pe_builder.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/uaccess.h>

#include "../../../kernel/unwind/pe.h"
#include "fake_user.h"
#include "pe_builder.h"

struct pe_builder PB;

void pb_put16(u32 rva, u16 v)
{
	PB.img[rva] = v;
	PB.img[rva + 1] = v >> 8;
}

void pb_put32(u32 rva, u32 v)
{
	pb_put16(rva, v);
	pb_put16(rva + 2, v >> 16);
}

void pb_init(void)
{
	memset(&PB, 0, sizeof(PB));
	PB.img[0] = 'M';
	PB.img[1] = 'Z';
	pb_put32(PB_OFF_LFANEW, PB_NT);
	memcpy(PB.img + PB_NT, "PE\0\0", 4);
	pb_put16(PB_OFF_MACHINE, 0x8664);
	pb_put16(PB_OFF_OPT_SIZE, 112 + 16 * 8);
	pb_put16(PB_OFF_OPT_MAGIC, 0x20b);
	pb_put32(PB_OFF_IMAGE_SIZE, PB_SIZE);
	pb_put32(PB_OFF_NR_DIRS, 16);
	pb_put32(PB_OFF_EXC_DIR, PB_PDATA);
	pb_put32(PB_OFF_EXC_DIR + 4, 0);
	PB.xdata = PB_XDATA;
}

void pb_add_rf(u32 begin, u32 end, u32 unwind)
{
	u32 at = PB_PDATA + 12 * PB.nr_rf;

	if (PB.nr_rf == PB_MAX_RF) {
		fprintf(stderr, "pe_builder: function table full\n");
		abort();
	}
	pb_put32(at, begin);
	pb_put32(at + 4, end);
	pb_put32(at + 8, unwind);
	PB.nr_rf++;
	pb_put32(PB_OFF_EXC_DIR + 4, 12 * PB.nr_rf);
}

u32 pb_add_info(u8 version, u8 flags, u8 prolog, u8 frame_reg, u8 frame_off,
		const u16 *codes, unsigned int n, const u32 *chain)
{
	u32 at = PB.xdata;

	if (at + 4 + 2 * (n + 1) + 12 > PB_TEXT) {
		fprintf(stderr, "pe_builder: xdata full\n");
		abort();
	}
	PB.xdata = pb_put_info(at, version, flags, prolog, frame_reg,
			       frame_off, codes, n, chain);
	return at;
}

u32 pb_put_info(u32 at, u8 version, u8 flags, u8 prolog, u8 frame_reg,
		u8 frame_off, const u16 *codes, unsigned int n,
		const u32 *chain)
{
	unsigned int i;
	u32 p;

	if (at + 4 + 2 * (n + 1) + 12 > PB_SIZE) {
		fprintf(stderr, "pe_builder: UNWIND_INFO past the image\n");
		abort();
	}
	PB.img[at] = version | flags << 3;
	PB.img[at + 1] = prolog;
	PB.img[at + 2] = n;
	PB.img[at + 3] = frame_reg | frame_off << 4;
	p = at + 4;
	for (i = 0; i < n; i++, p += 2)
		pb_put16(p, codes[i]);
	if (n & 1)
		p += 2;		/* padding to an even count */
	if (chain) {
		pb_put32(p, chain[0]);
		pb_put32(p + 4, chain[1]);
		pb_put32(p + 8, chain[2]);
		p += 12;
	}
	return (p + 3) & ~3U;
}

void pb_code(u32 rva, const void *bytes, unsigned int n)
{
	memcpy(PB.img + rva, bytes, n);
}

void pb_map(u32 len)
{
	fake_user_reset();
	fake_user_map(PB_BASE, PB.img, len);
}

const u8 pb_nonvol_gpr[8] = { 3, 5, 6, 7, 12, 13, 14, 15 };

static int pb_read(u64 addr, u64 *val)
{
	return copy_from_user(val, (const void *)(unsigned long)addr, 8) ?
	       -EFAULT : 0;
}

int pb_apply(const struct pe_unwind_frame *f, u64 *regs, u64 *ip)
{
	u64 cfa = regs[f->cfa_reg & 15] + f->cfa_off, val[8], ra, sp;
	unsigned int i;

	if (pb_read(cfa + f->ra_off, &ra))
		return -EFAULT;
	sp = cfa;
	if (f->sp_off && pb_read(cfa + f->sp_off, &sp))
		return -EFAULT;
	for (i = 0; i < 8; i++) {
		if ((f->saved & (1U << i)) &&
		    pb_read(cfa + f->saved_off[i], &val[i]))
			return -EFAULT;
	}
	for (i = 0; i < 8; i++) {
		if (f->saved & (1U << i))
			regs[pb_nonvol_gpr[i]] = val[i];
	}
	regs[4] = sp;
	*ip = ra;
	return 0;
}
