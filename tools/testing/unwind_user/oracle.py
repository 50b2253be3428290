#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the kernel's .eh_frame lookups with binutils' readelf.

x86-64 and i386 files are checked with the host's oracle tool and readelf;
s390x files (big-endian) with an s390x build of the tool, run under
qemu-s390x, and s390x-linux-gnu-readelf, so that the kernel code reads the
data in its own byte order, as it does on an s390x machine; arm64 files
with an arm64 build under qemu-aarch64 and aarch64-linux-gnu-readelf.

For each ELF file, `readelf --debug-dump=frames-interp` gives the table of
rules of every FDE; the oracle tool (oracle.c) answers lookups with the
kernel code.  Every row start and a pc in the middle of every row is looked
up (every pc of a row whose rules are expressions, up to a bound), and the
CFA, return address and frame pointer rules are compared, with the signal
frame flag (the CIE's 'S').

readelf's notation, and what it becomes here:
  CFA     rsp+8 -> sp+8, rbp+16 -> fp+16, rdi+0 -> r5+0, exp (expression)
  columns c-16 (saved at CFA-16), v+8 (value CFA+8), r5 (rdi) (in register 5),
          s (same value), u (undefined, or no rule yet: see below),
          exp / vexp (expressions); a column not shown has no rule
readelf prints "u" both for DW_CFA_undefined and for a register that some
instruction of the FDE mentions but that has no rule yet.  The raw dump
(--debug-dump=frames) tells them apart: a "u" is taken as undefined when the
CIE says DW_CFA_undefined for that register, and as either when only the FDE
does.

frames-interp prints only "exp" for an expression.  The raw dump has each
DW_CFA_*expression with its operators decoded (DW_OP_breg7 (rsp): 8; ...):
running the instructions of the CIE and FDE over those lines gives the
expression of the CFA, RA and FP columns in each row, which this script
evaluates on its own, symbolically, as kernel/unwind/cfi_expr.c documents
the subset: values are constants, a register or the CFA plus an offset, or
the word at one of those; the return address column is the pc looked up;
at most 16 bytes, 16 operators and 8 values; the result must be a rule the
kernel has (an s32 offset), else the lookup must fail with EOPNOTSUPP.
"""

import argparse
import bisect
import re
import shlex
import subprocess
import sys

REGS_X86_64 = ["rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp"] + \
    ["r%d" % i for i in range(8, 16)] + ["rip"]
REGS_I386 = ["eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "eip"]
REGS_S390X = ["r%d" % i for i in range(16)]
REGS_AARCH64 = ["x%d" % i for i in range(31)] + ["sp"]

EM_386, EM_S390, EM_X86_64, EM_AARCH64 = 3, 22, 62, 183

# The readelf that names this file's registers: --readelf.
READELF = ["readelf"]

RECORD = re.compile(r"^([0-9a-f]+) ([0-9a-f]+) ([0-9a-f]+) (CIE|FDE)\b(.*)$")
FDE_TAIL = re.compile(r" cie=([0-9a-f]+) pc=([0-9a-f]+)\.\.([0-9a-f]+)")
ROW = re.compile(r"^([0-9a-f]{8}|[0-9a-f]{16}) ")
UNDEFINED = re.compile(r"DW_CFA_undefined: r(\d+)")
AUGMENTATION = re.compile(r'^  Augmentation: +"(.*)"$')
RA_COLUMN = re.compile(r'^  Return address column: +(\d+)$')
INSN = re.compile(r"^  (DW_CFA_\w+)(.*)$")
ADVANCE_TO = re.compile(r" to ([0-9a-f]+)$")
REG_OPERAND = re.compile(r"^: r(\d+) ")
CFA_EXPR = re.compile(r"^ \((.*)\)$")
REG_EXPR = re.compile(r"^: r(\d+) \([^)]*\) \((.*)\)$")

# The bounds of kernel/unwind/cfi_expr.c and cfi.c
EXPR_MAX_BYTES = 16
EXPR_MAX_OPS = 16
EXPR_MAX_STACK = 8
# Every pc of an expression row up to this size, else a sample.
EXPR_ROW_ALL_PCS = 256

MASK64 = (1 << 64) - 1


class Arch:
    def __init__(self, machine):
        # The CFA is cfa_off above the caller's stack pointer (s390x: 160).
        self.cfa_off = 0
        if machine == EM_386:
            names = REGS_I386
            self.sp, self.fp, self.ra = 4, 5, 8
        elif machine == EM_X86_64:
            names = REGS_X86_64
            self.sp, self.fp, self.ra = 7, 6, 16
        elif machine == EM_S390:
            names = REGS_S390X
            self.sp, self.fp, self.ra = 15, 11, 14
            self.cfa_off = 160
        elif machine == EM_AARCH64:
            names = REGS_AARCH64
            self.sp, self.fp, self.ra = 31, 29, 30
        else:
            raise SystemExit("machine %d: not x86-64, i386, s390x or arm64" % machine)
        self.fp_name = names[self.fp]
        self.numbers = {n: i for i, n in enumerate(names)}

    def reg(self, num, off):
        """A register and offset, as the oracle tool prints them."""
        if num == self.sp:
            name = "sp"
        elif num == self.fp:
            name = "fp"
        else:
            name = "r%d" % num
        return "%s%+d" % (name, off)


class Record:
    def __init__(self, offset):
        self.offset = offset
        self.cie = None
        self.pc_begin = self.pc_end = 0
        self.columns = []
        self.rows = []          # [(loc, {column: value})]
        self.undefined = set()  # registers named by DW_CFA_undefined
        self.augmentation = ""  # of a CIE
        self.ra_column = None   # of a CIE
        self.insns = []         # [(DW_CFA_name, operand text)], raw dump


def readelf(path, what):
    out = subprocess.run(READELF + ["-wN", "--debug-dump=" + what, path],
                         check=True, capture_output=True, text=True).stdout
    lines = []
    started = False
    for line in out.splitlines():
        # Only the file's own .eh_frame: not .debug_frame, not a debug file.
        if line.startswith("Contents of the"):
            if started:
                break
            started = ".eh_frame section" in line
            continue
        if started:
            lines.append(line)
    return lines


def parse_records(path):
    records = {}
    cur = None
    for line in readelf(path, "frames-interp"):
        m = RECORD.match(line)
        if m:
            cur = Record(int(m.group(1), 16))
            records[cur.offset] = cur
            if m.group(4) == "FDE":
                t = FDE_TAIL.search(m.group(5))
                cur.cie = int(t.group(1), 16)
                cur.pc_begin = int(t.group(2), 16)
                cur.pc_end = int(t.group(3), 16)
            continue
        if cur is None:
            continue
        if line.startswith("   LOC"):
            cur.columns = line.split()[1:]
            continue
        if ROW.match(line) and "ZERO terminator" not in line:
            tokens = line.split()
            values = []
            for tok in tokens[1:]:
                # "r5 (rdi)": a register rule is printed with its name.
                if tok.startswith("(") and values:
                    values[-1] += " " + tok
                else:
                    values.append(tok)
            if len(values) != len(cur.columns):
                raise SystemExit("%s: cannot parse row: %r" % (path, line))
            cur.rows.append((int(tokens[0], 16), dict(zip(cur.columns, values))))

    cur = None
    for line in readelf(path, "frames"):
        m = RECORD.match(line)
        if m:
            cur = records.get(int(m.group(1), 16))
            continue
        if cur is None:
            continue
        m = AUGMENTATION.match(line)
        if m and cur.cie is None:
            cur.augmentation = m.group(1)
        m = RA_COLUMN.match(line)
        if m and cur.cie is None:
            cur.ra_column = int(m.group(1))
        m = INSN.match(line)
        if m:
            cur.insns.append((m.group(1), m.group(2)))
        m = UNDEFINED.search(line)
        if m:
            cur.undefined.add(int(m.group(1)))
    return records


# ---------------------------------------------------------------------------
# Which expression each row has: the instructions, run over readelf's lines

def run_insns(insns, state, initial, loc, arch, path):
    """Run DW_CFA_* lines from @state; return {loc: state} of each row."""
    rows = {}
    saved = []
    for name, text in insns:
        if name.startswith("DW_CFA_advance_loc") or name == "DW_CFA_set_loc":
            m = ADVANCE_TO.search(text) if name != "DW_CFA_set_loc" else \
                re.match(r"^: ([0-9a-f]+)", text)
            if not m:
                raise SystemExit("%s: cannot parse %s%s" % (path, name, text))
            rows[loc] = dict(state)
            loc = int(m.group(1), 16)
        elif name == "DW_CFA_remember_state":
            saved.append(dict(state))
        elif name == "DW_CFA_restore_state":
            state = saved.pop()
        elif name == "DW_CFA_def_cfa_expression":
            state["cfa"] = ("cfa", split_ops(CFA_EXPR.match(text).group(1)))
        elif name.startswith("DW_CFA_def_cfa"):
            state["cfa"] = None
        else:
            m = REG_OPERAND.match(text)
            if not m or int(m.group(1)) not in (arch.ra, arch.fp):
                continue
            reg = int(m.group(1))
            if name in ("DW_CFA_expression", "DW_CFA_val_expression"):
                ops = split_ops(REG_EXPR.match(text).group(2))
                state[reg] = ("expr" if name == "DW_CFA_expression" else
                              "val", ops)
            elif name in ("DW_CFA_restore", "DW_CFA_restore_extended"):
                state[reg] = initial.get(reg)
            else:
                state[reg] = None
    rows[loc] = dict(state)
    return state, rows


def split_ops(text):
    return [op for op in text.split("; ") if op]


def expression_rows(fde, cie, arch, path):
    """{loc: {"cfa" / ra / fp: (kind, [DW_OP text]) or None}} of an FDE."""
    state = {"cfa": None, arch.ra: None, arch.fp: None}
    state, _ = run_insns(cie.insns, state, {}, fde.pc_begin, arch, path)
    _, rows = run_insns(fde.insns, dict(state), dict(state), fde.pc_begin,
                        arch, path)
    return rows


# ---------------------------------------------------------------------------
# The rule an expression amounts to, worked out here from readelf's text

class Unsupported(Exception):
    """Outside the subset, or no rule: the kernel says EOPNOTSUPP."""


class Malformed(Exception):
    """Not a valid expression: EINVAL."""


def uleb_len(v):
    n = 1
    while v >= 0x80:
        v >>= 7
        n += 1
    return n


def sleb_len(v):
    n = 1
    while not -0x40 <= v < 0x40:
        v >>= 7
        n += 1
    return n


def s64(v):
    v &= MASK64
    return v - (1 << 64) if v >> 63 else v


CONST_SIZES = {"const1u": 1, "const1s": 1, "const2u": 2, "const2s": 2,
               "const4u": 4, "const4s": 4, "const8u": 8, "const8s": 8}
BINARY = {
    "plus": lambda a, b: a + b,
    "minus": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "shl": lambda a, b: a << (b & MASK64) if b & MASK64 < 64 else 0,
    "shr": lambda a, b: (a & MASK64) >> (b & MASK64),
    "shra": lambda a, b: a >> (b & MASK64),
    "eq": lambda a, b: int(a == b),
    "ne": lambda a, b: int(a != b),
    "lt": lambda a, b: int(a < b),
    "le": lambda a, b: int(a <= b),
    "gt": lambda a, b: int(a > b),
    "ge": lambda a, b: int(a >= b),
}


def decode_op(text):
    """(name, operands, encoded length) of a DW_OP line of readelf, or
    (name, None, None) for an operator outside the subset."""
    m = re.match(r"^DW_OP_breg(\d+) \([^)]*\): (-?\d+)$", text)
    if m:
        off = int(m.group(2))
        return "bregx", (int(m.group(1)), off), 1 + sleb_len(off)
    m = re.match(r"^DW_OP_bregx: (\d+) \([^)]*\) (-?\d+)$", text)
    if m:
        reg, off = int(m.group(1)), int(m.group(2))
        return "bregx", (reg, off), 1 + uleb_len(reg) + sleb_len(off)
    m = re.match(r"^DW_OP_lit(\d+)$", text)
    if m:
        return "const", (int(m.group(1)),), 1
    m = re.match(r"^DW_OP_(\w+): (-?\d+)$", text)
    if m and m.group(1) in CONST_SIZES:
        return "const", (int(m.group(2)),), 1 + CONST_SIZES[m.group(1)]
    if m and m.group(1) == "constu":
        return "const", (int(m.group(2)),), 1 + uleb_len(int(m.group(2)))
    if m and m.group(1) == "consts":
        return "const", (int(m.group(2)),), 1 + sleb_len(int(m.group(2)))
    if m and m.group(1) == "plus_uconst":
        return "plus_uconst", (int(m.group(2)),), \
            1 + uleb_len(int(m.group(2)))
    m = re.match(r"^DW_OP_(\w+)$", text)
    if m and m.group(1) in BINARY or m and m.group(1) in (
            "deref", "dup", "drop", "over", "swap", "neg", "not", "nop"):
        return m.group(1), (), 1
    return text.split(":")[0].split(" ")[0], None, None


def evaluate(kind, ops, pc, arch):
    """The rule (the oracle tool's notation) of a "cfa", "expr" or "val"
    expression at @pc; raise Unsupported or Malformed.  Values on the
    stack: ("const", n), ("reg", regno, off), ("cfa", off), and "*reg",
    "*cfa": the word at those."""
    decoded = [decode_op(op) for op in ops]
    lengths = [d[2] for d in decoded]
    if None not in lengths and sum(lengths) > EXPR_MAX_BYTES:
        raise Unsupported("%d bytes" % sum(lengths))
    stack = [] if kind == "cfa" else [("cfa", 0)]

    def push(val):
        if len(stack) == EXPR_MAX_STACK:
            raise Unsupported("stack overflow")
        stack.append(val)

    def pop():
        if not stack:
            raise Malformed("stack underflow")
        return stack.pop()

    for count, (name, args, _) in enumerate(decoded, 1):
        if count > EXPR_MAX_OPS:
            raise Unsupported("more than %d operators" % EXPR_MAX_OPS)
        if args is None:
            raise Unsupported(name)
        if name == "const":
            push(("const", s64(args[0])))
        elif name == "bregx":
            reg, off = args
            if reg > 0xffff:
                raise Unsupported("register %d" % reg)
            if reg == arch.ra:	# the pc the row is looked up for
                push(("const", s64(pc + off)))
            else:
                push(("reg", reg, s64(off)))
        elif name == "nop":
            pass
        elif name == "deref":
            val = pop()
            if val[0] not in ("reg", "cfa"):
                raise Unsupported("load of %s" % val[0])
            stack.append(("*" + val[0],) + val[1:])
        elif name == "dup":
            if not stack:
                raise Malformed("dup")
            push(stack[-1])
        elif name == "over":
            if len(stack) < 2:
                raise Malformed("over")
            push(stack[-2])
        elif name == "drop":
            pop()
        elif name == "swap":
            if len(stack) < 2:
                raise Malformed("swap")
            stack[-1], stack[-2] = stack[-2], stack[-1]
        elif name in ("neg", "not"):
            val = pop()
            if val[0] != "const":
                raise Unsupported("%s of %s" % (name, val[0]))
            stack.append(("const", s64(-val[1] if name == "neg" else
                                       ~val[1])))
        else:
            if name == "plus_uconst":
                b = ("const", s64(args[0]))
                a = pop()
                name = "plus"
            else:
                b = pop()
                a = pop()
            stack.append(binary(name, a, b))

    if not stack:
        raise Malformed("no value")
    return rule_of(kind, stack[-1], arch)


def binary(name, a, b):
    """@a @name @b, @a pushed first."""
    if name == "plus" and a[0] == "const" and b[0] in ("reg", "cfa"):
        a, b = b, a
    if name in ("plus", "minus") and a[0] in ("reg", "cfa") and \
            b[0] == "const":
        off = a[-1] + b[1] if name == "plus" else a[-1] - b[1]
        return a[:-1] + (s64(off),)
    if a[0] != "const" or b[0] != "const":
        raise Unsupported("%s of %s and %s" % (name, a[0], b[0]))
    return ("const", s64(BINARY[name](a[1], b[1])))


def rule_of(kind, val, arch):
    """The oracle tool's notation of the rule @val amounts to."""
    off = val[-1]
    if not -(1 << 31) <= off < 1 << 31:
        raise Unsupported("offset %d" % off)
    if kind == "cfa":
        rules = {"reg": "%s", "*reg": "*%s"}
    elif kind == "expr":	# the address the value is saved at
        rules = {"cfa": "c%+d" % off, "reg": "*%s"}
    else:			# the value
        rules = {"cfa": "v%+d" % off, "*cfa": "c%+d" % off, "reg": "%s",
                 "*reg": "*%s"}
    if val[0] not in rules:
        raise Unsupported("a %s %s" % (val[0], kind))
    if val[0] in ("reg", "*reg"):
        return rules[val[0]] % arch.reg(val[1], off)
    return rules[val[0]]


def expected_expr(expr, pc, arch):
    """{rule} for an expression at @pc, or {error} the lookup must give."""
    kind, ops = expr
    try:
        return {evaluate(kind, ops, pc, arch)}
    except Unsupported:
        return {"EOPNOTSUPP"}
    except Malformed:
        # A malformed expression costs its frame only (the FDE around it
        # is sound): the lookup says EOPNOTSUPP, as for an unsupported one.
        return {"EOPNOTSUPP"}


# ---------------------------------------------------------------------------
# The rules readelf's frames-interp gives

def expected_cfa(arch, text):
    m = re.match(r"^(\w+)([+-]\d+)$", text)
    name, off = m.group(1), int(m.group(2))
    if name in arch.numbers:
        num = arch.numbers[name]
    else:
        num = int(name[1:])
    return {arch.reg(num, off)}


def expected_col(arch, text, reg, fde, cie):
    """The set of acceptable answers for a column (not an expression)."""
    if text is None or text == "s":
        return {"same"}
    if text == "u":
        if reg in cie.undefined:
            return {"undef"}
        if reg in fde.undefined:
            return {"undef", "same"}
        return {"same"}
    if text[0] in "cv":
        return {text[0] + "%+d" % int(text[1:])}
    m = re.match(r"^r(\d+)", text)
    if m:
        return {arch.reg(int(m.group(1)), 0)}
    raise SystemExit("unknown rule %r" % text)


class Row:
    """What a lookup in a row must answer, at a given pc."""

    def __init__(self, arch, fde, cie, vals, exprs, path, loc):
        self.arch = arch
        self.signal = "S" in cie.augmentation
        # The kernel only unwinds with the ABI's return address column
        # (glibc's s390x __makecontext trampoline names r0).
        self.foreign_ra = cie.ra_column != arch.ra
        self.exprs = {}
        self.fixed = {}
        for col, text, reg in (("cfa", vals["CFA"], None),
                               ("ra", vals.get("ra"), arch.ra),
                               ("fp", vals.get(arch.fp_name), arch.fp)):
            expr = exprs.get("cfa" if col == "cfa" else reg)
            if text in ("exp", "vexp"):
                want = {"exp": "cfa" if col == "cfa" else "expr",
                        "vexp": "val"}[text]
                if not expr or expr[0] != want:
                    raise SystemExit("%s: FDE %x row %x: %s is %s in "
                                     "frames-interp, %r in frames" %
                                     (path, fde.offset, loc, col, text,
                                      expr))
                self.exprs[col] = expr
            elif expr:
                raise SystemExit("%s: FDE %x row %x: %s is %s in "
                                 "frames-interp, %r in frames" %
                                 (path, fde.offset, loc, col, text, expr))
            elif col == "cfa":
                self.fixed[col] = expected_cfa(arch, text)
            else:
                want = expected_col(arch, text, reg, fde, cie)
                # An unchanged return address column is the return address
                # still in that register (s390x r14): the kernel reads it
                # as the register (topmost frame only).
                if col == "ra" and "same" in want:
                    want = (want - {"same"}) | {arch.reg(arch.ra, 0)}
                self.fixed[col] = want

    def want(self, pc):
        """([{cfa}, {ra}, {fp}], None) or (None, {errors})."""
        if self.foreign_ra:
            return None, {"EOPNOTSUPP"}
        rules = []
        for col in ("cfa", "ra", "fp"):
            if col in self.fixed:
                rules.append(self.fixed[col])
                continue
            want = expected_expr(self.exprs[col], pc, self.arch)
            if want & {"EINVAL", "EOPNOTSUPP"}:
                return None, want	# the first failure is the answer
            if col == "ra" and "same" in want:
                want = (want - {"same"}) | {self.arch.reg(self.arch.ra, 0)}
            rules.append(want)
        return rules, None


def row_pcs(loc, end, has_expr):
    """The pcs looked up in [loc, end)."""
    if not has_expr:
        return sorted({loc, loc + (end - loc) // 2})
    if end - loc <= EXPR_ROW_ALL_PCS:
        return list(range(loc, end))
    # Every offset in 16-byte entries (PLT), and both ends.
    start = (loc + 15) & ~15
    return sorted({loc, loc + (end - loc) // 2, end - 1} |
                  set(range(start, min(start + 32, end))))


def check_file(path, tool, max_pcs, verbose):
    with open(path, "rb") as f:
        ident = f.read(20)
    # e_machine, in the file's byte order (EI_DATA: 2 is big-endian)
    arch = Arch(int.from_bytes(ident[18:20], "big" if ident[5] == 2 else
                               "little"))
    records = parse_records(path)
    fdes = [r for r in records.values() if r.cie is not None]

    # pcs covered by more than one FDE have no single right answer.
    spans = sorted((f.pc_begin, f.pc_end) for f in fdes if f.pc_end > f.pc_begin)
    starts = [s for s, _ in spans]

    def coverage(pc):
        i = bisect.bisect_right(starts, pc)
        n = 0
        for s, e in spans[max(0, i - 4):i]:
            if s <= pc < e:
                n += 1
        return n

    # Queries: (pc, Row or "ENOENT", fde, loc)
    queries = []
    rows_total = 0
    for fde in fdes:
        if fde.pc_end <= fde.pc_begin:
            continue
        cie = records.get(fde.cie)
        if cie is None:
            raise SystemExit("%s: FDE %x has no CIE" % (path, fde.offset))
        rows = fde.rows if fde.rows else \
            [(fde.pc_begin, vals) for _, vals in cie.rows]
        # A row that an advance of zero ended has no pcs of its own.
        by_loc = {}
        for loc, vals in rows:
            by_loc[loc] = vals
        exprs = expression_rows(fde, cie, arch, path)
        locs = sorted(l for l in by_loc if fde.pc_begin <= l < fde.pc_end)
        for i, loc in enumerate(locs):
            end = locs[i + 1] if i + 1 < len(locs) else fde.pc_end
            row = Row(arch, fde, cie, by_loc[loc], exprs.get(loc, {}), path,
                      loc)
            rows_total += 1
            for pc in row_pcs(loc, end, bool(row.exprs)):
                queries.append((pc, row, fde, loc))
        if coverage(fde.pc_end) == 0:
            queries.append((fde.pc_end, "ENOENT", fde, fde.pc_end))

    # Keep the run short: sample evenly if there are too many.
    if max_pcs and len(queries) > max_pcs:
        step = len(queries) / max_pcs
        queries = [queries[int(i * step)] for i in range(max_pcs)]

    proc = subprocess.run(shlex.split(tool) + [path], input="".join("%x\n" % q[0] for q in queries),
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print("oracle: %s: tool failed (%d): %s%s" % (path, proc.returncode,
              proc.stdout[:200], proc.stderr[-2000:]))
        return False
    out = proc.stdout.splitlines()
    if out[0] != "init ok":
        print("oracle: %s: %s" % (path, out[0]))
        return False
    answers = out[1:]
    if len(answers) != len(queries):
        print("oracle: %s: %d answers for %d queries" % (path, len(answers), len(queries)))
        return False
    if verbose:
        sys.stdout.write(proc.stderr)

    compared = mismatches = overlap = expr_pcs = 0
    compared_rows = set()
    expr_rows = set()
    expr_rule_rows = set()
    for (pc, row, fde, loc), answer in zip(queries, answers):
        got = answer.split()[1:]
        if row != "ENOENT" and coverage(pc) > 1:
            overlap += 1
            continue
        if row == "ENOENT":
            want = "ENOENT"
            ok = got == ["ENOENT"]
        else:
            compared_rows.add((fde.offset, loc))
            rules, errors = row.want(pc)
            if row.exprs:
                expr_rows.add((fde.offset, loc))
                expr_pcs += 1
                if rules:
                    expr_rule_rows.add((fde.offset, loc))
            if errors:
                want = "|".join(sorted(errors))
                ok = len(got) == 1 and got[0] in errors
            else:
                want = " ".join("|".join(sorted(w)) for w in rules) + \
                    (" signal" if row.signal else "")
                # The caller's SP, when it is not the CFA itself.
                sp = ["sp%+d" % -row.arch.cfa_off] if row.arch.cfa_off else []
                if sp:
                    want += " " + sp[0]
                ok = len(got) >= 4 and got[0] == "ok" and \
                    got[1] in rules[0] and got[2] in rules[1] and \
                    got[3] in rules[2] and \
                    got[4:] == (["signal"] if row.signal else []) + sp
        compared += 1
        if not ok:
            mismatches += 1
            if mismatches <= 10:
                print("# %s: pc %x (FDE %x, row %x): got %s, want %s" %
                      (path, pc, fde.offset, loc, " ".join(got), want))

    print("oracle: %s: %d FDEs, %d rows compared, %d mismatches, "
          "%d expression rows compared (%d with a rule)" %
          (path, len(fdes), len(compared_rows), mismatches, len(expr_rows),
           len(expr_rule_rows)))
    print("#   %d pcs looked up (%d in expression rows, %d rows in all), "
          "%d pcs in overlapping FDEs skipped" %
          (compared, expr_pcs, rows_total, overlap))
    return mismatches == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True,
                    help="the oracle binary (a command line: an s390x build "
                    "runs under qemu-s390x)")
    ap.add_argument("--readelf", default="readelf",
                    help="readelf of the files' architecture")
    ap.add_argument("--max-pcs", type=int, default=0,
                    help="look up at most this many pcs per file")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    READELF[:] = shlex.split(args.readelf)

    passed = failed = 0
    for path in args.files:
        if check_file(path, args.tool, args.max_pcs, args.verbose):
            passed += 1
        else:
            failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
