#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Check with readelf that the programs of hard_cases.c have the CFI their
# tests are about; run by the Makefile on each program it builds, which it
# deletes if the check fails.
#
#   hard_check.sh drap PROG	drap_fn's FDE has a DW_CFA_def_cfa_expression
#				(DRAP) covering its probe point (.probe_drap)
#				and its call, and %rbp saved by an expression;
#				its caller drap_mid keeps its CFA in %rsp, and
#				c in %rbp
#   hard_check.sh tight PROG	d_tight's loop head (.probe_tight) starts a row
#   hard_check.sh plt PROG LIT	lazy binding (no BIND_NOW), one .rela.plt entry,
#				and the .plt FDE's CFA expression with
#				DW_OP_lit<LIT> (11: classic .plt, 9: IBT .plt
#				with .plt.sec)
set -eu

what=$1
prog=$2
fail() {
	echo "hard_check.sh: $prog: $*" >&2
	exit 1
}

# The address of function $1, in hex without 0x.
sym() {
	nm "$prog" | awk -v s="$1" '$3 == s && ($2 == "T" || $2 == "t") { print $1; exit }'
}

# The first 32-bit word of section $1, in decimal.
section_word() {
	tmp=$(mktemp)
	objcopy --dump-section "$1=$tmp" "$prog" /dev/null 2>/dev/null ||
		{ rm -f "$tmp"; fail "no section $1"; }
	od -An -td4 -N4 "$tmp" | tr -d ' '
	rm -f "$tmp"
}

# Hex string to number, in awk (mawk has no strtonum).
HEX='function hex(s,  i, n) {
	n = 0
	s = tolower(s)
	sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++)
		n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return n
}'

# readelf's decoded rows (frames-interp) of the FDE covering hex address $1:
# "LOC CFA ..." lines.
fde_rows() {
	readelf --debug-dump=frames-interp "$prog" | awk -v a="$1" "$HEX"'
		/ FDE / {
			split($0, f, "pc=")
			split(f[2], r, "\\.\\.")
			inside = hex(a) >= hex(r[1]) && hex(a) < hex(r[2])
			next
		}
		inside && /^[0-9a-f]+ / { print }
		/^$/ { inside = 0 }'
}

# The CFA rule of the row covering hex address $1 in the rows on stdin.
cfa_at() {
	awk -v a="$1" "$HEX"'
		hex($1) <= hex(a) { cfa = $2 } END { print cfa }'
}

# The raw CFI instructions of the FDE covering hex address $1.
fde_insns() {
	readelf --debug-dump=frames "$prog" | awk -v a="$1" "$HEX"'
		/ FDE / {
			split($0, f, "pc=")
			split(f[2], r, "\\.\\.")
			inside = hex(a) >= hex(r[1]) && hex(a) < hex(r[2])
			next
		}
		inside { print }
		/^$/ { inside = 0 }'
}

case $what in
drap)
	fn=$(sym drap_fn)
	[ -n "$fn" ] || fail "no drap_fn"
	probe=$(printf '%x' $((0x$fn + $(section_word .probe_drap))))
	insns=$(fde_insns "$fn")
	echo "$insns" | grep -q 'DW_CFA_def_cfa_expression (DW_OP_breg6 (rbp): -8; DW_OP_deref)' ||
		fail "drap_fn has no DRAP CFA expression" \
			"(DW_CFA_def_cfa_expression); the compiler made:
$insns"
	echo "$insns" | grep -q 'DW_CFA_expression: r6 (rbp)' ||
		fail "drap_fn saves no %rbp with DW_CFA_expression"
	rows=$(fde_rows "$fn")
	[ "$(echo "$rows" | cfa_at "$probe")" = exp ] ||
		fail "drap_fn's probe point $probe is not under the CFA expression:
$rows"
	# The return address of the call to drap_leaf, one byte back.
	call=$(objdump -d --no-show-raw-insn "$prog" |
	       awk '/<drap_fn>:/ { f = 1 } f && /call.*<drap_leaf>/ { print $1; exit }')
	[ -n "$call" ] || fail "drap_fn does not call drap_leaf"
	[ "$(echo "$rows" | cfa_at "${call%:}")" = exp ] ||
		fail "drap_fn's call to drap_leaf is not under the CFA expression"
	c=$(sym c)
	fde_rows "$c" | grep -q ' rbp+16 ' || fail "c does not keep its CFA in %rbp"
	mid=$(sym drap_mid)
	[ -n "$mid" ] || fail "no drap_mid"
	fde_rows "$mid" | awk '$2 ~ /^rsp\+/ && $2 != "rsp+8" { ok = 1 }
		$2 !~ /^rsp\+/ { bad = 1 } END { exit !(ok && !bad) }' ||
		fail "drap_mid does not keep its CFA in %rsp, with a frame of its own"
	;;
tight)
	fn=$(sym d_tight)
	[ -n "$fn" ] || fail "no d_tight"
	head=$(printf '%x' $((0x$fn + $(section_word .probe_tight))))
	fde_rows "$fn" | awk -v a="$head" "$HEX"'
		hex($1) == hex(a) && $2 == "rsp+16" { ok = 1 } END { exit !ok }' ||
		fail "d_tight's loop head $head does not start a row with CFA rsp+16"
	;;
plt)
	lit=$3
	readelf -dW "$prog" | grep -Eq 'BIND_NOW|FLAGS.*NOW' && fail "not lazily bound"
	n=$(readelf -rW "$prog" | awk '/^Relocation section .\.rela\.plt/ { f = 1; next }
		/^Relocation section/ { f = 0 } f && /JUMP_SLOT/ { n++ } END { print n + 0 }')
	[ "$n" = 1 ] || fail "$n .rela.plt entries, not 1"
	expr="DW_OP_breg7 (rsp): 8; DW_OP_breg16 (rip): 0; DW_OP_lit15; DW_OP_and;"
	expr="$expr DW_OP_lit$lit; DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus"
	readelf --debug-dump=frames "$prog" |
		grep -qF "DW_CFA_def_cfa_expression ($expr)" ||
		fail "no .plt CFA expression with DW_OP_lit$lit in .eh_frame"
	if [ "$lit" = 9 ]; then
		readelf -SW "$prog" | grep -q ' \.plt\.sec ' || fail "no .plt.sec"
	else
		readelf -SW "$prog" | grep -q ' \.plt\.sec ' && fail "a .plt.sec"
	fi
	;;
*)
	fail "unknown check $what"
	;;
esac
exit 0
