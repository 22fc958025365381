#!/usr/bin/env python3
"""Join the shared-memory probe's cases with Nsight Compute's counters.

usage: join_smem_measurements.py CASES.tsv NCU.csv DEVICE.txt > tests/data/sm90_smem_bank_conflicts.tsv

CASES.tsv and NCU.csv come from hw/probes/run_smem_probe.sh; the n-th kernel
launch in NCU.csv is the n-th case.  Output columns: name, kernel, mask,
offsets, measured bank conflicts, measured wavefronts (of the case's own
direction: ld or st).
"""
import csv
import sys


def main():
    cases_path, ncu_path, device_path = sys.argv[1:4]
    cases = [l.rstrip("\n").split("\t") for l in open(cases_path) if not l.startswith("#")]
    rows = [r for r in csv.reader(l for l in open(ncu_path) if not l.startswith("=="))]
    header, rows = rows[0], rows[1:]
    col = {name: i for i, name in enumerate(header)}
    metrics = {}
    for r in rows:
        launch = int(r[col["ID"]])
        value = float(r[col["Metric Value"]].replace(",", ""))
        metrics.setdefault(launch, {})[r[col["Metric Name"]]] = value
    if len(metrics) != len(cases):
        sys.exit(f"{len(cases)} cases but {len(metrics)} profiled launches")
    device = " / ".join(l.strip() for l in open(device_path) if l.strip())
    print(f"# Measured on {device} with hw/probes/run_smem_probe.sh (ncu --clock-control none).")
    print("# name\tkernel\tmask\toffsets\tbank_conflicts\twavefronts")
    for n, (name, kernel, mask, offsets) in enumerate(cases):
        op = "ld" if kernel.startswith("ld") else "st"
        m = metrics[n]
        conflicts = int(m[f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum"])
        wavefronts = int(m[f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"])
        print(f"{name}\t{kernel}\t{mask}\t{offsets}\t{conflicts}\t{wavefronts}")


if __name__ == "__main__":
    main()
