#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End to end with the perf tool: `perf record --call-graph fp,defer`, then
# `perf script` to print the callchains.
#   - workload-fp and workload-nofp (no frame pointers: the kernel finds the
#     program's table), run by perf: every sample that lands in d must read
#     d, c, b, a, main;
#   - dso_workload qsort (no frame pointers, no LD_AUDIT helper), started
#     first and then profiled with `perf record -p PID` and with
#     `perf record -a`: every sample in cmp must read cmp, libc's frames
#     (one or more), a, main;
#   - the control: workload-nofp again with kernel.unwind_tables_discover=0:
#     no sample in d may read d, c, b, a, main (else the checks above could
#     pass without the tables).
# There must be enough samples each time.  Uses the perf found in $PERF,
# else in $PATH.
set -u
ksft_skip=4
dir=$(dirname "$(readlink -f "$0")")
perf=${PERF:-$(command -v perf || true)}
if [ -z "$perf" ] || ! "$perf" version >/dev/null 2>&1; then
	echo "SKIP: no perf tool (set PERF=)"
	exit $ksft_skip
fi

tmp=$(mktemp -d)
bg=
cleanup() {
	[ -n "$bg" ] && kill "$bg" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

record() {	# NAME PERF-RECORD-ARGS...
	local name=$1

	shift
	if ! "$perf" record -q -e cpu-clock:u -c 1000000 --call-graph fp,defer \
			-o "$tmp/perf.data" "$@" 2>"$tmp/record.err"; then
		echo "FAIL: perf record $name"
		cat "$tmp/record.err"
		return 1
	fi
}

# perf script prints a header line per sample ("comm pid"), one line per
# frame ("ip sym (dso)"), and a blank line between samples.  Samples of
# PID only (all if empty); every one whose first frame is LEAF must read
# CHAIN, where "<libc>" stands for one or more frames in libc (with
# NONE=1: none may).
check_script() {	# NAME PID MIN LEAF CHAIN...
	local name=$1 pid=$2 min=$3

	shift 3
	"$perf" script --no-demangle --no-inline -i "$tmp/perf.data" \
		-F comm,pid,ip,sym,dso 2>"$tmp/script.err" >"$tmp/script.txt"
	awk -v name="$name" -v pid="$pid" -v min="$min" -v want="$*" -v none="${NONE:-0}" '
		function file(dso) {
			gsub(/^\(|\)$/, "", dso)
			sub(/.*\//, "", dso)
			return dso
		}
		# Does the chain f[1..n] read the words of want?
		function good(   w, nw, i, j) {
			nw = split(want, w, " ")
			i = 1
			for (j = 1; j <= nw; j++) {
				if (i > n)
					return 0
				if (w[j] == "<libc>") {
					if (d[i] !~ /^libc[.-]/)
						return 0
					while (i <= n && d[i] ~ /^libc[.-]/)
						i++
					continue
				}
				if (f[i] != w[j] || d[i] ~ /^libc[.-]/)
					return 0
				i++
			}
			return 1
		}
		function done_sample(   k, s) {
			if (n && mine && f[1] == leaf) {
				in_leaf++
				if (good())
					ok++
				else if (!none && bad++ < 3) {
					s = ""
					for (k = 1; k <= n && k <= 12; k++)
						s = s " " f[k] "[" d[k] "]"
					printf("%s: bad chain:%s\n", name, s)
				}
			}
			n = 0
		}
		BEGIN { split(want, w0, " "); leaf = w0[1] }
		/^$/ { done_sample(); next }
		/^[[:space:]]+[0-9a-f]+ / {
			n++; f[n] = $2; d[n] = file($NF); next
		}
		{ done_sample(); mine = pid == "" || $2 == pid }
		END {
			done_sample()
			printf("%s: %d samples in %s, %d with %s\n", name, in_leaf, leaf, ok, want)
			if (none)
				exit !(in_leaf >= min && ok == 0)
			exit !(in_leaf >= min && ok == in_leaf)
		}' "$tmp/script.txt"
}

check() {	# PROG MIN: perf runs PROG
	record "$1" -- "$dir/$1" spin 1000 &&
		check_script "$1" "" "$2" d c b a main
}

# Profile the qsort program while it runs: perf record -p PID or -a.
check_running() {	# NAME MIN PERF-RECORD-ARGS...
	local name=$1 min=$2 ret

	shift 2
	"$dir/dso_workload" qsort 60000 &
	bg=$!
	# Into its sort, past the loader and libc's start.
	sleep 0.2
	record "$name" "${@//PID/$bg}" -- sleep 1
	ret=$?
	kill "$bg"
	wait "$bg" 2>/dev/null
	[ $ret -eq 0 ] && check_script "$name" "$bg" "$min" cmp "<libc>" a main
	ret=$?
	bg=
	return $ret
}

# The control: discovery off, no table for the no-FP program.
control() {
	local sysctl=/proc/sys/kernel/unwind_tables_discover old ret

	old=$(cat "$sysctl") && echo 0 > "$sysctl" || {
		echo "FAIL: cannot turn $sysctl off"
		return 1
	}
	record "workload-nofp, discovery off" -- "$dir/workload-nofp" spin 1000 &&
		NONE=1 check_script "workload-nofp, discovery off" "" 30 d c b a main
	ret=$?
	echo "$old" > "$sysctl"
	return $ret
}

rc=0
check workload-fp 30 || rc=1
check workload-nofp 30 || rc=1
check_running "dso_workload (perf record -p)" 30 -p PID || rc=1
check_running "dso_workload (perf record -a)" 30 -a || rc=1
control || rc=1
exit $rc
