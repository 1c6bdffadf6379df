#!/usr/bin/env python3
"""The MISRA C:2012 record (docs/misra.md) against cppcheck's misra addon.

Runs cppcheck --addon=misra over what the board kit puts in a firmware
(FILES below: the core, the bare-metal port, the mmio port, the plan
executor and the kit's C files, as the zcu102-r5 board builds them) and fails on any finding
the record does not cover: a deviation names a rule (or one of cppcheck's
own checks) and a scope, "all" or file patterns (fnmatch, relative to
the source tree). No line numbers: the code keeps moving.

    misra.py CPPCHECK SOURCE_DIR RECORD [JOBS]

Prints the findings per rule (and which deviation covers them), then the
findings no deviation covers with their lines, and exits 1 when there is
any, or when a deviation covers nothing (stale: the record would claim a
deviation the code no longer needs).
"""
import fnmatch
import glob
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

FILES = ["core/*.c", "port/baremetal/*.c", "xrt/mmio/mmio.c",
         "xrt/mmio/unit.c", "xrt/mmio/banks.c", "xrt/mmio/fw_exec.c",
         "kit/*.c"]
OPTIONS = ["--addon=misra", "--std=c11", "-q", "--inline-suppr",
           "--template={file}|{line}|{id}",
           "-Iinclude", "-Icore", "-Iboards/zcu102-r5", "-Ixrt/mmio", "-Ikit",
           # The R5 firmware's configuration: GCC, ELF, the real seam,
           # the kit's console on the board's UART (zcu102-r5's UART0).
           "-D__GNUC__=12", "-D__ELF__=1", "-D__arm__=1", "-DAXL_MMIO_MODEL=0",
           "-DAXL_FW_CONSOLE_UART=0xFF000000u",
           "--suppress=missingIncludeSystem"]


def record(path):
    """The deviations: {rule: [scope patterns]} from the table rows
    `| rule | category | scope | reason |` of the Deviations section."""
    devs = {}
    inside = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("## "):
            inside = line.strip().lower().startswith("## deviations")
            continue
        m = re.match(r"\|\s*([0-9]+\.[0-9]+|[A-Za-z][A-Za-z0-9]*)\s*\|"
                     r"[^|]*\|\s*([^|]+?)\s*\|", line)
        if inside and m and m.group(1).lower() != "rule":
            scope = [s.strip().strip("`") for s in m.group(2).split(",")]
            devs.setdefault(m.group(1), []).extend(scope)
    return devs


def covered(devs, rule, path):
    for pat in devs.get(rule, []):
        if pat == "all" or fnmatch.fnmatch(path, pat):
            return pat
    return None


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    cppcheck, src, rec = sys.argv[1:4]
    jobs = sys.argv[4] if len(sys.argv) > 4 else "2"
    files = sorted(f for p in FILES for f in glob.glob(os.path.join(src, p)))
    files = [os.path.relpath(f, src) for f in files]
    # Its work files (.ctu-info, dumps) in a folder of its own, not beside
    # the sources.
    with tempfile.TemporaryDirectory() as work:
        run = subprocess.run([cppcheck, "-j", jobs,
                              "--cppcheck-build-dir=" + work] + OPTIONS +
                             files, cwd=src, capture_output=True, text=True)
    findings = []
    for line in (run.stdout + run.stderr).splitlines():
        parts = line.split("|")
        if len(parts) != 3 or not parts[1].isdigit():
            continue
        path = os.path.relpath(os.path.join(src, parts[0]), src)
        rule = parts[2].replace("misra-c2012-", "")
        findings.append((path, int(parts[1]), rule))
    if not findings and run.returncode != 0:
        sys.exit("misra: cppcheck failed (%d):\n%s" % (run.returncode,
                                                      run.stderr))
    devs = record(rec)
    per_rule = defaultdict(int)
    used = set()
    missing = []
    for path, line, rule in findings:
        per_rule[rule] += 1
        pat = covered(devs, rule, path)
        if pat:
            used.add((rule, pat))
        else:
            missing.append((path, line, rule))

    def key(r):
        return [int(x) if x.isdigit() else 0 for x in r.split(".")] + [r]
    print("misra: %d files, %d findings" % (len(files), len(findings)))
    for rule in sorted(per_rule, key=key):
        print("  %-22s %5d  %s" % (rule, per_rule[rule],
                                   ", ".join(devs.get(rule, ["-"]))))
    # A deviation nothing needs is a claim the record cannot back: it
    # fails as a finding with no deviation does.
    stale = [(rule, pat)
             for rule, pats in sorted(devs.items(), key=lambda kv: key(kv[0]))
             for pat in pats if (rule, pat) not in used]
    for rule, pat in stale:
        print("misra: stale deviation (nothing found): %s in %s; remove it "
              "from %s" % (rule, pat, rec))
    if missing:
        print("misra: %d findings no deviation in %s covers; fix them or "
              "record each rule with its reason and scope:"
              % (len(missing), rec))
        for path, line, rule in sorted(missing):
            print("  %s:%d: %s" % (path, line, rule))
        return 1
    if stale:
        return 1
    print("ok: every finding is in the record, and every deviation is used")
    return 0


if __name__ == "__main__":
    sys.exit(main())
