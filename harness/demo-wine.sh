#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo-wine: perf callchains through Windows code under real Wine
# (bookworm's wine64 8.0, its ntdll.so built with patches/wine by
# harness/wine-ntdll.sh) in the guest, with PE function names and no step
# but perf record and perf report (see harness/demo-wine-guest.sh).  The
# Wine prefix and the guest's boot options are make wine's
# (harness/wine.sh).
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ "$UU_ARCH" = x86_64 ] || die "make demo-wine: x86-64 only"
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || die "no $wine: install wine64"
st=$SELFTESTS_OUT/install/unwind_user
sys=/usr/lib/x86_64-linux-gnu/wine/x86_64-unix/ntdll.so
ntdll=$("$HARNESS/wine-ntdll.sh" | tail -n1)
[ -f "$st/pe_wine_prog.exe" ] || die "run 'make selftests' first"

prefix=$CACHE/wine-prefix
if [ ! -f "$prefix/system.reg" ]; then
	log "creating the Wine prefix $prefix"
	WINEPREFIX=$prefix WINEDEBUG=-all "$wine" wineboot -i >/dev/null 2>&1 || true
	WINEPREFIX=$prefix /usr/lib/wine/wineserver -w || true
	[ -f "$prefix/system.reg" ] || die "wineboot made no prefix in $prefix"
fi
VM_APPEND=clearcpuid=smap VM_RWDIR=$prefix "$HARNESS/vm.sh" -t 900 \
	"mount --bind $ntdll $sys && export WINEPREFIX=$prefix WINEDEBUG=-all && $HARNESS/demo-wine-guest.sh $wine"
