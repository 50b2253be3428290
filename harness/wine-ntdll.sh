#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the unix side of Wine's ntdll (ntdll.so) from Debian bookworm's wine
# 8.0 source with patches/wine applied, cached by its inputs; prints its path
# last.  Only what ntdll.so needs is built (the source's generated files,
# configure, the headers and tools it uses): a few minutes, after
# Debian's generators and build dependencies that are not installed yet
# (autoconf, unicode-data, libvulkan-dev, khronos-api, libxml-libxml-perl).
set -euo pipefail
. "$(dirname "$0")/common.sh"

for pkg in autoconf unicode-data libvulkan-dev khronos-api libxml-libxml-perl flex bison; do
	dpkg -s "$pkg" >/dev/null 2>&1 && continue
	log "installing $pkg (to build Wine's ntdll)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null
done

srcpkg=$("$HARNESS/fetch-src.sh" wine bookworm | tail -n1)
key=$( (basename "$srcpkg"; cat "$REPO"/patches/wine/*.patch "$0") | sha1sum | cut -c1-12)
out=$CACHE/build/wine-$key
if [ ! -f "$out/obj/dlls/ntdll/ntdll.so" ]; then
	build_lock
	log "building Wine's ntdll.so with patches/wine in $out"
	rm -rf "$out"
	mkdir -p "$out"
	cp -a "$srcpkg" "$out/src"
	cd "$out/src"
	for p in "$REPO"/patches/wine/*.patch; do
		patch -p1 -s < "$p" || die "$(basename "$p") does not apply"
	done
	# What debian/rules does before configure: generated files, links.
	./debian/scripts/generate server/trace.generated make_requests
	./debian/scripts/generate server/request.generated make_requests
	./tools/make_requests >/dev/null
	./tools/make_unicode >/dev/null
	(cd dlls/winevulkan && ./make_vulkan -x /usr/share/vulkan/registry/vk.xml >/dev/null)
	(cd dlls/opengl32 && ./make_opengl >/dev/null)
	(cd dlls/dsound && ./make_fir >/dev/null 2>&1)
	ln -sf /usr/share/misc/config.sub tools/config.sub
	ln -sf /usr/share/misc/config.guess tools/config.guess
	sed -n '/# image files used to generate icons/,/# ensure system zlib/p' debian/rules |
		sed -n 's/^\tln -sf/ln -sf/p' | sh
	autoreconf -f >/dev/null 2>&1
	mkdir -p "$out/obj"
	cd "$out/obj"
	# Debian's directories (debian/rules): ntdll finds its data from them.
	../src/configure --enable-win64 --disable-tests --without-mingw --without-x \
		--without-freetype --without-gnutls --libdir=/usr/lib/x86_64-linux-gnu/wine \
		--bindir=/usr/lib/wine --datarootdir=/usr/share/wine \
		--includedir=/usr/include/wine --mandir=/usr/share/man \
		CFLAGS="-O2 -g" >configure.log 2>&1 ||
		die "configure failed: $out/obj/configure.log"
	# An out-of-tree build looks for this generated header in the source.
	make -s dlls/ntdll/unix/version.h
	cp dlls/ntdll/unix/version.h ../src/dlls/ntdll/unix/version.h
	make -s -j"$(($(nproc) + 1))" dlls/ntdll/ntdll.so >build.log 2>&1 ||
		die "make failed: $out/obj/build.log"
fi
echo "$out/obj/dlls/ntdll/ntdll.so"
