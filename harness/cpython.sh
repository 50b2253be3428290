#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make cpython: build Python 3.13 twice, as released by Debian trixie, without
# frame pointers: as it is, and with patches/cpython/*.patch (the perf
# trampolines' unwind table registered with the kernel); then compare their
# perf support in the guest (harness/cpython-guest.sh).
#
# The source comes through a private apt state (fetch-src.sh; dpkg-source
# applies Debian's own patches).  Each build is configured out of tree with
# CFLAGS=-fomit-frame-pointer (configure's -O3 stays); the unpatched one
# makes the interpreter only (`make python`: no shared extension modules,
# which the workload does not import), the patched one everything, for
# CPython's own tests of its perf support.  The patched build sees the kernel's uapi
# headers (make headers_install of the assembled tree), as a distribution
# whose kernel headers carry the prctl would: its configure finds
# PR_REGISTER_EH_FRAME there.  Builds are cached in $CACHE/build/cpython/<key>,
# the key a hash of the source version, the patches' diffs, the options,
# the kernel's uapi prctl.h and the compiler; compiles run niced under the
# machine's build lock, as kernel builds do.  Prints each build's time (or
# that it was cached) and the guest's figures; exits non-zero when a build
# fails or a figure is off (see cpython-guest.sh).
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ "$UU_ARCH" = x86_64 ] || die "make cpython: x86-64 only"

src=$("$HARNESS/fetch-src.sh" python3.13 trixie)
case $(basename "$src") in
python3.13-3.13.*) ;;
*) die "expected Python 3.13 in trixie, got $(basename "$src")" ;;
esac
patches=("$REPO"/patches/cpython/*.patch)
[ -f "${patches[0]}" ] || die "no patches in $REPO/patches/cpython"
[ -f "$SRC/include/uapi/linux/prctl.h" ] || "$HARNESS/tree.sh" >&2
cflags=-fomit-frame-pointer

# A key per build: the hash of what it depends on.
key() {	# VARIANT
	{
		basename "$src"
		echo "$1 $cflags"
		gcc --version | sed -n 1p
		ld --version | sed -n 1p
		if [ "$1" = patched ]; then
			# What the patches change, not their messages.
			sed -s -n '/^diff --git /,$p' "${patches[@]}"
			cat "$SRC/include/uapi/linux/prctl.h"
		fi
	} | sha256sum | cut -c1-16
}
top=$CACHE/build/cpython

# build VARIANT: $top/VARIANT-KEY/obj/python.  The patched one is built
# whole (extension modules too), so that CPython's own test of the patch can
# run (it starts subprocesses).
build() {
	local variant=$1 dir=$top/$1-$(key "$1") cppflags= goal=python
	local -a apply=()

	[ -f "$dir/built" ] && { log "cpython: $variant: cached ($(cat "$dir/built"))"; return; }
	rm -rf "$dir"
	mkdir -p "$dir/obj"
	cp -a "$src" "$dir/src"
	if [ "$variant" = patched ]; then
		apply=("${patches[@]}")
		make -s -C "$SRC" O="$dir/kobj" ARCH=x86 \
			INSTALL_HDR_PATH="$dir/kheaders" headers_install > "$dir/headers.log" 2>&1 ||
			{ tail -n 20 "$dir/headers.log" >&2; die "headers_install failed"; }
		cppflags=-I$dir/kheaders/include
		goal=all
	fi
	for p in "${apply[@]}"; do
		log "cpython: applying $(basename "$p")"
		patch -d "$dir/src" -p1 -s --no-backup-if-mismatch < "$p"
	done
	log "cpython: building $variant in $dir"
	t0=$(date +%s)
	flock "${TMPDIR:-/tmp}/unwind-user-build.lock" bash -c '
		set -euo pipefail
		dir=$1 cflags=$2 cppflags=$3 goal=$4
		t1=$(date +%s)
		cd "$dir/obj"
		nice -n 5 "$dir/src/configure" CFLAGS="$cflags" CPPFLAGS="$cppflags" \
			> "$dir/configure.log" 2>&1 ||
			{ tail -n 30 "$dir/configure.log" >&2; exit 1; }
		nice -n 5 make -j"$(nproc)" "$goal" > "$dir/make.log" 2>&1 ||
			{ grep -E "error|Error" "$dir/make.log" | tail -n 30 >&2; exit 1; }
		echo $(( $(date +%s) - t1 )) > "$dir/compile-seconds"
	' _ "$dir" "$cflags" "$cppflags" "$goal" || die "cpython $variant build failed (logs in $dir)"
	t2=$(date +%s)
	rm -rf "$dir/src/.git"
	echo "configure + make $goal: $(cat "$dir/compile-seconds") s," \
	     "waiting for the build lock: $(( t2 - t0 - $(cat "$dir/compile-seconds") )) s" \
	     > "$dir/built"
	log "cpython: $variant: built: $(cat "$dir/built")"
}

build unpatched
build patched
unpatched=$top/unpatched-$(key unpatched)/obj
patched=$top/patched-$(key patched)/obj
for obj in "$unpatched" "$patched"; do
	[ -x "$obj/python" ] || die "no python in $obj"
	grep -q -- '-fomit-frame-pointer' "$obj/Makefile" ||
		die "$obj: built with frame pointers?"
done
grep -q '^#define HAVE_DECL_PR_REGISTER_EH_FRAME 1' "$patched/pyconfig.h" ||
	die "cpython patched: configure did not find PR_REGISTER_EH_FRAME"
grep -q 'HAVE_DECL_PR_REGISTER_EH_FRAME' "$unpatched/pyconfig.h" &&
	die "cpython unpatched: the patch is in it"

exec "$HARNESS/vm.sh" -t 900 "$HARNESS/cpython-guest.sh" "$unpatched/python" "$patched/python"
