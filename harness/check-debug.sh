#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-debug: the kselftests, a longer stress test and prctl fuzzer,
# and allocation-failure injection, on a kernel with KASAN, UBSAN, KFENCE,
# lockdep (PROVE_LOCKING, PROVE_RCU), DEBUG_ATOMIC_SLEEP, DEBUG_VM(_MAPLE_TREE),
# kmemleak and fault injection (harness/x86_64-debug.config).  Any splat in
# the kernel log fails the run.  Ends with "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/common.sh"

mkdir -p "$RESULTS"
results=$RESULTS/check-debug.results
logs=$RESULTS/check-debug-logs
rm -rf "$logs"
mkdir -p "$logs"
: > "$results"
t0=$(date +%s)

record() {
	printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >> "$results"
	printf '%-5s %s%s\n' "$1" "$2" "${3:+  ($3)}"
}

step() {
	local name=$1 start=$(date +%s) rc
	shift
	"$@" > "$logs/$name.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		record PASS "$name" "$(($(date +%s) - start)) s"
	else
		record FAIL "$name" "exit $rc, $logs/$name.log"
		tail -n 25 "$logs/$name.log" | sed 's/^/    /'
	fi
	return $rc
}

ok=1
step deps "$HARNESS/deps.sh" || ok=0
[ $ok = 1 ] && { step tree "$HARNESS/tree.sh" || ok=0; }
[ $ok = 1 ] && { step kernel-debug env KVARIANT=debug "$HARNESS/kernel.sh" || ok=0; }
[ $ok = 1 ] && { step kernel "$HARNESS/kernel.sh" || ok=0; }
[ $ok = 1 ] && { step selftests-build "$HARNESS/selftests.sh" || ok=0; }

if [ $ok = 1 ]; then
	start=$(date +%s)
	KVARIANT=debug "$HARNESS/vm.sh" -t 5400 "$HARNESS/check-debug-guest.sh" \
		"$SELFTESTS_OUT/install" "$HARNESS" > "$logs/guest.log" 2>&1
	rc=$?
	# The kselftests by name, then the run's own four lines.
	sed -n 's/^# kselftest: //p' "$logs/guest.log" | "$HARNESS/tap.py" debug/kselftest |
	while IFS=$'\t' read -r v name detail; do
		record "$v" "$name" "$detail"
	done
	grep -v '^# kselftest: ' "$logs/guest.log" | "$HARNESS/tap.py" debug |
	while IFS=$'\t' read -r v name detail; do
		record "$v" "$name" "$detail"
	done
	[ $rc -eq 0 ] || record FAIL debug/guest "exit $rc, $logs/guest.log"
	log "debug guest took $(($(date +%s) - start)) s"
fi

pass=$(grep -c '^PASS' "$results")
fail=$(grep -c '^FAIL' "$results")
echo "check-debug took $(($(date +%s) - t0)) s; logs in $logs"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
