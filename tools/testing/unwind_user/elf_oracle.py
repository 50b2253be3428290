#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare where kernel/unwind/elf_table.c finds unwind tables with readelf.

    elf_oracle.py --tool CMD [--readelf READELF] [--vdso] [--seed-dir DIR]
                  FILE...

For each ELF file, `readelf -hlSW` gives the class, the type, the program
headers and the section headers.  Each executable PT_LOAD is mapped as the
kernel's ELF loader and ld.so map it: at a load bias (0 for ET_EXEC, else an
address like ld.so's), each page of the file from the page that holds
p_offset at the page that holds p_vaddr; the oracle tool (elf_oracle.c)
is asked about a VMA that starts at the first page of the text, at a page
in its middle (as after an mprotect() split) and at its last page.  Each
answer must be, from readelf's numbers alone:

  text      bias + p_vaddr .. + p_memsz of that PT_LOAD
  header    PT_GNU_EH_FRAME: bias + p_vaddr .. + p_memsz, at file offset
            p_offset
  .eh_frame with a header: the PT_LOAD whose file contents hold it,
            bias + p_vaddr .. + p_filesz; without (gcc -static): the
            section .eh_frame, bias + sh_addr .. + sh_size
  ptr_size  4 for ELF32, 8 for ELF64

--vdso adds this process's own vDSO, copied from its memory: the image the
kernel reads (discover.c) for it.  --seed-dir writes fuzz seeds
(elf-table-oracle --seed-out) for every file instead of checking.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

PAGE = 0x1000
MASK64 = (1 << 64) - 1

PHDR = re.compile(r"^\s+(\S+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)"
                  r"\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s(.{3})\s0x([0-9a-f]+)$")
SHDR = re.compile(r"^\s+\[\s*(\d+)\]\s(.{17,}?)\s+(\S+)\s+([0-9a-f]+)\s+"
                  r"([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([A-Za-z]*)\s+"
                  r"(\d+)\s+(\d+)\s+(\d+)$")
CLASS = re.compile(r"^\s+Class:\s+ELF(32|64)$")
TYPE = re.compile(r"^\s+Type:\s+(\w+)")


class Phdr:
    def __init__(self, m):
        self.type = m.group(1)
        self.offset, self.vaddr = int(m.group(2), 16), int(m.group(3), 16)
        self.filesz, self.memsz = int(m.group(5), 16), int(m.group(6), 16)
        self.flags = m.group(7)


class Shdr:
    def __init__(self, m):
        self.name = m.group(2).strip()
        self.type = m.group(3)
        self.addr, self.offset = int(m.group(4), 16), int(m.group(5), 16)
        self.size = int(m.group(6), 16)
        self.flags = m.group(8)


def headers(readelf, path):
    out = subprocess.run(readelf + ["-hlSW", path], check=True,
                         capture_output=True, text=True).stdout
    is64, etype, phdrs, shdrs = None, None, [], []
    for line in out.splitlines():
        m = CLASS.match(line)
        if m:
            is64 = m.group(1) == "64"
        m = TYPE.match(line)
        if m and etype is None:
            etype = m.group(1)
        m = PHDR.match(line)
        if m:
            phdrs.append(Phdr(m))
            continue
        m = SHDR.match(line)
        if m:
            shdrs.append(Shdr(m))
    if is64 is None or etype is None or not phdrs:
        raise SystemExit("%s: cannot read readelf's headers" % path)
    return is64, etype, phdrs, shdrs


def expected(is64, bias, text, phdrs, shdrs):
    """What the tool must print for the PT_LOAD @text, from readelf."""
    ptr = 8 if is64 else 4
    t0 = (bias + text.vaddr) & MASK64
    t1 = (bias + text.vaddr + text.memsz) & MASK64
    ehs = [p for p in phdrs if p.type == "GNU_EH_FRAME"]
    if ehs:
        eh = ehs[0]
        loads = [p for p in phdrs if p.type == "LOAD" and
                 p.vaddr <= eh.vaddr and
                 eh.vaddr + eh.memsz <= p.vaddr + p.filesz]
        if not loads:
            return None
        ld = loads[0]
        return (0, t0, t1, bias + eh.vaddr, bias + eh.vaddr + eh.memsz,
                bias + ld.vaddr, bias + ld.vaddr + ld.filesz, ptr, eh.offset)
    secs = [s for s in shdrs if s.name == ".eh_frame" and
            s.type == "PROGBITS" and "A" in s.flags]
    if len(secs) != 1:
        return None
    s = secs[0]
    return (0, t0, t1, 0, 0, bias + s.addr, bias + s.addr + s.size, ptr, None)


def maps_of(bias, text):
    """VMAs over the text: its first page, one in the middle, its last."""
    first = text.offset & ~(PAGE - 1)
    last = (text.offset + text.filesz - 1) & ~(PAGE - 1)
    mid = first + ((last - first) // 2 & ~(PAGE - 1))
    vma = (bias + text.vaddr) & ~(PAGE - 1)
    return [(vma + off - first, off) for off in sorted({first, mid, last})]


def vdso_copy(tmpdir):
    """This process's vDSO, as a file."""
    with open("/proc/self/maps") as f:
        for line in f:
            if line.rstrip().endswith("[vdso]"):
                lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
                break
        else:
            return None
    path = os.path.join(tmpdir, "vdso.so")
    with open("/proc/self/mem", "rb") as mem, open(path, "wb") as out:
        mem.seek(lo)
        out.write(mem.read(hi - lo))
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--readelf", default="readelf")
    ap.add_argument("--vdso", action="store_true")
    ap.add_argument("--seed-dir")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    tool, readelf = shlex.split(args.tool), shlex.split(args.readelf)

    with tempfile.TemporaryDirectory() as tmpdir:
        files = list(args.files)
        if args.vdso:
            vdso = vdso_copy(tmpdir)
            if vdso:
                files.append(vdso)
            else:
                print("elf: no vDSO in this process")
        return check(args, tool, readelf, files)


def check(args, tool, readelf, files):
    checked = mismatches = 0
    for nr, path in enumerate(files):
        is64, etype, phdrs, shdrs = headers(readelf, path)
        # ET_EXEC is where it says; ET_DYN where ld.so would put it.
        bias = 0 if etype == "EXEC" else 0x7f1234560000 if is64 else 0x56555000
        texts = [p for p in phdrs if p.type == "LOAD" and "E" in p.flags]
        maps = [(t, m) for t in texts for m in maps_of(bias, t)]
        argv = ["%x:%x" % m for _, m in maps]
        if args.seed_dir:
            prefix = os.path.join(args.seed_dir,
                                  "%02d-%s" % (nr, os.path.basename(path)))
            subprocess.run(tool + ["--seed-out", prefix, path] + argv,
                           check=True)
            continue
        out = subprocess.run(tool + [path] + argv, capture_output=True,
                             text=True)
        if out.returncode:
            sys.stderr.write(out.stderr)
            raise SystemExit("%s: the tool failed" % path)
        lines = out.stdout.splitlines()
        if len(lines) != len(maps):
            raise SystemExit("%s: %d answers for %d maps" %
                             (path, len(lines), len(maps)))
        for (text, (addr, off)), line in zip(maps, lines):
            got = [int(x, 16) if i else int(x) for i, x in
                   enumerate(line.split())]
            want = expected(is64, bias, text, phdrs, shdrs)
            checked += 1
            ok = want is not None and got[:8] == list(want[:8]) and \
                (want[8] is None or got[8] == want[8])
            if not ok:
                mismatches += 1
                print("elf: %s: VMA %#x (offset %#x): got %s, want %s" %
                      (path, addr, off, line,
                       " ".join("%x" % v if v is not None else "-"
                                for v in want) if want else "no table"))
        print("elf: %s (%s, %s): %d executable PT_LOAD(s), %s" %
              (os.path.basename(path), "ELF64" if is64 else "ELF32", etype,
               len(texts), "header" if any(p.type == "GNU_EH_FRAME"
                                           for p in phdrs) else
               ".eh_frame section"))
    if args.seed_dir:
        return 0
    print("elf: %d mappings checked, %d mismatches" % (checked, mismatches))
    return 1 if mismatches or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
