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


# --- Sliced buffers: Triton's memdesc_subslice verifier as referee ---------------------------------------------


def _stock_parses(text: str) -> bool:
    """Whether libtriton parses (and verifies) a TTGIR module; its diagnostics stay off stderr."""
    from triton._C.libtriton import nvidia

    from tlx.compiler.stock_errors import captured_stderr

    context = ir.context()
    ir.load_dialects(context)
    nvidia.load_dialects(context)
    with tempfile.TemporaryDirectory() as directory, captured_stderr():
        path = Path(directory) / "kernel.ttgir"
        path.write_text(text)
        try:
            ir.parse_mlir_module(str(path), context)
        except RuntimeError:
            return False
    return True


def _sliced_buffer(shape: tuple, dtype: str, slices: list, transpose: bool) -> str:
    """A TLX module: one buffer of `shape`, (transposed,) sliced into each of `slices` one slice in."""

    def buffer(dims):
        return f"!tlx.buffer<{'x'.join(map(str, dims))}x{dtype}, smem>"

    whole = "x".join(map(str, shape))
    lines = [
        f"    %b = tlx.local_alloc : !tlx.buffers<1, {whole}x{dtype}, smem>",
        f"    %v = tlx.local_view %b[%i] : !tlx.buffers<1, {whole}x{dtype}, smem>",
    ]
    source, dims = "%v", shape
    if transpose:
        dims = (shape[1], shape[0])
        lines.append(f"    %t = tlx.local_trans %v, [1, 0] : {buffer(shape)} -> {buffer(dims)}")
        source = "%t"
    for k, piece in enumerate(slices):
        offsets = ", ".join(str(size if size < whole_size else 0) for size, whole_size in zip(piece, dims, strict=True))
        lines.append(f"    %s{k} = tlx.local_slice {source}, [{offsets}] : {buffer(dims)} -> {buffer(piece)}")
    body = "\n".join(lines)
    return (
        'module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32,'
        f' ttg.target = "cuda:90"}} {{\n  tt.func @k(%i: i32) {{\n{body}\n    tt.return\n  }}\n}}\n'
    )


def test_sliced_buffers_keep_the_widest_swizzle_stock_accepts():
    """Random buffers (rank 2-3, 8- to 32-bit) sliced (through a transpose, too): what TLX lowers always parses
    in stock Triton (whose memdesc_subslice refuses slices that cut a swizzle), and TLX narrows the default
    swizzle only where stock refuses the wider one."""
    from tlx import _C

    seed = int(os.environ.get("TLX_FUZZ_SEED", random.SystemRandom().randrange(2**31)))
    rng = random.Random(seed)
    narrowed = 0
    for _ in range(200):
        rank = rng.choice([2, 2, 3])
        shape = tuple(rng.choice([1, 2, 4, 8, 16, 32, 64, 128]) for _ in range(rank - 1)) + (
            rng.choice([16, 32, 64, 128]),
        )
        dtype = rng.choice(["f16", "f32", "i8"])
        transpose = rank == 2 and rng.random() < 0.3
        dims = (shape[1], shape[0]) if transpose else shape
        slices = [
            tuple(rng.choice([d] + [x for x in (1, 2, 4, 8, 16, 32, 64) if x < d]) for d in dims)
            for _ in range(rng.randint(1, 2))
        ]
        case = f"seed {seed}: {shape} {dtype} slices {slices} transpose {transpose}"
        lowered = _C.run_pipeline(
            _sliced_buffer(shape, dtype, slices, transpose), "builtin.module(tlx-assign-layouts,tlx-lower-to-ttg)"
        )
        assert _stock_parses(lowered), (case, lowered)
        default = _C.run_pipeline(
            _sliced_buffer(shape, dtype, [], transpose), "builtin.module(tlx-assign-layouts,tlx-lower-to-ttg)"
        )
        chosen = re.search(r"swizzlingByteWidth = (\d+)", lowered)
        widest = re.search(r"swizzlingByteWidth = (\d+)", default)
        if chosen and widest and int(chosen.group(1)) < int(widest.group(1)):
            narrowed += 1
            wider = str(int(chosen.group(1)) * 2 if chosen.group(1) != "0" else 32)
            refused = lowered.replace(f"swizzlingByteWidth = {chosen.group(1)}", f"swizzlingByteWidth = {wider}")
            assert not _stock_parses(refused), ("needlessly narrow", case)
    print(f"seed {seed}: {narrowed} of 200 buffers narrowed")
    assert narrowed > 20


# --- Tensor-memory accesses: Triton's tmem_load/tmem_store verifier as referee ------------------------------------


def _tmem_register_layout(rows: int, cols: int, num_warps: int) -> str:
    """tcgen05.ld/st 32x32b: 16 or 32 rows per warp, warp groups beyond the first splitting the columns."""
    column_threads, column_warps = (2 if rows == 64 else 1), num_warps // 4
    per_thread = cols // (column_threads * column_warps)
    return (
        f"#ttg.blocked<{{sizePerThread = [1, {per_thread}], threadsPerWarp = [{32 // column_threads}, "
        f"{column_threads}], warpsPerCTA = [4, {column_warps}], order = [0, 1]}}>"
    )


def _module(num_warps: int, body: str, args: str = "") -> str:
    return (
        f'module attributes {{"ttg.num-warps" = {num_warps} : i32, "ttg.num-ctas" = 1 : i32, '
        f'"ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:100"}} {{\n  tt.func @k({args}) {{\n{body}\n'
        "    tt.return\n  }\n}\n"
    )


def test_tensor_memory_accesses_lower_where_stock_accepts_them():
    """Random tensor-memory stores and loads (64/128 rows, 4-256 columns, 16- and 32-bit, packed or not, 4-32
    warps): what TLX lowers parses in stock Triton, and what TLX refuses for packed columns split between
    threads, stock's tmem_load verifier refuses too."""
    from tlx import _C

    seed = int(os.environ.get("TLX_FUZZ_SEED", random.SystemRandom().randrange(2**31)))
    rng = random.Random(seed)
    lowered = refused = 0
    for _ in range(300):
        rows, num_warps = rng.choice([64, 128]), rng.choice([4, 8, 16, 32])
        minimum = (2 if rows == 64 else 1) * num_warps // 4
        widths = [c for c in (4, 8, 16, 32, 64, 128, 256) if c >= minimum]
        cols = rng.choice(widths[:2] if rng.random() < 0.5 else widths)  # narrow ones split columns
        dtype = rng.choice(["f16", "bf16", "f32", "i32"])
        col_stride = 2 if dtype in ("f16", "bf16") and rng.random() < 0.3 else 1
        case = f"seed {seed}: {rows}x{cols}x{dtype} colStride {col_stride}, {num_warps} warps"
        blocked = _tmem_register_layout(rows, cols, num_warps)
        tensor, buffer = f"tensor<{rows}x{cols}x{dtype}, {blocked}>", f"!tlx.buffer<{rows}x{cols}x{dtype}, tmem>"
        layout = (
            f" {{layout = #ttng.tensor_memory_encoding<blockM = {rows}, blockN = {cols}, colStride = 2>}}"
            if col_stride == 2
            else ""
        )
        body = (
            f"    %b = tlx.local_alloc{layout} : !tlx.buffers<1, {rows}x{cols}x{dtype}, tmem>\n"
            f"    %v = tlx.local_view %b[%i] : !tlx.buffers<1, {rows}x{cols}x{dtype}, tmem>\n"
            f"    tlx.local_store %x, %v : {tensor} -> {buffer}\n"
            f"    %y = tlx.local_load %v : {buffer} -> {tensor}"
        )
        try:
            text = _C.run_pipeline(
                _module(num_warps, body, f"%i: i32, %x: {tensor}"),
                "builtin.module(tlx-assign-layouts,tlx-lower-to-ttg)",
            )
        except _C.PipelineError as error:
            assert "move whole 32-bit columns" in str(error), (case, str(error))
            refused += 1
            memdesc = (
                f"!ttg.memdesc<{rows}x{cols}x{dtype}, #ttng.tensor_memory_encoding<blockM = {rows}, blockN = {cols}, "
                f"colStride = {col_stride}>, #ttng.tensor_memory, mutable>"
            )
            stock = (
                f"    %t = ttng.tmem_alloc : () -> {memdesc}\n"
                f"    %y = ttng.tmem_load %t : {memdesc} -> tensor<{rows}x{cols}x{dtype}, {blocked}>"
            )
            assert not _stock_parses(_module(num_warps, stock)), ("refused, but stock accepts it", case)
            continue
        lowered += 1
        assert _stock_parses(text), (case, text)
    print(f"seed {seed}: {lowered} lowered, {refused} refused")
    assert lowered > 50 and refused > 3, (seed, lowered, refused)
