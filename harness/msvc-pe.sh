#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# MSVC-built x64 PE images for the PE oracle (PE_MSVC_IMAGES of
# tools/testing/unwind_user): the prebuilt launchers Debian ships with
# setuptools and distlib, linked by Visual C++ 2008, 2010 and 2022.  mingw's
# images alone never show registers saved in the caller's home area nor
# chained entries from a compiler.  Fetched by name (fetch-deb.sh), cached
# under $CACHE/msvc-pe keyed by package version; prints one path a line.
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=$CACHE/msvc-pe
mkdir -p "$out"

# get PACKAGE VERSION SUITE MEMBER...: SUITE "host" is the host's release,
# "new" fetch-deb.sh's newer suites; MEMBER is a path in the .deb, or
# WHEEL:PATH for a file in a wheel the .deb carries.
get() {
	local pkg=$1 pin=$2 suite=$3 deb ver dir m name
	shift 3
	dir=$out/${pkg}_${pin//:/%3a}
	if [ ! -f "$dir/done" ]; then
		deb=$("$HARNESS/fetch-deb.sh" "$pkg" "$pin" amd64 \
			"$([ "$suite" = host ] && echo host)")
		ver=$(dpkg-deb -f "$deb" Version)
		dir=$out/${pkg}_${ver//:/%3a}
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp/deb"
		dpkg-deb -x "$deb" "$dir.tmp/deb"
		# The wheel's name is a glob: its version is the package's.
		for m in "$@"; do
			name=$(basename "${m#*:}")
			if [ "$m" != "${m#*:}" ]; then
				python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
open(sys.argv[3], "wb").write(z.read(sys.argv[2]))' \
					"$dir.tmp"/deb/${m%%:*} "${m#*:}" "$dir.tmp/$name"
			else
				cp "$dir.tmp/deb/$m" "$dir.tmp/$name"
			fi
		done
		rm -rf "$dir.tmp/deb" "$dir"
		touch "$dir.tmp/done"
		mv "$dir.tmp" "$dir"
	fi
	for m in "$@"; do
		echo "$dir/$(basename "${m#*:}")"
	done
}

get python3-setuptools-whl 66.1.1-1+deb12u2 host \
	'usr/share/python-wheels/setuptools-*.whl:setuptools/cli-64.exe' \
	'usr/share/python-wheels/setuptools-*.whl:setuptools/gui-64.exe'
get python3-distlib 0.3.6-1 host \
	usr/lib/python3/dist-packages/distlib/t64.exe \
	usr/lib/python3/dist-packages/distlib/w64.exe
get python3-setuptools-whl 84.2.0-1 new \
	'usr/share/python-wheels/setuptools-*.whl:setuptools/cli-64.exe' \
	'usr/share/python-wheels/setuptools-*.whl:setuptools/gui-64.exe'
