// SPDX-License-Identifier: GPL-2.0
/*
 * An x32 task asks to register an unwind table: the walk has no rules for
 * its frames, so the kernel must refuse with EOPNOTSUPP before it looks at
 * the arguments.  Built -mx32 without libc (register.c runs it): exits 0
 * if the call failed so, with the errno otherwise (1 if it succeeded).
 */
#define X32_SYSCALL_BIT		0x40000000L
#define NR_PRCTL		157
#define NR_EXIT			60
#define PR_REGISTER_EH_FRAME	82
#define EOPNOTSUPP		95

static long x32_syscall(long nr, long a, long b, long c)
{
	long ret;

	asm volatile("syscall" : "=a"(ret)
		     : "a"(nr | X32_SYSCALL_BIT), "D"(a), "S"(b), "d"(c)
		     : "rcx", "r11", "memory");
	return ret;
}

/* struct prctl_eh_frame, whatever its fields say: they are not read. */
static unsigned long long desc[7] = { 1, 0x400000, 0x1000, 0x500000, 0x1000, 0x500000, 0x100 };

void _start(void)
{
	long ret = x32_syscall(NR_PRCTL, PR_REGISTER_EH_FRAME, (long)desc, sizeof(desc));

	x32_syscall(NR_EXIT, ret == -EOPNOTSUPP ? 0 : ret < 0 ? -ret : 1, 0, 0);
	for (;;)
		;
}
