#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch and unpack a Debian source package through a private apt state (the
# system's apt configuration is never touched; the mirror URI is read from
# the host's own sources, as fetch-deb.sh does).
#
# usage: fetch-src.sh PACKAGE SUITE
#   Prints the directory of the unpacked source on stdout; a second call
#   for the same version only prints it.
set -euo pipefail
. "$(dirname "$0")/common.sh"

pkg=$1
suite=$2
state=$CACHE/apt-src-$suite
dest=$CACHE/src/deb-src

uri=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
	tr ' ' '\n' | grep -v -- '-security' | grep -m1 . || true)
if [ -z "$uri" ]; then
	uri=$(awk '$1 == "deb" && $0 !~ /security/ { print $2; exit }' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
fi
[ -n "$uri" ] || die "no Debian mirror configured on this host"

mkdir -p "$state/parts" "$state/lists/partial" "$state/cache/archives/partial" "$dest"
cat > "$state/parts/src.sources" <<SRC
Types: deb-src
URIs: $uri
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
apt_opts=(-o "Dir::Etc::sourcelist=/dev/null" -o "Dir::Etc::sourceparts=$state/parts"
	  -o "Dir::State::Lists=$state/lists" -o "Dir::Cache=$state/cache"
	  -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root")
stamp=$state/updated
if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440)" ]; then
	apt-get "${apt_opts[@]}" -qq update >&2
	touch "$stamp"
fi
ver=$(apt-cache "${apt_opts[@]}" showsrc "$pkg" | sed -n 's/^Version: //p' | sort -Vr | head -n1)
[ -n "$ver" ] || die "no source package $pkg in $suite"
dir=$dest/$pkg-${ver//[:~]/_}
if [ ! -d "$dir" ]; then
	tmp=$(mktemp -d "$dest/.fetch.XXXXXX")
	(cd "$tmp" && apt-get "${apt_opts[@]}" -qq source --download-only "$pkg=$ver" >&2 &&
	 dpkg-source --no-check -x ./*.dsc src >/dev/null 2>&1)
	mv "$tmp/src" "$dir"
	rm -rf "$tmp"
	log "fetch-src: $pkg $ver from $suite"
fi
echo "$dir"
