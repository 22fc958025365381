#!/usr/bin/env python3
"""h5py, with no tilelab code, reads a store tilelab wrote and finds every field
traces/SCHEMA.md documents.  usage: h5py_schema_test.py FILE SCHEMA.md"""
import re
import sys

import h5py

path, schema = sys.argv[1], sys.argv[2]
text = open(schema).read()

def documented(section):
    """Backquoted names in the first column of the tables under a '### section' heading."""
    part = text.split(section, 1)[1].split("\n##", 1)[0]
    names = []
    for line in part.splitlines():
        m = re.match(r"\| `([^|]*)` \|", line)
        if m:
            names += [n.strip().strip("`") for n in m.group(1).split(",")]
    return names

def as_str(v):
    return v.decode() if isinstance(v, bytes) else str(v)

failures = []
def check(cond, what):
    if not cond:
        failures.append(what)

with h5py.File(path, "r") as f:
    check(f.attrs["tilelab_schema_version"] == 2, "schema version 2")
    runs = list(f["runs"])
    check(runs == ["sim-0", "hw-0"], f"runs in order: {runs}")
    # Each run is an external link to the group /run of its own file, FILE.runs/<id>.h5.
    import os
    for r in runs:
        link = f["runs"].get(r, getlink=True)
        check(isinstance(link, h5py.ExternalLink), f"run {r} is an external link")
        check(link.filename == os.path.basename(path) + ".runs/" + r + ".h5" and link.path == "/run",
              f"run {r} links {link.filename}:{link.path}")
        with h5py.File(os.path.join(os.path.dirname(path) or ".", link.filename), "r") as own:
            check(own.attrs["tilelab_schema_version"] == 2 and "run" in own, f"run {r}'s own file")
    run = f["runs/sim-0"]
    for a in documented("### Attributes (provenance)"):
        check(a in run.attrs, f"run attribute {a}")
    check(as_str(run.attrs["kind"]) == "sim", "kind")
    check(run.attrs["complete"] == 1, "complete")
    check(as_str(run.attrs["problem_shape"]) == "M=256,N=256,K=64", "problem shape")
    res = run["results"]
    for a in ["median_ns", "p10_ns", "p90_ns", "min_ns", "iqr_ns", "tflops", "gbps", "max_rel_error", "correct"]:
        check(a in res.attrs, f"results attribute {a}")
    check(res.attrs["median_ns"] == 1000.0, "median")
    reps = res["repetitions"][:]
    check(list(reps.dtype.names) == ["rep", "time_ns"], f"repetition columns {reps.dtype.names}")
    for table, section in [("waves", "### `waves`"), ("events", "### `events`"), ("lds", "### `lds`"),
                           ("counters", "### `counters`"), ("xcd_counters", "### `xcd_counters`")]:
        cols = documented(section)
        names = list(run[table].dtype.names)
        check(names == cols, f"{table} columns {names} == documented {cols}")
    ev = run["events"][:]
    check(len(ev) == 800, "800 events")
    seg = run["event_segments"][:]
    check(list(seg.dtype.names) == ["wave", "first", "count"], "segment columns")
    wave3 = [e for s in seg if s["wave"] == 3 for e in ev[s["first"]:s["first"] + s["count"]]]
    check([int(e["issue"]) for e in wave3] == [8 * k + 3 for k in range(100)], "wave 3 issues in order")
    check([x.decode() if isinstance(x, bytes) else x for x in run["class_names"][:]] == ["VALU", "LDS", "MFMA", "SALU"],
          "class names")
    check(run["lds"][0]["instruction"] == b"ds_read_b128", "lds instruction")
    xc = run["xcd_counters"][:]
    check([(int(x["xcd"]), int(x["start"]), int(x["l2_hits"])) for x in xc] == [(0, 0, 75), (0, 1024, 10), (1, 0, 0), (1, 1024, 8)],
          "xcd_counters rows")
    check("xcd_counters" not in f["runs/hw-0"], "no xcd_counters in a hardware run")
    counters = {c["name"].decode(): c["value"] for c in run["counters"][:]}
    check(counters.get("SQ_LDS_BANK_CONFLICT") == 12.0, "counter")

if failures:
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("h5py reads every documented field")
