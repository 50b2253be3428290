#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make realbin): the unwinder on real Debian binaries,
# with gdb as the truth.
#
#  1. Debian's python3 (built without frame pointers) recursing 40 levels,
#     the innermost spinning in Python code; perf record -e cpu-clock:u
#     --call-graph fp,defer with and without the LD_AUDIT helper: how many
#     samples reach main and _start, and where the others stop.
#  2. The same for harness/realbin/throw_deep.cc (-O2 -fomit-frame-pointer):
#     a C++ exception thrown through 100 levels, in a loop.
#  3. For each, with and without the LD_AUDIT helper, a uprobe (libc's
#     getpid() called by os.getpid() at the bottom of the recursion;
#     libstdc++'s __cxa_throw) against gdb stopped at the same
#     instruction, both with ASLR off and the same argv, environment and
#     cwd, so the return addresses compare as they are.
#
# Each case ends with a verdict (harness/realbin/realbin.py): a profile
# passes when enough of its chains reach main and end at an entry point, a
# uprobe when its chain equals gdb's backtrace, every frame, down to gdb's
# outermost.  The last lines are the summary, one line per case (details
# indented), the verdicts and "N passed, N failed"; the exit status is
# non-zero if a case failed.
set -euo pipefail
. "$(dirname "$0")/common.sh"

audit=$SELFTESTS_OUT/install/unwind_user/unwind_user_audit.so
src=$HARNESS/realbin
tmp=$(mktemp -d)
summary=$tmp/summary
events=/sys/kernel/tracing/uprobe_events
cleanup() {
	local e

	for e in $(sed -n 's/^p:realbin\/\([^ ]*\) .*/\1/p' $events 2>/dev/null); do
		echo "-:realbin/$e" >> $events
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
# Every run starts in the same directory.
cd "$tmp"

helper() { python3 "$src/realbin.py" "$@"; }
lib_of() {	# PROGRAM SONAME
	readlink -f "$(ldd "$1" | awk -v l="$2" '$1 == l { print $3 }')"
}

python=$(readlink -f /usr/bin/python3)
libc=$(lib_of "$python" libc.so.6)
# Built on the host by realbin.sh; built here if it is missing.
throw_deep=$CACHE/build/realbin/throw_deep
if [ ! -x "$throw_deep" ]; then
	throw_deep=$tmp/throw_deep
	g++ -O2 -fomit-frame-pointer -o "$throw_deep" "$src/throw_deep.cc"
fi
libstdcxx=$(lib_of "$throw_deep" libstdc++.so.6)
[ -f "$audit" ] || die "no $audit: run harness/selftests.sh"

# The chains are deeper than perf's default limit of 127 frames.
sysctl -q -w kernel.perf_event_max_stack=1024

script() {	# PERF_DATA
	perf script -i "$1" -F comm,pid,tid,event,ip,sym,dso,dsoff \
		--no-inline --no-demangle --max-stack 1024 2>/dev/null
}

profile() {	# LABEL COMMS MAIN START_RANGE PROGRAM ARGS...
	local label=$1 comms=$2 main=$3 start=$4
	shift 4
	echo
	echo "=== $label"
	echo "\$ perf record -e cpu-clock:u -c 1000000 --call-graph fp,defer -- $*"
	perf record -q -e cpu-clock:u -c 1000000 --call-graph fp,defer \
		-o "$tmp/perf.data" -- "$@" 2>"$tmp/record.err" ||
		{ cat "$tmp/record.err"; die "perf record failed"; }
	script "$tmp/perf.data" > "$tmp/script.txt"
	helper chains "$label" "$tmp/script.txt" "$comms" --main "$main" \
		${start:+--start "$start"} | tee -a "$summary"
}

# The kernel's chain at a uprobe on FUNC in LIB against gdb's backtrace at a
# breakpoint there: both at the first call from the program's executable
# (EXE), with ASLR off and the same argv, environment and cwd.
truth() {	# LABEL LIB FUNC COMMS EXE PROGRAM ARGS...
	local label=$1 lib=$2 func=$3 comms=$4 exe=$5 off
	shift 5
	off=$(helper offset "$lib" "$func")
	echo
	echo "=== $label: a uprobe at $func ($lib+$off) against gdb, ASLR off"
	echo "p:realbin/$func $lib:$off" >> $events
	echo "\$ setarch -R perf record -e realbin:$func --call-graph fp,defer -- $*"
	setarch -R perf record -q -e "realbin:$func" --call-graph fp,defer \
		-o "$tmp/probe.data" -- "$@" 2>"$tmp/record.err" ||
		{ cat "$tmp/record.err"; die "perf record failed"; }
	echo "-:realbin/$func" >> $events
	script "$tmp/probe.data" > "$tmp/probe.txt"
	echo "\$ gdb -batch -ex 'break $func if called from $exe' -ex run -ex 'print frames' --args $*"
	gdb -nx -batch -ex 'set debuginfod enabled off' -ex 'set confirm off' \
		-ex 'set startup-with-shell off' -ex 'set disable-randomization on' \
		-ex 'set backtrace past-main on' -ex 'set backtrace limit 0' \
		-ex 'set breakpoint pending on' -x "$src/gdb_frames.py" \
		-ex "python stop_at('$func')" -ex run -ex 'python print_frames()' \
		-ex kill --args "$@" > "$tmp/gdb.txt" 2>&1 || true
	grep -q '^GDBFRAME' "$tmp/gdb.txt" || tail -n 20 "$tmp/gdb.txt"
	helper compare "$label" "$tmp/gdb.txt" "$tmp/probe.txt" "$comms" "$exe" |
		tee -a "$summary"
	# Both walks side by side, where they part marked with "<>".
	helper compare --table "$label" "$tmp/gdb.txt" "$tmp/probe.txt" "$comms" "$exe"
}

echo "kernel: $(uname -r)"
echo "python: $python ($($python --version)), libc: $libc, libstdc++: $libstdcxx"
pystart=$(helper start-range "$python")

profile "python3 LD_AUDIT" python3 Py_BytesMain "$pystart" \
	env LD_AUDIT="$audit" python3 "$src/recurse.py" spin 3 40
profile "python3 no-audit" python3 Py_BytesMain "$pystart" \
	python3 "$src/recurse.py" spin 3 40
profile "throw_deep LD_AUDIT" throw_deep main "" \
	env LD_AUDIT="$audit" "$throw_deep" 3 100
profile "throw_deep no-audit" throw_deep main "" \
	"$throw_deep" 3 100

truth "gdb python3 getpid LD_AUDIT" "$libc" getpid "$(basename "$python")" "$python" \
	env -i PATH=/usr/bin:/bin LD_AUDIT="$audit" "$python" "$src/recurse.py" getpid 0 40
truth "gdb python3 getpid no-audit" "$libc" getpid "$(basename "$python")" "$python" \
	env -i PATH=/usr/bin:/bin "$python" "$src/recurse.py" getpid 0 40
truth "gdb throw_deep __cxa_throw LD_AUDIT" "$libstdcxx" __cxa_throw throw_deep "$throw_deep" \
	env -i PATH=/usr/bin:/bin LD_AUDIT="$audit" "$throw_deep" 0 100
truth "gdb throw_deep __cxa_throw no-audit" "$libstdcxx" __cxa_throw throw_deep "$throw_deep" \
	env -i PATH=/usr/bin:/bin "$throw_deep" 0 100

echo
echo "=== summary (python3's main is a tail call to Py_BytesMain: that is the frame counted)"
grep -v '^verdict: ' "$summary"
echo
grep '^verdict: ' "$summary"
pass=$(grep -c '^verdict: PASS' "$summary" || true)
fail=$(grep -c '^verdict: FAIL' "$summary" || true)
echo "realbin: $pass passed, $fail failed"
# Eight cases: four profiles, four comparisons with gdb.
[ "$fail" -eq 0 ] && [ "$pass" -eq 8 ]
