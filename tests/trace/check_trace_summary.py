#!/usr/bin/env python3
"""axl-trace summary against the trace it reads (issue 29 item 8).

  check_trace_summary.py AXL_TRACE_TOOL DEMO OUT.json

The demo writes its trace; `axl-trace summary --json` must give, for each
compute unit's track, its runs and busy time (the sum of its kernel
slices) and utilisation over the trace's span, for each direction the
bytes and time of the transfer slices, and the longest idle gaps in order,
as recomputed here from the trace with python3's json module; the text
form must name every unit. A file that is not a trace is refused.
"""
import json
import os
import subprocess
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def close(a, b):
    return abs(a - b) <= 0.002


def main():
    tool, demo, out = sys.argv[1], sys.argv[2], sys.argv[3]
    emulator = os.environ.get("AXL_TEST_EMULATOR", "").split()
    run = subprocess.run(emulator + [demo, "--trace", out],
                         capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        fail("the demo failed:\n" + run.stdout + run.stderr)
    with open(out) as fh:
        events = json.load(fh)["traceEvents"]
    names = {}
    for e in events:
        if e["ph"] == "M" and e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    slices = [e for e in events if e["ph"] == "X"]
    t0 = min(e["ts"] for e in slices)
    t1 = max(e["ts"] + e["dur"] for e in slices)
    units = {}
    for e in slices:
        if e["cat"] == "kernel":
            units.setdefault(names[(e["pid"], e["tid"])], []).append(
                (e["ts"], e["ts"] + e["dur"]))
    flows = {"to_device": [0, 0.0], "to_host": [0, 0.0], "on_device": [0, 0.0]}
    for e in slices:
        if e["cat"] != "transfer":
            continue
        a = e["args"]
        if a["to_device"]:
            flows["to_device"][0] += a["to_device"]
            flows["to_device"][1] += e["dur"]
        if a["to_host"]:
            flows["to_host"][0] += a["to_host"]
            flows["to_host"][1] += e["dur"]
        if a["direction"] == "on_device":
            flows["on_device"][0] += a["bytes"]
            flows["on_device"][1] += e["dur"]
    gaps = []
    for name, runs in units.items():
        runs.sort()
        at = t0
        for s, end in runs + [(t1, t1)]:
            if s > at:
                gaps.append(s - at)
            at = max(at, end)
    gaps.sort(reverse=True)

    res = subprocess.run([tool, "summary", "--json", "--gaps", "3", out],
                         capture_output=True, text=True, timeout=60)
    if res.returncode != 0:
        fail("axl-trace: " + res.stderr)
    got = json.loads(res.stdout)
    if not close(got["span_us"], t1 - t0):
        fail("span %r, the trace's %r" % (got["span_us"], t1 - t0))
    if sorted(u["unit"] for u in got["units"]) != sorted(units):
        fail("units %r, the trace's %r" % (got["units"], sorted(units)))
    for u in got["units"]:
        runs = units[u["unit"]]
        busy = sum(e - s for s, e in runs)
        if u["runs"] != len(runs) or not close(u["busy_us"], busy) or \
           abs(u["utilisation"] - busy / (t1 - t0)) > 1e-5:
            fail("unit %r: %r runs, busy %r" % (u, len(runs), busy))
    for d, (b, t) in flows.items():
        g = got["directions"][d]
        if g["bytes"] != b or not close(g["time_us"], t):
            fail("%s: %r, the trace's %r bytes in %r us" % (d, g, b, t))
    if flows["to_device"][0] == 0 or flows["to_host"][0] == 0:
        fail("the demo moved nothing one way: %r" % flows)
    want = gaps[:3]
    if len(got["gaps"]) != len(want) or \
       any(not close(g["idle_us"], w) for g, w in zip(got["gaps"], want)):
        fail("gaps %r, the trace's %r" % (got["gaps"], want))

    text = subprocess.run([tool, "summary", out], capture_output=True,
                          text=True, timeout=60).stdout
    for name in units:
        if name not in text:
            fail("the table does not name unit %s:\n%s" % (name, text))
    if "bandwidth" not in text or "longest idle gaps" not in text:
        fail("the table lacks a part:\n" + text)

    bad = out + ".bad"
    with open(bad, "w") as fh:
        fh.write("{\"traceEvents\": [")
    res = subprocess.run([tool, "summary", bad], capture_output=True,
                         text=True, timeout=60)
    os.remove(bad)
    if res.returncode != 1 or bad not in res.stderr:
        fail("a broken trace: exit %d, %r" % (res.returncode, res.stderr))
    print("ok: %d units, %d gaps, %d bytes to the device, %d to the host" %
          (len(units), len(gaps), flows["to_device"][0], flows["to_host"][0]))


main()
