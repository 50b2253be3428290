#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the s390x or arm64 kernel under QEMU (TCG) from an initramfs, run one
# command in it and power off: vm.sh's contract for ARCH=s390 and
# ARCH=arm64.  Prints the command's output and exits with its status.
#
#   ARCH=s390|arm64 vm.sh [-t SECONDS] [-i] CMD [ARGS...]
#
# The initramfs is two cpio archives, one after the other: a cached base
# (initramfs.sh: Debian's static busybox for the architecture, its glibc
# and libstdc++ from the host's *-cross packages, an /init) and one made for
# the run, which holds the command and the architecture's selftests at the
# path they have on the host, so that the same command line works on both
# sides.  Output and status come back over the console, which carries the
# kernel log too: each line of the command's output behind the prefix
# "@@o ", its status on a marker line.  The whole console is kept in
# $CACHE/results/vm.*/console.log, and copied (without CRs) into
# $VM_CONSOLE_DIR, if set, as vm.sh does.
#
# arm64: the virt machine with -cpu max, which implements pointer
# authentication (pauth-impdef: QEMU's cheap algorithm in place of QARMA,
# which TCG would spend most of its time on); the console is the PL011.
set -euo pipefail
. "$(dirname "$0")/common.sh"

limit=600
interactive=
while getopts "t:i" opt; do
	case $opt in
	t) limit=$OPTARG ;;
	i) interactive=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))

case $UU_ARCH in
s390x)
	qemu=(qemu-system-s390x -machine s390-ccw-virtio -cpu max) console=ttysclp0 pkg=qemu-system-misc ;;
arm64)
	qemu=(qemu-system-aarch64 -machine virt -cpu max,pauth-impdef=on) console=ttyAMA0
	pkg=qemu-system-arm ;;
*)	die "vm-initramfs.sh: ARCH=s390 or ARCH=arm64" ;;
esac
[ -f "$KIMAGE" ] || die "no kernel at $KIMAGE: run 'make kernel ARCH=$KARCH' first"
command -v "${qemu[0]}" >/dev/null || die "${qemu[0]} is missing ($pkg)"

ARCH=$KARCH "$HARNESS/initramfs.sh" >&2
base=$CACHE/build/$UU_ARCH-initramfs/base.cpio

mkdir -p "$RESULTS"
out=$(mktemp -d "$RESULTS/vm.XXXXXX")
trap 'rm -rf "$out/root"' EXIT

# The run's archive: the command, and the selftests at their host path.
root=$out/root
mkdir -p "$root/uu"
if [ -n "$interactive" ]; then
	echo "interactive" > "$root/uu/mode"
	echo "(interactive)" > "$out/cmd"
elif [ $# -eq 1 ]; then
	printf '%s\n' "$1" > "$out/cmd"
else
	printf '%q ' "$@" > "$out/cmd"
fi
[ -n "$interactive" ] || cp "$out/cmd" "$root/uu/cmd"
printf '%s\n' "$PWD" > "$root/uu/cwd"
if [ -d "$SELFTESTS_OUT/install" ]; then
	mkdir -p "$root$SELFTESTS_OUT"
	cp -a "$SELFTESTS_OUT/install" "$root$SELFTESTS_OUT/"
fi
# VM_FILES: more host files the command needs (absolute paths), there too.
for f in ${VM_FILES:-}; do
	mkdir -p "$root${f%/*}"
	cp -a "$f" "$root$f"
done
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out/run.cpio"
cat "$base" "$out/run.cpio" > "$out/initrd.cpio"

qemu+=(-accel tcg -m 2048 -smp 1 -nographic -no-reboot -kernel "$KIMAGE"
       -initrd "$out/initrd.cpio"
       -append "console=$console panic=-1 oops=panic rdinit=/init${VM_APPEND:+ $VM_APPEND}")

if [ -n "$interactive" ]; then
	exec "${qemu[@]}"
fi

set +e
timeout -k 5 "$limit" "${qemu[@]}" </dev/null > "$out/console.log" 2>&1
vm_rc=$?
set -e

# The console ends lines with CR LF.
tr -d '\r' < "$out/console.log" > "$out/console.txt"
if [ -n "${VM_CONSOLE_DIR:-}" ]; then
	mkdir -p "$VM_CONSOLE_DIR"
	cp "$out/console.txt" "$VM_CONSOLE_DIR/${out##*/}.log"
	cp "$out/cmd" "$VM_CONSOLE_DIR/${out##*/}.cmd"
fi
if grep -q '^@@uu-exit [0-9]*@@$' "$out/console.txt"; then
	sed -n 's/^@@o //p' "$out/console.txt" | tee "$out/output"
	rc=$(sed -n 's/^@@uu-exit \([0-9]*\)@@$/\1/p' "$out/console.txt" | tail -n 1)
else
	if [ $vm_rc -eq 124 ] || [ $vm_rc -eq 137 ]; then
		echo "vm: the guest did not finish within ${limit} s (hang?)" >&2
		rc=124
	else
		echo "vm: the guest ended without a result (panic?)" >&2
		rc=125
	fi
	echo "vm: last console lines ($out/console.log):" >&2
	tail -n 30 "$out/console.txt" >&2
fi
rm -f "$out/initrd.cpio" "$out/run.cpio"
exit "$rc"
