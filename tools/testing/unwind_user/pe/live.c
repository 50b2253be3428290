// SPDX-License-Identifier: GPL-2.0
/*
 * A Windows program for the live PE check (pe_live.c), run under Wine.
 * At three marked points it records what Wine's own unwinder says the call
 * chain is (RtlCaptureStackBackTrace), the registers there
 * (RtlCaptureContext), the stack and the memory of every loaded module:
 *   0. main -> a (alloca, a frame register) -> b (xmm values) -> c (many
 *      values live) -> capture
 *   1. the same chain called back from msvcrt's qsort
 *   2. a vectored exception handler, entered from Wine's exception
 *      dispatcher after an access violation in fault()
 * Output in the current directory: dump.txt, stack-N.bin, mod-BASE.bin.
 */
#include <windows.h>
#include <psapi.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

volatile int sink;
static FILE *out;
static int nr_dumps;

/* Copy [lo, hi) of this process to @f; unreadable pages become zeros. */
static void dump_mem(FILE *f, ULONG_PTR lo, ULONG_PTR hi)
{
	static unsigned char page[4096];
	ULONG_PTR a;

	for (a = lo; a < hi; a += sizeof(page)) {
		SIZE_T n = hi - a < sizeof(page) ? hi - a : sizeof(page);
		SIZE_T got = 0;

		if (!ReadProcessMemory(GetCurrentProcess(), (void *)a, page, n,
				       &got) || got != n)
			memset(page, 0, sizeof(page));
		fwrite(page, 1, n, f);
	}
}

static void dump_modules(HMODULE *mods, DWORD nr)
{
	char name[MAX_PATH];
	DWORD i;

	for (i = 0; i < nr; i++) {
		MODULEINFO mi;
		FILE *f;

		GetModuleInformation(GetCurrentProcess(), mods[i], &mi,
				     sizeof(mi));
		GetModuleBaseNameA(GetCurrentProcess(), mods[i], name,
				   sizeof(name));
		fprintf(out, "module %llx %lx %s\n",
			(unsigned long long)(ULONG_PTR)mi.lpBaseOfDll,
			mi.SizeOfImage, name);
		sprintf(name, "mod-%llx.bin",
			(unsigned long long)(ULONG_PTR)mi.lpBaseOfDll);
		f = fopen(name, "wb");
		if (!f)
			exit(2);
		dump_mem(f, (ULONG_PTR)mi.lpBaseOfDll,
			 (ULONG_PTR)mi.lpBaseOfDll + mi.SizeOfImage);
		fclose(f);
	}
}

__attribute__((noinline)) void capture(void)
{
	NT_TIB *tib = (NT_TIB *)NtCurrentTeb();
	HMODULE mods[64];
	void *frames[64];
	char name[64];
	CONTEXT ctx;
	DWORD need;
	USHORT n, i;
	FILE *f;

	RtlCaptureContext(&ctx);
	n = RtlCaptureStackBackTrace(0, 64, frames, NULL);
	fprintf(out, "dump %d\n", nr_dumps);
	{
		/* rip, then the GPRs in the ISA's order */
		const DWORD64 regs[] = {
			ctx.Rip, ctx.Rax, ctx.Rcx, ctx.Rdx, ctx.Rbx, ctx.Rsp,
			ctx.Rbp, ctx.Rsi, ctx.Rdi, ctx.R8, ctx.R9, ctx.R10,
			ctx.R11, ctx.R12, ctx.R13, ctx.R14, ctx.R15,
		};

		fprintf(out, "regs");
		for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
			fprintf(out, " %llx", (unsigned long long)regs[i]);
		fprintf(out, "\n");
	}
	fprintf(out, "trace %u", n);
	for (i = 0; i < n; i++)
		fprintf(out, " %llx", (unsigned long long)(ULONG_PTR)frames[i]);
	fprintf(out, "\n");
	if (!EnumProcessModules(GetCurrentProcess(), mods, sizeof(mods), &need))
		exit(2);
	dump_modules(mods, need / sizeof(HMODULE) < 64 ? need / sizeof(HMODULE) : 64);
	sprintf(name, "stack-%d.bin", nr_dumps);
	f = fopen(name, "wb");
	if (!f)
		exit(2);
	dump_mem(f, ctx.Rsp, (ULONG_PTR)tib->StackBase);
	fclose(f);
	/* last: pe_live.c maps the dump when it reads this line */
	fprintf(out, "stack %llx %llx\n", ctx.Rsp,
		(unsigned long long)(ULONG_PTR)tib->StackBase);
	fflush(out);
	nr_dumps++;
}

__attribute__((noinline)) int c(int x)
{
	int a = x * 3, b = x * 5, d = x * 7, e = x * 11, g = x * 13;

	capture();
	sink = a + b + d + e + g;
	return a ^ b ^ d ^ e ^ g;
}

__attribute__((noinline)) double b(double x)
{
	double y = x * 2, z = x * 3, w = x * 5;

	sink = c((int)x);
	return x + y + z + w;
}

__attribute__((noinline)) int a(int n)
{
	char *p = alloca(n + 16);

	p[n] = (char)b(n);
	return p[n];
}

static int cmp(const void *x, const void *y)
{
	static int once;

	if (!once++)
		a(3);
	return *(const int *)x - *(const int *)y;
}

static LONG WINAPI handler(struct _EXCEPTION_POINTERS *ep)
{
	if (ep->ExceptionRecord->ExceptionCode != EXCEPTION_ACCESS_VIOLATION)
		return EXCEPTION_CONTINUE_SEARCH;
	capture();
	ep->ContextRecord->Rip += 2;	/* past the faulting mov */
	return EXCEPTION_CONTINUE_EXECUTION;
}

__attribute__((noinline)) void fault(void)
{
	/* mov (%rax), %eax with rax = 0: 2 bytes */
	__asm__ volatile("xor %%eax, %%eax\n\tmov (%%rax), %%eax"
			 ::: "rax", "memory");
	sink = 1;
}

int main(void)
{
	int v[8] = { 5, 3, 8, 1, 9, 2, 7, 4 };

	out = fopen("dump.txt", "w");
	if (!out)
		return 2;
	sink = a(5);
	qsort(v, 8, sizeof(v[0]), cmp);
	AddVectoredExceptionHandler(1, handler);
	fault();
	fclose(out);
	printf("live: %d dumps\n", nr_dumps);
	return nr_dumps == 3 ? 0 : 1;
}
