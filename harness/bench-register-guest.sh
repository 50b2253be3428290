#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make bench-register): the registration benchmark of
# tools/testing/selftests/unwind_user/register_bench.c, twice, so that the
# spread between runs shows next to the figures.
set -euo pipefail
. "$(dirname "$0")/common.sh"

bin=$SELFTESTS_OUT/install/unwind_user
echo "kernel: $(uname -r), $(nproc) CPUs"
for run in 1 2; do
	echo "--- run $run"
	"$bin/register_bench" "$@"
done
