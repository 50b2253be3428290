#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series-check: the series as a maintainer receives it.  Formats it
# (make series), runs checkpatch --strict on every patch, checks that its
# last commit is the tree make check tests, then builds every commit in
# turn, for x86-64, s390x and arm64 (SERIES_ARCHES), incrementally, in a worktree
# and build directories of its own (KVARIANT=series).  SERIES_FROM and
# SERIES_TO (1-based) limit the commits built.  Prints one line per commit
# and architecture, and "N passed, N failed".  SERIES_BUILD_ONLY=1 skips
# all but the builds.
set -euo pipefail
. "$(dirname "$0")/common.sh"

"$HARNESS/tree.sh"
main=$SRC
tip=$(git -C "$main" rev-parse HEAD)
out=$CACHE/series/patches
logs=$CACHE/series/logs
mkdir -p "$logs"
"$HARNESS/series.py" format "$main" "$tip" "$out"

pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

if [ "${SERIES_BUILD_ONLY:-0}" = 1 ]; then
	: # builds only (a second run for another architecture or range)
elif "$HARNESS/style.sh" checkpatch >"$logs/checkpatch" 2>&1; then
	ok "checkpatch --strict: $(tail -n1 "$logs/checkpatch")"
else
	cat "$logs/checkpatch"
	bad "checkpatch --strict"
fi

# The last commit is the tree make check builds: every overlay file as it
# is here, and no file of Linux changed that no patch changes.
[ "${SERIES_BUILD_ONLY:-0}" = 1 ] || {
(cd "$REPO" && git ls-files --cached --others --exclude-standard -- $OVERLAY_DIRS) |
	sort >"$logs/overlay"
sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$REPO"/patches/*.patch | sort -u >"$logs/patched"
git -C "$main" diff --name-only pristine "$tip" | sort >"$logs/changed"
stray=$(comm -23 "$logs/changed" <(sort -u "$logs/overlay" "$logs/patched"))
differ=$(while read -r f; do
	git -C "$main" show "$tip:$f" 2>/dev/null | cmp -s - "$REPO/$f" || echo "$f"
done <"$logs/overlay")
if [ -z "$stray$differ" ]; then
	ok "last commit $(git -C "$main" rev-parse --short "$tip") = pristine + patches + overlay"
else
	bad "last commit differs from the overlay: $stray $differ"
fi
}

wt=$(KVARIANT=series; . "$HARNESS/common.sh"; echo "$SRC")
[ -d "$wt" ] || git -C "$main" worktree add -q --detach "$wt" pristine
mapfile -t commits < <(git -C "$main" rev-list --reverse "pristine..$tip")
from=${SERIES_FROM:-1} to=${SERIES_TO:-${#commits[@]}}
for ((i = from; i <= to; i++)); do
	c=${commits[i - 1]}
	git -C "$wt" checkout -q -f --detach "$c"
	subject=$(git -C "$wt" log -1 --format=%s "$c")
	for arch in ${SERIES_ARCHES:-x86_64 s390x arm64}; do
		log=$logs/build-$i-$arch.log
		start=$(date +%s)
		if ARCH=$arch KVARIANT=series "$HARNESS/kernel.sh" >"$log" 2>&1; then
			ok "$i/${#commits[@]} $arch builds ($(($(date +%s) - start)) s): $subject"
		else
			tail -n 20 "$log"
			bad "$i/${#commits[@]} $arch build: $subject (log: $log)"
		fi
	done
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
