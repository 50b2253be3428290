#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make libgcc: build libgcc_s of GCC 14, as released by Debian trixie, twice:
# as it is and with patches/libgcc/*.patch (tables given to
# __register_frame() and __register_frame_info() registered with the
# kernel too); then run discover_workload's JIT, which hands its table to
# libgcc only, in the guest under each (harness/libgcc-guest.sh).
#
# The source comes through a private apt state (fetch-src.sh); the upstream
# tarball inside Debian's source package is used as it is (none of Debian's
# patches touches the unwinder).  The compiler is built once, C only, without
# bootstrap and at -O0 (it only compiles libgcc), out of tree: `make all-gcc`,
# cached in $CACHE/build/libgcc/<key>, the key a hash of the source version,
# the options, gcc and ld.  Then libgcc is built in the same tree for each
# variant (`make all-target-libgcc`: the unpatched one, then the patch
# applied, which rebuilds the files it touches), and libgcc_s.so.1 copied to
# <key>/<variant>-<hash of the patches>/.  Compiles run niced under the
# machine's build lock, as kernel builds do.  The kernel's uapi headers
# (make headers_install of the assembled tree) are on the include path, as a
# distribution whose kernel headers carry the prctl would have them.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ "$UU_ARCH" = x86_64 ] || die "make libgcc: x86-64 only"

deb=$("$HARNESS/fetch-src.sh" gcc-14 trixie)
case $(basename "$deb") in
gcc-14-14.*) ;;
*) die "expected GCC 14 in trixie, got $(basename "$deb")" ;;
esac
[ -f "$SRC/include/uapi/linux/prctl.h" ] || "$HARNESS/tree.sh" >&2
opts="--enable-languages=c --disable-bootstrap --disable-multilib --disable-nls
--disable-lto --disable-plugin --without-isl --disable-libsanitizer
--disable-libquadmath --disable-libgomp --disable-libssp --disable-libatomic
--disable-libitm --disable-libvtv"
cflags="-O0 -g0"

key=$({
	basename "$deb"
	echo "$opts $cflags"
	gcc --version | sed -n 1p
	ld --version | sed -n 1p
} | sha256sum | cut -c1-16)
top=$CACHE/build/libgcc/$key
lock=${TMPDIR:-/tmp}/unwind-user-build.lock

# The compiler, C only: $top/obj/gcc/xgcc.
if [ ! -f "$top/gcc-built" ]; then
	rm -rf "$top"
	mkdir -p "$top/src" "$top/obj"
	tar -xf "$deb"/gcc-*-dfsg.tar.xz -C "$top/src" --strip-components=1
	make -s -C "$SRC" O="$top/kobj" ARCH=x86 INSTALL_HDR_PATH="$top/kheaders" \
		headers_install > "$top/headers.log" 2>&1 ||
		{ tail -n 20 "$top/headers.log" >&2; die "headers_install failed"; }
	log "libgcc: building GCC's compiler in $top (C only, -O0)"
	t0=$(date +%s)
	# shellcheck disable=SC2086 # $opts: one word per option
	flock "$lock" bash -c '
		set -euo pipefail
		top=$1 cflags=$2; shift 2
		t1=$(date +%s)
		cd "$top/obj"
		nice -n 5 "$top/src/configure" "$@" CC="ccache gcc" CXX="ccache g++" \
			CFLAGS="$cflags" CXXFLAGS="$cflags" > "$top/configure.log" 2>&1 ||
			{ tail -n 30 "$top/configure.log" >&2; exit 1; }
		# Debian strips the GFDL manuals from its tarball, tm.texi.in
		# with them: a stamp stands for the check of tm.texi.
		nice -n 5 make configure-gcc > "$top/gcc.log" 2>&1 ||
			{ tail -n 30 "$top/gcc.log" >&2; exit 1; }
		echo timestamp > gcc/s-tm-texi
		nice -n 5 make -j"$(nproc)" all-gcc >> "$top/gcc.log" 2>&1 ||
			{ grep -E "error|Error" "$top/gcc.log" | tail -n 30 >&2; exit 1; }
		echo $(( $(date +%s) - t1 )) > "$top/gcc-seconds"
	' _ "$top" "$cflags" $opts || die "GCC's compiler failed to build (logs in $top)"
	echo "configure + make all-gcc: $(cat "$top/gcc-seconds") s, waiting for the build" \
	     "lock: $(( $(date +%s) - t0 - $(cat "$top/gcc-seconds") )) s" > "$top/gcc-built"
fi
log "libgcc: compiler: $(cat "$top/gcc-built")"

patches=("$REPO"/patches/libgcc/*.patch)
[ -f "${patches[0]}" ] || die "no patches in $REPO/patches/libgcc"
phash=$(sed -s -n '/^diff --git /,$p' "${patches[@]}" "$SRC/include/uapi/linux/prctl.h" |
	sha256sum | cut -c1-16)

# Bring $top/src to VARIANT: the patches in it ($top/applied, their copy)
# or none.
src_state() {	# VARIANT
	if [ -f "$top/applied" ] && { [ "$1" = plain ] ||
	   ! cat "${patches[@]}" | cmp -s - "$top/applied"; }; then
		log "libgcc: taking the patches out of $top/src"
		patch -d "$top/src" -p1 -R -s --no-backup-if-mismatch < "$top/applied"
		rm "$top/applied"
	fi
	if [ "$1" = patched ] && [ ! -f "$top/applied" ]; then
		for p in "${patches[@]}"; do
			log "libgcc: applying $(basename "$p")"
			patch -d "$top/src" -p1 -s --no-backup-if-mismatch < "$p"
		done
		cat "${patches[@]}" > "$top/applied"
	fi
}

# libgcc_s.so.1 of VARIANT (plain or patched) into $top/VARIANT-$phash/:
# make rebuilds what the patches change.
build_libgcc() {
	local variant=$1 out=$top/$1-$phash t0

	[ -f "$out/built" ] && { log "libgcc: $variant: cached ($(cat "$out/built"))"; return; }
	src_state "$variant"
	rm -rf "$out"
	mkdir -p "$out"
	t0=$(date +%s)
	flock "$lock" nice -n 5 make -C "$top/obj" -j"$(nproc)" all-target-libgcc \
		CFLAGS_FOR_TARGET="-g -O2 -I$top/kheaders/include" \
		> "$out/make.log" 2>&1 ||
		{ grep -E "error|Error" "$out/make.log" | tail -n 30 >&2;
		  die "libgcc $variant failed to build (log in $out)"; }
	cp "$top"/obj/x86_64-*/libgcc/libgcc_s.so.1 "$out/"
	echo "make all-target-libgcc: $(( $(date +%s) - t0 )) s" > "$out/built"
	log "libgcc: $variant: built: $(cat "$out/built")"
}

build_libgcc plain
build_libgcc patched
plain=$top/plain-$phash/libgcc_s.so.1
patched=$top/patched-$phash/libgcc_s.so.1
# The patched libgcc_s calls prctl; the plain one does not.
nm -D "$patched" | grep -q ' U prctl' || die "$patched: the patch is not in it"
nm -D "$plain" | grep -q ' U prctl' && die "$plain: the patch is in it"

[ "${LIBGCC_BUILD_ONLY:-}" ] && exit 0
exec "$HARNESS/vm.sh" -t 600 "$HARNESS/libgcc-guest.sh" "$plain" "$patched"
