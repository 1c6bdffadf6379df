#!/usr/bin/env python3
"""Runs the demo with a trace and checks the file with a real JSON parser.

  check_trace.py DEMO OUT.json flag   the demo writes it (--trace OUT.json)
  check_trace.py DEMO OUT.json env    AXL_TRACE=OUT.json, written at shutdown

The demo prints its six commands' profiling times in ns ("profile i submit
start end"); every one must be a slice on its queue's track with the same
times, kernels must also be on their compute unit's track, the host task on
a worker's track, transfers their own slices inside their command, and the
dependency arrows (sharpen after blur, the statistics after all three
results) must join slices that exist.
"""
import json
import os
import subprocess
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def main():
    demo, out, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    if os.path.exists(out):
        os.remove(out)
    env = dict(os.environ)
    env.pop("AXL_TRACE", None)
    # AXL_TEST_EMULATOR: how a cross build runs it (qemu-aarch64 -L ...).
    args = os.environ.get("AXL_TEST_EMULATOR", "").split() + [demo]
    if mode == "flag":
        args += ["--trace", out]
    else:
        env["AXL_TRACE"] = out
    run = subprocess.run(args, env=env, capture_output=True, text=True,
                         timeout=120)
    if run.returncode != 0 or "result: ok" not in run.stdout:
        fail("the demo failed:\n" + run.stdout + run.stderr)
    prof = {}
    for line in run.stdout.splitlines():
        f = line.split()
        if len(f) == 5 and f[0] == "profile":
            prof[int(f[1])] = tuple(int(x) for x in f[2:])
    if len(prof) != 6:
        fail("expected 6 profile lines, got %d:\n%s" % (len(prof), run.stdout))

    with open(out) as fh:
        doc = json.load(fh)  # a real parser: any syntax error fails here
    events = doc["traceEvents"]
    if doc["otherData"]["dropped"] != 0:
        fail("records were dropped")

    names = {}  # (pid, tid) -> thread name; (pid, None) -> process name
    for e in events:
        if e["ph"] == "M" and e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
        if e["ph"] == "M" and e["name"] == "process_name":
            names[(e["pid"], None)] = e["args"]["name"]
    slices = [e for e in events if e["ph"] == "X"]
    for e in events:
        if e["ph"] in ("X", "s", "f"):
            if (e["pid"], e["tid"]) not in names:
                fail("event on an unnamed track: %r" % e)
            if (e["pid"], None) not in names:
                fail("event in an unnamed process: %r" % e)
            if not isinstance(e["ts"], (int, float)):
                fail("ts not a number: %r" % e)

    # Slices on one track never overlap (the viewers draw only nested
    # ones); touching is fine.
    per_track = {}
    for e in slices:
        per_track.setdefault((e["pid"], e["tid"]), []).append(
            (e["ts"], e["ts"] + e["dur"]))
    for track, spans in per_track.items():
        spans.sort()
        for a, b in zip(spans, spans[1:]):
            if b[0] < a[1] - 1e-3:
                fail("overlapping slices on %r: %r %r" % (names[track], a, b))

    # The demo's six commands, and the prefetches parallel_for adds for
    # the vadd inputs and output not yet on the device (a, b, sum), which
    # the two vadd chunks wait for instead of for each other.
    everything = [e for e in slices if e["cat"] == "command"]
    by_seq = {e["args"]["seq"]: e for e in everything}
    commands = [e for e in everything if e["args"]["kind"] != "prefetch"]
    prefetches = [e for e in everything if e["args"]["kind"] == "prefetch"]
    if len(commands) != 6 or len(by_seq) != 9 or len(prefetches) != 3:
        fail("expected 6 command and 3 prefetch slices, got %d and %d" %
             (len(commands), len(prefetches)))

    # Every profiled command is a slice with exactly its times.
    seq_of = {}
    for i, (submit, start, end) in prof.items():
        match = [e for e in commands if e["args"]["start_ns"] == start]
        if len(match) != 1:
            fail("profile %d (start %d): %d slices" % (i, start, len(match)))
        e = match[0]
        a = e["args"]
        if (a["submit_ns"], a["end_ns"]) != (submit, end):
            fail("profile %d: trace %r, profiling %r" %
                 (i, (a["submit_ns"], a["start_ns"], a["end_ns"]),
                  (submit, start, end)))
        if abs(e["ts"] * 1000 - start) > 1 or \
           abs(e["dur"] * 1000 - (end - start)) > 1:
            fail("profile %d: ts/dur %r/%r us vs %d..%d ns" %
                 (i, e["ts"], e["dur"], start, end))
        if not submit <= a["ready_ns"] <= start:
            fail("profile %d: ready %d not between submit and start" %
                 (i, a["ready_ns"]))
        if a["status"] != "AXL_SUCCESS":
            fail("profile %d: status %s" % (i, a["status"]))
        if not names[(e["pid"], e["tid"])].startswith("queue "):
            fail("command slice not on a queue track: %r" % e)
        seq_of[i] = a["seq"]

    # The demo's order: fir, blur, sharpen, vadd x2, host statistics.
    kinds = [by_seq[seq_of[i]]["name"] for i in range(6)]
    if kinds != ["fir", "conv2d", "conv2d", "vadd", "vadd", "host_task"]:
        fail("commands: %r" % kinds)

    # Kernels also on their compute unit's track (the device's process).
    cu_tid = {}
    for i in range(5):
        seq = seq_of[i]
        k = [e for e in slices if e["cat"] == "kernel" and
             e["args"]["seq"] == seq]
        if len(k) != 1:
            fail("kernel %d: %d compute-unit slices" % (i, len(k)))
        track = names[(k[0]["pid"], k[0]["tid"])]
        # Named as the design names the unit ("fir_1", "vadd_2").
        if track != k[0]["args"].get("unit") or \
           not track.startswith(k[0]["name"] + "_"):
            fail("kernel %d on track %r (unit %r)" %
                 (i, track, k[0]["args"].get("unit")))
        if k[0]["ts"] != by_seq[seq]["ts"]:
            fail("kernel %d: compute unit slice starts elsewhere" % i)
        cu_tid[i] = (k[0]["pid"], k[0]["tid"])
    if cu_tid[3] == cu_tid[4]:
        fail("the two vadd halves ran on one compute unit track")

    # The host task on a host-task track.
    h = [e for e in slices if e["cat"] == "host_task"]
    if len(h) != 1 or h[0]["args"]["seq"] != seq_of[5]:
        fail("host-task slices: %r" % h)
    if "host-task" not in names[(h[0]["pid"], h[0]["tid"])] and \
       "host tasks" not in names[(h[0]["pid"], h[0]["tid"])]:
        fail("host task on track %r" % names[(h[0]["pid"], h[0]["tid"])])

    # Transfers: own slices, on a "transfers" track, inside their command
    # (the moves before an action, or an action on device memory), or a
    # buffer's write-back, which is no command; each says its direction.
    t = [e for e in slices if e["cat"] == "transfer"]
    if not t:
        fail("no transfer slices")
    for e in t:
        a = e["args"]
        if not names[(e["pid"], e["tid"])].startswith("transfers"):
            fail("transfer on track %r" % names[(e["pid"], e["tid"])])
        if a["bytes"] <= 0 or a["bytes"] != a["to_device"] + a["to_host"] \
           and a["direction"] != "on_device":
            fail("transfer bytes: %r" % e)
        if a["of"] == "write_back":
            if a["direction"] != "to_host":
                fail("write-back: %r" % e)
            continue
        c = by_seq[a["seq"]]
        want = c["args"]["transfer_bytes"] if a["of"] == "moves" \
            else c["args"]["bytes"]
        if a["bytes"] != want:
            fail("transfer bytes: %r, its command %r" % (e, c))
        if e["ts"] < c["ts"] or e["ts"] + e["dur"] > c["ts"] + c["dur"] + 1e-3:
            fail("transfer outside its command: %r vs %r" % (e, c))
    t = [e for e in t if e["args"]["of"] == "moves"]
    fir_in = 2 * 2048 + 2 * 16  # signal and taps go to the device
    if by_seq[seq_of[0]]["args"]["transfer_bytes"] != fir_in:
        fail("fir moved %r bytes, not %d" %
             (by_seq[seq_of[0]]["args"]["transfer_bytes"], fir_in))

    # Dependencies and their arrows: every one drawn (a record keeps
    # AXL_TRACE_DEPS, 8 on the host boards; the statistics wait for up to
    # five commands when they are submitted while those still run).
    for e in everything:
        if e["args"].get("deps_not_shown"):
            fail("command %r: %d dependencies not drawn" %
                 (e["args"]["seq"], e["args"]["deps_not_shown"]))
    deps = {i: by_seq[seq_of[i]]["args"]["deps"] for i in range(6)}
    for p in prefetches:
        if p["args"]["seq"] not in deps[3] + deps[4]:
            fail("no vadd chunk waits for prefetch %r" % p["args"]["seq"])
    if seq_of[3] in deps[4] or seq_of[4] in deps[3]:
        fail("the vadd chunks wait for each other: %r %r" % (deps[3], deps[4]))

    if seq_of[1] not in deps[2]:
        fail("sharpen does not list blur: %r" % deps[2])
    for i in (0, 2):
        if seq_of[i] not in deps[5]:
            fail("the statistics do not list command %d: %r" % (i, deps[5]))
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    if set(starts) != set(ends) or not starts:
        fail("flow starts %r and ends %r do not pair" %
             (sorted(starts), sorted(ends)))
    want_arrows = sum(len(v) for v in deps.values()) + \
        sum(len(p["args"]["deps"]) for p in prefetches)
    if len(starts) != want_arrows:
        fail("%d arrows for %d dependencies" % (len(starts), want_arrows))

    def inside(ev):
        return [x for x in slices if x["pid"] == ev["pid"] and
                x["tid"] == ev["tid"] and
                x["ts"] - 1e-3 <= ev["ts"] <= x["ts"] + x["dur"] + 1e-3]

    for fid, s in starts.items():
        f = ends[fid]
        if f.get("bp") != "e" or not inside(s) or not inside(f):
            fail("arrow %r: an end is not on a slice" % fid)
        if s["ts"] > f["ts"]:
            fail("arrow %r goes back in time" % fid)
    print("ok: %d events, %d commands, %d transfers, %d arrows" %
          (len(events), len(commands), len(t), len(starts)))


main()
