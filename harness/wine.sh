#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make wine: the PE backend under real Wine (bookworm's wine64 8.0) in the
# guest.  pe_wine runs pe_wine_prog.exe, which registers itself and Wine's
# loaded modules with the prctl, with a uprobe on a marked function, and
# compares the kernel's callchain there with RtlCaptureStackBackTrace's;
# then the same program registering nothing, whose chain must not reach
# main (pe_wine.c lists the checks).  The backend's module is unloaded
# first (harness/pe-autoload.sh): the program's first registration must
# load it through modprobe.
#
# The Wine prefix is created once on the host (in the cache, ~700 MB) and
# written by the guest through a second 9p directory: wineboot in the TCG
# guest would take minutes.  The guest boots with clearcpuid=smap: QEMU
# TCG (bookworm's 7.2) performs the stack pops of a CPL3 iretq, which
# Wine executes, as supervisor accesses, and the guest kernel oopses with
# SMAP on (seen with and without the series).
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ "$UU_ARCH" = x86_64 ] || die "make wine: x86-64 only"
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || die "no $wine: install wine64"
st=$SELFTESTS_OUT/install/unwind_user
[ -x "$st/pe_wine" ] && [ -f "$st/pe_wine_prog.exe" ] || die "run 'make selftests' first"

prefix=$CACHE/wine-prefix
if [ ! -f "$prefix/system.reg" ]; then
	log "creating the Wine prefix $prefix"
	WINEPREFIX=$prefix WINEDEBUG=-all "$wine" wineboot -i >/dev/null 2>&1 || true
	WINEPREFIX=$prefix /usr/lib/wine/wineserver -w || true
	[ -f "$prefix/system.reg" ] || die "wineboot made no prefix in $prefix"
fi

start=$(date +%s)
rc=0
VM_APPEND=clearcpuid=smap VM_RWDIR=$prefix "$HARNESS/vm.sh" -t 900 \
	"$HARNESS/pe-autoload.sh && export WINEPREFIX=$prefix WINEDEBUG=-all && $st/pe_wine $wine $st/pe_wine_prog.exe /tmp/pe_wine.out && $HARNESS/pe-autoload.sh --check" ||
	rc=$?
log "make wine: guest took $(($(date +%s) - start)) s"
exit $rc
