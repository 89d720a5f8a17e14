"""Thread-block clusters on Triton 3.6: the ``ctas_per_cga`` launch option.

TLX's public API groups the CTAs of an ordinary grid into clusters with
``ctas_per_cga=(x, y, z)``, a compile/launch option like ``num_warps``
(``kernel[grid](..., ctas_per_cga=(2, 1, 1))`` or
``triton.Config(..., ctas_per_cga=(2, 1, 1))``). The grid still counts CTAs,
and each CTA keeps its own tensors: Triton's ``num_ctas`` (which splits one
program's tensors over a cluster) stays 1.

Triton 3.6 knows neither the option nor that meaning, so ``import tlx``
teaches it in four places, each kept small:

* :func:`parse_options`: the NVIDIA backend's options gain ``ctas_per_cga``
  (validated here, once); the option enters the compile cache key and the
  kernel's metadata. Kernels launched without it keep stock options.
* :func:`pack_metadata` and :class:`ClusterLauncher`: Triton 3.6's launcher forms
  clusters of ``num_ctas`` CTAs along x and multiplies grid x by ``num_ctas``;
  a TLX cluster launch hands it ``num_ctas = x`` and grid x divided by ``x``,
  which launches exactly the user's grid in clusters of ``x``.
* ``triton.Config`` accepts ``ctas_per_cga`` and passes it to the launch.

The compiler sees the cluster shape as the module attributes
``ttg.cluster-dim-x/y/z`` (:func:`annotate_module`), which the TLX checks read.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from . import knobs

OPTION = "ctas_per_cga"
#: Larger clusters need the non-portable cluster size attribute, which Triton 3.6's launcher sets for 16 only.
MAX_PORTABLE_CLUSTER = 8
MAX_CLUSTER = 16
MODULE_ATTRS = ("ttg.cluster-dim-x", "ttg.cluster-dim-y", "ttg.cluster-dim-z")


class ClusterLaunchError(ValueError):
    """A ``ctas_per_cga`` that cannot be compiled or launched, with the reason."""


def cluster_shape(value: Any, *, capability: int, num_ctas: int) -> tuple[int, int, int] | None:
    """Validate a ``ctas_per_cga`` option; ``None`` and ``(1, 1, 1)`` mean no cluster."""
    if value is None:
        return None
    shape = tuple(value) if isinstance(value, (tuple, list)) else ()
    if len(shape) != 3 or any(not isinstance(v, int) or isinstance(v, bool) for v in shape):
        raise ClusterLaunchError(f"ctas_per_cga must be a tuple of three ints (x, y, z), got {value!r}")
    if any(v < 1 for v in shape):
        raise ClusterLaunchError(f"ctas_per_cga={shape}: every dimension must be at least 1")
    if shape == (1, 1, 1):
        return None
    if capability < 90:
        raise ClusterLaunchError(
            f"ctas_per_cga={shape}: thread-block clusters need sm_90 or newer, not sm_{capability}"
        )
    if num_ctas != 1:
        raise ClusterLaunchError(
            f"ctas_per_cga={shape} with num_ctas={num_ctas}: ctas_per_cga groups the grid's CTAs into clusters, "
            "each with its own tensors; num_ctas splits one program over a cluster. Use one of them (num_ctas=1)."
        )
    if shape[1] != 1 or shape[2] != 1:
        raise ClusterLaunchError(
            f"ctas_per_cga={shape}: Triton 3.6's launcher forms clusters along x only; use "
            f"ctas_per_cga=({shape[0] * shape[1] * shape[2]}, 1, 1) and tlx.cluster_cta_rank() for the rank"
        )
    size = shape[0]
    if size > MAX_PORTABLE_CLUSTER and size != MAX_CLUSTER:
        raise ClusterLaunchError(
            f"ctas_per_cga={shape}: a cluster holds at most {MAX_PORTABLE_CLUSTER} CTAs, or {MAX_CLUSTER} "
            f"(non-portable, Hopper), not {size}"
        )
    return shape


def _options_class(base: type) -> type:
    """``base`` (CUDAOptions) with a ``ctas_per_cga`` field and the TLX compiler's knobs
    (:mod:`tlx.compiler.knobs`); ``hash()``, so the compile cache key, and metadata include them."""
    knob_fields = [
        (name, type(default), dataclasses.field(default=default)) for name, default in knobs.DEFAULTS.items()
    ]
    return dataclasses.make_dataclass(
        "TLXOptions", [(OPTION, tuple, dataclasses.field(default=None)), *knob_fields], bases=(base,), frozen=True
    )


def parse_options(stock_parse: Any, options_class: type) -> Any:
    @functools.wraps(stock_parse)
    def parse(self, opts: dict) -> Any:
        requested = opts.get(OPTION)
        options = stock_parse(self, {k: v for k, v in opts.items() if k != OPTION})
        settings = knobs.from_environment()
        if requested is None and settings == knobs.DEFAULTS:
            return options
        shape = None
        if requested is not None:
            capability = int(str(options.arch).removeprefix("sm").rstrip("a"))
            shape = cluster_shape(requested, capability=capability, num_ctas=options.num_ctas)
        fields = {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}
        return options_class(**fields, ctas_per_cga=shape, **settings)

    return parse


def cluster_x(metadata: Any) -> int:
    """CTAs per cluster (along x) of a compiled kernel's metadata, 1 without a cluster."""
    shape = getattr(metadata, OPTION, None)
    return int(shape[0]) if shape else 1


def pack_metadata(stock_pack: Any) -> Any:
    @functools.wraps(stock_pack)
    def pack(self, metadata: Any) -> Any:
        packed = stock_pack(self, metadata)
        size = cluster_x(metadata)
        if size == 1:
            return packed
        num_warps, _num_ctas, *rest = packed
        return (num_warps, size, *rest)

    return pack


def launcher_class(stock_launcher: type) -> type:
    class ClusterLauncher(stock_launcher):
        """Triton 3.6's CUDA launcher, launching grid x as ``grid x / cluster x`` clusters of ``cluster x`` CTAs.

        A kernel without a cluster gets the stock launcher itself, so TLX adds nothing to its launches."""

        def __new__(cls, src: Any, metadata: Any) -> Any:
            if cluster_x(metadata) == 1:
                return stock_launcher(src, metadata)
            return super().__new__(cls)

        def __init__(self, src: Any, metadata: Any) -> None:
            super().__init__(src, metadata)
            self.cluster_x = cluster_x(metadata)
            self.num_ctas = self.cluster_x  # scratch is allocated per launched CTA: grid x / cluster x * this

        def __call__(self, gridX, gridY, gridZ, stream, function, *args):
            size = self.cluster_x
            if gridX % size:
                raise ClusterLaunchError(
                    f"ctas_per_cga=({size}, 1, 1): grid x ({gridX}) must be a multiple of the cluster's {size} CTAs"
                )
            return super().__call__(gridX // size, gridY, gridZ, stream, function, *args)

    ClusterLauncher.__qualname__ = ClusterLauncher.__name__ = f"Cluster{stock_launcher.__name__}"
    return ClusterLauncher


def _config_init(stock_init: Any) -> Any:
    @functools.wraps(stock_init)
    def init(self, *args, ctas_per_cga=None, **kwargs) -> None:
        stock_init(self, *args, **kwargs)
        self.ctas_per_cga = ctas_per_cga

    return init


def _config_all_kwargs(stock_all_kwargs: Any) -> Any:
    @functools.wraps(stock_all_kwargs)
    def all_kwargs(self) -> dict:
        result = stock_all_kwargs(self)
        shape = getattr(self, OPTION, None)
        if shape is not None:
            result[OPTION] = tuple(shape)
        return result

    return all_kwargs


def _config_str(stock_str: Any) -> Any:
    @functools.wraps(stock_str)
    def text(self) -> str:
        shape = getattr(self, OPTION, None)
        return stock_str(self) + (f", ctas_per_cga: {tuple(shape)}" if shape is not None else "")

    return text


def _compiled_kernel_init(stock_init: Any) -> Any:
    @functools.wraps(stock_init)
    def init(self, *args, **kwargs) -> None:
        stock_init(self, *args, **kwargs)
        shape = getattr(self.metadata, OPTION, None)
        if shape is not None and not isinstance(shape, tuple):  # JSON gives a list; the public API a tuple
            self.metadata = self.metadata._replace(**{OPTION: tuple(shape)})

    return init


def annotate_module(module: Any, options: Any) -> None:
    """Give a TTGIR module the cluster shape the TLX checks read (``ttg.cluster-dim-x/y/z``)."""
    shape = getattr(options, OPTION, None)
    if not shape:
        return
    from triton._C.libtriton import ir

    builder = ir.builder(module.context)
    for name, size in zip(MODULE_ATTRS, shape, strict=True):
        module.set_attr(name, builder.get_int32_attr(size))


_INSTALLED = "__tlx_clusters__"


def install() -> None:
    """Teach Triton 3.6 ``ctas_per_cga`` (idempotent)."""
    import triton
    from triton.backends.nvidia import compiler as nvidia_compiler
    from triton.backends.nvidia import driver as nvidia_driver
    from triton.compiler import compiler as triton_compiler

    backend = nvidia_compiler.CUDABackend
    if getattr(backend, _INSTALLED, False):
        return
    options_class = _options_class(nvidia_compiler.CUDAOptions)
    backend.parse_options = parse_options(backend.parse_options, options_class)
    backend.pack_metadata = pack_metadata(backend.pack_metadata)
    launcher = launcher_class(nvidia_driver.CudaLauncher)
    nvidia_driver.CudaLauncher = launcher  # drivers created from now on
    for created in (getattr(triton.runtime.driver, "_default", None), getattr(triton.runtime.driver, "_active", None)):
        if isinstance(created, nvidia_driver.CudaDriver):  # a driver made before `import tlx`
            created.launcher_cls = launcher
    config = triton.Config
    config.__init__ = _config_init(config.__init__)
    config.all_kwargs = _config_all_kwargs(config.all_kwargs)
    config.__str__ = _config_str(config.__str__)
    kernel = triton_compiler.CompiledKernel
    kernel.__init__ = _compiled_kernel_init(kernel.__init__)
    setattr(backend, _INSTALLED, True)
