#!/usr/bin/env python3
"""Checks on the repository's documentation (tests/CMakeLists.txt, label
static). Reads files only; prints "ok: ..." on success, the faults and exit
status 1 otherwise.

  docs.py links  ROOT   every relative link of every tracked Markdown file
                        names a file that exists, and every #anchor a heading
                        of that file (GitHub's slugs)
  docs.py layout ROOT   README's Layout table: every file it names exists,
                        and every tracked file under core/ and xrt/ is named
                        by its row (a C or C++ file directly in core/ or in a
                        port's folder by its name; other files by their name
                        or a folder above them)
"""
import os
import re
import subprocess
import sys

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
FILE_TOKEN = re.compile(r"\.(c|h|cpp|hpp|v|vh|md|cmake|S|ld|sh|py|cfg|xml)$")
SOURCE = re.compile(r"\.(c|h|cpp|hpp)$")


def tracked(root):
    """The repository's files: git's list, or (a tree without git) every
    file outside hidden folders and build/."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], check=True,
                             capture_output=True, text=True).stdout
        return [p for p in out.splitlines() if p]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, subdirs, names in os.walk(root):
            subdirs[:] = [s for s in subdirs
                          if not s.startswith(".") and
                          not (d == root and s == "build")]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
        return sorted(files)


def slug(text):
    """GitHub's anchor for a heading: lower case, markup and punctuation
    dropped, spaces to hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def markdown_lines(path):
    """The lines outside fenced code blocks."""
    lines, fenced = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                lines.append(line)
    return lines


def anchors(path, cache):
    if path not in cache:
        seen, found = {}, set()
        for line in markdown_lines(path):
            m = HEADING.match(line)
            if not m:
                continue
            s = slug(m.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            found.add(s if n == 0 else "%s-%d" % (s, n))
        cache[path] = found
    return cache[path]


def check_links(root):
    faults, cache, count = [], {}, 0
    for rel in tracked(root):
        if not rel.endswith(".md"):
            continue
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue
        for line in markdown_lines(path):
            for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
                target = m.group(1) or m.group(2)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue  # a URL (https:, mailto:)
                count += 1
                name, _, anchor = target.partition("#")
                dest = path if not name else os.path.normpath(
                    os.path.join(os.path.dirname(path), name))
                if not os.path.exists(dest):
                    faults.append("%s: link to %s: no such file" % (rel, target))
                    continue
                if anchor and dest.endswith(".md") and \
                        anchor not in anchors(dest, cache):
                    faults.append("%s: link to %s: no heading #%s in %s" %
                                  (rel, target, anchor,
                                   os.path.relpath(dest, root)))
    return faults, "every one of %d relative links resolves" % count


def layout_rows(root):
    """{folder: (tokens, row text)} of README's Layout table."""
    rows, inside = {}, False
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                inside = line.strip() == "## Layout"
                continue
            m = re.match(r"^\| `([^`]+)/` \|(.*)\|\s*$", line) if inside else None
            if m:
                rows[m.group(1)] = set(re.findall(r"`([^`]+)`", m.group(2)))
    return rows


def check_layout(root):
    files = tracked(root)
    rows = layout_rows(root)
    faults = []
    if not rows:
        return ["README.md: no Layout table"], ""
    for folder, tokens in sorted(rows.items()):
        for tok in sorted(tokens):
            if not FILE_TOKEN.search(tok) or " " in tok:
                continue
            if not any(p == tok or p.endswith("/" + tok) for p in files):
                faults.append("README.md: Layout row %s/ names %s, which no "
                              "tracked file is" % (folder, tok))
    for folder in ("core", "xrt"):
        tokens = rows.get(folder)
        if tokens is None:
            faults.append("README.md: Layout has no row for %s/" % folder)
            continue
        for p in files:
            if not p.startswith(folder + "/"):
                continue
            parts = p.split("/")[1:]
            name, dirs = parts[-1], parts[:-1]
            if name in tokens:
                continue
            direct = SOURCE.search(name) and len(dirs) <= (0 if folder == "core" else 1)
            if not direct and any("/".join(dirs[i:j]) in tokens
                                  for i in range(len(dirs))
                                  for j in range(i + 1, len(dirs) + 1)):
                continue
            faults.append("README.md: Layout row %s/ does not name %s" %
                          (folder, p))
    covered = sum(1 for p in files if p.startswith(("core/", "xrt/")))
    return faults, ("every file the Layout table names exists, and it "
                    "covers all %d files of core/ and xrt/" % covered)


def main(argv):
    if len(argv) != 3 or argv[1] not in ("links", "layout"):
        sys.stderr.write(__doc__)
        return 2
    faults, what = (check_links if argv[1] == "links" else check_layout)(argv[2])
    for f in faults:
        print(f)
    if faults:
        print("%d fault(s)" % len(faults))
        return 1
    print("ok: " + what)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
