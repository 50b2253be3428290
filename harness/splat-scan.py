#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Scan guest console logs for the kernel's reports of what went wrong.

Usage: splat-scan.py [--want REGEX] FILE...

Prints each offending kernel line as "FILE:LINE: text" and exits 1 if there
is one, 0 if there is none, 2 if a FILE cannot be read or none is given.
With --want, exits 0 only if every FILE has a splat line matching REGEX (a
harness self-test: the scan must find what was planted).

Only kernel log lines count: those with printk's timestamp ("[   12.345678]
", CONFIG_PRINTK_TIME in every harness config), wherever it starts on the
line (on x86-64 the guest's own output shares the console, so a kernel line
may follow a partial line of it).  The command's output (TAP, test logs)
has no timestamp and is not scanned.  Any kernel line matching SPLATS is a
splat, as is any message of the series' own code ("unwind_user...:") that
is not in EXPECTED.
"""
import re
import sys

# The first line of each kind of report, as the kernel prints it.
SPLATS = [
    r'-{12}\[ cut here \]-{12}',        # WARN*(), BUG*()
    r'WARNING:',        # WARN*(), and lockdep's and RCU's "WARNING: ..."
    r'BUG:',            # BUG: KASAN/KFENCE/..., scheduling while atomic,
                        # sleeping function called from invalid context,
                        # soft lockup, unable to handle page fault, ...
    r'kernel BUG at',   # BUG_ON(), VM_BUG_ON*(), list corruption
    r'(BUG|WARN) at \S+:\d+',   # MT_BUG_ON(), MT_WARN_ON() (maple tree)
    r'UBSAN:',
    r'KASAN:',
    r'KFENCE:',
    r'Oops',
    r'general protection fault',
    r'Kernel panic',
    r'possible recursive locking',
    r'circular locking dependency',
    r'inconsistent lock state',
    r'suspicious RCU usage',
    r'lock held when returning to user space',
    r'bad unlock balance',
    r'INFO: task .* blocked for more than',
    r'rcu_(sched|preempt) self-detected stall',
    # rcu_preempt, rcu_sched, expedited, and the RCU-tasks flavours
    r'INFO: .*detected (expedited )?stalls?',
    r'soft lockup|hard LOCKUP',
    r'refcount_t: ',
    r'list_(add|del) corruption',
    r'kmemleak: \d+ new suspected memory leaks',
    r'^BUG \S+ \((Not t|T)ainted',   # SLUB debug: "BUG kmalloc-64 (Not tainted): ..."
    # warn_alloc(); one that fault injection forced is expected (FORCED)
    r'page allocation failure: order:',
    r'unreferenced object 0x',
    # The console lost messages: the scan cannot vouch for what it missed.
    r'printk messages dropped',
]

# Messages of the series' own code ("unwind_user: ...", "unwind_user_pe:
# ...") that are not splats.  Any other is: the series logs only when
# something is wrong.
OWN = re.compile(r'^unwind_user[a-z_]*:')
EXPECTED = [
    # A table found corrupt or unindexable by a lookup is dropped, with a
    # rate-limited line naming the process (kernel/unwind/registry.c); the
    # stress test and register's corrupt-table cases provoke it on purpose.
    r'^unwind_user: .*\[\d+\]: dropped (a corrupt|an unindexable) unwind table \(-\d+\)$',
]

# Lines the kselftests write to /dev/kmsg themselves, to check that their
# own reading of the kernel log catches a splat (register.c's
# kmsg_check_works): never a report of the kernel's.
MADE_UP = re.compile(r'^unwind_user selftest: ')

# A failure that fault injection forced: its warn_alloc() report follows
# within a few kernel lines, and is not a splat.
FORCED = re.compile(r'^FAULT_INJECTION: forcing a failure')
FORCED_ALLOC = re.compile(r'page allocation failure: order:')
FORCED_WITHIN = 4

TIMESTAMP = re.compile(r'\[ *\d+\.\d{6}\] ')
SPLAT = re.compile('|'.join('(?:%s)' % p for p in SPLATS))
FINE = re.compile('|'.join('(?:%s)' % p for p in EXPECTED))
SHOWN = 200     # offending lines printed per file


def splats(path):
    """The offending lines of @path: [(line number, kernel message)]."""
    out = []
    kernel_lines = 0
    forced = None
    with open(path, 'rb') as f:
        for n, raw in enumerate(f, 1):
            line = raw.decode('utf-8', 'replace').rstrip('\r\n')
            m = TIMESTAMP.search(line)
            if not m:
                continue
            kernel_lines += 1
            msg = line[m.end():].rstrip('\r')
            if MADE_UP.match(msg):
                continue
            if FORCED.match(msg):
                forced = kernel_lines
                continue
            if (FORCED_ALLOC.search(msg) and forced is not None and
                    kernel_lines - forced <= FORCED_WITHIN):
                continue
            if SPLAT.search(msg) or (OWN.match(msg) and not FINE.search(msg)):
                out.append((n, msg))
    # No kernel line at all: not a console (or PRINTK_TIME is off), and
    # nothing in it could have been seen.
    if not kernel_lines:
        out.append((0, 'no kernel line with a timestamp: nothing scanned'))
    return out


def main(argv):
    want = None
    if len(argv) > 2 and argv[1] == '--want':
        want = re.compile(argv[2])
        argv = argv[2:]
    files = argv[1:]
    if not files:
        print('splat-scan: no console log to scan', file=sys.stderr)
        return 2
    found = missed = 0
    for path in files:
        try:
            lines = splats(path)
        except OSError as e:
            print('splat-scan: %s: %s' % (path, e.strerror), file=sys.stderr)
            return 2
        for n, msg in lines[:SHOWN]:
            print('%s:%d: %s' % (path, n, msg))
        if len(lines) > SHOWN:
            print('%s: ... and %d more' % (path, len(lines) - SHOWN))
        found += len(lines)
        if want and not any(want.search(msg) for _, msg in lines):
            print('splat-scan: %s: no splat matches %r' % (path, want.pattern))
            missed += 1
    if want:
        return 1 if missed else 0
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
