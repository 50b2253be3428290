#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the guest (started by vm.sh): run the command saved in
# $1/cmd with the harness' tools first in PATH, then leave its output and
# exit status in $1 for the host.
out=$1
# The host's cache (vm.sh): the environment does not cross into the guest.
[ -f "$out/env" ] && . "$out/env"
. "$(dirname "$0")/common.sh"

export PATH=$PERF_OUT:$PATH
# The Windows x64 (PE) backend is a module (CONFIG_UNWIND_USER_PE=m): load
# it from the build directory (the guest has no modules installed), and
# tell the tests that unload and reload it where it is.
pe_ko=$KBUILD/kernel/unwind/unwind_user_pe.ko
if [ -f "$pe_ko" ]; then
	export UNWIND_USER_PE_KO=$pe_ko
	# finit_module(2) directly: the host need not have kmod installed.
	python3 -c 'import ctypes, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
libc = ctypes.CDLL(None, use_errno=True)
if libc.syscall(313, fd, b"", 0):
    sys.exit("guest: cannot load %s: %s" % (sys.argv[1], os.strerror(ctypes.get_errno())))' "$pe_ko"
fi

# The kernel log is left as it is: the host scans the whole console, from
# the first line of the boot (harness/splat-scan.py), and the tests that
# read /dev/kmsg start at its end (ut_kmsg_open()).

# The command is one shell command line (vm.sh), run by its own shell: none
# of this script's variables leak into it.
set -o pipefail
bash -c "$(cat "$out/cmd")" 2>&1 | tee "$out/output.tmp"
rc=$?
mv "$out/output.tmp" "$out/output"
echo "$rc" > "$out/rc"
sync
