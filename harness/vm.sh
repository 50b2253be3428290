#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the built kernel with the host's root file system (virtme-ng, 9p,
# read-only), run one command in it and power off.  Prints the command's
# output and exits with its status.
#
#   vm.sh [-t SECONDS] [-i] CMD [ARGS...]
#	-t	wall-clock limit for the whole guest (default 600): a guest that
#		hangs or panics is killed and reported as failed (exit 124)
#	-i	interactive: a shell on the guest's console instead of CMD
#
# Results cross back through a host directory the guest can write
# ($CACHE/results/vm.*): the command's exit status, and its output.  The
# whole console is kept in that directory's console.log, and copied into
# $VM_CONSOLE_DIR, if set, as vm.*.log (with the command as vm.*.cmd), for
# harness/splat-scan.py: make check and make check-debug scan every
# console of their guests for the kernel's splats.
set -euo pipefail
. "$(dirname "$0")/common.sh"

# ARCH=s390 and ARCH=arm64: QEMU with an initramfs instead (same options).
if [ "$UU_ARCH" != x86_64 ]; then
	ARCH=$KARCH exec "$HARNESS/vm-initramfs.sh" "$@"
fi

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

kernel=$KIMAGE
[ -f "$kernel" ] || die "no kernel at $kernel: run 'make kernel' first"

if [ ! -x "$VNG_DIR/usr/bin/vng" ]; then
	deb=$("$HARNESS/fetch-deb.sh" virtme-ng "$VNG_PIN")
	rm -rf "$VNG_DIR"
	dpkg-deb -x "$deb" "$VNG_DIR"
fi
# virtme-ng is pure Python, run from its unpacked .deb; it calls its own
# helpers (virtme-run) through PATH.
export PYTHONPATH=$VNG_DIR/usr/lib/python3/dist-packages
export PATH=$VNG_DIR/usr/bin:$PATH
vng() {
	/usr/bin/python3 "$VNG_DIR/usr/bin/vng" "$@"
}

mkdir -p "$RESULTS"
out=$(mktemp -d "$RESULTS/vm.XXXXXX")

# KVM opens on some hosts of this kind but its guests hang: trust it only if
# a guest boots within 10 s, and remember the answer per host kernel + QEMU.
accel_args=(--disable-kvm)
if [ -w /dev/kvm ]; then
	probe=$CACHE/kvm-probe.$(uname -r).$(qemu-system-x86_64 --version | head -n1 | tr -dc '0-9.')
	if [ ! -f "$probe" ]; then
		echo no > "$probe"
		if timeout -k 2 10 /usr/bin/python3 "$VNG_DIR/usr/bin/vng" --run "$kernel" --force-9p \
			--memory 512M --rwdir "$out" --exec "echo ok > $out/kvm" \
			</dev/null >/dev/null 2>&1 && [ -f "$out/kvm" ]; then
			echo yes > "$probe"
		fi
		rm -f "$out/kvm"
		log "KVM probe: $(cat "$probe") (cached in $probe)"
	fi
	[ "$(cat "$probe")" = yes ] && accel_args=()
fi

common=(--run "$kernel" --force-9p --skip-modules --memory 2G --cpus 2 --rwdir "$out"
	--cwd "$PWD" "${accel_args[@]}")
# VM_RWDIR: one more host directory the guest may write (make wine: the
# Wine prefix).
[ -n "${VM_RWDIR:-}" ] && common+=(--rwdir "$VM_RWDIR")

if [ -n "$interactive" ]; then
	vng "${common[@]}"
	exit
fi

# The guest's common.sh finds the build (the PE module) by these.
printf 'UNWIND_CACHE=%q\nKVARIANT=%q\nKVER=%q\n' "$CACHE" "$KVARIANT" "$KVER" > "$out/env"
# One argument is a shell command line; several are a command and its
# arguments, kept as they are.
if [ $# -eq 1 ]; then
	printf '%s\n' "$1" > "$out/cmd"
else
	printf '%q ' "$@" > "$out/cmd"
fi
# The guest runs guest.sh, which records the status and output in $out;
# vng's own exit status does not carry the command's.
set +e
timeout -k 5 "$limit" /usr/bin/python3 "$VNG_DIR/usr/bin/vng" "${common[@]}" --verbose \
	--append "panic=-1 oops=panic ${VM_APPEND:-}" \
	--exec "$HARNESS/guest.sh $out" </dev/null > "$out/console.log" 2>&1
vm_rc=$?
set -e
if [ -n "${VM_CONSOLE_DIR:-}" ]; then
	mkdir -p "$VM_CONSOLE_DIR"
	cp "$out/console.log" "$VM_CONSOLE_DIR/${out##*/}.log"
	cp "$out/cmd" "$VM_CONSOLE_DIR/${out##*/}.cmd"
fi

if [ -f "$out/output" ]; then
	cat "$out/output"
fi
if [ -f "$out/rc" ]; then
	rc=$(cat "$out/rc")
else
	if [ $vm_rc -eq 124 ] || [ $vm_rc -eq 137 ]; then
		echo "vm: the guest did not finish within ${limit} s (hang?)" >&2
		rc=124
	else
		echo "vm: the guest ended without a result (panic?)" >&2
		rc=125
	fi
	echo "vm: last console lines ($out/console.log):" >&2
	tail -n 30 "$out/console.log" >&2
fi
exit "$rc"
