#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the kernel's .eh_frame lookups with binutils' readelf.

For each ELF file, `readelf --debug-dump=frames-interp` gives the table of
rules of every FDE; the oracle tool (oracle.c) answers lookups with the
kernel code.  Every row start and a pc in the middle of every row is looked
up, and the CFA, return address and frame pointer rules are compared.

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

Rows whose CFA, RA or FP rule is an expression are counted as skipped: the
oracle tool has no arch hook, so the kernel code must say EOPNOTSUPP there.
"""

import argparse
import bisect
import re
import subprocess
import sys

REGS_X86_64 = ["rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp"] + \
    ["r%d" % i for i in range(8, 16)] + ["rip"]
REGS_I386 = ["eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "eip"]

RECORD = re.compile(r"^([0-9a-f]+) ([0-9a-f]+) ([0-9a-f]+) (CIE|FDE)\b(.*)$")
FDE_TAIL = re.compile(r" cie=([0-9a-f]+) pc=([0-9a-f]+)\.\.([0-9a-f]+)")
ROW = re.compile(r"^([0-9a-f]{8}|[0-9a-f]{16}) ")
UNDEFINED = re.compile(r"DW_CFA_undefined: r(\d+)")


class Arch:
    def __init__(self, elf32):
        names = REGS_I386 if elf32 else REGS_X86_64
        self.sp, self.fp, self.ra = (4, 5, 8) if elf32 else (7, 6, 16)
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


def readelf(path, what):
    out = subprocess.run(["readelf", "-wN", "--debug-dump=" + what, path],
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
        m = UNDEFINED.search(line)
        if m and cur is not None:
            cur.undefined.add(int(m.group(1)))
    return records


def expected_cfa(arch, text):
    if text == "exp":
        return None
    m = re.match(r"^(\w+)([+-]\d+)$", text)
    name, off = m.group(1), int(m.group(2))
    if name in arch.numbers:
        num = arch.numbers[name]
    else:
        num = int(name[1:])
    return {arch.reg(num, off)}


def expected_col(arch, text, reg, fde, cie):
    """The set of acceptable answers for a column, or None: expression."""
    if text is None or text == "s":
        return {"same"}
    if text in ("exp", "vexp"):
        return None
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


def check_file(path, tool, max_pcs, verbose):
    with open(path, "rb") as f:
        elf32 = f.read(5)[4] == 1
    arch = Arch(elf32)
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

    # Queries: (pc, [acceptable cfa, ra, fp] or "ENOENT" or None for expr)
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
        locs = sorted(l for l in by_loc if fde.pc_begin <= l < fde.pc_end)
        for i, loc in enumerate(locs):
            end = locs[i + 1] if i + 1 < len(locs) else fde.pc_end
            vals = by_loc[loc]
            cfa = expected_cfa(arch, vals["CFA"])
            ra = expected_col(arch, vals.get("ra"), arch.ra, fde, cie)
            fp = expected_col(arch, vals.get(arch.fp_name), arch.fp, fde, cie)
            want = None if cfa is None or ra is None or fp is None else \
                (cfa, ra, fp)
            rows_total += 1
            for pc in sorted({loc, loc + (end - loc) // 2}):
                queries.append((pc, want, fde, loc))
        if coverage(fde.pc_end) == 0:
            queries.append((fde.pc_end, "ENOENT", fde, fde.pc_end))

    # Keep the run short: sample evenly if there are too many.
    if max_pcs and len(queries) > max_pcs:
        step = len(queries) / max_pcs
        queries = [queries[int(i * step)] for i in range(max_pcs)]

    proc = subprocess.run([tool, path], input="".join("%x\n" % q[0] for q in queries),
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

    compared = mismatches = expr_rows = overlap = 0
    compared_rows = set()
    expr_row_set = set()
    for (pc, want, fde, loc), answer in zip(queries, answers):
        got = answer.split()[1:]
        if want != "ENOENT" and coverage(pc) > 1:
            overlap += 1
            continue
        if want is None:
            expr_row_set.add((fde.offset, loc))
            ok = got == ["EOPNOTSUPP"]
        elif want == "ENOENT":
            ok = got == ["ENOENT"]
        else:
            compared_rows.add((fde.offset, loc))
            ok = len(got) == 4 and got[0] == "ok" and \
                got[1] in want[0] and got[2] in want[1] and got[3] in want[2]
        compared += 1
        if not ok:
            mismatches += 1
            if mismatches <= 10:
                print("# %s: pc %x (FDE %x, row %x): got %s, want %s" %
                      (path, pc, fde.offset, loc, " ".join(got),
                       want if isinstance(want, str) else
                       "EOPNOTSUPP (expression)" if want is None else
                       " ".join("|".join(sorted(w)) for w in want)))
    expr_rows = len(expr_row_set)

    print("oracle: %s: %d FDEs, %d rows compared, %d mismatches, "
          "%d expression rows skipped" %
          (path, len(fdes), len(compared_rows), mismatches, expr_rows))
    print("#   %d pcs looked up (%d rows in all), %d pcs in overlapping FDEs skipped" %
          (compared, rows_total, overlap))
    return mismatches == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True, help="the oracle binary")
    ap.add_argument("--max-pcs", type=int, default=0,
                    help="look up at most this many pcs per file")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()

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
