#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest (started by vm.sh): run the command saved in
# $1/cmd with the harness' tools first in PATH, then leave its output and
# exit status in $1 for the host.
out=$1
. "$(dirname "$0")/common.sh"

export PATH=$PERF_OUT:$PATH
# Tests may write dmesg checks; give them a clean start.
dmesg -C 2>/dev/null || true

set -o pipefail
eval "$(cat "$out/cmd")" 2>&1 | tee "$out/output.tmp"
rc=$?
mv "$out/output.tmp" "$out/output"
echo "$rc" > "$out/rc"
sync
