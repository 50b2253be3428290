#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make demo): `perf record --call-graph fp,defer` on the
# test workloads, then their callchains as perf prints them.
set -euo pipefail
. "$(dirname "$0")/common.sh"

bin=$SELFTESTS_OUT/install/unwind_user
tmp=$(mktemp -d)

show() {	# TITLE PROGRAM ARGS...
	local title=$1 shown
	shift
	shown="$(basename "$1") ${*:2}"
	[ "$1" = env ] && shown="env $2 $(basename "$3") ${*:4}"
	echo
	echo "=== $title"
	echo "\$ perf record -e cpu-clock:u --call-graph fp,defer -- $shown"
	# "g": the go discover_workload waits for; the others read nothing.
	perf record -q -e cpu-clock:u -c 1000000 --call-graph fp,defer \
		-o "$tmp/perf.data" -- "$@" 2>/dev/null <<< g >/dev/null
	# --no-demangle: perf would read the one-letter names a..d as
	# mangled C++ types (signed char, bool, char, double).
	echo "\$ perf report --stdio --no-children -G --no-demangle"
	perf report -i "$tmp/perf.data" --stdio --no-children -G --no-demangle \
		--percent-limit 20 2>/dev/null | grep -v '^#' | grep -v '^$' | head -n 24
	echo "\$ perf script -F ip,sym,dso --no-demangle   (one sample in ${LEAF:-d})"
	perf script -i "$tmp/perf.data" -F ip,sym,dso --no-demangle 2>/dev/null |
		awk -v leaf="${LEAF:-d}" 'BEGIN { RS = "" } $2 == leaf { print; exit }' || true
}

echo "kernel: $(uname -r)"
show "main -> a -> b -> c -> d, built with frame pointers" "$bin/workload-fp" spin 300
show "the same program built with -fomit-frame-pointer" "$bin/workload-nofp" spin 300

echo "(its table was found by the kernel at the first sample: no help from the program)"

# A program that is running already, perf attached with -p: main -> run ->
# qsort() in libc -> cmp, all without frame pointers, libc found by itself.
echo
echo "=== attached to a running program: main -> run -> qsort() (libc) -> cmp, no frame pointers"
mkfifo "$tmp/go"
"$bin/discover_workload" qsort 1500 < "$tmp/go" > "$tmp/wl.out" &
pid=$!
exec 9> "$tmp/go"
until grep -q ready "$tmp/wl.out"; do sleep 0.1; done
echo g >&9
echo "\$ perf record -e cpu-clock --call-graph fp,defer -p PID -- sleep 1"
perf record -q -e cpu-clock -c 1000000 --call-graph fp,defer -o "$tmp/perf.data" \
	-p "$pid" -- sleep 1 2>/dev/null || true
exec 9>&-
wait "$pid" || true
echo "\$ perf script -F ip,sym,dso --no-demangle   (one sample in cmp)"
perf script -i "$tmp/perf.data" -F ip,sym,dso --no-demangle 2>/dev/null |
	awk 'BEGIN { RS = "" } $2 == "cmp" { print; exit }' || true

# A JIT runtime: node's V8 keeps frame pointers in its code, node itself
# has none; --perf-basic-prof writes /tmp/perf-PID.map, which names the
# JavaScript functions.
if command -v node >/dev/null; then
	cat > "$tmp/hot.js" <<'JS'
'use strict';
function leaf(n) { let s = 0; for (let i = 0; i < 2000; i++) s += (i * n) & 7; return s; }
function rec(d, n) { return d ? rec(d - 1, n) + 1 : leaf(n); }
const end = Date.now() + 1500;
let sink = 0;
while (Date.now() < end)
	for (let k = 0; k < 20; k++)
		sink += rec(5, k);
console.log(sink & 1);
JS
	echo
	echo "=== node (V8): JavaScript functions named from its perf map"
	echo "\$ perf record -e cpu-clock --call-graph fp,defer -- node --perf-basic-prof hot.js"
	perf record -q -e cpu-clock -c 1000000 --call-graph fp,defer -o "$tmp/perf.data" \
		-- node --perf-basic-prof "$tmp/hot.js" >/dev/null 2>&1
	echo "\$ perf script -F ip,sym,dso --no-inline   (one sample in leaf)"
	# Without --no-inline perf asks addr2line, a process, about every
	# address of every chain in node's 100 MB binary, for inlined
	# functions: some 400 lines a second under emulation.
	timeout 120 perf script -i "$tmp/perf.data" -F ip,sym,dso --no-inline \
		> "$tmp/node.txt" 2>/dev/null ||
		echo "(perf script did not finish within 120 s)"
	awk 'BEGIN { RS = "" } $2 ~ /leaf/ { print; exit }' "$tmp/node.txt" | head -n 16 || true
fi

# What the kernel cannot find by itself: a JIT's tables that only libgcc
# is told of (__register_frame()); the LD_AUDIT helper forwards them.
audit=$bin/unwind_user_audit.so
LEAF=jit_leaf show "a JIT without frame pointers that gives its .eh_frame to libgcc only" \
	"$bin/discover_workload" jit 300
LEAF=jit_leaf show "the same, with the LD_AUDIT helper forwarding __register_frame()" \
	"$bin/discover_workload" jit-audit "$audit" 300
