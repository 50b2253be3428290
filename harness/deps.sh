#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the host packages the harness needs (Debian bookworm, by name)
# when missing, and fetch the pinned Linux source and virtme-ng .debs from
# the newer suites through a private apt state (fetch-deb.sh).  A second
# run is a no-op.
set -euo pipefail
. "$(dirname "$0")/common.sh"

pkgs=(build-essential gcc-multilib g++-multilib flex bison bc libelf-dev
      libssl-dev libdw-dev cpio xz-utils ccache sparse busybox-static python3-ply python3-git
      qemu-system-x86 python3 python3-argcomplete python3-requests
      libunwind-dev clang libclang-rt-14-dev binutils gdb rsync liburcu-dev
      gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64 wine64 strace
      # The s390x and arm64 guests and cross builds (gcc and g++
      # themselves are unpacked by cross.sh: they conflict with
      # gcc-multilib).
      binutils-s390x-linux-gnu cpp-12-s390x-linux-gnu libgcc-12-dev-s390x-cross
      libstdc++-12-dev-s390x-cross libc6-dev-s390x-cross qemu-system-misc
      binutils-aarch64-linux-gnu cpp-12-aarch64-linux-gnu libgcc-12-dev-arm64-cross
      libstdc++-12-dev-arm64-cross libc6-dev-arm64-cross qemu-system-arm
      qemu-user)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "installing: ${missing[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		die "need root to install: ${missing[*]}"
	fi
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

"$HARNESS/fetch-deb.sh" "linux-source-$KVER" "$LINUX_PIN" >/dev/null
"$HARNESS/fetch-deb.sh" virtme-ng "$VNG_PIN" >/dev/null
# Test inputs only: check.sh reports a failure here as its own.
"$HARNESS/msvc-pe.sh" >/dev/null || log "msvc-pe.sh failed: no MSVC images for the PE oracle"
"$HARNESS/cross.sh" s390x-linux-gnu
"$HARNESS/cross.sh" aarch64-linux-gnu
