#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run a target of tools/testing/unwind_user (the unwinder's C compiled in
# user space) in the assembled tree, with outputs in $USER_OUT:
#   user.sh run_tests | fuzz | bench | ...
set -euo pipefail
. "$(dirname "$0")/common.sh"

mkdir -p "$USER_OUT"
# The MSVC images for the PE oracle, as make check passes them.
msvc=$("$HARNESS/msvc-pe.sh") || msvc=
exec make -s -C "$SRC/tools/testing/unwind_user" OUTPUT="$USER_OUT" \
	PE_MSVC_IMAGES="${msvc//$'\n'/ }" "$@"
