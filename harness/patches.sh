#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Edit the patch series as commits in a git worktree of the pristine tree.
#
#   patches.sh import   (re)create the worktree ($CACHE/src/dev, branch dev)
#                       with the series' commits (harness/series.py: each
#                       patch with the new files it adds); edit, commit,
#                       rebase -i there
#   patches.sh export   write pristine..dev back to patches/, patches/series,
#                       patches/new-files and the overlay
#
# The commit dev started from is kept as refs/unwind-user/dev-base, so that
# export notices an overlay file edited here since the import.
set -euo pipefail
. "$(dirname "$0")/common.sh"

dev=$CACHE/src/dev
[ -d "$SRC/.git" ] || "$HARNESS/tree.sh"

case "${1:-}" in
import)
	tip=$(GIT_INDEX_FILE=$SRC/.git/import-index "$HARNESS/series.py" assemble "$SRC")
	if [ ! -d "$dev" ]; then
		git -C "$SRC" worktree add -q -B dev "$dev" "$tip"
	else
		git -C "$dev" checkout -q -f -B dev "$tip"
	fi
	git -C "$SRC" update-ref refs/unwind-user/dev-base "$tip"
	log "dev: $(git -C "$dev" rev-list --count pristine..dev) commits in $dev"
	;;
export)
	base=$(git -C "$SRC" rev-parse -q --verify refs/unwind-user/dev-base) ||
		die "no dev-base: run make patches-import first"
	"$HARNESS/series.py" export "$SRC" dev "$base"
	git -C "$SRC" update-ref refs/unwind-user/dev-base dev
	;;
*)
	echo "usage: $0 import|export" >&2
	exit 2
	;;
esac
