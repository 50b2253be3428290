// SPDX-License-Identifier: GPL-2.0
/*
 * A Windows x64 DLL for pe_chain.c, built with mingw-w64 (pe_dll.dll): no
 * imports, no C runtime, file-backed sections (--file-alignment 4096), so
 * that pe_host's minimal loader can map it as Wine would.  Its code keeps
 * no frame-pointer chain; only its exception directory (.pdata/.xdata,
 * which GCC emits for every function) describes its frames.
 *
 * pe_a -> pe_b -> pe_c -> pe_spin, then pe_c -> the host's callback.  pe_b
 * allocates with alloca(), so its frame is based on a frame register
 * (UWOP_SET_FPREG); pe_a pushes nonvolatile registers.
 */
typedef void (*pe_cb)(unsigned long long n);

volatile unsigned long long pe_sink;

__attribute__((noinline)) static void pe_spin(unsigned long long n)
{
	for (unsigned long long i = 0; i < n; i++)
		pe_sink += i;
}

__attribute__((noinline)) static void pe_c(pe_cb cb, unsigned long long n)
{
	pe_spin(n);
	cb(n);
	pe_sink++;
}

__attribute__((noinline)) static void pe_b(pe_cb cb, unsigned long long n)
{
	volatile char *buf = __builtin_alloca(16 + (n & 0x70));

	buf[0] = 1;
	pe_c(cb, n);
	pe_sink += buf[0];
}

/* Keeps values live across the call: nonvolatile registers get pushed. */
__declspec(dllexport) void pe_a(pe_cb cb, unsigned long long n)
{
	unsigned long long a = pe_sink, b = a * 3, c = a ^ n, d = a + n;

	pe_b(cb, n);
	pe_sink += a + b + c + d;
}

/* The entry point a DLL needs; nothing to initialise. */
int DllMainCRTStartup(void *inst, unsigned int reason, void *reserved)
{
	return 1;
}
