#!/usr/bin/env python3
"""Write tests/data/pycute_reference.tsv: random layout expressions and the
results CuTe's Python reference (pycute) gives for them.

Needs pycute on PYTHONPATH (NVIDIA/cutlass, python/pycute); tilelab does not
ship it.  Each line is  EXPRESSION <TAB> RESULT  in tilelab's notation.  Cases
where pycute raises (a failed precondition) are not written.  Where pycute
returns a layout of the wrong size (it does not check CuTe's shape
divisibility condition, which CuTe's C++ asserts for static shapes), RESULT
is the word  refused : tilelab must refuse such a case as not admissible.
The seed is fixed, so the file is reproducible from the same pycute.

usage: PYTHONPATH=<cutlass>/python make_pycute_reference.py > tests/data/pycute_reference.tsv
"""
import random
import sys

from pycute import (Layout, coalesce, size, complement, composition, left_inverse, logical_divide,
                    logical_product, right_inverse, tiled_divide, tiled_product, zipped_divide,
                    zipped_product)


def fmt(t):
    if isinstance(t, tuple):
        return "(" + ",".join(fmt(x) for x in t) + ")"
    return str(t)


def lay(l):
    return fmt(l.shape) + ":" + fmt(l.stride)


def nest(shapes, strides, rng):
    """Group flat modes into a random tree of depth <= 2."""
    s, d, i = [], [], 0
    while i < len(shapes):
        take = min(len(shapes) - i, rng.randint(1, 2))
        if take == 1 and rng.random() < 0.5:
            s.append(shapes[i]); d.append(strides[i])
        else:
            s.append(tuple(shapes[i:i + take])); d.append(tuple(strides[i:i + take]))
        i += take
    if len(s) == 1 and not isinstance(s[0], tuple) and rng.random() < 0.5:
        return Layout(s[0], d[0])
    return Layout(tuple(s), tuple(d))


def nested_injective(rng, max_modes=3, gaps=True):
    n = rng.randint(1, max_modes)
    shapes, strides, extent = [], [], 1
    for _ in range(n):
        s = rng.choice([1, 2, 2, 3, 4, 4, 6, 8])
        d = extent * (rng.randint(1, 3) if gaps else 1)
        shapes.append(s); strides.append(d); extent = s * d
    order = list(range(n)); rng.shuffle(order)
    return nest([shapes[k] for k in order], [strides[k] for k in order], rng)


def pow2_layout(rng):
    n = rng.randint(1, 3)
    return nest([2 ** rng.randint(0, 3) for _ in range(n)], [2 ** rng.randint(0, 5) for _ in range(n)], rng)


def tiler_for(a, rng):
    """A by-mode tiler (tuple of layouts) or a plain layout."""
    if isinstance(a.shape, tuple) and rng.random() < 0.5:
        modes = []
        for i in range(rng.randint(1, len(a.shape))):
            modes.append(Layout(2 ** rng.randint(0, 2), rng.choice([1, 1, 2])))
        return tuple(modes), "<" + ",".join(lay(m) for m in modes) + ">"
    t = Layout(2 ** rng.randint(0, 3), rng.choice([1, 1, 2]))
    return t, lay(t)


def expected_size(op, a, names):
    """The size composition guarantees: the result takes the right operand's
    coordinates.  For a divide the right operand is (T, complement(T, size(A)))
    per tiled mode; for a product A's size times the tiler's."""
    if op == "composition":
        return size(names["b"])
    if not (op.endswith("divide") or op.endswith("product")):
        return size(names["res"])  # no composition with a caller's layout inside
    t = names["t"]
    tiles = list(t) if isinstance(t, tuple) else [t]
    modes = [a[i] for i in range(len(a))] if isinstance(t, tuple) else [a]
    n = 1
    for i, m in enumerate(modes):
        if i >= len(tiles):
            n *= size(m)
        elif op.endswith("divide"):
            n *= size(tiles[i]) * size(complement(tiles[i], size(m)))
        else:
            n *= size(m) * size(tiles[i])
    return n


def main():
    rng = random.Random(20261202)
    out = []
    ops = ["composition", "complement", "right_inverse", "left_inverse", "coalesce", "logical_divide",
           "zipped_divide", "tiled_divide", "logical_product", "zipped_product", "tiled_product"]
    while len(out) < 3000:
        op = ops[len(out) % len(ops)]
        try:
            if op == "composition":
                a, b = pow2_layout(rng), pow2_layout(rng)
                expr, res = f"composition({lay(a)},{lay(b)})", composition(a, b)
            elif op == "complement":
                a = nested_injective(rng)
                cot = a.cosize() * rng.randint(1, 3)
                expr, res = f"complement({lay(a)},{cot})", complement(a, cot)
            elif op in ("right_inverse", "left_inverse", "coalesce"):
                a = nested_injective(rng, gaps=(op != "right_inverse"))
                expr, res = f"{op}({lay(a)})", globals()[op](a)
            elif op.endswith("divide"):
                a = nested_injective(rng, gaps=False)
                t, tt = tiler_for(a, rng)
                expr, res = f"{op}({lay(a)},{tt})", globals()[op](a, t)
            else:
                a = nested_injective(rng, gaps=False, max_modes=2)
                t, tt = tiler_for(a, rng)
                expr, res = f"{op}({lay(a)},{tt})", globals()[op](a, t)
        except (AssertionError, ZeroDivisionError):
            continue
        out.append(f"{expr}\t{lay(res) if size(res) == expected_size(op, a, locals()) else 'refused'}")
    sys.stdout.write("# expression\tpycute result (generated by tools/reference/make_pycute_reference.py)\n")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
