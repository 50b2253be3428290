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
			rc=$?
			"$HARNESS/tap.py" "user/$t" < "$logs/user-$t.log" |
			while IFS=$'\t' read -r v name detail; do
				record "$v" "$name" "$detail"
			done
			[ $rc -eq 0 ] || record FAIL "user/$t" "exit $rc, $logs/user-$t.log"
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
		rc=$?
		"$HARNESS/tap.py" user/registry < "$logs/user-registry.log" |
		while IFS=$'\t' read -r v name detail; do
			record "$v" "$name" "$detail"
		done
		[ $rc -eq 0 ] || record FAIL user/registry "exit $rc, $logs/user-registry.log"
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
	rc=$?
	"$HARNESS/tap.py" guest < "$logs/guest.log" | while IFS=$'\t' read -r v name detail; do
		record "$v" "$name" "$detail"
	done
	[ $rc -eq 0 ] || record FAIL guest/run_kselftest "exit $rc, $logs/guest.log"
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

# s390x: the cross-built kernel and selftests in a qemu-system-s390x guest,
# and the unwinder's C as big-endian s390x code under qemu-s390x.  Every
# line is prefixed "s390x/".
s390_start=$(date +%s)
s390=(env ARCH=s390)
s390_kernel_ok=0
step s390x/kernel "${s390[@]}" "$HARNESS/kernel.sh" && s390_kernel_ok=1
[ $s390_kernel_ok = 1 ] && step s390x/sparse-w1 "${s390[@]}" "$HARNESS/style.sh" sparse
[ $s390_kernel_ok = 1 ] && step s390x/harness-selftest "$HARNESS/selftest.sh" s390x
s390_selftests_ok=0
[ $s390_kernel_ok = 1 ] && step s390x/selftests-build "${s390[@]}" "$HARNESS/selftests.sh" &&
	s390_selftests_ok=1
if [ -d "$uu" ] && step s390x/user-build "${umake[@]}" s390x; then
	"${umake[@]}" run_unit_s390x > "$logs/s390x-user-unit.log" 2>&1
	rc=$?
	"$HARNESS/tap.py" "s390x/user/unit" < "$logs/s390x-user-unit.log" |
	while IFS=$'\t' read -r v name detail; do
		record "$v" "$name" "$detail"
	done
	[ $rc -eq 0 ] || record FAIL "s390x/user/unit" "exit $rc, $logs/s390x-user-unit.log"
	step s390x/user-oracle "${umake[@]}" run_oracle_s390x &&
		grep '^oracle:' "$logs/s390x/user-oracle.log" | sed 's/^/    /'
fi
if [ $s390_selftests_ok = 1 ]; then
	start=$(date +%s)
	"${s390[@]}" VM_CONSOLE_DIR="$consoles/s390x" "$HARNESS/vm.sh" -t 1500 \
		"$CACHE/build/selftests-s390x$KSUF/install/run_kselftest.sh" \
		> "$logs/s390x-guest.log" 2>&1
	rc=$?
	"$HARNESS/tap.py" s390x/guest < "$logs/s390x-guest.log" |
	while IFS=$'\t' read -r v name detail; do
		record "$v" "$name" "$detail"
	done
	[ $rc -eq 0 ] || record FAIL s390x/guest/run_kselftest "exit $rc, $logs/s390x-guest.log"
	log "s390x guest tests took $(($(date +%s) - start)) s"
	step s390x/guest/console-scan "$HARNESS/splat-scan.py" "$consoles/s390x"/*.log
else
	record FAIL s390x/guest "not run: the s390x kernel or selftests did not build"
fi
log "s390x took $(($(date +%s) - s390_start)) s"

# arm64: the cross-built kernel and selftests in a qemu-system-aarch64 guest
# (-cpu max: pointer authentication).  The table reader's arm64 rules are
# tested in the x86-64 user-space build (run_unit); it does not run as
# arm64 code under qemu-aarch64 yet.  Every line is prefixed "arm64/".
arm64_start=$(date +%s)
arm64=(env ARCH=arm64)
arm64_kernel_ok=0
step arm64/kernel "${arm64[@]}" "$HARNESS/kernel.sh" && arm64_kernel_ok=1
[ $arm64_kernel_ok = 1 ] && step arm64/sparse-w1 "${arm64[@]}" "$HARNESS/style.sh" sparse
[ $arm64_kernel_ok = 1 ] && step arm64/harness-selftest "$HARNESS/selftest.sh" arm64
arm64_selftests_ok=0
[ $arm64_kernel_ok = 1 ] && step arm64/selftests-build "${arm64[@]}" "$HARNESS/selftests.sh" &&
	arm64_selftests_ok=1
if [ $arm64_selftests_ok = 1 ]; then
	start=$(date +%s)
	"${arm64[@]}" VM_CONSOLE_DIR="$consoles/arm64" "$HARNESS/vm.sh" -t 1500 \
		"$CACHE/build/selftests-arm64$KSUF/install/run_kselftest.sh" \
		> "$logs/arm64-guest.log" 2>&1
	rc=$?
	"$HARNESS/tap.py" arm64/guest < "$logs/arm64-guest.log" |
	while IFS=$'\t' read -r v name detail; do
		record "$v" "$name" "$detail"
	done
	[ $rc -eq 0 ] || record FAIL arm64/guest/run_kselftest "exit $rc, $logs/arm64-guest.log"
	log "arm64 guest tests took $(($(date +%s) - start)) s"
	step arm64/guest/console-scan "$HARNESS/splat-scan.py" "$consoles/arm64"/*.log
else
	record FAIL arm64/guest "not run: the arm64 kernel or selftests did not build"
fi
log "arm64 took $(($(date +%s) - arm64_start)) s"

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
