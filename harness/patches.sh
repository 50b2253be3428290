#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Edit the patch series as commits in a git worktree of the pristine tree.
#
#   patches.sh import   (re)create the worktree ($CACHE/src/dev, branch dev)
#                       with patches/series applied as commits
#   patches.sh export   write pristine..dev back to patches/ and patches/series
set -euo pipefail
. "$(dirname "$0")/common.sh"

dev=$CACHE/src/dev
[ -d "$SRC/.git" ] || "$HARNESS/tree.sh"

case "${1:-}" in
import)
	if [ ! -d "$dev" ]; then
		git -C "$SRC" worktree add -q -B dev "$dev" pristine
	else
		git -C "$dev" checkout -q -B dev pristine
	fi
	while read -r patch _; do
		case "$patch" in ''|'#'*) continue ;; esac
		git -C "$dev" am -q "$REPO/patches/$patch" || die "patch $patch does not apply"
	done < "$REPO/patches/series"
	log "dev: $(git -C "$dev" rev-list --count pristine..dev) patches in $dev"
	;;
export)
	rm -f "$REPO"/patches/*.patch
	git -C "$dev" format-patch -q --zero-commit --no-signature \
		-o "$REPO/patches" pristine..dev
	(cd "$REPO/patches" && ls ./*.patch | sed 's|^\./||') > "$REPO/patches/series"
	log "exported $(wc -l < "$REPO/patches/series") patches"
	;;
*)
	echo "usage: $0 import|export" >&2
	exit 2
	;;
esac
