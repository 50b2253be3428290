#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Keep the compiler and sparse findings that are the series' own.

Usage: series-warnings.py SRC < build-output

SRC is the assembled tree (a git repository whose tag "pristine" is Linux
as released).  A finding ("FILE:LINE:COL: warning|error: ...") is printed
when FILE is new in the series, or LINE is one the series added or
changed; the series is not to blame for what upstream code already says.
Exits 1 if it printed anything.
"""
import re
import subprocess
import sys

src = sys.argv[1]
diff = subprocess.run(['git', '-C', src, 'diff', '-U0', 'pristine', 'HEAD', '--', '*.c', '*.h'],
                      capture_output=True, text=True, check=True).stdout
added = {}
new_files = set()
path = None
for line in diff.splitlines():
    if line.startswith('+++ '):
        path = line[6:] if line.startswith('+++ b/') else None
    elif line.startswith('--- /dev/null'):
        new_files.add('pending')
    elif line.startswith('@@') and path:
        m = re.match(r'@@ -\S+ \+(\d+)(?:,(\d+))? @@', line)
        start, count = int(m.group(1)), int(m.group(2) or 1)
        added.setdefault(path, set()).update(range(start, start + count))
    if line.startswith('+++ ') and 'pending' in new_files:
        new_files.discard('pending')
        if path:
            new_files.add(path)

found = 0
finding = re.compile(r'^(?:.*?/src/[\w.-]+/|\.\./)*(?P<file>[\w./+-]+):(?P<line>\d+):(?:\d+:)? (?:warning|error):')
for out in sys.stdin:
    m = finding.match(out)
    if not m:
        continue
    f, n = m.group('file'), int(m.group('line'))
    if f in new_files or n in added.get(f, ()):
        sys.stdout.write(out)
        found = 1
sys.exit(found)
