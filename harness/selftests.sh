#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build and install tools/testing/selftests/unwind_user of the assembled
# tree, against the new kernel's UAPI headers (make headers in kernel.sh),
# into $SELFTESTS_OUT, with kselftest's own run_kselftest.sh.  ARCH=s390
# cross-builds the s390x set (s390x-linux-gnu-gcc) into its own directory.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ -d "$KBUILD/usr/include/linux" ] || die "no UAPI headers in $KBUILD/usr/include: run 'make kernel'"
mkdir -p "$SELFTESTS_OUT"
log "building selftests/unwind_user in $SELFTESTS_OUT"
cross=()
[ -n "$CROSS" ] && cross=(ARCH="$KARCH" CROSS_COMPILE="$CROSS")
make -s -C "$SRC/tools/testing/selftests" TARGETS=unwind_user "${cross[@]}" \
	O="$SELFTESTS_OUT/build" KHDR_INCLUDES="-isystem $KBUILD/usr/include" \
	INSTALL_PATH="$SELFTESTS_OUT/install" install >"$SELFTESTS_OUT/build.log" 2>&1 ||
	{ tail -n 40 "$SELFTESTS_OUT/build.log"; die "selftests build failed"; }
