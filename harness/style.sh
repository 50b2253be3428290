#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
#   style.sh checkpatch	checkpatch.pl --strict over the series as
#			format-patch writes it, and every C file and header
#			of the overlay
#   style.sh sparse	sparse (C=2) and W=1 over every C file the series
#			adds or changes that the kernel build compiles
# Any finding fails.
set -euo pipefail
. "$(dirname "$0")/common.sh"

# User-space test code under tools/ cannot use the kernel's helpers
# (__noinline, ARRAY_SIZE), names libc's types (Elf64_Ehdr), uses volatile
# on purpose to keep the optimizer from deleting workloads, and has shims
# that mirror kernel macros and types (unsafe_get_user() jumps to its label)
# and test macros taking constant arguments; its shims include the tools/
# headers, not <linux/...> ones.
TOOLS_IGNORE=INCLUDE_LINUX,CAMELCASE,PREFER_DEFINED_ATTRIBUTE_MACRO,VOLATILE,ARRAY_SIZE,STATIC_CONST_CHAR_ARRAY,MACRO_ARG_REUSE,COMPLEX_MACRO,NEW_TYPEDEFS,MACRO_WITH_FLOW_CONTROL

cd "$SRC"
case "${1:-}" in
checkpatch)
	bad=0
	# checkpatch's SPDX check (scripts/spdxcheck.py) needs the system
	# python3 with python3-ply and python3-git, not another python3
	# earlier in PATH; without them it prints a traceback and checks
	# nothing.
	export PATH=/usr/bin:$PATH
	# The series as a maintainer receives it (make series): each patch
	# with the new files it adds.  Patches only of user-space code
	# under tools/ are held to what the files are below.
	fmt=$(mktemp -d)
	trap 'rm -rf "$fmt"' EXIT
	"$HARNESS/series.py" format "$SRC" HEAD "$fmt" >/dev/null
	# FILE_PATH_CHANGES: the new files are under kernel/unwind/ and
	# include/linux/unwind*.h, which MAINTAINERS has, or are added to it
	# by the series' last patch.
	export TOOLS_IGNORE
	npatches=$(ls "$fmt" | grep -vc '^0000-cover-letter' || true)
	ls "$fmt"/*.patch | grep -v '/0000-cover-letter' |
	xargs -P "$(nproc)" -n 1 sh -c '
		ignore=FILE_PATH_CHANGES
		grep "^diff --git a/" "$1" | grep -qv "^diff --git a/tools/" ||
			ignore=$ignore,$TOOLS_IGNORE
		out=$(scripts/checkpatch.pl --strict --quiet --no-summary \
			--ignore "$ignore" "$1" 2>&1) && exit 0
		printf "%s\ncheckpatch: in %s\n" "$out" "${1##*/}"
		exit 1' sh || bad=1
	files=$(cd "$REPO" && git ls-files --cached --others --exclude-standard -- $OVERLAY_DIRS |
		grep -E '\.[ch]$' || true)
	for f in $files; do
		[ -f "$REPO/$f" ] || continue
		ignore=
		case "$f" in
		tools/*) ignore=$TOOLS_IGNORE ;;
		esac
		if ! scripts/checkpatch.pl --strict --quiet --no-summary --no-tree \
			${ignore:+--ignore $ignore} -f "$REPO/$f"; then
			bad=1
		fi
	done
	echo "checkpatch: $(echo "$files" | grep -c . || true) files, $npatches patches"
	exit $bad
	;;
sparse)
	export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
	objs=()
	for f in $(git diff --name-only --diff-filter=AM pristine HEAD -- '*.c'); do
		o=${f%.c}.o
		[ -f "$KBUILD/$o" ] && objs+=("$o")
	done
	[ ${#objs[@]} -gt 0 ] || { echo "sparse: no C files of the series are built"; exit 0; }
	sparse=$("$HARNESS/sparse-tool.sh")
	# The same compiler and flags as kernel.sh (ARCH=s390: the s390x build).
	mk=(make -s -C "$SRC" O="$KBUILD" CC="ccache ${CROSS}gcc")
	[ -n "$CROSS" ] && mk+=(ARCH="$KARCH" CROSS_COMPILE="$CROSS")
	out=$("${mk[@]}" C=2 W=1 CHECK="$sparse" "${objs[@]}" 2>&1) || {
		echo "$out"; exit 1; }
	# Rebuild the objects with the normal flags, so that the next kernel
	# build does not see them as stale (kbuild tracks the command line).
	"${mk[@]}" "${objs[@]}" >/dev/null 2>&1 || true
	# A sparse the kernel turned down would check nothing, and say so.
	if echo "$out" | grep -q 'sparse is not available'; then
		echo "$out"
		exit 1
	fi
	# Findings in upstream code the series did not touch are not its own.
	if ! echo "$out" | "$HARNESS/series-warnings.py" "$SRC"; then
		exit 1
	fi
	echo "sparse ($("$sparse" --version)) + W=1: ${objs[*]}: clean of the series' own findings"
	;;
*)
	echo "usage: $0 checkpatch|sparse" >&2
	exit 2
	;;
esac
