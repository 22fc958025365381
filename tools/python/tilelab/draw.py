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


def tv_layout(thr, val, ax=None):
    """make_layout_tv(thr, val) over its tile: each cell T<thread>V<value>, coloured by thread."""
    tv = _tilelab.make_layout_tv(thr, val)
    labels = np.char.add(np.char.add("T", tv["thread"].astype(str)), np.char.add("V", tv["value"].astype(str)))
    ax = ax or plt.subplots(figsize=(max(4, tv["thread"].shape[1] * 0.45), max(2, tv["thread"].shape[0] * 0.35)))[1]
    return _grid(ax, labels, tv["thread"] % 20, "thread-value layout " + str(tv["tv"]))


def lds_banks(arch, inst, addresses, mask=(1 << 64) - 1, ax=None):
    """One instruction's lanes against banks, one row per pass: a dot per
    (lane, first bank it touches), red where the pass has a conflict."""
    info = _tilelab.arch(arch)
    r = _tilelab.lds(arch, inst, list(addresses), mask)
    banks = info["instructions"][inst]["bank_period"]
    ax = ax or plt.subplots(figsize=(7, 0.6 + 0.5 * len(r["passes"])))[1]
    for p, ps in enumerate(r["passes"]):
        colour = "tab:red" if ps["ways"] > 1 else "tab:green"
        xs = [(addresses[l] // 4) % banks for l in ps["active"]]
        ax.scatter(xs, [p] * len(xs), c=colour, s=18)
        ax.text(banks + 0.5, p, f"{ps['ways']}-way", va="center", fontsize=8)
    ax.set_xlim(-1, banks + 6)
    ax.set_ylim(len(r["passes"]) - 0.5, -0.5)
    ax.set_xlabel("bank")
    ax.set_ylabel("pass")
    ax.set_title(f"{arch} {inst}: {r['conflict_cycles']} conflict cycles", fontsize=9)
    return ax
