#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The base initramfs of the s390x guest (vm-s390x.sh), in
# $CACHE/build/s390x-initramfs/base.cpio: Debian's static busybox for s390x,
# the dynamic loader and the libraries the s390x selftests link against
# (from the host's libc6-s390x-cross, libstdc++6-s390x-cross and
# libgcc-s1-s390x-cross), and harness/s390x-init as /init.  Rebuilt only when
# one of those changes.
set -euo pipefail
. "$(dirname "$0")/common.sh"

dir=$CACHE/build/s390x-initramfs
mkdir -p "$dir"
bb_deb=$("$HARNESS/fetch-deb.sh" busybox-static "" s390x 2>/dev/null)
libdir=/usr/s390x-linux-gnu/lib
libs=(ld64.so.1 libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1
      libstdc++.so.6 libgcc_s.so.1)

want=$( (echo "$bb_deb"; sha1sum "$HARNESS/s390x-init";
	 for l in "${libs[@]}"; do sha1sum "$(readlink -f "$libdir/$l")"; done) |
	sha1sum | cut -d' ' -f1)
if [ -f "$dir/base.cpio" ] && [ "$(cat "$dir/base.sha" 2>/dev/null)" = "$want" ]; then
	exit 0
fi

log "building the s390x initramfs in $dir"
stage=$dir/stage
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib" "$stage/uu"
dpkg-deb --fsys-tarfile "$bb_deb" | tar -x -O ./bin/busybox > "$stage/bin/busybox"
chmod 755 "$stage/bin/busybox"
file -b "$stage/bin/busybox" 2>/dev/null | grep -q 'IBM S/390' ||
	[ "$(od -An -tx1 -j18 -N2 "$stage/bin/busybox" | tr -d ' ')" = 0016 ] ||
	die "$bb_deb holds no s390x busybox"
for l in "${libs[@]}"; do
	cp -L "$libdir/$l" "$stage/lib/$l"
done
ln -s lib "$stage/lib64"
install -m 755 "$HARNESS/s390x-init" "$stage/init"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$dir/base.cpio.tmp"
mv "$dir/base.cpio.tmp" "$dir/base.cpio"
echo "$want" > "$dir/base.sha"
rm -rf "$stage"
log "s390x initramfs: $(du -h "$dir/base.cpio" | cut -f1)"
