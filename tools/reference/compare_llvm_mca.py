#!/usr/bin/env python3
"""The cycle model beside llvm-mca (LLVM's machine-code analyzer, Debian's
llvm-22) on the innermost loops of the suite: cycles per loop iteration.

llvm-mca models one instruction stream with LLVM's scheduling tables
(SISchedule.td): one wave alone, in order, fixed VMEM/LDS latencies, no other
waves, no memory hierarchy, no bank conflicts, no s_nop semantics, and no
FP8 doubling of the f8f6f4 MFMAs.  Its cycles are the AMDGPU scheduling
model's units, one wave issue cycle = 4 clocks (timing-facts: SISchedule's
"1/(ops/cycle)/4"), so the table shows them times 4 as well.  The cycle model runs the kernel itself
(every wave, their real addresses) on one CU.  The script prints a markdown
table; sim/timing/README.md holds its output and says why the columns differ.

usage: compare_llvm_mca.py [BUILD_DIR]      (default: build)
"""
import pathlib
import re
import statistics
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parents[2]
build = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else root / "build"
sys.path.insert(0, str(build / "python"))
import tilelab as t  # noqa: E402

MCA = "/usr/lib/llvm-22/bin/llvm-mca"
CASES = [  # kernel, source, shape: kernels whose waves each have a SIMD to themselves, or nearly
    ("mfma_dependent_chain", "mfma_rate", (200,)),
    ("mfma_independent_streams", "mfma_rate", (200,)),
    ("lds_read_b128", "lds_patterns", (200,)),
    ("lds_read_b64", "lds_patterns", (200,)),
    ("gemm_bf16", "gemm_bf16", (128, 128, 1024)),
    ("gemm_mxfp8", "gemm_mxfp8", (128, 128, 1024)),
    ("gemm_mxfp4", "gemm_mxfp4", (128, 128, 1024)),
    ("attention_fwd_d64", "attention_fwd", (1, 512, 0)),
    ("gemm_mxfp8_32x32", "gemm_mxfp8", (128, 128, 1024)),
    ("gemm_mxfp4_32x32", "gemm_mxfp4", (128, 128, 1024)),
    ("attention_fwd_d256", "attention_fwd_d256", (1, 512, 0)),
    ("attention_bwd_d64", "attention_bwd", (1, 512, 0)),
    ("attention_bwd_d128", "attention_bwd", (1, 512, 0)),
]


def innermost_loop(kernel):
    """(instructions of the kernel, index of the loop head, index of the latch)."""
    k = kernel
    head, latch, depth = max(k["loops"], key=lambda l: (l[2], l[1] - l[0]))
    return k["instructions"], head, latch


def mca_cycles_per_iteration(texts, arch):
    body = "\n".join(x for x in texts if not x.startswith("s_cbranch") and not x.startswith("s_branch")) + "\n"
    out = subprocess.run([MCA, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={arch}", "-iterations=100"], input=body,
                         capture_output=True, text=True, check=True).stdout
    return int(re.search(r"Total Cycles:\s+(\d+)", out).group(1)) / 100


def model_cycles_per_iteration(kernel, shape, pcs_head, arch):
    r = t.sim(kernel, arch, shape=shape, seed=1, timing=True, cus=1)
    ev = r["timing"]["events"]
    first_wave = ev["wave"] == 0
    heads = ev["issue"][first_wave & (ev["pc"] == pcs_head)]
    if len(heads) < 3:
        return None, r["timing"]["limiter"]
    return statistics.median(int(b - a) for a, b in zip(heads[:-1], heads[1:])), r["timing"]["limiter"]


def main():
    print("| kernel | arch | loop (instructions) | llvm-mca cycles/iteration (its units) | llvm-mca x 4 (clocks) "
          "| cycle model clocks/iteration (wave 0) | model / (mca x 4) | model's limiter |")
    print("|---|---|---|---|---|---|---|---|")
    for kernel, source, shape in CASES:
        for arch in ("gfx950", "gfx942"):
            path = build / "kernels" / arch / f"{source}.hsaco"
            if not path.exists():
                continue
            k = next(x for x in t.disasm(str(path)) if x["name"] == kernel)
            if not k["loops"]:
                continue
            insts, head, latch = innermost_loop(k)
            texts = [insts[i]["text"] for i in range(head, latch + 1)]
            mca = mca_cycles_per_iteration(texts, arch)
            model, limiter = model_cycles_per_iteration(kernel, shape, insts[head]["pc"], arch)
            ratio = f"{model / (4 * mca):.2f}" if model else "-"
            print(f"| {kernel} | {arch} | {latch - head + 1} | {mca:.1f} | {4 * mca:.0f} | "
                  f"{model if model is not None else '-'} | {ratio} | {limiter} |")


if __name__ == "__main__":
    main()
