#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A sparse that Linux 7.2 accepts.  Its scripts/checker-valid.sh wants
# __typeof_unqual__, which bookworm's sparse 0.6.4 does not parse: with it,
# "make C=2" silently checks nothing.  Build the newest sparse of Debian's
# sid from source (a few seconds), cached by version; print its path.
set -euo pipefail
. "$(dirname "$0")/common.sh"

src=$("$HARNESS/fetch-src.sh" sparse sid)
bin=$CACHE/tools/$(basename "$src")/sparse
if [ ! -x "$bin" ]; then
	log "building $(basename "$src")"
	make -s -C "$src" -j"$(nproc)" CC=gcc HAVE_GTK=no HAVE_LLVM=no sparse >/dev/null
	mkdir -p "$(dirname "$bin")"
	cp "$src/sparse" "$bin"
fi
"$SRC/scripts/checker-valid.sh" "$bin" | grep -qx 1 ||
	die "$bin is not a sparse Linux accepts"
echo "$bin"
