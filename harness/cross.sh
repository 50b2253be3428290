#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A cross compiler, in $CACHE/cross-<cpu>/usr/bin (common.sh puts it in
# PATH).
#
# usage: cross.sh TRIPLET	(s390x-linux-gnu, aarch64-linux-gnu)
#
# Debian's gcc-12-TRIPLET and g++-12-TRIPLET conflict with gcc-multilib,
# which the x86 tests need (-m32), so they are not installed: their .debs
# are unpacked here, next to links to what the installed, conflict-free
# packages provide (cc1 from cpp-12-TRIPLET, libgcc and the C++ headers from
# lib*-dev-*-cross, the target's glibc and binutils under /usr/TRIPLET).  A
# second run is a no-op.
set -euo pipefail
. "$(dirname "$0")/common.sh"

t=$1
dir=$CACHE/cross-${t%%-*}
gcclib=usr/lib/gcc-cross/$t/12
[ -x "$dir/usr/bin/$t-g++" ] && exit 0

[ -x "/$gcclib/cc1" ] || die "cpp-12-$t is not installed (make deps)"
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
for pkg in "gcc-12-$t" "g++-12-$t"; do
	# The version of the installed compiler proper (cc1).
	ver=$(dpkg-query -W -f='${Version}' "cpp-12-$t")
	deb=$("$HARNESS/fetch-deb.sh" "$pkg" "$ver" amd64 host 2>/dev/null)
	dpkg-deb -x "$deb" "$dir.tmp"
done
for f in "/$gcclib"/*; do
	[ -e "$dir.tmp/$gcclib/$(basename "$f")" ] || ln -s "$f" "$dir.tmp/$gcclib/"
done
ln -s "/usr/$t" "$dir.tmp/usr/$t"
ln -s "$t-gcc-12" "$dir.tmp/usr/bin/$t-gcc"
ln -s "$t-g++-12" "$dir.tmp/usr/bin/$t-g++"
printf 'int main(void) { return 0; }\n' |
	"$dir.tmp/usr/bin/$t-gcc" -x c -static -o "$dir.tmp/probe" - ||
	die "the unpacked $t cross compiler does not work"
rm -f "$dir.tmp/probe"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
log "$t cross compiler in $dir/usr/bin"
