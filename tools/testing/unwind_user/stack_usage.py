#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Deepest stack use of a lookup, from gcc's -fcallgraph-info=su output.

    stack_usage.py LIMIT ROOT FILE.ci...

Adds up the frames along the deepest call chain from ROOT through the
functions in the .ci files; functions defined elsewhere (copy_from_user,
the arch hook) count as 0.  Exits non-zero if the sum is over LIMIT.
"""

import re
import sys

NODE = re.compile(r'node: \{ title: "([^"]+)" label: "[^\\]+\\n[^\\]+\\n(\d+) bytes')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')


def main():
    limit, root, files = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    size, calls = {}, {}
    for path in files:
        with open(path) as f:
            for line in f:
                m = NODE.search(line)
                if m:
                    size[m.group(1)] = int(m.group(2))
                m = EDGE.search(line)
                if m:
                    calls.setdefault(m.group(1), set()).add(m.group(2))

    # Static functions are titled "file:name", others just "name".
    by_name = {t.split(":")[-1]: t for t in size}

    def resolve(name):
        return name if name in size else by_name.get(name.split(":")[-1], name)

    memo = {}

    def deepest(fn, seen=()):
        fn = resolve(fn)
        if fn in memo:
            return memo[fn]
        if fn in seen:
            raise SystemExit("recursion through %s" % fn)
        best = (0, [])
        for callee in calls.get(fn, ()):
            best = max(best, deepest(callee, seen + (fn,)))
        memo[fn] = (size.get(fn, 0) + best[0],
                    ["%s (%d)" % (fn.split(":")[-1], size.get(fn, 0))] + best[1])
        return memo[fn]

    if resolve(root) not in size:
        print("stack: no function %s in the call graphs" % root)
        return 1
    total, chain = deepest(root)
    print("stack: %d bytes: %s" % (total, " -> ".join(chain)))
    if total > limit:
        print("stack: over the limit of %d bytes" % limit)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
