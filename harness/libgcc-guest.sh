#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (make libgcc): the libgcc patch (patches/libgcc/)
# against the same libgcc without it, with no LD_AUDIT.
#
#   libgcc-guest.sh PLAIN PATCHED
#	PLAIN, PATCHED	libgcc_s.so.1 of GCC 14 as released, and with the patch
#			(harness/libgcc.sh)
#
# The program is the selftests' discover_workload in its "jit" mode: two
# functions written at run time into anonymous memory, without frame
# pointers, whose .eh_frame it gives to libgcc with __register_frame() and
# nothing else, then takes back with __deregister_frame() before it exits;
# it checks first that libgcc's own unwinder gets through them to main.
# For each libgcc_s (LD_LIBRARY_PATH):
#  1. strace: the prctl calls the program makes, PR_REGISTER_EH_FRAME (82)
#     and PR_UNREGISTER_EH_FRAME (83), and what they return;
#  2. perf record -e cpu-clock:u -c 1000000 --call-graph fp,defer of the
#     program spinning 2 s in jit_leaf, called by the JIT's two functions:
#     how many samples in jit_leaf have a chain that reaches main, and the
#     registrations its /proc/self/unwind_tables lists (printed by the
#     program before it deregisters).
#
# Exits non-zero unless, with the patch, one registration and one
# unregistration succeed, the table is listed over the JIT's code, and
# every chain from jit_leaf (at least 100) reaches main; and, without it,
# the program makes no such call and no chain from jit_leaf reaches main
# (the control: the test sees the difference the patch makes).
set -euo pipefail
. "$(dirname "$0")/common.sh"

plain=$1
patched=$2
prog=$CACHE/build/selftests/install/unwind_user/discover_workload
min_samples=${MIN_SAMPLES:-100}
[ -x "$prog" ] || die "no $prog (make selftests)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset LD_AUDIT LD_PRELOAD
fail=0

# The JIT's chains are short; the program's CPU share must not be cut.
cpu_max=$(sysctl -n kernel.unwind_user_cpu_time_max_percent)
trap 'sysctl -q -w kernel.unwind_user_cpu_time_max_percent=$cpu_max; rm -rf "$tmp"' EXIT
sysctl -q -w kernel.unwind_user_cpu_time_max_percent=100

# Of the samples whose first frame is jit_leaf, those whose chain reaches
# main: "LEAF WHOLE".
count() {	# SCRIPT
	awk '
	/^[^ \t]/ { first = 1; next }
	NF == 0 { if (inleaf) { leaf++; whole += seen } inleaf = 0; seen = 0; next }
	{
		if (first) { inleaf = ($2 ~ /^jit_leaf/); first = 0 }
		if ($2 == "main") seen = 1
	}
	END { if (inleaf) { leaf++; whole += seen } printf "%d %d\n", leaf, whole }
	' "$1"
}

run() {	# LABEL LIBGCC_S
	local label=$1 dir=$tmp/$1 calls reg unreg regok unregok leaf whole listed

	mkdir -p "$dir"
	cp "$2" "$dir/libgcc_s.so.1"
	echo "=== $label: $2"
	# 1. The calls.
	printf go | LD_LIBRARY_PATH=$dir strace -f -e trace=prctl -o "$dir/strace.txt" \
		"$prog" jit 200 > "$dir/strace-out.txt" ||
		{ echo "FAIL: $label: the program failed under strace"; fail=1; }
	calls=$(grep -E 'prctl\(0x5[23][^0-9a-f]' "$dir/strace.txt" || true)
	[ -n "$calls" ] && sed 's/^[0-9]* */    strace: /' <<< "$calls"
	reg=$(grep -c 'prctl(0x52[^0-9a-f]' "$dir/strace.txt" || true)
	unreg=$(grep -c 'prctl(0x53[^0-9a-f]' "$dir/strace.txt" || true)
	regok=$(grep -c 'prctl(0x52[^0-9a-f].* = 0$' "$dir/strace.txt" || true)
	unregok=$(grep -c 'prctl(0x53[^0-9a-f].* = 0$' "$dir/strace.txt" || true)
	echo "    PR_REGISTER_EH_FRAME: $regok of $reg succeeded;" \
	     "PR_UNREGISTER_EH_FRAME: $unregok of $unreg"

	# 2. The chains.
	printf go | LD_LIBRARY_PATH=$dir perf record -q -e cpu-clock:u -c 1000000 \
		--call-graph fp,defer -o "$dir/perf.data" -- "$prog" jit 2000 \
		> "$dir/out.txt" 2> "$dir/record.err" ||
		{ cat "$dir/record.err"; echo "FAIL: $label: perf record failed"; fail=1; }
	perf script -i "$dir/perf.data" -F comm,tid,ip,sym,dso --no-inline \
		> "$dir/script.txt" 2> /dev/null
	read -r leaf whole < <(count "$dir/script.txt")
	listed=$(sed -n '/^== tables/,$p' "$dir/out.txt" | grep -c ' prctl eh_frame ' || true)
	echo "    samples in jit_leaf: $leaf, chains reaching main: $whole"
	echo "    registrations of a bare .eh_frame listed by the program: $listed"
	sed -n '/^== tables/,$p' "$dir/out.txt" | sed 's/^/    /'
	# A chain from jit_leaf: the JIT's two frames are [unknown] (no symbols).
	awk '/^[^ \t]/ { hdr = $0; first = 1; next }
	     first { first = 0; show = ($2 ~ /^jit_leaf/); if (show) print hdr }
	     NF == 0 { if (show) exit }
	     show' "$dir/script.txt" | sed 's/^/    e.g. /'

	if [ "$label" = patched ]; then
		[ "$reg" -eq 1 ] && [ "$regok" -eq 1 ] && [ "$unreg" -eq 1 ] &&
			[ "$unregok" -eq 1 ] ||
			{ echo "FAIL: patched: want 1 of 1 registration and 1 of 1" \
			       "unregistration"; fail=1; }
		[ "$listed" -eq 1 ] ||
			{ echo "FAIL: patched: $listed registrations listed, want 1"; fail=1; }
		[ "$leaf" -ge "$min_samples" ] && [ "$whole" -eq "$leaf" ] ||
			{ echo "FAIL: patched: $whole of $leaf chains reach main" \
			       "(want all of >= $min_samples)"; fail=1; }
	else
		[ "$reg" -eq 0 ] && [ "$unreg" -eq 0 ] && [ "$listed" -eq 0 ] ||
			{ echo "FAIL: plain: the program registered something"; fail=1; }
		[ "$leaf" -ge "$min_samples" ] && [ "$whole" -eq 0 ] ||
			{ echo "FAIL: plain: $whole of $leaf chains reach main" \
			       "(want none of >= $min_samples: the control)"; fail=1; }
	fi
	echo "$label: $leaf samples in jit_leaf, $whole reach main;" \
	     "prctl 82: $regok/$reg ok, 83: $unregok/$unreg ok" >> "$tmp/summary"
}

run plain "$plain"
run patched "$patched"
echo
echo "=== summary (GCC 14's libgcc_s, as released and with patches/libgcc/; no LD_AUDIT)"
cat "$tmp/summary"
[ $fail -eq 0 ] && echo "PASS: libgcc patch: the JIT's table reaches the kernel, chains reach main"
exit $fail
