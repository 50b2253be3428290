#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make bench-share): what sharing the decoded frames of
# file tables between processes (kernel.unwind_tables_share) does for
# short-lived processes and for many processes of one program; each figure
# with sharing off (every process keeps its own frames, as before) and on,
# in the same boot.
#
# 1. Short-lived processes: perf record -a --call-graph fp,defer while a
#    shell loop runs N processes of e2e_workload (32 calls deep, a little
#    work), built with frame pointers, then without; then N / 20 runs of
#    gcc -O2 -c (gcc, cc1, as: Debian's, without frame pointers).  Of the
#    user chains of processes that lived less than 100 ms
#    (PERF_RECORD_FORK to PERF_RECORD_EXIT), and of all of them: the share
#    that reaches _start.  The loop's wall time with perf and without; the
#    shared cache's counters (debugfs unwind_user/shared).
# 2. Memory: P python3 processes (recurse.py, 40 calls deep) sampled at
#    once by perf record -a for 10 s: what the kernel keeps per process
#    (/proc/PID/unwind_tables: the indexes of its tables and its frame
#    cache) and what all share (unwind_user/shared).
#
#	bench-share-guest.sh [N [ROUNDS [P]]]
set -euo pipefail
. "$(dirname "$0")/common.sh"

bin=$SELFTESTS_OUT/install/unwind_user
n=${1:-200}
rounds=${2:-3}
np=${3:-100}
share=/proc/sys/kernel/unwind_tables_share
stats=/sys/kernel/debug/unwind_user/shared
tmp=$(mktemp -d)
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
echo "kernel: $(uname -r), $(nproc) CPUs; $n processes of e2e_workload $rounds, then $np python3"

counters() {
	awk '{ v[$1] = $2 } END { printf "hits %d misses %d inserted %d refused %d",
		v["hits"], v["misses"], v["inserted"], v["refused"] }' "$stats"
}

# The loop: N processes, one after the other; its wall ns go to $out.
loop() {
	local i t0
	t0=$(date +%s%N)
	for ((i = 0; i < n; i++)); do
		"$@" > /dev/null
	done
	echo $(($(date +%s%N) - t0)) > "$out"
}

# Of the user chains of processes that lived < 100 ms (and of all the
# loop's processes): how many reach the outermost frame of a process's
# first thread: the program's _start, or ld.so's (_dl_start_user, as perf
# names the return address in it) while it starts the program.  A stripped
# executable (Debian's as and gcc) has no symbol for its _start: there it
# is the frame of the executable that called __libc_start_main.
chains() {
	perf script -i "$1" --show-task-events -F pid,time,ip,sym,dso 2>/dev/null | python3 -c '
import re, sys
born, died, samples = {}, {}, []
text = sys.stdin.read()
for m in re.finditer(r"(\d+\.\d+): PERF_RECORD_(FORK|EXIT)\((\d+):(\d+)\)", text):
    t, kind, pid = float(m.group(1)), m.group(2), int(m.group(3))
    (born if kind == "FORK" else died).setdefault(pid, t)
for block in text.split("\n\n"):
    lines = [l for l in block.strip().split("\n") if l.strip()]
    if not lines or "PERF_RECORD" in lines[0]:
        continue
    head = lines[0].split()
    try:
        pid = int(head[0])
    except (ValueError, IndexError):
        continue
    user = []
    for l in lines[1:]:
        f = l.split()
        if len(f) >= 3 and "kernel.kallsyms" not in f[-1]:
            user.append((f[1], f[-1]))
    if user:
        samples.append((pid, user))
short = {p for p in born if p in died and died[p] - born[p] < 0.1}
ours = {p for p in born if p in died}
life = sorted(died[p] - born[p] for p in ours)
def whole(u):
    if u[-1][0] in ("_start", "_dl_start_user"):
        return True
    return (len(u) > 1 and u[-1][0] == "[unknown]" and "/libc.so" not in u[-1][1] and
            u[-2][0].startswith("__libc_start_main"))
def tally(pids):
    n = sum(1 for p, u in samples if p in pids)
    good = sum(1 for p, u in samples if p in pids and whole(u))
    return "%d of %d (%.1f%%)" % (good, n, 100.0 * good / n if n else 0)
print("%d processes (median life %.0f ms), %d under 100 ms; user chains reaching _start: under 100 ms %s, all %s" %
      (len(ours), 1e3 * life[len(life) // 2] if life else 0, len(short), tally(short), tally(ours)))
ends = {}
for p, u in samples:
    if p in ours and not whole(u):
        k = "%s (%s)" % (u[-1][0], u[-1][1].split("/")[-1].strip("()"))
        ends[k] = ends.get(k, 0) + 1
top = sorted(ends.items(), key=lambda x: -x[1])[:4]
print("  not whole, by outermost frame: " + (", ".join("%d %s" % (n, k) for k, n in top) or "none"))
'
}

# Wall ns of the loop over "$@", under perf record -a if $rec is set.
timed() {
	out=$tmp/ns
	if [ -n "$rec" ]; then
		perf record -q -a -e cpu-clock -c 1000000 --call-graph fp,defer \
			-o "$tmp/perf.data" -- bash -c "$(declare -f loop); n=$n out=$out loop $*" 2>/dev/null
	else
		loop "$@"
	fi
	cat "$out"
}

src=$(cd "$(dirname "$0")/.." && pwd)/tools/testing/selftests/unwind_user/e2e_workload.c
gcc -O2 -c -o "$tmp/w.o" "$src"		# the files in the page cache
res=$tmp/res
for round in 1 2 3; do
	for w in e2e_workload-fp e2e_workload gcc; do
		for s in 0 1; do
			[ $w = e2e_workload-fp ] && [ $s = 0 ] && continue
			echo "$s" > "$share"
			if [ $w = gcc ]; then
				cmd=(gcc -O2 -c -o "$tmp/w.o" "$src")
				n_saved=$n
				n=$(( n / 20 > 0 ? n / 20 : 1 ))
			else
				cmd=("$bin/$w" "$rounds")
			fi
			plain=$(rec= timed "${cmd[@]}")
			before=$(counters)
			profiled=$(rec=1 timed "${cmd[@]}")
			after=$(counters)
			echo "round $round: $w x $n, share $s: loop $((plain / 1000000)) ms, under perf $((profiled / 1000000)) ms"
			echo "  $(chains "$tmp/perf.data")"
			echo "  shared cache before: $before"
			echo "  shared cache after:  $after"
			echo "$w-$s $plain $profiled" >> "$res"
			[ $w = gcc ] && n=$n_saved
		done
	done
done
echo
python3 - "$res" <<'PY'
import sys, statistics as st
rows = {}
for line in open(sys.argv[1]):
    k, a, b = line.split()
    rows.setdefault(k, []).append((int(a), int(b)))
print("%-22s %10s %10s %9s" % ("loop (medians of 3)", "plain ms", "perf ms", "overhead"))
for k, v in rows.items():
    a = st.median(x for x, _ in v) / 1e6
    b = st.median(y for _, y in v) / 1e6
    print("%-22s %10.0f %10.0f %8.1f%%" % (k.replace("-0", ", share 0").replace("-1", ", share 1"),
                                         a, b, 100 * (b / a - 1)))
PY

# Memory: np python3 processes at once, sampled for 10 s.
for s in 0 1; do
	echo "$s" > "$share"
	pids=()
	for ((i = 0; i < np; i++)); do
		python3 "$(dirname "$0")/realbin/recurse.py" spin 600 40 > /dev/null &
		pids+=($!)
	done
	sleep 5
	perf record -q -a -e cpu-clock -c 1000000 --call-graph fp,defer \
		-o "$tmp/py.data" -- sleep 10 2>/dev/null
	for p in "${pids[@]}"; do
		cat "/proc/$p/unwind_tables" 2>/dev/null || true
		echo "== end"
	done | awk -v np="$np" -v s="$s" '
		/ index / { for (i = 1; i < NF; i++) if ($i == "index") idx += $(i + 1) }
		/ shared$/ { sh++ }
		/ eh_frame / { t++ }
		/^cache / { c += $4; caches++ }
		/^== end/ { procs++ }
		END { printf "python3 x %d, share %d: %d entries (%d shared), indexes %d bytes, %d frame caches %d bytes; per process %.0f bytes\n",
			      procs, s, t, sh, idx, caches, c, procs ? (idx + c) / procs : 0 }'
	echo "  shared cache: $(awk '/^bytes/ { print $2 " bytes" }' "$stats"), $(counters)"
	kill "${pids[@]}" 2>/dev/null || true
	wait 2>/dev/null || true
done
rm -rf "$tmp"
