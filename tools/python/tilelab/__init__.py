"""tilelab for notebooks: layout algebra with CuTe's semantics, the LDS bank
model, occupancy, swizzle search, the kernels' design checks, decoded code
objects, kernels run in the functional emulator and the cycle model
(`sim`, which records into a store with out=) or on a device (`run`: HIP,
CUDA, the emulator), sweeps of candidates over problem shapes (`sweep`) and
their tuning database (`tune_export`, `tune_lookup`), and the HDF5 trace store: `runs`, `load_run`,
`import_rocprof`, `like` (the suite kernel and shape of a profiled dispatch), `compare`, `export_perfetto`, `export_rocprof`, as the CLI.

Everything returns plain Python data (ints, tuples, dicts, numpy arrays).
Errors are ValueError with the same messages as the `tilelab` CLI.
Build with `tools/setup.sh`; put `build/python` on PYTHONPATH (the notebooks
do it themselves), or `pip install --no-build-isolation .` into a virtual
environment (README: "Python").  Drawing helpers are in `tilelab.draw`.
"""
from ._tilelab import __version__  # noqa: F401  (CMake's project version, as `tilelab --version`)
from ._tilelab import (ComposedLayout, Layout, Swizzle, arch, blocked_product, check, coalesce, code_object_dir, compare, compile, complement, coverage,
                       composition, disasm, export_perfetto, export_rocprof, import_rocprof, evaluate, kernels, filter, flat_divide, flat_product, lds, lds_tile, left_inverse, like, listing,
                       logical_divide, logical_product, make_layout_tv, make_ordered_layout, occupancy,
                       raked_product, recast, right_inverse, run, sim, sweep, swizzle_search, tile_to_shape, tiled_divide,
                       tiled_product, tune_export, tune_lookup, zipped_divide, zipped_product)

__all__ = [
    "ComposedLayout", "Layout", "Swizzle", "arch", "blocked_product", "check", "coalesce", "code_object_dir", "compare", "compile", "complement", "coverage",
    "composition", "disasm", "export_perfetto", "export_rocprof", "import_rocprof", "evaluate", "kernels", "filter", "flat_divide", "flat_product", "lds", "lds_tile", "left_inverse", "like", "listing", "load_run",
    "logical_divide", "logical_product", "make_layout_tv", "make_ordered_layout", "occupancy", "raked_product",
    "recast", "right_inverse", "run", "runs", "sim", "sweep", "swizzle_search", "tile_to_shape", "tiled_divide",
    "tiled_product", "tune_export", "tune_lookup", "zipped_divide", "zipped_product",
]


def runs(path):
    """The run ids of a trace store (traces/SCHEMA.md), in the order added.
    ValueError with the CLI's message for a missing, foreign or damaged file."""
    from ._tilelab import _run_ids
    return _run_ids(str(path))


def load_run(path, run_id):
    """A run of a trace store as plain data: provenance attributes (str/int),
    the summary, and every table as a numpy structured array.  ValueError
    with the CLI's message for a missing, foreign or damaged store or run."""
    import h5py
    from ._tilelab import _check_run

    def text(v):
        return v.decode() if isinstance(v, bytes) else v.item() if hasattr(v, "item") else v

    # The store's own reader first: a missing, foreign, newer or damaged file, or
    # a missing run, is a ValueError with the CLI's message.
    _check_run(str(path), str(run_id))
    with h5py.File(path, "r") as f:
        g = f["runs"][run_id]
        out = {"info": {k: text(v) for k, v in g.attrs.items()}}
        res = g["results"]
        out["summary"] = {k: text(v) for k, v in res.attrs.items()}
        out["repetitions"] = res["repetitions"][:]
        for table in ("waves", "events", "event_segments", "lds", "counters"):
            out[table] = g[table][:]
        for names in ("opcode_names", "class_names", "stall_reason_names"):
            out[names] = [text(x) for x in g[names][:]]
        return out
