#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build tools/perf of the assembled tree (the perf that matches the kernel).
set -euo pipefail
. "$(dirname "$0")/common.sh"

mkdir -p "$PERF_OUT"
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
log "building perf in $PERF_OUT"
# Only what `perf record/script/report` need here; the Rust test workload
# does not build with this host's rustc (NO_RUST).
make -s -C "$SRC/tools/perf" O="$PERF_OUT" -j"$(($(nproc) + 1))" \
	NO_RUST=1 NO_LIBPYTHON=1 NO_LIBPERL=1 NO_SLANG=1 NO_GTK2=1 NO_LIBBPF=1 \
	NO_JEVENTS=1 NO_LIBTRACEEVENT=1 NO_LIBUNWIND=1 NO_LIBBABELTRACE=1 \
	NO_LIBNUMA=1 NO_LIBCAP=1 NO_SDT=1 NO_LIBLLVM=1 NO_CAPSTONE=1 \
	NO_LIBPFM4=1 NO_LIBZSTD=1 >"$PERF_OUT/build.log" 2>&1 ||
	{ tail -n 40 "$PERF_OUT/build.log"; die "perf build failed"; }
"$PERF_OUT/perf" version >&2
