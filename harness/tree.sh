#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Assemble the kernel tree: pristine Linux 7.2 + patches/series + overlay.
#
# The tree is a git repository whose first commit is the pristine source.
# Each run computes the wanted tree in a private index (pristine, then one
# commit per patch, then one for the overlay) and moves the work tree to it
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

if ! git -C "$SRC" rev-parse -q --verify refs/tags/pristine >/dev/null 2>&1; then
	deb=$("$HARNESS/fetch-deb.sh" linux-source-7.2 "$LINUX_PIN")
	log "unpacking $(basename "$deb") into $SRC"
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -O --wildcards '*/linux-source-7.2.tar.xz' |
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

export GIT_INDEX_FILE=$SRC/.git/assemble-index
git read-tree pristine
parent=$(git rev-parse pristine)

if [ -f "$REPO/patches/series" ]; then
	while read -r patch _; do
		case "$patch" in ''|'#'*) continue ;; esac
		[ -f "$REPO/patches/$patch" ] || die "patches/series names $patch, which does not exist"
		if ! git apply --cached --whitespace=nowarn "$REPO/patches/$patch"; then
			die "patch $patch does not apply"
		fi
		subject=$(sed -n 's/^Subject: *\(\[PATCH[^]]*\] *\)\{0,1\}//p' "$REPO/patches/$patch" | head -n1)
		parent=$(git commit-tree "$(git write-tree)" -p "$parent" -m "${subject:-$patch}")
	done < "$REPO/patches/series"
fi

# Overlay: tracked and new (not ignored) files of the checkout, as they are
# in its work tree, so that an uncommitted edit is what gets built.
(cd "$REPO" && git ls-files -z --cached --others --exclude-standard -- $OVERLAY_DIRS) |
while IFS= read -r -d '' f; do
	[ -f "$REPO/$f" ] || continue
	mode=100644
	[ -x "$REPO/$f" ] && mode=100755
	sha=$(git hash-object -w -- "$REPO/$f")
	printf '%s %s\t%s\n' "$mode" "$sha" "$f"
done | git update-index --index-info
new=$(git commit-tree "$(git write-tree)" -p "$parent" -m "overlay")
unset GIT_INDEX_FILE

# Drop stray edits in the assembled tree, then move it to the new commit.
git reset -q --hard
git read-tree -m -u HEAD "$new"
git reset -q --soft "$new"
log "tree: $(git rev-list --count pristine..HEAD) commits on top of pristine, HEAD $(git rev-parse --short HEAD)"
