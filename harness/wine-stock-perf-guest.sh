#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make wine-stock), after pe_stock: perf as a user runs
# it, on a Windows program under Wine as Debian ships it, registering
# nothing, whose sections Wine copied into anonymous memory
# (pe_wine_prog-anon.exe, mingw's default 512-byte file alignment).  The
# kernel finds the image; perf must name its frames with no step by hand
# (the series' perf maps patch maps such a section to the image's file
# through the mapping of the image's headers).  Two runs, spinning in
# main -> pe_w_a -> pe_w_b -> pe_w_c -> pe_w_spin: perf starting the
# program, and perf attached to it (-p), which synthesizes the mappings.
# Of the samples whose chain names pe_w_spin, at least 95% must name
# pe_w_c, pe_w_b, pe_w_a and main in the program's file too, and there
# must be at least 100 of them: a perf that cannot name the frames of a
# copied image names none.  Prints TAP; the exit status says whether all
# passed.
#
#   wine-stock-perf-guest.sh WINE DIR	DIR holds pe_wine_prog-anon.exe
set -u
. "$(dirname "$0")/common.sh"

wine=$1 prog=$2/pe_wine_prog-anon.exe
export PATH=$PERF_OUT:$PATH
comm=pe_wine_prog-an	# the first 15 characters of the program's name
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tests=0 failed=0

# chains PERF.DATA: "SPIN WHOLE ALL", samples naming pe_w_spin, those of
# them naming the whole path in the program's file, and all samples.
chains() {
	perf script -i "$1" --comm "$comm" -F ip,sym,dso 2>/dev/null |
		awk 'BEGIN { RS = ""; f = "\\([^)]*pe_wine_prog-anon\\.exe\\)" }
		     { all++ }
		     $0 ~ " pe_w_spin " f {
			spin++
			if ($0 ~ " pe_w_c " f && $0 ~ " pe_w_b " f &&
			    $0 ~ " pe_w_a " f && $0 ~ " main " f)
				whole++
		     }
		     END { print spin + 0, whole + 0, all + 0 }'
}

check() {	# WHAT PERF.DATA
	local spin whole all

	read -r spin whole all < <(chains "$2")
	tests=$((tests + 1))
	if [ "$spin" -ge 100 ] && [ $((whole * 100)) -ge $((spin * 95)) ]; then
		echo "ok $tests - perf names the frames of an image Wine copied, $1:" \
		     "$whole of $spin samples in pe_w_spin name its whole path ($all samples)"
	else
		echo "not ok $tests - perf names the frames of an image Wine copied, $1:" \
		     "$whole of $spin samples in pe_w_spin name its whole path ($all samples)"
		failed=$((failed + 1))
	fi
}

echo "TAP version 13"
echo "1..2"
perf record -q -e cpu-clock:u -c 1000000 --call-graph fp,defer -o "$tmp/new.data" -- \
	"$wine" "$prog" "$tmp/new.out" spin-loader 3000 >/dev/null 2>&1
check "perf record of a new process" "$tmp/new.data"

# Attached: once the program has said its pid, for three seconds of the
# ten it spins.
"$wine" "$prog" "$tmp/attach.out" spin-loader 10000 >/dev/null 2>&1 &
launcher=$!
pid=
for _ in $(seq 600); do
	pid=$(awk '$1 == "pid" { print $2 }' "$tmp/attach.out" 2>/dev/null)
	[ -n "$pid" ] && break
	sleep 0.1
done
if [ -n "$pid" ]; then
	perf record -q -e cpu-clock:u -c 1000000 --call-graph fp,defer -o "$tmp/attach.data" \
		-p "$pid" -- sleep 3 >/dev/null 2>&1
fi
wait "$launcher"
check "perf record -p" "$tmp/attach.data"
[ "$failed" = 0 ]
