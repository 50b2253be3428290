#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The other JIT runtime of this machine kind, profiled with the perf tool:
# OpenJDK's HotSpot running JitHot (a hot leaf under a 20-deep recursion,
# compiled by C1 and C2), `perf record -e cpu-clock -c 100000 --call-graph
# fp,defer` at 10 kHz, launched by perf.  With -XX:+PreserveFramePointer
# (what Java profiling guides ask for) the chains of the samples whose leaf
# is JIT code (anonymous memory) must reach the thread's start, at least
# 95% of them: the launcher runs main() in a thread of its own, which
# libc's start_thread (clone3) starts.  With the default flags the same is
# printed, not required: C2's code keeps no frame pointer and has no
# unwind table anywhere, so chains from it break by design (how many
# depends on how much of the run C2 compiled).  As in node_jit.sh, the
# bound on the walks' share of the task's CPU is lifted: under emulation a
# walk through the JVM takes more than a quarter of the sample period.
# Prints TAP; uses the perf found in $PERF, else in $PATH, java from $PATH
# and JitHot.class next to this script (built with javac).
set -u
ksft_skip=4
here=$(dirname "$0")
perf=${PERF:-$(command -v perf || true)}
java=$(command -v java || true)
if [ -z "$perf" ] || ! "$perf" version >/dev/null 2>&1 || [ -z "$java" ]; then
	echo "1..0 # SKIP: no perf tool (set PERF=) or no java"
	exit $ksft_skip
fi
. "$here/jit_lib.sh"

tmp=$(mktemp -d)
cpu_max=/proc/sys/kernel/unwind_user_cpu_time_max_percent
was=$(cat "$cpu_max")
trap 'echo "$was" > "$cpu_max"; rm -rf "$tmp"' EXIT

echo "TAP version 13"
echo "1..1"
if [ ! -f "$here/JitHot.class" ]; then
	# java is there, the program is not: a build without javac.
	echo "not ok 1 - no $here/JitHot.class"
	exit 1
fi
echo 100 > "$cpu_max"
for flags in "" "-XX:+PreserveFramePointer"; do
	"$perf" record -q -e cpu-clock -c 100000 --call-graph fp,defer -o "$tmp/defer.data" \
		-- "$java" -Xmx256m $flags -cp "$here" JitHot 4000 > "$tmp/out" 2>&1
	read -r jit whole <<< "$(jit_chains "$perf" "$tmp/defer.data" \
		"start_thread|clone3|clone|_start|__libc_start_call_main")"
	what="java ${flags:-(default flags)}, 10 kHz, launched, no bound"
	echo "# $what: $(cat "$tmp/out");" \
	     "$jit samples with a JIT leaf, $whole reach the thread's start"
done
# The last run's: -XX:+PreserveFramePointer.
if [ "$jit" -ge 50 ] && [ $((whole * 100)) -ge $((jit * 95)) ]; then
	echo "ok 1 - $what: JIT-leaf chains reach the thread's start ($whole of $jit)"
else
	echo "not ok 1 - $what: JIT-leaf chains reach the thread's start ($whole of $jit)"
	exit 1
fi
