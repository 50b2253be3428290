#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make glibc: build Debian bookworm's glibc 2.36 with patches/glibc/*.patch
# (ld.so and libc.so only) and prove the patch in the guest
# (harness/glibc-guest.sh): a C++ program built without frame pointers
# that throws through libstdc++ and libgcc_s, run with the patched ld.so
# as its interpreter and no LD_AUDIT, must get callchains that reach _start.
#
# The source comes through a private apt state (fetch-src.sh, which
# applies Debian's own patches as dpkg-source does); ours go on top.  The
# build is cached in $CACHE/build/glibc/<key>, the key a hash of
# everything it depends on (source version, our patches, configure
# options, compiler); the compile runs under the machine's build lock,
# niced, as kernel builds do.  Prints the build time (or that the build
# was cached) and the guest's figures; exits non-zero if the build fails
# or a figure is below its threshold.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ "$UU_ARCH" = x86_64 ] || die "make glibc: x86-64 only"

# glibc's configure wants GNU awk; the rest is in deps.sh's list.
if ! command -v gawk >/dev/null; then
	[ "$(id -u)" -eq 0 ] || die "need root to install gawk"
	log "installing: gawk"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gawk >/dev/null
fi

src=$("$HARNESS/fetch-src.sh" glibc bookworm)
case $(basename "$src") in
glibc-2.36-*) ;;
*) die "expected glibc 2.36 in bookworm, got $(basename "$src")" ;;
esac
patches=("$REPO"/patches/glibc/*.patch)

# Debian's own options that matter for the code (debian/rules.d/build.mk),
# minus what only the packages need; no libmvec, no nscd.
config=(--prefix=/usr --without-selinux --disable-crypt --enable-multi-arch
	--enable-stackguard-randomization --enable-stack-protector=strong
	--disable-mathvec --disable-nscd)

key=$( {
	basename "$src"
	cat "${patches[@]}"
	echo "${config[*]}"
	gcc --version | sed -n 1p
	ld --version | sed -n 1p
	} | sha256sum | cut -c1-16)
top=$CACHE/build/glibc
out=$top/$key
lib=$out/lib

if [ -f "$out/built" ]; then
	log "glibc: cached build $out ($(cat "$out/built"))"
else
	rm -rf "$out"
	mkdir -p "$out"
	log "glibc: $(basename "$src") + ${#patches[@]} patch(es) in $out"
	cp -a "$src" "$out/src"
	for p in "${patches[@]}"; do
		log "glibc: applying $(basename "$p")"
		patch -d "$out/src" -p1 -s --no-backup-if-mismatch < "$p"
	done
	mkdir -p "$out/obj"
	# The lock only around the compile: the guest run needs no lock.
	t0=$(date +%s)
	flock "${TMPDIR:-/tmp}/unwind-user-build.lock" bash -c '
		set -euo pipefail
		out=$1
		shift
		t1=$(date +%s)
		cd "$out/obj"
		nice -n 5 "$out/src/configure" "$@" MAKEINFO=: > "$out/configure.log" 2>&1 ||
			{ tail -n 30 "$out/configure.log" >&2; exit 1; }
		# "lib": libc.so and the ld.so it links with; no other
		# libraries, programs, locales or gconv modules.
		nice -n 5 make -j"$(nproc)" lib > "$out/make.log" 2>&1 ||
			{ grep -E "error|Error" "$out/make.log" | tail -n 30 >&2; exit 1; }
		echo $(( $(date +%s) - t1 )) > "$out/compile-seconds"
	' _ "$out" "${config[@]}" || die "glibc build failed (logs in $out)"
	t2=$(date +%s)
	mkdir -p "$lib"
	ln -sf ../obj/elf/ld.so "$lib/ld-linux-x86-64.so.2"
	ln -sf ../obj/libc.so "$lib/libc.so.6"
	for f in "$lib/ld-linux-x86-64.so.2" "$lib/libc.so.6"; do
		[ -f "$f" ] || die "glibc build: no $f"
	done
	# The sources are not needed any more; the objects are (ld.so, libc.so).
	rm -rf "$out/src"
	echo "configure + make lib: $(cat "$out/compile-seconds") s," \
	     "waiting for the build lock: $(( t2 - t0 - $(cat "$out/compile-seconds") )) s" \
	     > "$out/built"
	log "glibc: built: $(cat "$out/built")"
fi
"$lib/ld-linux-x86-64.so.2" --version | sed -n 1p >&2
# The patch must be in this ld.so: prctl (syscall 157) with option 82
# (register) and 83 (unregister) close before it.
for op in 0x52 0x53; do
	objdump -d --no-show-raw-insn "$out/obj/elf/ld.so" | awk -v op="$op" '
		$2 == "mov" && $3 == "$" op ",%edi" { near = NR }
		$2 == "mov" && $3 == "$0x9d,%eax" && near && NR - near < 8 { found = 1 }
		END { exit !found }' ||
		die "$out/obj/elf/ld.so: no prctl($op) in it, is the patch applied?"
done

# The workload: harness/realbin/throw_deep.cc, -O2 -fomit-frame-pointer.
prog=$top/throw_deep
if [ ! -x "$prog" ] || [ "$HARNESS/realbin/throw_deep.cc" -nt "$prog" ]; then
	g++ -O2 -fomit-frame-pointer -o "$prog" "$HARNESS/realbin/throw_deep.cc"
fi

# dlopen() + dlclose(): the unregistering half of the patch.
dlc=$top/dlclose
if [ ! -x "$dlc" ] || [ "$HARNESS/glibc-dlclose.c" -nt "$dlc" ]; then
	gcc -O2 -Wall -Wextra -o "$dlc" "$HARNESS/glibc-dlclose.c"
fi

exec "$HARNESS/vm.sh" -t 600 "$HARNESS/glibc-guest.sh" "$lib" "$prog" "$dlc"
