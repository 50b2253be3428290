#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of make check-debug (harness/check-debug.sh), on the debug
# kernel: the splat scan's self-test, every kselftest (the stress test and
# the prctl fuzzer run longer), the allocation-failure test, a kmemleak
# scan, then the scan of the whole kernel log.  TAP on stdout.
#
#	check-debug-guest.sh SELFTESTS_INSTALL_DIR HARNESS_DIR
set -u
dir=$1
harness=$2
tmp=$(mktemp -d)

echo "TAP version 13"
echo "1..4"

# The scan must find a splat where there is one: a made-up log line of each
# kind a checker writes, one file each.
n=0 bad=0
for line in 'BUG: KASAN: slab-use-after-free in registry_erase+0x1/0x2' \
	    'WARNING: possible circular locking dependency detected' \
	    'kmemleak: 1 new suspected memory leaks (see /sys/kernel/debug/kmemleak)' \
	    'UBSAN: shift-out-of-bounds in kernel/unwind/cfi.c:1:2' \
	    'WARNING: suspicious RCU usage'; do
	n=$((n + 1))
	echo "[    1.000000] $line" > "$tmp/fake"
	"$harness/splat-scan.sh" "$tmp/fake" >/dev/null && bad=$((bad + 1))
done
for line in 'unwind_user: stress[1]: dropped a corrupt unwind table (-22)' \
	    '<4>unwind_user selftest: WARNING: not a real one'; do
	n=$((n + 1))
	echo "[    1.000000] $line" > "$tmp/fake"
	"$harness/splat-scan.sh" "$tmp/fake" >/dev/null || bad=$((bad + 1))
done
if [ $bad = 0 ]; then
	echo "ok 1 splat_scan_selftest # $((n - 2)) made-up splats found, 2 clean lines passed"
else
	echo "not ok 1 splat_scan_selftest # $bad of $n lines misjudged"
fi

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

UNWIND_USER_STRESS_SECONDS=${UNWIND_USER_STRESS_SECONDS:-60} \
UNWIND_USER_FUZZ_CALLS=${UNWIND_USER_FUZZ_CALLS:-100000} \
	"$dir/run_kselftest.sh" -o 3000 > "$tmp/kselftest" 2>&1
# All of it, for the host's per-test results.
sed 's/^/# kselftest: /' "$tmp/kselftest"
if grep -q '^not ok' "$tmp/kselftest" || ! grep -q '^ok' "$tmp/kselftest"; then
	echo "not ok 2 kselftests # $(grep -c '^not ok' "$tmp/kselftest") failed"
else
	echo "ok 2 kselftests # $(grep -c '^ok' "$tmp/kselftest") passed"
fi

"$dir/unwind_user/fail_alloc" > "$tmp/fail" 2>&1
rc=$?
sed 's/^/# /' "$tmp/fail"
if [ $rc = 0 ]; then
	echo "ok 3 fail_alloc"
else
	echo "not ok 3 fail_alloc # exit $rc"
fi

# kmemleak reports what it finds at the second scan.
echo scan > /sys/kernel/debug/kmemleak
sleep 5
echo scan > /sys/kernel/debug/kmemleak
cat /sys/kernel/debug/kmemleak > "$tmp/leaks"
dmesg > "$tmp/dmesg"
leaks=$(grep -c '^unreferenced object' "$tmp/leaks")
sed 's/^/# kmemleak: /' "$tmp/leaks" | head -n 60
if "$harness/splat-scan.sh" "$tmp/dmesg" > "$tmp/splats" && [ "$leaks" = 0 ]; then
	echo "ok 4 no_splats # kernel log clean, kmemleak: 0 objects"
else
	sed 's/^/# splat: /' "$tmp/splats" | head -n 60
	echo "not ok 4 no_splats # $(wc -l < "$tmp/splats") splat lines, kmemleak: $leaks objects"
fi
rm -rf "$tmp"
