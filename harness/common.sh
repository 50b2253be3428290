# SPDX-License-Identifier: GPL-2.0
# Shared settings for the harness scripts; sourced, not run.

# Everything downloaded or built lives here, outside the checkout.
CACHE=${UNWIND_CACHE:-$HOME/.cache/unwind-user}
# The Linux release the series is tested against: 7.2, or KVER=7.3 (its
# own source tree, builds and results, next to 7.2's).  The newest x.y.z of
# the release is used (with a message) if the mirror no longer carries the
# pinned one.
KVER=${KVER:-7.2}
case "$KVER" in
7.2) LINUX_PIN=${LINUX_PIN:-7.2.13-1} KSUF= ;;
7.3) LINUX_PIN=${LINUX_PIN:-7.3.4-1~bpo13+1} KSUF=-7.3 ;;
*) echo "error: KVER=$KVER: only 7.2 and 7.3 are supported" >&2; exit 2 ;;
esac
VNG_PIN=${VNG_PIN:-1.41-1}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HARNESS=$REPO/harness

# The top-level directories of a kernel tree; tracked files below them in this
# repository are the overlay.  Everything else (harness/, patches/, README.md,
# Makefile, .ci/) is build machinery.
OVERLAY_DIRS="arch block certs crypto Documentation drivers fs include init
io_uring ipc kernel lib mm net rust samples security sound tools usr virt"

SRC=$CACHE/src/linux$KSUF

# The guest's architecture: x86_64 (default) or s390x (ARCH=s390 or s390x).
# ARCH itself is unset here: the kernel's and the selftests' Makefiles read
# it from the environment, and each script passes its own.
case "${ARCH:-}" in
''|x86|x86_64) UU_ARCH=x86_64 ;;
s390|s390x) UU_ARCH=s390x ;;
arm64|aarch64) UU_ARCH=arm64 ;;
*) echo "error: ARCH=$ARCH: only x86_64, s390 (s390x) and arm64 are supported" >&2; exit 2 ;;
esac
unset ARCH
# The s390x and arm64 cross compilers, unpacked by cross.sh (they cannot be
# installed next to gcc-multilib).
PATH=$CACHE/cross-s390x/usr/bin:$CACHE/cross-aarch64/usr/bin:$PATH
# Kernels other than the series' own, each built and booted apart:
#   KVARIANT=debug	make check-debug's: harness/x86_64-debug.config on top
#   KVARIANT=plain	pristine Linux 7.2, same config, to compare against
#   KVARIANT=series	one commit of the series after another (make series-check),
#			in a worktree and build directory of their own
KVARIANT=${KVARIANT:-}
KBUILD=$CACHE/build/$UU_ARCH${KVARIANT:+-$KVARIANT}$KSUF
KFRAGS=$HARNESS/$UU_ARCH.config
if [ -n "$KVARIANT" ] && [ -f "$HARNESS/$UU_ARCH-$KVARIANT.config" ]; then
	KFRAGS="$KFRAGS $HARNESS/$UU_ARCH-$KVARIANT.config"
fi
# Both lay out their tree and build as the main ones are, one level down,
# so that ccache (CCACHE_BASEDIR) sees the same relative paths and reuses
# what another build compiled from the same sources.
if [ "$KVARIANT" = plain ] || [ "$KVARIANT" = series ]; then
	SRC=$CACHE/$KVARIANT/src/linux$KSUF
	KBUILD=$CACHE/$KVARIANT/build/$UU_ARCH$KSUF
fi
PERF_OUT=$CACHE/build/perf$KSUF
USER_OUT=$CACHE/build/user$KSUF
# The kernel's name for the architecture, the cross tools, the image kbuild
# makes (KTARGET) and where.
case $UU_ARCH in
s390x)
	SELFTESTS_OUT=$CACHE/build/selftests-s390x$KSUF
	KARCH=s390
	CROSS=s390x-linux-gnu-
	KTARGET=bzImage
	;;
arm64)
	SELFTESTS_OUT=$CACHE/build/selftests-arm64$KSUF
	KARCH=arm64
	CROSS=aarch64-linux-gnu-
	KTARGET=Image
	;;
*)
	SELFTESTS_OUT=$CACHE/build/selftests$KSUF
	KARCH=x86
	CROSS=
	KTARGET=bzImage
	;;
esac
KIMAGE=$KBUILD/arch/$KARCH/boot/$KTARGET
AUDIT_OUT=$CACHE/build/audit
RESULTS=$CACHE/results$KSUF
VNG_DIR=$CACHE/vng

die() { echo "error: $*" >&2; exit 1; }
log() { echo ">>> $*" >&2; }

# One kernel build at a time on this machine, whichever checkout or cache it
# is for: on 2 cores two builds only slow each other down.  Held until the
# calling script exits.
build_lock() {
	exec 8>"${TMPDIR:-/tmp}/unwind-user-build.lock"
	flock 8
}
