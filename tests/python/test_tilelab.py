"""pytest for the tilelab Python module: the same literal cases as the C++
tests (CuTe docs, pycute), bank-model cases, error messages, the trace loader."""
import base64
import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

import tilelab as t


def S(x):
    return str(x)


@pytest.mark.parametrize("expr,expected", [
    ("composition((6,2):(8,2),(4,3):(3,1))", "((2,2),3):((24,2),8)"),
    ("complement(4:2,24)", "(2,3):(1,8)"),
    ("logical_divide((9,(4,8)):(59,(13,1)),<3:3,(2,4):(1,8)>)", "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))"),
    ("blocked_product((2,5):(5,1),(3,4):(1,3))", "((2,3),(5,4)):((5,10),(1,30))"),
    ("raked_product((2,5):(5,1),(3,4):(1,3))", "((3,2),(4,5)):((10,5),(30,1))"),
    ("right_inverse((2,4):(4,1))", "(4,2):(2,1)"),
])
def test_issue_examples_through_evaluate(expr, expected):
    assert S(t.evaluate(expr)) == expected


def test_the_same_cases_through_functions():
    assert S(t.composition(t.Layout((6, 2), (8, 2)), t.Layout((4, 3), (3, 1)))) == "((2,2),3):((24,2),8)"
    assert S(t.complement(t.Layout(4, 2), 24)) == "(2,3):(1,8)"
    a = t.Layout((9, (4, 8)), (59, (13, 1)))
    assert S(t.logical_divide(a, (t.Layout(3, 3), t.Layout((2, 4), (1, 8))))) == \
        "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))"
    assert S(t.blocked_product("(2,5):(5,1)", "(3,4):(1,3)")) == "((2,3),(5,4)):((5,10),(1,30))"
    assert S(t.right_inverse(t.Layout((2, 4), (4, 1)))) == "(4,2):(2,1)"
    assert S(t.zipped_divide("(8,8):(1,8)", (2, 4))) == "((2,4),(4,2)):((1,8),(2,32))"
    assert S(t.tile_to_shape("(2,2):(1,2)", (4, 6))) == "((2,2),(2,3)):((1,4),(2,8))"


def test_layout_values_are_plain_python():
    l = t.Layout((4, (2, 3)), (2, (1, 8)))
    assert l.shape == (4, (2, 3)) and l.stride == (2, (1, 8))
    assert l.size() == 24 and l.cosize() == 24 and l.rank() == 2 and l.depth() == 2
    assert l(1) == 2 and l((1, 3)) == 11
    assert S(l((None, 2))) == "(4):(2)" and S(l((1, None))) == "((2,3)):((1,8))"
    assert t.evaluate("(4)") == (4,) and t.evaluate("4") == 4
    off = t.Layout((2, 3), (3, 1)).offsets()
    assert isinstance(off, np.ndarray) and off.tolist() == [[0, 1, 2], [3, 4, 5]]


def test_swizzles_and_recast():
    sw = t.Swizzle(3, 4, 3)
    assert sw(128) == 144 and sw(sw(1234)) == 1234
    c = t.evaluate("Sw<3,3,3> o (64,64):(64,1)")
    assert S(t.recast(c, 16, 32)) == "Sw<3,2,3> o (64,32):(32,1)"


def test_tv_layout_of_the_mfma_operand():
    tv = t.make_layout_tv("(16,4):(1,16)", "(1,8)")
    assert S(tv["tv"]) == "((16,4),8):((1,128),16)"
    assert tv["tile_shape"] == (16, 32)
    lanes = np.arange(64)
    for v in range(8):
        m, k = lanes % 16, 8 * (lanes // 16) + v
        assert (tv["thread"][m, k] == lanes).all() and (tv["value"][m, k] == v).all()


def test_bank_model_cases():
    mfma = [128 * (l % 16) + 16 * (l // 16) for l in range(64)]
    r = t.lds("gfx950", "ds_read_b128", mfma)["analysis"]
    assert r["conflict_cycles"] == 12 and r["max_ways"] == 4 and len(r["passes"]) == 4
    # Pass 0 serves lanes 0-3, 12-15, 20-27 (CLI test's table), all active.
    assert r["passes"][0]["lanes"] == [0, 1, 2, 3, 12, 13, 14, 15] + list(range(20, 28)) == r["passes"][0]["active"]
    assert t.lds("gfx950", "ds_read_b32", [256 * l for l in range(64)])["analysis"]["conflict_cycles"] == 63
    assert t.lds("gfx942", "ds_read_b32", [256 * l for l in range(64)])["analysis"]["conflict_cycles"] == 62
    assert t.lds("gfx950", "ds_read_b128", [4096] * 64)["analysis"]["conflict_cycles"] == 0
    tile = t.lds_tile("gfx950", "ds_read_b128", "(16,4):(1,16)", "(1,8)", "(64,64):(64,1)", 2)
    assert tile["conflict_cycles"] == 96 and tile["addresses"].shape == (8, 64)
    sw = t.lds_tile("gfx950", "ds_read_b128", "(16,4):(1,16)", "(1,8)", "Sw<3,3,3> o (64,64):(64,1)", 2)
    assert sw["conflict_cycles"] == 0


def test_occupancy_and_swizzle_search():
    o = t.occupancy("gfx950", 128, 128, 64, 65536, 256)
    assert o["workgroups_per_cu"] == 2 and o["limited_by"] == "VGPRs+AGPRs, LDS"
    found = t.swizzle_search("gfx950", "(8,8):(8,1)", "(1,8)", "ds_write_b128", "(16,4):(1,16)", "(1,8)",
                             "ds_read_b128", 64, 64, 2)
    ranked = found["best"]
    assert len(ranked) == found["evaluated"]  # top=0: every layout scored
    best = ranked[0]
    assert best["write_conflict_cycles"] + best["read_conflict_cycles"] == 0
    plain = [c for c in ranked if c["layout"] == "(64,64):(64,1)"][0]
    assert plain["read_conflict_cycles"] == 96 and found["plain"] == plain
    if "TILELAB_CLI" in os.environ:  # app/lds_json: the CLI's --json, the same dict
        cli = subprocess.run([os.environ["TILELAB_CLI"], "swizzle", "--arch", "gfx950", "--tile", "64,64",
                              "--elem-bytes", "2", "--write-tv", "(8,8):(8,1)", "(1,8)", "--write-inst", "ds_write_b128",
                              "--read-tv", "(16,4):(1,16)", "(1,8)", "--read-inst", "ds_read_b128", "--top", "3",
                              "--json"], capture_output=True, text=True, check=True)
        top3 = t.swizzle_search("gfx950", "(8,8):(8,1)", "(1,8)", "ds_write_b128", "(16,4):(1,16)", "(1,8)",
                                "ds_read_b128", 64, 64, 2, top=3)
        assert top3 == json.loads(cli.stdout)


def test_errors_have_the_cli_messages():
    with pytest.raises(ValueError, match=r"expected '\)' to close the tuple, found '\]', at column 5"):
        t.evaluate("(4,8]:(1,4)")
    with pytest.raises(ValueError, match="composition not admissible: stride divisibility fails"):
        t.composition("(6,2):(1,7)", t.Layout(4, 4))
    with pytest.raises(ValueError, match="unknown instruction 'ds_read_b64_tr_b16' for gfx942"):
        t.lds("gfx942", "ds_read_b64_tr_b16", [0] * 64)
    with pytest.raises(ValueError, match="lane 5: address 8 is not 16-byte aligned"):
        t.lds("gfx950", "ds_read_b128", [16 * l if l != 5 else 8 for l in range(64)])
    with pytest.raises(ValueError, match="Layout\\(text\\) takes no stride"):
        t.Layout("(4,8):(8,1)", 1)
    with pytest.raises(ValueError, match="expected an int, a tuple of them, or None"):
        t.Layout(1.5, 1)
    with pytest.raises(ValueError, match="a bool is not a shape or coordinate"):
        t.Layout(True, 1)


def test_trace_loader(tmp_path):
    fixture = os.environ["TILELAB_TRACE_FIXTURE"]
    path = str(tmp_path / "t.h5")
    subprocess.run([fixture, path], check=True)
    assert t.runs(path) == ["sim-0", "hw-0"]
    run = t.load_run(path, "hw-0")
    assert run["info"]["kind"] == "hw" and run["summary"]["median_ns"] == 1500.0
    assert run["events"].dtype.names == ("wave", "pc", "opcode", "class", "stall_reason", "stall", "issue", "complete")
    assert len(run["events"]) == 800 and run["class_names"] == ["VALU", "LDS", "MFMA", "SALU"]
    with pytest.raises(ValueError, match="no run 'nope'"):
        t.load_run(path, "nope")


def cli_error(*args):
    """The one line the CLI prints for bad input, without 'error: ' and the command's prefix."""
    p = subprocess.run([os.environ["TILELAB_CLI"], *args], capture_output=True, text=True)
    assert p.returncode != 0, args
    line = p.stderr.splitlines()[0]
    assert line.startswith("error: "), line
    line = line[len("error: "):]
    return line.split(": ", 1)[1] if line.startswith("tilelab ") else line


def python_error(f):
    with pytest.raises(ValueError) as e:
        f()
    return str(e.value)


# Every Python entry point applies the CLI's checks, with the CLI's message
# (issue 24 item 12): the same bad input, the same line.
def test_python_refuses_what_the_cli_refuses_with_its_message(tmp_path):
    wide = "(" + ",".join(["1"] * 5000) + ")"
    assert python_error(lambda: t.Layout(tuple([1] * 10**6))) == cli_error("layout", "eval", wide)
    assert python_error(lambda: t.Layout.parse(wide)) == cli_error("layout", "eval", wide)
    missing, foreign = str(tmp_path / "missing.h5"), tmp_path / "foreign.h5"
    foreign.write_text("not a store\n")
    for path, run_id in ((missing, "x"), (str(foreign), "x")):
        assert python_error(lambda: t.load_run(path, run_id)) == cli_error("runs", "show", path, run_id)
        assert python_error(lambda: t.runs(path)) == cli_error("runs", "list", path)
    store = str(tmp_path / "t.h5")
    subprocess.run([os.environ["TILELAB_TRACE_FIXTURE"], store], check=True)
    assert python_error(lambda: t.load_run(store, "nope")) == cli_error("runs", "show", store, "nope")
    def sim_cus(cus):
        return python_error(lambda: t.sim("rmsnorm_bf16", "gfx950", shape=(4096, 1024), timing=True, cus=cus))
    assert "--" + sim_cus(-5) == cli_error("sim", "rmsnorm_bf16", "--timing", "--shape", "4096,1024", "--cus", "-5")
    assert "--" + sim_cus(70000) == cli_error("sim", "rmsnorm_bf16", "--timing", "--shape", "4096,1024", "--cus", "70000")
    assert sim_cus(10**12) == sim_cus(-5)  # beyond the CLI's int: the same range check, not a TypeError


def test_drawing_helpers_draw():
    import matplotlib
    matplotlib.use("Agg")
    import tilelab.draw as draw
    ax = draw.layout(t.Layout((4, 8), (8, 1)))
    assert len(ax.texts) == 32
    ax = draw.tv_layout("(16,4):(1,16)", "(1,8)", colour_by="value")
    assert sum(1 for x in ax.texts if x.get_text() == "T17V1") == 1
    ax = draw.lds_banks("gfx950", "ds_read_b128", [128 * (l % 16) + 16 * (l // 16) for l in range(64)])
    assert "12 conflict cycles" in ax.get_title()
    ax = draw.lds_tile("gfx950", "Sw<3,3,3> o (64,64):(64,1)", 2)
    assert ax.images[0].get_array().shape == (64, 64)
    with pytest.raises(ValueError):
        draw.tv_layout("(16,4):(1,16)", "(1,8)", colour_by="lane")


# ---- kernels: design checks and decoded code objects ----

CODE_OBJECTS = os.environ.get("TILELAB_CODE_OBJECTS", "")

@pytest.mark.skipif("TILELAB_CLI" not in os.environ, reason="TILELAB_CLI names the tilelab binary")
def test_lds_and_occupancy_are_the_clis_json(tmp_path):
    # app/lds_json: one form for `lds --json`, `occupancy --json` and Python's lds, lds_tile, occupancy.
    mfma = [128 * (l % 16) + 16 * (l // 16) for l in range(64)]
    (tmp_path / "lanes.txt").write_text("\n".join(map(str, mfma)))
    cli = lambda *a: json.loads(subprocess.run([os.environ["TILELAB_CLI"], "lds", *a, "--json"], capture_output=True,
                                               text=True, check=True).stdout)
    assert t.lds("gfx950", "ds_read_b128", mfma) == cli("--inst", "ds_read_b128", "--addresses", str(tmp_path / "lanes.txt"))
    tile = t.lds_tile("gfx950", "ds_read_b128", "(16,4):(1,16)", "(1,8)", "(64,64):(64,1)", 2)
    addresses = tile.pop("addresses")
    assert addresses.shape == (len(tile["instructions"]), 64)
    assert tile == cli("--inst", "ds_read_b128", "--tv", "(16,4):(1,16)", "(1,8)", "--smem", "(64,64):(64,1)",
                       "--elem-bytes", "2")
    occupancy = json.loads(subprocess.run([os.environ["TILELAB_CLI"], "occupancy", "--vgprs", "128", "--agprs", "64",
                                           "--sgprs", "40", "--lds", "65536", "--wg-size", "256", "--json"],
                                          capture_output=True, text=True, check=True).stdout)
    assert t.occupancy("gfx950", 128, 64, 40, 65536, 256) == occupancy


@pytest.mark.skipif("TILELAB_CLI" not in os.environ, reason="TILELAB_CLI names the tilelab binary")
@pytest.mark.parametrize("kernel,shape", [("gemm_bf16", None), ("attention_fwd_d128", "2,256,1"),
                                          ("rmsnorm_bf16", None), ("gemm_mxfp4", None)])
def test_check_is_the_clis_json(kernel, shape):
    # One orchestration and one key vocabulary (app/design_check_run): the same dict as `check --json`.
    args = ["check", kernel, "--json"] + (["--shape", shape] if shape else [])
    p = subprocess.run([os.environ["TILELAB_CLI"], *args], capture_output=True, text=True, check=True)
    py = t.check(kernel, shape=tuple(int(x) for x in shape.split(",")) if shape else None)
    assert py == json.loads(p.stdout)
    assert "compiled" in py  # the suite's compiled kernel is found by default, as the CLI finds it



@pytest.mark.skipif(not CODE_OBJECTS, reason="TILELAB_CODE_OBJECTS names the compiled kernels")
def test_check_and_disasm_of_the_gemm():
    gemm = os.path.join(CODE_OBJECTS, "gfx950", "gemm_bf16.hsaco")
    r = t.check("gemm_bf16", "gfx950", shape=(512, 512, 512), code_object=gemm)
    assert r["clean"] and r["conflict_cycles"] == 0 and r["lds_bytes"] == 65536
    # By hand: 8 K steps x 4 waves x 32 MFMAs x 16 cycles over 4 SIMDs; 8 x 384 LDS cycles.
    assert r["bound"]["mfma_cycles"] == 4096 and r["bound"]["lds_cycles"] == 3072
    assert r["waves_per_simd"] == 2
    # The whole-chip bound: 16 workgroups, 2 per XCD; A, B and C once at HBM (3 x 512 x 512 x 2 bytes).
    chip = r["chip_bound"]
    assert chip["levels"]["HBM"]["bytes"] == 3 * 512 * 512 * 2 and chip["limiter"] == "MFMA"
    assert chip["cycles"] == 4096 and set(chip["levels"]) == {"MFMA", "LDS", "L2", "fabric", "MALL", "HBM"}
    [k] = t.disasm(gemm)
    assert k["name"] == "gemm_bf16" and k["lds_bytes"] == 65536
    mfma = [i for i in k["instructions"] if i["class"] == "MFMA"]
    assert len(mfma) == 32 and all(i["mnemonic"] == "v_mfma_f32_16x16x32_bf16" for i in mfma)
    assert len(k["loops"]) == 1 and all(i["loop"] == 0 for i in mfma)
    names = {s["name"] for s in t.kernels()}
    assert {"rmsnorm_bf16", "topk_f32", "gemm_bf16", "grouped_gemm_bf16", "gemm_mxfp8", "gemm_mxfp4"} <= names


def test_check_errors_are_value_errors():
    with pytest.raises(ValueError, match="gemm_bf16 needs M % 128 == 0"):
        t.check("gemm_bf16", shape=(500, 512, 512))
    with pytest.raises(ValueError, match="no kernel named 'gemm_f16'"):
        t.check("gemm_f16")
    with pytest.raises(ValueError, match="not an ELF file"):
        t.disasm(__file__)


def test_hostile_python_values_are_value_errors():
    with pytest.raises(ValueError, match="does not fit in 64 bits"):
        t.Layout(2**70, 1)
    x = 4
    for _ in range(10000):
        x = (x,)
    with pytest.raises(ValueError, match="nesting deeper than 64 levels"):
        t.Layout(x, x)
    y = 4
    for _ in range(64):
        y = (y,)
    assert t.Layout(y).shape == y  # 64 levels, the expression language's limit, are fine
    with pytest.raises(ValueError, match="an extent before the last mode is not positive"):
        t.evaluate("idx2crd(100,(0,4))")


def test_sim_times_a_kernel_in_the_cycle_model():
    r = t.sim("gemm_bf16", "gfx950", shape=(256, 128, 128), seed=3, timing=True)
    assert r["pass"]
    tm = r["timing"]
    assert tm["cycles"] > 0 and tm["cus_used"] == 2 and tm["limiter"] in ("MFMA", "VALU", "LDS", "global memory", "latency")
    # Every wave-cycle is issue, a stall or idle.
    assert tm["issue_cycles"] + sum(tm["stall_cycles"].values()) == tm["wave_cycles"]
    ev, waves = tm["issue_events"], tm["wave_spans"]
    assert len(ev["issue"]) == r["wave_instructions"] == tm["counters"]["SQ_INSTS"]
    assert len(waves["wave"]) == r["waves"] == 8 and (waves["end"] > waves["start"]).all()
    assert (ev["complete"] >= ev["issue"]).all() and ev["issue"].max() < tm["cycles"]
    mfma = tm["class_names"].index("MFMA")
    assert (ev["cls"] == mfma).sum() == tm["counters"]["SQ_INSTS_MFMA"]
    assert tm["hazard_count"] == 0 and any("branch_taken_cycles" in a for a in tm["assumptions"])
    again = t.sim("gemm_bf16", "gfx950", shape=(256, 128, 128), seed=3, timing=True)["timing"]
    assert again["cycles"] == tm["cycles"] and (again["issue_events"]["issue"] == ev["issue"]).all()
    assert "timing" not in t.sim("gemm_bf16", "gfx950", shape=(128, 128, 64))


def same_store(a, b):
    script = pathlib.Path(__file__).parent.parent / "tools" / "same_store.py"
    return subprocess.run(["/usr/bin/python3", str(script), str(a), str(b)], capture_output=True, text=True).stdout.strip()


def test_sim_records_the_runs_the_cli_records(tmp_path):
    # One writer under both front ends: the same run stored from Python and
    # from the CLI holds the same bytes (utc_time aside), functional and timed.
    for mode, kwargs in (("--functional", {}), ("--timing", {"timing": True})):
        py_store, cli_store = tmp_path / ("py" + mode + ".h5"), tmp_path / ("cli" + mode + ".h5")
        r = t.sim("gemm_bf16", "gfx950", shape=(256, 128, 128), seed=3, out=str(py_store), **kwargs)
        assert r["run_id"] == ("timing" if kwargs else "sim") + "-gemm_bf16-gfx950"
        subprocess.run([os.environ["TILELAB_CLI"], "sim", "gemm_bf16", mode, "--shape", "256,128,128", "--seed", "3",
                        "--out", str(cli_store), "--quiet"], check=True, capture_output=True)
        assert same_store(py_store, cli_store) == "same"
        # the CLI's --json keys, key for key
        cli = subprocess.run([os.environ["TILELAB_CLI"], "sim", "gemm_bf16", mode, "--shape", "256,128,128", "--seed",
                              "3", "--json", "--quiet"], check=True, capture_output=True, text=True).stdout
        import json
        keys = set(json.loads(cli))
        assert keys <= set(r["timing"] if kwargs else r)
    with pytest.raises(ValueError, match="already has a run 'sim-gemm_bf16-gfx950'"):
        t.sim("gemm_bf16", "gfx950", shape=(256, 128, 128), out=str(tmp_path / "py--functional.h5"))
    info = t.load_run(str(tmp_path / "py--functional.h5"), "sim-gemm_bf16-gfx950")["info"]
    assert len(info["code_object_sha256"]) == 64 and len(info["arch_file_sha256"]) == 64


def test_sim_uses_an_arch_file_everywhere(tmp_path):
    text = (pathlib.Path(__file__).parent.parent.parent / "sim" / "arch" / "gfx950.toml").read_text()
    narrow = tmp_path / "banks32.toml"
    narrow.write_text(text.replace("banks = 64 ", "banks = 32 ", 1))
    built_in = t.sim("gemm_bf16", "gfx950", shape=(256, 128, 128), seed=3)
    mine = t.sim("gemm_bf16", str(narrow), shape=(256, 128, 128), seed=3)
    reads = lambda r: [s["worst_ways"] for s in r["lds_sites"] if s["instruction"] == "ds_read_b128"]
    assert set(reads(built_in)) == {1} and set(reads(mine)) == {2}
    assert mine["pass"] and mine["arch"] == "gfx950"


def test_sim_samples_a_grid_that_fills_the_chip():
    r = t.sim("rmsnorm_bf16", "gfx950", shape=(4096, 1024), timing=True)
    tm = r["timing"]
    assert tm["sampled"] and r["pass"] is None  # XCD 0 ran: the output is incomplete
    assert tm["simulated_workgroups"] == 512 and r["workgroups"] == 512 and tm["cus_used"] == 32
    assert tm["clock_mhz"] == 1590 and tm["clock_status"] == "inferred"
    with pytest.raises(ValueError, match="cus must be between 0"):
        t.sim("rmsnorm_bf16", "gfx950", shape=(4096, 1024), timing=True, cus=-5)


def test_sim_threads_give_the_same_run():
    one = t.sim("rmsnorm_bf16", "gfx950", shape=(4096, 1024), timing=True, threads=1)["timing"]
    two = t.sim("rmsnorm_bf16", "gfx950", shape=(4096, 1024), timing=True, threads=2)["timing"]
    assert one["cycles"] == two["cycles"] and one["counters"] == two["counters"]
    for key in ("issue_events", "wave_spans", "per_instruction"):
        a, b = one[key], two[key]
        if isinstance(a, dict):
            assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a), key
        else:
            assert np.array_equal(a, b), key


def test_sim_checks_lds_for_races():
    r = t.sim("attention_fwd_d256", "gfx950", shape=(1, 128, 1), seed=2)
    assert r["pass"] and r["lds_races"] == {"count": 0, "first": []}


def test_sim_times_the_last_kernel_of_a_pass():
    # attention backward runs its preprocessing kernel first; the timing and
    # its per-instruction table are the main kernel's, pc for pc.
    r = t.sim("attention_bwd_d64", "gfx950", shape=(1, 100, 1), seed=2, timing=True)
    assert r["pass"]
    [listing] = t.disasm(os.path.join(CODE_OBJECTS, "gfx950", "attention_bwd.hsaco"), "attention_bwd_d64")
    per = r["timing"]["per_instruction"]
    assert list(per["pc"]) == [i["pc"] for i in listing["instructions"]]
    assert list(per["text"]) == [i["text"] for i in listing["instructions"]]
    assert r["timing"]["counters"]["SQ_WAVES"] == r["waves"] == 16  # 2 key blocks + 2 query blocks of 4 waves


def test_sim_runs_a_kernel_in_the_emulator():
    r = t.sim("gemm_bf16", "gfx950", shape=(128, 128, 64), seed=3)
    assert r["pass"] and r["max_rel_error"] <= r["tolerance"]
    assert r["workgroups"] == 1 and r["waves"] == 4 and r["wave_instructions"] > 1000
    reads = [s for s in r["lds_sites"] if s["instruction"] == "ds_read_b128"]
    assert reads and all(s["conflict_cycles"] == 0 and s["modelled"] for s in reads)
    assert r["output"].dtype == np.uint8 and len(r["output"]) == 2 * 128 * 128
    again = t.sim("gemm_bf16", "gfx950", shape=(128, 128, 64), seed=3)
    assert (again["output"] == r["output"]).all()
    with pytest.raises(ValueError, match="gemm_bf16 needs M % 128 == 0|refuses this shape"):
        t.sim("gemm_bf16", shape=(100, 128, 64))


def test_run_on_the_emulator_and_the_hip_shim(monkeypatch):
    # The hardware path from Python: the emulator checks without a clock ...
    r = t.run("rmsnorm_bf16", device="emu", shape=(8, 256), seed=2)
    assert r["check"]["pass"] and "timing" not in r and r["device"]["backend"] == "emu"
    # ... and the HIP backend on the emulator-backed shim times and stamps.
    shim = pathlib.Path(os.environ["TILELAB_CODE_OBJECTS"]).parent / "lib" / "libtilelab_hip_shim.so"
    monkeypatch.setenv("TILELAB_HIP_LIBRARY", str(shim))
    r = t.run("rmsnorm_bf16", device="hip", shape=(8, 256), reps=3, warmup=1, flush=False, wave_stamps=True)
    assert r["check"]["pass"] and len(r["timing"]["reps_s"]) == 3 and r["device"]["arch"] == "gfx950"
    assert len(r["waves"]) == 8 * 4 and [w["simd"] for w in r["waves"][:4]] == [0, 1, 2, 3]
    assert r["wave_stamps"]["waves"] == 8 * 4
    with pytest.raises(ValueError, match="device takes hip, cuda or emu"):
        t.run("rmsnorm_bf16", device="tpu")


def test_run_records_as_the_cli_does(tmp_path):
    # app/on_device: Python's run(out=) writes the run `tilelab run --out` writes, with the same JSON.
    store = str(tmp_path / "runs.h5")
    r = t.run("rmsnorm_bf16", device="emu", shape=(8, 256), seed=2, out=store)
    assert r["run_id"] == "run-rmsnorm_bf16-emu-gfx950" and t.runs(store) == ["run-rmsnorm_bf16-emu-gfx950"]
    if "TILELAB_CLI" in os.environ:
        cli = subprocess.run([os.environ["TILELAB_CLI"], "run", "rmsnorm_bf16", "--device", "emu", "--shape", "8,256",
                              "--seed", "2", "--json", "--out", store, "--run-id", "cli"],
                             capture_output=True, text=True, check=True)
        mine = dict(r)
        mine.pop("waves"), mine.pop("run_id")
        assert mine == json.loads(cli.stdout)
        assert t.runs(store) == ["run-rmsnorm_bf16-emu-gfx950", "cli"]


def test_import_compare_and_export_without_the_cli(tmp_path):
    data = pathlib.Path(__file__).parent.parent / "data" / "rocprof"
    profile = tmp_path / "rocprof_out"
    profile.mkdir()
    import shutil
    import sqlite3
    with sqlite3.connect(profile / "results.db") as db:
        db.executescript((data / "rocpd_v3.sql").read_text())
    shutil.copytree(data / "att", profile / "att")
    store = str(tmp_path / "p.h5")
    assert t.import_rocprof(str(profile), store, kernel="gemm_bf16", arch="gfx950",
                            shape="M=256,N=128,K=128") == ["rocprof-10", "rocprof-11"]
    t.sim("gemm_bf16", shape=(256, 128, 128), timing=True, full=True, out=store, run_id="model")
    c = t.compare(store, "rocprof-10", "model")
    # the fixture's thread trace: 2 waves, 2 instructions each of IMMED, SMEM and VALU/MFMA (hand-counted in hw-facts)
    assert c["a"] == "rocprof-10" and c["waves"]["a"]["waves"] == 2
    assert {k: r["a"]["instructions"] for k, r in c["rows"].items() if r["a"]["instructions"]} == \
        {"IMMED": 2, "SMEM": 2, "VALU/MFMA": 2}
    listing = t.listing(store, "rocprof-10")  # the imported thread trace in program order
    assert [(r["pc"], r["hits"], r["latency"], r["stall"], r["idle"], r["waits_on"]) for r in listing] == \
        [(0x1000, 2, 24, 8, 0, "stall"), (0x1008, 2, 20, 4, 18, "stall"), (0x1010, 2, 8, 0, 28, "")]
    model_listing = t.listing(store, "model")
    assert [r["pc"] for r in model_listing] == sorted(r["pc"] for r in model_listing) and model_listing[-1]["instruction"] == "s_endpgm"
    # Source lines: the simulated run keeps its code object's (its MFMAs come from gemm_tile.hpp's
    # inlined call of the MFMA builtin in tilelab_hip.hpp); an imported thread trace has none.
    assert all(r["source"] is None for r in listing)
    mfma = [r["source"] for r in model_listing if r["instruction"].startswith("v_mfma")]
    assert mfma and all(s.startswith("kernels/common/tilelab_hip.hpp:") for s in mfma)
    st = t.export_perfetto(store, ["rocprof-10", "model"], str(tmp_path / "both.json"))
    assert st["events"] == 6 + len(t.load_run(store, "model")["events"]) and st["group"] == 1
    with pytest.raises(ValueError, match="by takes class, pc or wave"):
        t.compare(store, "rocprof-10", "model", by="lane")
    with pytest.raises(ValueError, match="no run 'nope'"):
        t.export_perfetto(store, ["nope"], str(tmp_path / "x.json"))
    assert not (tmp_path / "x.json").exists() and not (tmp_path / "x.json.tmp").exists()
    assert t.__version__.count(".") == 2


def test_a_profiled_dispatch_simulated_like_it(tmp_path):
    data = pathlib.Path(__file__).parent.parent / "data" / "rocprof"
    # a rocprof-compute workload: the GPU from sysinfo.csv
    store = str(tmp_path / "w.h5")
    assert t.import_rocprof(str(data / "rocprof_compute_mi300x"), store) == ["rocprof-0", "rocprof-1", "rocprof-2"]
    assert t.load_run(store, "rocprof-0")["info"]["arch"] == "gfx942"
    with pytest.raises(ValueError, match="which is no suite kernel"):
        t.like(store, "rocprof-0")
    # a gemm_bf16 dispatch of 2x2 workgroups (M=N=256), given its K
    trace = tmp_path / "kernel_trace.csv"
    trace.write_text((data / "kernel_trace.csv").read_text().splitlines()[0] + "\n" +
                     '"KERNEL_DISPATCH","Agent 2",1,1,7,3,12,"gemm_bf16",3,1000,11000,65536,0,128,0,32,256,1,1,512,2,1\n')
    store = str(tmp_path / "like.h5")
    t.import_rocprof(str(trace), store, arch="gfx950")
    with pytest.raises(ValueError, match="give --shape M,N,K"):
        t.like(store, "rocprof-3")
    d = t.like(store, "rocprof-3", shape=[256, 256, 64])
    assert d == {"kernel": "gemm_bf16", "shape": [256, 256, 64], "shape_text": "M=256,N=256,K=64",
                 "shape_from": "given", "arch": "gfx950", "workgroups": 4}
    suite = t.sim(d["kernel"], shape=d["shape"], arch=d["arch"], timing=True, out=store, like="rocprof-3")
    assert suite["run_id"] == "rocprof-3-timing"
    assert t.compare(store, "rocprof-3", "rocprof-3-timing")["a"] == "rocprof-3"  # no force needed
    if "TILELAB_CLI" in os.environ:  # the same run as `sim --like`, the same config
        subprocess.run([os.environ["TILELAB_CLI"], "sim", "--like", "rocprof-3", "--out", store, "--timing", "--quiet",
                        "--shape", "256,256,64", "--run-id", "cli"], capture_output=True, text=True, check=True)
        assert t.load_run(store, "cli")["info"]["config"] == t.load_run(store, "rocprof-3-timing")["info"]["config"]
    # the same dispatch as a code object with its launch template: M and N solved from the grid, K given
    co = str(pathlib.Path(t.code_object_dir()) / "gfx950" / "gemm_bf16.hsaco")
    template = str(pathlib.Path(__file__).parent.parent.parent / "kernels" / "gemm_bf16" / "gemm_bf16.launch.toml")
    with pytest.raises(ValueError, match="does not say K .*give --shape K="):
        t.like(store, "rocprof-3", code_object=co, launch=template)
    with pytest.raises(ValueError, match="code_object= and launch= go together"):
        t.like(store, "rocprof-3", code_object=co)
    d = t.like(store, "rocprof-3", shape={"K": 64}, code_object=co, launch=template)
    assert d["kernel"] == "gemm_bf16" and d["shape"] == {"K": 64, "M": 256, "N": 256} and d["workgroups"] == 4
    assert d["shape_from"].startswith("K given, N from the grid x = 2 (N/TILE_N), M from the grid y = 2 (M/TILE_M)")
    r = t.sim(co, launch=template, shape=d["shape"], arch=d["arch"], timing=True, out=store, like="rocprof-3",
              run_id="co")
    assert r["run_id"] == "co" and r["workgroups"] == 4 and r["shape"].endswith("K=64,M=256,N=256,TILE_M=128,TILE_N=128,WAVES_M=2,WAVES_N=2,XCD_CHUNK=0")
    assert r["timing"]["cycles"] == suite["timing"]["cycles"]  # the same code object and shape as the suite's
    assert t.compare(store, "rocprof-3", "co")["b"] == "co"  # no force needed
    f = t.sim(co, launch=template, shape={"M": 128, "N": 128, "K": 64})  # functional: the saved C, M*N bf16
    assert f["workgroups"] == 1 and f["saved"]["@0"].size == 128 * 128 * 2 and "timing" not in f


def test_a_template_variant_compiled_into_the_cache(tmp_path):
    params = {"TILE_M": 256, "TILE_N": 128, "WAVES_M": 2, "WAVES_N": 4}
    [first] = t.compile("gemm_bf16", params=params, cache=str(tmp_path))
    assert first["path"] == str(tmp_path / first["key"] / "gemm_bf16.hsaco") and not first["cached"]
    assert len(first["key"]) == 64 and first["kernels"][0]["name"] == "gemm_bf16"
    [again] = t.compile("gemm_bf16", params=params, cache=str(tmp_path))
    assert again["cached"] and again["path"] == first["path"]
    with pytest.raises(RuntimeError, match="does not compile for gfx950: static assertion failed"):
        t.compile("gemm_bf16", params={"WAVES_M": 3, "WAVES_N": 1}, cache=str(tmp_path))
    if "TILELAB_CLI" in os.environ:  # the same cache entry as `compile --params`
        cli = subprocess.run([os.environ["TILELAB_CLI"], "compile", "gemm_bf16", "--cache", str(tmp_path), "--params",
                              "TILE_M=256,TILE_N=128,WAVES_M=2,WAVES_N=4"], capture_output=True, text=True, check=True)
        assert cli.stdout.splitlines()[0] == first["path"] + " (cached)"


def test_python_objects_read_back_and_name_their_arguments():
    from tilelab import ComposedLayout, Layout, Swizzle  # noqa: F401  (eval below needs the names)
    layout = t.Layout((4, 8), (8, 1))
    assert eval(repr(layout)) == layout and t.Layout("(4,8):(8,1)") == layout
    assert [str(m) for m in layout] == ["4:8", "8:1"] and len(layout) == 2
    swizzled = t.evaluate("Sw<3,3,3> o (64,64):(64,1)")
    assert str(eval(repr(swizzled))) == str(swizzled) and repr(Swizzle(3, 3, 3)) == "Swizzle(3, 3, 3)"
    with pytest.raises(ValueError, match="not a swizzled layout"):
        ComposedLayout("(4,8):(8,1)")
    # Keyword arguments everywhere (pybind11 printed arg0, arg1, ... before).
    assert t.composition(a=layout, tiler="8:4")(3) == 3
    found = t.swizzle_search(arch="gfx950", write_thr="(64,8):(8,1)", write_val="(1,8)", write_inst="ds_write_b128",
                             read_thr="(16,4):(1,16)", read_val="(1,8)", read_inst="ds_read_b128", rows=64, cols=64,
                             elem_bytes=2)
    assert found["best"][0]["read_conflict_cycles"] == 0
    for name in t.__all__:
        doc = getattr(t, name).__doc__ or ""
        assert "arg0" not in doc, name


def test_notebooks_are_stored_with_their_outputs():
    # A reader of the repository sees the results and figures without running
    # anything (tests/python/run_notebooks.py --write stores them).
    root = pathlib.Path(__file__).resolve().parent.parent.parent
    books = sorted((root / "notebooks").glob("*.ipynb"))
    assert len(books) == 8
    for book in books:
        nb = json.loads(book.read_text())
        outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]]
        figures = [o for o in outputs if "image/png" in o.get("data", {})]
        assert outputs and figures, f"{book.name}: outputs {len(outputs)}, figures {len(figures)}"
        text = json.dumps(outputs)
        assert str(root) not in text and "/tmp/" not in text, f"{book.name} shows a path of the machine it ran on"
        assert not any(o.get("output_type") == "error" for o in outputs), book.name
        for figure in figures:  # each stored figure is a whole PNG, signature to IEND chunk
            png = figure["data"]["image/png"]
            data = base64.b64decode("".join(("".join(png) if isinstance(png, list) else png).split()), validate=True)
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[-8:-4] == b"IEND", book.name


def write_rows_sweep(tmp_path):
    # The hand-written scale_rows kernel as a launch template of n, its code
    # object and its own assembly as two candidates, three problems of which
    # the template refuses one (grid 0): the CLI test's sweep (tests/tools/emu_cli_test.sh).
    here = pathlib.Path(__file__).parent.parent
    launch = (here / "data" / "handwritten" / "scale_rows.launch.toml").read_text()
    template = (launch.replace("grid = [16, 1, 1]", 'grid = ["ceil(n/64)", 1, 1]').replace("bytes = 4000", 'bytes = "4*n"')
                .replace("value = 1000", 'value = "n"').replace("seed = 5", "seed = 5\n[shape]\nn = 7"))
    (tmp_path / "template.toml").write_text(template)
    source = here / "data" / "handwritten" / "scale_rows.s"
    (tmp_path / "sweep.toml").write_text(
        'name = "rows"\n'
        f'[[candidate]]\nname = "co"\ncode_object = "{os.environ["TILELAB_HANDWRITTEN_CO"]}"\nlaunch = "template.toml"\n'
        f'[[candidate]]\nname = "asm"\ncode_object = "{source}"\nlaunch = "template.toml"\n'
        "[[problem]]\nn = 1000\n[[problem]]\nn = 64\n[[problem]]\nn = 0\n")
    return tmp_path / "sweep.toml"


def test_sweep_and_tune_are_the_clis(tmp_path):
    sweep = write_rows_sweep(tmp_path)
    cli = lambda *a: subprocess.run([os.environ["TILELAB_CLI"], *a], capture_output=True, text=True, check=True).stdout
    from_cli = json.loads(cli("sweep", str(sweep), "--json", "--out", str(tmp_path / "cli.h5")))
    r = t.sweep(str(sweep), out=str(tmp_path / "py.h5"))
    assert r == from_cli
    assert r["sweep"] == "rows" and r["coverage"] == "sampled" and r["invalid"] == 2
    assert [p["problem"] for p in r["problems"]] == ["n=1000", "n=64", "n=0"]
    assert [p["winner"] for p in r["problems"]] == ["co", "co", None]  # a tie keeps the file's first
    n1000 = r["problems"][0]["points"]
    assert n1000[0]["us"] == n1000[1]["us"] > 0 and n1000[0]["run_id"] == "sweep-rows-co-n1000-3abd86073e00"
    refused = r["problems"][2]["points"][0]
    assert refused["us"] is None and "grid values must be integers from 1 to 2^31-1 (this one is 0)" in refused["invalid"]
    assert r["wins"] == {"co": 2, "asm": 0}
    # Resumed: every point is read back from the store, not run again (the
    # invalid ones with their reason).
    again = t.sweep(str(sweep), out=str(tmp_path / "py.h5"))
    assert [pt["stored"] for p in again["problems"] for pt in p["points"]] == [True] * 6
    assert [(pt["us"], pt["invalid"]) for p in again["problems"] for pt in p["points"]] == \
        [(pt["us"], pt["invalid"]) for p in r["problems"] for pt in p["points"]]
    # The tuning database, and one lookup, as the CLI gives them.
    assert t.tune_export(str(tmp_path / "py.h5"), str(tmp_path / "py.db")) == 4
    answer = t.tune_lookup(str(tmp_path / "py.db"), "rows", {"n": 700})
    assert answer == json.loads(cli("tune", "lookup", str(tmp_path / "py.db"), "--family", "rows", "--shape", "n=700",
                                    "--json"))
    assert answer["shape"] == "n=1000" and not answer["exact"] and answer["candidate"] == "co" and answer["params"] == {}
    assert t.tune_lookup(str(tmp_path / "py.db"), "rows", "n=64")["exact"]
    with pytest.raises(ValueError, match="no entry for family 'nope' on gfx950"):
        t.tune_lookup(str(tmp_path / "py.db"), "nope", "n=64")
    with pytest.raises(ValueError, match="no such file"):
        t.tune_export(str(tmp_path / "nothing.h5"), str(tmp_path / "none.db"))
    subprocess.run([os.environ["TILELAB_TRACE_FIXTURE"], str(tmp_path / "other.h5")], check=True)
    with pytest.raises(ValueError, match="holds no sweep points"):
        t.tune_export(str(tmp_path / "other.h5"), str(tmp_path / "none.db"))
    assert not (tmp_path / "none.db").exists()
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\n[[candidate]]\nname = "a"\ncode_object = "x.co"\nlaunch = "l.toml"\nshape = 3\n[[problem]]\nn = 1\n')
    with pytest.raises(ValueError, match="bad.toml:6: candidate shape must be"):
        t.sweep(str(bad))


def test_coverage_is_the_clis(tmp_path):
    # The hand-written kernel, and its source with gfx950's sparse FP8 MFMA
    # (refused on purpose: its B layout is not public) before s_endpgm.
    here = pathlib.Path(__file__).parent.parent / "data" / "handwritten" / "scale_rows.s"
    sparse = tmp_path / "sparse.s"
    sparse.write_text(here.read_text().replace(
        "        s_endpgm", "        v_smfmac_f32_16x16x128_fp8_fp8 v[0:3], v[4:7], v[8:15], v16\n        s_endpgm", 1))
    paths = [os.environ["TILELAB_HANDWRITTEN_CO"], str(sparse)]
    r = t.coverage(paths)
    cli = subprocess.run([os.environ["TILELAB_CLI"], "disasm", "--coverage", *paths, "--json"], capture_output=True,
                         text=True, check=True).stdout
    assert r == json.loads(cli)
    assert r["kernels"] == 2 and r["runnable"] == 1 and r["uncovered"] == 1
    assert [(g["opcode"], g["kind"], g["instructions"], g["kernels"]) for g in r["gaps"]] == \
        [("v_smfmac_f32_16x16x128_fp8_fp8", "refused", 1, 1)]
    assert r["gaps"][0]["refusal"].startswith("refused: the lane layout of the sparse MFMA's operands")
    assert [v["can_run"] for v in r["verdicts"]] == [True, False]
    assert r["verdicts"][1]["why"].startswith("v_smfmac_f32_16x16x128_fp8_fp8 ")
    assert r == t.coverage(paths)  # deterministic
    with pytest.raises(ValueError, match="nothing.co"):
        t.coverage(str(tmp_path / "nothing.co"))


def test_timing_listing_is_the_clis():
    # The annotated listing: every instruction in program order with its
    # per-pc columns, as `sim --timing --listing --json` gives it.
    tm = t.sim("gemm_bf16", "gfx950", shape=(256, 128, 128), seed=3, timing=True)["timing"]
    cli = json.loads(subprocess.run([os.environ["TILELAB_CLI"], "sim", "gemm_bf16", "--timing", "--shape", "256,128,128",
                                     "--seed", "3", "--listing", "--json", "--quiet"], capture_output=True, text=True,
                                    check=True).stdout)
    assert tm["listing"] == cli["listing"]
    listing = tm["listing"]
    pcs = [int(r["pc"], 16) for r in listing]
    assert pcs == sorted(pcs) and len(listing) == len(t.disasm(
        os.path.join(os.environ["TILELAB_CODE_OBJECTS"], "gfx950", "gemm_bf16.hsaco"), "gemm_bf16")[0]["instructions"])
    assert sum(r["hits"] for r in listing) == tm["wave_instructions"]
    assert sum(r["stall"] for r in listing) == sum(sum(r["stall_by_reason"].values()) for r in listing)
    barriers = [r for r in listing if r["text"] == "s_barrier"]
    assert barriers and all(r["waits_most_on"] == "barrier" for r in barriers if r["stall"])
    assert any(r["loop_depth"] > 0 for r in listing) and {r["class"] for r in listing} >= {"MFMA", "LDS", "SALU"}


def test_compile_is_the_builds(tmp_path):
    # The build's compiler and flags into another folder: the same kernels and
    # resources as the build's code object (the bytes differ only because the
    # linker's output depends on the output path).
    built = {k["name"]: k for k in t.disasm(os.path.join(os.environ["TILELAB_CODE_OBJECTS"], "gfx950", "mfma_rate.hsaco"))}
    r = t.compile("mfma_rate", out_dir=str(tmp_path))
    assert [(x["path"], x["arch"]) for x in r] == [(str(tmp_path / "gfx950" / "mfma_rate.hsaco"), "gfx950")]
    assert {k["name"] for k in r[0]["kernels"]} == set(built)
    for k in r[0]["kernels"]:
        assert {f: k[f] for f in k} == {f: built[k["name"]][f] for f in k}
    cli = subprocess.run([os.environ["TILELAB_CLI"], "compile", "mfma_rate", "--out-dir", str(tmp_path / "cli")],
                         capture_output=True, text=True, check=True).stdout
    assert (tmp_path / "cli" / "gfx950" / "mfma_rate.hsaco").exists() and "mfma_dependent_chain" in cli
    with pytest.raises(ValueError, match="no kernel named 'nope' \\(there are: rmsnorm, "):
        t.compile("nope", out_dir=str(tmp_path))
    with pytest.raises(ValueError, match="gemm_mxfp4 is built for gfx950 only"):
        t.compile("gemm_mxfp4", arch="gfx942", out_dir=str(tmp_path))
    with pytest.raises(ValueError, match="'gfx90a' is not gfx950, gfx942 or all"):
        t.compile("mfma_rate", arch="gfx90a", out_dir=str(tmp_path))


def protobuf_fields(data):
    # A protobuf message's fields as (number, value) in order: varints as
    # ints, length-delimited as bytes, 64-bit as 8 raw bytes.  Written from the
    # wire-format spec, independently of the exporter.
    out, i = [], 0
    def varint():
        nonlocal i
        v, shift = 0, 0
        while True:
            b = data[i]; i += 1
            v |= (b & 0x7f) << shift; shift += 7
            if b < 0x80:
                return v
    while i < len(data):
        key = varint()
        field, wire = key >> 3, key & 7
        if wire == 0:
            out.append((field, varint()))
        elif wire == 2:
            n = varint(); out.append((field, data[i:i + n])); i += n
        elif wire == 1:
            out.append((field, data[i:i + 8])); i += 8
        else:
            raise AssertionError(f"wire type {wire} at byte {i}")
    return out


def test_perfetto_protobuf_holds_what_the_json_holds(tmp_path):
    import struct
    store = str(tmp_path / "s.h5")
    t.sim("gemm_bf16", "gfx950", shape=(256, 128, 128), seed=3, timing=True, out=store)
    run = "timing-gemm_bf16-gfx950"
    js = t.export_perfetto(store, [run], str(tmp_path / "t.json"))
    pb = t.export_perfetto(store, [run], str(tmp_path / "t.pftrace"))
    assert pb == js  # the same walk: slices, groups, counter samples
    events = json.loads((tmp_path / "t.json").read_text())["traceEvents"]
    data = (tmp_path / "t.pftrace").read_bytes()
    assert len(data) * 3 < len((tmp_path / "t.json").read_bytes())
    packets = [p for f, p in protobuf_fields(data)]
    assert all(f == 1 for f, _ in protobuf_fields(data))  # Trace.packet
    clock = json.loads(t.load_run(store, run)["info"]["config"])["clock_mhz"]
    names, tracks, begins, ends, counters, cycles = {}, {}, [], [], [], []
    default_track, seen = {}, set()  # per sequence
    for k, raw in enumerate(packets):
        p = dict(protobuf_fields(raw))
        seq = p[10]
        if seq not in seen:  # each sequence's first packet clears its incremental state
            assert p[13] & 1
            seen.add(seq); names[seq] = {}
        if 59 in p:  # the sequence's defaults: a wave's track
            default_track[seq] = dict(protobuf_fields(dict(protobuf_fields(p[59]))[11]))[11]
        if 12 in p:  # interned event names, per sequence
            for f, n in protobuf_fields(p[12]):
                if f == 2:
                    e = dict(protobuf_fields(n)); names[seq][e[1]] = e[2].decode()
        if 60 in p:  # a track, on sequence 1
            assert seq == 1
            d = dict(protobuf_fields(p[60]))
            tracks[d[1]] = d
        if 11 in p:
            ev = dict(protobuf_fields(p[11]))
            track = ev.get(11, default_track.get(seq))
            assert track in tracks
            if ev[9] == 1:
                begins.append((track, p[8], names[seq][ev[10]]))
                args = {dict(protobuf_fields(a))[1]: dict(protobuf_fields(a))[3]
                        for f, a in protobuf_fields(p[11]) if f == 4}
                if args:  # an instruction: its pc, its issue cycle, and the time in ns at the run's clock
                    assert 1 in args and 3 in args and p[8] == int(args[3] * 1000 / clock + 0.5)  # llround
                    cycles.append(args[3])
            elif ev[9] == 2:
                ends.append((track, p[8]))
            else:
                assert ev[9] == 4 and 8 in tracks[track] and seq == 1
                counters.append(struct.unpack("<d", ev[44])[0])
    assert len(default_track) == len(seen) - 1  # every wave's sequence names its track
    assert cycles and sorted(cycles) == sorted(e["ts"] for e in events if e.get("cat") == "instruction")
    # The JSON's slices (X) and in-flight pairs (b/e), by name, are the protobuf's slices.
    json_names = sorted([e["name"] for e in events if e["ph"] in ("X", "b")])
    assert sorted(n for _, _, n in begins) == json_names and len(ends) == len(begins)
    assert len(counters) == pb["counter_samples"] == sum(1 for e in events if e["ph"] == "C")
    processes = [d for d in tracks.values() if 3 in d]
    assert len(processes) == sum(1 for e in events if e.get("name") == "process_name")
    # On every track the slices nest (here: never overlap), as Perfetto requires.
    for uuid in tracks:
        spans = [(b, e) for (tb, b, _), (te, e) in zip(begins, ends) if tb == uuid]
        for (b0, e0), (b1, e1) in zip(spans, spans[1:]):
            assert e0 <= b1 and b0 <= e0
    with pytest.raises(ValueError, match="the trace's name says its format: .json"):
        t.export_perfetto(store, [run], str(tmp_path / "t.trace"))
    assert not (tmp_path / "t.trace").exists()


def test_sim_coverage_options_are_the_clis():
    # rmsnorm 16384 x 1024: 8 rounds on the sampled XCD, a regular grid, so the
    # default fast-forwards it; fast_forward=False (--no-fast-forward) runs
    # every workgroup of XCD 0; the CLI's --json says the same.
    shape = (16384, 1024)
    fast = t.sim("rmsnorm_bf16", shape=shape, timing=True, threads=1)["timing"]
    slow = t.sim("rmsnorm_bf16", shape=shape, timing=True, threads=1, fast_forward=False)["timing"]
    assert fast["fast_forwarded"] and not slow["fast_forwarded"]
    assert fast["sampled"] and slow["sampled"]
    cli = json.loads(subprocess.run([os.environ["TILELAB_CLI"], "sim", "rmsnorm_bf16", "--timing", "--shape",
                                     "16384,1024", "--no-fast-forward", "--threads", "1", "--json", "--quiet"],
                                    check=True, capture_output=True, text=True).stdout)
    assert cli["cycles"] == slow["cycles"] and not cli["fast_forwarded"]
    with pytest.raises(ValueError, match="exclude each other"):
        t.sim("rmsnorm_bf16", shape=shape, timing=True, full=True, all_xcds=True)
