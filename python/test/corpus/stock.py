"""Stock libtriton as the reference parser/printer of TTIR/TTGIR text.

``StockIR`` owns one MLIR context of stock triton with every dialect triton's NVIDIA backend loads. It can

* parse a module text (``ir.parse_mlir_module`` takes a path, so the text goes through a temporary file) and
  print it back, with debug info (``module.str()``: locations, and SSA names taken from ``NameLoc`` s as
  triton prints them) or without (``module.str_nodebug()``);
* print a module in MLIR's *generic* op form. Stock triton's Python bindings have no generic printer and do
  not register ``--mlir-print-op-generic``; what they do have is a pass manager that, when a pass pipeline
  fails, prints a local crash reproducer of the module to stderr, and MLIR prints reproducers in generic form.
  So :meth:`StockIR.generic` parses the module, adds a non-dialect attribute to it (which the
  ``builtin.module`` verifier rejects), runs one pass that leaves TTIR/TTGIR alone (``triton-loop-unroll``;
  it acts only on loops carrying ``tt.loop_unroll_factor``, which ``make_ttir`` has consumed), lets the
  verifier after that pass fail, and reads the reproducer -- the module as it was before the pass -- back
  from file descriptor 2. The probe attribute is then removed from the text. ``check_generic`` parses the
  result again and compares it with the original, so a wrong extraction cannot pass unnoticed.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

PROBE_ATTR = "zzz_tlx_generic_probe"


class StockIR:
    def __init__(self):
        from triton._C.libtriton import ir
        from triton.backends.compiler import GPUTarget
        from triton.backends.nvidia.compiler import CUDABackend

        self._ir = ir
        self.context = ir.context()
        ir.load_dialects(self.context)
        CUDABackend(GPUTarget("cuda", 100, 32)).load_dialects(self.context)
        self._tmp = tempfile.TemporaryDirectory(prefix="tlx-stock-ir-")
        self._count = 0

    def close(self):
        self._tmp.cleanup()

    def parse(self, text: str):
        """Parse ``text`` with stock libtriton; raise ``StockParseError`` with stock's diagnostics on failure."""
        self._count += 1
        path = Path(self._tmp.name) / f"m{self._count}.mlir"
        path.write_text(text)
        try:
            module, error, stderr = _capture_fd2(lambda: self._ir.parse_mlir_module(str(path), self.context))
        finally:
            path.unlink()
        if error is not None:
            raise StockParseError(f"{error}\n{stderr}".strip())
        module.context = self.context
        return module

    def print(self, text: str, *, debug_info: bool = True) -> str:
        module = self.parse(text)
        return module.str() if debug_info else module.str_nodebug()

    def generic(self, text: str) -> str:
        """The module ``text`` printed by stock in MLIR's generic op form (without locations)."""
        from triton._C.libtriton import passes

        module = self.parse(text)
        module.set_attr(PROBE_ATTR, self._ir.builder(self.context).get_int32_attr(1))
        pm = self._ir.pass_manager(self.context)
        passes.ttir.add_loop_unroll(pm)
        _, failed, err = _capture_fd2(lambda: pm.run(module, "tlx_generic_probe"))
        if failed is None:
            raise RuntimeError("generic print: the probe pass did not fail, so no reproducer was printed")
        lines = err.splitlines()
        try:
            start = next(i for i, line in enumerate(lines) if "can only contain attributes with dialect" in line) + 1
            end = next(i for i in range(start, len(lines)) if lines[i].startswith("{-#"))
        except StopIteration:
            raise RuntimeError(f"generic print: no reproducer found in stderr:\n{err[:2000]}") from None
        generic = "\n".join(lines[start:end]).rstrip() + "\n"
        stripped, n = re.subn(rf"(, )?{PROBE_ATTR} = 1 : i32", "", generic)
        if n != 1:
            raise RuntimeError(f"generic print: probe attribute found {n} times")
        return stripped.replace(") {} : () -> ()", ") : () -> ()")

    def check_generic(self, text: str, generic: str) -> bool:
        """True when ``generic`` parses back to the same module as ``text`` (compared without locations)."""
        return self.print(generic, debug_info=False) == self.print(text, debug_info=False)


def corpus_coverage(stock: StockIR, records) -> dict:
    """Union over ``records`` of what :func:`scan_generic` finds, plus location kinds; each generic text is
    checked to parse back to its module (``RuntimeError`` otherwise)."""
    total = {
        "ops": set(),
        "attrs": set(),
        "types": set(),
        "builtin_types": set(),
        "builtin_attrs": set(),
        "named_attrs": set(),
        "locations": set(),
    }
    for record in records:
        generic = stock.generic(record.text)
        if not stock.check_generic(record.text, generic):
            raise RuntimeError(f"{record.id}: the generic form does not parse back to the same module")
        for kind, found in scan_generic(generic).items():
            total[kind] |= found
        total["locations"] |= scan_locations(record.text)
    return total


class StockParseError(RuntimeError):
    """Stock libtriton could not parse a module text; the message holds its diagnostics."""


def _capture_fd2(fn):
    """Run ``fn`` with file descriptor 2 (where MLIR's C++ diagnostics go) redirected to a file.

    Returns ``(result, exception or None, captured stderr text)``."""
    saved = os.dup(2)
    result, error = None, None
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            result = fn()
        except Exception as e:
            error = e
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        sink.seek(0)
        return result, error, sink.read().decode(errors="replace")


# ---------------------------------------------------------------------------------------------------------------------
# What the corpus contains: op names, attribute kinds, type kinds (scanned from the generic form)
# ---------------------------------------------------------------------------------------------------------------------

_OP_RE = re.compile(r'^\s*(?:%[^"=]*=\s*)?"([A-Za-z_][\w$.]*)"\(', re.MULTILINE)
_DIALECT_ATTR_RE = re.compile(r"#([A-Za-z_]\w*)\.([A-Za-z_][\w.]*)")
_DIALECT_TYPE_RE = re.compile(r"!([A-Za-z_]\w*)\.([A-Za-z_][\w.]*)")
_BUILTIN_TYPE_RE = re.compile(
    r"(?<![\w.!#%@\"])(tensor|vector|memref|tuple|complex|index|none|bf16|tf32|f16|f32|f64|f80|f128|"
    r"f8E\w+|f6E\w+|f4E\w+|i\d+|si\d+|ui\d+)(?=[<>,)\s}x:\]]|$)"
)
_BUILTIN_ATTR_RE = re.compile(r"(?<![\w.#!%@\"])(dense|dense_resource|array|affine_map|sparse|distinct)<")
_ENUM_ATTR_RE = re.compile(r"#[A-Za-z_]\w*\.[A-Za-z_]\w*<[a-z_, ]*>")  # #arith.overflow<none> etc.
_NAMED_ATTR_RE = re.compile(r'[{,]\s*"?([A-Za-z_]\w*\.[\w.-]+)"?(?:\s=\s|\s*(?=[,}]))')
_LOC_KINDS = {
    "UnknownLoc": re.compile(r"loc\(unknown\)"),
    "FileLineColLoc": re.compile(r'loc\("[^"]*":\d+:\d+\)'),
    "NameLoc": re.compile(r'loc\("[^"]*"\((?:#loc\d*|unknown|"[^"]*":\d+:\d+)\)\)'),
    "CallSiteLoc": re.compile(r"loc\(callsite\("),
    "FusedLoc": re.compile(r"loc\(fused"),
}


def scan_generic(generic: str) -> dict:
    """Op names, dialect attribute kinds, dialect type kinds, builtin type/attr kinds, and the names of the
    dialect-prefixed (discardable) attributes attached to ops, of one generic-form text."""
    body = _strip_strings(generic)
    return {
        "ops": set(_OP_RE.findall(generic)),
        "attrs": {f"#{d}.{n}" for d, n in _DIALECT_ATTR_RE.findall(body)},
        "types": {f"!{d}.{n}" for d, n in _DIALECT_TYPE_RE.findall(body)},
        "builtin_types": set(_BUILTIN_TYPE_RE.findall(_ENUM_ATTR_RE.sub("", body))),
        "builtin_attrs": set(_BUILTIN_ATTR_RE.findall(body)),
        "named_attrs": set(_NAMED_ATTR_RE.findall(generic)),
    }


def scan_locations(text: str) -> set:
    """Location kinds used by a module printed with debug info."""
    return {kind for kind, rx in _LOC_KINDS.items() if rx.search(text)}


def _strip_strings(text: str) -> str:
    """Blank the contents of string literals (inline asm, print prefixes, file names) before regex scanning."""
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
