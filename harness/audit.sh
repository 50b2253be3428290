#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build tools/unwind_user/ld_audit, the LD_AUDIT module that registers the
# unwind tables of shared libraries with the kernel, into $AUDIT_OUT, from
# this checkout (it needs no kernel tree).  The kernel's UAPI headers are
# used if `make kernel` has installed them, the system's otherwise.  The
# last line printed is the path of the module.
set -euo pipefail
. "$(dirname "$0")/common.sh"

mkdir -p "$AUDIT_OUT"
khdr=
[ -d "$KBUILD/usr/include/linux" ] && khdr="-isystem $KBUILD/usr/include"
make -s -C "$REPO/tools/unwind_user/ld_audit" OUTPUT="$AUDIT_OUT/" \
	KHDR_INCLUDES="$khdr" >&2
echo "$AUDIT_OUT/unwind_user_audit.so"
