#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make demo-wine), with Wine's ntdll.so built with
# patches/wine in place: perf record --call-graph fp,defer on a Windows
# program under Wine (pe_wine_prog.exe, spinning in main -> pe_w_a ->
# pe_w_b -> pe_w_c -> pe_w_spin, partly in kernelbase and partly on
# Wine's unix side), which registers nothing itself: Wine's loader
# registered every image it mapped.  No other step: perf names the PE
# functions from the images' own symbol tables and exports (Wine maps the
# program, linked with 4096-byte file alignment, and its own DLLs from their
# files).
set -euo pipefail
. "$(dirname "$0")/common.sh"

wine=$1
st=$SELFTESTS_OUT/install/unwind_user
export PATH=$PERF_OUT:$PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
comm=pe_wine_prog.ex	# the first 15 characters of the program's name

echo "kernel: $(uname -r); $("$wine" --version 2>/dev/null || echo wine64) with patches/wine"
echo "\$ perf record -e cpu-clock:u -c 1000000 --call-graph fp,defer -- wine64 pe_wine_prog.exe OUT spin-loader 3000"
perf record -q -e cpu-clock:u -c 1000000 --call-graph fp,defer -o "$tmp/perf.data" -- \
	"$wine" "$st/pe_wine_prog.exe" "$tmp/out" spin-loader 3000 2>/dev/null

echo
echo "\$ perf report --stdio --no-children -G --sort sym --comm $comm"
perf report -i "$tmp/perf.data" --stdio --no-children -G --sort sym --comm "$comm" \
	--percent-limit 10 2>&1 | grep -v '^#' | grep -v '^$' | head -n 30
echo
echo "\$ perf script -F ip,sym,dso --comm $comm   (one in pe_w_spin, one on Wine's unix side)"
perf script -i "$tmp/perf.data" --comm "$comm" -F ip,sym,dso 2>/dev/null > "$tmp/script.txt"
awk 'BEGIN { RS = "" } { split($0, l, "\n") }
     l[1] !~ /\.(exe|dll)\)/ && / pe_w_spin/ && !u { print; print ""; u = 1 }
     l[1] ~ / pe_w_spin/ && !s { print; print ""; s = 1 } u && s { exit }' "$tmp/script.txt"
echo "where the samples are (their topmost frame's object):"
awk 'BEGIN { RS = "" } / pe_w_spin/ { split($0, l, "\n"); d = l[1]; sub(/.*\(/, "", d);
	sub(/\)$/, "", d); sub(/.*\//, "", d); n[d]++ }
     END { for (d in n) printf "  %6d %s\n", n[d], d }' "$tmp/script.txt" | sort -rn
samples=$(awk 'BEGIN { RS = "" } / pe_w_spin/ { n++ } END { print n + 0 }' "$tmp/script.txt")
complete=$(awk 'BEGIN { RS = "" } / pe_w_spin/ && / main/ && / RtlUserThreadStart/ { n++ }
		END { print n + 0 }' "$tmp/script.txt")
named=$(awk 'BEGIN { RS = "" } / pe_w_spin/ { n++; if ($0 !~ /\[unknown\] \([^)]*\.(exe|dll)\)/) k++ }
		END { print k + 0 }' "$tmp/script.txt")
echo
echo "samples through pe_w_spin: $samples, reaching main and ntdll's RtlUserThreadStart: $complete"
echo "  with every PE frame named: $named"
