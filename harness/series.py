#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The patch series: patches/ and the overlay as one list of commits.

patches/series lists the patches in order.  patches/new-files names, for
each file that Linux does not have (the overlay: kernel/unwind/cfi.c, ...),
the patch that adds it.  A patch file holds its commit message and its
changes to files that exist by then: files of Linux and files that an
earlier patch added.  The overlay holds every new file in its final state;
the state a file is added in is the final one with the later patches'
changes to it taken back out.  So the series is

    commit k = commit k-1 + the files patch k adds (in that state)
                          + the diff in patches/<patch k>

and its last commit is the tree that `make check` builds.

  series.py assemble SRC          build the commits in the git repository
                                  SRC (on its tag "pristine", with the index
                                  in $GIT_INDEX_FILE); print the last one
  series.py export SRC DEV BASE   the other way: the commits pristine..DEV
                                  back into patches/, patches/new-files and
                                  the overlay (BASE: the commit DEV started
                                  from, to notice overlay edits made since)
  series.py format SRC TIP DIR    git format-patch of pristine..TIP into DIR
                                  with the cover letter of patches/cover-letter
"""

import email
import email.policy
import email.utils
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATCHES = os.path.join(REPO, "patches")
OVERLAY_DIRS = ("arch block certs crypto Documentation drivers fs include init "
                "io_uring ipc kernel lib mm net rust samples security sound "
                "tools usr virt").split()

# Fixed identities and dates: the same inputs make the same commits.
ENV = dict(os.environ,
           GIT_COMMITTER_NAME="unwind-user",
           GIT_COMMITTER_EMAIL="unwind-user@localhost",
           GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")


def die(msg):
    print("error: " + msg, file=sys.stderr)
    sys.exit(1)


def git(src, *args, env=None, data=None, check=True):
    r = subprocess.run(["git", "-C", src] + list(args), input=data,
                       capture_output=True, env=env or ENV)
    if check and r.returncode:
        die("git %s: %s" % (" ".join(args[:3]), r.stderr.decode().strip()))
    return r.stdout


def read_series():
    names = []
    with open(os.path.join(PATCHES, "series")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                if not os.path.isfile(os.path.join(PATCHES, line)):
                    die("patches/series names %s, which does not exist" % line)
                names.append(line)
    return names


def read_new_files(series):
    """patches/new-files: '<patch>:' lines, each followed by its files."""
    adds, owner, cur = {p: [] for p in series}, {}, None
    path = os.path.join(PATCHES, "new-files")
    if not os.path.exists(path):
        return adds, owner
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if not line[0].isspace():
                cur = line.strip().rstrip(":")
                if cur not in adds:
                    die("%s:%d: %s is not in patches/series" % (path, n, cur))
                continue
            name = line.strip()
            if cur is None or name in owner:
                die("%s:%d: %s listed %s" % (path, n, name,
                                             "twice" if cur else "before a patch"))
            owner[name] = cur
            adds[cur].append(name)
    return adds, owner


def overlay_files():
    out = subprocess.run(["git", "-C", REPO, "ls-files", "-z", "--cached",
                          "--others", "--exclude-standard", "--"] + OVERLAY_DIRS,
                         capture_output=True, check=True).stdout
    return sorted(f for f in out.decode().split("\0")
                  if f and os.path.isfile(os.path.join(REPO, f)))


def patch_paths(text):
    return set(re.findall(r"^diff --git a/(\S+) b/", text, re.M))


def added_states(series, adds, owner):
    """The content of each new file in the commit that adds it: its overlay
    content with the later patches' changes to it undone, last first."""
    files = overlay_files()
    missing = sorted(set(files) - set(owner))
    if missing:
        die("in no patch of patches/new-files: %s" % " ".join(missing))
    gone = sorted(set(owner) - set(files))
    if gone:
        die("patches/new-files names files that are not here: %s" % " ".join(gone))
    states = {}
    with tempfile.TemporaryDirectory(prefix="series.") as tmp:
        for f in files:
            os.makedirs(os.path.dirname(os.path.join(tmp, f)), exist_ok=True)
            shutil.copy2(os.path.join(REPO, f), os.path.join(tmp, f))
        for i in reversed(range(len(series))):
            p = os.path.join(PATCHES, series[i])
            with open(p, errors="replace") as fh:
                touched = patch_paths(fh.read()) & set(owner)
            for f in touched:
                if series.index(owner[f]) >= i:
                    die("%s changes %s, which %s only adds later" %
                        (series[i], f, owner[f]))
            if touched:
                inc = ["--include=" + f for f in sorted(touched)]
                r = subprocess.run(["git", "apply", "-R", "--allow-empty"] + inc + [p],
                                   cwd=tmp, capture_output=True)
                if r.returncode:
                    die("cannot take %s's changes to %s back out of the overlay "
                        "(edit them in the dev worktree: make patches-import):\n%s" %
                        (series[i], " ".join(sorted(touched)), r.stderr.decode()))
            for f in adds[series[i]]:
                with open(os.path.join(tmp, f), "rb") as fh:
                    states[f] = (fh.read(), os.access(os.path.join(REPO, f), os.X_OK))
    return states


def mailinfo(path):
    """Author, date and message of a patch file (as git format-patch writes
    them; git mailinfo refuses a patch without a diff, which a patch that
    only adds new files is)."""
    with open(path, "rb") as fh:
        msg = email.message_from_bytes(fh.read(), policy=email.policy.default)
    name, addr = email.utils.parseaddr(str(msg["From"]))
    subject = re.sub(r"^\[PATCH[^]]*\]\s*", "", " ".join(str(msg["Subject"]).split()))
    body = msg.get_payload(decode=True).decode(msg.get_content_charset() or "utf-8")
    body = re.split(r"^---$", body, maxsplit=1, flags=re.M)[0].strip("\n")
    hdr = {"Author": name, "Email": addr, "Date": str(msg["Date"])}
    return hdr, subject + ("\n\n" + body if body else "") + "\n"


def assemble(src):
    series = read_series()
    adds, owner = read_new_files(series)
    states = added_states(series, adds, owner)
    git(src, "read-tree", "pristine")
    parent = git(src, "rev-parse", "pristine").decode().strip()
    for name in series:
        p = os.path.join(PATCHES, name)
        if adds[name]:
            lines = []
            for f in adds[name]:
                data, exe = states[f]
                sha = git(src, "hash-object", "-w", "--stdin", data=data).decode().strip()
                lines.append("%s %s\t%s\n" % ("100755" if exe else "100644", sha, f))
            git(src, "update-index", "--add", "--index-info",
                data="".join(lines).encode())
        cmd = ["git", "-C", src, "apply", "--cached", "--allow-empty", "--whitespace=nowarn"]
        r = subprocess.run(cmd + [p], capture_output=True, env=ENV)
        # On another release (SERIES_LOOSE=1: KVER=7.3), a hunk whose
        # surroundings moved may still apply with one line of context.
        if r.returncode and os.environ.get("SERIES_LOOSE") == "1":
            r = subprocess.run(cmd + ["-C1", p], capture_output=True, env=ENV)
            if not r.returncode:
                print("series: %s applies with one line of context" % name,
                      file=sys.stderr)
        if r.returncode:
            die("patch %s does not apply:\n%s" % (name, r.stderr.decode()))
        hdr, msg = mailinfo(p)
        env = dict(ENV, GIT_AUTHOR_NAME=hdr.get("Author", "unwind-user"),
                   GIT_AUTHOR_EMAIL=hdr.get("Email", "unwind-user@localhost"),
                   GIT_AUTHOR_DATE=hdr.get("Date", "2026-01-01T00:00:00Z"))
        tree = git(src, "write-tree").decode().strip()
        parent = git(src, "commit-tree", tree, "-p", parent, env=env,
                     data=msg.encode()).decode().strip()
    print(parent)


def export(src, dev, base):
    commits = git(src, "rev-list", "--reverse", "pristine.." + dev).decode().split()
    if not commits:
        die("no commits in pristine..%s" % dev)
    pristine = set(git(src, "ls-tree", "-r", "--name-only", "pristine").decode().split("\n"))
    new = [f for f in git(src, "ls-tree", "-r", "--name-only", dev).decode().split("\n")
           if f and f not in pristine]
    # An overlay file edited since the import, which the dev branch would
    # overwrite, is a conflict: say so rather than lose either edit.
    for f in new:
        mine = os.path.join(REPO, f)
        if not os.path.exists(mine):
            continue
        at_base = git(src, "show", "%s:%s" % (base, f), check=False)
        with open(mine, "rb") as fh:
            here = fh.read()
        at_dev = git(src, "show", "%s:%s" % (dev, f))
        if here != at_base and at_dev != at_base and here != at_dev:
            die("%s changed both here and in the dev branch since the import" % f)
    for f in overlay_files():
        if f not in new:
            die("%s is in the overlay but not in the dev branch" % f)

    tmp = tempfile.mkdtemp(prefix="export.")
    env = dict(ENV, GIT_INDEX_FILE=os.path.join(tmp, "index"))
    out, groups = [], []
    for n, c in enumerate(commits, 1):
        added = [f for f in git(src, "diff-tree", "-r", "--no-commit-id",
                                "--diff-filter=A", "--name-only", c + "^", c).decode().split("\n")
                 if f and f not in pristine]
        # The stored patch: the commit without the files it adds.
        git(src, "read-tree", c, env=env)
        if added:
            git(src, "update-index", "--force-remove", "--", *added, env=env)
        tree = git(src, "write-tree", env=env).decode().strip()
        raw = git(src, "cat-file", "commit", c).decode()
        hdrs, msg = raw.split("\n\n", 1)
        author = re.search(r"^author (.*) <(.*)> (\d+ [-+]\d+)$", hdrs, re.M)
        aenv = dict(ENV, GIT_AUTHOR_NAME=author.group(1), GIT_AUTHOR_EMAIL=author.group(2),
                    GIT_AUTHOR_DATE=author.group(3))
        stored = git(src, "commit-tree", tree, "-p", c + "^", env=aenv,
                     data=msg.encode()).decode().strip()
        name = git(src, "format-patch", "-1", "--always", "--zero-commit", "--no-signature",
                   "--no-numbered", "--start-number", str(n), "-o", tmp,
                   stored).decode().strip()
        base_name = os.path.basename(name)
        out.append((name, base_name))
        groups.append((base_name, sorted(added)))
    for f in os.listdir(PATCHES):
        if f.endswith(".patch"):
            os.unlink(os.path.join(PATCHES, f))
    for path, name in out:
        shutil.move(path, os.path.join(PATCHES, name))
    shutil.rmtree(tmp)
    with open(os.path.join(PATCHES, "series"), "w") as fh:
        fh.write("".join(name + "\n" for _, name in out))
    with open(os.path.join(PATCHES, "new-files"), "w") as fh:
        fh.write("# The files Linux does not have, under the patch of patches/series\n"
                 "# that adds each (harness/series.py).  Generated by make patches-export.\n")
        for name, files in groups:
            if files:
                fh.write("\n%s:\n" % name + "".join("\t%s\n" % f for f in files))
    for f in new:
        data = git(src, "show", "%s:%s" % (dev, f))
        mine = os.path.join(REPO, f)
        os.makedirs(os.path.dirname(mine), exist_ok=True)
        old = open(mine, "rb").read() if os.path.exists(mine) else None
        # An overlay edit made since the import, of a file the dev branch
        # left as it was, stays.
        if old is not None and data == git(src, "show", "%s:%s" % (base, f),
                                           check=False):
            continue
        if old != data:
            with open(mine, "wb") as fh:
                fh.write(data)
        mode = git(src, "ls-tree", dev, "--", f).decode().split()[0]
        os.chmod(mine, 0o755 if mode == "100755" else 0o644)
    print("exported %d patches, %d new files" % (len(out), len(new)), file=sys.stderr)


def format_series(src, tip, outdir):
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    git(src, "format-patch", "-q", "--cover-letter", "--zero-commit", "--no-signature",
        "--thread=shallow", "-o", outdir, "pristine.." + tip)
    cover = os.path.join(outdir, "0000-cover-letter.patch")
    with open(os.path.join(PATCHES, "cover-letter")) as fh:
        subject, blurb = fh.read().split("\n", 1)
    with open(cover) as fh:
        text = fh.read()
    text = text.replace("*** SUBJECT HERE ***", subject.strip())
    text = text.replace("*** BLURB HERE ***", blurb.strip("\n"))
    with open(cover, "w") as fh:
        fh.write(text)
    for f in sorted(os.listdir(outdir)):
        with open(os.path.join(outdir, f)) as fh:
            text = fh.read()
        stat = re.search(r"^ (\d+ files? changed.*)$", text, re.M)
        print("%s  %s" % (f, stat.group(1) if stat else "(cover letter)"))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "assemble":
        assemble(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "export":
        export(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == "format":
        format_series(*sys.argv[2:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
