#!/usr/bin/env python3
"""Draws an axl trace (Chrome Trace Event JSON) as an SVG timeline.

  scripts/trace_svg.py TRACE.json OUT.svg [TITLE]

The picture of the demo's pipeline in docs/traces.md is made with it from the file
`axl-demo --trace` writes, then turned into a PNG with rsvg-convert (Debian
package librsvg2-bin):

  build/default/examples/axl-demo --trace demo.json
  scripts/trace_svg.py demo.json docs/demo-trace.svg
  rsvg-convert -w 1400 docs/demo-trace.svg -o docs/demo-trace.png

It draws what Perfetto would show, without Perfetto: one row per track
(named by the trace's metadata, in its sort order), each complete ("X")
event as a box, and each flow ("s" to "f") as an arrow. Only python3's
standard library is used.
"""
import json
import sys
from xml.sax.saxutils import escape

PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2",
           "#edc948", "#e15759", "#9c755f", "#bab0ac"]


def main():
    src, out = sys.argv[1], sys.argv[2]
    title = sys.argv[3] if len(sys.argv) > 3 else "axl trace"
    with open(src) as fh:
        doc = json.load(fh)
    events = doc["traceEvents"]
    pname, tname, psort, tsort = {}, {}, {}, {}
    for e in events:
        if e["ph"] != "M":
            continue
        key = (e["pid"], e["tid"])
        if e["name"] == "process_name":
            pname[e["pid"]] = e["args"]["name"]
        elif e["name"] == "thread_name":
            tname[key] = e["args"]["name"]
        elif e["name"] == "process_sort_index":
            psort[e["pid"]] = e["args"]["sort_index"]
        elif e["name"] == "thread_sort_index":
            tsort[key] = e["args"]["sort_index"]
    slices = [e for e in events if e["ph"] == "X"]
    flows_s = {e["id"]: e for e in events if e["ph"] == "s"}
    flows_f = {e["id"]: e for e in events if e["ph"] == "f"}
    if not slices:
        sys.exit("no slices in " + src)

    tracks = sorted({(e["pid"], e["tid"]) for e in slices},
                    key=lambda k: (psort.get(k[0], k[0]), k[0],
                                   tsort.get(k, k[1]), k[1]))
    t0 = min(e["ts"] for e in slices)
    t1 = max(e["ts"] + e["dur"] for e in slices)
    span = max(t1 - t0, 1e-3)

    label_w, width, row_h, top, gap = 300, 1400, 34, 70, 22
    plot_w = width - label_w - 30
    # Rows, with a header line before each process.
    rows, y, headers = {}, top, []
    last_pid = None
    for k in tracks:
        if k[0] != last_pid:
            headers.append((y, pname.get(k[0], "process %d" % k[0])))
            y += gap
            last_pid = k[0]
        rows[k] = y
        y += row_h
    height = y + 60

    def x_of(ts):
        return label_w + (ts - t0) / span * plot_w

    colours = {}

    def colour(e):
        if e["cat"] == "transfer":
            return "#8c8c8c"
        name = e["name"]
        if name not in colours:
            colours[name] = PALETTE[len(colours) % len(PALETTE)]
        return colours[name]

    o = []
    o.append('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'font-family="DejaVu Sans, Arial, sans-serif" font-size="13">'
             % (width, height))
    o.append('<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" '
             'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
             '<path d="M 0 0 L 10 5 L 0 10 z" fill="#c0392b"/></marker></defs>')
    o.append('<rect width="100%" height="100%" fill="white"/>')
    o.append('<text x="20" y="30" font-size="18" font-weight="bold">%s</text>'
             % escape(title))
    o.append('<text x="20" y="52" fill="#555">drawn by scripts/trace_svg.py '
             'from the trace file; times in microseconds from the first '
             'command\'s start</text>')
    # Time grid.
    step = 10 ** len(str(int(span))) / 10
    while span / step > 12:
        step *= 2
    while span / step < 5:
        step /= 2
    t = 0.0
    while t <= span + 1e-9:
        x = x_of(t0 + t)
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e6e6e6"/>'
                 % (x, top, x, height - 40))
        o.append('<text x="%.1f" y="%d" text-anchor="middle" fill="#555">'
                 '%g</text>' % (x, height - 22, round(t, 3)))
        t += step
    for hy, name in headers:
        o.append('<text x="10" y="%d" font-weight="bold">%s</text>'
                 % (hy + 16, escape(name)))
        o.append('<line x1="10" y1="%d" x2="%d" y2="%d" stroke="#999"/>'
                 % (hy + 20, width - 20, hy + 20))
    for k, ry in rows.items():
        o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>'
                 % (label_w, ry + 2, plot_w, row_h - 4,
                    "#f7f7f7" if (ry // row_h) % 2 else "#fbfbfb"))
        o.append('<text x="24" y="%d">%s</text>'
                 % (ry + row_h / 2 + 5, escape(tname.get(k, "tid %d" % k[1]))))
    for e in slices:
        ry = rows[(e["pid"], e["tid"])]
        x = x_of(e["ts"])
        w = max(e["dur"] / span * plot_w, 1.5)
        o.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" rx="3" '
                 'fill="%s" stroke="#333" stroke-width="0.5"><title>%s '
                 '(seq %s): %.3f us</title></rect>'
                 % (x, ry + 5, w, row_h - 10, colour(e), escape(e["name"]),
                    e["args"].get("seq", "?"), e["dur"]))
        label = e["name"]
        if e["cat"] == "transfer":
            label = "%s B" % e["args"]["bytes"]
        if w > 7.5 * len(label) + 6:
            o.append('<text x="%.1f" y="%d" fill="white">%s</text>'
                     % (x + 4, ry + row_h / 2 + 5, escape(label)))
    for fid, s in flows_s.items():
        f = flows_f.get(fid)
        if not f:
            continue
        x1, y1 = x_of(s["ts"]), rows[(s["pid"], s["tid"])] + row_h / 2
        x2, y2 = x_of(f["ts"]), rows[(f["pid"], f["tid"])] + row_h / 2
        mx = (x1 + x2) / 2
        o.append('<path d="M %.1f %.1f C %.1f %.1f, %.1f %.1f, %.1f %.1f" '
                 'fill="none" stroke="#c0392b" stroke-width="1.6" '
                 'marker-end="url(#arrow)"/>'
                 % (x1, y1, mx, y1, mx, y2, x2, y2))
    o.append('</svg>')
    with open(out, "w") as fh:
        fh.write("\n".join(o) + "\n")


main()
