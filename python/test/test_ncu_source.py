"""tlx.tools.ncu_source: Nsight Compute source-page exports summarized per kernel and per code range."""

import gzip
import random

from tlx.tools import ncu_source

HEADER = (
    '"Address","Source","Warp Stall Sampling (All Samples)","Warp Stall Sampling (Not-issued Samples)",'
    '"# Samples","Instructions Executed","stall_barrier","stall_long_sb","stall_wait","stall_barrier (Not Issued)"'
)


def _export(kernels: dict[str, list[tuple[str, int, int, int, int]]]) -> str:
    """An export in ncu's layout: per kernel a preamble, its name, the header and (text, executed, barrier,
    long_sb, wait) rows; the samples column is the sum of the reasons, as ncu writes it."""
    lines = ['"ncu" preamble line, ignored']
    for name, rows in kernels.items():
        lines += [f'"Kernel Name","{name}",', HEADER]
        for address, (text, executed, barrier, long_sb, wait) in enumerate(rows):
            samples = barrier + long_sb + wait
            lines.append(
                f'"0x{address * 16:x}","{text}","{samples}","{samples}","{samples}","{executed}",'
                f'"{barrier}","{long_sb}","{wait}","999"'
            )
    return "\n".join(lines) + "\n"


def _random_kernel(rng: random.Random, count: int) -> list[tuple[str, int, int, int, int]]:
    texts = ["HGMMA.64x128x16.F32.BF16 R24, gdesc[UR4], R24", "@!P0 HGMMA.64x64x16.F32.BF16 R8, R2, gdesc[UR8], R8",
             "WARPGROUP.DEPBAR.LE gsb0, 0x0", "MUFU.EX2 R3, R4", "@!P0 BRA 0x7f00"]  # fmt: skip
    return [
        (rng.choice(texts), rng.randrange(10**6), rng.randrange(500), rng.randrange(500), rng.randrange(500))
        for _ in range(count)
    ]


def test_parse_reads_every_kernel_row_and_reason():
    rng = random.Random()
    kernels = {"consumer_kernel": _random_kernel(rng, 40), "other<128, 2>": _random_kernel(rng, 7)}
    parsed = ncu_source.parse(_export(kernels))
    assert [kernel.name for kernel in parsed] == list(kernels)
    for kernel, rows in zip(parsed, kernels.values(), strict=True):
        assert [(row.text, row.executed, row.stalls) for row in kernel.rows] == [
            (text, executed, {"barrier": barrier, "long_sb": long_sb, "wait": wait})
            for text, executed, barrier, long_sb, wait in rows
        ]
        totals = ncu_source.stall_totals(kernel.rows)
        assert totals["wait"] == sum(row[4] for row in rows)
        assert "barrier (Not Issued)" not in totals
        expected: dict[str, int] = {}
        for text, executed, *_ in rows:
            if "HGMMA" in text:
                shape = text.removeprefix("@!P0 ").split()[0]
                expected[shape] = expected.get(shape, 0) + executed
        assert ncu_source.wgmma_counts(kernel) == expected


def test_summary_shares_and_ranges():
    rows = [
        ("WARPGROUP.DEPBAR.LE gsb0, 0x0", 100, 30, 0, 10),
        ("MUFU.EX2 R3, R4", 100, 0, 0, 30),
        ("@!P0 BRA 0x7f00", 400, 0, 130, 0),
    ]
    (kernel,) = ncu_source.parse(_export({"k": rows}))
    text = ncu_source.summarize(kernel, top=2, ranges=[(0, 2), (2, 3)])
    assert "instructions executed 600, stall samples 200, rows 3" in text
    assert "stalls: long_sb 65.0% wait 20.0% barrier 15.0%" in text
    assert "rows 0-2: 35.0% of the samples, 200 instructions; wait 57.1% barrier 42.9%" in text
    assert "rows 2-3: 65.0% of the samples, 400 instructions; long_sb 100.0%" in text
    top = text.split("top 2 instructions by samples")[1]
    assert "DEPBAR" in top and "BRA" in top and "MUFU" not in top


def test_main_reads_gzip_and_filters_kernels(tmp_path, capsys):
    rng = random.Random()
    export = tmp_path / "source.csv.gz"
    with gzip.open(export, "wt") as file:
        file.write(_export({"ws_attention_persistent_kernel": _random_kernel(rng, 12), "flash_fwd": []}))
    assert ncu_source.main([str(export), "--kernel", "ws_attention", "--top", "3", "--range", "0:5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("== ws_attention_persistent_kernel") and "flash_fwd" not in out
    assert "rows 0-5:" in out
    assert ncu_source.main([str(export), "--kernel", "no_such_kernel"]) == 1
    assert "no kernel" in capsys.readouterr().err
