#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the kernel's PE unwinder with binutils' decode of the same images.

For each PE32+ image, `x86_64-w64-mingw32-objdump -x` prints the function
table (.pdata) and decodes every UNWIND_INFO (.xdata): version, flags,
prolog size, frame register and offset, each unwind code with its prolog
offset and operands in bytes, chained entries, version 2 epilogs; and
`objdump -d` gives the instructions.  From those alone this script works
out, for every instruction of every function, the rules Windows'
RtlVirtualUnwind applies there (its documented semantics: codes at or
before the prolog offset are undone in order, SAVE_NONVOL is relative to
the frame base, a chained entry continues with its parent, PUSH_MACHFRAME
ends the frame; in the frame the thread is in, an epilog of
add/lea rsp, pops and ret/jmp-out is simulated instead) and compares them
with what the oracle tool (pe_oracle.c, the kernel's pe.c) answers, once
as a return address and once as the thread's own pc.  Instructions outside
every function must be leaves.  The images come from gcc (mingw, Wine's
DLLs) and from MSVC (PE_MSVC_IMAGES), whose images usually have no
symbols.

The rules are compared as pe.h states them: CFA = register + offset, the
return address and the caller's rsp relative to the CFA, the CFA offset of
every saved nonvolatile register (rbx rbp rsi rdi r12..r15), and the
flags (machine frame 1, leaf 2, epilog 4).
"""

import argparse
import random
import re
import subprocess
import sys

NONVOL = ["rbx", "rbp", "rsi", "rdi", "r12", "r13", "r14", "r15"]
GPRS = ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"] + \
    ["r%d" % i for i in range(8, 16)]
EOPNOTSUPP = -95
MACHINE, LEAF, EPILOG = 1, 2, 4
MAX_POPS = 16

IMAGE_BASE = re.compile(r"^ImageBase\s+([0-9a-f]+)$")
FTABLE = re.compile(r"^ +([0-9a-f]+):\t([0-9a-f]+) ([0-9a-f]+) ([0-9a-f]+)$")
XDATA = re.compile(r"^ ([0-9a-f]+) \(rva: ([0-9a-f]+)\): ([0-9a-f]+) - ([0-9a-f]+)$")
VERSION = re.compile(r"^\tVersion: (\d+), Flags: (.*)$")
COUNTS = re.compile(r"^\tNbr codes: (\d+), Prologue size: 0x([0-9a-f]+), "
                    r"Frame offset: 0x([0-9a-f]+), Frame reg: (\w+)$")
CODE = re.compile(r"^\t  pc\+0x([0-9a-f]+): (.*)$")
V2_EPILOG = re.compile(r"^\tv2 epilog \(length: ([0-9a-f]+)\) at pc\+:(.*)$")
CHAIN = re.compile(r"^\tChain: start: ([0-9a-f]+), end: ([0-9a-f]+)$")
CHAIN_DATA = re.compile(r"^\t unwind data: ([0-9a-f]+)\.$")
# objdump prints a jmp's target bare when a symbol names it, with 0x
# when none does (images without symbols, as MSVC's usually are).
JMP_REL = re.compile(r"^jmp (?:0x)?([0-9a-f]+)(?: <.*>)?$")
INSN = re.compile(r"^ +([0-9a-f]+):\t([0-9a-f]{2}(?: [0-9a-f]{2})*) *\t(.*)$")

PUSH = re.compile(r"^push (\w+)$")
ALLOC = re.compile(r"^alloc (?:small|large) area: rsp = rsp - 0x([0-9a-f]+)$")
FPREG = re.compile(r"^FPReg: (\w+) = rsp \+ 0x([0-9a-f]+) \(info = 0x[0-9a-f]+\)$")
SAVE = re.compile(r"^save (\w+) at rsp \+ 0x([0-9a-f]+)( \[Unexpected!\])?$")
MACHFRAME = re.compile(r"^interrupt entry \(SS, old RSP, EFLAGS, CS, RIP(,ErrorCode)?\)$")


class Info:
    def __init__(self, rva):
        self.rva = rva
        self.version = None
        self.flags = ""
        self.count = None
        self.prolog = None
        self.frame_off = 0
        self.frame_reg = None
        self.codes = []         # (offset, kind, args), in array order
        self.epilog_len = None  # version 2: common length, start offsets
        self.epilogs = []
        self.chain = None       # (begin, end, unwind) RVAs


def parse_x(text):
    base = None
    funcs = []
    infos = {}
    cur = None
    in_table = False
    for line in text.splitlines():
        m = IMAGE_BASE.match(line)
        if m:
            base = int(m.group(1), 16)
            continue
        if line.startswith("The Function Table"):
            in_table = True
            continue
        if in_table:
            m = FTABLE.match(line)
            if m:
                funcs.append(tuple(int(m.group(i), 16) - base for i in (2, 3, 4)))
                continue
            if funcs and not line.strip():
                in_table = False
            continue
        m = XDATA.match(line)
        if m:
            cur = Info(int(m.group(2), 16))
            infos[cur.rva] = cur
            continue
        if cur is None:
            continue
        m = VERSION.match(line)
        if m:
            cur.version = int(m.group(1))
            cur.flags = m.group(2)
            continue
        m = COUNTS.match(line)
        if m:
            cur.count = int(m.group(1))
            cur.prolog = int(m.group(2), 16)
            cur.frame_off = int(m.group(3), 16)
            cur.frame_reg = None if m.group(4) == "none" else m.group(4)
            continue
        m = CODE.match(line)
        if m:
            cur.codes.append((int(m.group(1), 16), m.group(2)))
            continue
        m = V2_EPILOG.match(line)
        if m:
            cur.epilog_len = int(m.group(1), 16)
            cur.epilogs = [int(x, 16) for x in re.findall(r"0x([0-9a-f]+)", m.group(2))]
            continue
        m = CHAIN.match(line)
        if m:
            cur.chain = [int(m.group(1), 16), int(m.group(2), 16), None]
            continue
        m = CHAIN_DATA.match(line)
        if m and cur.chain:
            cur.chain[2] = int(m.group(1), 16)
            continue
        if line.startswith("\t") or not line.strip():
            continue
        cur = None
    return base, funcs, infos


def parse_d(text, base):
    """Instruction starts: rva -> (bytes, text), and their sorted list."""
    insns = {}
    for line in text.splitlines():
        m = INSN.match(line)
        if m:
            rva = int(m.group(1), 16) - base
            insns[rva] = ([int(b, 16) for b in m.group(2).split()],
                          " ".join(m.group(3).split()))
    return insns


def frame(cfa, ra_off, sp_off, flags, saves):
    reg, off = cfa
    out = [0, GPRS.index(reg), off, ra_off, sp_off, flags]
    for r in NONVOL:
        if r in saves:
            sreg, soff = saves[r]
            if sreg != reg:
                return (EOPNOTSUPP,)
            out.append(soff - off)
        else:
            out.append(None)
    return tuple(out)


class Image:
    def __init__(self, base, funcs, infos, insns):
        self.base = base
        self.funcs = funcs
        self.infos = infos
        self.insns = insns
        self.by_begin = {f[0]: f for f in funcs}
        self.jmp_epilogs = set()    # pcs of epilogs ending in a jmp

    def func_at(self, rva):
        for f in self.funcs:            # callers cache; see lookup()
            if f[0] <= rva < f[1]:
                return f
        return None

    def primary(self, f):
        for _ in range(33):
            info = self.infos[f[2]]
            if not info.chain:
                return f
            f = tuple(info.chain)
        raise ValueError("chain too long")

    def codes_row(self, f, rva):
        info = self.infos[f[2]]
        off = rva - f[0]
        if info.frame_reg and (off >= info.prolog or info.chain or any(
                c[1].startswith("FPReg") and c[0] <= off for c in info.codes)):
            base = (info.frame_reg, -16 * info.frame_off)
        else:
            base = ("rsp", 0)
        rsp = ("rsp", 0)
        saves = {}
        machine = None
        while True:
            for i, (coff, text) in enumerate(info.codes):
                if coff > off:
                    continue
                m = PUSH.match(text)
                if m:
                    if m.group(1) in NONVOL:
                        saves[m.group(1)] = rsp
                    rsp = (rsp[0], rsp[1] + 8)
                    continue
                m = ALLOC.match(text)
                if m:
                    rsp = (rsp[0], rsp[1] + int(m.group(1), 16))
                    continue
                m = FPREG.match(text)
                if m:
                    rsp = (m.group(1), -int(m.group(2), 16))
                    continue
                m = SAVE.match(text)
                if m:
                    if m.group(1) in NONVOL:
                        saves[m.group(1)] = (base[0], base[1] + int(m.group(2), 16))
                    continue
                m = MACHFRAME.match(text)
                if m:
                    if i != len(info.codes) - 1 or info.chain:
                        return (EOPNOTSUPP,)
                    machine = 8 if m.group(1) else 0
                    continue
                raise ValueError("unknown code %r" % text)
            if not info.chain:
                break
            f = tuple(info.chain)
            info = self.infos[f[2]]
            off = (rva - f[0]) & 0xffffffff
        if machine is not None:
            return frame((rsp[0], rsp[1] + machine + 40), -40, -16, MACHINE, saves)
        return frame((rsp[0], rsp[1] + 8), -8, 0, 0, saves)

    def epilog_row(self, f, info, rva):
        """The epilog Windows recognises at rva, simulated; or None."""
        rsp = ("rsp", 0)
        saves = {}
        at = rva

        def insn():
            return self.insns.get(at, ([], ""))

        code, text = insn()
        m = re.match(r"^add \$(0x[0-9a-f]+),%rsp$", text)
        if m:
            imm = int(m.group(1), 16)
            if imm >= 1 << 63:
                imm -= 1 << 64
            rsp = ("rsp", imm)
            at += len(code)
        else:
            m = re.match(r"^lea (-?0x[0-9a-f]+)\(%(\w+)\),%rsp$", text)
            if m and info.frame_reg == m.group(2):
                rsp = (m.group(2), int(m.group(1), 16))
                at += len(code)
        for _ in range(MAX_POPS):
            code, text = insn()
            m = re.match(r"^pop %(\w+)$", text)
            if not m:
                break
            if m.group(1) == "rsp":
                return None
            if m.group(1) in NONVOL:
                saves[m.group(1)] = rsp
            rsp = (rsp[0], rsp[1] + 8)
            at += len(code)
        code, text = insn()
        if at >= f[1] or not code:
            return None
        ok = False
        if text in ("ret", "repz ret") or text.startswith("ret $"):
            ok = True
        elif JMP_REL.match(text) and code[0] in (0xe9, 0xeb):
            # A tail call, as Windows decides.  Wine 8.0 does not: its
            # is_inside_epilog() follows a jmp inside the function and
            # takes none out of it (nor ff 25, nor rex.W ff /4) as one.
            target = int(JMP_REL.match(text).group(1), 16) - self.base
            if f[0] <= target < f[1]:
                ok = target == f[0] and not info.chain
            else:
                g = self.func_at(target)
                if g is None:
                    ok = True
                else:
                    pg = self.primary(g)
                    ok = pg[0] != self.primary(f)[0] or target == pg[0]
        elif code[:2] == [0xff, 0x25]:
            ok = True                   # jmp *disp(%rip)
        elif len(code) >= 3 and code[0] & 0xf8 == 0x48 and code[1] == 0xff and \
                code[2] & 0x38 == 0x20:
            ok = True                   # rex.W jmp *r/m64
        if not ok:
            return None
        if not text.startswith(("ret", "repz")):
            self.jmp_epilogs.add(rva)
        return frame((rsp[0], rsp[1] + 8), -8, 0, EPILOG, saves)

    def expected(self, rva, exact):
        f = self.func_at(rva)
        if f is None:
            return (0, GPRS.index("rsp"), 8, -8, 0, LEAF) + (None,) * 8
        info = self.infos[f[2]]
        off = rva - f[0]
        if exact and off >= info.prolog and (info.count or info.chain):
            if info.version == 2 and info.epilog_len is not None:
                # objdump prints where each epilog starts: pc+OFFSET
                inside = any(f[0] + s <= rva < f[0] + s + info.epilog_len
                             for s in info.epilogs)
                if inside:
                    row = self.epilog_row(f, info, rva)
                    return row if row else (EOPNOTSUPP,)
            else:
                row = self.epilog_row(f, info, rva)
                if row:
                    return row
        return self.codes_row(f, rva)


def parse_tool_line(line):
    parts = line.split()
    rva, exact, ret = int(parts[0], 16), int(parts[1]), int(parts[2])
    if ret:
        return rva, exact, (ret,)
    vals = [int(x) for x in parts[3:8]]
    saves = [None if x == "-" else int(x) for x in parts[8:16]]
    return rva, exact, tuple([0] + vals + saves)


def fmt(row):
    if len(row) == 1:
        return "error %d" % row[0]
    s = "CFA=%s%+d ra@%d sp@%d flags %d" % (GPRS[row[1]], row[2], row[3], row[4], row[5])
    for r, off in zip(NONVOL, row[6:]):
        if off is not None:
            s += " %s@%d" % (r, off)
    return s


def check_image(path, args):
    x = subprocess.run([args.objdump, "-x", path], capture_output=True,
                       text=True, check=True).stdout
    d = subprocess.run([args.objdump, "-d", path], capture_output=True,
                       text=True, check=True).stdout
    base, funcs, infos = parse_x(x)
    insns = parse_d(d, base)
    img = Image(base, funcs, infos, insns)

    # Every instruction start, inside functions or not (leaves).
    pcs = sorted(insns)
    if args.max_pcs and len(pcs) > args.max_pcs:
        pcs = sorted(random.Random(1).sample(pcs, args.max_pcs))

    # func_at() by a sweep over the sorted pcs
    func_of = {}
    i = 0
    for rva in pcs:
        while i < len(funcs) and funcs[i][1] <= rva:
            i += 1
        func_of[rva] = funcs[i] if i < len(funcs) and funcs[i][0] <= rva else None
    img.func_at = lambda rva: func_of[rva] if rva in func_of else \
        next((f for f in funcs if f[0] <= rva < f[1]), None)

    queries = "".join("%x %d\n" % (rva, e) for rva in pcs for e in (0, 1))
    tool = [args.tool, path]
    if args.laid_out:
        tool = [args.tool, "--laid-out", args.laid_out]
    out = subprocess.run(tool, input=queries, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    head = out[0].split()
    if head[0] != "image" or int(head[2]) != len(funcs):
        print("%s: init: %s, objdump lists %d functions" % (path, out[0], len(funcs)))
        return len(funcs), 0, 1, {}
    bad = 0
    # Also counted, for MSVC's code: epilogs ending in a tail call (jmp
    # out, rex.W jmp), registers saved in the caller's home area (at or
    # above the CFA; gcc never does), chained entries (split functions).
    kinds = {"epilog": 0, "machine": 0, "leaf": 0, "framereg": 0,
             "jmp-epilog": 0, "home": 0, "chained": 0}
    for line in out[1:]:
        rva, exact, got = parse_tool_line(line)
        try:
            want = img.expected(rva, exact)
        except (KeyError, ValueError) as e:
            want = ("python: %s" % e,)
        if got != want:
            bad += 1
            if bad <= args.show:
                print("%s: %#x%s: got %s, want %s" % (
                    path, rva + base, " (exact)" if exact else "",
                    fmt(got), fmt(want) if isinstance(want[0], int) else want[0]))
            continue
        if len(got) > 1:
            kinds["epilog"] += bool(got[5] & EPILOG)
            kinds["machine"] += bool(got[5] & MACHINE)
            kinds["leaf"] += bool(got[5] & LEAF)
            kinds["framereg"] += got[1] != GPRS.index("rsp")
            kinds["jmp-epilog"] += bool(got[5] & EPILOG) and rva in img.jmp_epilogs
            kinds["home"] += any(o is not None and o >= 0 for o in got[6:])
            f = img.func_at(rva)
            kinds["chained"] += bool(f and img.infos[f[2]].chain)
    print("%s: %d functions, %d lookups, %d mismatches (%s)" % (
        path, len(funcs), len(out) - 1, bad,
        ", ".join("%s %d" % kv for kv in kinds.items())))
    return len(funcs), len(out) - 1, bad, kinds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--objdump", default="x86_64-w64-mingw32-objdump")
    ap.add_argument("--max-pcs", type=int, default=0,
                    help="look up a sample of this many pcs per image")
    ap.add_argument("--show", type=int, default=20)
    ap.add_argument("--laid-out", metavar="IMAGE",
                    help="the tool reads IMAGE, the one file given as a process "
                    "has it in memory (RVA == file offset); objdump the file")
    ap.add_argument("--require", metavar="KIND=N", action="append", default=[],
                    help="fail unless the images hold at least N good lookups of "
                    "KIND (home, chained, jmp-epilog, ...): a case not met is "
                    "a case not tested")
    ap.add_argument("images", nargs="+")
    args = ap.parse_args()
    if args.laid_out and len(args.images) != 1:
        ap.error("--laid-out takes one file")
    funcs = lookups = bad = 0
    total = {}
    for path in args.images:
        f, n, b, kinds = check_image(path, args)
        funcs += f
        lookups += n
        bad += b
        for k, v in kinds.items():
            total[k] = total.get(k, 0) + v
    print("oracle: PE: %d images, %d functions, %d lookups, %d mismatches" % (
        len(args.images), funcs, lookups, bad))
    missing = 0
    for req in args.require:
        kind, _, n = req.partition("=")
        if total.get(kind, 0) < int(n or 1):
            print("oracle: PE: %d good lookups of %s, at least %s required" % (
                total.get(kind, 0), kind, n or 1))
            missing += 1
    return 1 if bad or not lookups or missing else 0


if __name__ == "__main__":
    sys.exit(main())
