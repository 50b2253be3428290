#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make glibc): the glibc patch (patches/glibc/) against
# the host's unpatched glibc, without LD_AUDIT, and with the kernel's own
# discovery of tables off (kernel.unwind_tables_discover=0, restored at
# exit): it would find the same tables, and hide what the patch does.
#
#   glibc-guest.sh LIBDIR PROGRAM DLCLOSE
#	LIBDIR	the patched ld-linux-x86-64.so.2 and libc.so.6 (harness/glibc.sh)
#	PROGRAM	harness/realbin/throw_deep.cc built -O2 -fomit-frame-pointer
#	DLCLOSE	harness/glibc-dlclose.c built
#
#  1. /proc/<pid>/unwind_tables of PROGRAM run by the patched ld.so lists
#     registrations (origin prctl) of the program, libc, libm, libstdc++ and
#     libgcc_s (mapped to their files through /proc/<pid>/maps); under the
#     host's ld.so it lists none of them (exec registers nothing).
#  2. DLCLOSE, run by the patched ld.so under strace, dlopen()s libz: one
#     registration covers its zlibVersion(), none after dlclose(), and
#     strace sees exactly one PR_UNREGISTER_EH_FRAME (83), which succeeds.
#  3. perf record -e cpu-clock:u --call-graph fp,defer of PROGRAM throwing
#     through 100 levels for 3 s: the patched ld.so as its interpreter, then
#     the host's ld.so run the same way, then PROGRAM exec'd as usual
#     (nothing registers anything): the share of samples whose chain
#     reaches main and _start, and where the others stop.
#
# Exits non-zero when the patched run's share reaching _start or main is
# below MIN_PCT (default 90), or when the tables are not listed.
set -euo pipefail
. "$(dirname "$0")/common.sh"

lib=$1
prog=$2
dlc=$3
min_pct=${MIN_PCT:-90}
hostdirs=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
hostld=/lib64/ld-linux-x86-64.so.2
tmp=$(mktemp -d)
discover=$(sysctl -n kernel.unwind_tables_discover)
trap 'sysctl -q -w kernel.unwind_tables_discover="$discover"; rm -rf "$tmp"' EXIT
sysctl -q -w kernel.unwind_tables_discover=0
cd "$tmp"
unset LD_AUDIT LD_PRELOAD LD_LIBRARY_PATH
fail=0

helper() { python3 "$HARNESS/realbin/realbin.py" "$@"; }

# The objects /proc/PID/unwind_tables lists registrations of (lines
# "START-END prctl FORMAT ..."): for each text range, the file
# /proc/PID/maps shows there.
listed() {	# PID
	local start end f

	while read -r range origin _; do
		[ "$origin" = prctl ] || continue
		start=$((16#${range%-*}))
		while read -r mrange _ _ _ _ f; do
			end=$((16#${mrange#*-}))
			if [ "$start" -ge $((16#${mrange%-*})) ] && [ "$start" -lt "$end" ]; then
				echo "${f:-(anonymous)}"
				break
			fi
		done < "/proc/$1/maps"
	done < "/proc/$1/unwind_tables"
}

# Start PROGRAM, wait until its libraries are loaded (libgcc_s is the
# last DT_NEEDED of the tree, registered right after it is mapped), list
# what is registered, stop it.
tables() {	# LABEL COMMAND...
	local label=$1 pid
	shift
	"$@" 60 10 > /dev/null &
	pid=$!
	for _ in $(seq 100); do
		grep -q libgcc_s "/proc/$pid/maps" 2>/dev/null && break
		sleep 0.1
	done
	# Loading is over once main runs; a TCG guest is slow, give it time.
	sleep 1
	echo "=== $label: /proc/$pid/unwind_tables"
	sed 's/^/    /' "/proc/$pid/unwind_tables"
	listed "$pid" | sort > "$tmp/listed.$label"
	kill "$pid"
	wait "$pid" || true
	echo "    text ranges in: $(xargs -n1 basename < "$tmp/listed.$label" | tr '\n' ' ')"
}

tables patched "$lib/ld-linux-x86-64.so.2" --library-path "$lib:$hostdirs" "$prog"
tables host "$hostld" --library-path "$hostdirs" "$prog"
# The files as /proc/PID/maps names them (symbolic links resolved).
hostlib() { readlink -f "/lib/x86_64-linux-gnu/$1"; }
for want in "$(readlink -f "$prog")" "$(readlink -f "$lib/libc.so.6")" \
	    "$(hostlib libm.so.6)" "$(hostlib libstdc++.so.6)" "$(hostlib libgcc_s.so.1)"; do
	if ! grep -qFx -- "$want" "$tmp/listed.patched"; then
		echo "FAIL: patched ld.so: no registration of $want"
		fail=1
	fi
done
for bad in "$(readlink -f "$prog")" "$(hostlib libc.so.6)" "$(hostlib libm.so.6)" \
	   "$(hostlib libstdc++.so.6)" "$(hostlib libgcc_s.so.1)"; do
	if grep -qFx -- "$bad" "$tmp/listed.host"; then
		echo "FAIL: host ld.so: $bad is registered, by whom?"
		fail=1
	fi
done

echo
echo "=== dlopen + dlclose of libz.so.1 under the patched ld.so"
if ! strace -f -e trace=prctl -o "$tmp/strace.txt" \
	"$lib/ld-linux-x86-64.so.2" --library-path "$lib:$hostdirs" \
	"$dlc" libz.so.1 zlibVersion > "$tmp/dlclose.txt"; then
	echo "FAIL: dlclose: registration not as expected"
	fail=1
fi
sed 's/^/    /' "$tmp/dlclose.txt"
grep 'prctl(0x5[23]' "$tmp/strace.txt" | sed 's/^/    strace: /'
unreg_ok=$(grep -c 'prctl(0x53.* = 0$' "$tmp/strace.txt" || true)
unreg_all=$(grep -c 'prctl(0x53' "$tmp/strace.txt" || true)
if [ "$unreg_ok" -ne 1 ] || [ "$unreg_all" -ne 1 ]; then
	echo "FAIL: dlclose: $unreg_all PR_UNREGISTER_EH_FRAME call(s), $unreg_ok succeeded (want 1 of 1)"
	fail=1
fi

# The chains are deeper than perf's default limit of 127 frames.
sysctl -q -w kernel.perf_event_max_stack=1024

profile() {	# LABEL COMMS COMMAND...
	local label=$1 comms=$2
	shift 2
	echo
	echo "=== $label"
	echo "\$ perf record -e cpu-clock:u -c 1000000 --call-graph fp,defer -- $* 3 100"
	perf record -q -e cpu-clock:u -c 1000000 --call-graph fp,defer \
		-o "$tmp/perf.data" -- "$@" 3 100 2>"$tmp/record.err" ||
		{ cat "$tmp/record.err"; die "perf record failed"; }
	perf script -i "$tmp/perf.data" -F comm,pid,tid,event,ip,sym,dso,dsoff \
		--no-inline --no-demangle --max-stack 1024 > "$tmp/script.txt" 2>/dev/null
	helper chains "$label" "$tmp/script.txt" "$comms" --main main | tee "$tmp/chains.$label"
}

# Run as a command, the comm is ld.so's file name (cut to 15 characters).
profile patched ld-linux-x86-64,throw_deep \
	"$lib/ld-linux-x86-64.so.2" --library-path "$lib:$hostdirs" "$prog"
profile host-ld.so-command ld-linux-x86-64,throw_deep \
	"$hostld" --library-path "$hostdirs" "$prog"
profile host-exec throw_deep "$prog"

echo
echo "=== summary (patched: the glibc patch's ld.so and libc; host: Debian's ld.so; no LD_AUDIT)"
for label in patched host-ld.so-command host-exec; do
	head -n1 "$tmp/chains.$label"
done
pct() {	# LABEL WHAT: the integer part of "N.N% reach WHAT"
	sed -n "1s/.* \([0-9]*\)\.[0-9]% reach $2,.*/\1/p" "$tmp/chains.$1"
}
n=$(sed -n '1s/^[^:]*: \([0-9]*\) samples.*/\1/p' "$tmp/chains.patched")
for what in main _start; do
	p=$(pct patched "$what")
	if [ -z "$p" ] || [ "${n:-0}" -lt 100 ] || [ "$p" -lt "$min_pct" ]; then
		echo "FAIL: patched: ${p:-?}% of ${n:-0} samples reach $what (want >= $min_pct% of >= 100)"
		fail=1
	fi
done
[ $fail -eq 0 ] && echo "PASS: glibc patch: chains reach main and _start (>= $min_pct%), tables listed, dlclose unregisters"
exit $fail
