#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Assemble the kernel tree: pristine Linux $KVER + patches/series + overlay.
#
# The tree is a git repository whose first commit is the pristine source.
# Each run builds the series' commits in a private index (one per patch,
# each with the new files it adds) and moves the work tree to the last one
# with a two-tree read-tree, which rewrites only the files whose content
# changed.  Untouched files keep their mtime, so the out-of-tree kernel build
# stays incremental.
set -euo pipefail
. "$(dirname "$0")/common.sh"

export GIT_AUTHOR_NAME=unwind-user GIT_AUTHOR_EMAIL=unwind-user@localhost
export GIT_COMMITTER_NAME=unwind-user GIT_COMMITTER_EMAIL=unwind-user@localhost
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"

# One assembly at a time (make targets and developers may race).
mkdir -p "$CACHE/src"
exec 9>"$CACHE/src/.tree.lock"
flock 9
# Under the flock no other assembly runs, so an index lock left here is one
# a killed run left behind (series-check's or CI's); it would fail every
# later run.
rm -f "$SRC/.git/assemble-index.lock" "$SRC/.git/index.lock"

if ! git -C "$SRC" rev-parse -q --verify refs/tags/pristine >/dev/null 2>&1; then
	deb=$("$HARNESS/fetch-deb.sh" "linux-source-$KVER" "$LINUX_PIN")
	log "unpacking $(basename "$deb") into $SRC"
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -O --wildcards "*/linux-source-$KVER.tar.xz" |
		tar -xJ -C "$SRC.tmp" --strip-components=1
	git -C "$SRC.tmp" init -q
	git -C "$SRC.tmp" config core.bigFileThreshold 1m
	git -C "$SRC.tmp" add -A -f
	git -C "$SRC.tmp" commit -q -m "Linux $(make -s -C "$SRC.tmp" kernelversion) (pristine, $(basename "$deb"))"
	git -C "$SRC.tmp" tag pristine
	mv "$SRC.tmp" "$SRC"
fi

cd "$SRC"
log "tree: $(git log -1 --format=%s pristine)"

# The series as commits (harness/series.py): patch k's commit holds the new
# files it adds, in the state it adds them, and its diff.  The overlay is
# read from the checkout's work tree, so that an uncommitted edit is what
# gets built; the last commit's tree is pristine + patches + overlay.
export GIT_INDEX_FILE=$SRC/.git/assemble-index
if [ "$KVER" = 7.2 ]; then
	new=$("$HARNESS/series.py" assemble "$SRC")
else
	new=$(SERIES_LOOSE=1 "$HARNESS/series.py" assemble "$SRC")
fi
unset GIT_INDEX_FILE

# Drop stray edits in the assembled tree, then move it to the new commit.
git reset -q --hard
git read-tree -m -u HEAD "$new"
git reset -q --soft "$new"
log "tree: $(git rev-list --count pristine..HEAD) commits on top of pristine, HEAD $(git rev-parse --short HEAD)"
