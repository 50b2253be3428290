#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch a package from Debian suites newer than the host's (sid, forky,
# trixie-backports) through a private apt state, so that the system's apt
# configuration is never touched.  The mirror URI is read from the host's
# own sources; no host name is written into this repository.
#
# usage: fetch-deb.sh PACKAGE [VERSION [DEB_ARCH [host]]]
#   Prints the path of the cached .deb on stdout.  DEB_ARCH (default amd64)
#   fetches another architecture's package (s390x for the s390x guest), and
#   "host" a package of the host's own release (what the s390x guest and
#   cross compiler use), each through an apt state of its own.  Nothing is
#   installed.
set -euo pipefail
. "$(dirname "$0")/common.sh"

cache=$CACHE
pkg=$1
want=${2:-}
deb_arch=${3:-amd64}
host_suite=${4:-}
[ "$deb_arch" = amd64 ] || host_suite=host

state=$cache/apt-state
[ -z "$host_suite" ] || state=$cache/apt-state-host-$deb_arch
mkdir -p "$state/lists/partial" "$cache/debs"

uri=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
	tr ' ' '\n' | grep -v -- '-security' | grep -m1 . || true)
if [ -z "$uri" ]; then
	uri=$(awk '$1 == "deb" && $0 !~ /security/ { print $2; exit }' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
fi
[ -n "$uri" ] || { echo "fetch-deb: no Debian mirror configured on this host" >&2; exit 1; }

suites="sid forky trixie-backports"
# Packages that must match the host (another architecture's user space for
# the s390x guest, the cross compiler) come from the host's own release.
if [ -n "$host_suite" ]; then
	suites=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
fi
for suite in $suites; do
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main"
done > "$state/sources.list"

apt_opts=(-o "Dir::Etc::sourcelist=$state/sources.list"
	  -o "Dir::Etc::sourceparts=/dev/null"
	  -o "Dir::State::Lists=$state/lists"
	  -o "Dir::Cache=$state/cache"
	  -o "APT::Architecture=$deb_arch"
	  -o "APT::Architectures=$deb_arch"
	  -o "Debug::NoLocking=1"
	  -o "APT::Sandbox::User=root")
mkdir -p "$state/cache/archives/partial"

# One list refresh a day is plenty; the pinned version is normally cached.
stamp=$state/updated
if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440)" ]; then
	apt-get "${apt_opts[@]}" -qq update >&2
	touch "$stamp"
fi

versions=$(apt-cache "${apt_opts[@]}" madison "$pkg" | awk -F'|' '{gsub(/ /,"",$2); print $2}' | sort -Vr -u)
[ -n "$versions" ] || { echo "fetch-deb: $pkg ($deb_arch) not found in $suites" >&2; exit 1; }

ver=
if [ -n "$want" ]; then
	ver=$(echo "$versions" | grep -x -- "$want" | head -n1 || true)
	[ -n "$ver" ] || echo "fetch-deb: $pkg $want is gone, using the newest available" >&2
fi
[ -n "$ver" ] || ver=$(echo "$versions" | head -n1)

# The same version exists for several architectures (busybox-static for
# s390x and arm64): the cached file must be this one's, or "all".
debs() {
	local f

	for f in "$cache/debs/${pkg}_${ver//:/%3a}_$deb_arch.deb" \
		 "$cache/debs/${pkg}_${ver//:/%3a}_all.deb"; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}
if ! deb=$(debs); then
	(cd "$cache/debs" && apt-get "${apt_opts[@]}" -qq download "$pkg=$ver" >&2)
	deb=$(debs) || { echo "fetch-deb: $pkg $ver ($deb_arch) downloaded, but not found" >&2; exit 1; }
fi
echo "fetch-deb: $pkg $ver" >&2
echo "$deb"
