"""The benchmark suite's CPU half: the stock Triton baselines compile to wgmma for sm_90, the FLOP counts,
and the reporting (tables, ratios, markdown, plots) on hand-made results; the harness's per-provider
statuses with stand-in providers. Nothing here needs a GPU or PyTorch."""

import json
import math
import types

import pytest

from tlx.tools import bench, stock_kernels
from tlx.tutorials import compile_tutorial

# ---------------------------------------------------------------------------------------------- stock kernels


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
@pytest.mark.parametrize(
    "variant,config",
    stock_kernels.candidates(),
    ids=[stock_kernels.describe(v, c).replace(" ", "-") for v, c in stock_kernels.candidates()],
)
def test_stock_matmul_compiles_to_wgmma_for_sm90(variant, config, dtype):
    compiled = compile_tutorial(stock_kernels.spec(variant, config, dtype))
    ptx = compiled.asm["ptx"]
    assert "wgmma.mma_async" in ptx, "stock Triton did not lower tl.dot to wgmma"
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert compiled.metadata.shared <= stock_kernels.HOPPER_MAX_SHARED_BYTES, "does not fit an H200 SM"
    assert compiled.metadata.num_warps == config["num_warps"]
    element = {"fp16": "f16", "bf16": "bf16"}[dtype]
    assert "wgmma.mma_async.sync.aligned.m64n" in ptx and f".f32.{element}.{element}" in ptx
    if variant == "persistent-tma":
        assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx, "A/B tiles are not loaded by TMA"
        assert "cp.async.bulk.tensor.2d.global.shared" in ptx, "C is not stored by TMA"
    else:
        assert "cp.async.cg.shared.global" in ptx, "the tl.dot kernel's loads are not pipelined through cp.async"


def test_stock_spec_rejects_unknown_variant():
    with pytest.raises(ValueError, match="unknown variant"):
        stock_kernels.spec("nope", stock_kernels.PERSISTENT_CONFIGS[0])


def test_describe_names_the_configuration():
    config = stock_kernels.PERSISTENT_CONFIGS[1]
    assert stock_kernels.describe("persistent-tma", config) == "persistent-tma 128x256x64 s4 w8 subtile"


# ---------------------------------------------------------------------------------------------- FLOPs and cases


def test_gemm_flops():
    assert bench.gemm_flops(2, 3, 4) == 48
    assert bench.gemm_flops(4096, 4096, 4096) == 2 * 4096**3


def test_attention_flops_halved_when_causal():
    assert bench.attention_flops(1, 1, 2, 3, causal=False) == 4 * 2 * 2 * 3
    assert bench.attention_flops(2, 16, 4096, 128, causal=False) == 4 * 2 * 16 * 4096 * 4096 * 128
    assert bench.attention_flops(2, 16, 4096, 128, causal=True) == 2 * 2 * 16 * 4096 * 4096 * 128


def test_attention_cases_keep_tokens_and_width():
    cases = bench.attention_cases()
    assert len(cases) == 2 * 2 * 2 * 5  # dtype x D x causal x N
    for case in cases:
        assert case["batch"] * case["n"] == bench.ATTENTION_TOKENS
        assert case["heads"] * case["d"] == bench.ATTENTION_WIDTH
        expected = bench.attention_flops(case["batch"], case["heads"], case["n"], case["d"], case["causal"])
        assert case["flops"] == expected
    quick = bench.attention_cases(quick=True)
    assert {c["n"] for c in quick} == {1024, 4096} and {c["d"] for c in quick} == {128}
    assert {c["dtype"] for c in quick} == {"bf16", "fp16"} and {c["causal"] for c in quick} == {False, True}


def test_gemm_cases():
    cases = bench.gemm_cases()
    assert len(cases) == 2 * len(bench.GEMM_SHAPES)
    assert {(c["m"], c["n"], c["k"]) for c in cases} >= {(4096, 4096, 4096), (8192, 8192, 8192)}
    quick = bench.gemm_cases(quick=True)
    assert len(quick) == 2 and {c["dtype"] for c in quick} == {"bf16", "fp16"}


# ---------------------------------------------------------------------------------------------- reporting


def _ok(flops, ms):
    return {"status": "ok", "ms": ms, "tflops": bench.tflops(flops, ms), "rel_err": 2e-3}


def hand_made_results() -> dict:
    gemm_flops = bench.gemm_flops(4096, 4096, 4096)
    gemm = {
        "m": 4096,
        "n": 4096,
        "k": 4096,
        "dtype": "bf16",
        "label": "4096x4096x4096",
        "flops": gemm_flops,
        "providers": {
            "cuBLAS": _ok(gemm_flops, 1.0),
            "Triton": {**_ok(gemm_flops, 1.6), "detail": "persistent-tma 128x256x64 s3 w8"},
            "TLX coop": _ok(gemm_flops, 1.25),
            "TLX pingpong": {"status": "error: CompilationError: boom", "detail": "at 3:4:\nboom"},
            "TLX wgmma": {"status": "missing", "detail": "tlx.tutorials.wgmma_matmul: no"},
        },
    }
    attention_flops = bench.attention_flops(4, 16, 4096, 128, True)
    attention = [
        {
            "batch": 4,
            "heads": 16,
            "n": 4096,
            "d": 128,
            "causal": True,
            "dtype": "bf16",
            "flops": attention_flops,
            "providers": {
                "cuDNN": _ok(attention_flops, 0.5),
                "flash": _ok(attention_flops, 0.6),
                "TLX": {"status": "WRONG err=3.0e-01", "rel_err": 0.3},
            },
        },
        {
            "batch": 16,
            "heads": 16,
            "n": 1024,
            "d": 128,
            "causal": True,
            "dtype": "bf16",
            "flops": bench.attention_flops(16, 16, 1024, 128, True),
            "providers": {
                "cuDNN": _ok(1e12, 2.0),
                "flash": _ok(1e12, 3.0),
                "TLX": _ok(1e12, 2.5),
            },
        },
    ]
    broadcast = {
        "shape": {"num_users": 32, "items_per_user": 2048, "user_dim": 1024, "item_dim": 256, "hidden": 256},
        "label": "U=32 I=2048 du=1024 di=256 h=256",
        "dtype": "bf16",
        "flops": 42.9e9,
        "reference": "materialized_torch in float64",
        "providers": {
            "TLX": {**_ok(42.9e9, 0.5), "host_us": 24.25},
            "torch": _ok(42.9e9, 2.0),
            "Triton": {"status": "missing"},
        },
    }
    return {
        "environment": {
            "date": "2026-11-29",
            "gpu": "NVIDIA H200",
            "driver": "580.159.04",
            "torch": "2.11.0+cu130",
            "triton": "3.6.0",
            "tlx": "0.1.0",
            "cuda": "13.0",
            "cudnn": 91300,
        },
        "settings": {"warmup_ms": 25, "rep_ms": 100, "tolerance": {"bf16": 1e-2}},
        "gemm": [gemm],
        "attention": attention,
        "broadcast": [broadcast],
    }


def _row(table: str, start: str) -> str:
    rows = [line for line in table.splitlines() if line.startswith(start)]
    assert len(rows) == 1, f"expected one row starting {start!r} in\n{table}"
    return rows[0]


def test_ratios_use_the_fastest_correct_tlx_provider():
    results = hand_made_results()
    case = results["gemm"][0]
    assert bench.best_tlx("gemm", case)[0] == "TLX coop"
    assert bench.ratios("gemm", case) == {"TLX/cuBLAS": pytest.approx(0.8), "TLX/Triton": pytest.approx(1.28)}
    wrong, right = results["attention"]
    assert bench.ratios("attention", wrong) == {"TLX/cuDNN": None, "TLX/flash": None, "TLX/FA3": None}
    assert bench.ratios("attention", right) == {
        "TLX/cuDNN": pytest.approx(0.8),
        "TLX/flash": pytest.approx(1.2),
        "TLX/FA3": None,
    }
    assert bench.ratios("broadcast", results["broadcast"][0]) == {"vs torch": pytest.approx(4.0), "vs Triton": None}


def test_text_table_rows_and_statuses():
    text = bench.summary_text(hand_made_results())
    gemm = _row(text, "4096x4096x4096")
    cells = gemm.split()
    assert cells[:4] == ["4096x4096x4096", "bf16", "137.4", "85.9"]  # 2*4096^3 flops in 1.0 ms and 1.6 ms
    assert cells[4] == "110.0"  # TLX coop, 1.25 ms
    assert "error: CompilationErr..." in gemm and "missing" in gemm  # long statuses are cut in the text table
    assert cells[-2:] == ["0.80x", "1.28x"]
    attention = _row(text, "4   16  4096")
    assert "WRONG err=3.0e-01" in attention and attention.split()[-3:] == ["-", "-", "-"]
    assert _row(text, "16  16  1024").split()[-3:] == ["0.80x", "1.20x", "-"]  # no FA3 in these results
    broadcast = _row(text, "U=32 I=2048 du=1024 di=256 h=256")
    assert broadcast.split()[-2:] == ["4.00x", "-"]
    assert "0.500" in broadcast and "2.000" in broadcast and "85.8" in broadcast  # ms, ms, TLX TFLOP/s
    assert broadcast.split()[-4:-2] == ["24.2", "-"]  # host us per call: TLX's, Triton's (missing)
    assert text.splitlines()[0].startswith("GPU: NVIDIA H200  driver 580.159.04")


def test_text_table_is_fixed_width():
    headers, rows, keys = bench.section_table("gemm", hand_made_results()["gemm"])
    rows = rows + [["512x8192x8192", "fp16"] + ["WRONG err=1.0e+00 and a very long tail"] * 5 + ["-", "-"]]
    lines = bench.format_text_table(headers, rows, keys, max_cell=20).splitlines()
    assert len({len(line) for line in lines}) == 1, "right-aligned last column: every line equally long"
    assert "WRONG err=1.0e+00..." in lines[-1]


def test_markdown_page():
    results = hand_made_results()
    plots = ["gemm_bf16.png", "attention_bf16_d128_causal.png", "broadcast.png"]
    page = bench.markdown_page(results, plots)
    assert page.startswith("# 2026-11-29: TLX benchmark suite on the NVIDIA H200")
    for text in ("580.159.04", "torch 2.11.0+cu130", "triton 3.6.0", "TLX 0.1.0", "13.0", "91300"):
        assert text in page
    row = "| 4096x4096x4096 | bf16 | 137.4 | 85.9 | 110.0 | error: CompilationError: boom | missing | 0.80x | 1.28x |"
    assert row in page
    for plot in plots:
        assert f"]({plot})" in page
    assert "`persistent-tma 128x256x64 s3 w8`: 4096x4096x4096 bf16" in page
    assert "attention B=4 H=16 N=4096 D=128 causal bf16 TLX: WRONG err=3.0e-01" in page
    assert bench.markdown_name(results) == "results-2026-11-29-h200.md"
    assert "round-robin" not in page
    results["settings"]["rounds"] = 3
    assert "timed 3 times, round-robin" in bench.markdown_page(results, plots)


def test_problems_and_failed():
    results = hand_made_results()
    issues = bench.problems(results)
    assert "gemm 4096x4096x4096 bf16 TLX pingpong: error: CompilationError: boom" in issues
    assert "gemm TLX wgmma: missing (1 cases)" in issues
    assert bench.failed(results)
    for section in bench.SECTIONS:
        for case in results.get(section, []):
            for name, result in case["providers"].items():
                if result["status"].startswith(("WRONG", "error")):
                    case["providers"][name] = {"status": "skipped: fp16 only"}
    assert not bench.failed(results), "missing and skipped providers are not failures"


def test_plots_are_png(tmp_path):
    pytest.importorskip("matplotlib")
    written = bench.write_plots(hand_made_results(), tmp_path)
    assert written == ["gemm_bf16.png", "attention_bf16_d128_causal.png", "broadcast.png"]
    for name in written:
        data = (tmp_path / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, name


def test_write_outputs(tmp_path):
    pytest.importorskip("matplotlib")
    results = hand_made_results()
    written = bench.write_outputs(results, tmp_path)
    assert json.loads((tmp_path / "results.json").read_text())["gemm"][0]["providers"]["cuBLAS"]["ms"] == 1.0
    assert written["markdown"] == "results-2026-11-29-h200.md"
    assert "![gemm_bf16](gemm_bf16.png)" in (tmp_path / written["markdown"]).read_text()
    assert sorted(p.name for p in tmp_path.glob("*.png")) == sorted(written["plots"])


def test_main_fake_prints_the_table_last(tmp_path, capsys):
    status = bench.main(["--fake", "--quick", "--out", str(tmp_path)])
    assert status == 1, "the made-up results hold a WRONG provider"
    lines = capsys.readouterr().out.rstrip().splitlines()
    # The launch section comes last: two argument kinds in two process states, after its heading and header.
    assert lines[-1].startswith("pointers     3M live objects")
    assert lines[-4].startswith("descriptors  fresh")
    assert lines[-7].startswith("Launch overhead: host microseconds per launch")
    assert lines[-9].startswith("B=64 H=8 D=128 gelu  bf16")  # the GDPA section before it
    assert any(line.startswith("U=64 I=1024 du=256 di=128 h=512  bf16") for line in lines)
    assert (tmp_path / "results.json").exists()
    assert len(list(tmp_path.glob("results-*-fake-*.md"))) == 1


def test_gpu_slug_and_nvidia_smi():
    assert bench.gpu_slug("NVIDIA H200") == "h200"
    assert bench.gpu_slug("NVIDIA H100 80GB HBM3") == "h100-80gb-hbm3"
    assert bench.gpu_slug(None) == "gpu"
    text = "NVIDIA H200, 580.159.04, 1980 MHz, 700.00 W, 143771 MiB\nNVIDIA H200, 580.159.04, 1980 MHz, 700.00 W, 1\n"
    values = bench.parse_nvidia_smi(text, bench.NVIDIA_SMI_FIELDS)
    assert values == {
        "name": "NVIDIA H200",
        "driver_version": "580.159.04",
        "clocks.max.sm": "1980 MHz",
        "power.limit": "700.00 W",
        "memory.total": "143771 MiB",
    }
    assert bench.parse_nvidia_smi("", bench.NVIDIA_SMI_FIELDS) == {}


# ---------------------------------------------------------------------------------------------- the harness


class _ClockRunner(bench.Runner):
    """A Runner that 'times' by counting calls (no GPU, no torch)."""

    def __init__(self):
        super().__init__(device="cpu")
        self.timed = []

    def bench(self, fn):
        fn()
        self.timed.append(fn)
        return 2.0

    capture_fails = False

    def device_time(self, fn):
        if self.capture_fails:  # as a call that synchronizes with the host fails inside a graph capture
            raise RuntimeError("operation not permitted when stream is capturing")
        return 1.5


def _measure(runner, resolve, error=1e-3, out_factory=None):
    return runner.measure("p", resolve, lambda out: error, 4e9, 1e-2, out_factory)


def test_measure_statuses():
    runner = _ClockRunner()

    def missing():
        raise bench.Missing("tlx.tutorials.nope")

    def skipped():
        raise bench.Skipped("fp16 only")

    def broken():
        return bench.Call(lambda: 1 / 0)

    ok = bench.Call(lambda: "out")
    assert _measure(runner, missing)["status"] == "missing"
    assert _measure(runner, skipped)["status"] == "skipped: fp16 only"
    failure = _measure(runner, broken)
    assert failure["status"] == "error: ZeroDivisionError: division by zero" and "1 / 0" in failure["detail"]
    assert _measure(runner, lambda: ok, error=0.25)["status"] == "WRONG err=2.5e-01"
    assert _measure(runner, lambda: ok, error=math.nan)["status"] == "WRONG: NaN/Inf in output"
    assert not runner.timed, "nothing wrong or failed is timed"
    result = _measure(runner, lambda: ok)
    assert result == {
        "status": "ok",
        "ms": 2.0,
        "device_ms": 1.5,
        "tflops": 2.0,
        "rel_err": 1e-3,
        "preallocated_out": False,
    }
    assert len(runner.timed) == 1


def test_a_call_that_cannot_be_graphed_keeps_its_events_time():
    runner = _ClockRunner()
    runner.capture_fails = True
    result = _measure(runner, lambda: bench.Call(lambda: "out"))
    assert result["status"] == "ok" and result["ms"] == 2.0 and result["device_ms"] is None
    assert "stream is capturing" in result["device_note"]


def test_ratio_columns_of_device_times_follow_when_measured():
    case = {
        "providers": {
            "cuBLAS": {"status": "ok", "ms": 1.0, "device_ms": 0.9},
            "Triton": {"status": "ok", "ms": 1.2},
            "TLX coop": {"status": "ok", "ms": 0.8, "device_ms": 0.6},
        }
    }
    assert bench.ratios("gemm", case, device=True) == {
        "TLX/cuBLAS": pytest.approx(1.25),
        "TLX/Triton": pytest.approx(1.5),
        "TLX/cuBLAS (graph)": pytest.approx(1.5),
        "TLX/Triton (graph)": None,
    }
    headers, rows, _ = bench.section_table("gemm", [{**case, "label": "1x1x1", "dtype": "bf16"}])
    assert headers[-2:] == ["TLX/cuBLAS (graph)", "TLX/Triton (graph)"] and rows[0][-2:] == ["1.50x", "-"]


def test_measure_poisons_and_preallocates_out():
    runner = _ClockRunner()
    seen = []

    def provider(x, out=None):
        seen.append(out)
        return out

    made = []

    def out_factory(poisoned):
        made.append("nan" if poisoned else "empty")
        return made[-1] + str(len(made))

    result = _measure(runner, lambda: bench.Call(provider, (1,)), out_factory=out_factory)
    assert result["status"] == "ok" and result["preallocated_out"]
    assert seen[0] == "nan1", "the checked call writes into a NaN-poisoned buffer"
    assert set(seen[1:]) == {"empty2"}, "the timed calls reuse one preallocated buffer"
    no_out = _measure(runner, lambda: bench.Call(lambda x: x, (1,)), out_factory=out_factory)
    assert no_out["status"] == "ok" and not no_out["preallocated_out"]


def test_tutorial_function_missing():
    with pytest.raises(bench.Missing):
        bench.tutorial_function("no_such_tutorial_module")
    with pytest.raises(bench.Missing):
        bench.tutorial_function("wgmma_matmul", "no_such_function")
    assert callable(bench.tutorial_function("wgmma_matmul"))


def test_short_error():
    compile_error = RuntimeError("at 12:4:\n    acc = tl.dot(a, b)\n    ^\nunsupported layout")
    assert bench.short_error(compile_error) == "error: RuntimeError: unsupported layout"
    assert bench.short_error(ValueError("first line\nsecond")) == "error: ValueError: first line"
    assert len(bench.short_error(ValueError("x" * 500))) == 100


def test_broadcast_shapes_from_tuples_and_dicts():
    def make_inputs(num_users, items_per_user, user_dim, item_dim, hidden, dtype=None, device="cuda"):
        return {}

    module = types.SimpleNamespace(
        make_inputs=make_inputs,
        SHAPES=[(32, 2048, 1024, 256, 256), {"num_users": 8, "items_per_user": 128, "user_dim": 64, "item_dim": 32}],
    )
    shapes = bench.broadcast_shapes(module, quick=False)
    assert shapes[0] == {"num_users": 32, "items_per_user": 2048, "user_dim": 1024, "item_dim": 256, "hidden": 256}
    assert shapes[1]["item_dim"] == 32
    assert bench.broadcast_label(shapes[0]) == "U=32 I=2048 du=1024 di=256 h=256"
    assert bench.broadcast_shapes(module, quick=True) == shapes[:1]


# ---------------------------------------------------------------------------------------------- with PyTorch (CPU)


def test_relative_error_and_attention_reference():
    torch = pytest.importorskip("torch")
    ref = torch.randn(64, 32, dtype=torch.float64)
    assert bench.relative_error(ref.float(), ref) < 1e-6
    assert bench.relative_error(ref * 1.1, ref) == pytest.approx(0.1)
    poisoned = ref.clone()
    poisoned[3, 4] = float("nan")
    assert math.isnan(bench.relative_error(poisoned, ref))
    with pytest.raises(ValueError, match="shape"):
        bench.relative_error(ref[:10], ref)

    q, k, v = (torch.randn(2, 3, 1536, 16) for _ in range(3))
    for causal in (False, True):
        picks, rows, refs = bench._attention_reference(q, k, v, causal, 0.25)
        assert len(rows) < 1536 and int(rows[-1]) == 1535 and int(rows[0]) == 0
        expected = torch.nn.functional.scaled_dot_product_attention(
            q.double(), k.double(), v.double(), is_causal=causal, scale=0.25
        )
        for (b, h), got in zip(picks, refs, strict=True):
            assert torch.allclose(got, expected[b, h, rows], atol=1e-10)


def test_moe_cases_hold_fp16_problems_and_a_pattern_picks_cases():
    cases = bench.moe_cases()
    assert sum(case["dtype"] == "fp16" for case in cases) == len(bench.MOE_FP16_SHAPES) == 2
    runner = bench.Runner(device="cpu", cases="fp16")
    measured = bench._measure_cases(runner, "moe", cases, lambda case: {"TLX": {"status": "missing"}})
    assert [case["dtype"] for case in measured] == ["fp16", "fp16"]
    everything = bench._measure_cases(bench.Runner(device="cpu"), "moe", cases, lambda case: {})
    assert len(everything) == len(cases)


class _RoundsRunner(bench.Runner):
    """A Runner whose timings come from a script: each provider's call returns its name, and `bench` hands
    out that provider's next scripted time, recording the order; the device time is a tenth of it."""

    def __init__(self, rounds, times):
        super().__init__(device="cpu", rounds=rounds)
        self.times = {name: list(values) for name, values in times.items()}
        self.order = []

    def bench(self, fn):
        name = fn()
        self.order.append(name)
        value = self.times[name].pop(0)
        if isinstance(value, Exception):
            raise value
        self.last = value
        return value

    def device_time(self, fn):
        return self.last / 10


def _provider(name):
    return lambda: bench.Call(lambda: name)


def test_more_rounds_times_the_providers_round_robin_and_keeps_each_median():
    runner = _RoundsRunner(3, {"a": [4.0, 1.0, 3.0], "b": [2.0, 6.0, 5.0]})
    providers = {name: _measure(runner, _provider(name)) for name in ("a", "b")}
    assert runner.order == ["a", "b"], "measure times each provider once, as it checks it"
    runner.more_rounds(providers)
    assert runner.order == ["a", "b", "a", "b", "a", "b"]
    a, b = providers["a"], providers["b"]
    assert a["rounds"]["ms"] == [4.0, 1.0, 3.0] and a["ms"] == 3.0 and a["tflops"] == pytest.approx(4e9 / 3.0 * 1e-9)
    assert b["rounds"]["ms"] == [2.0, 6.0, 5.0] and b["ms"] == 5.0
    assert a["rounds"]["device_ms"] == pytest.approx([0.4, 0.1, 0.3]) and a["device_ms"] == pytest.approx(0.3)
    assert all(bench._ROUND_CALL not in result for result in providers.values())
    runner.more_rounds({})  # the calls kept for the case are gone with it
    assert runner.order == ["a", "b", "a", "b", "a", "b"]


def test_more_rounds_follow_a_chosen_candidate_and_report_a_failing_round():
    runner = _RoundsRunner(2, {"x": [2.0, 6.0], "y": [3.0, 1.0], "bad": [1.0, RuntimeError("lost the GPU")]})
    tried = {name: _measure(runner, _provider(name)) for name in ("x", "y")}
    providers = {
        "Triton": {**tried["x"], "detail": "x", "candidates": {name: dict(result) for name, result in tried.items()}},
        "bad": _measure(runner, _provider("bad")),
        "wrong": _measure(runner, _provider("bad"), error=0.5),
    }
    runner.more_rounds(providers)
    assert runner.order == ["x", "y", "bad", "x", "bad"], "only the case's providers take more rounds"
    assert providers["Triton"]["ms"] == 4.0 and providers["Triton"]["candidates"]["x"]["ms"] == 2.0
    assert bench._ROUND_CALL not in providers["Triton"]["candidates"]["x"]
    assert providers["bad"]["status"] == "error: RuntimeError: lost the GPU"
    assert providers["bad"]["rounds"]["ms"] == [1.0]
    assert providers["wrong"]["status"].startswith("WRONG") and "rounds" not in providers["wrong"]


def test_one_round_keeps_no_calls_and_rounds_must_be_positive(capsys):
    runner = _RoundsRunner(1, {"a": [2.0]})
    providers = {"a": _measure(runner, _provider("a"))}
    runner.more_rounds(providers)
    assert "rounds" not in providers["a"] and providers["a"]["ms"] == 2.0 and not runner._round_calls
    with pytest.raises(ValueError, match="rounds must be at least 1"):
        bench.Runner(device="cpu", rounds=0)
    with pytest.raises(SystemExit):
        bench._parse_args(["--rounds", "0"])
    assert "--rounds must be at least 1" in capsys.readouterr().err
