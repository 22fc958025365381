#!/usr/bin/env python3
"""Execute every notebook in a folder top to bottom, headless, with Debian's
/usr/bin/python3 as the kernel; a failing cell fails the run.  With --write,
each notebook is saved back with its outputs (text and figures), so that a
reader of the repository sees them; no timing metadata is kept, so the same
run writes the same bytes.  Without --write, a notebook whose stored text
outputs differ from what it prints now fails as stale (figures are checked
for their presence, not their pixels: the text is what a reader compares).
usage: run_notebooks.py NOTEBOOK_DIR [--write]"""
import json
import os
import pathlib
import sys
import tempfile
import time

import nbformat
from nbclient import NotebookClient


def shown(nb):
    """Per code cell: its text outputs (streams and text/plain) and how many figures."""
    cells = []
    for c in nb.cells:
        if c.cell_type != "code":
            continue
        text, figures = [], 0
        for o in c.get("outputs", []):
            if o.get("output_type") == "stream":
                text.append(o.get("text", ""))
            data = o.get("data", {})
            text.append(data.get("text/plain", "") if "image/png" not in data else "")
            figures += "image/png" in data
        cells.append(("".join(text), figures))
    return cells


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    write = "--write" in sys.argv[1:]
    if len(args) != 1:
        print(__doc__.splitlines()[-1])
        return 2
    folder = pathlib.Path(args[0])
    # A kernelspec for this very interpreter: the `python3` on PATH may be
    # another Python without Debian's packages.
    spec_root = tempfile.mkdtemp()
    spec = pathlib.Path(spec_root, "kernels", "tilelab-python3")
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-Xfrozen_modules=off", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "tilelab (Debian python3)", "language": "python"}))
    os.environ["JUPYTER_PATH"] = spec_root + os.pathsep + os.environ.get("JUPYTER_PATH", "")
    failures = 0
    books = sorted(folder.glob("*.ipynb"))
    if not books:
        print(f"no notebooks in {folder}")
        return 1
    for book in books:
        nb = nbformat.read(book, as_version=4)
        stored = shown(nb)
        client = NotebookClient(nb, timeout=120, kernel_name="tilelab-python3", record_timing=False,
                                resources={"metadata": {"path": str(folder)}})
        start = time.time()
        try:
            client.execute()
            now = shown(nb)
            if not write and now != stored:
                cell = next(i for i, (a, b) in enumerate(zip(stored, now)) if a != b) if len(now) == len(stored) else "count"
                failures += 1
                print(f"STALE {book.name}: code cell {cell} shows something else now; "
                      "store it again with tests/python/run_notebooks.py notebooks --write")
                continue
            print(f"ok    {book.name}  {time.time() - start:.1f} s")
            if write:
                nb.metadata.pop("widgets", None)
                nbformat.write(nb, book)
        except Exception as e:  # a failing cell: report its error and go on
            failures += 1
            print(f"FAIL  {book.name}: {str(e).splitlines()[-1] if str(e) else type(e).__name__}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
