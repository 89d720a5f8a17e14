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
  clusters of ``num_ctas`` CTAs along x and multiplies grid x by ``num_ctas``.
  A TLX cluster kernel's launcher is built from that launcher's C source with
  the cluster's x, y and z written in (:func:`cluster_launcher_source`), and
  gets the user's grid divided by them: it launches exactly the user's grid,
  in clusters of x * y * z CTAs. ``num_ctas`` becomes x * y * z, which keeps
  Triton's scratch sizes and its non-portable 16-CTA setting right.
* ``triton.Config`` accepts ``ctas_per_cga`` and passes it to the launch.

The compiler sees the cluster shape as the module attributes
``ttg.cluster-dim-x/y/z`` (:func:`annotate_module`), which the TLX checks read.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
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
    size = shape[0] * shape[1] * shape[2]
    if size > MAX_PORTABLE_CLUSTER and size != MAX_CLUSTER:
        raise ClusterLaunchError(
            f"ctas_per_cga={shape}: a cluster holds at most {MAX_PORTABLE_CLUSTER} CTAs, or {MAX_CLUSTER} "
            f"(non-portable, Hopper), not {size} (x * y * z)"
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
        # A launch naming `ctas_per_cga=None` (the public GEMMs' explicit-config path) needs the field:
        # Triton refuses a launch keyword its options lack.
        if OPTION not in opts and settings == knobs.DEFAULTS:
            return options
        shape = None
        if requested is not None:
            capability = int(str(options.arch).removeprefix("sm").rstrip("a"))
            shape = cluster_shape(requested, capability=capability, num_ctas=options.num_ctas)
        fields = {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}
        return options_class(**fields, ctas_per_cga=shape, **settings)

    return parse


def cluster_dims(metadata: Any) -> tuple[int, int, int]:
    """(x, y, z) CTAs per cluster of a compiled kernel's metadata, (1, 1, 1) without a cluster."""
    shape = getattr(metadata, OPTION, None)
    return (int(shape[0]), int(shape[1]), int(shape[2])) if shape else (1, 1, 1)


def cluster_size(metadata: Any) -> int:
    """CTAs per cluster of a compiled kernel's metadata, 1 without a cluster."""
    x, y, z = cluster_dims(metadata)
    return x * y * z


def pack_metadata(stock_pack: Any) -> Any:
    @functools.wraps(stock_pack)
    def pack(self, metadata: Any) -> Any:
        packed = stock_pack(self, metadata)
        size = cluster_size(metadata)
        if size == 1:
            return packed
        num_warps, _num_ctas, *rest = packed
        return (num_warps, size, *rest)

    return pack


#: Lines of Triton 3.6's launcher source (``make_launcher``) that fix clusters along x, and what a TLX
#: cluster launch writes in their place ({x}, {y}, {z}: the cluster's dimensions).
_LAUNCHER_EDITS = (
    (
        "config.gridDimX = gridX * num_ctas;\n    config.gridDimY = gridY;\n    config.gridDimZ = gridZ;",
        "config.gridDimX = gridX * {x};\n    config.gridDimY = gridY * {y};\n    config.gridDimZ = gridZ * {z};",
    ),
    (
        "clusterAttr.value.clusterDim.x = num_ctas;\n      clusterAttr.value.clusterDim.y = 1;\n"
        "      clusterAttr.value.clusterDim.z = 1;",
        "clusterAttr.value.clusterDim.x = {x};\n      clusterAttr.value.clusterDim.y = {y};\n"
        "      clusterAttr.value.clusterDim.z = {z};",
    ),
)


def cluster_launcher_source(source: str, dims: tuple[int, int, int]) -> str:
    """Triton 3.6's launcher C source launching clusters of ``dims`` (x, y, z) CTAs, each grid dimension
    multiplied by the cluster's along it (the launcher is called with the grid divided by them)."""
    x, y, z = dims
    for stock, ours in _LAUNCHER_EDITS:
        if source.count(stock) != 1:
            raise ClusterLaunchError(
                "ctas_per_cga: this Triton's launcher source is not the one TLX edits for cluster launches "
                "(Triton 3.6.0's); install triton==3.6.0"
            )
        source = source.replace(stock, ours.format(x=x, y=y, z=z))
    return source


#: The cluster of the launcher this thread is building (``ClusterLauncher.__init__``), read by the
#: driver's ``make_launcher`` once :func:`install` has wrapped it.
_building = threading.local()


def make_launcher(stock_make: Any) -> Any:
    @functools.wraps(stock_make)
    def make(*args: Any) -> str:
        source = stock_make(*args)
        dims = getattr(_building, "dims", None)
        return source if dims is None else cluster_launcher_source(source, dims)

    return make


def launcher_class(stock_launcher: type) -> type:
    class ClusterLauncher(stock_launcher):
        """Triton 3.6's CUDA launcher for a cluster kernel: its C source launches clusters of (x, y, z) CTAs
        (:func:`cluster_launcher_source`), and each call divides the user's grid by them.

        A kernel without a cluster gets the stock launcher itself, so TLX adds nothing to its launches."""

        def __new__(cls, src: Any, metadata: Any) -> Any:
            if cluster_size(metadata) == 1:
                return stock_launcher(src, metadata)
            return super().__new__(cls)

        def __init__(self, src: Any, metadata: Any) -> None:
            self.cluster_dims = cluster_dims(metadata)
            _building.dims = self.cluster_dims  # the stock constructor's make_launcher edits its source
            try:
                super().__init__(src, metadata)
            finally:
                _building.dims = None
            self.num_ctas = cluster_size(metadata)  # scratch is allocated per launched CTA: grid / size * this

        def __call__(self, gridX, gridY, gridZ, stream, function, *args):
            grid = (gridX, gridY, gridZ)
            for axis, (extent, size) in enumerate(zip(grid, self.cluster_dims, strict=True)):
                if extent % size:
                    raise ClusterLaunchError(
                        f"ctas_per_cga={self.cluster_dims}: grid {'xyz'[axis]} ({extent}) must be a multiple of "
                        f"the cluster's {size} CTAs along it"
                    )
            x, y, z = self.cluster_dims
            return super().__call__(gridX // x, gridY // y, gridZ // z, stream, function, *args)

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
    nvidia_driver.make_launcher = make_launcher(nvidia_driver.make_launcher)
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
