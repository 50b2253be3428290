#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpus of the libFuzzer target (fuzz.c).

    fuzz_seeds.py --out DIR ELF...

Each seed is an input in the format of fuzz.h.  From every ELF file given:

  - slices: a few consecutive FDEs of the file's .eh_frame, verbatim, with
    the CIEs they use, under a new .eh_frame_hdr; the FDE addresses are
    re-encoded so that the functions keep their relative places in a text
    just below the sections;
  - slices around each FDE with DWARF expressions (PLT, signal frames,
    realigned stacks), looked up there;
  - the whole .eh_frame_hdr + .eh_frame, if small enough to mutate well.

Plus hand-made seeds for what real binaries rarely carry: walks through
expression rules (a PLT entry, a realigned frame, a signal frame on an
alternate stack), expressions on their own, remember/restore_state, DWARF64
records, CIE versions 3 and 4, personality encodings, other table
encodings, set_loc, faults.

Each seed also gets a stack full of plausible return addresses and frame
pointers, so that the fuzzer's walk goes further than one frame (the
hand-made walks have the stack their rules read).  The first byte of the
stack is also the length of an expression of its own to the fuzzer, in the
bytes after it.  The output only depends on the input files (fixed random
seed).
"""

import argparse
import os
import random
import struct
import sys

# Keep in step with fuzz.h.
SEC_BASE = 0x10000000
STACK_BASE = 0x70000000
F_ELF32, F_HOLE = 0x01, 0x04
INPUT_FMT = '<BBHIIIIHHhHB3s'
assert struct.calcsize(INPUT_FMT) == 32

# DW_EH_PE_* and DW_CFA_* (kernel/unwind/dwarf.h)
PE_ABSPTR, PE_UDATA2, PE_UDATA4, PE_UDATA8 = 0x00, 0x02, 0x03, 0x04
PE_SDATA2, PE_SDATA4, PE_SDATA8 = 0x0a, 0x0b, 0x0c
PE_PCREL, PE_DATAREL = 0x10, 0x30
PE_ALIGNED = 0x50
CFA_ADVANCE_LOC, CFA_OFFSET, CFA_RESTORE = 0x40, 0x80, 0xc0
CFA_NOP = 0x00
CFA_SET_LOC, CFA_ADVANCE_LOC4 = 0x01, 0x04
CFA_UNDEFINED, CFA_REMEMBER, CFA_RESTORE_STATE = 0x07, 0x0a, 0x0b
CFA_DEF_CFA, CFA_DEF_CFA_REGISTER, CFA_DEF_CFA_OFFSET = 0x0c, 0x0d, 0x0e
CFA_DEF_CFA_EXPR, CFA_EXPR, CFA_VAL_EXPR = 0x0f, 0x10, 0x16

# Whole sections larger than this are only sliced.
WHOLE_MAX = 48 * 1024
SLICES_PER_FILE = 12
EXPR_SLICES_PER_FILE = 8


def uleb(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def sleb(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        done = (v == 0 and not b & 0x40) or (v == -1 and b & 0x40)
        out.append(b | (0 if done else 0x80))
        if done:
            return bytes(out)


def read_uleb(data, pos):
    val = shift = 0
    while True:
        b = data[pos]
        pos += 1
        val |= (b & 0x7f) << shift
        shift += 7
        if not b & 0x80:
            return val, pos


def enc_size(enc, ptr_size):
    """Size of a fixed-size pointer encoding, None for others."""
    return {PE_ABSPTR: ptr_size, PE_UDATA2: 2, PE_SDATA2: 2, PE_UDATA4: 4,
            PE_SDATA4: 4, PE_UDATA8: 8, PE_SDATA8: 8}.get(enc & 0x0f)


def pack(val, size):
    return (val & ((1 << (8 * size)) - 1)).to_bytes(size, 'little')


def unpack(data, size, signed):
    return int.from_bytes(data[:size], 'little', signed=signed)


class Elf:
    """The little of an ELF file this needs: sections and text range."""

    def __init__(self, path):
        with open(path, 'rb') as f:
            self.data = data = f.read()
        if data[:4] != b'\x7fELF' or data[5] != 1:
            raise ValueError('not a little-endian ELF file')
        self.is64 = data[4] == 2
        self.ptr_size = 8 if self.is64 else 4
        if self.is64:
            phoff, shoff = struct.unpack_from('<QQ', data, 0x20)
            phentsize, phnum, shentsize, shnum, shstrndx = \
                struct.unpack_from('<HHHHH', data, 0x36)
        else:
            phoff, shoff = struct.unpack_from('<II', data, 0x1c)
            phentsize, phnum, shentsize, shnum, shstrndx = \
                struct.unpack_from('<HHHHH', data, 0x2a)

        self.text = None
        for i in range(phnum):
            off = phoff + i * phentsize
            if self.is64:
                ptype, flags, _, vaddr, _, _, memsz = \
                    struct.unpack_from('<IIQQQQQ', data, off)
            else:
                ptype, _, vaddr, _, _, memsz, flags = \
                    struct.unpack_from('<IIIIIII', data, off)
            if ptype == 1 and flags & 1:	# PT_LOAD, PF_X
                lo, hi = vaddr, vaddr + memsz
                if self.text:
                    lo, hi = min(lo, self.text[0]), max(hi, self.text[1])
                self.text = (lo, hi)

        secs = []
        for i in range(shnum):
            off = shoff + i * shentsize
            if self.is64:
                name, _, _, addr, offset, size = \
                    struct.unpack_from('<IIQQQQ', data, off)
            else:
                name, _, _, addr, offset, size = \
                    struct.unpack_from('<IIIIII', data, off)
            secs.append((name, addr, offset, size))
        strtab = secs[shstrndx][2] if shnum else 0
        self.sections = {}
        for name, addr, offset, size in secs:
            end = data.index(b'\0', strtab + name)
            self.sections[data[strtab + name:end].decode()] = \
                (addr, offset, size)


class Record:
    pass


def parse_eh_frame(elf):
    """The CIEs and FDEs of .eh_frame, with their FDE pointer encodings."""
    addr, offset, size = elf.sections['.eh_frame']
    data = elf.data[offset:offset + size]
    ptr_size = elf.ptr_size
    cies, fdes = {}, []
    pos = 0
    while pos + 4 <= len(data):
        length = unpack(data[pos:], 4, False)
        if length == 0 or length >= 0xfffffff0:
            break	# the terminator, or DWARF64, which we leave alone
        rec = Record()
        rec.off, rec.end = pos, pos + 4 + length
        rec.raw = data[pos:rec.end]
        cie_id = unpack(data[pos + 4:], 4, False)
        if cie_id == 0:
            rec.fde_enc = cie_fde_enc(rec.raw, ptr_size)
            cies[pos] = rec
        else:
            rec.cie = pos + 4 - cie_id
            fdes.append(rec)
        pos = rec.end

    for rec in fdes:
        cie = cies.get(rec.cie)
        rec.ok = False
        if not cie or cie.fde_enc is None:
            continue
        enc = cie.fde_enc
        size = enc_size(enc, ptr_size)
        if not size or enc & 0x70 not in (PE_ABSPTR, PE_PCREL) or size < 4:
            continue
        signed = bool(enc & 0x08)
        val = unpack(rec.raw[8:], size, signed)
        if enc & 0x70 == PE_PCREL:
            val += addr + rec.off + 8
        rec.pc = val & ((1 << (8 * ptr_size)) - 1)
        rec.range = unpack(rec.raw[8 + size:], size, False)
        rec.enc, rec.size, rec.ok = enc, size, True
    return cies, [f for f in fdes if f.ok and f.range]


def cie_fde_enc(raw, ptr_size):
    """The 'R' encoding of a CIE, None if it cannot be parsed."""
    try:
        pos = 8
        version = raw[pos]
        pos += 1
        end = raw.index(b'\0', pos)
        aug = raw[pos:end].decode()
        pos = end + 1
        if aug.startswith('eh'):
            pos += ptr_size
        if version == 4:
            pos += 2
        _, pos = read_uleb(raw, pos)		# code alignment
        _, pos = read_uleb(raw, pos)		# data alignment (sign unused)
        if version == 1:
            pos += 1
        else:
            _, pos = read_uleb(raw, pos)
        if not aug.startswith('z'):
            return PE_ABSPTR
        _, pos = read_uleb(raw, pos)
        for c in aug[1:]:
            if c == 'R':
                return raw[pos]
            if c == 'L':
                pos += 1
            elif c == 'P':
                enc = raw[pos]
                pos += 1 + enc_size(enc, ptr_size)
            elif c != 'S':
                return None
        return PE_ABSPTR
    except (IndexError, TypeError, ValueError):
        return None


def make_input(flags, hdr_size, sec, text_delta, text_size, pc_off, stack,
               steps=8, sp_off=0, fp_off=0, end_adjust=0, hole_off=0,
               hole_len=0, picks=b'\0\1\2'):
    head = struct.pack(INPUT_FMT, flags, steps, hdr_size, len(sec),
                       text_delta, text_size, pc_off, sp_off, fp_off,
                       end_adjust, hole_off, hole_len, picks)
    return head + bytes(sec) + bytes(stack)


def fake_stack(rng, pcs, ptr_size, words=48):
    """Return addresses (function start + a bit) and frame pointers."""
    out = bytearray()
    for i in range(words):
        if pcs and rng.random() < 0.6:
            start, length = rng.choice(pcs)
            val = start + rng.randrange(1, max(2, length))
        elif rng.random() < 0.7:
            val = STACK_BASE + (i + rng.randrange(1, 8)) * ptr_size
        else:
            val = 0
        out += pack(val, ptr_size)
    return out


def hdr_bytes(entries, eh_frame_off):
    """An .eh_frame_hdr with a datarel sdata4 table (what ld writes)."""
    out = bytearray([1, PE_PCREL | PE_SDATA4, PE_UDATA4,
                     PE_DATAREL | PE_SDATA4])
    out += pack(eh_frame_off - 4, 4)
    out += pack(len(entries), 4)
    for loc, fde in sorted(entries):
        out += pack(loc, 4) + pack(fde, 4)
    return out


# Operands of the extended call frame instructions (kernel/unwind/cfi.c):
# U(LEB128), S(LEB128), B(lock), A(ddress), and 1, 2, 4-byte deltas.
CFA_OPERANDS = {
    0x00: '', 0x01: 'A', 0x02: '1', 0x03: '2', 0x04: '4', 0x05: 'UU',
    0x06: 'U', 0x07: 'U', 0x08: 'U', 0x09: 'UU', 0x0a: '', 0x0b: '',
    0x0c: 'UU', 0x0d: 'U', 0x0e: 'U', 0x0f: 'B', 0x10: 'UB', 0x11: 'US',
    0x12: 'US', 0x13: 'S', 0x14: 'UU', 0x15: 'US', 0x16: 'UB', 0x2e: 'U',
    0x2f: 'UU',
}


def has_expression(fde, cie, ptr_size):
    """Whether the FDE's instructions have a DW_CFA_*expression."""
    try:
        pos = 8 + 2 * fde.size
        if cie.raw[9:10] == b'z':	# augmentation data in the FDE
            n, pos = read_uleb(fde.raw, pos)
            pos += n
        raw = fde.raw
        while pos < len(raw):
            op = raw[pos]
            pos += 1
            if op & 0xc0:
                if op & 0xc0 == CFA_OFFSET:
                    _, pos = read_uleb(raw, pos)
                continue
            if op in (CFA_DEF_CFA_EXPR, CFA_EXPR, CFA_VAL_EXPR):
                return True
            for kind in CFA_OPERANDS[op]:
                if kind in 'US':
                    _, pos = read_uleb(raw, pos)
                elif kind == 'B':
                    n, pos = read_uleb(raw, pos)
                    pos += n
                elif kind == 'A':
                    pos += fde.size
                else:
                    pos += int(kind)
    except (IndexError, KeyError):
        pass
    return False


def slice_seed(elf, cies, fdes, rng, around=None):
    """A few consecutive FDEs and their CIEs, under a new header; looked
    up in fdes[around] if given, else in one of them."""
    count = min(len(fdes), rng.choice([1, 2, 3, 4, 8, 16]))
    if around is None:
        first = rng.randrange(len(fdes) - count + 1)
    else:
        first = max(0, min(around - rng.randrange(count),
                           len(fdes) - count))
    window = fdes[first:first + count]
    lo = min(f.pc for f in window)
    hi = max(f.pc + f.range for f in window)
    if hi - lo > 1 << 24:
        return None
    text_size = (hi - lo + 0x200 + 0xfff) & ~0xfff
    text_delta = text_size + 0x1000
    text_start = SEC_BASE - text_delta

    def new_pc(pc):
        return text_start + 0x100 + pc - lo

    hdr_len = 12 + 8 * count
    eh = bytearray()
    cie_new = {}
    for off in sorted({f.cie for f in window}):
        cie_new[off] = len(eh)
        eh += cies[off].raw
    entries = []
    for f in window:
        off = len(eh)
        raw = bytearray(f.raw)
        raw[4:8] = pack(off + 4 - cie_new[f.cie], 4)
        val = new_pc(f.pc)
        if f.enc & 0x70 == PE_PCREL:
            val -= SEC_BASE + hdr_len + off + 8
        raw[8:8 + f.size] = pack(val, f.size)
        eh += raw
        entries.append((new_pc(f.pc) - SEC_BASE, hdr_len + off))
    eh += bytes(4)

    hdr = hdr_bytes(entries, hdr_len)
    assert len(hdr) == hdr_len
    target = rng.choice(window) if around is None else fdes[around]
    pc_off = new_pc(target.pc) + rng.randrange(target.range) - text_start
    pcs = [(new_pc(f.pc), f.range) for f in window]
    flags = 0 if elf.is64 else F_ELF32
    return make_input(flags, hdr_len, hdr + eh, text_delta, text_size,
                      pc_off, fake_stack(rng, pcs, elf.ptr_size),
                      picks=bytes(rng.randrange(256) for _ in range(3)))


def whole_seed(elf, fdes, rng):
    """.eh_frame_hdr to the end of .eh_frame, as the file has them."""
    hdr_addr, hdr_off, hdr_size = elf.sections['.eh_frame_hdr']
    eh_addr, eh_off, eh_size = elf.sections['.eh_frame']
    if eh_addr < hdr_addr or eh_addr - hdr_addr != eh_off - hdr_off:
        return None
    span = eh_addr + eh_size - hdr_addr
    if span > WHOLE_MAX or not elf.text or elf.text[0] > hdr_addr:
        return None
    text_start = elf.text[0]
    target = rng.choice(fdes)
    pc_off = target.pc - text_start + rng.randrange(target.range)
    bias = SEC_BASE - hdr_addr
    pcs = [(f.pc + bias, f.range) for f in fdes]
    flags = 0 if elf.is64 else F_ELF32
    return make_input(flags, hdr_size,
                      elf.data[hdr_off:hdr_off + span],
                      hdr_addr - text_start, elf.text[1] - text_start,
                      pc_off, fake_stack(rng, pcs, elf.ptr_size))


class Builder:
    """Hand-made sections: one CIE per call to cie(), FDEs after it."""

    TEXT_DELTA = 0x10000
    TEXT_START = SEC_BASE - TEXT_DELTA

    def __init__(self, ptr_size=8, fde_enc=PE_PCREL | PE_SDATA4):
        self.ptr_size = ptr_size
        self.fde_enc = fde_enc
        self.eh = bytearray()
        self.entries = []
        self.hdr_len = 0

    def record(self, body, dwarf64=False):
        if dwarf64:
            self.eh += pack(0xffffffff, 4) + pack(len(body), 8)
        else:
            self.eh += pack(len(body), 4)
        self.eh += body

    def cie(self, insns, aug='zR', version=1, ra=16, code_align=1,
            data_align=-8, dwarf64=False, hdr_len=0):
        """A CIE; a 'P' personality is DW_EH_PE_aligned, which needs
        hdr_len to know the alignment."""
        off = len(self.eh)
        body = bytearray(pack(0, 8 if dwarf64 else 4))
        body += bytes([version]) + aug.encode() + b'\0'
        if aug.startswith('eh'):
            body += bytes(self.ptr_size)	# old GCC's exception data
        if version == 4:
            body += bytes([self.ptr_size, 0])
        body += uleb(code_align) + sleb(data_align)
        body += bytes([ra]) if version == 1 else uleb(ra)
        if aug.startswith('z'):
            # Where the data starts: after the length, the body so far
            # and a one-byte augmentation length.
            addr = SEC_BASE + hdr_len + off + (12 if dwarf64 else 4) + \
                len(body) + 1
            data = bytearray()
            for c in aug[1:]:
                if c == 'P':
                    data.append(PE_ALIGNED)
                    data += bytes(-(addr + len(data)) % self.ptr_size)
                    data += pack(0x1234, self.ptr_size)
                elif c == 'L':
                    data.append(PE_PCREL | PE_SDATA4)
                elif c == 'R':
                    data.append(self.fde_enc)
            assert len(data) < 0x80
            body += uleb(len(data)) + data
        body += insns
        self.record(body, dwarf64)
        self.cie_off = off
        return off

    def fde(self, start, length, insns, hdr_len, dwarf64=False, aug=b''):
        """An FDE for [TEXT_START + start, + length); hdr_len is final;
        aug is the augmentation data (an LSDA pointer), None for no 'z'."""
        off = len(self.eh)
        id_size = 8 if dwarf64 else 4
        id_addr = off + (12 if dwarf64 else 4)
        size = enc_size(self.fde_enc, self.ptr_size)
        pc = self.TEXT_START + start
        val = pc
        if self.fde_enc & 0x70 == PE_PCREL:
            val -= SEC_BASE + hdr_len + id_addr + id_size
        body = pack(id_addr - self.cie_off, id_size) + pack(val, size)
        body += pack(length, size)
        if aug is not None:
            body += uleb(len(aug)) + aug
        body += insns
        self.record(body, dwarf64)
        self.entries.append((pc - SEC_BASE, hdr_len + off))

    def sections(self, hdr_len):
        self.eh += bytes(4)
        hdr = hdr_bytes(self.entries, hdr_len)
        assert len(hdr) == hdr_len, (len(hdr), hdr_len)
        return hdr, self.eh


# Call frame instructions of the usual x86-64 prologue: push %rbp,
# mov %rsp,%rbp, and at the end leave.
PROLOGUE = bytes([CFA_ADVANCE_LOC | 1, CFA_DEF_CFA_OFFSET, 16,
                  CFA_OFFSET | 6, 2, CFA_ADVANCE_LOC | 3,
                  CFA_DEF_CFA_REGISTER, 6])
PROLOGUE_I386 = bytes([CFA_ADVANCE_LOC | 1, CFA_DEF_CFA_OFFSET, 8,
                       CFA_OFFSET | 5, 2, CFA_ADVANCE_LOC | 2,
                       CFA_DEF_CFA_REGISTER, 5])
CIE_X86_64 = bytes([CFA_DEF_CFA, 7, 8, CFA_OFFSET | 16, 1])
CIE_I386 = bytes([CFA_DEF_CFA, 4, 4, CFA_OFFSET | 8, 1])
# DW_OP_*: the ones the seeds use.
OP_DEREF, OP_CONST1U, OP_CONST8S, OP_CONSTS = 0x06, 0x08, 0x0f, 0x11
OP_DUP, OP_DROP, OP_OVER, OP_SWAP = 0x12, 0x13, 0x14, 0x16
OP_AND, OP_MINUS, OP_NEG, OP_PLUS, OP_PLUS_UCONST = 0x1a, 0x1c, 0x1f, 0x22, \
    0x23
OP_SHL, OP_SHRA, OP_GE, OP_LT = 0x24, 0x26, 0x2a, 0x2d
OP_LIT0, OP_BREG0, OP_BREGX, OP_NOP, OP_SKIP = 0x30, 0x70, 0x92, 0x96, 0x2f


def plt_expr(sp, pc, pushed_at, shift):
    """ld's PLT CFA: sp + w + ((pc & 15) >= pushed_at) << shift."""
    return bytes([OP_BREG0 + sp, 1 << shift, OP_BREG0 + pc, 0,
                  OP_LIT0 + 15, OP_AND, OP_LIT0 + pushed_at, OP_GE,
                  OP_LIT0 + shift, OP_SHL, OP_PLUS])


# The PLT expression GCC and ld emit (rsp + 8 + ((rip & 15) >= 11) * 8).
PLT_EXPR = plt_expr(7, 16, 11, 3)
# A realigned frame's CFA and %rbp (DRAP), glibc's __restore_rt.
DRAP_CFA_EXPR = bytes([OP_BREG0 + 6, 0x78, OP_DEREF])
DRAP_FP_EXPR = bytes([OP_BREG0 + 6, 0])
SIGNAL_CFA_EXPR = bytes([OP_BREG0 + 7]) + sleb(160) + bytes([OP_DEREF])


def cfa_expr(expr):
    return bytes([CFA_DEF_CFA_EXPR]) + uleb(len(expr)) + expr


def reg_expr(reg, expr, val=False):
    return bytes([CFA_VAL_EXPR if val else CFA_EXPR]) + uleb(reg) + \
        uleb(len(expr)) + expr


# glibc's __restore_rt (x86-64): the registers in the ucontext at %rsp.
SIGNAL_INSNS = cfa_expr(SIGNAL_CFA_EXPR) + b''.join(
    reg_expr(reg, bytes([OP_BREG0 + 7]) + sleb(off))
    for reg, off in ((8, 40), (9, 48), (10, 56), (11, 64), (12, 72),
                     (13, 80), (14, 88), (15, 96), (5, 104), (4, 112),
                     (6, 120), (3, 128), (1, 136), (0, 144), (2, 152),
                     (7, 160), (16, 168)))

# Expressions on their own, for the fuzzer's direct cfi_expr_rule() call:
# the ones above, every kind of operator, and each way to fail.
LONE_EXPRS = [
    PLT_EXPR, plt_expr(7, 16, 10, 3), plt_expr(4, 8, 11, 2),
    DRAP_CFA_EXPR, DRAP_FP_EXPR, SIGNAL_CFA_EXPR,
    bytes([OP_BREGX, 13, 16, OP_DEREF]),
    bytes([OP_BREG0 + 7, 0, OP_CONST8S]) + pack(-16, 8) + bytes([OP_PLUS]),
    bytes([OP_LIT0 + 8, OP_BREG0 + 6, 0, OP_OVER, OP_PLUS, OP_SWAP,
           OP_DROP, OP_DUP, OP_DEREF]),
    bytes([OP_BREG0 + 7, 0, OP_CONST1U, 0xf0, OP_LIT0 + 2, OP_SHRA,
           OP_NEG, OP_CONSTS]) + sleb(-3) + bytes([OP_LT, OP_MINUS,
                                                   OP_PLUS_UCONST, 8]),
    bytes([OP_NOP] * 17),
    bytes([OP_LIT0] * 9),
    bytes([OP_PLUS]),
    bytes([OP_BREG0 + 7, 0x80]),
    bytes([OP_BREG0 + 7, 8, OP_SKIP, 0, 0]),
]


def fp_chain_stack(ptr_size, ras, depth):
    """Frames linked through saved frame pointers: [fp] = next, [fp+w] = ra."""
    out = bytearray()
    for i in range(depth):
        nxt = STACK_BASE + (i + 1) * 4 * ptr_size
        out += pack(nxt, ptr_size) + pack(ras[i % len(ras)], ptr_size)
        out += bytes(2 * ptr_size)
    return out


def handmade():
    """(name, input) pairs for what real binaries rarely have."""
    seeds = []
    ts = Builder.TEXT_START

    # A walk of several frames through the prologue rules, ending in a
    # function whose RA is undefined (like _start).
    for ptr_size in (8, 4):
        b = Builder(ptr_size)
        n, hdr_len = 3, 12 + 8 * 3
        w = ptr_size
        b.cie(CIE_X86_64 if w == 8 else CIE_I386, ra=16 if w == 8 else 8,
              data_align=-w)
        prologue = PROLOGUE if w == 8 else PROLOGUE_I386
        b.fde(0x100, 0x100, prologue, hdr_len)
        b.fde(0x200, 0x100, prologue, hdr_len)
        b.fde(0x300, 0x40, bytes([CFA_UNDEFINED, 16 if w == 8 else 8]),
              hdr_len)
        assert len(b.entries) == n
        hdr, eh = b.sections(hdr_len)
        stack = fp_chain_stack(w, [ts + 0x210, ts + 0x150, ts + 0x220,
                                   ts + 0x310], 6)
        seeds.append(('walk%d' % (w * 8),
                      make_input(0 if w == 8 else F_ELF32, hdr_len,
                                 hdr + eh, Builder.TEXT_DELTA, 0x1000,
                                 0x110, stack, steps=16)))

    # Expressions: a PLT CFA, the RA and FP saved where expressions say.
    b = Builder()
    hdr_len = 12 + 8 * 2
    b.cie(CIE_X86_64)
    b.fde(0x100, 0x40, cfa_expr(PLT_EXPR), hdr_len)
    b.fde(0x200, 0x40, bytes([CFA_ADVANCE_LOC | 2,
                              CFA_EXPR, 16, 4, 0x77, 0, 0x06, 0x96,
                              CFA_VAL_EXPR, 6, 5, 0x76, 0x10, 0x06, 0x23,
                              8, CFA_ADVANCE_LOC | 2,
                              CFA_DEF_CFA_EXPR, 3, 0x76, 0x10, 0x06]),
          hdr_len)
    hdr, eh = b.sections(hdr_len)
    stack = fp_chain_stack(8, [ts + 0x120, ts + 0x210], 4)
    for pc in (0x108, 0x203, 0x206):
        seeds.append(('expr-%x' % pc,
                      make_input(0, hdr_len, hdr + eh, Builder.TEXT_DELTA,
                                 0x1000, pc, stack)))
    seeds += expression_walks()

    # remember/restore_state, nested past the limit; set_loc; advance_loc4
    # with a code alignment factor; a version 3 and a version 4 CIE.
    b = Builder(fde_enc=PE_UDATA8)
    hdr_len = 12 + 8 * 3
    b.cie(CIE_X86_64, version=3, code_align=4)
    b.fde(0x100, 0x100, bytes([CFA_ADVANCE_LOC | 1, CFA_REMEMBER,
                               CFA_DEF_CFA_OFFSET, 16, CFA_REMEMBER,
                               CFA_ADVANCE_LOC | 1, CFA_REMEMBER,
                               CFA_DEF_CFA_OFFSET, 24, CFA_ADVANCE_LOC | 1,
                               CFA_RESTORE_STATE, CFA_RESTORE_STATE]),
          hdr_len)
    b.fde(0x200, 0x200, bytes([CFA_SET_LOC]) + pack(ts + 0x240, 8) +
          bytes([CFA_DEF_CFA_OFFSET, 32, CFA_ADVANCE_LOC4]) +
          pack(0x10, 4) + bytes([CFA_DEF_CFA_OFFSET, 40]), hdr_len)
    b.cie(CIE_X86_64, version=4, aug='zR')
    b.fde(0x400, 0x40, bytes([CFA_ADVANCE_LOC | 4, CFA_OFFSET | 6, 2,
                              CFA_RESTORE | 6]), hdr_len)
    hdr, eh = b.sections(hdr_len)
    for pc in (0x104, 0x108, 0x10c, 0x244, 0x290, 0x404, 0x410):
        seeds.append(('state-%x' % pc,
                      make_input(0, hdr_len, hdr + eh, Builder.TEXT_DELTA,
                                 0x1000, pc, fp_chain_stack(8, [ts + 0x104],
                                                            2))))

    # DWARF64 records and a CIE with personality (aligned), LSDA and 'S'.
    b = Builder()
    hdr_len = 12 + 8 * 2
    b.cie(CIE_X86_64, dwarf64=True)
    b.fde(0x100, 0x80, PROLOGUE, hdr_len, dwarf64=True)
    b.cie(CIE_X86_64, aug='zPLRS', hdr_len=hdr_len)
    b.fde(0x200, 0x80, PROLOGUE, hdr_len, aug=pack(-0x100, 4))
    hdr, eh = b.sections(hdr_len)
    for pc in (0x108, 0x208):
        seeds.append(('dwarf64-pers-%x' % pc,
                      make_input(0, hdr_len, hdr + eh, Builder.TEXT_DELTA,
                                 0x1000, pc, fp_chain_stack(8, [ts + 0x110],
                                                            3))))

    # Old GCC's "eh" augmentation, and an advance that overflows, in a
    # text at the top of the address space.  (The instruction limit wants
    # an FDE of 16 KiB, which would slow the fuzzer down: unit.c has it.)
    b = Builder(fde_enc=PE_UDATA8)
    hdr_len = 12 + 8
    b.cie(CIE_X86_64, aug='eh')
    b.fde(0x100, 0x40, PROLOGUE, hdr_len, aug=None)
    hdr, eh = b.sections(hdr_len)
    seeds.append(('eh', make_input(0, hdr_len, hdr + eh, Builder.TEXT_DELTA,
                                   0x1000, 0x108,
                                   fp_chain_stack(8, [ts + 0x104], 2))))
    b = Builder(fde_enc=PE_UDATA8)
    b.TEXT_START = (SEC_BASE - 0x20000000) % (1 << 64)
    hdr_len = 12 + 8
    b.cie(CIE_X86_64, code_align=0xffffffff)
    b.fde(0x100, 0x1000, bytes([CFA_ADVANCE_LOC4]) + pack(0xffffffff, 4),
          hdr_len)
    hdr, eh = b.sections(hdr_len)
    seeds.append(('advance-overflow',
                  make_input(0, hdr_len, hdr + eh, 0x20000000, 0x10000,
                             0x200, b'')))

    # Faults: a hole in .eh_frame, and an end past the mapped bytes.
    b = Builder()
    hdr_len = 12 + 8
    b.cie(CIE_X86_64)
    b.fde(0x100, 0x100, PROLOGUE * 4, hdr_len)
    hdr, eh = b.sections(hdr_len)
    sec = hdr + eh
    seeds.append(('hole', make_input(F_HOLE, hdr_len, sec,
                                      Builder.TEXT_DELTA, 0x1000, 0x1f0,
                                      bytes(64), hole_off=hdr_len + 30,
                                      hole_len=4)))
    seeds.append(('short', make_input(0, hdr_len, sec[:-12],
                                       Builder.TEXT_DELTA, 0x1000, 0x1f0,
                                       b'', end_adjust=12)))

    # Other table encodings: absolute udata8, and datarel udata2.
    cie = pack(0, 4) + bytes([1]) + b'zR\0' + uleb(1) + sleb(-8) + \
        bytes([16, 1, PE_ABSPTR]) + CIE_X86_64
    for enc, size in ((PE_UDATA8, 8), (PE_DATAREL | PE_UDATA2, 2)):
        # The FDE follows the CIE, which follows the header.
        fde_addr = SEC_BASE + 12 + 2 * size + 4 + len(cie)
        loc = ts + 0x100
        text_delta = Builder.TEXT_DELTA
        if enc & 0x70 == PE_DATAREL:
            # udata2 datarel only reaches 64 KiB past the header: the
            # text starts at the sections here (it is never read).
            loc = SEC_BASE + 0x1000
            fde_addr -= SEC_BASE
            text_delta = 0
        hdr = bytearray([1, PE_PCREL | PE_SDATA4, PE_UDATA4, enc])
        hdr += pack(12 + 2 * size - 4, 4) + pack(1, 4)
        hdr += pack(loc, size) + pack(fde_addr, size)
        eh = pack(len(cie), 4) + cie
        fde = pack(len(eh) + 4, 4) + pack(loc, 8) + pack(0x100, 8) + \
            b'\0' + PROLOGUE
        eh += pack(len(fde), 4) + fde + bytes(4)
        seeds.append(('table-%02x' % enc,
                      make_input(0, len(hdr), hdr + eh, text_delta, 0x10000,
                                 loc + 8 - (SEC_BASE - text_delta),
                                 fp_chain_stack(8, [loc + 8], 2))))
    return seeds


def stack_words(ptr_size, size, words):
    """A stack of @size bytes with {offset: value} words in it."""
    out = bytearray(size)
    for off, val in words.items():
        out[off:off + ptr_size] = pack(val, ptr_size)
    return bytes(out)


def expression_walks():
    """Walks through expression rules, with the stacks they read."""
    seeds = []
    ts = Builder.TEXT_START
    start_insns = bytes([CFA_UNDEFINED, 16])
    caller_insns = bytes([CFA_ADVANCE_LOC | 1, CFA_DEF_CFA_OFFSET, 16,
                          CFA_OFFSET | 6, 2])

    # A PLT entry before and after its push, both forms, then _start.
    for pushed_at in (11, 10):
        b = Builder()
        hdr_len = 12 + 8 * 2
        b.cie(CIE_X86_64)
        b.fde(0x100, 0x40, bytes([CFA_DEF_CFA_OFFSET, 16,
                                  CFA_ADVANCE_LOC | 6, CFA_DEF_CFA_OFFSET,
                                  24, CFA_ADVANCE_LOC | 10]) +
              cfa_expr(plt_expr(7, 16, pushed_at, 3)), hdr_len)
        b.fde(0x200, 0x40, start_insns, hdr_len)
        hdr, eh = b.sections(hdr_len)
        for pc in (0x110 + pushed_at - 1, 0x120 + pushed_at):
            pushed = pc & 15 >= pushed_at
            stack = stack_words(8, 0x200, {0x100 + (8 if pushed else 0):
                                           ts + 0x209})
            seeds.append(('plt%d-%x' % (pushed_at, pc),
                          make_input(0, hdr_len, hdr + eh,
                                     Builder.TEXT_DELTA, 0x1000, pc, stack,
                                     sp_off=0x100)))

    # The same in i386, whose return address column (8) is the pc.
    b = Builder(4)
    hdr_len = 12 + 8 * 2
    b.cie(CIE_I386, ra=8, data_align=-4)
    b.fde(0x100, 0x40, cfa_expr(plt_expr(4, 8, 11, 2)), hdr_len)
    b.fde(0x200, 0x40, bytes([CFA_UNDEFINED, 8]), hdr_len)
    hdr, eh = b.sections(hdr_len)
    seeds.append(('plt-i386', make_input(F_ELF32, hdr_len, hdr + eh,
                                         Builder.TEXT_DELTA, 0x1000, 0x11c,
                                         stack_words(4, 0x200,
                                                     {0x104: ts + 0x209}),
                                         sp_off=0x100)))

    # A realigned frame (DRAP: the CFA is saved at %rbp - 8), its caller,
    # _start; and the CFA in %r10, which only the topmost frame has.
    b = Builder()
    hdr_len = 12 + 8 * 4
    b.cie(CIE_X86_64)
    b.fde(0x100, 0x100, bytes([CFA_ADVANCE_LOC | 5, CFA_DEF_CFA, 10, 0,
                               CFA_ADVANCE_LOC | 12]) +
          reg_expr(6, DRAP_FP_EXPR) + bytes([CFA_ADVANCE_LOC | 2]) +
          cfa_expr(DRAP_CFA_EXPR), hdr_len)
    b.fde(0x200, 0x100, caller_insns, hdr_len)
    b.fde(0x300, 0x40, start_insns, hdr_len)
    b.fde(0x400, 0x40, cfa_expr(bytes([OP_BREG0 + 10, 0x78, OP_DEREF])),
          hdr_len)
    hdr, eh = b.sections(hdr_len)
    # fuzz.c's %r10 is STACK_BASE + 160: the CFA is saved below it too.
    words = {0x138: 0x200 + STACK_BASE, 0x140: 0x300 + STACK_BASE,
             0x1f8: ts + 0x211, 0x208: ts + 0x309, 152: STACK_BASE + 0x200}
    for name, pc in (('drap', 0x120), ('drap-r10', 0x404)):
        seeds.append((name, make_input(0, hdr_len, hdr + eh,
                                       Builder.TEXT_DELTA, 0x1000, pc,
                                       stack_words(8, 0x400, words),
                                       sp_off=0x100, fp_off=0x140)))

    # A handler on a signal stack above the interrupted one, __restore_rt
    # ("zRS", its FDE a byte early), and the interrupted function at its
    # first instruction, right after another.
    b = Builder()
    hdr_len = 12 + 8 * 5
    b.cie(CIE_X86_64)
    b.fde(0x100, 0x100, bytes([CFA_NOP]), hdr_len)
    b.fde(0x200, 0x40, start_insns, hdr_len)
    b.fde(0x400, 0x10, bytes([CFA_DEF_CFA_OFFSET, 48]), hdr_len)
    b.fde(0x410, 0xf0, bytes([CFA_NOP]), hdr_len)
    b.cie(b'', aug='zRS')
    b.fde(0x300, 0x10, SIGNAL_INSNS, hdr_len)
    hdr, eh = b.sections(hdr_len)
    uc = 0x300 + 8
    for aug in ('zRS', 'zR'):
        stack = stack_words(8, 0x400, {
            0x300: ts + 0x301, uc + 120: STACK_BASE + 0x1000,
            uc + 160: STACK_BASE + 0x100, uc + 168: ts + 0x410,
            0x100: ts + 0x209, 0x128: ts + 0x108})
        sec = bytearray(hdr + eh)
        if aug == 'zR':		# the same, with the 'S' made a 'R'
            at = sec.index(b'zRS\0')
            sec[at + 2] = ord('R')
        seeds.append(('signal-' + aug, make_input(0, hdr_len, sec,
                                                  Builder.TEXT_DELTA, 0x1000,
                                                  0x110, stack, steps=16,
                                                  sp_off=0x300)))

    # Expressions on their own, in the stack of a small section.
    b = Builder()
    hdr_len = 12 + 8
    b.cie(CIE_X86_64)
    b.fde(0x100, 0x100, PROLOGUE, hdr_len)
    hdr, eh = b.sections(hdr_len)
    for i, expr in enumerate(LONE_EXPRS):
        seeds.append(('lone-expr%02d' % i,
                      make_input(0, hdr_len, hdr + eh, Builder.TEXT_DELTA,
                                 0x1000, 0x10b,
                                 bytes([len(expr)]) + expr + bytes(64))))
    return seeds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True, help='directory for the seeds')
    ap.add_argument('files', nargs='*', help='ELF files to take CFI from')
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(20260101)
    count = 0

    def write(name, data):
        nonlocal count
        with open(os.path.join(args.out, name), 'wb') as f:
            f.write(data)
        count += 1

    for name, data in handmade():
        write('hand-' + name, data)

    for path in args.files:
        try:
            elf = Elf(path)
            if '.eh_frame' not in elf.sections or \
               '.eh_frame_hdr' not in elf.sections:
                raise ValueError('no .eh_frame_hdr')
            cies, fdes = parse_eh_frame(elf)
        except (OSError, ValueError, struct.error) as e:
            print('fuzz_seeds: %s: skipped: %s' % (path, e), file=sys.stderr)
            continue
        if not fdes:
            continue
        base = os.path.basename(path)
        for i in range(SLICES_PER_FILE):
            seed = slice_seed(elf, cies, fdes, rng)
            if seed:
                write('%s-slice%02d' % (base, i), seed)
        with_expr = [i for i, f in enumerate(fdes)
                     if has_expression(f, cies[f.cie], elf.ptr_size)]
        for i in with_expr[:EXPR_SLICES_PER_FILE]:
            seed = slice_seed(elf, cies, fdes, rng, around=i)
            if seed:
                write('%s-expr%02d' % (base, with_expr.index(i)), seed)
        seed = whole_seed(elf, fdes, rng)
        if seed:
            write('%s-whole' % base, seed)
    print('fuzz_seeds: %d seeds in %s' % (count, args.out))


if __name__ == '__main__':
    main()
