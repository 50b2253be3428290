#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make bench-e2e): what sampling costs a program end to
# end.  The workload (e2e_workload.c: a fixed amount of work 32 calls deep)
# runs without perf and under `perf record -e cpu-clock:u --call-graph
# fp,defer` at a high rate, built with frame pointers (walked with them)
# and without (walked with .eh_frame), in the same boot; five rounds,
# interleaved; medians.  The slowdown is the workload's own wall-clock time
# under perf against without; the figure that compares the unwinders is
# the ratio of the two slowdowns' overheads.
set -euo pipefail
. "$(dirname "$0")/common.sh"

bin=$SELFTESTS_OUT/install/unwind_user
rounds=${1:-2000}
period=${2:-100000}	# ns of cpu-clock between samples: 10 kHz
tmp=$(mktemp -d)
out=$tmp/out
echo "kernel: $(uname -r), $(nproc) CPUs; $rounds rounds, a sample every $period ns of CPU"

for run in 1 2 3 4 5; do
	for prog in e2e_workload-fp e2e_workload; do
		line=$("$bin/$prog" "$rounds")
		echo "$prog plain $line" | tee -a "$out"
		perf record -q -e cpu-clock:u -c "$period" --call-graph fp,defer \
			-o "$tmp/perf.data" -- "$bin/$prog" "$rounds" > "$tmp/line" 2>/dev/null
		# Samples in work(), and those whose chain reaches main.
		perf script -i "$tmp/perf.data" -F ip,sym 2>/dev/null |
			awk -v RS= '$2 == "work" { n++; if ($0 ~ / main(\n|$)/) m++ }
				    END { printf "samples %d complete %d\n", n, m }' > "$tmp/chains"
		echo "$prog perf $(cat "$tmp/line") $(cat "$tmp/chains")" | tee -a "$out"
	done
done

awk '
{
	# PROG MODE e2e: rounds R wall_ns W cpu_ns C [samples S complete M]
	for (i = 4; i < NF; i += 2) v[$1, $2, $i, ++n[$1, $2, $i]] = $(i + 1)
}
function median(p, m, f,   a, i, j, k, t) {
	k = n[p, m, f]
	for (i = 1; i <= k; i++) a[i] = v[p, m, f, i]
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return a[int((k + 1) / 2)]
}
END {
	fp0 = median("e2e_workload-fp", "plain", "wall_ns")
	fp1 = median("e2e_workload-fp", "perf", "wall_ns")
	cf0 = median("e2e_workload", "plain", "wall_ns")
	cf1 = median("e2e_workload", "perf", "wall_ns")
	fps = median("e2e_workload-fp", "perf", "samples")
	cfs = median("e2e_workload", "perf", "samples")
	printf "\n%-36s %9s %9s %9s %8s %12s\n", "workload (medians of 5)", "plain ms", "perf ms",
	       "slowdown", "samples", "us/sample"
	printf "%-36s %9.1f %9.1f %8.3fx %8d %12.1f\n", "frame pointers (fp build, FP walk)",
	       fp0 / 1e6, fp1 / 1e6, fp1 / fp0, fps, fps ? (fp1 - fp0) / fps / 1e3 : 0
	printf "%-36s %9.1f %9.1f %8.3fx %8d %12.1f\n", "no frame pointers (CFI walk)",
	       cf0 / 1e6, cf1 / 1e6, cf1 / cf0, cfs, cfs ? (cf1 - cf0) / cfs / 1e3 : 0
	printf "complete chains: fp %d of %d, cfi %d of %d (medians)\n",
	       median("e2e_workload-fp", "perf", "complete"), median("e2e_workload-fp", "perf", "samples"),
	       median("e2e_workload", "perf", "complete"), median("e2e_workload", "perf", "samples")
	if (fp1 > fp0)
		printf "overhead of CFI sampling / overhead of FP sampling: %.2f\n",
		       (cf1 / cf0 - 1) / (fp1 / fp0 - 1)
}' "$out"
rm -rf "$tmp"
