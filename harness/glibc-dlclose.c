// SPDX-License-Identifier: GPL-2.0
/*
 * make glibc: dlopen() a library, show the registration that covers one of
 * its functions in /proc/self/unwind_tables, dlclose() it and show that
 * none covers that address any more.  glibc-guest.sh runs it under strace
 * to see the patched ld.so unregister (prctl 83 returning 0) in dlclose().
 *
 *	dlclose LIBRARY SYMBOL
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The registrations ("START-END prctl ...") in /proc/self/unwind_tables
 * whose text holds addr; how many.  What the kernel finds by itself is
 * none (glibc-guest.sh turns that off anyway).
 */
static int covering(unsigned long addr, const char *when)
{
	FILE *f = fopen("/proc/self/unwind_tables", "r");
	unsigned long start, end;
	char line[512], origin[16];
	int n = 0;

	if (!f) {
		perror("/proc/self/unwind_tables");
		exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %15s", &start, &end, origin) == 3 &&
		    !strcmp(origin, "prctl") && start <= addr && addr < end) {
			printf("%s: %s", when, line);
			n++;
		}
	}
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	unsigned long addr;
	void *h, *sym;
	int open_n, closed_n;

	if (argc != 3) {
		fprintf(stderr, "usage: %s LIBRARY SYMBOL\n", argv[0]);
		return 2;
	}
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 2;
	}
	sym = dlsym(h, argv[2]);
	if (!sym) {
		fprintf(stderr, "dlsym: %s\n", dlerror());
		return 2;
	}
	addr = (unsigned long)sym;
	open_n = covering(addr, "after dlopen");
	if (dlclose(h)) {
		fprintf(stderr, "dlclose: %s\n", dlerror());
		return 2;
	}
	closed_n = covering(addr, "after dlclose");
	printf("%s at %#lx: %d registration(s) after dlopen, %d after dlclose\n",
	       argv[2], addr, open_n, closed_n);
	return open_n == 1 && closed_n == 0 ? 0 : 1;
}
