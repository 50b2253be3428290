#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of the harness itself: what goes wrong must be reported as a
# failure, naming the cause, within a bounded time.
#   - a patch that does not apply stops tree.sh, naming the patch;
#   - the console scan (splat-scan.py) finds each kind of splat in made-up
#     kernel lines, and passes the lines that are expected;
#   - a guest command's exit status reaches the host, and its console
#     scans clean;
#   - a warning planted in the guest's kernel (debugfs, unwind_user/bench,
#     CONFIG_UNWIND_USER_BENCH) fails the scan of its console;
#   - make run CMD='...' runs the whole command line in the guest, none
#     of it on the host;
#   - a guest that hangs is killed and reported (exit 124);
#   - a guest kernel that panics is reported (exit 125), not passed.
# With the argument s390x, the guest's tests for the s390x guest; with
# guest, the x86-64 guest's alone; with scan, only the scan's made-up lines
# (no guest).
set -uo pipefail
. "$(dirname "$0")/common.sh"

fail=0
expect() {	# NAME WANT_RC GOT_RC [OUTPUT-PATTERN OUTPUT]
	if [ "$2" != "$3" ]; then
		echo "not ok - $1: exit $3, expected $2"
		fail=1
	elif [ $# -ge 5 ] && ! grep -q -- "$4" <<< "$5"; then
		echo "not ok - $1: output lacks '$4'"
		fail=1
	else
		echo "ok - $1"
	fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The console scan on made-up kernel lines: each kind of report it must
# catch, one file each, then lines it must pass.
scan_selftest() {
	local line n=0 bad=0 out rc

	mkdir -p "$tmp/splats" "$tmp/fine"
	while IFS= read -r line; do
		n=$((n + 1))
		printf 'virtme-init: starting script\n%s\n' "$line" > "$tmp/splats/$n"
	done <<'SPLATS'
[    1.000000] ------------[ cut here ]------------
[    1.000000] WARNING: CPU: 0 PID: 1 at kernel/unwind/bench.c:138 bench_write+0x1/0x2
[    1.000000] BUG: KASAN: slab-use-after-free in registry_erase+0x1/0x2
[    1.000000] BUG: KFENCE: use-after-free read in unwind_user_find+0x1/0x2
[    1.000000] UBSAN: shift-out-of-bounds in kernel/unwind/cfi.c:1:2
[    1.000000] kernel BUG at mm/mmap.c:1!
[    1.000000] Oops: general protection fault, probably for non-canonical address 0xdead
[    1.000000] WARNING: possible recursive locking detected
[    1.000000] WARNING: possible circular locking dependency detected
[    1.000000] WARNING: suspicious RCU usage
[    1.000000] INFO: task stress:123 blocked for more than 120 seconds.
[    1.000000] rcu: INFO: rcu_preempt self-detected stall on CPU
[    1.000000] rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: {
[    1.000000] INFO: rcu_tasks detected stalls on tasks:
[    1.000000] BUG kmalloc-64 (Not tainted): Poison overwritten
[    1.000000] stress: page allocation failure: order:0, mode:0x40cc0(GFP_KERNEL|__GFP_COMP), nodemask=(null)
[    1.000000] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [stress:1]
[    1.000000] BUG at mas_validate_gaps:7101 (1)
[    1.000000] kmemleak: 3 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
[    1.000000] refcount_t: underflow; use-after-free.
[    1.000000] ** 12 printk messages dropped **
[    1.000000] unwind_user: a warning planted through debugfs
[    1.000000] unwind_user: stress[1]: registry in a bad state
ok 3 fo[    1.000000] BUG: kernel NULL pointer dereference, address: 0000000000000000
[    1.000000] Kernel panic - not syncing: Fatal exception
SPLATS
	out=$("$HARNESS/splat-scan.py" "$tmp/splats"/* 2>&1)
	rc=$?
	for f in "$tmp/splats"/*; do
		grep -q "^$f:2: " <<< "$out" && continue
		echo "# not caught: $(tail -n 1 "$f")"
		bad=$((bad + 1))
	done
	[ $rc = 1 ] || { echo "# the scan of splats exited $rc"; bad=$((bad + 1)); }
	while IFS= read -r line; do
		n=$((n + 1))
		printf '[    0.000000] Linux version 7.2.13\n%s\n' "$line" > "$tmp/fine/$n"
	done <<'FINE'
[    1.000000] unwind_user: stress_workload[666]: dropped a corrupt unwind table (-22)
[    1.000000] unwind_user: hard[12]: dropped an unindexable unwind table (-27)
[    1.000000] unwind_user selftest: WARNING: not a real one
[    1.000000] registry_drop: 5 callbacks suppressed
[    0.000000] Command line: console=ttyS0 panic=-1 oops=panic
# the kernel logged: WARNING: a test's own report, not the kernel's line
not ok 2 selftests: unwind_user: register # BUG: not on the console
FINE
	# A page allocation failure that fault injection forced.
	n=$((n + 1))
	printf '%s\n' '[    1.000000] FAULT_INJECTION: forcing a failure.' \
		'[    1.000000] name fail_page_alloc, interval 1, probability 100, space 0, times 1' \
		'[    1.000000] fail_alloc: page allocation failure: order:0, mode:0xcc0(GFP_KERNEL)' \
		> "$tmp/fine/$n"
	out=$("$HARNESS/splat-scan.py" "$tmp/fine"/* 2>&1)
	rc=$?
	[ -z "$out" ] || echo "$out" | sed 's/^/# flagged: /'
	[ $rc = 0 ] || bad=$((bad + 1))
	expect "the console scan judges $n made-up lines right" 0 $bad
	"$HARNESS/splat-scan.py" "$tmp/none.log" > /dev/null 2>&1
	expect "the console scan fails on a log it cannot read" 2 $?
	printf 'TAP version 13\nok 1 - no kernel line here\n' > "$tmp/untimed.log"
	out=$("$HARNESS/splat-scan.py" "$tmp/untimed.log" 2>&1)
	expect "the console scan fails on a log without one kernel line" 1 $? \
		"nothing scanned" "$out"
	"$HARNESS/splat-scan.py" > /dev/null 2>&1
	expect "the console scan fails with no log to scan" 2 $?
}

# ARCH of the guest ("" for x86-64, s390 for s390x), the label of its
# results: the guest's contract, its console scan, and make run.  A boot
# takes 4 s to reach user space on a quiet host, 100 s with two other
# guests and a kernel build next to it: $limit for a guest that should end.
guest_selftest() {
	local arch=$1 label=$2 out rc start cmd host_file limit=300

	out=$(ARCH=$arch VM_CONSOLE_DIR=$tmp/clean-$label "$HARNESS/vm.sh" -t $limit \
	      sh -c "echo hello from $label; exit 3" 2>&1)
	expect "$label: the guest's exit status and output reach the host" 3 $? \
		"hello from $label" "$out"
	out=$("$HARNESS/splat-scan.py" "$tmp/clean-$label"/*.log 2>&1)
	expect "$label: the console of that run scans clean" 0 $? "" "$out"

	# A real warning of the kernel, planted through debugfs: the scan must
	# find it, and the command must have run (the knob exists).
	out=$(ARCH=$arch VM_CONSOLE_DIR=$tmp/warn-$label "$HARNESS/vm.sh" -t $limit \
	      'd=/sys/kernel/debug; mountpoint -q $d || mount -t debugfs none $d
	       echo "warn 1" > $d/unwind_user/bench && echo planted' 2>&1)
	expect "$label: a warning is planted through debugfs" 0 $? "^planted" "$out"
	out=$("$HARNESS/splat-scan.py" "$tmp/warn-$label"/*.log 2>&1)
	rc=$?
	echo "$out" | sed 's/^/#   /'
	expect "$label: the console scan fails on the planted warning" 1 $rc \
		"WARNING: .*bench_write" "$out"
	expect "$label: ... and names its message" 1 $rc \
		"a warning planted through debugfs" "$out"

	# make run: CMD is one command line, all of it for the guest.  The
	# harness under make is this one, less its build steps (the kernel
	# is built: make check runs this after it).
	mkdir -p "$tmp/h"
	for s in deps tree kernel perf selftests; do
		printf '#!/bin/sh\nexit 0\n' > "$tmp/h/$s.sh"
	done
	printf '#!/bin/sh\nexec "%s/vm.sh" "$@"\n' "$HARNESS" > "$tmp/h/vm.sh"
	chmod +x "$tmp/h"/*.sh
	host_file=/tmp/uu-make-run.$$
	rm -f "$host_file"
	cmd="echo a | tr a b; echo \"it's c\" > $host_file; cat $host_file"
	out=$(make -s -C "$REPO" run H="$tmp/h" ${arch:+ARCH=$arch} TIMEOUT=$limit \
	      CMD="$cmd" 2>&1)
	rc=$?
	expect "$label: make run runs CMD's pipe in the guest" 0 $rc "^b$" "$out"
	expect "$label: ... and its redirection and quotes" 0 $rc "^it's c$" "$out"
	if [ -e "$host_file" ]; then
		echo "not ok - $label: make run ran part of CMD on the host ($host_file)"
		rm -f "$host_file"
		fail=1
	else
		echo "ok - $label: make run ran nothing of CMD on the host"
	fi

	start=$(date +%s)
	out=$(ARCH=$arch "$HARNESS/vm.sh" -t 30 sleep 1000 2>&1)
	rc=$?
	expect "$label: a hung guest is killed and reported" 124 $rc "did not finish" "$out"
	echo "# hang reported after $(($(date +%s) - start)) s"

	start=$(date +%s)
	out=$(ARCH=$arch "$HARNESS/vm.sh" -t $limit \
	      sh -c 'echo c > /proc/sysrq-trigger; sleep 100' 2>&1)
	rc=$?
	expect "$label: a guest kernel panic is reported" 125 $rc "ended without a result" "$out"
	echo "# panic reported after $(($(date +%s) - start)) s"
}

case "${1:-}" in
scan)
	scan_selftest
	exit $fail
	;;
guest)
	guest_selftest "" x86_64
	exit $fail
	;;
s390x)
	# The same contract for the s390x guest (vm-initramfs.sh).
	guest_selftest s390 s390x
	exit $fail
	;;
arm64)
	# ... and for the arm64 guest.
	guest_selftest arm64 arm64
	exit $fail
	;;
esac

scan_selftest

# A repository whose series holds a patch that cannot apply.
mkdir -p "$tmp/repo/patches"
cp -r "$HARNESS" "$tmp/repo/harness"
cat > "$tmp/repo/patches/0001-broken.patch" <<'PATCH'
Subject: [PATCH] broken on purpose

--- a/Makefile
+++ b/Makefile
@@ -1,3 +1,3 @@
-this line is not in the kernel's Makefile
+nor is this one
 at all
PATCH
echo 0001-broken.patch > "$tmp/repo/patches/series"
git -C "$tmp/repo" init -q
out=$("$tmp/repo/harness/tree.sh" 2>&1)
expect "a bad patch stops the tree, naming it" 1 $? "patch 0001-broken.patch does not apply" "$out"

# A new file that no patch of patches/new-files adds.
mkdir -p "$tmp/repo/kernel/unwind"
echo '// SPDX-License-Identifier: GPL-2.0' > "$tmp/repo/kernel/unwind/stray.c"
out=$("$tmp/repo/harness/tree.sh" 2>&1)
expect "a new file in no patch stops the tree, naming it" 1 $? \
	"in no patch of patches/new-files: kernel/unwind/stray.c" "$out"

guest_selftest "" x86_64

# The sparse step checks something, and fails on the series' own findings
# only: a finding in a file the series adds fails, one in upstream code
# the series did not touch does not, and the sparse in use is one Linux
# accepts (with bookworm's, C=2 checks nothing and says so).
out=$(echo "kernel/unwind/registry.c:10:1: warning: made up" | "$HARNESS/series-warnings.py" "$SRC")
expect "sparse: a finding in the series' own code fails" 1 $? "made up" "$out"
out=$(echo "fs/proc/base.c:1:1: warning: made up" | "$HARNESS/series-warnings.py" "$SRC")
expect "sparse: a finding in untouched upstream code does not" 0 $?
sparse=$("$HARNESS/sparse-tool.sh" 2>/dev/null)
out=$("$SRC/scripts/checker-valid.sh" "$sparse")
expect "sparse: the kernel accepts the sparse in use" 0 $? "^1$" "$out"

exit $fail
