#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make realbin: the unwinder on real Debian binaries (python3, a C++ program
# throwing through 100 frames) against gdb, in the guest.
set -euo pipefail
. "$(dirname "$0")/common.sh"

# The C++ workload, built here with the host's compiler (the guest sees the
# cache read-only); realbin-guest.sh builds it itself if it is missing.
out=$CACHE/build/realbin
mkdir -p "$out"
if [ ! -x "$out/throw_deep" ] || [ "$HARNESS/realbin/throw_deep.cc" -nt "$out/throw_deep" ]; then
	log "building $out/throw_deep"
	g++ -O2 -fomit-frame-pointer -o "$out/throw_deep" "$HARNESS/realbin/throw_deep.cc"
fi
# 15 min on the project's machine with two other guests and a kernel build
# running next to it: twice that before the guest counts as hung.
exec "$HARNESS/vm.sh" -t 1800 "$HARNESS/realbin-guest.sh"
