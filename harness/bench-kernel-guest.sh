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
done
awk '
/^walk_bench / {
	mode = $2; sub(":", "", mode)
	v[mode, ++n[mode]] = $5
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
}' "$out"
rm -f "$out"
