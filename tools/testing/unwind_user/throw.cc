// SPDX-License-Identifier: GPL-2.0
// A small C++ program for the oracle: exceptions give it personality
// routines and LSDAs ("zPLR" CIEs), alignas() a realigned stack (DRAP,
// with CFA expressions), and -O2 the usual push/pop and epilogue rows.
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

struct alignas(64) Block {
	char data[256];
};

__attribute__((noinline)) static int realigned(int n)
{
	Block b;

	std::memset(b.data, n, sizeof(b.data));
	asm volatile("" : : "r"(&b) : "memory");
	return b.data[n & 255];
}

__attribute__((noinline)) static void thrower(int depth)
{
	std::vector<std::string> keep(depth, "frame");

	if (depth == 0)
		throw std::runtime_error("bottom");
	thrower(depth - 1);
}

int main(int argc, char **argv)
{
	int caught = 0;

	for (int i = 0; i < 3; i++) {
		try {
			thrower(argc + i);
		} catch (const std::exception &e) {
			caught += std::strlen(e.what()) + realigned(i);
		}
	}
	std::printf("%d\n", caught);
	return argv[0] ? 0 : 1;
}
