# SPDX-License-Identifier: GPL-2.0
#
# make realbin: a Python function that recurses DEPTH levels, one level in
# four through each of a plain call, map(), __getitem__ and a class's
# __init__, so that the C stack of the interpreter (CPython 3.11 runs plain
# Python-to-Python calls in the same C frame) grows with it.  The innermost
# level then either spins in Python code for SECONDS (spin) or calls
# os.getpid() once (getpid), where a breakpoint or a uprobe can stop it.
#
#   python3 recurse.py spin|getpid [SECONDS [DEPTH]]
import os
import sys
import time


def innermost(mode, seconds):
    if mode == "getpid":
        return os.getpid()
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        for i in range(2000):
            n += i * i % 7
    return n


class Indexed:
    def __init__(self, mode, seconds):
        self.mode, self.seconds = mode, seconds

    def __getitem__(self, depth):
        return recurse(depth, self.mode, self.seconds)


class Constructed:
    def __init__(self, depth, mode, seconds):
        self.value = recurse(depth, mode, seconds)


def recurse(depth, mode, seconds):
    if depth == 0:
        return innermost(mode, seconds)
    way = depth % 4
    if way == 0:
        return recurse(depth - 1, mode, seconds) + 1
    if way == 1:
        return list(map(lambda d: recurse(d, mode, seconds), [depth - 1]))[0] + 1
    if way == 2:
        return Indexed(mode, seconds)[depth - 1] + 1
    return Constructed(depth - 1, mode, seconds).value + 1


if __name__ == "__main__":
    mode = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 2.5
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    print("recurse.py: %s, depth %d: %d" % (mode, depth, recurse(depth, mode, seconds)))
