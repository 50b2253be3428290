// SPDX-License-Identifier: GPL-2.0
//
// make realbin: a C++ program built with -O2 -fomit-frame-pointer that
// recurses DEPTH levels and throws from the bottom, caught in main, in a
// loop for SECONDS.  Every other level holds an object with a destructor,
// so the unwinder runs cleanups on its way up (phase 2 stops there).
//
//   throw_deep [SECONDS [DEPTH]]	(SECONDS 0: throw once)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

static volatile unsigned long sink;

struct Guard {
	~Guard() { sink = sink + 1; }
};

__attribute__((noinline)) static int with_guard(int depth);

__attribute__((noinline)) static int plain(int depth)
{
	if (depth == 0)
		throw std::runtime_error("bottom");
	return with_guard(depth - 1) + 1;
}

__attribute__((noinline)) static int with_guard(int depth)
{
	Guard g;

	if (depth == 0)
		throw std::runtime_error("bottom");
	return plain(depth - 1) + 1;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3;
	int depth = argc > 2 ? atoi(argv[2]) : 100;
	auto end = std::chrono::steady_clock::now() +
		   std::chrono::duration<double>(seconds);
	unsigned long caught = 0;

	do {
		try {
			sink = sink + plain(depth);
		} catch (const std::runtime_error &e) {
			caught++;
		}
	} while (std::chrono::steady_clock::now() < end);
	printf("throw_deep: %lu exceptions through %d levels\n", caught, depth);
	return 0;
}
