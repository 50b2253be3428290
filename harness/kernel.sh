#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure (tinyconfig + harness/$UU_ARCH.config, + $UU_ARCH-debug.config
# for KVARIANT=debug) and build the kernel's image out of tree with ccache.
# Incremental: the config is regenerated only when a fragment changes, and
# kbuild rebuilds only what the tree changed.  ARCH=s390 and ARCH=arm64
# cross-build (s390x-linux-gnu-gcc, aarch64-linux-gnu-gcc), each in its own
# build directory.
set -euo pipefail
. "$(dirname "$0")/common.sh"

mkdir -p "$KBUILD"
build_lock
export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_USER=unwind KBUILD_BUILD_HOST=harness
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_BASEDIR=$SRC CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros
cc="ccache ${CROSS}gcc"
hostcc="ccache gcc"
command -v ccache >/dev/null || { cc=${CROSS}gcc; hostcc=gcc; }
jobs=$(($(nproc) + 1))
mk=(make -s -C "$SRC" O="$KBUILD" CC="$cc" HOSTCC="$hostcc" -j"$jobs")
[ -n "$CROSS" ] && mk+=(ARCH="$KARCH" CROSS_COMPILE="$CROSS")

stamp=$KBUILD/.fragment.sha
# A series build goes from commit to commit: one that adds a Kconfig
# option must get a new config, or the fragment's options it brings never
# stick and the code behind them is never built.
kconfigs=/dev/null
if [ "$KVARIANT" = series ]; then
	kconfigs=$KBUILD/.kconfigs
	find "$SRC" -name '.git' -prune -o -name 'Kconfig*' -type f -print | sort |
		xargs cat >"$kconfigs"
fi
# shellcheck disable=SC2086 # KFRAGS is a list of paths
want=$(cat $KFRAGS "$SRC/Makefile" "$kconfigs" | sha1sum | cut -d' ' -f1)
if [ ! -f "$KBUILD/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	log "configuring: tinyconfig + $(for f in $KFRAGS; do basename "$f"; done | paste -sd+)"
	"${mk[@]}" tinyconfig >/dev/null
	# shellcheck disable=SC2086
	(cd "$KBUILD" && KCONFIG_CONFIG=.config "$SRC/scripts/kconfig/merge_config.sh" -m -O "$KBUILD" .config $KFRAGS >/dev/null)
	"${mk[@]}" olddefconfig >/dev/null
	echo "$want" > "$stamp"
fi
# An option of a fragment that kconfig dropped (a typo, an unmet
# dependency) is an error: the tests, the console scan (PRINTK_TIME, the
# checkers) and the series itself need each of them.
lost=0
for frag in $KFRAGS; do
	for opt in $(grep -E '^CONFIG_[A-Z0-9_]+=' "$frag"); do
		grep -qx "$opt" "$KBUILD/.config" && continue
		# Linux without the series, or a commit before its options.
		case "$KVARIANT:$opt" in
		plain:CONFIG_UNWIND_USER*|series:CONFIG_UNWIND_USER*) continue ;;
		esac
		echo "error: $opt of $(basename "$frag") did not stick" >&2
		lost=1
	done
	for opt in $(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$frag"); do
		grep -q "^$opt=" "$KBUILD/.config" || continue
		echo "error: $opt of $(basename "$frag") is still set" >&2
		lost=1
	done
done
[ $lost = 0 ] || die "options of ${KVARIANT:-the} fragment did not stick"

log "building $KTARGET in $KBUILD"
start=$(date +%s)
"${mk[@]}" "$KTARGET"
# The PE backend (CONFIG_UNWIND_USER_PE=m); the guest loads it from here.
if grep -q "^CONFIG_MODULES=y" "$KBUILD/.config"; then
	"${mk[@]}" modules
	# make check-debug's module that leaks on purpose (s390x's check that
	# kmemleak reports leaks), built out of tree in the build directory.
	if [ "$KVARIANT" = debug ]; then
		mkdir -p "$KBUILD/kmemleak-leak"
		cp "$HARNESS"/kmemleak-leak/* "$KBUILD/kmemleak-leak/"
		"${mk[@]}" M="$KBUILD/kmemleak-leak" modules
	fi
fi
"${mk[@]}" headers >/dev/null
log "kernel built in $(($(date +%s) - start)) s: $KIMAGE"
