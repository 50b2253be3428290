// SPDX-License-Identifier: GPL-2.0
/*
 * A Windows program for pe_wine.c, run under real Wine (wine64) in the
 * guest.  It registers its own image and every module Wine has loaded
 * with prctl(PR_REGISTER_EH_FRAME, PR_EH_FRAME_FORMAT_PE), through a raw
 * syscall instruction (Wine lets PE code make Linux system calls), then
 * goes main -> pe_w_a -> pe_w_b -> pe_w_c -> pe_w_mark, where it writes
 * the chain Wine's own unwinder gives (RtlCaptureStackBackTrace) to the
 * file named by its argument and calls pe_w_probe, on which pe_wine.c
 * puts a uprobe: the kernel's chain there must be Wine's, frame for frame.
 *
 *   pe_wine_prog.exe OUT [wait|wait-none|wait-loader FILE | unix|unix-none|
 *                         unix-loader|unixcall-loader FILE |
 *                         spin|spin-loader MS | stock-spin|stock-unix X |
 *                         stock-wait FILE]
 *
 * Output lines: "module BASE SIZE NAME" for each module Wine has loaded,
 * "register BASE SIZE NAME ERR" for each it registered, "func NAME START
 * END" for kernel32's BaseThreadInitThunk and ntdll's RtlUserThreadStart
 * (their exports, and the end of their .pdata entries), "pid PID" (its
 * Linux pid), then "trace N IP...", "ret IP" (where pe_w_probe returned
 * to) and "probed".  With "wait FILE" after OUT, it waits for FILE (a
 * Windows path) to exist before it goes down the chain: pe_wine.c puts the
 * uprobe on the running process then, when Wine has mapped the image for
 * good (Wine maps sections writable and makes them executable later, which
 * a uprobe set before does not follow); after "probed" it waits for
 * FILE.end, for pe_wine.c to read its /proc/PID/unwind_tables.
 * "wait-none FILE" does the same without registering anything (pe_wine.c's
 * control), and so does "wait-loader FILE": for a Wine that registers the
 * images it maps itself (patches/wine).
 *
 * "unix FILE" (and "unix-none", "unix-loader") go down the chain to
 * pe_w_unix instead of pe_w_mark, which for UNIX_MS milliseconds yields
 * the CPU (SwitchToThread, Sleep(0)): nearly all its time is on Wine's
 * unix side, in ntdll.so and libc under Wine's syscall dispatcher, where
 * pe_wine.c samples it.  "unixcall-loader FILE" calls gethostname()
 * instead, which ws2_32 runs on the unix side through Wine's unix call
 * dispatcher (ws2_32.so, libc).  Then it says "probed", waits for FILE.end and
 * leaves with a Linux exit_group(), so that no sample is taken on the way
 * out of main (Wine's process exit is unix code too, under mingw's CRT).
 *
 * With "spin MS" after OUT (make demo-wine), the bottom of the chain is
 * pe_w_spin instead, which spins for MS milliseconds, in its own loop, in
 * Wine's MultiByteToWideChar() and, once a round, on Wine's unix side
 * (SwitchToThread()), for perf to sample; "spin-loader MS" registers
 * nothing (patches/wine's loader does).
 *
 * The "stock" modes are pe_stock.c's, for a stock Wine and a kernel that
 * finds PE images by itself: the program registers nothing, loads
 * pe_stock_dll.dll (LoadLibrary: it must sit next to the program) and goes
 * three frames deeper, main -> pe_w_a -> pe_w_b -> pe_w_c -> pe_w_d ->
 * pe_w_e, to the bottom of its mode:
 *
 *   "stock-spin X": pe_w_leaf, a leaf without a frame, spins for
 *   STOCK_SPIN_MS milliseconds (pe_w_e calls it again and again);
 *   "stock-unix X": pe_w_unix's loop on Wine's unix side, as "unix" does;
 *   "stock-wait FILE": pe_w_mark, as "wait-none FILE" does, which calls
 *   pe_s_dll_probe of the DLL after pe_w_probe ("dllret IP" is where that
 *   returned to); a uprobe goes on either.
 *
 * "stock-spin" and "stock-unix" print "flag ADDR" after their pid, the
 * address of a word pe_stock.c writes through /proc/PID/mem: they spin in
 * pe_w_wait (a loop of their own, all PE code) until it is 1, go down
 * their chain, say "done", spin in pe_w_wait again until it is 2, and
 * leave with exit_group().  pe_stock.c samples the program from its
 * start, and lets it go down the chain once the kernel has found its
 * image (or that it will not): the first samples of a run may miss while
 * the kernel loads its PE module.
 */
#include <winsock2.h>
#include <windows.h>
#include <psapi.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PR_REGISTER_EH_FRAME	82
#define PR_EH_FRAME_FORMAT_PE	3
#define NR_PRCTL		157
#define NR_GETPID		39
#define NR_EXIT_GROUP		231
#define UNIX_MS			2500
#define STOCK_SPIN_MS		3000
/* pe_w_wait gives up after two minutes: pe_stock.c may be gone. */
#define STOCK_WAIT_MS		120000

struct prctl_eh_frame {
	unsigned int format, flags;
	unsigned long long text_start, text_size;
	unsigned long long eh_frame_start, eh_frame_size;
	unsigned long long eh_frame_hdr_start, eh_frame_hdr_size;
};

volatile int sink;
static FILE *out;
static unsigned long long spin_ms, unix_ms;
static int unix_calls;
/* The stock modes: the chain goes through pe_w_d and pe_w_e. */
static int stock, stock_spin;
/* pe_stock.c's word (see the top) */
static volatile LONG stock_go;
static void (*dll_probe)(void **ret);
static void *dll_ret;

/* A Linux system call from Windows code: -errno or the result. */
static long long linux_syscall5(long long nr, long long a1, long long a2,
				long long a3, long long a4, long long a5)
{
	register long long r10 __asm__("r10") = a4;
	register long long r8 __asm__("r8") = a5;
	long long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
}

/* Lists Wine's modules, and registers them if @reg. */
static void register_modules(int reg)
{
	HMODULE mods[256];
	DWORD need = 0, i;

	if (!EnumProcessModules(GetCurrentProcess(), mods, sizeof(mods), &need))
		return;
	for (i = 0; i < need / sizeof(HMODULE) && i < 256; i++) {
		struct prctl_eh_frame d = { .format = PR_EH_FRAME_FORMAT_PE };
		struct prctl_eh_frame *dp = &d;
		char name[MAX_PATH] = "?";
		MODULEINFO mi;
		long long ret;

		if (!GetModuleInformation(GetCurrentProcess(), mods[i], &mi, sizeof(mi)))
			continue;
		GetModuleBaseNameA(GetCurrentProcess(), mods[i], name, sizeof(name));
		fprintf(out, "module %llx %lx %s\n", (unsigned long long)(ULONG_PTR)mi.lpBaseOfDll,
			mi.SizeOfImage, name);
		if (!reg)
			continue;
		d.text_start = (ULONG_PTR)mi.lpBaseOfDll;
		d.text_size = mi.SizeOfImage;
		ret = linux_syscall5(NR_PRCTL, PR_REGISTER_EH_FRAME, (ULONG_PTR)dp,
				     sizeof(d), 0, 0);
		fprintf(out, "register %llx %lx %s %lld\n", d.text_start,
			mi.SizeOfImage, name, ret);
	}
}

/*
 * Where @name of @mod starts, by its export, and ends, by the .pdata entry
 * that starts there (0 if none does): pe_wine.c names frames with it.
 */
static void print_func(const char *mod, const char *name)
{
	HMODULE h = GetModuleHandleA(mod);
	ULONG_PTR base = (ULONG_PTR)h, start = 0, end = 0;
	const IMAGE_DATA_DIRECTORY *dir;
	const IMAGE_NT_HEADERS64 *nt;
	const RUNTIME_FUNCTION *rf;
	DWORD i, rva;

	if (h)
		start = (ULONG_PTR)GetProcAddress(h, name);
	if (start) {
		nt = (const IMAGE_NT_HEADERS64 *)(base + ((const IMAGE_DOS_HEADER *)h)->e_lfanew);
		dir = &nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_EXCEPTION];
		rf = (const RUNTIME_FUNCTION *)(base + dir->VirtualAddress);
		rva = start - base;
		for (i = 0; i < dir->Size / sizeof(*rf); i++)
			if (rf[i].BeginAddress == rva)
				end = base + rf[i].EndAddress;
	}
	fprintf(out, "func %s %llx %llx\n", name, (unsigned long long)start,
		(unsigned long long)end);
}

static void *probe_ret;

/* The uprobe's target: a function of its own, so its entry is easy to find. */
__attribute__((noinline)) void pe_w_probe(void)
{
	/* The kernel's frame 1 at the uprobe, which pe_wine.c checks. */
	probe_ret = __builtin_return_address(0);
	sink++;
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void pe_w_mark(void)
{
	void *frames[62];
	USHORT n, i;

	n = RtlCaptureStackBackTrace(0, 62, frames, NULL);
	fprintf(out, "trace %u", n);
	for (i = 0; i < n; i++)
		fprintf(out, " %llx", (unsigned long long)(ULONG_PTR)frames[i]);
	fprintf(out, "\n");
	fflush(out);
	pe_w_probe();
	if (dll_probe)
		dll_probe(&dll_ret);
	sink++;
}

static char spin_text[4096];
static WCHAR spin_wide[4096];

/* In its own loop, in Wine's PE code (kernelbase, ntdll) and on its unix side. */
__attribute__((noinline)) void pe_w_spin(void)
{
	ULONGLONG end = GetTickCount64() + spin_ms;
	int i;

	memset(spin_text, 'x', sizeof(spin_text));
	while (GetTickCount64() < end) {
		for (i = 0; i < 20000; i++)
			sink += i;
		sink += MultiByteToWideChar(CP_ACP, 0, spin_text, sizeof(spin_text),
					    spin_wide, ARRAYSIZE(spin_wide));
		SwitchToThread();
	}
}

/*
 * Nearly all on the unix side: NtYieldExecution and NtDelayExecution, or
 * ws2_32's unix call for gethostname().
 */
__attribute__((noinline)) void pe_w_unix(void)
{
	ULONGLONG end = GetTickCount64() + unix_ms;
	char host[256];

	while (GetTickCount64() < end) {
		if (unix_calls) {
			sink += gethostname(host, sizeof(host));
			continue;
		}
		SwitchToThread();
		Sleep(0);
		sink++;
	}
}

/* A leaf without a frame: the return address is at the stack pointer. */
__attribute__((noinline)) void pe_w_leaf(int n)
{
	int i;

	for (i = 0; i < n; i++)
		sink += i;
}

/* Keeps a double across calls: xmm6 saved (UWOP_SAVE_XMM128). */
__attribute__((noinline)) void pe_w_e(int n)
{
	ULONGLONG end = GetTickCount64() + STOCK_SPIN_MS;
	double x = sink * 0.5;

	if (stock_spin) {
		while (GetTickCount64() < end)
			pe_w_leaf(20000 + (n & 1));
	} else if (unix_ms) {
		pe_w_unix();
	} else {
		pe_w_mark();
	}
	sink += (int)(x * 3.0);
}

/* More than 128 bytes of locals: UWOP_ALLOC_LARGE. */
__attribute__((noinline)) void pe_w_d(int n)
{
	volatile char buf[512];

	buf[n & 0xff] = (char)n;
	pe_w_e(n + 1);
	sink += buf[n & 0xff];
}

/* Spins until pe_stock.c's word is @level (all PE code, in this image). */
__attribute__((noinline)) void pe_w_wait(LONG level)
{
	ULONGLONG end = GetTickCount64() + STOCK_WAIT_MS;
	int i;

	while (stock_go < level && GetTickCount64() < end)
		for (i = 0; i < 20000; i++)
			sink += i;
}

__attribute__((noinline)) void pe_w_c(int n)
{
	volatile long v[4] = { n, n + 1, n + 2, n + 3 };

	if (stock)
		pe_w_d(n);
	else if (unix_ms)
		pe_w_unix();
	else if (spin_ms)
		pe_w_spin();
	else
		pe_w_mark();
	sink += v[0] + v[3];
}

/* alloca: a frame register */
__attribute__((noinline)) void pe_w_b(int n)
{
	volatile char *p = alloca(32 + (n & 0x70));

	p[0] = (char)n;
	pe_w_c(n + 1);
	sink += p[0];
}

__attribute__((noinline)) void pe_w_a(int n)
{
	int a = sink, b = a * 7, c = a ^ n;

	pe_w_b(n + 1);
	sink += a + b + c;
}

/* Wait up to a minute for @path to exist. */
static void wait_for(const char *path)
{
	int i;

	for (i = 0; i < 6000; i++) {
		if (GetFileAttributesA(path) != INVALID_FILE_ATTRIBUTES)
			return;
		Sleep(10);
	}
}

int main(int argc, char **argv)
{
	const char *mode = argc > 3 ? argv[2] : "";
	char end[MAX_PATH];
	int wait, none;

	out = fopen(argc > 1 ? argv[1] : "pe_wine.out", "w");
	if (!out)
		return 1;
	if (!strncmp(mode, "spin", 4))
		spin_ms = strtoull(argv[3], NULL, 0);
	if (!strncmp(mode, "unix", 4))
		unix_ms = UNIX_MS;
	if (!strncmp(mode, "unixcall", 8)) {
		WSADATA wsa;

		unix_calls = !WSAStartup(MAKEWORD(2, 2), &wsa);
		if (!unix_calls)
			return 1;
	}
	if (!strncmp(mode, "stock-", 6)) {
		HMODULE dll = LoadLibraryA("pe_stock_dll.dll");

		stock = 1;
		stock_spin = !strcmp(mode, "stock-spin");
		if (!strcmp(mode, "stock-unix"))
			unix_ms = UNIX_MS;
		dll_probe = dll ? (void *)GetProcAddress(dll, "pe_s_dll_probe") : NULL;
		if (!dll_probe)
			return 1;
	}
	wait = !strncmp(mode, "wait", 4) || (unix_ms && !stock) ||
	       !strcmp(mode, "stock-wait");
	/*
	 * The control registers nothing, nor need a loader that registers
	 * what it maps (patches/wine), nor a kernel that finds the images.
	 */
	none = strstr(mode, "-none") || strstr(mode, "-loader") || stock;
	register_modules(!none);
	print_func("kernel32.dll", "BaseThreadInitThunk");
	print_func("ntdll.dll", "RtlUserThreadStart");
	fprintf(out, "pid %lld\n", linux_syscall5(NR_GETPID, 0, 0, 0, 0, 0));
	if (stock && !wait)
		fprintf(out, "flag %llx\n", (unsigned long long)(ULONG_PTR)&stock_go);
	fflush(out);
	if (wait)
		wait_for(argv[3]);
	else if (stock)
		pe_w_wait(1);
	pe_w_a(argc);
	if (wait) {
		fprintf(out, "ret %llx\n", (unsigned long long)(ULONG_PTR)probe_ret);
		if (stock)
			fprintf(out, "dllret %llx\n", (unsigned long long)(ULONG_PTR)dll_ret);
		fprintf(out, "probed\n");
		fflush(out);
		snprintf(end, sizeof(end), "%s.end", argv[3]);
		wait_for(end);
	} else if (stock) {
		fprintf(out, "done\n");
		fflush(out);
		pe_w_wait(2);
	}
	fclose(out);
	if (unix_ms || stock)
		linux_syscall5(NR_EXIT_GROUP, 0, 0, 0, 0, 0);
	return 0;
}
