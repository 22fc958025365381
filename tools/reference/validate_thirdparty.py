#!/usr/bin/env python3
"""tilelab on code objects it did not build: every *.co under DIR (e.g. AMD's
hand-written gfx950 kernels, see the team's shared data) is read, decoded and
summarised by tilelab, and each instruction's text is compared with Debian's
llvm-objdump-22 at the same pc.  Prints a markdown table (the docs hold its
output) and exits 1 if any object fails to read or any text differs.

usage: validate_thirdparty.py DIR [BUILD_DIR]
"""
import pathlib
import re
import subprocess
import sys

folder = pathlib.Path(sys.argv[1])
build = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else pathlib.Path(__file__).resolve().parents[2] / "build"
sys.path.insert(0, str(build / "python"))
import tilelab as t  # noqa: E402

OBJDUMP = "/usr/lib/llvm-22/bin/llvm-objdump"


def objdump(path, arch):
    out = subprocess.run([OBJDUMP, "-d", f"--mcpu={arch}", str(path)], capture_output=True, text=True, check=True).stdout
    texts = {}
    for line in out.splitlines():
        if not line.startswith("\t") or "//" not in line:
            continue
        text, _, rest = line[1:].partition("//")
        m = re.match(r"\s*([0-9A-Fa-f]+):", rest)
        if m:
            texts[int(m.group(1), 16)] = text.rstrip()
    return texts


def main():
    failures = 0
    print("| code object | kernel | arch | VGPRs+AGPRs | SGPRs | LDS bytes | instructions | loops | texts equal to llvm-objdump |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in sorted(folder.rglob("*.co")):
        try:
            kernels = t.disasm(str(path))
        except ValueError as e:
            print(f"| {path.name} | - | - | - | - | - | - | - | refused: {e} |")
            failures += 1
            continue
        for k in kernels:
            ref = objdump(path, k["arch"])
            same = sum(1 for i in k["instructions"] if ref.get(i["pc"]) == i["text"])
            n = len(k["instructions"])
            failures += same != n
            print(f"| {path.name} | {k['name']} | {k['arch']} | {k['vgprs']}+{k['agprs']} | {k['sgprs']} | "
                  f"{k['lds_bytes']} | {n} | {len(k['loops'])} | {same}/{n} |")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
