#!/usr/bin/env python3
"""The tools' JSON, parsed with python3's json module.

  check_tools_json.py AXL_LS AXL_XCLBIN STOCK_XCLBIN CORPUS_DIR

axl-ls --json must list what the text listing lists (the emulated device,
its compute units, the stock design's kernels with their arguments), with
every documented field of the table in docs/tools.md and its type; axl-xclbin info
--json must describe the stock image (vadd's two compute units and their
banks), and for every image of the corpus either fail as the text form
does or print a document that parses.
"""
import json
import os
import subprocess
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=60)


def need(obj, fields, where):
    for name, kind in fields.items():
        if name not in obj:
            fail("%s: no field %r in %r" % (where, name, sorted(obj)))
        if not isinstance(obj[name], kind) or \
           (kind is int and isinstance(obj[name], bool)):
            fail("%s: %r is %r, not %s" % (where, name, obj[name], kind))


def check_ls(tool):
    r = run([tool, "--json"])
    if r.returncode != 0:
        fail("axl-ls --json exited %d: %s" % (r.returncode, r.stderr))
    doc = json.loads(r.stdout)
    need(doc, {"format": str, "version": int, "platforms": list}, "axl-ls")
    if doc["format"] != "axl-ls" or doc["version"] != 1:
        fail("axl-ls: format/version %r/%r" % (doc["format"], doc["version"]))
    text = run([tool]).stdout
    devices = []
    for p in doc["platforms"]:
        need(p, {"index": int, "name": str, "vendor": str, "version": str,
                 "devices": list}, "platform")
        if not p["devices"] and not isinstance(p["no_device_reason"], str):
            fail("a platform without devices has no reason")
        if p["devices"] and p["no_device_reason"] is not None:
            fail("a platform with devices has a no-device reason")
        if "platform %d: %s" % (p["index"], p["name"]) not in text:
            fail("platform %r not in the text listing" % p["name"])
        devices += p["devices"]
    emu = [d for d in devices if "emulated" in d["aspects"]]
    if not emu:
        fail("no emulated device in %r" % [d["name"] for d in devices])
    for d in devices:
        need(d, {"index": int, "name": str, "vendor": str, "vendor_id": int,
                 "driver_version": str, "backend_version": str,
                 "compute_units": int, "clock_mhz": int,
                 "global_mem_bytes": int, "max_alloc_bytes": int,
                 "banks": list, "base_align_bits": int,
                 "timer_resolution_ns": int, "aspects": list,
                 "loads_xclbin": bool, "built_in_kernels": list}, d["name"])
        if "device %d: %s" % (d["index"], d["name"]) not in text:
            fail("device %r not in the text listing" % d["name"])
        if "compute units     %d" % d["compute_units"] not in text:
            fail("%r: %d compute units, not in the text" %
                 (d["name"], d["compute_units"]))
        for b in d["banks"]:
            need(b, {"index": int, "tag": str, "size_bytes": int,
                     "base_address": int}, "bank")
        for k in d["built_in_kernels"]:
            need(k, {"name": str, "compute_units": int, "args": list},
                 "kernel")
            for a in k["args"]:
                need(a, {"index": int, "name": str, "kind": str}, "arg")
                if a["kind"] not in ("buffer", "scalar"):
                    fail("arg kind %r" % a["kind"])
                if a["kind"] == "scalar":
                    need(a, {"size": int}, "scalar arg")
    kernels = {k["name"]: k for k in emu[0]["built_in_kernels"]}
    if kernels.get("vadd", {}).get("compute_units") != 2:
        fail("vadd on the emulated device: %r" % kernels.get("vadd"))
    args = [(a["index"], a["name"], a["kind"]) for a in kernels["vadd"]["args"]]
    if args[:3] != [(0, "in1", "buffer"), (1, "in2", "buffer"),
                    (2, "out_r", "buffer")] or args[3][2] != "scalar":
        fail("vadd's arguments: %r" % args)
    return len(devices)


def check_info(tool, stock, corpus):
    r = run([tool, "info", "--json", stock])
    if r.returncode != 0:
        fail("axl-xclbin info --json exited %d: %s" % (r.returncode, r.stderr))
    doc = json.loads(r.stdout)
    need(doc, {"format": str, "version": int, "image": str, "size_bytes": int,
               "uuid": str, "platform": str, "sections": list,
               "memory_banks": list, "ips": list, "clocks": list,
               "kernels": list}, "info")
    if doc["size_bytes"] != os.path.getsize(stock):
        fail("size_bytes %d" % doc["size_bytes"])
    text = run([tool, "info", stock]).stdout
    if "uuid      " + doc["uuid"] not in text:
        fail("uuid %r not the text's" % doc["uuid"])
    need(doc, {"mode": str, "mode_id": int}, "info")
    for k in ("interface_uuid", "shell", "slot"):
        if k not in doc or not (doc[k] is None or isinstance(doc[k], str)):
            fail("info: %s is not a string or null" % k)
    if "\nmode      " + doc["mode"] not in text:
        fail("mode %r not the text's" % doc["mode"])
    if doc["interface_uuid"] and \
            "\ninterface " + doc["interface_uuid"] not in text:
        fail("interface_uuid %r not the text's" % doc["interface_uuid"])
    for s in doc["sections"]:
        need(s, {"index": int, "kind": str, "kind_id": int, "name": str,
                 "offset": int, "size_bytes": int}, "section")
    for m in doc["memory_banks"]:
        need(m, {"index": int, "tag": str, "type": str, "used": bool,
                 "size_bytes": int, "base_address": int}, "bank")
    for ip in doc["ips"]:
        need(ip, {"index": int, "name": str, "type": str,
                  "base_address": int}, "ip")
    for c in doc["clocks"]:
        need(c, {"index": int, "name": str, "type": str, "freq_mhz": int},
             "clock")
    banks = {m["index"] for m in doc["memory_banks"]}
    kernels = {}
    for k in doc["kernels"]:
        need(k, {"name": str, "control": str, "args": list,
                 "compute_units": list}, "kernel")
        for a in k["args"]:
            need(a, {"index": int, "name": str, "qualifier": str,
                     "offset": int, "size_bytes": int, "type": str}, "arg")
        for cu in k["compute_units"]:
            need(cu, {"name": str, "ip_index": int, "base_address": int,
                      "arg_banks": dict}, "compute unit")
            if doc["ips"][cu["ip_index"]]["name"] != cu["name"]:
                fail("cu %r is not ip %d" % (cu["name"], cu["ip_index"]))
            for arg, bl in cu["arg_banks"].items():
                if not set(bl) <= banks:
                    fail("cu %r arg %r: banks %r" % (cu["name"], arg, bl))
        kernels[k["name"]] = k
    if len(kernels.get("vadd", {}).get("compute_units", [])) != 2:
        fail("stock vadd: %r" % kernels.get("vadd"))
    if "vadd  (" not in text or "%d compute units" % 2 not in text:
        fail("the text form disagrees")

    # Every image of the corpus: the same verdict as the text form, and a
    # document that parses when it opens.
    n = 0
    for name in sorted(os.listdir(corpus)):
        path = os.path.join(corpus, name)
        t = run([tool, "info", path])
        j = run([tool, "info", "--json", path])
        if t.returncode != j.returncode:
            fail("%s: text exits %d, json %d" % (name, t.returncode,
                                                 j.returncode))
        if j.returncode == 0:
            json.loads(j.stdout)
            n += 1
    return n


def main():
    ls, xclbin, stock, corpus = sys.argv[1:5]
    devices = check_ls(ls)
    images = check_info(xclbin, stock, corpus)
    print("ok: %d devices, %d corpus images parsed" % (devices, images))


main()
