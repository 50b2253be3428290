# SPDX-License-Identifier: GPL-2.0
#
# make realbin: the guest script's helper.
#
#   realbin.py offset LIB SYMBOL
#	the file offset of SYMBOL in LIB, for a uprobe
#   realbin.py start-range EXE
#	for a non-PIE executable, the address range of _start (the entry
#	point's FDE), for executables without a symbol table; nothing for PIE
#   realbin.py chains LABEL SCRIPT_TXT COMM[,COMM...] [--main SYM] [--start LO-HI]
#	summary of `perf script` callchains: samples, how many reach main and
#	_start (and how many end at an entry point: _start, or ld.so's own
#	while it starts the program), and where the others stop; then the
#	verdict (see VERDICT below)
#   realbin.py compare [--table] LABEL GDB_TXT SCRIPT_TXT COMM[,COMM...] EXE
#	gdb's backtrace against the kernel's chain of the first sample whose
#	second frame is in EXE (with --table: both, frame by frame); then
#	the verdict: PASS only if both walks have the same frames, every
#	return address equal, down to gdb's outermost
#
# A verdict is one line, "verdict: PASS|FAIL LABEL: why", which
# realbin-guest.sh counts.
#
# SCRIPT_TXT is `perf script -F comm,pid,tid,event,ip,sym,dso,dsoff
# --no-inline --no-demangle`: a header line per sample, one line per frame
# ("ADDR SYM (DSO+0xOFF)"), a blank line between samples.
import collections
import os
import re
import subprocess
import sys

FRAME = re.compile(r"^\s+([0-9a-f]+) (.*) \((.*?)(?:\+(0x[0-9a-f]+))?\)$")

# The verdict of a profile: enough samples, and shares of them (in %) that
# reach main, and that end at an entry point, _start or ld.so's (while
# ld.so starts the program, before main exists: 1-5% of the samples).
# Measured twice on the project's machine, with and without LD_AUDIT (the
# kernel finds the libraries' tables itself), 407-687 samples a case:
# 95.3-98.8% reach main, 99.6-100% end at an entry point; the others stop
# in ld.so's lazy binding (_dl_runtime_resolve_xsave) or at a lone pc, at
# most 2 samples a case.
MIN_SAMPLES = 100
MIN_MAIN = 90.0
MIN_ENTRY = 98.0


def verdict(ok, label, why):
    print("verdict: %s %s: %s" % ("PASS" if ok else "FAIL", label, why))


def readelf(*args):
    return subprocess.run(["readelf", "-W"] + list(args), check=True,
                          capture_output=True, text=True).stdout


def sym_offset(lib, name):
    value = None
    for line in readelf("--dyn-syms", "--syms", lib).splitlines():
        f = line.split()
        if len(f) >= 8 and f[3] == "FUNC" and f[7].split("@")[0] == name:
            value = int(f[1], 16)
            break
    if value is None:
        sys.exit("realbin.py: no %s in %s" % (name, lib))
    for line in readelf("-l", lib).splitlines():
        f = line.split()
        if f and f[0] == "LOAD":
            off, vaddr, memsz = int(f[1], 16), int(f[2], 16), int(f[5], 16)
            if vaddr <= value < vaddr + memsz:
                return value - vaddr + off
    sys.exit("realbin.py: %s of %s in no PT_LOAD" % (name, lib))


def start_range(exe):
    if "EXEC (Executable file)" not in readelf("-h", exe):
        return ""
    entry = int(re.search(r"Entry point address:\s+(0x[0-9a-f]+)",
                          readelf("-h", exe)).group(1), 16)
    for m in re.finditer(r"FDE cie=\S+ pc=([0-9a-f]+)\.\.([0-9a-f]+)",
                         readelf("--debug-dump=frames", exe)):
        lo, hi = int(m.group(1), 16), int(m.group(2), 16)
        if lo <= entry < hi:
            return "%#x-%#x" % (lo, hi)
    return "%#x-%#x" % (entry, entry + 0x30)


def samples(path, comms):
    """[(comm, event, [(ip, sym, dso, off)])] of the samples of COMMS."""
    out, cur = [], None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                cur = None
                continue
            m = FRAME.match(line)
            if m and cur is not None:
                sym = re.sub(r"\+0x[0-9a-f]+$", "", m.group(2))
                cur[2].append((int(m.group(1), 16), sym, m.group(3), m.group(4)))
                continue
            head = line.split()
            cur = (head[0], head[2] if len(head) > 2 else "", [])
            if cur[0] in comms:
                out.append(cur)
    return out


def where(frame):
    ip, sym, dso, off = frame
    return "%s (%s%s)" % (sym, os.path.basename(dso), "+" + off if off else "")


def is_start(frame, rng):
    if frame[1] == "_start":
        return True
    return rng is not None and rng[0] <= frame[0] < rng[1]


def is_entry(frame, rng):
    """_start, or ld.so's own _start (its call to _dl_start returns to
    _dl_start_user), the outermost frame while ld.so starts the program."""
    return is_start(frame, rng) or (
        frame[1] == "_dl_start_user" and "ld-linux" in frame[2])


def chains(label, path, comms, main, start):
    rng = tuple(int(x, 16) for x in start.split("-")) if start else None
    all_s = samples(path, comms)
    n = len(all_s)
    reach_main = reach_start = entry = 0
    stops = collections.Counter()
    example = {}
    depth = []
    for _, _, fr in all_s:
        user = [f for f in fr if "kernel.kallsyms" not in f[2]]
        depth.append(len(user))
        if any(f[1] == main for f in user):
            reach_main += 1
        if user and is_entry(user[-1], rng):
            entry += 1
        if user and is_start(user[-1], rng):
            reach_start += 1
        elif user:
            ip, sym, dso, off = user[-1]
            key = "%s (%s)" % (sym, os.path.basename(dso))
            stops[key] += 1
            example.setdefault(key, user)
        else:
            stops["(empty chain)"] += 1
    pct = lambda k: 100.0 * k / n if n else 0.0
    depth.sort()
    med = depth[len(depth) // 2] if depth else 0
    print("%s: %d samples, %.1f%% reach %s, %.1f%% reach _start, "
          "%.1f%% end at _start or ld.so's _start, median %d frames"
          % (label, n, pct(reach_main), main, pct(reach_start), pct(entry), med))
    for what, k in stops.most_common(12):
        print("    %6d %5.1f%%  chain ends at %s" % (k, pct(k), what))
        if what in example:
            e = example[what]
            print("                   e.g. %d frames: ... %s" % (len(e), " <- ".join(
                "%#x %s" % (f[0], where(f)) for f in e[-3:])))
    if len(stops) > 12:
        print("    %6d        in %d other places" %
              (sum(k for _, k in stops.most_common()[12:]), len(stops) - 12))
    bad = []
    if n < MIN_SAMPLES:
        bad.append("%d samples, want %d or more" % (n, MIN_SAMPLES))
    if pct(reach_main) < MIN_MAIN:
        bad.append("%.1f%% reach %s, want %.0f%% or more"
                   % (pct(reach_main), main, MIN_MAIN))
    if pct(entry) < MIN_ENTRY:
        bad.append("%.1f%% end at an entry point, want %.0f%% or more"
                   % (pct(entry), MIN_ENTRY))
    verdict(not bad, label, "; ".join(bad) or
            "%d samples, %.1f%% reach %s (>= %.0f%%), %.1f%% end at an entry point (>= %.0f%%)"
            % (n, pct(reach_main), main, MIN_MAIN, pct(entry), MIN_ENTRY))


def gdb_frames(path):
    frames, stop = [], "?"
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("GDBFRAME "):
                _, i, pc, obj, name = line.rstrip("\n").split(None, 4)
                frames.append((int(pc, 16), name, obj, None))
            elif line.startswith("GDBSTOP "):
                stop = line[len("GDBSTOP "):].strip()
    return frames, stop


def table(g, k):
    for i in range(max(len(g), len(k))):
        gs = "%#x %s (%s)" % (g[i][0], g[i][1], os.path.basename(g[i][2])) if i < len(g) else "-"
        ks = "%#x %s" % (k[i][0], where(k[i])) if i < len(k) else "-"
        same = i < len(g) and i < len(k) and g[i][0] == k[i][0]
        print("%4d %s %-60s %s" % (i, "  " if same else "<>", gs[:60], ks))


def compare(label, gdb_path, script_path, comms, exe, show_table=False):
    g, stop = gdb_frames(gdb_path)
    hits = samples(script_path, comms)
    exe = os.path.realpath(exe)
    # The hit at gdb's stop: the same probed address, called from EXE.
    # (The LD_AUDIT module's own libc is a second mapping of the same
    # file, so its calls hit the uprobe too.)
    user = lambda smp: [f for f in smp[2] if "kernel.kallsyms" not in f[2]]
    same = [u for u in map(user, hits) if g and u and u[0][0] == g[0][0]]
    chosen = [u for u in same
              if len(u) > 1 and os.path.realpath(u[1][2]) == exe] or same
    k = chosen[0] if chosen else []
    if show_table:
        print("frame  gdb%58s kernel" % "")
        table(g, k)
        return
    if not chosen:
        print("%s: gdb %d frames, kernel: no hit at %s (%d probe hits)"
              % (label, len(g), "%#x" % g[0][0] if g else "gdb's stop", len(hits)))
        verdict(False, label, "no chain of the kernel to compare (gdb %d frames)" % len(g))
        return
    common = min(len(g), len(k))
    bad = [i for i in range(common) if g[i][0] != k[i][0]]
    print("%s: gdb %d frames, kernel %d frames, %d mismatches (%d probe hits)"
          % (label, len(g), len(k), len(bad), len(hits)))
    for i in bad[:3]:
        print("    frame %d: gdb %#x %s (%s), kernel %#x %s"
              % (i, g[i][0], g[i][1], os.path.basename(g[i][2]), k[i][0], where(k[i])))
    if len(k) < len(g):
        print("    kernel stops after frame %d %s; gdb goes on with %#x %s (%s)"
              % (len(k) - 1, where(k[-1]) if k else "-", g[len(k)][0],
                 g[len(k)][1], os.path.basename(g[len(k)][2])))
    elif len(k) > len(g):
        print("    kernel has more frames: %s ..." % where(k[len(g)]))
    if g:
        print("    gdb's outermost: %#x %s (%s), %s"
              % (g[-1][0], g[-1][1], os.path.basename(g[-1][2]), stop))
    # gdb's walk is the truth: too short a chain is as wrong as a wrong
    # frame, and frames past gdb's outermost are made up.
    verdict(len(g) > 1 and not bad and len(k) == len(g), label,
            "%d mismatches, kernel %d frames, gdb %d" % (len(bad), len(k), len(g)))


def main(argv):
    cmd = argv[1]
    if cmd == "offset":
        print("%#x" % sym_offset(argv[2], argv[3]))
    elif cmd == "start-range":
        print(start_range(argv[2]))
    elif cmd == "chains":
        opts = {"--main": "main", "--start": ""}
        rest = argv[5:]
        while rest:
            opts[rest[0]] = rest[1]
            rest = rest[2:]
        chains(argv[2], argv[3], set(argv[4].split(",")), opts["--main"], opts["--start"])
    elif cmd == "compare":
        t = argv[2] == "--table"
        a = argv[3:] if t else argv[2:]
        compare(a[0], a[1], a[2], set(a[3].split(",")), a[4], t)
    else:
        sys.exit("realbin.py: unknown command %s" % cmd)


if __name__ == "__main__":
    main(sys.argv)
