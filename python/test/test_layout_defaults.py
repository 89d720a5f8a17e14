"""Our layout choices equal stock Triton's: the default blocked layout (what stock's
convert-triton-to-tritongpu assigns), the default NVMMA shared layout (Gluon's
NVMMASharedLayout.get_default_for) and the expand_dims/slice relation (over the corpus).

The helpers are reached through the test pass `test-ttg-layout-defaults`, which only the test driver
`tlx-test-opt` registers (built next to tlx-opt in the build tree, never installed)."""

import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import triton.language as tl
from triton._C.libtriton import ir, passes
from triton.experimental.gluon.language import NVMMASharedLayout

from tlx.tools.tlx_opt import binary_path

sys.path.insert(0, str(Path(__file__).parent))

PASS = "test-ttg-layout-defaults"


def _find_test_opt() -> Path | None:
    """tlx-test-opt: $TLX_TEST_OPT, else beside the tlx-opt the package links to (editable installs), else in
    $TLX_BUILD_DIR or build/cmake."""
    root = Path(__file__).resolve().parents[2]
    candidates = [
        os.environ.get("TLX_TEST_OPT"),
        binary_path().resolve().parent / "tlx-test-opt",
        Path(os.environ.get("TLX_BUILD_DIR", root / "build" / "cmake")) / "bin" / "tlx-test-opt",
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return Path(candidate)
    return None


TEST_OPT = _find_test_opt()
pytestmark = pytest.mark.skipif(TEST_OPT is None, reason="no tlx-test-opt built (ninja -C build/cmake tlx-test-opt)")


def _run_test_pass(text: str) -> str:
    """`text` through the test pass; raises with the driver's diagnostics if it fails."""
    result = subprocess.run([str(TEST_OPT), f"--{PASS}"], input=text, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _stock_default_blocked(shape: list[int], num_warps: int) -> str:
    """The encoding stock's TTIR -> TTGIR conversion gives an unencoded constant of `shape`."""
    dims = "x".join(map(str, shape))
    text = (
        "module {\n  tt.func public @f() {\n"
        f"    %c = arith.constant dense<0> : tensor<{dims}xi32>\n"
        "    tt.return\n  }\n}\n"
    )
    context = ir.context()
    ir.load_dialects(context)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "m.mlir"
        path.write_text(text)
        module = ir.parse_mlir_module(str(path), context)
    manager = ir.pass_manager(context)
    passes.ttir.add_convert_to_ttgpuir(manager, "cuda:90", num_warps, 32, 1)
    manager.run(module, "convert")
    printed = module.str_nodebug()
    match = re.search(rf"tensor<{dims}xi32, (#\w+)>", printed)
    alias = match.group(1)
    return re.search(rf"^{alias} = (.*)$", printed, re.M).group(1)


def _ours(attributes: str, num_warps: int = 4) -> str:
    """Our helpers' choice, through the test pass, for a function carrying `attributes`."""
    text = (
        f'module attributes {{"ttg.num-warps" = {num_warps} : i32}} {{\n'
        f"  tt.func private @anchor() attributes {{{attributes}}} {{\n    tt.return\n  }}\n}}\n"
    )
    return _run_test_pass(text)


def _random_shapes(rng: random.Random, count: int) -> list[list[int]]:
    shapes = []
    for _ in range(count):
        rank = rng.randint(1, 3)
        shapes.append([2 ** rng.randint(0, 8) for _ in range(rank)])
    return shapes


@pytest.mark.parametrize("num_warps", [1, 2, 4, 8, 16])
def test_default_blocked_matches_stock_conversion(num_warps):
    rng = random.Random()
    for shape in _random_shapes(rng, 12):
        expected = _stock_default_blocked(shape, num_warps)
        out = _ours(f"test.default_blocked_for = array<i64: {', '.join(map(str, shape))}>", num_warps)
        ours = re.search(r"test.default_blocked = (#ttg.blocked<\{.*?\}>)", out)
        alias = re.search(r"test.default_blocked = (#\w+)", out)
        if ours is None and alias is not None:
            ours = re.search(rf"^{alias.group(1)} = (.*)$", out, re.M)
        assert ours is not None, out
        assert ours.group(1) == expected, (shape, num_warps)


DTYPES = [tl.float16, tl.bfloat16, tl.float32, tl.float8e4nv, tl.int8, tl.float64]


def test_default_nvmma_matches_gluon():
    rng = random.Random()
    for _ in range(200):
        rank = rng.randint(1, 3)
        # powers of two and the odd sizes that decide between swizzle widths
        shape = [rng.choice([2 ** rng.randint(0, 8), 8 * rng.randint(1, 40)]) for _ in range(rank)]
        dtype = rng.choice(DTYPES)
        transposed = rank >= 2 and rng.random() < 0.3
        fp4 = dtype == tl.int8 and rng.random() < 0.3
        layout = NVMMASharedLayout.get_default_for(shape, dtype, transposed=transposed, fp4_padded=fp4)
        flags = (", test.transposed" if transposed else "") + (", test.fp4_padded" if fp4 else "")
        out = _ours(
            f"test.nvmma_for = array<i64: {', '.join(map(str, shape))}>, "
            f"test.bits = {dtype.primitive_bitwidth} : i32{flags}"
        )
        alias = re.search(r"test.nvmma = (#\w+)", out).group(1)
        printed = re.search(rf"^{alias} = (.*)$", out, re.M).group(1)
        fields = dict(re.findall(r"(\w+) = (\w+)", printed))
        assert int(fields["swizzlingByteWidth"]) == layout.swizzle_byte_width, (shape, dtype, transposed, printed)
        assert int(fields["elementBitWidth"]) == layout.element_bitwidth
        assert (fields["transposed"] == "true") == layout.transposed
        assert (fields.get("fp4Padded") == "true") == layout.fp4_padded
        assert int(fields.get("rank", 2)) == layout.rank


def test_expand_dims_follows_slice_parents_across_the_corpus(request):
    from test_roundtrip import _corpus_records

    checked = 0
    for record in _corpus_records(request.config):
        if record.stage != "ttgir" or "tt.expand_dims" not in record.text:
            continue
        _run_test_pass(record.text)  # fails if an encoding differs from the inferred one
        checked += 1
    assert checked >= 10, checked
