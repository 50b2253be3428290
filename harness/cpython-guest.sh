#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make cpython): Python's perf support (-X perf, which
# writes /tmp/perf-PID.map, and -X perf_jit, which writes a jitdump) on a
# Python built without frame pointers, with and without the patch of
# patches/cpython/ that registers the trampolines' unwind table.
#
#   cpython-guest.sh UNPATCHED PATCHED
#	the two builds' python binaries (harness/cpython.sh)
#
# For each build and mode (perf support off, -X perf, -X perf_jit): perf
# record -e cpu-clock -c 1000000 --call-graph fp,defer of a hot loop under a
# 20-deep Python recursion for 4 s, then perf script.  A sample "runs Python" when _PyEval_EvalFrameDefault is in
# its chain; it is whole when the chain reaches Py_BytesMain.  The program
# lists its own registrations (/proc/self/unwind_tables, origin prctl) at
# its end.
#
# Fails when a patched run's share of whole chains is below MIN_PCT
# (default 95), when a run with perf support registered nothing and the
# patch is in or registered something and it is not (or perf support is
# off); and when the unpatched -X perf run gets MIN_PCT too (the control:
# without the table the chains must break, or this test shows nothing).
set -euo pipefail
. "$(dirname "$0")/common.sh"

unpatched=$1
patched=$2
min_pct=${MIN_PCT:-95}
perf=$CACHE/build/perf/perf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
unset LD_AUDIT LD_PRELOAD PYTHONPATH PYTHONHOME
fail=0

cat > work.py <<'EOF'
import sys
import time


def leaf(n):
    s = 0
    for i in range(2000):
        s += (i * n) & 7
    return s


def rec(d, n):
    return rec(d - 1, n) + 1 if d else leaf(n)


end = time.monotonic() + float(sys.argv[1])
rounds = 0
while time.monotonic() < end:
    for k in range(20):
        rec(20, k)
    rounds += 1
with open('/proc/self/unwind_tables') as f:
    regs = [line.split()[0] for line in f if line.split()[1:2] == ['prctl']]
print('rounds %d registered %d %s' % (rounds, len(regs), ' '.join(regs)))
EOF

# perf script of DATA: "RUNS WHOLE", and the functions of the first whole
# chain sampled in user space.
count() {	# DATA
	"$perf" script --no-demangle --no-inline -i "$1" -F comm,ip,sym 2>/dev/null |
	awk '
		function done_sample() {
			if (py) {
				runs++
				if (main) {
					whole++
					if (!shown && user)
						shown = chain
				}
			}
			py = main = 0
			chain = ""
			head = 1
		}
		BEGIN { head = 1 }
		NF == 0 { done_sample(); next }
		head { head = 0; first = 1; next }
		{
			if (first)
				user = $1 !~ /^ffff/
			first = 0
			if ($2 == "_PyEval_EvalFrameDefault")
				py = 1
			if ($2 == "Py_BytesMain")
				main = 1
			if (length(chain) < 600)
				chain = chain " <- " $2
		}
		END {
			done_sample()
			printf "%d %d %s\n", runs, whole, substr(shown, 5)
		}'
}

run() {	# BUILD PYTHON MODE (perf, perf_jit, or plain: perf support off)
	local build=$1 py=$2 mode=$3 runs whole chain out pct what=plain
	local -a x=()

	[ "$mode" = plain ] || { x=(-X "$mode"); what="-X $mode"; }
	"$perf" record -q -e cpu-clock -c 1000000 --call-graph fp,defer \
		-o "$tmp/$build-$mode.data" -- "$py" "${x[@]}" work.py 4 \
		> "$tmp/out" 2> "$tmp/err" ||
		{ echo "# $build $what: perf record failed:"; sed 's/^/#   /' "$tmp/err"; }
	out=$(cat "$tmp/out")
	read -r runs whole chain <<< "$(count "$tmp/$build-$mode.data")"
	pct=$(( runs ? whole * 100 / runs : 0 ))
	echo "# $build, $what: $whole of $runs samples running Python reach" \
	     "Py_BytesMain ($pct%); $out"
	[ -n "$chain" ] && echo "#   e.g. $chain"
	# Perf support off registers nothing, patched or not.
	local want=0
	[ "$build" = patched ] && [ "$mode" != plain ] && want=1
	case $out in
	*"registered 0"*) [ $want = 0 ] || { echo "FAIL: $build $what registered no table"; fail=1; } ;;
	"") echo "FAIL: $build $what: the program printed nothing"; fail=1 ;;
	*) [ $want = 1 ] || { echo "FAIL: $build $what registered a table: $out"; fail=1; } ;;
	esac
	if [ "$build" = patched ] && { [ "$runs" -lt 500 ] || [ "$pct" -lt "$min_pct" ]; }; then
		echo "FAIL: patched $what: $pct% (want $min_pct% of 500 or more)"
		fail=1
	fi
	if [ "$build" = unpatched ] && [ "$mode" = perf ] && [ "$pct" -ge "$min_pct" ]; then
		echo "FAIL: unpatched -X perf reached $pct%: the test cannot tell"
		fail=1
	fi
}

echo "# kernel $(uname -r), kernel.unwind_user_cpu_time_max_percent" \
     "$(cat /proc/sys/kernel/unwind_user_cpu_time_max_percent)"
"$patched" -c 'import sys; print("#", sys.version.split()[0], sys.executable)'
for mode in plain perf perf_jit; do
	run unpatched "$unpatched" $mode
	run patched "$patched" $mode
done

# CPython's own tests of the trampolines, the patch's among them, in the
# patched build: each must run and pass (regrtest skips nothing silently,
# but a skipped test would pass; its name must come with "ok").
"$patched" -m test -v test_perf_profiler -m TestPerfTrampoline > "$tmp/regrtest" 2>&1 ||
	{ echo "FAIL: test_perf_profiler's TestPerfTrampoline"; fail=1; }
grep -E '^test_[a-z_]+ \(' "$tmp/regrtest" | sed 's/^/#   /'
grep -q '^test_unwind_table_registered .* ok$' "$tmp/regrtest" ||
	{ echo "FAIL: test_unwind_table_registered did not pass:"; tail -n 20 "$tmp/regrtest"; fail=1; }
exit $fail
