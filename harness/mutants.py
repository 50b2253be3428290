#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make mutants: break each protection the series claims, one at a time,
and require the test named for it to fail, with its own message.

Each mutant replaces one exact, unique piece of a file of the assembled
tree ($SRC).  A "user" mutant runs a target of tools/testing/unwind_user
(the unwinder's C in user space) into a scratch directory; a "guest"
mutant rebuilds the kernel incrementally (harness/kernel.sh) and runs one
kselftest in the guest.  A mutant is killed when its test fails with the
expected message (a user target must also exit non-zero); one that does
not build counts as alive.
The file is restored after each mutant, and the kernel rebuilt from the
clean tree at the end.  Prints a line per mutant and "N of N mutants
killed"; exits non-zero unless all were.

    mutants.py [NAME...]    only the mutants named

A mutant of another architecture's code ("arch": "arm64") runs under
ARCH=arm64 only, its kernel and guest that architecture's; a run for
another architecture lists it as not run.
"""
import os
import re
import subprocess
import sys
import tempfile
import time

HARNESS = os.path.dirname(os.path.abspath(__file__))


def env(name):
    out = subprocess.run(["bash", "-c", f'. "{HARNESS}/common.sh"; echo "${name}"'],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


MUTANTS = [
    # -- user space (tools/testing/unwind_user) --
    dict(name="absolute-fde-shared", kind="user", target="run_unit",
         file="kernel/unwind/eh_frame.c",
         old="\t\t*absolute |= (fde->cie.fde_enc & DW_EH_PE_application_mask) ==",
         new="\t\t*absolute |= 0 && (fde->cie.fde_enc & DW_EH_PE_application_mask) ==",
         expect="case 2: covered pc",
         why="a lookup through an absolute FDE is shared (issue 30 #1)"),
    dict(name="drop-kills-fork-relatives", kind="user", target="run_registry",
         file="kernel/unwind/registry.c",
         old="\tif (refcount_read(&e->ref) == 2) {",
         new="\tif (refcount_read(&e->ref) >= 2) {",
         expect="the parent's table was dropped by its child",
         why="a drop marks the entry its fork relatives share (issue 30 #4)"),
    dict(name="stack-switch-unbounded", kind="user", target="run_unit",
         file="kernel/unwind/user.c",
         old="\t\t    state->stack_switches >= UNWIND_USER_MAX_STACK_SWITCHES)",
         new="\t\t    state->stack_switches >= 2 * UNWIND_USER_MAX_STACK_SWITCHES)",
         expect="of the circle), want",
         why="the walk follows more stack switches than its bound"),
    dict(name="cfi-budget-ignored", kind="user", target="run_unit",
         file="kernel/unwind/cfi.c",
         old="\t\tlimit = min_t(unsigned int, limit, *budget);",
         new="\t\tlimit = limit + 0 * *budget;",
         expect="the walk went on to the limit",
         why="the CFI run ignores the walk's budget"),
    dict(name="index-cap-off-by-one", kind="user", target="run_unit",
         file="kernel/unwind/eh_frame.c",
         old="\tif (scan->nr == EH_FRAME_INDEX_MAX_FDES)",
         new="\tif (scan->nr == EH_FRAME_INDEX_MAX_FDES + 1)",
         expect="262145 FDEs: an index",
         why="the index of a bare .eh_frame takes one FDE more than its cap"),
    dict(name="pe-epilog-unread", kind="user", target="run_pe_oracle",
         file="kernel/unwind/pe.c",
         old="\tret = pe_decode_epilog(ctx, rf, ui, b, len, rva, st);",
         new="\tret = 0 * pe_decode_epilog(ctx, rf, ui, b, len, rva, st);",
         expect_re=r"[1-9][0-9]* mismatches",
         why="the topmost PE frame in an epilog is unwound as in the body"),
    dict(name="perf-pe-unbounded-read", kind="user", target="fuzz_perf_pe",
         vars=["FUZZ_SECONDS=60"],
         file="tools/perf/util/symbol-pe.c",
         old="\tif (off > pe->size || len > pe->size - off)",
         new="\tif (off > pe->size)",
         expect="ERROR: AddressSanitizer",
         why="perf's PE reader reads past the end of the file (issue 30 #8)"),
    # -- the kernel, in the guest --
    dict(name="absolute-fde-shared-guest", kind="guest",
         test="./discover -t shared_not_absolute",
         file="kernel/unwind/eh_frame.c",
         old="\t\t*absolute |= (fde->cie.fde_enc & DW_EH_PE_application_mask) ==",
         new="\t\t*absolute |= 0 && (fde->cie.fde_enc & DW_EH_PE_application_mask) ==",
         expect="shared_not_absolute: Test failed",
         why="the same, in the kernel: a process of the program as linked gets "
             "the frames of a copy mapped a page off (issue 30 #1)"),
    dict(name="shared-across-users", kind="guest",
         test="./discover -t shared_per_user",
         file="kernel/unwind/shared.c",
         old="\treturn siphash_3u64(tag, __kuid_val(cred->euid),",
         new="\treturn tag ?: siphash_3u64(tag, __kuid_val(cred->euid),",
         expect="shared_per_user: Test failed",
         why="one user's rows are found by another's lookups (issue 30 #3)"),
    dict(name="shared-per-process", kind="guest",
         test="./discover -t shared_next_process",
         file="kernel/unwind/shared.c",
         old="\treturn siphash_3u64(tag, __kuid_val(cred->euid),",
         new="\treturn siphash_3u64(tag ^ current->tgid, __kuid_val(cred->euid),",
         expect="shared_next_process: Test failed",
         why="each process decodes its own rows: the next one starts cold "
             "(issue 31 #1: its walks hit rows it decoded itself)"),
    dict(name="fuse-files-shared", kind="guest",
         test="./fuse_stall -t remount_same_dev",
         file="kernel/unwind/shared.c",
         old="\treturn IS_I_VERSION(inode) && !inode_is_open_for_write(inode);",
         new="\treturn !inode_is_open_for_write(inode);",
         expect="remount_same_dev: Test failed",
         why="a FUSE file's identity names its bytes (issue 30 #2)"),
    dict(name="written-copy-shared", kind="guest",
         test="./discover -t shared_not_from_written_copy",
         file="kernel/unwind/shared.c",
         old="\t\tif (!vma->vm_file || READ_ONCE(vma->anon_vma) ||",
         new="\t\tif (!vma->vm_file ||",
         expect="shared_not_from_written_copy: Test failed",
         why="rows decoded from a process's written copy are shared"),
    dict(name="header-not-reread", kind="guest",
         test="./discover -t shared_not_from_written_header",
         file="kernel/unwind/shared.c",
         old="\tok = *header_checked || shared_header_same(sec);",
         new="\tok = *header_checked || 1 || shared_header_same(sec);",
         expect="shared_not_from_written_header: Test failed",
         why="a row decoded with a header the process wrote is shared"),
    dict(name="registrations-unshared", kind="guest",
         test="./discover -t shared_registered",
         file="kernel/unwind/registry.c",
         old="\tunwind_user_entry_share(mm, e, NULL, NULL);",
         new="\t(void)unwind_user_entry_share;",
         expect="shared_registered: Test failed",
         why="a registered table of a file does not share its frames"),
    dict(name="drop-in-fork-relatives", kind="guest",
         test="./discover -t dead_in_child",
         file="kernel/unwind/registry.c",
         old="\tif (refcount_read(&e->ref) == 2) {",
         new="\tif (refcount_read(&e->ref) >= 2) {",
         expect="dead_in_child: Test failed",
         why="a child's drop disables its parent's table (issue 30 #4)"),
    dict(name="null-call-ends-walk", kind="guest",
         test="./hard_cases -t null_call",
         file="kernel/unwind/user.c",
         old="\t\t\tif (ret == -ENXIO && state->topmost &&",
         new="\t\t\tif (ret == -ENXIO && state->topmost && false &&",
         expect="null_call: Test failed",
         why="a call through NULL is unwound by frame pointers (issue 30 #6)"),
    dict(name="module-asked-every-time", kind="guest",
         test="./pe_chain -t module",
         file="kernel/unwind/registry.c",
         old="\t\t   time_after(now, registry_loads_at[format] +",
         new="\t\t   true || time_after(now, registry_loads_at[format] +",
         expect="module: Test failed",
         why="modprobe is asked at every PE registration (issue 30 #5)"),
    dict(name="hole-probed-again", kind="guest",
         test="./discover -r obj.texthole.object",
         file="kernel/unwind/discover.c",
         old="\t\tunwind_user_entry_discard(*ep);\n\t\t*ep = NULL;\n\t}\n\tif (*ep) {",
         new="\t\tunwind_user_entry_discard(*ep);\n\t\t*ep = NULL;\n"
             "\t\tret = -ENOMEM;\n\t\tgoto out;\n\t}\n\tif (*ep) {",
         expect="Expected MAX_PROBES (8) >= probes1 - probes0",
         why="a hole in the text leaves no marker: every sample probes (issue 30 #7)"),
    dict(name="discover-rate-unlimited", kind="guest",
         test="./discover -t rate_limited",
         file="kernel/unwind/discover.c",
         old="\t\tif ((old & 0xff) >= UNWIND_USER_DISCOVER_RATE &&",
         new="\t\tif (0 && (old & 0xff) >= UNWIND_USER_DISCOVER_RATE &&",
         expect="no probe refused",
         why="an mm probes as many mappings a second as its samples meet"),
    dict(name="io-error-marked", kind="guest",
         test="./fuse_stall -t read_error_retried",
         file="kernel/unwind/discover.c",
         old="\t\t\tif (ret == -EFAULT && !hdr_data)",
         new="\t\t\tif (0 && ret == -EFAULT && !hdr_data)",
         expect="read_error_retried: Test failed",
         why="an I/O error reading a table's header marks the object for good "
             "(issue 30 #7)"),
    dict(name="cpu-share-unbounded", kind="guest",
         test="./cpu_bound",
         file="kernel/unwind/throttle.c",
         old="\tif (pct <= 0 || pct >= 100)",
         new="\tif (pct <= 0 || pct >= 0)",
         expect="share_bounded: Test failed",
         why="the walks take any share of the task's CPU"),
    dict(name="pac-not-stripped", kind="guest", arch="arm64",
         test="./callchain -r chain.fp_pac.cpu_clock",
         file="arch/arm64/include/asm/unwind_user.h",
         old="\treturn ptrauth_strip_user_insn_pac(ra);",
         new="\treturn ra;",
         expect="chains from d incomplete",
         why="return addresses signed with pointer authentication are used as read"),
    dict(name="entry-not-seen", kind="guest", arch="arm64",
         test="./callchain -r chain.fp_pac.uprobe_entry",
         file="arch/arm64/include/asm/unwind_user.h",
         old="\treturn is_uprobe_at_func_entry(regs);",
         new="\treturn false;",
         expect="chains from d incomplete",
         why="a uprobe on a function's first instruction taken for one past its prologue"),
    dict(name="cfa-at-sp-refused", kind="guest", arch="arm64",
         test="./callchain -r chain.fp.uprobe_entry",
         file="kernel/unwind/user.c",
         old="\treturn cfa == state->sp && !unwind_user_entry_cfa_off(state->ws) &&",
         new="\treturn 0 && cfa == state->sp && !unwind_user_entry_cfa_off(state->ws) &&",
         expect="chains from d incomplete",
         why="a topmost CFA at the stack pointer refused where calls push nothing"),
    dict(name="cfa-low-exact", kind="guest", arch="arm64",
         test="./callchain -r chain.fp.uretprobes",
         file="arch/arm64/include/asm/unwind_user.h",
         old="\t\t.cfa_low = true,",
         new="\t\t.cfa_low = false,",
         expect="chains from d incomplete",
         why="a frame record's CFA taken as exact: GCC frames' uretprobes not matched"),
    dict(name="negate-ra-refused", kind="guest", arch="arm64",
         test="./callchain -r chain.nofp_pac.cpu_clock",
         file="kernel/unwind/cfi.c",
         old="\tif (op == DW_CFA_GNU_window_save && st->negate_ra_state) {",
         new="\tif (op == DW_CFA_GNU_window_save && st->negate_ra_state && 0) {",
         expect="chains from d incomplete",
         why="DW_CFA_AARCH64_negate_ra_state refused: pac-ret code without frame pointers"),
    dict(name="sigreturn-not-described", kind="guest", arch="arm64",
         test="./callchain -r scenario.signal.cpu_clock",
         file="arch/arm64/kernel/signal.c",
         old="\tif (!vdso || ip != (unsigned long)VDSO_SYMBOL(vdso, sigtramp))",
         new="\tif (1 || !vdso || ip != (unsigned long)VDSO_SYMBOL(vdso, sigtramp))",
         expect="chains from d incomplete",
         why="the vDSO's sigreturn trampoline left to its table, which has no FDE for it"),
    dict(name="vdso-image-not-given", kind="guest", arch="arm64",
         test="./discover -t attach_qsort",
         file="arch/arm64/kernel/vdso.c",
         old="\tif (!vma_is_special_mapping(vma, info->cm) ||",
         new="\tif (1 || !vma_is_special_mapping(vma, info->cm) ||",
         expect="Expected v.leaf",
         why="the arm64 vDSO's table, kept in its image, never found: frame records alone"),
    dict(name="signal-regs-unread", kind="guest", arch="arm64",
         test="./callchain -r scenario.signal_leaf.cpu_clock",
         file="kernel/unwind/user.c",
         old="\t\tif (state->interrupted && state->sigregs)",
         new="\t\tif (0 && state->sigregs)",
         expect="chains from d incomplete",
         why="a leaf a signal interrupted cannot read x30 from the signal frame"),
    dict(name="signal-regs-unread-s390", kind="guest", arch="s390x",
         test="./s390_cases -t leafsig",
         file="kernel/unwind/user.c",
         old="\t\tif (state->interrupted && state->sigregs)",
         new="\t\tif (0 && state->sigregs)",
         expect="chains from leaf incomplete",
         why="a leaf a signal interrupted cannot read r14 and its FPR from _sigregs"),
]


def expected(m, out):
    if "expect_re" in m:
        return re.search(m["expect_re"], out) is not None
    return m["expect"] in out


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def apply(src, m):
    path = os.path.join(src, m["file"])
    with open(path) as f:
        text = f.read()
    n = text.count(m["old"])
    if n != 1:
        raise SystemExit(f"mutant {m['name']}: {n} matches in {m['file']}, want 1")
    with open(path, "w") as f:
        f.write(text.replace(m["old"], m["new"]))


def restore(src, m):
    run(["git", "-C", src, "checkout", "--", m["file"]], check=True)


def try_user(src, m, scratch):
    # The MSVC images of the PE oracle, as harness/user.sh passes them.
    msvc = run([os.path.join(HARNESS, "msvc-pe.sh")]).stdout.split()
    r = run(["make", "-s", "-C", os.path.join(src, "tools/testing/unwind_user"),
             f"OUTPUT={scratch}", "PE_MSVC_IMAGES=" + " ".join(msvc),
             *m.get("vars", []), m["target"]])
    out = r.stdout + r.stderr
    return r.returncode != 0 and expected(m, out), out


def try_guest(src, m, selftests):
    r = run([os.path.join(HARNESS, "kernel.sh")])
    if r.returncode:
        return False, "does not build:\n" + (r.stdout + r.stderr)[-2000:]
    cmd = f"cd {selftests} && {m['test']}"
    r = run(["flock", "/tmp/uu-guest.lock", os.path.join(HARNESS, "vm.sh"),
             "-t", "900", cmd])
    out = r.stdout + r.stderr
    return expected(m, out), out


def main():
    src = env("SRC")
    selftests = os.path.join(env("SELFTESTS_OUT"), "install/unwind_user")
    names = sys.argv[1:]
    todo = [m for m in MUTANTS if not names or m["name"] in names]
    if names and len(todo) != len(names):
        raise SystemExit(f"unknown mutant in {names}")
    arch = env("UU_ARCH")
    for m in [m for m in todo if m.get("arch", "x86_64") != arch]:
        print(f"not run  {m['name']}: ARCH={m['arch']} only", flush=True)
    todo = [m for m in todo if m.get("arch", "x86_64") == arch]
    if run(["git", "-C", src, "diff", "--quiet"]).returncode:
        raise SystemExit(f"{src} has changes: run harness/tree.sh first")
    killed = 0
    t0 = time.time()
    guest = False
    with tempfile.TemporaryDirectory() as scratch:
        for m in todo:
            start = time.time()
            apply(src, m)
            try:
                if m["kind"] == "user":
                    ok, out = try_user(src, m, scratch)
                else:
                    guest = True
                    ok, out = try_guest(src, m, selftests)
            finally:
                restore(src, m)
            killed += ok
            where = m.get("target") or m.get("test")
            print(f"{'killed' if ok else 'ALIVE '}  {m['name']}: {m['why']}; "
                  f"{where} ({time.time() - start:.0f} s)", flush=True)
            if not ok:
                print("    " + "\n    ".join(out.splitlines()[-15:]), flush=True)
    if guest:
        r = run([os.path.join(HARNESS, "kernel.sh")])
        if r.returncode:
            print("the kernel of the clean tree does not build again", flush=True)
            killed = -1
    print(f"{killed} of {len(todo)} mutants killed in {time.time() - t0:.0f} s")
    return 0 if killed == len(todo) else 1


if __name__ == "__main__":
    sys.exit(main())
