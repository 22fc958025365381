"""Pictures for teaching: layouts as coloured grids, thread-value layouts
coloured by thread, and LDS tiles coloured by bank with conflicts marked."""
import matplotlib

matplotlib.use("Agg")  # headless by default; notebooks still show figures inline
import matplotlib.pyplot as plt
import numpy as np

from . import _tilelab


def _grid(ax, labels, colours, title, cmap="tab20"):
    rows, cols = labels.shape
    ax.imshow(colours, cmap=cmap, aspect="equal", interpolation="nearest")
    for r in range(rows):
        for c in range(cols):
            ax.text(c, r, labels[r, c], ha="center", va="center", fontsize=7 if cols <= 16 else 5)
    ax.set_xticks(range(cols))
    ax.set_yticks(range(rows))
    ax.tick_params(labelsize=6)
    ax.set_title(title, fontsize=9)
    return ax


def layout(l, ax=None, colour_by="offset"):
    """A rank-1 or rank-2 layout as a grid of offsets, coloured by offset."""
    ax = ax or plt.subplots(figsize=(6, 3))[1]
    off = l.offsets()
    return _grid(ax, off.astype(str), off % 20, str(l))


def tv_layout(thr, val, ax=None, colour_by="thread"):
    """make_layout_tv(thr, val) over its tile: each cell T<thread>V<value>,
    coloured by thread (default) or by value."""
    if colour_by not in ("thread", "value"):
        raise ValueError("colour_by is 'thread' or 'value'")
    tv = _tilelab.make_layout_tv(thr, val)
    labels = np.char.add(np.char.add("T", tv["thread"].astype(str)), np.char.add("V", tv["value"].astype(str)))
    ax = ax or plt.subplots(figsize=(max(4, tv["thread"].shape[1] * 0.45), max(2, tv["thread"].shape[0] * 0.35)))[1]
    return _grid(ax, labels, tv[colour_by] % 20, "thread-value layout " + str(tv["tv"]))


def lds_tile(arch, smem, elem_bytes, conflicting=None, ax=None):
    """An LDS tile (a rank-2 layout or swizzled layout of element offsets)
    coloured by the bank each element starts in.  `conflicting`: optional
    (rows, cols) boolean array of elements to outline in red, e.g. those read
    by a conflicting pass."""
    if isinstance(smem, str):
        smem = _tilelab.evaluate(smem)
    banks = _tilelab.arch(arch)["banks"]
    bank = (smem.offsets() * elem_bytes // 4) % banks
    ax = ax or plt.subplots(figsize=(8, 8 * bank.shape[0] / max(bank.shape[1], 1)))[1]
    # A map that is not cyclic (hsv made bank 0 and the last bank the same
    # red), with a colour bar naming the banks.
    image = ax.imshow(bank, cmap="viridis", vmin=0, vmax=banks - 1, interpolation="nearest", aspect="equal")
    ax.figure.colorbar(image, ax=ax, label="bank", fraction=0.046, pad=0.04)
    if conflicting is not None:
        rows, cols = np.nonzero(np.asarray(conflicting))
        ax.scatter(cols, rows, marker="s", s=30, facecolors="none", edgecolors="red", linewidths=1.2)
    ax.set_title(f"{arch}: bank of each element of {smem}", fontsize=9)
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    return ax


def lds_banks(arch, inst, addresses, mask=(1 << 64) - 1, ax=None):
    """One instruction's lanes against banks, one row per pass: a dot per
    (lane, first bank it touches; lanes on one bank overlap), red where the
    pass has a conflict, with its n-way degree at the right."""
    info = _tilelab.arch(arch)
    r = _tilelab.lds(arch, inst, list(addresses), mask)["analysis"]
    banks = info["instructions"][inst]["bank_period"]
    ax = ax or plt.subplots(figsize=(7, 0.6 + 0.5 * len(r["passes"])))[1]
    for p, ps in enumerate(r["passes"]):
        colour = "tab:red" if ps["ways"] > 1 else "tab:green"
        xs = [(addresses[l] // 4) % banks for l in ps["active"]]
        ax.scatter(xs, [p] * len(xs), c=colour, s=18)
        ax.text(banks + 0.5, p, f"{ps['ways']}-way", va="center", fontsize=8)
    ax.set_yticks(range(len(r["passes"])))
    ax.set_xlim(-1, banks + 6)
    ax.set_ylim(len(r["passes"]) - 0.5, -0.5)
    ax.set_xlabel("bank")
    ax.set_ylabel("pass")
    ax.set_title(f"{arch} {inst}: {r['conflict_cycles']} conflict cycles", fontsize=9)
    return ax
