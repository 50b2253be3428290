// SPDX-License-Identifier: GPL-2.0
/*
 * discover.c's C++ program: main -> run -> std::ostream::operator<< ->
 * std::__ostream_insert (in libstdc++.so) -> spinbuf::xsputn, a streambuf
 * of this program that spins.  Built without frame pointers and started
 * without any helper: the chain from xsputn gets through libstdc++ only with
 * the table the kernel finds for it (the Makefile checks that the program
 * calls std::__ostream_insert in libstdc++ rather than inlining it).
 *
 *   discover_cxx MS
 *	print "ready", wait for a byte on stdin, spin MS ms of CPU time, then
 *	print "== tables" and /proc/self/unwind_tables (as discover_workload).
 */
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <ostream>
#include <streambuf>

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

/* A stream buffer whose every write spins: where the samples land. */
class spinbuf : public std::streambuf {
protected:
	std::streamsize xsputn(const char *s, std::streamsize n) override;
	int_type overflow(int_type c) override
	{
		return c;
	}
};

WORKLOAD_FN std::streamsize spinbuf::xsputn(const char *s, std::streamsize n)
{
	for (unsigned long i = 0; i < 20000; i++)
		sink += i ^ static_cast<unsigned char>(s[i % n]);
	return n;
}

extern "C" WORKLOAD_FN void run(unsigned long ms)
{
	spinbuf buf;
	std::ostream os(&buf);
	double end = cpu_ms() + ms;

	do {
		os << "through libstdc++";
		after_call();
	} while (cpu_ms() < end);
}

static bool write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			return false;
		p += n;
		len -= n;
	}
	return true;
}

static bool dump_tables()
{
	char b[4096];
	ssize_t n;
	int fd = open("/proc/self/unwind_tables", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !write_all(STDOUT_FILENO, "== tables\n", 10))
		return false;
	while ((n = read(fd, b, sizeof(b))) > 0)
		if (!write_all(STDOUT_FILENO, b, n))
			return false;
	close(fd);
	return !n;
}

int main(int argc, char **argv)
{
	char c;

	if (argc != 2) {
		std::fprintf(stderr, "usage: %s MS\n", argv[0]);
		return 2;
	}
	if (!write_all(STDOUT_FILENO, "ready\n", 6) || read(STDIN_FILENO, &c, 1) != 1)
		return 1;
	run(std::strtoul(argv[1], nullptr, 0));
	after_call();
	return dump_tables() ? 0 : 1;
}
