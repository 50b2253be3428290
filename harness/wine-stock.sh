#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make wine-stock: Windows programs under Wine as Debian ships it (wine64
# 8.0, no patches/wine) that register nothing: the kernel finds their PE
# images by itself, and loads the PE backend's module the first time it
# needs it.  In the guest, pe_stock runs both builds of pe_wine_prog.exe
# (4096-byte file alignment, mapped from the file; 512-byte, copied into
# anonymous memory) in their "stock" modes, pe_stock_dll.dll next to them:
# PE-side and unix-side samples, a uprobe against Wine's own unwinder, the
# control with kernel.unwind_tables_discover=0 (pe_stock.c lists the
# checks); the run starts with the module unloaded (harness/pe-autoload.sh).
# Then perf record and perf script as a user runs them, on the program
# Wine copies into anonymous memory: perf must name its frames
# (harness/wine-stock-perf-guest.sh).
# Then the MSVC-built images of harness/msvc-pe.sh, which leave early with
# an error, each sampled and stopped at its exit, where unwind_tables must
# list its image as found and the image in memory is copied out of the
# guest (through the prefix's directory, the one the guest may write).  On
# the host, the PE oracle checks each copy, as the kernel reads it, against
# objdump's decode of the file (pe_oracle.py --laid-out): no mismatch.
#
# The Wine prefix is make wine's (harness/wine.sh), and so is the boot
# option clearcpuid=smap.  For a build outside the selftests:
#
#   WINE_STOCK_BIN	pe_stock, pe_wine_prog.exe, pe_wine_prog-anon.exe and
#			pe_stock_dll.dll (default: the installed selftests)
#   WINE_STOCK_PREFIX	the Wine prefix (default: $CACHE/wine-prefix)
#   PE_ORACLE		the oracle's tool (default: built here, as make unit
#			builds it, in $USER_OUT) and PE_ORACLE_PY its script
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ "$UU_ARCH" = x86_64 ] || die "make wine-stock: x86-64 only"
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || die "no $wine: install wine64"
st=${WINE_STOCK_BIN:-$SELFTESTS_OUT/install/unwind_user}
for f in pe_stock pe_wine_prog.exe pe_wine_prog-anon.exe pe_stock_dll.dll; do
	[ -f "$st/$f" ] || die "no $st/$f: run 'make selftests' first"
done
oracle=${PE_ORACLE:-$USER_OUT/pe-oracle}
oracle_py=${PE_ORACLE_PY:-$SRC/tools/testing/unwind_user/pe_oracle.py}
[ -n "${PE_ORACLE:-}" ] || "$HARNESS/user.sh" "$oracle" >&2
[ -x "$oracle" ] || die "no $oracle"
# The console launchers and the GUI one of distlib; gui-64.exe of setuptools
# is the same program as cli-64.exe built for the GUI subsystem.
mapfile -t msvc < <("$HARNESS/msvc-pe.sh" | grep -v /gui-64.exe)
[ ${#msvc[@]} -gt 0 ] || die "no MSVC images (harness/msvc-pe.sh)"

prefix=${WINE_STOCK_PREFIX:-$CACHE/wine-prefix}
if [ ! -f "$prefix/system.reg" ]; then
	log "creating the Wine prefix $prefix"
	WINEPREFIX=$prefix WINEDEBUG=-all "$wine" wineboot -i >/dev/null 2>&1 || true
	WINEPREFIX=$prefix /usr/lib/wine/wineserver -w || true
	[ -f "$prefix/system.reg" ] || die "wineboot made no prefix in $prefix"
fi
dumps=$prefix/pe-stock-images
rm -rf "$dumps"

# Twelve Wine processes, each 2-70 s to start in the TCG guest (more when
# the host is busy): one wineserver for all of them (-p: it stays), and a
# longer limit than make wine's.
server=/usr/lib/wine/wineserver
start=$(date +%s)
rc=0
VM_APPEND=clearcpuid=smap VM_RWDIR=$prefix "$HARNESS/vm.sh" -t 1800 \
	"$HARNESS/pe-autoload.sh && export WINEPREFIX=$prefix WINEDEBUG=-all && $server -p && { $st/pe_stock $wine /tmp/pe_stock.out --autoload /tmp/unwind_user_modprobe.log $st/pe_wine_prog.exe $st/pe_wine_prog-anon.exe --msvc $dumps ${msvc[*]}; r=\$?; $HARNESS/wine-stock-perf-guest.sh $wine $st || r=1; $server -k; $HARNESS/pe-autoload.sh --check && exit \$r; }" ||
	rc=$?
log "make wine-stock: guest took $(($(date +%s) - start)) s"

# The oracle, on the host: one check per MSVC image.
echo "TAP version 13"
echo "1..${#msvc[@]}"
n=0
for image in "${msvc[@]}"; do
	n=$((n + 1))
	dump=$(awk -v i="$image" '$2 == i { print $1 }' "$dumps/manifest" 2>/dev/null | head -n1)
	if [ -z "$dump" ] || [ ! -f "$dump" ]; then
		echo "not ok $n - oracle: no copy of $image in memory"
		rc=1
		continue
	fi
	out=$(python3 "$oracle_py" --tool "$oracle" --laid-out "$dump" "$image" 2>&1) && ok=ok ||
		{ ok="not ok"; rc=1; }
	echo "$out" | sed 's/^/# /'
	echo "$ok $n - oracle: $image as wine64 laid it out in memory ($(basename "$dump")):" \
		"$(echo "$out" | sed -n 's/^oracle: PE: .*lookups, //p')"
done
exit $rc
