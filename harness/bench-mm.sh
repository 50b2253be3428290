#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench-mm: what the series costs fork() + exit and mmap() + munmap()
# (tools/testing/selftests/unwind_user/mm_bench.c), on Linux 7.2 with and
# without the series: same config, one boot each, run twice each,
# alternating, so that drift between the boots shows.
set -euo pipefail
. "$(dirname "$0")/common.sh"

plain=$(KVARIANT=plain; . "$HARNESS/common.sh"; echo "$SRC")
if [ ! -d "$plain" ]; then
	log "pristine tree for the plain kernel: $plain"
	git -C "$SRC" worktree add -q --detach "$plain" pristine
fi
KVARIANT=plain "$HARNESS/kernel.sh"

bench=$SELFTESTS_OUT/install/unwind_user/mm_bench
[ -x "$bench" ] || die "no $bench: run 'make selftests'"
for round in 1 2; do
	for k in plain series; do
		echo "== $k, round $round"
		if [ $k = plain ]; then
			KVARIANT=plain "$HARNESS/vm.sh" -t 600 "$bench" ${BENCH_ARGS:-}
		else
			"$HARNESS/vm.sh" -t 600 "$bench" ${BENCH_ARGS:-}
		fi
	done
done
