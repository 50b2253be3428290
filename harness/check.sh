#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: build everything, boot it, run every test, and end with
# "N passed, N failed".  Exits non-zero when anything failed.
set -uo pipefail
# All architectures, whatever ARCH says: x86-64, then s390x, then arm64.
unset ARCH
. "$(dirname "$0")/common.sh"

mkdir -p "$RESULTS"
results=$RESULTS/check.results
logs=$RESULTS/check-logs
rm -rf "$logs"
mkdir -p "$logs" "$logs/s390x" "$logs/guest" "$logs/s390x/guest" "$logs/arm64" "$logs/arm64/guest"
: > "$results"
t0=$(date +%s)

record() {	# VERDICT NAME [DETAIL]
	printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >> "$results"
	printf '%-5s %s%s\n' "$1" "$2" "${3:+  ($3)}"
}

# step NAME CMD...: run CMD, log to $logs/NAME.log; PASS/FAIL on its status.
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

# tap_results NAME LOG RC [FAILNAME]: record each test of LOG's TAP
# (harness/tap.py names them under NAME), and a failure of FAILNAME (NAME)
# if the program that wrote LOG exited with RC.
tap_results() {
	"$HARNESS/tap.py" "$1" < "$2" | while IFS=$'\t' read -r v name detail; do
		record "$v" "$name" "$detail"
	done
	[ "$3" -eq 0 ] || record FAIL "${4:-$1}" "exit $3, $2"
}

# Prerequisites: without them nothing else can run.
step deps "$HARNESS/deps.sh" || { echo "0 passed, 1 failed"; exit 1; }
step tree "$HARNESS/tree.sh" || { echo "0 passed, 2 failed"; exit 1; }

# Style of everything the series adds: checkpatch --strict.
step checkpatch "$HARNESS/style.sh" checkpatch

kernel_ok=0
step kernel "$HARNESS/kernel.sh" && kernel_ok=1
# sparse (C=2) and W=1 over the C files the series adds or changes.
[ $kernel_ok = 1 ] && step sparse-w1 "$HARNESS/style.sh" sparse
step perf "$HARNESS/perf.sh"
selftests_ok=0
[ $kernel_ok = 1 ] && step selftests-build "$HARNESS/selftests.sh" && selftests_ok=1

# The unwinder's C compiled in user space: unit tests (plain and under
# ASan+UBSan), the readelf oracle, the stack-depth check, a fuzz smoke run;
# the registry over the real maple tree.
uu=$SRC/tools/testing/unwind_user
if [ -d "$uu" ]; then
	# MSVC-built images for the PE oracle and the PE fuzz seeds.
	msvc=$("$HARNESS/msvc-pe.sh" 2> "$logs/msvc-pe.log") ||
		record FAIL msvc-pe "$logs/msvc-pe.log"
	umake=(make -s -C "$uu" OUTPUT="$USER_OUT" PE_MSVC_IMAGES="${msvc//$'\n'/ }")
	if step user-build "${umake[@]}" all; then
		for t in unit unit-san pe-unit pe-unit-san; do
			"$USER_OUT/$t" > "$logs/user-$t.log" 2>&1
			tap_results "user/$t" "$logs/user-$t.log" $?
		done
		step user-oracle "${umake[@]}" run_oracle &&
			grep '^oracle:' "$logs/user-oracle.log" | sed 's/^/    /'
		step user-stack "${umake[@]}" run_stack &&
			grep -i 'stack' "$logs/user-stack.log" | tail -n 2 | sed 's/^/    /'
		step user-fuzz-smoke "${umake[@]}" fuzz_smoke &&
			tail -n 2 "$logs/user-fuzz-smoke.log" | sed 's/^/    /'
	fi
	# kernel/unwind/registry.c over the real maple tree (ASan+UBSan).
	if step user-registry-build "${umake[@]}" registry; then
		"$USER_OUT/registry-test" > "$logs/user-registry.log" 2>&1
		tap_results user/registry "$logs/user-registry.log" $?
	fi
else
	# The series adds it: a tree without it is a broken tree, not a skip.
	record FAIL user-tests "no $uu"
fi

# Unit tests of the harness itself: failures must be reported as failures.
step harness-selftest "$HARNESS/selftest.sh"

# The kselftests, in one boot of the new kernel.  Each guest's console
# (the kernel log from the first line of the boot) lands in $consoles for
# the scan below.
consoles=$logs/consoles
if [ $selftests_ok = 1 ]; then
	start=$(date +%s)
	VM_CONSOLE_DIR=$consoles/x86_64 "$HARNESS/vm.sh" -t 1200 \
		"$SELFTESTS_OUT/install/run_kselftest.sh" > "$logs/guest.log" 2>&1
	tap_results guest "$logs/guest.log" $? guest/run_kselftest
	log "guest tests took $(($(date +%s) - start)) s"
	# The PE backend under real Wine, against Wine's own unwinder.
	step guest/wine env VM_CONSOLE_DIR="$consoles/x86_64" "$HARNESS/wine.sh"
	# Wine as distributions ship it, the program registering nothing.
	step guest/wine-stock env VM_CONSOLE_DIR="$consoles/x86_64" "$HARNESS/wine-stock.sh"
	# Any splat of the kernel in those boots fails (harness/splat-scan.py
	# lists what counts, and the lines tests provoke on purpose).
	step guest/console-scan "$HARNESS/splat-scan.py" "$consoles/x86_64"/*.log
else
	record FAIL guest "not run: the kernel or the selftests did not build"
fi

# A cross-built architecture, $1 (its ARCH $2): the kernel, sparse and W=1
# over the series' objects, the harness' guest self-test, the selftests in
# its qemu-system guest, and the unwinder's C as that architecture's code
# under qemu-user (tools/testing/unwind_user's $1, run_unit_$1 and
# run_oracle_$1).  Every line is prefixed "$1/".
cross_arch() {
	local p=$1 env=(env ARCH=$2) t0 start kernel_ok=0 selftests_ok=0

	t0=$(date +%s)
	step "$p/kernel" "${env[@]}" "$HARNESS/kernel.sh" && kernel_ok=1
	[ $kernel_ok = 1 ] && step "$p/sparse-w1" "${env[@]}" "$HARNESS/style.sh" sparse
	[ $kernel_ok = 1 ] && step "$p/harness-selftest" "$HARNESS/selftest.sh" "$p"
	[ $kernel_ok = 1 ] && step "$p/selftests-build" "${env[@]}" "$HARNESS/selftests.sh" &&
		selftests_ok=1
	if [ -d "$uu" ] && step "$p/user-build" "${umake[@]}" "$p"; then
		"${umake[@]}" "run_unit_$p" > "$logs/$p-user-unit.log" 2>&1
		tap_results "$p/user/unit" "$logs/$p-user-unit.log" $?
		step "$p/user-oracle" "${umake[@]}" "run_oracle_$p" &&
			grep '^oracle:' "$logs/$p/user-oracle.log" | sed 's/^/    /'
	fi
	if [ $selftests_ok = 1 ]; then
		start=$(date +%s)
		"${env[@]}" VM_CONSOLE_DIR="$consoles/$p" "$HARNESS/vm.sh" -t 1500 \
			"$CACHE/build/selftests-$p$KSUF/install/run_kselftest.sh" \
			> "$logs/$p-guest.log" 2>&1
		tap_results "$p/guest" "$logs/$p-guest.log" $? "$p/guest/run_kselftest"
		log "$p guest tests took $(($(date +%s) - start)) s"
		step "$p/guest/console-scan" "$HARNESS/splat-scan.py" "$consoles/$p"/*.log
	else
		record FAIL "$p/guest" "not run: the $p kernel or selftests did not build"
	fi
	log "$p took $(($(date +%s) - t0)) s"
}

# s390x: big-endian, as the unwinder's C reads it under qemu-s390x too.
cross_arch s390x s390
# arm64 (-cpu max: pointer authentication).
cross_arch arm64 arm64

pass=$(grep -c '^PASS' "$results")
xfail=$(grep -c '^XFAIL' "$results")
fail=$(grep -c '^FAIL' "$results")
echo
if [ "$xfail" -gt 0 ]; then
	echo "expected failures (XFAIL, counted as passed):"
	grep '^XFAIL' "$results" | cut -f2 | sed 's/^/  /'
fi
# Each architecture on its own line, then the total.
for a in x86-64 s390x arm64; do
	if [ $a = x86-64 ]; then
		sel() { grep -vP '^\w+\t(s390x|arm64)/' "$results"; }
	else
		sel() { grep -P "^\\w+\\t$a/" "$results"; }
	fi
	echo "$a: $(sel | grep -cE '^(PASS|XFAIL)') passed, $(sel | grep -c '^FAIL') failed"
done
echo "check took $(($(date +%s) - t0)) s; logs in $logs"
echo "$((pass + xfail)) passed, $fail failed"
[ "$fail" -eq 0 ]
