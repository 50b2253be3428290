#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-debug: the kselftests, a longer stress test and prctl fuzzer,
# and allocation-failure injection, on a kernel with KASAN, UBSAN, KFENCE,
# lockdep (PROVE_LOCKING, PROVE_RCU), DEBUG_ATOMIC_SLEEP, DEBUG_VM(_MAPLE_TREE),
# kmemleak and fault injection (harness/x86_64-debug.config,
# s390x-debug.config, arm64-debug.config), x86-64, s390x, then arm64.  Any splat on
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
# The console scan on made-up lines of each kind it must catch.
step scan-selftest "$HARNESS/selftest.sh" scan

# One architecture: its debug kernel, its make check kernel (whose headers
# the selftests build against), the selftests, then two boots of the debug
# kernel.  Names of s390x's and arm64's results begin "s390x/", "arm64/".
debug_arch() {	# x86_64|s390x|arm64
	local arch=$1 p= env=() ok=1 start rc ko install
	case $arch in
	s390x)	p=s390x/ env=(ARCH=s390) ;;
	arm64)	p=arm64/ env=(ARCH=arm64) ;;
	esac
	install=$CACHE/build/selftests${p:+-$arch}$KSUF/install
	ko=$CACHE/build/$arch-debug$KSUF/samples/kmemleak/kmemleak-test.ko
	# The kernel's sample oopses on s390x under KASAN in 7.2 (its store
	# to a per-CPU variable of a module): a module that only leaks, which
	# arm64 takes too.
	[ "$arch" != x86_64 ] && ko=$CACHE/build/$arch-debug$KSUF/kmemleak-leak/kmemleak_leak.ko
	mkdir -p "$logs/${p:-.}"
	step "${p}kernel-debug" env "${env[@]}" KVARIANT=debug "$HARNESS/kernel.sh" || ok=0
	[ $ok = 1 ] && { step "${p}kernel" env "${env[@]}" "$HARNESS/kernel.sh" || ok=0; }
	[ $ok = 1 ] && { step "${p}selftests-build" env "${env[@]}" "$HARNESS/selftests.sh" ||
		ok=0; }
	if [ $ok = 0 ]; then
		record FAIL "${p}debug/guest" "not run: a kernel or the selftests did not build"
		return
	fi

	# kmemleak at work: a boot that loads the kernel's sample module that
	# leaks on purpose; kmemleak must report the leaks, on the console
	# too.  (s390x's initramfs gets the script and the module packed.)
	start=$(date +%s)
	env "${env[@]}" KVARIANT=debug VM_CONSOLE_DIR="$logs/${p}consoles-kmemleak" \
		VM_FILES="$HARNESS/check-debug-guest.sh $ko" "$HARNESS/vm.sh" -t 1800 \
		"$HARNESS/check-debug-guest.sh" --kmemleak-selftest "$ko" \
		> "$logs/${p}kmemleak-selftest.log" 2>&1
	rc=$?
	"$HARNESS/tap.py" "${p}debug" < "$logs/${p}kmemleak-selftest.log" |
	while IFS=$'\t' read -r v name detail; do
		record "$v" "$name" "$detail"
	done
	[ $rc -eq 0 ] ||
		record FAIL "${p}debug/kmemleak_selftest_guest" \
			"exit $rc, $logs/${p}kmemleak-selftest.log"
	step "${p}kmemleak-selftest-console" "$HARNESS/splat-scan.py" \
		--want 'kmemleak: [0-9]+ new suspected memory leaks' \
		"$logs/${p}consoles-kmemleak"/*.log
	log "${p}kmemleak self-test took $(($(date +%s) - start)) s"

	start=$(date +%s)
	env "${env[@]}" KVARIANT=debug VM_CONSOLE_DIR="$logs/${p}consoles" \
		VM_FILES="$HARNESS/check-debug-guest.sh" "$HARNESS/vm.sh" -t 5400 \
		"$HARNESS/check-debug-guest.sh" "$install" \
		> "$logs/${p}guest.log" 2>&1
	rc=$?
	# The kselftests by name, then the run's own five lines.
	sed -n 's/^# kselftest: //p' "$logs/${p}guest.log" |
		"$HARNESS/tap.py" "${p}debug/kselftest" |
	while IFS=$'\t' read -r v name detail; do
		record "$v" "$name" "$detail"
	done
	grep -v '^# kselftest: ' "$logs/${p}guest.log" | "$HARNESS/tap.py" "${p}debug" |
	while IFS=$'\t' read -r v name detail; do
		record "$v" "$name" "$detail"
	done
	[ $rc -eq 0 ] || record FAIL "${p}debug/guest" "exit $rc, $logs/${p}guest.log"
	log "${p}debug guest took $(($(date +%s) - start)) s"
	# Every splat of that boot, the boot itself included.
	step "${p}console-scan" "$HARNESS/splat-scan.py" "$logs/${p}consoles"/*.log
}

# KASAN reports every bug it finds, not the first one only.
export VM_APPEND=kasan_multi_shot
# DEBUG_ARCHES picks (default: all three, x86-64 first).
for arch in ${DEBUG_ARCHES:-x86_64 s390x arm64}; do
	[ $ok = 1 ] && debug_arch "$arch"
done

pass=$(grep -c '^PASS' "$results")
fail=$(grep -c '^FAIL' "$results")
echo "check-debug took $(($(date +%s) - t0)) s; logs in $logs"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
