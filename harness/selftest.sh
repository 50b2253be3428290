#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of the harness itself: what goes wrong must be reported as a
# failure, naming the cause, within a bounded time.
#   - a patch that does not apply stops tree.sh, naming the patch;
#   - a guest command's exit status reaches the host;
#   - a guest that hangs is killed and reported (exit 124);
#   - a guest kernel that panics is reported (exit 125), not passed.
# With the argument s390x, the last three for the s390x guest.
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

# selftest.sh s390x: the same contract for the s390x guest (vm-s390x.sh).
if [ "${1:-}" = s390x ]; then
	out=$(ARCH=s390 "$HARNESS/vm.sh" -t 120 sh -c 'echo hello from s390x; exit 3' 2>&1)
	expect "s390x: the guest's exit status and output reach the host" 3 $? \
		"hello from s390x" "$out"
	start=$(date +%s)
	out=$(ARCH=s390 "$HARNESS/vm.sh" -t 20 sleep 1000 2>&1)
	rc=$?
	expect "s390x: a hung guest is killed and reported" 124 $rc "did not finish" "$out"
	echo "# hang reported after $(($(date +%s) - start)) s"
	out=$(ARCH=s390 "$HARNESS/vm.sh" -t 120 sh -c 'echo c > /proc/sysrq-trigger; sleep 100' 2>&1)
	expect "s390x: a guest kernel panic is reported" 125 $? "ended without a result" "$out"
	exit $fail
fi

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

out=$("$HARNESS/vm.sh" -t 120 sh -c 'echo hello from the guest; exit 3' 2>&1)
expect "the guest's exit status and output reach the host" 3 $? "hello from the guest" "$out"

start=$(date +%s)
out=$("$HARNESS/vm.sh" -t 30 sleep 1000 2>&1)
rc=$?
expect "a hung guest is killed and reported" 124 $rc "did not finish" "$out"
echo "# hang reported after $(($(date +%s) - start)) s"

start=$(date +%s)
out=$("$HARNESS/vm.sh" -t 120 sh -c 'echo c > /proc/sysrq-trigger; sleep 100' 2>&1)
rc=$?
expect "a guest kernel panic is reported" 125 $rc "ended without a result" "$out"
echo "# panic reported after $(($(date +%s) - start)) s"

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
