#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Check with readelf that s390_workload has the CFI that s390_cases.c is
# about; run by the Makefile, which deletes the program if this fails:
#   - leaf and leaf_until keep r11 in a floating-point register (DWARF
#     16-31) and never save r14, whose rule stays "unchanged";
#   - c, b and a compute their CFA from r11 once their frame is set up.
#
#   s390_check.sh READELF NM PROG
set -eu

readelf=$1
nm=$2
prog=$3
fail() {
	echo "s390_check.sh: $prog: $*" >&2
	exit 1
}

# The raw CFI instructions of the FDE that starts at function $1.
fde_insns() {
	addr=$($nm "$prog" | awk -v s="$1" '$3 == s && ($2 == "T" || $2 == "t") { print $1; exit }')
	[ -n "$addr" ] || fail "no function $1"
	$readelf --debug-dump=frames "$prog" | awk -v a="$addr" '
		/ FDE / { split($0, f, "pc="); split(f[2], r, "\\.\\.");
			  inside = r[1] == a; next }
		inside { print }
		/^$/ { inside = 0 }'
}

for fn in leaf leaf_until; do
	insns=$(fde_insns $fn)
	[ -n "$insns" ] || fail "no FDE for $fn"
	echo "$insns" | grep -Eq 'DW_CFA_register: r11 in r(1[6-9]|2[0-9]|3[01]) \(f[0-9]+\)' ||
		fail "$fn does not keep r11 in a floating-point register:
$insns"
	echo "$insns" | grep -Eq 'r14' && fail "$fn has a rule for r14:
$insns"
done
for fn in a b c; do
	fde_insns $fn | grep -q 'DW_CFA_def_cfa_register: r11' ||
		fail "$fn does not compute its CFA from r11"
done
exit 0
