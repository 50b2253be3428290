#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make wine-loader: make wine's check (harness/wine.sh), with Wine's ntdll.so
# built with patches/wine (harness/wine-ntdll.sh) bind-mounted over the
# installed one in the guest, and a program that registers nothing itself:
# Wine's loader has registered every image it mapped, and the kernel's
# chain at the uprobe must still equal RtlCaptureStackBackTrace's; the
# unix side is sampled under both of Wine's dispatchers.  Then a figure:
# Wine's own cmd.exe running a batch loop under perf record
# (harness/wine-builtin-guest.sh).
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ "$UU_ARCH" = x86_64 ] || die "make wine-loader: x86-64 only"
wine=/usr/lib/wine/wine64
sys=/usr/lib/x86_64-linux-gnu/wine/x86_64-unix/ntdll.so
[ -x "$wine" ] && [ -f "$sys" ] || die "no $wine or $sys: install wine64"
ntdll=$("$HARNESS/wine-ntdll.sh" | tail -n1)
st=$SELFTESTS_OUT/install/unwind_user
[ -x "$st/pe_wine" ] && [ -f "$st/pe_wine_prog.exe" ] || die "run 'make selftests' first"

prefix=$CACHE/wine-prefix
if [ ! -f "$prefix/system.reg" ]; then
	log "creating the Wine prefix $prefix"
	WINEPREFIX=$prefix WINEDEBUG=-all "$wine" wineboot -i >/dev/null 2>&1 || true
	WINEPREFIX=$prefix /usr/lib/wine/wineserver -w || true
fi
VM_APPEND=clearcpuid=smap VM_RWDIR=$prefix "$HARNESS/vm.sh" -t 900 \
	"$HARNESS/pe-autoload.sh && mount --bind $ntdll $sys && export WINEPREFIX=$prefix WINEDEBUG=-all && $st/pe_wine $wine $st/pe_wine_prog.exe /tmp/pe_wine.out --loader-registers && $HARNESS/pe-autoload.sh --check && $HARNESS/wine-builtin-guest.sh $wine ${WINE_CMD_LOOPS:-1500}"
