#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-debug: the kselftests, a longer stress test and prctl fuzzer,
# and allocation-failure injection, on a kernel with KASAN, UBSAN, KFENCE,
# lockdep (PROVE_LOCKING, PROVE_RCU), DEBUG_ATOMIC_SLEEP, DEBUG_VM(_MAPLE_TREE),
# kmemleak and fault injection (harness/x86_64-debug.config).  Any splat on
# the guest's console, from the first line of the boot, fails the run, and
# so do a leak, lockdep off or a taint flag at the end; a boot of its own
# shows that kmemleak finds leaks.  Ends with "N passed, N failed".
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
# The console scan on made-up lines of each kind it must catch.
step scan-selftest "$HARNESS/selftest.sh" scan

# KASAN reports every bug it finds, not the first one only.
export VM_APPEND=kasan_multi_shot
if [ $ok = 1 ]; then
	# kmemleak at work: a boot that loads the kernel's sample module that
	# leaks on purpose; kmemleak must report the leaks, on the console
	# too.
	start=$(date +%s)
	ko=$CACHE/build/$UU_ARCH-debug$KSUF/samples/kmemleak/kmemleak-test.ko
	KVARIANT=debug VM_CONSOLE_DIR=$logs/consoles-kmemleak "$HARNESS/vm.sh" -t 1800 \
		"$HARNESS/check-debug-guest.sh" --kmemleak-selftest "$ko" \
		> "$logs/kmemleak-selftest.log" 2>&1
	rc=$?
	"$HARNESS/tap.py" debug < "$logs/kmemleak-selftest.log" |
	while IFS=$'\t' read -r v name detail; do
		record "$v" "$name" "$detail"
	done
	[ $rc -eq 0 ] ||
		record FAIL debug/kmemleak_selftest_guest "exit $rc, $logs/kmemleak-selftest.log"
	step kmemleak-selftest-console "$HARNESS/splat-scan.py" \
		--want 'kmemleak: [0-9]+ new suspected memory leaks' \
		"$logs/consoles-kmemleak"/*.log
	log "kmemleak self-test took $(($(date +%s) - start)) s"

	start=$(date +%s)
	KVARIANT=debug VM_CONSOLE_DIR=$logs/consoles "$HARNESS/vm.sh" -t 5400 \
		"$HARNESS/check-debug-guest.sh" "$SELFTESTS_OUT/install" \
		> "$logs/guest.log" 2>&1
	rc=$?
	# The kselftests by name, then the run's own five lines.
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
	# Every splat of that boot, the boot itself included.
	step console-scan "$HARNESS/splat-scan.py" "$logs/consoles"/*.log
fi

pass=$(grep -c '^PASS' "$results")
fail=$(grep -c '^FAIL' "$results")
echo "check-debug took $(($(date +%s) - t0)) s; logs in $logs"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
