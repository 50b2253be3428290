#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The registry tests (tools/testing/unwind_user/registry) against the
# registry of commit da05eb2, the last before writers held the mmap lock and
# entries had ids.  Each test there must fail, and for the reason it was
# written: the message of that defect (REASON below) in its own output, on
# stdout or in its sanitizers' reports on stderr (each test runs alone).
# A test that passes there, or fails for another reason, is no evidence and
# fails this script.
#
# The adapter (registry_old.c) answers for what the old registry lacks with
# fixed values: reg_cache_stats() -1 (no frame cache), refs -1 in
# reg_contents() (no reference counts), reg_markers() 0 (no tombstones).
# The failures those values cause (STUB below) are not evidence: they are
# left out before the reason is looked for, and cache_invalidation, which
# has no failure there but those, is not counted at all (it is shown).
# Prints each test's verdict; exits 0 when every counted test failed for
# its reason.
set -uo pipefail
. "$(dirname "$0")/common.sh"

commit=da05eb2
old=$USER_OUT/registry-old-src
files="kernel/unwind/registry.c kernel/unwind/eh_frame.h
include/linux/unwind_user_registry.h"

# What each test shows of the old registry (an ERE over its output), and
# what that means.  A test the binary has and this table lacks, or the
# other way round, fails the script: the table must say why each counts.
declare -A REASON WHY
REASON[race_unregister_unregister]='freed [0-9]+ time\(s\) too many|double-free'
WHY[race_unregister_unregister]='two unregisters of one entry free it twice'
REASON[race_munmap_unregister]='freed [0-9]+ time\(s\) too many|double-free'
WHY[race_munmap_unregister]='munmap and unregister of one entry free it twice'
REASON[race_unregister_munmap]='freed [0-9]+ time\(s\) too many|double-free'
WHY[race_unregister_munmap]='unregister and munmap of one entry free it twice'
REASON[race_unregister_drop]='freed [0-9]+ time\(s\) too many|double-free'
WHY[race_unregister_drop]="a corrupt table's drop and an unregister free one entry twice"
REASON[stale_drop_after_reuse]='entries after the stale drop, want the new one|'\
'freed under the lookup that holds it'
WHY[stale_drop_after_reuse]='a stale lookup drops the registration made after it began'
REASON[fork_shares]='entries allocated: copied, not shared'
WHY[fork_shares]='fork copies every entry instead of sharing it'
REASON[unregister_nomem]='the unregistered entry is found'
WHY[unregister_nomem]='an unregister without memory for the tree leaves the entry found'
REASON[munmap_nomem]='entry [0-9]+ found after munmap'
WHY[munmap_nomem]='a munmap without memory for the tree leaves its entries found'
REASON[dead_entry]='entries after the drop, want 2'
WHY[dead_entry]='the drop of a corrupt table erases its entry (today: kept, marked dead, '\
'until unmapped)'
REASON[stress]='double-free|heap-use-after-free|freed twice|'\
'operations against the model|entries in the tree, the model has'
WHY[stress]='racing operations free entries twice or disagree with the model'
# Not counted: every failure it has there comes from reg_cache_stats()'s -1.
REASON[cache_invalidation]=
WHY[cache_invalidation]='not counted: the old registry has no frame cache, the adapter answers -1'
# The adapter's fixed values, as the tests report them.
STUB='has -1 references|not a (miss|hit) in the cache|: no cache$|[0-9]+ tombstones'

rm -rf "$old"
for f in $files; do
	mkdir -p "$old/$(dirname "$f")"
	git -C "$REPO" show "$commit:$f" > "$old/$f" ||
		die "$commit:$f is not in this checkout's history"
done
make -s -C "$SRC/tools/testing/unwind_user/registry" OUTPUT="$USER_OUT" \
	OLD="$old" "$USER_OUT/registry-test-old" || die "build failed"

# All of them once, for the list and the whole log; then each alone, so
# that the sanitizers' reports on stderr are its own.
bin=$USER_OUT/registry-test-old
logs=$USER_OUT/registry-old
rm -rf "$logs"
mkdir -p "$logs"
"$bin" > "$logs/all.log" 2> "$logs/all.err"
mapfile -t tests < <(sed -n 's/^\(not \)\{0,1\}ok [0-9]* - //p' "$logs/all.log")
[ ${#tests[@]} -gt 0 ] || die "no test ran: $logs/all.log"

bad=0 counted=0 good=0
for t in "${tests[@]}"; do
	if [ -z "${WHY[$t]+set}" ]; then
		echo "FAIL  $t: no reason in this script's table for it to fail there"
		bad=$((bad + 1))
		continue
	fi
	"$bin" "$t" > "$logs/$t.log" 2> "$logs/$t.err"
	rc=$?
	# Its own lines: the test's messages and its sanitizers' reports,
	# less what the adapter's fixed values caused.
	grep -h -e '^# ' -e '^SUMMARY:' -e '^regtest:' "$logs/$t.log" "$logs/$t.err" |
		grep -v -e '^# registry:' -e '^# [0-9]* of [0-9]* failed' |
		grep -Ev -- "$STUB" > "$logs/$t.own"
	if [ -z "${REASON[$t]}" ]; then
		echo "--    $t: ${WHY[$t]} (exit $rc)"
		continue
	fi
	counted=$((counted + 1))
	hit=$(grep -Em1 -- "${REASON[$t]}" "$logs/$t.own")
	if [ $rc -eq 0 ]; then
		echo "FAIL  $t: passed; want: ${WHY[$t]}"
		bad=$((bad + 1))
	elif [ -z "$hit" ]; then
		echo "FAIL  $t: failed for another reason; want: ${WHY[$t]}"
		sed 's/^/        /' "$logs/$t.own" | head -n 5
		bad=$((bad + 1))
	else
		echo "ok    $t: ${WHY[$t]}"
		good=$((good + 1))
		echo "        ${hit#\# }"
	fi
done
for t in "${!WHY[@]}"; do
	printf '%s\n' "${tests[@]}" | grep -qx -- "$t" && continue
	echo "FAIL  $t: in this script's table, not in $bin"
	bad=$((bad + 1))
done
grep -hE '^(SUMMARY|regtest):' "$logs/all.err" | sed 's/0x[0-9a-f]*/ADDR/g' | sort | uniq -c
echo "(each test's output and sanitizer reports: $logs/TEST.log, TEST.err)"
echo "registry of $commit: $good of $counted counted tests failed for their reason; $bad problems"
[ "$bad" -eq 0 ] && [ "$good" -eq "$counted" ] && [ "$counted" -gt 0 ]
