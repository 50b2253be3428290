// SPDX-License-Identifier: GPL-2.0
/*
 * A Windows x64 DLL for pe_stock.c, built with mingw-w64 (pe_stock_dll.dll):
 * no imports, no C runtime, sections aligned to pages in the file
 * (--file-alignment 4096), so that Wine maps it from its file and a uprobe
 * can go on its code.  pe_wine_prog.exe loads it (LoadLibrary) and calls
 * pe_s_dll_probe() from pe_w_mark, right after pe_w_probe: in the build of
 * the program whose sections Wine copies into anonymous memory, where no
 * uprobe can go, pe_stock.c probes this function instead.
 */
volatile unsigned long long pe_s_dll_sink;

/*
 * The uprobe's target in the DLL: it keeps its return address (frame 1 of
 * the kernel's chain at the uprobe) where the program asks.
 */
__declspec(dllexport) __attribute__((noinline)) void pe_s_dll_probe(void **ret)
{
	*ret = __builtin_return_address(0);
	pe_s_dll_sink++;
}

/* The entry point a DLL needs; nothing to initialise. */
int DllMainCRTStartup(void *inst, unsigned int reason, void *reserved)
{
	return 1;
}
