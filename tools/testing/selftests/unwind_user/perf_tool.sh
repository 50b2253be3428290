#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End to end with the perf tool: `perf record --call-graph fp,defer` on the
# frame-pointer workload, `perf script` to print the callchains.  Every
# sample that lands in d must read d, c, b, a, main, and there must be
# enough of them.  Uses the perf found in $PERF, else in $PATH.
set -u
ksft_skip=4
dir=$(dirname "$(readlink -f "$0")")
perf=${PERF:-$(command -v perf || true)}
if [ -z "$perf" ] || ! "$perf" version >/dev/null 2>&1; then
	echo "SKIP: no perf tool (set PERF=)"
	exit $ksft_skip
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() {
	local prog=$1 min=$2

	if ! "$perf" record -q -e cpu-clock:u -c 1000000 --call-graph fp,defer \
			-o "$tmp/perf.data" -- "$dir/$prog" spin 500 2>"$tmp/record.err"; then
		echo "FAIL: perf record on $prog"
		cat "$tmp/record.err"
		return 1
	fi
	"$perf" script --no-demangle -i "$tmp/perf.data" -F comm,ip,sym \
		2>"$tmp/script.err" >"$tmp/script.txt"
	# perf script prints a header line per sample, one line per frame
	# ("ip sym"), and a blank line between samples.
	awk -v prog="$prog" -v min="$min" '
		function done_sample() {
			if (n && f[1] == "d") {
				in_d++
				if (f[1] " " f[2] " " f[3] " " f[4] " " f[5] == "d c b a main")
					good++
				else if (bad++ < 3)
					printf("bad chain: %s %s %s %s %s\n",
					       f[1], f[2], f[3], f[4], f[5])
			}
			n = 0
		}
		/^$/ { done_sample(); next }
		/^[[:space:]]+[0-9a-f]+ / {
			n++; sym = $2; sub(/\+0x[0-9a-f]+$/, "", sym); f[n] = sym; next
		}
		{ done_sample() }
		END {
			done_sample()
			printf("%s: %d samples in d, %d with d c b a main\n", prog, in_d, good)
			exit !(in_d >= min && good == in_d)
		}' "$tmp/script.txt"
}

check workload-fp 30
