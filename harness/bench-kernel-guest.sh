#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make bench-kernel): the kernel's own user stack walk,
# timed by /sys/kernel/debug/unwind_user/bench (CONFIG_UNWIND_USER_BENCH)
# through tools/testing/selftests/unwind_user/walk_bench.c: a frame-pointer
# walk of the frame-pointer build, and a CFI walk, cold and warm, of the
# build without frame pointers, 32 functions deep, in the same boot; three
# rounds, alternating, then the medians and their ratios to the FP walk.
set -euo pipefail
. "$(dirname "$0")/common.sh"

bin=$SELFTESTS_OUT/install/unwind_user
walks=${1:-20000}
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
echo "kernel: $(uname -r), $(nproc) CPUs, $walks walks per run"
out=$(mktemp)
for run in 1 2 3; do
	"$bin/walk_bench-fp" fp "$walks" | tee -a "$out"
	"$bin/walk_bench" cfi "$walks" | tee -a "$out"
	# Finding the tables anew costs far more: fewer walks.
	"$bin/walk_bench" libc "$((walks / 10))" | tee -a "$out"
	"$bin/walk_bench" uaccess "$walks" | tee -a "$out"
done
awk '
/^walk_bench uaccess:/ {
	u["copy", ++nu] = $4; u["window", nu] = $7; u["get", nu] = $10
	next
}
/^walk_bench / {
	mode = $2; sub(":", "", mode)
	v[mode, ++n[mode]] = $5
	w[mode, n[mode]] = $7
}
function umedian(m,   a, i, j, t) {
	for (i = 1; i <= nu; i++) a[i] = u[m, i]
	for (i = 1; i <= nu; i++) for (j = i + 1; j <= nu; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return a[int((nu + 1) / 2)]
}
function wmedian(m,   a, i, j, k, t) {
	k = n[m]
	for (i = 1; i <= k; i++) a[i] = w[m, i]
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return a[int((k + 1) / 2)]
}
function median(m,   a, i, k, t) {
	k = n[m]
	for (i = 1; i <= k; i++) a[i] = v[m, i]
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return a[int((k + 1) / 2)]
}
END {
	fp = median("fp")
	printf "\n%-34s %10s %8s\n", "walk (33-34 frames)", "ns/frame", "vs fp"
	printf "%-34s %10.1f %7.1fx\n", "frame pointers (fp build)", fp, 1
	printf "%-34s %10.1f %7.1fx\n", "CFI, cache cold (no-fp build)", median("cfi-cold"), median("cfi-cold") / fp
	printf "%-34s %10.1f %7.1fx\n", "CFI, cache warm (no-fp build)", median("cfi-warm"), median("cfi-warm") / fp
	if (n["libc-warm"]) {
		lw = wmedian("libc-warm")
		printf "\n%-34s %10s %8s\n", "walk through libc (qsort)", "ns/walk", "vs warm"
		printf "%-34s %10.0f %7.1fx\n", "tables found at this walk", wmedian("libc-discover"), wmedian("libc-discover") / lw
		printf "%-34s %10.0f %7.1fx\n", "tables known, cache cold", wmedian("libc-cold"), wmedian("libc-cold") / lw
		printf "%-34s %10.0f %7.1fx\n", "tables known, cache warm", lw, 1
	}
	if (nu) {
		printf "\n%-34s %10s\n", "104 bytes of user memory", "ns"
		printf "%-34s %10.1f\n", "one copy_from_user()", umedian("copy")
		printf "%-34s %10.1f\n", "user_read_access_begin() window", umedian("window")
		printf "%-34s %10.1f\n", "13 get_user()", umedian("get")
	}
}' "$out"
rm -f "$out"

# What the unwinder keeps for a python3 process that nobody helped (no
# LD_AUDIT: the kernel finds its tables) when perf attaches to it while it
# runs 40 calls deep, sampled for 10 s: the frame cache's hits from the
# first second on (finding a table does not flush the cache), then its
# entries, the indexes of its tables and its frame cache, from
# /proc/PID/unwind_tables.
if command -v perf >/dev/null; then
	python3 "$(dirname "$0")/realbin/recurse.py" spin 600 40 >/dev/null &
	py=$!
	sleep 1
	perf record -q -e cpu-clock -c 1000000 --call-graph fp,defer -p "$py" \
		-o /tmp/py.data -- sleep 10 2>/dev/null &
	rec=$!
	echo
	echo "python3 (pid $py) under perf record -p for 10 s: its frame cache, each second"
	for t in 1 2 3 4 5 6 7 8 9 10; do
		sleep 1
		awk -v t="$t" '/^cache / { h = $6; m = $8
			printf "  %2d s: %d hits, %d misses (%.1f%% hits)\n", t, h, m,
			       h + m ? 100 * h / (h + m) : 0 }' "/proc/$py/unwind_tables"
	done
	wait "$rec" || true
	echo "python3 (pid $py): /proc/$py/unwind_tables after 10 s"
	sed 's/^/  /' "/proc/$py/unwind_tables"
	awk '$3 == "none" { m++ }
	     / eh_frame / { t++ }
	     / index / { for (i = 1; i < NF; i++) if ($i == "index") { n++; b += $(i + 1) } }
	     /^cache / { c = $4 }
	     END { printf "%d entries, %d markers, %d indexes of %d bytes in all; frame cache %d bytes; %d bytes per mm\n",
			   t, m, n, b, c, b + c }' "/proc/$py/unwind_tables"
	kill "$py" 2>/dev/null || true
	wait "$py" 2>/dev/null || true
fi
