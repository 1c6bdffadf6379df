#!/usr/bin/env python3
"""AXL_TRACE without axl_shutdown: the file is written at exit.

  check_exit_trace.py PROGRAM OUT.json

Runs tests/trace/trace_at_exit.c's program (three host tasks on an
in-order queue, then exit) with AXL_TRACE=OUT.json and parses the file
with python3's json module: three command slices, one after another, each
waiting for the one before.
"""
import json
import os
import subprocess
import sys

prog, out = sys.argv[1], sys.argv[2]
if os.path.exists(out):
    os.remove(out)
env = dict(os.environ, AXL_TRACE=out)
env.pop("AXL_LOG", None)
args = os.environ.get("AXL_TEST_EMULATOR", "").split() + [prog]
run = subprocess.run(args, env=env, capture_output=True, text=True,
                     timeout=60)
if run.returncode == 77:
    print("ok: skipped, " + run.stdout.strip())
    sys.exit(0)
if run.returncode != 0:
    sys.exit("FAIL: the program failed: " + run.stdout + run.stderr)
with open(out) as fh:
    doc = json.load(fh)
cmds = sorted((e for e in doc["traceEvents"]
               if e["ph"] == "X" and e["cat"] == "command"),
              key=lambda e: e["args"]["seq"])
if [e["args"]["seq"] for e in cmds] != [1, 2, 3]:
    sys.exit("FAIL: commands %r" % [e["args"]["seq"] for e in cmds])
for a, b in zip(cmds, cmds[1:]):
    if b["args"]["deps"] != [a["args"]["seq"]] or b["ts"] < a["ts"] + a["dur"]:
        sys.exit("FAIL: %r does not follow %r" % (b["args"], a["args"]))
print("ok: %d commands written at exit" % len(cmds))
