"""Where a kernel's warps spend their time, instruction by instruction, from Nsight Compute's source page.

    ncu --section SourceCounters --section WarpStateStats -o report <program>
    ncu -i report.ncu-rep --page source --csv | gzip > source.csv.gz
    python -m tlx.tools.ncu_source source.csv.gz [--kernel REGEX] [--top 20] [--range FIRST:LAST ...]

For each kernel of the export: instructions executed, warp stall samples and their reasons, the wgmma
instructions by shape (two kernels that execute the same ``HGMMA`` counts do the same tensor work), and the
instructions holding the most samples with their two main reasons. ``--range`` (row numbers of the listing,
as printed) sums samples and reasons over parts of the code, e.g. a producer's and each consumer's, whose
shares are what compares across kernels: the sampler picks among the warps resident on a sub-partition, so
a kernel with more polling warps spreads its samples thinner.

This is how the attention kernel was compared with FlashAttention-3 (2026-12-05 session 22 results).
"""

from __future__ import annotations

import argparse
import collections
import csv
import gzip
import io
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field

from tlx.testing.sass import mnemonic

#: The columns of one source row that this summary reads.
SOURCE, EXECUTED, SAMPLES = "Source", "Instructions Executed", "Warp Stall Sampling (All Samples)"
#: Stall-reason columns are ``stall_<reason>``; their ``(Not Issued)`` twins are left out.
STALL_PREFIX = "stall_"


@dataclass
class Row:
    """One SASS instruction of the listing."""

    text: str
    executed: int
    samples: int
    stalls: dict[str, int]

    @property
    def opcode(self) -> str:
        """``HGMMA.64x128x16.F32.BF16`` of ``@!P0 HGMMA.64x128x16.F32.BF16 R24, ...``."""
        return mnemonic(self.text)


@dataclass
class Kernel:
    """One kernel of the export: its name and its listing, in address order."""

    name: str
    rows: list[Row] = field(default_factory=list)


def _number(text: str) -> int:
    try:
        return int(float(text))
    except ValueError:
        return 0


def parse(text: str) -> list[Kernel]:
    """The kernels of an ``ncu --page source --csv`` export: a ``"Kernel Name",NAME`` line opens each,
    its header row (starting ``"Address"``) and one row per instruction follow."""
    kernels: list[Kernel] = []
    header: list[str] | None = None
    for record in csv.reader(io.StringIO(text)):
        if len(record) >= 2 and record[0] == "Kernel Name":
            kernels.append(Kernel(record[1]))
            header = None
        elif kernels and record and record[0] == "Address":
            header = record
        elif kernels and header and len(record) == len(header):
            values = dict(zip(header, record, strict=True))
            stalls = {
                name[len(STALL_PREFIX) :]: _number(value)
                for name, value in values.items()
                if name.startswith(STALL_PREFIX) and "Not Issued" not in name
            }
            executed, samples = _number(values.get(EXECUTED, "0")), _number(values.get(SAMPLES, "0"))
            kernels[-1].rows.append(Row(values.get(SOURCE, "").strip(), executed, samples, stalls))
    return kernels


def stall_totals(rows: Iterable[Row]) -> collections.Counter[str]:
    """Samples per stall reason over ``rows``."""
    totals: collections.Counter[str] = collections.Counter()
    for row in rows:
        totals.update(row.stalls)
    return totals


def wgmma_counts(kernel: Kernel) -> dict[str, int]:
    """Executed warp-level ``HGMMA`` instructions per shape and type."""
    counts: collections.Counter[str] = collections.Counter()
    for row in kernel.rows:
        if row.opcode.startswith("HGMMA"):
            counts[row.opcode] += row.executed
    return dict(counts)


def _shares(totals: collections.Counter[str], count: int) -> str:
    total = sum(totals.values()) or 1
    return " ".join(f"{reason} {value / total:.1%}" for reason, value in totals.most_common(count))


def summarize(kernel: Kernel, top: int = 20, ranges: Iterable[tuple[int, int]] = ()) -> str:
    """A text summary of ``kernel``: totals, wgmma work, stall shares, the ``top`` instructions by samples,
    and the samples of each row range ``[first, last)``."""
    rows = kernel.rows
    samples = sum(row.samples for row in rows)
    lines = [
        f"== {kernel.name}",
        f"instructions executed {sum(row.executed for row in rows):,}, stall samples {samples:,}, rows {len(rows)}",
    ]
    lines += [f"  {shape}: {count:,}" for shape, count in sorted(wgmma_counts(kernel).items())]
    lines.append("stalls: " + _shares(stall_totals(rows), 8))
    for first, last in ranges:
        part = rows[first:last]
        part_samples = sum(row.samples for row in part)
        lines.append(
            f"rows {first}-{last}: {part_samples / (samples or 1):.1%} of the samples, "
            f"{sum(row.executed for row in part):,} instructions; " + _shares(stall_totals(part), 6)
        )
    lines.append(f"top {top} instructions by samples (row, share, executed, reasons):")
    ranked = sorted(range(len(rows)), key=lambda index: -rows[index].samples)[:top]
    for index in sorted(ranked):
        row = rows[index]
        reasons = ", ".join(f"{name} {value}" for name, value in collections.Counter(row.stalls).most_common(2))
        share = row.samples / (samples or 1)
        lines.append(f"{index:6d} {share:6.1%} {row.executed:>10,}  {row.text[:64]:64s} {reasons}")
    return "\n".join(lines)


def _range(text: str) -> tuple[int, int]:
    first, _, last = text.partition(":")
    try:
        return int(first), int(last)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a range is FIRST:LAST (row numbers), got {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export", help="ncu --page source --csv output (.gz read as gzip)")
    parser.add_argument("--kernel", default="", help="only kernels whose name matches this regular expression")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--range", type=_range, action="append", default=[], dest="ranges")
    args = parser.parse_args(argv)
    opener = gzip.open if args.export.endswith(".gz") else open
    with opener(args.export, "rt") as export:
        kernels = parse(export.read())
    chosen = [kernel for kernel in kernels if re.search(args.kernel, kernel.name)]
    if not chosen:
        print(f"ncu_source: no kernel in {args.export} matches {args.kernel!r}", file=sys.stderr)
        return 1
    print("\n\n".join(summarize(kernel, args.top, args.ranges) for kernel in chosen))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
