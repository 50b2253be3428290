#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn TAP output (kselftest's, nested or not) into result lines.

Usage: tap.py PREFIX < tap-output >> results

Each test becomes one line "PASS|FAIL|XFAIL<TAB>PREFIX/name<TAB>detail".
Nested subtests ("# ok 1 name") are counted one by one; a program's own
line counts only when it had no subtests, or when it failed although they
passed (a crash, a timeout).  SKIP is a failure here: in this harness every
test has what it needs, so a skip means something is missing.  XFAIL is an
expected failure (a pass); XPASS is a failure: the marker must go.
A plan ("1..N") that was not met is a failure too.
"""
import re
import sys

LINE = re.compile(r'^(not ok|ok)\s+(\d+)\s*-?\s*([^#]*?)\s*(?:#\s*(.*))?$')
DIRECTIVES = ('SKIP', 'XFAIL', 'XPASS', 'TODO')


def split_comment(comment):
    """'XFAIL reason' -> ('XFAIL', 'reason'); 'some text' -> ('', 'some text')."""
    comment = (comment or '').strip()
    word = comment.split(' ', 1)[0].upper()
    if word in DIRECTIVES:
        return word, comment[len(word):].strip()
    return '', comment


def verdict(ok, directive):
    d = (directive or '').upper()
    if d == 'SKIP':
        return 'FAIL', 'skipped'
    if d == 'XFAIL':
        return 'XFAIL', ''
    if d == 'XPASS':
        return 'FAIL', 'passed but marked XFAIL'
    return ('PASS' if ok else 'FAIL'), ''


def main():
    prefix = sys.argv[1]
    out = []
    nested = []          # results of the program being run
    nested_plan = None
    top_plan = None
    top_seen = 0
    for raw in sys.stdin:
        line = raw.rstrip('\n')
        m = re.match(r'^# (.*)$', line)
        if m and not line.startswith('# #'):
            inner = m.group(1)
            pm = re.match(r'^1\.\.(\d+)', inner)
            if pm:
                nested_plan = int(pm.group(1))
                continue
            tm = LINE.match(inner)
            if tm:
                directive, text = split_comment(tm.group(4))
                v, why = verdict(tm.group(1) == 'ok', directive)
                nested.append((v, tm.group(3).strip(), why or text))
            continue
        pm = re.match(r'^1\.\.(\d+)', line)
        if pm:
            top_plan = int(pm.group(1))
            continue
        tm = LINE.match(line)
        if not tm:
            continue
        top_seen += 1
        name = tm.group(3).strip()
        name = re.sub(r'^selftests:\s*\S+:\s*', '', name)
        directive, text = split_comment(tm.group(4))
        v, why = verdict(tm.group(1) == 'ok', directive)
        if nested:
            for nv, nname, ndetail in nested:
                out.append((nv, f'{name}/{nname}', ndetail))
            if nested_plan is not None and len(nested) < nested_plan:
                out.append(('FAIL', f'{name}', f'ran {len(nested)} of {nested_plan} planned tests'))
            elif v == 'FAIL' and all(n[0] != 'FAIL' for n in nested):
                out.append(('FAIL', name, why or 'failed after its tests passed'))
        else:
            out.append((v, name, why or text))
        nested, nested_plan = [], None
    if top_plan is not None and top_seen < top_plan:
        out.append(('FAIL', 'plan', f'ran {top_seen} of {top_plan} planned tests'))
    if not out:
        out.append(('FAIL', 'output', 'no TAP results at all'))
    for v, name, detail in out:
        print(f'{v}\t{prefix}/{name}\t{detail}')


if __name__ == '__main__':
    main()
