#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure (tinyconfig + harness/$UU_ARCH.config) and build bzImage out of
# tree with ccache.  Incremental: the config is regenerated only when the
# fragment changes, and kbuild rebuilds only what the tree changed.
# ARCH=s390 cross-builds the s390x kernel (s390x-linux-gnu-gcc) in its own
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

frag=$HARNESS/$UU_ARCH.config
stamp=$KBUILD/.fragment.sha
want=$(cat "$frag" "$SRC/Makefile" | sha1sum | cut -d' ' -f1)
if [ ! -f "$KBUILD/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	log "configuring: tinyconfig + $(basename "$frag")"
	"${mk[@]}" tinyconfig >/dev/null
	(cd "$KBUILD" && KCONFIG_CONFIG=.config "$SRC/scripts/kconfig/merge_config.sh" -m -O "$KBUILD" .config "$frag" >/dev/null)
	"${mk[@]}" olddefconfig >/dev/null
	echo "$want" > "$stamp"
fi
# Options of the fragment that kconfig dropped (a typo, an unmet dependency)
# are worth a warning; the series' own options must stick.
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

log "building bzImage in $KBUILD"
start=$(date +%s)
"${mk[@]}" bzImage
"${mk[@]}" headers >/dev/null
log "kernel built in $(($(date +%s) - start)) s: $KIMAGE"
