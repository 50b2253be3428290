#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make demo): `perf record --call-graph fp,defer` on the
# test workloads, then their callchains as perf prints them.
set -euo pipefail
. "$(dirname "$0")/common.sh"

bin=$SELFTESTS_OUT/install/unwind_user
tmp=$(mktemp -d)

show() {	# TITLE PROGRAM ARGS...
	local title=$1 shown
	shift
	shown="$(basename "$1") ${*:2}"
	[ "$1" = env ] && shown="env $2 $(basename "$3") ${*:4}"
	echo
	echo "=== $title"
	echo "\$ perf record -e cpu-clock:u --call-graph fp,defer -- $shown"
	perf record -q -e cpu-clock:u -c 1000000 --call-graph fp,defer \
		-o "$tmp/perf.data" -- "$@" 2>/dev/null
	# --no-demangle: perf would read the one-letter names a..d as
	# mangled C++ types (signed char, bool, char, double).
	echo "\$ perf report --stdio --no-children -G --no-demangle"
	perf report -i "$tmp/perf.data" --stdio --no-children -G --no-demangle \
		--percent-limit 20 2>/dev/null | grep -v '^#' | grep -v '^$' | head -n 24
	echo "\$ perf script -F ip,sym --no-demangle   (one sample in d)"
	perf script -i "$tmp/perf.data" -F ip,sym --no-demangle 2>/dev/null |
		awk 'BEGIN { RS = "" } $2 == "d" { print; exit }'
}

echo "kernel: $(uname -r)"
show "main -> a -> b -> c -> d, built with frame pointers" "$bin/workload-fp" spin 300
show "the same program built with -fomit-frame-pointer" "$bin/workload-nofp" spin 300

audit=$bin/unwind_user_audit.so
echo
echo "=== shared libraries: the LD_AUDIT helper registers each object ld.so loads"
echo "\$ LD_AUDIT=unwind_user_audit.so cat /proc/self/unwind_tables"
LD_AUDIT=$audit cat /proc/self/unwind_tables
show "the -fomit-frame-pointer build again, with libc registered by the LD_AUDIT helper" \
	env LD_AUDIT="$audit" "$bin/workload-nofp" spin 300
