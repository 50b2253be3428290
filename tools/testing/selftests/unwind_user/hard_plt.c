// SPDX-License-Identifier: GPL-2.0
/*
 * main -> a -> b -> caller_fn -> hard_lib_fn@plt -> hard_lib_fn (in
 * libhard_plt.so), N times, for the PLT tests of hard_cases.c: linked with
 * -z lazy, so the first call goes through the PLT entry's push and jump to
 * PLT0 and the resolver.  The program makes no other call through its PLT
 * (hard_check.sh checks that .rela.plt has one entry): every hit in PLT0 is
 * the binding of hard_lib_fn.  Built twice: with the classic .plt
 * (hard_plt) and with IBT's .plt + .plt.sec (hard_plt_ibt).
 *
 *   hard_plt N
 */
#include "hard_lib.h"

#define WORKLOAD_FN	__attribute__((noinline, noclone, used))

static inline void after_call(void)
{
	asm volatile("" ::: "memory");
}

volatile unsigned long sink;

WORKLOAD_FN void caller_fn(unsigned long i)
{
	hard_lib_fn(i);
	after_call();
	sink += 3;
}

WORKLOAD_FN void b(unsigned long i)
{
	caller_fn(i);
	after_call();
	sink += 2;
}

WORKLOAD_FN void a(unsigned long i)
{
	b(i);
	after_call();
	sink += 1;
}

/* No strtoul(): it would be bound through the PLT too. */
int main(int argc, char **argv)
{
	unsigned long n = 0;

	if (argc != 2)
		return 2;
	for (const char *p = argv[1]; *p; p++) {
		if (*p < '0' || *p > '9')
			return 2;
		n = n * 10 + *p - '0';
	}
	for (unsigned long i = 0; i < n; i++)
		a(i);
	after_call();
	return 0;
}
