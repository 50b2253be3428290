# SPDX-License-Identifier: GPL-2.0
# Shared settings for the harness scripts; sourced, not run.

# Everything downloaded or built lives here, outside the checkout.
CACHE=${UNWIND_CACHE:-$HOME/.cache/unwind-user}
# The Linux release the series is tested against; the newest 7.2.x is used
# (with a message) if the mirror no longer carries this one.
LINUX_PIN=${LINUX_PIN:-7.2.13-1}
VNG_PIN=${VNG_PIN:-1.41-1}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HARNESS=$REPO/harness

# The top-level directories of a kernel tree; tracked files below them in this
# repository are the overlay.  Everything else (harness/, patches/, README.md,
# Makefile, .ci/) is build machinery.
OVERLAY_DIRS="arch block certs crypto Documentation drivers fs include init
io_uring ipc kernel lib mm net rust samples security sound tools usr virt"

SRC=$CACHE/src/linux
# Kernels other than the series' own, each built and booted apart:
#   KVARIANT=debug	make check-debug's: harness/x86_64-debug.config on top
#   KVARIANT=plain	pristine Linux 7.2, same config, to compare against
KVARIANT=${KVARIANT:-}
KBUILD=$CACHE/build/x86_64${KVARIANT:+-$KVARIANT}
KFRAGS=$HARNESS/x86_64.config
[ -f "$HARNESS/x86_64-$KVARIANT.config" ] && KFRAGS="$KFRAGS $HARNESS/x86_64-$KVARIANT.config"
[ "$KVARIANT" = plain ] && SRC=$CACHE/src/plain
PERF_OUT=$CACHE/build/perf
SELFTESTS_OUT=$CACHE/build/selftests
USER_OUT=$CACHE/build/user
AUDIT_OUT=$CACHE/build/audit
RESULTS=$CACHE/results
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
