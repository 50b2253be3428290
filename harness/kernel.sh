#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure (tinyconfig + harness/x86_64.config, + x86_64-debug.config for
# KVARIANT=debug) and build bzImage out of tree with ccache.  Incremental:
# the config is regenerated only when a fragment changes, and kbuild
# rebuilds only what the tree changed.
set -euo pipefail
. "$(dirname "$0")/common.sh"

mkdir -p "$KBUILD"
build_lock
export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_USER=unwind KBUILD_BUILD_HOST=harness
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_BASEDIR=$SRC CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros
cc="ccache gcc"
command -v ccache >/dev/null || cc=gcc
jobs=$(($(nproc) + 1))
mk=(make -s -C "$SRC" O="$KBUILD" CC="$cc" HOSTCC="$cc" -j"$jobs")

stamp=$KBUILD/.fragment.sha
# shellcheck disable=SC2086 # KFRAGS is a list of paths
want=$(cat $KFRAGS "$SRC/Makefile" | sha1sum | cut -d' ' -f1)
if [ ! -f "$KBUILD/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	log "configuring: tinyconfig + $(for f in $KFRAGS; do basename "$f"; done | paste -sd+)"
	"${mk[@]}" tinyconfig >/dev/null
	# shellcheck disable=SC2086
	(cd "$KBUILD" && KCONFIG_CONFIG=.config "$SRC/scripts/kconfig/merge_config.sh" -m -O "$KBUILD" .config $KFRAGS >/dev/null)
	"${mk[@]}" olddefconfig >/dev/null
	echo "$want" > "$stamp"
fi
# Options of the fragments that kconfig dropped (a typo, an unmet
# dependency) are worth a warning; the series' own options must stick.
for frag in $KFRAGS; do
	grep -E '^CONFIG_[A-Z0-9_]+=' "$frag" | while IFS='=' read -r opt val; do
		if ! grep -qx "$opt=$val" "$KBUILD/.config"; then
			echo "warning: $opt=$val did not stick" >&2
		fi
	done
	sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$frag" | while read -r opt; do
		if grep -q "^$opt=" "$KBUILD/.config"; then
			echo "warning: $opt is still set" >&2
		fi
	done
done

log "building bzImage in $KBUILD"
start=$(date +%s)
"${mk[@]}" bzImage
"${mk[@]}" headers >/dev/null
log "kernel built in $(($(date +%s) - start)) s: $KBUILD/arch/x86/boot/bzImage"
