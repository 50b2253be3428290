// SPDX-License-Identifier: GPL-2.0
/*
 * A Windows program for the PE oracle, built with mingw at several
 * optimisation levels: functions that make GCC emit many kinds of prologs
 * and epilogs (pushes of every nonvolatile register, small and large
 * allocations, a frame register, alloca, saved xmm registers, tail calls,
 * many arguments).  It is not run.
 */
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

volatile int sink;

__attribute__((noinline)) int leaf(int a)
{
	return a * 3 + 1;
}

/* Many values live across calls: rbx, rsi, rdi, rbp, r12..r15. */
__attribute__((noinline)) int pressure(int a, int b, int c, int d)
{
	int e = leaf(a), f = leaf(b), g = leaf(c), h = leaf(d);
	int i = leaf(e + f), j = leaf(g + h), k = leaf(i + j), l = leaf(k);

	sink = leaf(a + b + c + d + e + f + g + h + i + j + k + l);
	return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ i ^ j ^ k ^ l;
}

/* Floating point values live across calls: xmm6..xmm15 saved. */
__attribute__((noinline)) double fp(double a, double b, double c)
{
	double d = a * b, e = b * c, f = a * c, g = a + b + c;
	double h = d * e, i = e * f, j = f * g, k = g * h;

	sink = leaf((int)a);
	return a + b + c + d + e + f + g + h + i + j + k;
}

/* A variable-length allocation: a frame register. */
__attribute__((noinline)) int dynamic(int n)
{
	char *p = alloca(n + 1);

	memset(p, 'x', n);
	p[n] = 0;
	sink = leaf(n);
	return (int)strlen(p);
}

/* A large frame: ALLOC_LARGE, 16- and 32-bit forms. */
__attribute__((noinline)) int big(int n)
{
	volatile char buf[40000];

	buf[n] = 1;
	sink = leaf(buf[n]);
	return buf[0];
}

__attribute__((noinline)) int huge(int n)
{
	volatile char buf[600000];

	buf[n] = 1;
	sink = leaf(buf[n]);
	return buf[1];
}

/* More than four arguments, some on the stack. */
__attribute__((noinline)) long many(long a, long b, long c, long d, long e,
				    long f, long g, long h)
{
	sink = leaf((int)(a + h));
	return a + b * c - d + e * f - g + h;
}

__attribute__((noinline)) int vsum(int n, ...)
{
	va_list ap;
	int s = 0;

	va_start(ap, n);
	while (n--)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

/* Tail calls and early returns: several epilogs. */
__attribute__((noinline)) int tails(int a)
{
	if (a < 0)
		return leaf(-a);
	if (a > 1000)
		return pressure(a, a, a, a);
	if (a == 7)
		return 0;
	sink = a;
	return dynamic(a) + 1;
}

__attribute__((noinline)) int recurse(int n)
{
	if (n <= 0)
		return leaf(n);
	return recurse(n - 1) + n;
}

struct s {
	long x[6];
};

__attribute__((noinline)) struct s byval(struct s a, struct s b)
{
	struct s r;
	int i;

	for (i = 0; i < 6; i++)
		r.x[i] = a.x[i] + b.x[i];
	sink = leaf((int)r.x[0]);
	return r;
}

int main(int argc, char **argv)
{
	struct s a = { { 1, 2, 3, 4, 5, 6 } }, b;

	b = byval(a, a);
	printf("%d %f %d %d %d %ld %d %d %d %ld\n", pressure(argc, 2, 3, 4),
	       fp(argc, 2, 3), dynamic(argc), big(argc), huge(argc),
	       many(1, 2, 3, 4, 5, 6, 7, argc), vsum(3, 1, 2, argc),
	       tails(argc), recurse(argc), b.x[0]);
	return 0;
}
