"""Round-trip oracle: our parser/printer of Triton 3.6 IR against stock libtriton.

For every module text M of the corpus (TTIR and TTGIR, every kernel, sm_90 and sm_100; see ``corpus``):

    ours     = tlx.run_pipeline(M, "builtin.module()", debug_info=True)     # our C++ parse, then print
    expected = stock_print(stock_parse(M))
    actual   = stock_print(stock_parse(ours))
    assert actual == expected

Which print form is compared, and why: stock's ``module.str()``, i.e. the custom (pretty) op form *with*
debug info, exactly as triton writes IR into its cache and dumps. ``ours`` keeps its locations
(``debug_info=True``), so the comparison is strict about

* every op, operand, result, region, block and successor, every attribute and type;
* every location stock prints -- file:line:col, ``NameLoc``, ``CallSiteLoc``, ``FusedLoc``, ``unknown`` --
  and, through triton's ``printNameLocAsPrefix``, the SSA names derived from ``NameLoc`` s;

and meaningful because it is blind only to what carries no meaning: the SSA value/block names and the
attribute/location alias names and numbering that *our* printer picks (stock re-derives them when it prints
its parse of ``ours``), and whitespace. It is the strictest form stock's bindings can print: they have no
generic printer with locations (the generic text of ``corpus.stock`` has none), and what the custom form
leaves out -- the locations of block arguments whose custom syntax has no ``loc(...)`` slot (in this corpus:
``scf.for`` induction variables and ``iter_args``) -- is left out on both sides alike. Comparing ``ours`` with
M textually would be wrong for that very reason: M, as the compiler printed it from memory, still has SSA
names taken from those block-argument locations, so about half of the corpus is not a fixed point of stock
parse/print (names only; after one parse/print every module is). ``test_stock_roundtrip_self_check`` pins that
down and checks the harness itself: with stock's own text in place of ``ours`` it reports 0 mismatches, and it
does catch a text that lost its locations or changed an op. When the round trip fails, the message says
whether the modules differ without locations too (a real IR difference) or only in locations, and shows a
diff.

``test_corpus_coverage`` (run with ``-s``) lists the distinct op names, attribute kinds and type kinds of the
corpus, scanned from stock's generic-form print of every module.

The corpus is compiled on first use and cached (``.pytest_cache/d/tlx-corpus`` or ``$TLX_CORPUS_CACHE``).
"""

from __future__ import annotations

import difflib
import os
import tempfile
from pathlib import Path

import corpus
import pytest
from corpus.stock import StockIR, StockParseError, corpus_coverage

_RECORDS: list | None = None


def _corpus_records(config) -> list:
    global _RECORDS
    if _RECORDS is None:
        env = os.environ.get("TLX_CORPUS_CACHE")
        if env:
            cache = Path(env)
        elif getattr(config, "cache", None) is not None:
            cache = config.cache.mkdir("tlx-corpus")
        else:  # pytest's cache provider is off (-p no:cacheprovider): a directory of this run's own
            cache = Path(tempfile.mkdtemp(prefix="tlx-corpus-"))
        _RECORDS = corpus.build_corpus(cache)
    return _RECORDS


def pytest_generate_tests(metafunc):
    if "record" in metafunc.fixturenames:
        records = _corpus_records(metafunc.config)
        metafunc.parametrize("record", records, ids=[r.id for r in records])


@pytest.fixture(scope="module")
def stock():
    ir = StockIR()
    yield ir
    ir.close()


@pytest.fixture(scope="module")
def records(request):
    return _corpus_records(request.config)


def _diff(expected: str, actual: str, limit: int = 60) -> str:
    lines = list(
        difflib.unified_diff(expected.splitlines(), actual.splitlines(), "stock(M)", "stock(ours)", lineterm="", n=1)
    )
    more = f"\n... {len(lines) - limit} more diff lines" if len(lines) > limit else ""
    return "\n".join(lines[:limit]) + more


def roundtrip_mismatch(stock: StockIR, original: str, candidate: str) -> str | None:
    """None when stock prints its parse of ``candidate`` exactly as its parse of ``original``; else why not."""
    expected = stock.print(original)
    try:
        actual = stock.print(candidate)
    except StockParseError as error:
        return f"stock libtriton cannot parse our output:\n{error}"
    if actual == expected:
        return None
    same_ir = stock.print(original, debug_info=False) == stock.print(candidate, debug_info=False)
    what = "only the locations differ" if same_ir else "the IR differs (also without locations)"
    return f"round trip changed the module: {what}\n{_diff(expected, actual)}"


def _format_diagnostics(error, limit: int = 10) -> str:
    diagnostics = getattr(error, "diagnostics", None) or []
    lines = [f"  {sev} {src}:{line}:{col}: {msg}" for sev, src, line, col, msg in diagnostics[:limit]]
    if len(diagnostics) > limit:
        lines.append(f"  ... {len(diagnostics) - limit} more")
    return "\n".join(lines) or f"  {error}"


def test_roundtrip(record, stock):
    import tlx

    try:
        ours = tlx.run_pipeline(record.text, "builtin.module()", source_name=record.id, debug_info=True)
    except tlx.PipelineError as error:
        ours, failure = None, f"TLX could not parse/print {record.id}:\n{_format_diagnostics(error)}"
    if ours is None:
        pytest.fail(failure, pytrace=False)
    mismatch = roundtrip_mismatch(stock, record.text, ours)
    if mismatch:
        pytest.fail(f"{record.id}: {mismatch}", pytrace=False)


def test_print_is_byte_identical(record, stock):
    """Stronger than the round trip: our own print of M is, byte for byte, stock's print of M (same op syntax,
    attribute and type spellings, defaults left out, alias names, SSA names from name locations). The round
    trip alone cannot see a spelling stock also accepts, such as ``!tt.ptr<f32, 1>`` for ``!tt.ptr<f32>``."""
    import tlx

    ours = tlx.run_pipeline(record.text, "builtin.module()", source_name=record.id, debug_info=True)
    expected = stock.print(record.text)
    if ours != expected:
        pytest.fail(f"{record.id}: our print differs from stock's\n{_diff(expected, ours)}", pytrace=False)


def test_stock_roundtrip_self_check(records, stock):
    """The harness run with stock's own text in place of ours must report no mismatch, stock's parse/print
    must be idempotent on every module, and the comparison must not be vacuous."""
    mismatches, not_idempotent, fixed_points = [], [], 0
    for record in records:
        once = stock.print(record.text)
        fixed_points += once == record.text
        if stock.print(once) != once or stock.print(once, debug_info=False) != stock.print(
            record.text, debug_info=False
        ):
            not_idempotent.append(record.id)
        for candidate in (record.text, once):  # "ours" = the compiler's text, and = stock's print of it
            if roundtrip_mismatch(stock, record.text, candidate) is not None:
                mismatches.append(record.id)
    print(
        f"\nself-check over {len(records)} modules: {len(set(mismatches))} mismatches, "
        f"{len(not_idempotent)} not idempotent, {fixed_points} already fixed points of stock parse/print"
    )
    assert not mismatches, mismatches
    assert not not_idempotent, not_idempotent
    # Negative controls: a text without locations, and one with a changed op, are both caught.
    record = next(r for r in records if "arith.addf" in r.text)
    no_locations = stock.print(record.text, debug_info=False)
    assert "only the locations differ" in roundtrip_mismatch(stock, record.text, no_locations)
    changed = record.text.replace("arith.addf", "arith.subf", 1)
    assert "the IR differs" in roundtrip_mismatch(stock, record.text, changed)


# Constructs the corpus exists to cover; losing one (a kernel dropped, a lowering changed) should be noticed.
REQUIRED_OPS = {
    "tt.dot",
    "tt.dot_scaled",
    "tt.descriptor_load",
    "tt.descriptor_store",
    "tt.descriptor_gather",
    "tt.make_tensor_descriptor",
    "tt.reduce",
    "tt.scan",
    "tt.atomic_rmw",
    "tt.atomic_cas",
    "tt.histogram",
    "tt.gather",
    "tt.elementwise_inline_asm",
    "tt.extern_elementwise",
    "tt.map_elementwise",
    "cf.cond_br",
    "tt.print",
    "tt.assert",
    "tt.call",
    "scf.for",
    "scf.while",
    "scf.if",
    "ttg.convert_layout",
    "ttg.local_alloc",
    "ttg.warp_specialize",
    "ttg.async_copy_global_to_local",
    "ttng.init_barrier",
    "ttng.barrier_expect",
    "ttng.wait_barrier",
    "ttng.arrive_barrier",
    "ttng.async_tma_copy_global_to_local",
    "ttng.async_tma_copy_local_to_global",
    "ttng.warp_group_dot",
    "ttng.warp_group_dot_wait",
    "ttng.tmem_alloc",
    "ttng.tmem_load",
    "ttng.tmem_store",
    "ttng.tc_gen5_mma",
    "ttng.tc_gen5_commit",
}
REQUIRED_ATTRS = {
    "#ttg.blocked",
    "#ttg.slice",
    "#ttg.dot_op",
    "#ttg.nvidia_mma",
    "#ttg.linear",
    "#ttg.nvmma_shared",
    "#ttg.swizzled_shared",
    "#ttg.padded_shared",
    "#ttg.shared_memory",
    "#ttng.tensor_memory",
    "#ttng.tensor_memory_encoding",
}
REQUIRED_TYPES = {"!tt.ptr", "!tt.tensordesc", "!ttg.memdesc", "!ttg.async.token"}


def test_corpus_coverage(records, stock):
    """Distinct op names, attribute kinds and type kinds over the corpus (stock's generic form of every module)."""
    cov = corpus_coverage(stock, records)
    kernels = {r.name for r in records}
    print(
        f"\ncorpus: {len(kernels)} kernels, {len(records)} modules "
        f"({sum(r.stage == 'ttir' for r in records)} TTIR, {sum(r.stage == 'ttgir' for r in records)} TTGIR)"
    )
    titles = {
        "ops": "op names",
        "attrs": "dialect attribute kinds",
        "types": "dialect type kinds",
        "builtin_types": "builtin type kinds",
        "builtin_attrs": "builtin attribute kinds (keyword form)",
        "named_attrs": "dialect-prefixed attribute names on ops",
        "locations": "location kinds",
    }
    for key, title in titles.items():
        print(f"{len(cov[key])} {title}:")
        for item in sorted(cov[key]):
            print(f"  {item}")
    dialects = sorted({op.split(".")[0] for op in cov["ops"]})
    print("ops per dialect: " + ", ".join(f"{d}={sum(op.split('.')[0] == d for op in cov['ops'])}" for d in dialects))
    assert len(cov["ops"]) >= 120
    assert len(cov["attrs"]) >= 15
    assert len(cov["types"]) >= 4
    assert len(cov["builtin_types"]) >= 10
    assert not REQUIRED_OPS - cov["ops"], sorted(REQUIRED_OPS - cov["ops"])
    assert not REQUIRED_ATTRS - cov["attrs"], sorted(REQUIRED_ATTRS - cov["attrs"])
    assert not REQUIRED_TYPES - cov["types"], sorted(REQUIRED_TYPES - cov["types"])
