// SPDX-License-Identifier: GPL-2.0
/*
 * The call path of workload.c, main -> a -> b -> c -> d, in C++ built with
 * exceptions and heavy inlining: b runs an inlined template pipeline, c
 * throws and catches before calling d.  a..d keep C names so that the tests
 * expect the same chain.
 */
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <numeric>
#include <stdexcept>
#include <vector>

#define WORKLOAD_FN	__attribute__((noinline, noclone, used))
static inline void after_call()
{
	asm volatile("" ::: "memory");
}

volatile unsigned long sink;

static double cpu_ms()
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * A probe point past d's prologue, where the frame is set up: a nop, which
 * uprobes emulate instead of single-stepping it out of line.  Its offset in
 * d goes to a section of its own; a symbol would change how perf names the
 * addresses after it.  Inlined even at -O0: it must land in d.
 */
static inline __attribute__((always_inline)) void probe_point_in_d()
{
	asm volatile("1: nop\n"
		     ".pushsection .probe_offsets, \"\", @progbits\n"
		     ".long 1b - d\n"
		     ".popsection");
}

extern "C" WORKLOAD_FN void d(unsigned long spin_ms)
{
	volatile char buf[32];

	buf[0] = 1;
	asm volatile("" : : "r"(buf) : "memory");
	probe_point_in_d();
	if (!spin_ms)
		return;
	double end = cpu_ms() + spin_ms;
	do {
		for (unsigned long i = 0; i < 100000; i++)
			sink += i * buf[0];
	} while (cpu_ms() < end);
}

template <typename T> static inline T twice(T v) { return v * 2; }

extern "C" WORKLOAD_FN void c(unsigned long spin_ms)
{
	try {
		if (sink != ~0UL)
			throw std::runtime_error("thrown and caught before d");
	} catch (const std::exception &e) {
		sink += std::strlen(e.what());
	}
	d(spin_ms);
	after_call();
}

extern "C" WORKLOAD_FN void b(unsigned long spin_ms)
{
	std::vector<unsigned long> v(16);

	std::iota(v.begin(), v.end(), sink);
	for (auto &x : v)
		x = twice(x);
	sink += std::accumulate(v.begin(), v.end(), 0UL);
	c(spin_ms);
	after_call();
}

extern "C" WORKLOAD_FN void a(unsigned long spin_ms)
{
	b(spin_ms);
	after_call();
	sink += 1;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	unsigned long n = std::strtoul(argv[2], nullptr, 0);

	if (!std::strcmp(argv[1], "calls")) {
		for (unsigned long i = 0; i < n; i++)
			a(0);
	} else if (!std::strcmp(argv[1], "spin")) {
		a(n);
	} else {
		return 2;
	}
	after_call();
	return 0;
}
