"""IR dumps of TLX kernels: ``TLX_DUMP_DIR=<dir>`` writes ``<dir>/<kernel>/NN-<stage>``."""

from __future__ import annotations

import os
import subprocess
import tempfile
import warnings
from pathlib import Path

from .annotate import annotate
from .pipeline import LOWER_PIPELINE, PIPELINE, RAISE_PIPELINE

ENV = "TLX_DUMP_DIR"

FILES = {
    "ttir": "01-ttir.mlir",
    "converted": "02-ttgir-converted.mlir",
    "raised": "03-tlx-raised.mlir",
    "lowered": "04-ttgir-lowered.mlir",
    "ttgir": "05-ttgir-final.mlir",
    "llir": "06-llir.ll",
    "ptx": "07-kernel.ptx",
    "sass": "08-kernel.sass",
    "annotated": "09-ttgir-annotated.mlir",
    "error": "error.txt",
}

README = f"""\
# TLX IR dumps of kernel `{{kernel}}`

Written by the TLX compiler while compiling this kernel (TLX_DUMP_DIR); a
kernel served from Triton's cache is not recompiled: set
TRITON_ALWAYS_COMPILE=1 to dump it again.

| file | stage |
|---|---|
| {FILES["ttir"]} | stock make_ttir output, with TLX carriers (docs/carriers.md) |
| {FILES["converted"]} | stock convert-triton-to-tritongpu: input of the TLX pipeline |
| {FILES["raised"]} | after tlx-raise-carriers: TLX dialect ops |
| {FILES["lowered"]} | after the whole TLX pipeline: TTGIR handed back to Triton |
| {FILES["ttgir"]} | after the stock TTGIR passes TLX kernels get (tlx/compiler/ttgir.py) |
| {FILES["llir"]} | stock make_llir, then tlx/compiler/llir.py (barriers TLX kernels do not need) |
| {FILES["ptx"]} | stock make_ptx |
| {FILES["sass"]} | cuobjdump -sass of the cubin (when cuobjdump is found) |
| {FILES["annotated"]} | {FILES["ttgir"]} to read: ops under their Python line, its source and `tlx.*` ops |

Reproduce a TLX step with tlx-opt (add --mlir-print-debuginfo to keep locations):

    tlx-opt {FILES["converted"]} --pass-pipeline='{RAISE_PIPELINE}'     # -> {FILES["raised"]}
    tlx-opt {FILES["raised"]} --pass-pipeline='{LOWER_PIPELINE}'  # -> {FILES["lowered"]}
    tlx-opt {FILES["converted"]} --pass-pipeline='{PIPELINE}'  # both
"""


def sass_of(cubin: bytes) -> str:
    """``cuobjdump -sass`` of a cubin (Triton bundles cuobjdump); raises if it cannot run. Not Triton's
    ``get_sass``: it stops at the first instruction whose address has five hex digits, dropping everything
    past 64 KiB of code (a warp-specialized attention kernel's second consumer)."""
    from triton import knobs

    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "kernel.cubin"
        path.write_bytes(cubin)
        command = [knobs.nvidia.cuobjdump.path, "-sass", str(path)]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout


class Dumper:
    """Writes the dumps of one kernel."""

    def __init__(self, root: Path, kernel: str) -> None:
        self.directory = root / kernel
        self.raised: str | None = None  # the TLX ops the annotated TTGIR names
        self.directory.mkdir(parents=True, exist_ok=True)
        for stale in FILES.values():  # a previous compile of this kernel must not mix in
            (self.directory / stale).unlink(missing_ok=True)
        (self.directory / "README.md").write_text(README.format(kernel=kernel))

    @classmethod
    def from_env(cls, kernel: str) -> Dumper | None:
        """The dumper ``TLX_DUMP_DIR`` asks for; None when unset, or (with a warning naming the variable)
        when the directory cannot be written: dumps never fail a good kernel."""
        root = os.environ.get(ENV)
        if not root:
            return None
        try:
            return cls(Path(root), kernel)
        except OSError as error:
            warnings.warn(
                f"{ENV}={root!r}: cannot write the IR dumps of kernel `{kernel}` there ({error}); "
                "compiling without dumps",
                RuntimeWarning,
                stacklevel=2,
            )
            return None

    def write(self, stage: str, content: str | bytes) -> Path:
        if stage == "raised":
            self.raised = content
        elif stage == "ttgir":
            self.write("annotated", annotate(content, self.raised))
        path = self.directory / FILES[stage]
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        return path
