"""Compile every plain-Triton kernel of the corpus (each arch its spec lists) in this interpreter, for
``test_compiler``'s stock-path check: run once in a fresh interpreter without TLX and once with ``--tlx``
(``import tlx`` before anything else, as a user would), then compare.

    python corpus_stock_path.py [--tlx] OUT.json     (TRITON_CACHE_DIR: a throw-away directory)

OUT.json: ``{"kernels": {"<name>-sm<arch>": {"ttir", "ttgir", "ptx", "cubin_sha256"}}, "hook_saw": [entry
function names the TLX stage hook looked at], "tlx_loaded": bool, "hook": repr, "seconds": float}``.
"""

from __future__ import annotations

import sys

if "--tlx" in sys.argv:
    import tlx  # first: the alias finder and the stage hook are in place for every import below

import hashlib  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import triton  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import compile_spec  # noqa: E402
from corpus.specs import all_specs  # noqa: E402


def main(argv: list[str]) -> int:
    out_path = next(a for a in argv if not a.startswith("--"))
    with_tlx = "--tlx" in argv
    seen: list[str] = []
    if with_tlx:
        import tlx.compiler.hook as hook

        assert tlx.compiler.installed()
        has_carriers = hook.has_carriers
        hook.has_carriers = lambda module: seen.append(module.get_entry_func_name()) or has_carriers(module)
    start = time.perf_counter()
    kernels = {}
    for spec in all_specs():
        if spec.gluon:
            continue
        for arch in spec.archs:
            asm = compile_spec(spec, arch, stages=("ttir", "ttgir", "ptx", "cubin"))
            kernels[f"{spec.name}-sm{arch}"] = {
                "ttir": asm["ttir"],
                "ttgir": asm["ttgir"],
                "ptx": asm["ptx"],
                "cubin_sha256": hashlib.sha256(asm["cubin"]).hexdigest(),
            }
    payload = {
        "kernels": kernels,
        "hook_saw": seen,
        "tlx_loaded": "tlx" in sys.modules,
        "hook": repr(triton.knobs.runtime.add_stages_inspection_hook),
        "seconds": time.perf_counter() - start,
    }
    with open(out_path, "w") as f:
        json.dump(payload, f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
