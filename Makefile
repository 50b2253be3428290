# SPDX-License-Identifier: GPL-2.0
#
# Build, boot and test Linux 7.2 + this overlay.  See README.md.
# Downloads and build outputs live in $(UNWIND_CACHE) (default
# ~/.cache/unwind-user), never in this checkout.

H := harness

.PHONY: all deps tree kernel perf selftests vm run demo check checkpatch mutants \
	sparse harness-selftest patches-import patches-export series series-check \
	clean help \
	unit fuzz fuzz-pe fuzz-perf-pe bench bench-register bench-kernel bench-mm bench-e2e bench-share audit realbin \
	check-debug \
	registry-old wine wine-stock wine-loader demo-wine glibc cpython libgcc

all: kernel perf selftests

help:
	@sed -n 's/^## //p' README.md

deps:
	@$(H)/deps.sh

tree: deps
	@$(H)/tree.sh

kernel: tree
	@$(H)/kernel.sh

perf: tree
	@$(H)/perf.sh

selftests: kernel
	@$(H)/selftests.sh

# make run CMD='uname -a'   (a command line run by a shell in the guest)
# make vm                   (an interactive shell in the guest)
# ARCH=s390, ARCH=arm64: the s390x or arm64 kernel and selftests in a
# qemu-system-s390x or qemu-system-aarch64 guest (no perf there: the tests
# use perf_event_open() directly).
# CMD reaches vm.sh as one argument, quoted here once and unexpanded by
# make ($(value)): its pipes, ';' and redirections run in the guest, never
# in the shell of this recipe on the host.  Unexported, or make would
# expand it ($(shell ...) included) for the recipe's environment.
ifneq ($(filter s390 s390x arm64 aarch64,$(ARCH)),)
GUEST := kernel selftests
else
GUEST := kernel perf selftests
endif

unexport CMD
ifneq ($(filter run,$(MAKECMDGOALS)),)
ifeq ($(value CMD),)
$(error make run needs CMD='a command line for the guest')
endif
endif

run: $(GUEST)
	@$(H)/vm.sh -t $(or $(TIMEOUT),600) '$(subst ','\'',$(value CMD))'

vm: $(GUEST)
	@$(H)/vm.sh -i

demo: kernel perf selftests
	@$(H)/demo.sh

# The unwinder on real Debian binaries (python3, a C++ program throwing
# through 100 frames), with and without the LD_AUDIT helper, against gdb:
# a verdict per case, and "realbin: N passed, N failed".
realbin: kernel perf selftests
	@$(H)/realbin.sh

# Debian bookworm's glibc 2.36 with patches/glibc/ (ld.so + libc.so, cached)
# and, in the guest, a no-frame-pointer C++ program under its ld.so without
# LD_AUDIT: the share of chains reaching main and _start (opt-in).
glibc: kernel perf selftests
	@$(H)/glibc.sh

# Debian trixie's Python 3.13, no frame pointers, with and without
# patches/cpython/ (cached), then -X perf and -X perf_jit in the guest
cpython: kernel perf
	@$(H)/cpython.sh

# Debian trixie's GCC 14 libgcc_s with and without patches/libgcc/ (cached),
# then a JIT that registers its .eh_frame with __register_frame() only, in
# the guest: the prctl calls and the chains through the JIT's frames.
libgcc: kernel perf selftests
	@$(H)/libgcc.sh

check:
	@$(H)/check.sh

# The kselftests, a stress test, the prctl fuzzer and allocation failures on
# a kernel with KASAN, lockdep, kmemleak and fault injection; the whole
# console scanned for splats, and kmemleak shown to find a planted leak.
check-debug:
	@$(H)/check-debug.sh

# The unwinder's C in user space: unit + oracle tests, a long fuzz run
# (FUZZ_SECONDS=600 by default), the unwinding benchmark.
unit: tree
	@$(H)/user.sh run_tests

# The registry tests against the registry before its rewrite (da05eb2):
# each must fail there, for the defect it was written for.
registry-old: tree
	@$(H)/registry-old.sh

fuzz: tree
	@$(H)/user.sh fuzz $(if $(FUZZ_SECONDS),FUZZ_SECONDS=$(FUZZ_SECONDS))

fuzz-pe: tree
	@$(H)/user.sh fuzz_pe $(if $(FUZZ_SECONDS),FUZZ_SECONDS=$(FUZZ_SECONDS))

fuzz-perf-pe: tree
	@$(H)/user.sh fuzz_perf_pe $(if $(FUZZ_SECONDS),FUZZ_SECONDS=$(FUZZ_SECONDS))

bench: tree
	@$(H)/user.sh bench

# Cost of prctl(PR_REGISTER_EH_FRAME) + unregister, and kernel memory
# per registration, measured in the guest (BENCH_ARGS: pairs, registrations).
# The PE backend under real Wine in the guest (see harness/wine.sh).
wine: kernel perf selftests
	@$(H)/wine.sh

# Windows programs under Wine as distributions ship it, registering nothing:
# the kernel finds their PE images by itself (see harness/wine-stock.sh).
wine-stock: kernel selftests
	@$(H)/wine-stock.sh

# The same with Wine's ntdll.so built with patches/wine (cached): Wine's
# loader registers the images, the program nothing (opt-in).
wine-loader: kernel perf selftests
	@$(H)/wine-loader.sh

# perf callchains through Windows code under Wine, with PE function names.
demo-wine: kernel perf selftests
	@$(H)/demo-wine.sh

bench-register: kernel perf selftests
	@$(H)/vm.sh -t 600 $(CURDIR)/$(H)/bench-register-guest.sh $(BENCH_ARGS)

# ns per frame of the kernel's own walk: FP build + FP walk next to the
# no-FP build + CFI walk, cache cold and warm (BENCH_ARGS: walks per run).
bench-kernel: kernel perf selftests
	@$(H)/vm.sh -t 600 $(CURDIR)/$(H)/bench-kernel-guest.sh $(BENCH_ARGS)

# Frames shared between processes (kernel.unwind_tables_share off, then on):
# perf record -a over loops of short-lived processes (e2e_workload, gcc),
# then the memory of 100 python3 processes profiled at once (BENCH_ARGS:
# processes per loop, e2e_workload rounds, python3 processes).
bench-share: kernel perf selftests
	@$(H)/vm.sh -t 2400 $(CURDIR)/$(H)/bench-share-guest.sh $(BENCH_ARGS)

# fork()+exit and mmap()+munmap() on Linux 7.2 with and without the series.
bench-mm: kernel perf selftests
	@$(H)/bench-mm.sh

# What perf record --call-graph fp,defer at 10 kHz costs a program, FP build
# + FP walk next to no-FP build + CFI walk (BENCH_ARGS: rounds, period in
# ns), on a kernel with high-resolution timers (KVARIANT=hrt).
bench-e2e: perf selftests
	@KVARIANT=hrt $(H)/kernel.sh
	@KVARIANT=hrt $(H)/vm.sh -t 1200 $(CURDIR)/$(H)/bench-e2e-guest.sh $(BENCH_ARGS)

# The LD_AUDIT module that registers shared libraries' unwind tables
# (tools/unwind_user/ld_audit); prints its path last.
audit:
	@$(H)/audit.sh

# Break each protection the series claims and require its test to fail
# (harness/mutants.py; not part of make check: about 25 minutes).
mutants: kernel selftests
	@$(H)/mutants.py $(MUTANTS)

checkpatch: tree
	@$(H)/style.sh checkpatch

sparse: kernel
	@$(H)/style.sh sparse

harness-selftest: kernel
	@$(H)/selftest.sh

patches-import:
	@$(H)/patches.sh import

patches-export:
	@$(H)/patches.sh export

# The series as git format-patch writes it, with its cover letter
# (patches/cover-letter), in $(UNWIND_CACHE)/series/patches; lists them.
series: tree
	@$(H)/series.py format "$${UNWIND_CACHE:-$$HOME/.cache/unwind-user}/src/linux" \
		HEAD "$${UNWIND_CACHE:-$$HOME/.cache/unwind-user}/series/patches"

# checkpatch on each patch, and each commit built on x86-64, s390x and arm64
# (SERIES_ARCHES, SERIES_FROM, SERIES_TO to narrow it down).
series-check: deps
	@$(H)/series-check.sh

clean:
	rm -rf "$${UNWIND_CACHE:-$$HOME/.cache/unwind-user}/build" \
	       "$${UNWIND_CACHE:-$$HOME/.cache/unwind-user}/results"
