#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make wine-loader), after pe_wine, with Wine's ntdll.so
# built with patches/wine in place: a Windows program nobody here wrote,
# Wine's own cmd.exe running a batch loop, sampled with
#
#   perf record -e cpu-clock:u --call-graph fp,defer -- wine64 cmd /c loop.bat
#
# Nothing registers anything but Wine's loader.  Prints, for the samples of
# the cmd.exe process, the share whose chain reaches ntdll's
# RtlUserThreadStart (the thread start of every Windows thread), on the
# PE side (the sample's pc in a .exe or .dll) and on the unix side; perf
# names the PE frames from the images' own symbol tables.  A figure, not a
# test: samples of the process's start-up (Wine's loader in ntdll's
# LdrInitializeThunk, which has no caller, or Wine's unix side before any
# Windows code) have no thread start to reach; the rest are counted by that.
#
#   wine-builtin-guest.sh WINE64 ITERATIONS
set -euo pipefail
. "$(dirname "$0")/common.sh"

wine=$1
n=${2:-1500}
export PATH=$PERF_OUT:$PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf '@echo off\r\nset /a i=0\r\n:loop\r\nset /a i+=1\r\nif %%i%% lss %s goto loop\r\necho done %%i%%\r\n' \
	"$n" > "$tmp/loop.bat"
echo "\$ perf record -e cpu-clock:u -c 1000000 --call-graph fp,defer -- wine64 cmd /c loop.bat   ($n iterations)"
start=$(date +%s)
perf record -q -e cpu-clock:u -c 1000000 --call-graph fp,defer -o "$tmp/perf.data" -- \
	"$wine" cmd /c "$tmp/loop.bat" 2>/dev/null
echo "ran $(($(date +%s) - start)) s"
perf script -i "$tmp/perf.data" --comm cmd.exe -F ip,sym,dso 2>/dev/null > "$tmp/script.txt"

# One sample a paragraph; its first line is its pc.
awk 'BEGIN { RS = "" }
	{
		pe = $0 ~ /^[^\n]*\.(exe|dll)\)/
		ok = / RtlUserThreadStart/
		n[pe]++; r[pe] += ok
		if (!pe && ok && !shown) { sample = $0; shown = 1 }
	}
	END {
		t = n[0] + n[1]; rt = r[0] + r[1]
		printf "cmd.exe: %d samples, %d reach RtlUserThreadStart (%.1f%%)\n", t, rt,
		       t ? 100 * rt / t : 0
		printf "  PE side:   %d samples, %d reach it (%.1f%%)\n", n[1], r[1],
		       n[1] ? 100 * r[1] / n[1] : 0
		printf "  unix side: %d samples, %d reach it (%.1f%%)\n", n[0], r[0],
		       n[0] ? 100 * r[0] / n[0] : 0
		if (shown)
			printf "a unix-side sample that does:\n%s\n", sample
	}' "$tmp/script.txt"
# The rest, by what they pass: ntdll's LdrInitializeThunk (Wine's loader
# setting the process up: it has no caller) or Wine's unix start-up.
echo "those that do not reach it:"
awk 'BEGIN { RS = "" } !/ RtlUserThreadStart/ {
		if (/ LdrInitializeThunk /) l++; else if (/ __wine_main /) m++; else o++
	}
	END { printf "  %6d under LdrInitializeThunk (the process start-up)\n", l
	      printf "  %6d under __wine_main (before any Windows code)\n", m
	      printf "  %6d elsewhere\n", o }' "$tmp/script.txt"
awk 'BEGIN { RS = "" } !/ RtlUserThreadStart/ && !/ LdrInitializeThunk / && !/ __wine_main / &&
	k++ < 2 { print "one elsewhere:"; print }' "$tmp/script.txt"
echo "where the samples are (their pc's object):"
awk 'BEGIN { RS = "" } { split($0, l, "\n"); d = l[1]; sub(/.*\(/, "", d); sub(/\)$/, "", d);
	sub(/.*\//, "", d); c[d]++ } END { for (d in c) printf "  %6d %s\n", c[d], d }' \
	"$tmp/script.txt" | sort -rn | head -n 12
