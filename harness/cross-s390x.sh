#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The s390x cross compiler, in $CACHE/cross-s390x/usr/bin (common.sh puts it
# in PATH).  Debian's gcc-12-s390x-linux-gnu and g++-12-s390x-linux-gnu
# conflict with gcc-multilib, which the x86 tests need (-m32), so they are
# not installed: their .debs are unpacked here, next to links to what the
# installed, conflict-free packages provide (cc1 from cpp-12-s390x-linux-gnu,
# libgcc and the C++ headers from lib*-dev-s390x-cross, the s390x glibc and
# binutils under /usr/s390x-linux-gnu).  A second run is a no-op.
set -euo pipefail
. "$(dirname "$0")/common.sh"

dir=$CACHE/cross-s390x
gcclib=usr/lib/gcc-cross/s390x-linux-gnu/12
[ -x "$dir/usr/bin/s390x-linux-gnu-g++" ] && exit 0

[ -x "/$gcclib/cc1" ] || die "cpp-12-s390x-linux-gnu is not installed (make deps)"
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
for pkg in gcc-12-s390x-linux-gnu g++-12-s390x-linux-gnu; do
	# The version of the installed compiler proper (cc1).
	ver=$(dpkg-query -W -f='${Version}' cpp-12-s390x-linux-gnu)
	deb=$("$HARNESS/fetch-deb.sh" "$pkg" "$ver" amd64 host 2>/dev/null)
	dpkg-deb -x "$deb" "$dir.tmp"
done
for f in "/$gcclib"/*; do
	[ -e "$dir.tmp/$gcclib/$(basename "$f")" ] || ln -s "$f" "$dir.tmp/$gcclib/"
done
ln -s /usr/s390x-linux-gnu "$dir.tmp/usr/s390x-linux-gnu"
ln -s s390x-linux-gnu-gcc-12 "$dir.tmp/usr/bin/s390x-linux-gnu-gcc"
ln -s s390x-linux-gnu-g++-12 "$dir.tmp/usr/bin/s390x-linux-gnu-g++"
printf 'int main(void) { return 0; }\n' |
	"$dir.tmp/usr/bin/s390x-linux-gnu-gcc" -x c -static -o "$dir.tmp/probe" - ||
	die "the unpacked s390x cross compiler does not work"
rm -f "$dir.tmp/probe"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
log "s390x cross compiler in $dir/usr/bin"
