"""The stage hook: TLX kernels get the TLX TTGIR stage, every other kernel the stock one.

``import tlx`` installs :func:`stages_hook` as
``triton.knobs.runtime.add_stages_inspection_hook``; Triton 3.6's NVIDIA
backend calls it for every compilation after filling the stage table. The
hook wraps the ``ttgir`` stage: when the TTIR holds TLX carriers it runs

1. stock ``convert-triton-to-tritongpu`` (stock ``make_ttgir``'s arguments),
2. the module printed with locations -> ``tlx._C.run_pipeline(PIPELINE)``,
3. the result parsed back by libtriton in the same context,
4. the stock TTGIR passes for hand-pipelined kernels (``tlx.compiler.ttgir``), one of them bracketed by TLX
   passes (the module goes through text again there),
5. where the kernel pins register layouts or asserts them, the pins applied again and the assertions
   checked (``tlx.compiler.layout_pins``);

otherwise it calls the stock stage unchanged. After stock ``make_llir``, a TLX kernel's two-CTA MMAs lose
the cluster barrier stock Triton puts before each, and the task barriers stock Membar puts right after a
named barrier wait go (``tlx.compiler.llir``). A stock step failing on what TLX produced (the parser, the
TTGIR passes, ``make_llir``) is reported at the kernel line its diagnostics name
(``tlx.compiler.stock_errors``), and so is ptxas rejecting the PTX (``tlx.compiler.ptxas``). A hook that was
installed before TLX keeps running, after TLX's.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from typing import Any

from triton import knobs
from triton._C.libtriton import ir, passes
from triton.backends.compiler import Language
from triton.runtime.errors import PTXASError

from .. import _C
from . import clusters, fork_api, layout_pins, pipeline
from . import knobs as tlx_knobs
from .dump import Dumper, sass_of
from .errors import TLXCompilationError, TLXOutOfResources
from .llir import TwoCTABarrierError, drop_task_barriers_after_named_barrier_waits, drop_two_cta_mma_cluster_barriers
from .ptxas import ptxas_failure, without_reproducer
from .stock_errors import captured_stderr, stock_failure
from .ttgir import Bracketed, TTGIRPass, add_ttgir_passes, ttgir_steps

_previous_hook: Any = None


def has_carriers(module: Any) -> bool:
    """Whether a TTIR module holds TLX carriers (ops with a ``tlx.op`` attribute)."""
    found = False

    def visit(op: Any) -> None:
        nonlocal found
        if not found and op.get_name() in ("tt.call", "tt.elementwise_inline_asm") and op.get_str_attr("tlx.op"):
            found = True

    module.walk(visit)
    return found


def parse_module(text: str, context: Any, kernel: str) -> Any:
    """Parse TTGIR text with libtriton in ``context`` (it reads files only)."""
    fd, path = tempfile.mkstemp(prefix=f"tlx-{kernel}-", suffix=".ttgir")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    try:
        module = ir.parse_mlir_module(path, context)
    except RuntimeError as error:
        raise TLXCompilationError(
            f"TLX could not compile kernel `{kernel}`: Triton cannot parse the TTGIR the TLX pipeline "
            f"produced (kept in {path}):\n{error}",
            kernel=kernel,
        ) from error
    os.unlink(path)
    module.context = context  # the module keeps its context alive, as triton.compiler.compiler.parse does
    return module


class TLXStages:
    """The stages of one compilation (Triton calls the hook once per compile)."""

    def __init__(self, stages: dict, options: Any, capability: int) -> None:
        self.options = options
        self.capability = capability
        self.stock_ttgir = stages["ttgir"]
        self.dumper: Dumper | None = None
        stages["ttgir"] = self.ttgir
        self.kernel: str | None = None  # set when the kernel takes the TLX path
        self.defined_at: str | None = None
        stages["llir"] = self._checking_shared_memory(self._rewriting_stock_barriers(stages["llir"]))
        stages["cubin"] = self._locating_ptxas_errors(stages["cubin"])
        if os.environ.get("TLX_DUMP_DIR"):
            for stage in ("llir", "ptx"):
                stages[stage] = self._dumping(stage, stages[stage])
            stages["cubin"] = self._dumping_sass(stages["cubin"])

    def ttgir(self, module: Any, metadata: dict) -> Any:
        if not has_carriers(module):
            return self.stock_ttgir(module, metadata)
        return self.tlx_ttgir(module, metadata)

    def tlx_ttgir(self, module: Any, metadata: dict) -> Any:
        options, capability = self.options, self.capability
        kernel = self.kernel = module.get_entry_func_name()
        dumper = self.dumper = Dumper.from_env(kernel)
        if dumper:
            dumper.write("ttir", module.str())
        try:
            if options.maxnreg is not None:  # as stock make_ttgir does
                module.set_attr("ttg.maxnreg", ir.builder(module.context).get_int32_attr(options.maxnreg))
            pm = ir.pass_manager(module.context)
            pm.enable_debug()
            passes.ttir.add_convert_to_ttgpuir(pm, f"cuda:{capability}", options.num_warps, 32, options.num_ctas)
            pm.run(module, "tlx_convert_to_ttgpuir")
            clusters.annotate_module(module, options)
            tlx_knobs.annotate_module(module, options)
            converted = module.str()  # with locations: the C++ side reports at the user's lines
            self.defined_at = pipeline.kernel_location(converted)
            if dumper:
                dumper.write("converted", converted)
            lowered = pipeline.run(
                converted,
                kernel=kernel,
                options=options,
                source_name=f"{kernel}.ttgir-converted.mlir",
                on_raised=(lambda text: dumper.write("raised", text)) if dumper else None,
            )
            if dumper:
                dumper.write("lowered", lowered)
            result = self._stock("parser", parse_module, lowered, module.context, kernel)
            for step in ttgir_steps(capability):
                result = self._run_ttgir_step(step, result, module.context)
            result = layout_pins.finalize(result, kernel, lambda text: parse_module(text, module.context, kernel))
        except Exception as error:
            if dumper:
                dumper.write("error", f"{type(error).__name__}: {error}\n")
            raise
        metadata["tensordesc_meta"] = result.get_tensordesc_metadata()
        if dumper:
            dumper.write("ttgir", result.str())
        return result

    def _run_ttgir_step(self, step: list[TTGIRPass] | Bracketed, module: Any, context: Any) -> Any:
        """``module`` after one step of ``ttgir_steps``: stock passes, or a stock pass between two TLX passes."""
        if isinstance(step, Bracketed):
            text = module.str()
            if not step.needed(text):
                return module
            source_name = f"{self.kernel}.ttgir.mlir"
            text = pipeline.run_passes(
                text, f"builtin.module({step.before})", kernel=self.kernel, source_name=source_name
            )
            module = self._stock("parser", parse_module, text, context, self.kernel)
            module = self._run_ttgir_step([step.stock], module, context)
            text = pipeline.run_passes(
                module.str(), f"builtin.module({step.after})", kernel=self.kernel, source_name=source_name
            )
            return self._stock("parser", parse_module, text, context, self.kernel)
        pm = ir.pass_manager(module.context)
        pm.enable_debug()
        add_ttgir_passes(pm, step, self.options, self.capability)
        self._stock("TTGIR passes", pm.run, module, "tlx_make_ttgir")
        return module

    def _stock(self, stage: str, step: Any, *args: Any) -> Any:
        """A stock Triton step on what the TLX pipeline produced: a failure is reported at the kernel line
        stock names (``tlx.compiler.stock_errors``); what it prints otherwise passes through."""
        failure = None
        with captured_stderr() as printed:
            try:
                result = step(*args)
            except (RuntimeError, TLXCompilationError) as error:
                failure = error
        located = failure and stock_failure(self.kernel, stage, printed.text, self.defined_at)
        if not located:
            sys.stderr.write(printed.text)
            if failure:
                raise failure
            return result
        raise located from failure

    def _rewriting_stock_barriers(self, make_llir: Any) -> Any:
        """After stock make_llir: a TLX kernel's two-CTA MMAs lose the cluster barrier stock Triton 3.6 puts
        before each (the kernel orders the CTA pair with mbarriers), and the task barriers stock Membar puts
        right after a named barrier wait go (``tlx.compiler.llir``)."""

        def run(module: Any, metadata: dict) -> Any:
            if self.kernel is None:
                return make_llir(module, metadata)
            result = self._stock("lowering to LLVM", make_llir, module, metadata)
            try:
                return drop_task_barriers_after_named_barrier_waits(drop_two_cta_mma_cluster_barriers(result))
            except TwoCTABarrierError as error:
                where = f"{self.defined_at}: " if self.defined_at else ""
                raise TLXCompilationError(
                    f"{where}TLX could not compile kernel `{self.kernel}`: {error} (internal compiler error)",
                    kernel=self.kernel,
                    diagnostics=[],
                ) from error

        return run

    def _checking_shared_memory(self, make_llir: Any) -> Any:
        """After Triton's own shared-memory allocation (make_llir): a TLX kernel whose buffers, mbarriers and
        what stock Triton allocates itself exceed what a CTA may use fails here, with the kernel named, instead
        of at launch (tlx-check-shared-memory has checked the TLX allocations alone, at their lines)."""

        def run(module: Any, metadata: dict) -> Any:
            result = make_llir(module, metadata)
            target = f"cuda:{self.capability}"
            limit = _C.shared_memory_limit(target)
            shared = metadata.get("shared", 0)
            if self.kernel is not None and limit is not None and shared > limit:
                where = f"{self.defined_at}: " if self.defined_at else ""
                raise TLXOutOfResources(
                    f"{where}TLX kernel `{self.kernel}` needs {shared} bytes of shared memory per CTA (its TLX buffers "
                    f"and mbarriers plus what stock Triton allocates itself: staging tiles of descriptor stores "
                    f"such as `desc.store`, scratch for layout conversions and reductions); a CTA on "
                    f"{target} has at most {limit}: use fewer or smaller buffers",
                    kernel=self.kernel,
                    required=shared,
                    limit=limit,
                )
            return result

        return run

    def _locating_ptxas_errors(self, make_cubin: Any) -> Any:
        """ptxas rejecting a TLX kernel's PTX reports the kernel line the instruction came from
        (``tlx.compiler.ptxas``) instead of stock Triton's reproducer."""

        def run(ptx: str, metadata: dict) -> Any:
            if self.kernel is None:
                return make_cubin(ptx, metadata)
            # Stock make_cubin prints the whole PTX when ptxas fails; the error names the file it is in.
            printed = io.StringIO()
            try:
                with contextlib.redirect_stdout(printed):
                    return make_cubin(ptx, metadata)
            except PTXASError as error:
                raise ptxas_failure(self.kernel, ptx, error, self.defined_at) from error
            finally:
                sys.stdout.write(without_reproducer(printed.getvalue()))

        return run

    def _dumping(self, stage: str, compile_stage: Any) -> Any:
        def run(module: Any, metadata: dict) -> Any:
            result = compile_stage(module, metadata)
            if self.dumper:
                self.dumper.write(stage, result)
            return result

        return run

    def _dumping_sass(self, compile_cubin: Any) -> Any:
        def run(module: Any, metadata: dict) -> Any:
            cubin = compile_cubin(module, metadata)
            if self.dumper:
                with contextlib.suppress(Exception):  # no or a failing cuobjdump: the SASS dump is optional
                    self.dumper.write("sass", sass_of(cubin))
            return cubin

        return run


def stages_hook(backend: Any, stages: dict, options: Any, language: Any, capability: Any) -> None:
    """``knobs.runtime.add_stages_inspection_hook``: install the TLX ttgir stage for CUDA Triton kernels."""
    if language == Language.TRITON and getattr(backend.target, "backend", None) == "cuda" and "ttgir" in stages:
        TLXStages(stages, options, capability)
    if _previous_hook is not None:
        _previous_hook(backend, stages, options, language, capability)


stages_hook.__tlx_hook__ = True


def install() -> None:
    """Install :func:`stages_hook` (idempotent; a hook installed before is chained after TLX's)."""
    global _previous_hook
    clusters.install()
    fork_api.install()
    current = knobs.runtime.add_stages_inspection_hook
    if getattr(current, "__tlx_hook__", False):
        return
    _previous_hook = current
    knobs.runtime.add_stages_inspection_hook = stages_hook


def installed() -> bool:
    return getattr(knobs.runtime.add_stages_inspection_hook, "__tlx_hook__", False)
