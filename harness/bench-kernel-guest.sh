#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make bench-kernel): the kernel's own user stack walk,
# timed by /sys/kernel/debug/unwind_user/bench (CONFIG_UNWIND_USER_BENCH)
# through tools/testing/selftests/unwind_user/walk_bench.c: a frame-pointer
# walk of the frame-pointer build, and a CFI walk of the build without frame
# pointers, 32 functions deep, in the same boot: cold, as the first walk of
# a new process whose files another process's walks went through ("known"),
# and warm; each with the decoded frames of file tables kept per process
# (kernel.unwind_tables_share=0) and shared.  Also the walk through code of
# the program's own JIT (walk_bench jit: frame-pointer functions in
# anonymous memory without a table, called through assembly without an
# FDE), cold and warm, next to the frame-pointer walk of the same stack,
# with the growth of debugfs unwind_user/registry's counters over each run
# (if the kernel has them).  Three rounds, alternating, then the medians and
# their ratios to the FP walk.
set -euo pipefail
. "$(dirname "$0")/common.sh"

bin=$SELFTESTS_OUT/install/unwind_user
walks=${1:-20000}
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
echo "kernel: $(uname -r), $(nproc) CPUs, $walks walks per run"
share=/proc/sys/kernel/unwind_tables_share
# The walks of a task may take a bounded share of its CPU time; the bench's
# walks are nearly all of its time, and the kernel would cut them short:
# no bound for the run, where the kernel has one (the guest is thrown away).
cpu_max=/proc/sys/kernel/unwind_user_cpu_time_max_percent
[ -f "$cpu_max" ] && echo 0 > "$cpu_max"
out=$(mktemp)
for run in 1 2 3; do
	"$bin/walk_bench-fp" fp "$walks" | tee -a "$out"
	"$bin/walk_bench-fp" jit-fp "$walks" | tee -a "$out"
	# The same walks with the frames of file tables kept per process
	# (kernel.unwind_tables_share=0: as before they were shared), then
	# shared.
	for s in 0 1; do
		echo "$s" > "$share"
		sfx=$([ "$s" = 0 ] && echo own || echo shared)
		"$bin/walk_bench" cfi "$walks" "$sfx" | tee -a "$out"
		"$bin/walk_bench" jit "$walks" "$sfx" | tee -a "$out"
		# Finding the tables anew costs far more: fewer walks.
		"$bin/walk_bench" libc "$((walks / 10))" "$sfx" | tee -a "$out"
	done
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
# registry MODE: walks W searches S searches_none N none_cached C marker M
/^registry / && $4 > 0 {
	mode = $2; sub(":", "", mode)
	k = ++nr[mode]
	for (i = 5; i < NF; i += 2) r[mode, $i, k] = $(i + 1) / $4
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
function rmedian(m, c,   a, i, j, k, t) {
	k = nr[m]
	for (i = 1; i <= k; i++) a[i] = r[m, c, i]
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return a[int((k + 1) / 2)]
}
function jrow(label, m) {
	printf "%-40s %9.1f %6.1fx %9.1f %6.1fx\n", label,
	       median(m "-own"), median(m "-own") / jfp,
	       median(m "-shared"), median(m "-shared") / jfp
}
function rrow(label, m) {
	if (!nr[m]) return
	printf "%-32s %9.2f %14.2f %12.2f %7.2f\n", label, rmedian(m, "searches"),
	       rmedian(m, "searches_none"), rmedian(m, "none_cached"), rmedian(m, "marker")
}
function row(label, m) {
	printf "%-40s %9.1f %6.1fx %9.1f %6.1fx\n", label,
	       median(m "-own"), median(m "-own") / fp,
	       median(m "-shared"), median(m "-shared") / fp
}
function wrow(label, m) {
	printf "%-40s %9.0f %6.1fx %9.0f %6.1fx\n", label,
	       wmedian(m "-own"), wmedian(m "-own") / lw,
	       wmedian(m "-shared"), wmedian(m "-shared") / lw
}
END {
	fp = median("fp")
	printf "\n%-40s %9s %7s %9s %7s\n", "walk (33-34 frames), ns/frame", "per mm", "vs fp",
	       "shared", "vs fp"
	printf "%-40s %9.1f %6.1fx\n", "frame pointers (fp build)", fp, 1
	row("CFI, all caches cold (no-fp build)", "cfi-cold")
	row("CFI, new process of a known binary", "cfi-known")
	row("CFI, cache warm", "cfi-warm")
	if (n["jit-cold-own"]) {
		jfp = median("jit-fp")
		printf "\n%-40s %9s %7s %9s %7s\n", "walk through JIT code (33-34), ns/frame",
		       "per mm", "vs fp", "shared", "vs fp"
		printf "%-40s %9.1f %6.1fx   (%.2fx the fp walk above)\n",
		       "frame pointers, same stack (fp build)", jfp, 1, jfp / fp
		jrow("JIT path, all caches cold (no-fp build)", "jit-cold")
		jrow("JIT path, cache warm", "jit-warm")
		if (nr["jit-warm-own"]) {
			printf "\n%-32s %9s %14s %12s %7s\n", "unwind_user/registry, per walk",
			       "searches", "searches_none", "none_cached", "marker"
			rrow("frame pointers, same stack", "jit-fp")
			rrow("JIT path, cold, per mm", "jit-cold-own")
			rrow("JIT path, cold, shared", "jit-cold-shared")
			rrow("JIT path, warm, per mm", "jit-warm-own")
			rrow("JIT path, warm, shared", "jit-warm-shared")
		} else {
			print "(no unwind_user/registry counters in this kernel)"
		}
	}
	if (n["libc-warm-own"]) {
		lw = wmedian("libc-warm-own")
		printf "\n%-40s %9s %7s %9s %7s\n", "walk through libc (qsort), ns/walk",
		       "per mm", "vs warm", "shared", "vs warm"
		wrow("first process: tables found, decoded", "libc-discover")
		wrow("new process of known files", "libc-known")
		wrow("tables known, caches cold", "libc-cold")
		wrow("tables known, cache warm", "libc-warm")
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
	echo "python3 (pid $py) under perf record -p for 10 s: its own frame cache and the"
	echo "shared one (all processes: nothing else runs), hits and misses so far, each second"
	for t in 1 2 3 4 5 6 7 8 9 10; do
		sleep 1
		{ cat "/proc/$py/unwind_tables"; sed 's/^/shared /' /sys/kernel/debug/unwind_user/shared; } |
		awk -v t="$t" '/^cache / { h = $6; m = $8 }
			/^shared hits/ { sh = $3 } /^shared misses/ { sm = $3 }
			END { printf "  %2d s: own %d hits, %d misses; shared %d hits, %d misses (%.1f%% hits in all)\n",
				     t, h, m, sh, sm, h + m + sh + sm ? 100 * (h + sh) / (h + m + sh + sm) : 0 }'
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
