"""``python -m corpus`` (from ``python/test``): build the corpus and report kernels, timings and coverage.

python -m corpus                 # build into the default cache (or $TLX_CORPUS_CACHE), report
python -m corpus --cold          # build into a fresh temporary cache: a cold build's wall time
python -m corpus --coverage      # also list op names, attribute kinds and type kinds
"""

from __future__ import annotations

import argparse
import tempfile

from . import BuildReport, build_corpus, kernel_table


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m corpus")
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--cold", action="store_true", help="build into a fresh temporary cache directory")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--coverage", action="store_true")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="tlx-corpus-cold-") as tmp:
        cache = tmp if args.cold else args.cache_dir
        report = BuildReport()
        records = build_corpus(cache, jobs=args.jobs, report=report, strict=False)
    for name, archs, kind in kernel_table():
        print(f"{name:34s} {kind:7s} {'/'.join(f'sm{a}' for a in archs)}")
    print(
        f"{len(kernel_table())} kernels, {len(records)} modules; compiled {report.compiled}, "
        f"from cache {report.cached}, {report.seconds:.1f} s"
    )
    for key, error in sorted((report.failures or {}).items()):
        print(f"FAILED {key}: {error.splitlines()[0]}")
    if args.coverage:
        from .stock import StockIR, corpus_coverage

        cov = corpus_coverage(StockIR(), records)
        for key, items in cov.items():
            print(f"{key} ({len(items)}): {' '.join(sorted(items))}")
    return 1 if report.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
