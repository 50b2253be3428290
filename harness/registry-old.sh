#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The registry tests (tools/testing/unwind_user/registry) against the
# registry of commit da05eb2, the last before writers held the mmap lock and
# entries had ids: every test must fail there (double frees, counts off, a
# new registration dropped by a stale lookup, entries copied at fork).
# Prints each test's verdict; exits 0 when all of them failed.
set -uo pipefail
. "$(dirname "$0")/common.sh"

commit=da05eb2
old=$USER_OUT/registry-old-src
files="kernel/unwind/registry.c kernel/unwind/eh_frame.h
include/linux/unwind_user_registry.h"

rm -rf "$old"
for f in $files; do
	mkdir -p "$old/$(dirname "$f")"
	git -C "$REPO" show "$commit:$f" > "$old/$f" ||
		die "$commit:$f is not in this checkout's history"
done
make -s -C "$SRC/tools/testing/unwind_user/registry" OUTPUT="$USER_OUT" \
	OLD="$old" "$USER_OUT/registry-test-old" || die "build failed"

"$USER_OUT/registry-test-old" > "$USER_OUT/registry-old.log" \
	2> "$USER_OUT/registry-old.err"
verdicts=$("$HARNESS/tap.py" old-registry < "$USER_OUT/registry-old.log")
echo "$verdicts"
grep -E '^# ' "$USER_OUT/registry-old.log" | grep -v '^# registry:' | head -n 40
grep -hE '^(SUMMARY|regtest):' "$USER_OUT/registry-old.err" |
	sed 's/0x[0-9a-f]*/ADDR/g' | sort | uniq -c
echo "(the sanitizers' reports in full: $USER_OUT/registry-old.err)"
passed=$(grep -c '^PASS' <<< "$verdicts")
failed=$(grep -c '^FAIL' <<< "$verdicts")
echo "registry of $commit: $failed tests failed, $passed passed (all must fail)"
[ "$passed" -eq 0 ] && [ "$failed" -gt 0 ]
