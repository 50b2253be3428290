// SPDX-License-Identifier: GPL-2.0
/*
 * A call path through 110 distinct functions: main -> f0 -> f1 -> ... ->
 * f109 -> leaf.  leaf spins for argv[1] ms of user CPU time.  Each level is a real
 * call (noinline, an instruction after the call) and a function of its own
 * (a distinct constant keeps identical-code folding away).
 */
#include <stdlib.h>
#include <sys/resource.h>

#define DEEP_FN		__attribute__((noinline, noclone, used))
static inline void after_call(void)
{
	asm volatile("" ::: "memory");
}

volatile unsigned long sink;

/* The process's user CPU time, in ms. */
static double user_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3;
}

/*
 * User time, not all of the CPU time: the walks of its 112 frames count as
 * the program's system time, and under a debug kernel (KASAN, under
 * emulation) they took most of it, and the leaf too few samples.
 */
DEEP_FN void leaf(unsigned long spin_ms)
{
	double end = user_ms() + spin_ms;

	do {
		for (unsigned long i = 0; i < 100000; i++)
			sink += i;
	} while (user_ms() < end);
}

#define LEVEL(n, callee)				\
	DEEP_FN void f##n(unsigned long spin_ms)	\
	{						\
		callee(spin_ms);			\
		after_call();				\
		sink += n;				\
	}

LEVEL(109, leaf)
LEVEL(108, f109)
LEVEL(107, f108)
LEVEL(106, f107)
LEVEL(105, f106)
LEVEL(104, f105)
LEVEL(103, f104)
LEVEL(102, f103)
LEVEL(101, f102)
LEVEL(100, f101)
LEVEL(99, f100)
LEVEL(98, f99)
LEVEL(97, f98)
LEVEL(96, f97)
LEVEL(95, f96)
LEVEL(94, f95)
LEVEL(93, f94)
LEVEL(92, f93)
LEVEL(91, f92)
LEVEL(90, f91)
LEVEL(89, f90)
LEVEL(88, f89)
LEVEL(87, f88)
LEVEL(86, f87)
LEVEL(85, f86)
LEVEL(84, f85)
LEVEL(83, f84)
LEVEL(82, f83)
LEVEL(81, f82)
LEVEL(80, f81)
LEVEL(79, f80)
LEVEL(78, f79)
LEVEL(77, f78)
LEVEL(76, f77)
LEVEL(75, f76)
LEVEL(74, f75)
LEVEL(73, f74)
LEVEL(72, f73)
LEVEL(71, f72)
LEVEL(70, f71)
LEVEL(69, f70)
LEVEL(68, f69)
LEVEL(67, f68)
LEVEL(66, f67)
LEVEL(65, f66)
LEVEL(64, f65)
LEVEL(63, f64)
LEVEL(62, f63)
LEVEL(61, f62)
LEVEL(60, f61)
LEVEL(59, f60)
LEVEL(58, f59)
LEVEL(57, f58)
LEVEL(56, f57)
LEVEL(55, f56)
LEVEL(54, f55)
LEVEL(53, f54)
LEVEL(52, f53)
LEVEL(51, f52)
LEVEL(50, f51)
LEVEL(49, f50)
LEVEL(48, f49)
LEVEL(47, f48)
LEVEL(46, f47)
LEVEL(45, f46)
LEVEL(44, f45)
LEVEL(43, f44)
LEVEL(42, f43)
LEVEL(41, f42)
LEVEL(40, f41)
LEVEL(39, f40)
LEVEL(38, f39)
LEVEL(37, f38)
LEVEL(36, f37)
LEVEL(35, f36)
LEVEL(34, f35)
LEVEL(33, f34)
LEVEL(32, f33)
LEVEL(31, f32)
LEVEL(30, f31)
LEVEL(29, f30)
LEVEL(28, f29)
LEVEL(27, f28)
LEVEL(26, f27)
LEVEL(25, f26)
LEVEL(24, f25)
LEVEL(23, f24)
LEVEL(22, f23)
LEVEL(21, f22)
LEVEL(20, f21)
LEVEL(19, f20)
LEVEL(18, f19)
LEVEL(17, f18)
LEVEL(16, f17)
LEVEL(15, f16)
LEVEL(14, f15)
LEVEL(13, f14)
LEVEL(12, f13)
LEVEL(11, f12)
LEVEL(10, f11)
LEVEL(9, f10)
LEVEL(8, f9)
LEVEL(7, f8)
LEVEL(6, f7)
LEVEL(5, f6)
LEVEL(4, f5)
LEVEL(3, f4)
LEVEL(2, f3)
LEVEL(1, f2)
LEVEL(0, f1)

int main(int argc, char **argv)
{
	f0(argc > 1 ? strtoul(argv[1], NULL, 0) : 300);
	after_call();
	return 0;
}
