#!/usr/bin/env python3
"""Execute every notebook in a folder top to bottom, headless, with Debian's
/usr/bin/python3 as the kernel; a failing cell fails the run.
usage: run_notebooks.py NOTEBOOK_DIR"""
import json
import os
import pathlib
import sys
import tempfile
import time

import nbformat
from nbclient import NotebookClient


def main():
    folder = pathlib.Path(sys.argv[1])
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
        client = NotebookClient(nb, timeout=120, kernel_name="tilelab-python3",
                                resources={"metadata": {"path": str(folder)}})
        start = time.time()
        try:
            client.execute()
            print(f"ok    {book.name}  {time.time() - start:.1f} s")
        except Exception as e:  # a failing cell: report its error and go on
            failures += 1
            print(f"FAIL  {book.name}: {str(e).splitlines()[-1] if str(e) else type(e).__name__}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
