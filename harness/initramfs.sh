#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The base initramfs of the s390x and arm64 guests (vm-initramfs.sh), in
# $CACHE/build/$UU_ARCH-initramfs/base.cpio: Debian's static busybox for the
# architecture, the dynamic loader and the libraries the selftests link
# against (from the host's libc6-*-cross, libstdc++6-*-cross and
# libgcc-s1-*-cross), and harness/guest-init as /init.  Rebuilt only when
# one of those changes.
set -euo pipefail
. "$(dirname "$0")/common.sh"

case $UU_ARCH in
s390x)
	debarch=s390x machine=0016 libdir=/usr/s390x-linux-gnu/lib
	libs=(ld64.so.1) ;;
arm64)
	debarch=arm64 machine=b700 libdir=/usr/aarch64-linux-gnu/lib
	libs=(ld-linux-aarch64.so.1) ;;
*)	die "initramfs.sh: the $UU_ARCH guest boots the host's root file system" ;;
esac
libs+=(libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libstdc++.so.6 libgcc_s.so.1)
dir=$CACHE/build/$UU_ARCH-initramfs
mkdir -p "$dir"
bb_deb=$("$HARNESS/fetch-deb.sh" busybox-static "" "$debarch" 2>/dev/null)

want=$( (echo "$bb_deb"; sha1sum "$HARNESS/guest-init";
	 for l in "${libs[@]}"; do sha1sum "$(readlink -f "$libdir/$l")"; done) |
	sha1sum | cut -d' ' -f1)
if [ -f "$dir/base.cpio" ] && [ "$(cat "$dir/base.sha" 2>/dev/null)" = "$want" ]; then
	exit 0
fi

log "building the $UU_ARCH initramfs in $dir"
stage=$dir/stage
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib" "$stage/uu"
dpkg-deb --fsys-tarfile "$bb_deb" | tar -x -O ./bin/busybox > "$stage/bin/busybox"
chmod 755 "$stage/bin/busybox"
# e_machine, as its bytes lie in the file (s390x is big-endian).
[ "$(od -An -tx1 -j18 -N2 "$stage/bin/busybox" | tr -d ' ')" = "$machine" ] ||
	die "$bb_deb holds no $UU_ARCH busybox"
for l in "${libs[@]}"; do
	cp -L "$libdir/$l" "$stage/lib/$l"
done
ln -s lib "$stage/lib64"
install -m 755 "$HARNESS/guest-init" "$stage/init"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$dir/base.cpio.tmp"
mv "$dir/base.cpio.tmp" "$dir/base.cpio"
echo "$want" > "$dir/base.sha"
rm -rf "$stage"
log "$UU_ARCH initramfs: $(du -h "$dir/base.cpio" | cut -f1)"
