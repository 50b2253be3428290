#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make demo-wine): perf record --call-graph fp,defer on
# a Windows program under Wine (pe_wine_prog-anon.exe, mingw's default
# link, spinning in main -> pe_w_a -> pe_w_b -> pe_w_c -> pe_w_spin,
# partly in kernel32),
# which registered its image and Wine's modules with the kernel; then
# pe_perf_map names the PE functions for perf, from the images' own symbol
# tables and exports: perf report reads /tmp/perf-PID.map for the
# program's code (which Wine copies to anonymous memory), and perf script's
# output goes through pe_perf_map --script for Wine's DLLs (which Wine maps
# from their files, where perf looks for ELF symbols in vain).
set -euo pipefail
. "$(dirname "$0")/common.sh"

wine=$1
st=$SELFTESTS_OUT/install/unwind_user
tmp=$(mktemp -d)
comm=pe_wine_prog-an	# the first 15 characters of the program's name

echo "kernel: $(uname -r); $("$wine" --version 2>/dev/null || echo wine64)"
echo "\$ perf record -e cpu-clock:u -c 1000000 --call-graph fp,defer -- wine64 pe_wine_prog-anon.exe OUT spin 3000"
perf record -q -e cpu-clock:u -c 1000000 --call-graph fp,defer -o "$tmp/perf.data" -- \
	"$wine" "$st/pe_wine_prog-anon.exe" "$tmp/out" spin 3000 2>/dev/null &
rec=$!
pid=
for _ in $(seq 1 200); do
	pid=$(pgrep -x "$comm" || true)
	[ -n "$pid" ] && grep -q ' pe$' "/proc/$pid/unwind_tables" 2>/dev/null && break
	sleep 0.1
done
[ -n "$pid" ] || die "$comm did not start"
sleep 0.5
echo "\$ cat /proc/$pid/unwind_tables    (the PE images it registered)"
grep ' pe$' "/proc/$pid/unwind_tables" | head -n 8
echo "\$ pe_perf_map $pid"
"$st/pe_perf_map" "$pid"
wait "$rec" || die "perf record failed"

echo
echo "\$ perf report --stdio --no-children -G --sort sym    (the program's functions, from /tmp/perf-$pid.map)"
perf report -i "$tmp/perf.data" --stdio --no-children -G --sort sym \
	--percent-limit 10 2>&1 | grep -v '^#' | grep -v '^$' | head -n 30
echo
echo "\$ perf script -F ip,sym,dso | pe_perf_map --script /tmp/perf-$pid.map   (a sample in Wine's code, one in pe_w_spin)"
perf script -i "$tmp/perf.data" --comm "$comm" -F ip,sym,dso 2>/dev/null |
	"$st/pe_perf_map" --script "/tmp/perf-$pid.map" > "$tmp/script.txt"
awk 'BEGIN { RS = "" } $3 !~ /perf-/ && / pe_w_spin/ && !k { print; print ""; k = 1 }
     $2 ~ /^pe_w_spin/ && !s { print; print ""; s = 1 } k && s { exit }' "$tmp/script.txt"
echo "where the samples are (their topmost frame's object):"
awk 'BEGIN { RS = "" } / pe_w_spin/ { d = $3; sub(/.*\//, "", d); sub(/\)$/, "", d); n[d]++ }
     END { for (d in n) printf "  %6d %s\n", n[d], d }' "$tmp/script.txt" | sort -rn
samples=$(awk 'BEGIN { RS = "" } / pe_w_spin/ { n++ } END { print n + 0 }' "$tmp/script.txt")
complete=$(awk 'BEGIN { RS = "" } / pe_w_spin/ && / main/ && /RtlUserThreadStart/ { n++ }
		END { print n + 0 }' "$tmp/script.txt")
echo
echo "samples through pe_w_spin: $samples, reaching main and ntdll's RtlUserThreadStart: $complete"
rm -rf "$tmp"
