"""`triton.autotune`, `kernel.warmup`, `kernel[grid]` and `triton.testing.do_bench` with a TLX kernel, on the CPU.

What runs unchanged, stock Triton code all of it, with a TLX kernel:

* each `triton.Config` compiles (`triton.compile` with the config's constexprs and options) through the TLX
  pipeline to its own sm_90 cubin;
* with no GPU, `kernel.warmup`, `kernel[grid](...)` and `triton.testing.do_bench` fail where stock Triton looks
  for a driver, before any TLX code runs;
* with a CPU stand-in for the CUDA driver (`CPUDriver` below: device properties, cubin loading, launch,
  events), the whole Python side of autotuning and launching: `Autotuner.warmup` (`prune_configs`:
  `early_config_prune`, `perf_model`, `top_k`) compiling each config through the JIT (specialization, TLX
  cache key, TLX pipeline), `Autotuner.run` (tuning key from `key=` and argument dtypes, one benchmark per
  config with stock `triton.testing.do_bench`, the fastest config kept and reused), `CompiledKernel`
  loading and launching with the bound arguments (host `TensorDescriptor` included).

What the stand-in replaces, and so what is NOT covered here: the CUDA driver itself (loading the cubin,
the launch, CUDA events: do_bench's times are the stand-in's virtual clock, a fixed cost per launch and
config) and anything the GPU would do. The GPU run of TLX kernels is `tlx.tools.gpu_check` (docs/results).
"""

import traceback
from pathlib import Path

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.runtime.driver import driver
from triton.tools.tensor_descriptor import TensorDescriptor

import tlx
from tlx.tutorials import compile_kernel

SM90 = GPUTarget("cuda", 90, 32)
SM100 = GPUTarget("cuda", 100, 32)
TLX_DIR = Path(tlx.__file__).resolve().parent


def tma_ring(a_desc, Y, K, NUM_STAGES: tl.constexpr):
    """Sum K 64x64 tiles of A, fed by TMA through a ring of NUM_STAGES buffers."""
    tiles = tlx.local_alloc((64, 64), tl.float16, NUM_STAGES)
    full = tlx.alloc_barriers(NUM_STAGES)
    acc = tl.zeros((64, 64), tl.float32)
    for k in range(K):
        s = k % NUM_STAGES
        tlx.barrier_expect_bytes(full[s], 64 * 64 * 2)
        tlx.async_descriptor_load(a_desc, tiles[s], [0, k * 64], full[s])
        tlx.barrier_wait(full[s], (k // NUM_STAGES) & 1)
        acc += tlx.local_load(tiles[s]).to(tl.float32)
    offs = tl.arange(0, 64)
    tl.store(Y + offs[:, None] * 64 + offs[None, :], acc)


CONFIGS = [triton.Config({"NUM_STAGES": 2}, num_warps=4), triton.Config({"NUM_STAGES": 3}, num_warps=8)]
ring = triton.autotune(configs=CONFIGS, key=["K"])(triton.jit(tma_ring))


def _small_k_first(configs, named_args, **kwargs):
    """early_config_prune: a ring deeper than the K loop is pointless."""
    return [c for c in configs if c.kwargs["NUM_STAGES"] <= named_args["K"]]


def _model(**kwargs):
    """perf_model: pretend fewer stages are faster."""
    return kwargs["NUM_STAGES"]


PRUNED_CONFIGS = [
    triton.Config({"NUM_STAGES": 64}, num_warps=4),  # dropped by early_config_prune (K = 16)
    triton.Config({"NUM_STAGES": 4}, num_warps=4),  # dropped by perf_model + top_k
    triton.Config({"NUM_STAGES": 3}, num_warps=8),
    triton.Config({"NUM_STAGES": 2}, num_warps=4),
]
pruned_ring = triton.autotune(
    configs=PRUNED_CONFIGS,
    key=["K"],
    prune_configs_by={"early_config_prune": _small_k_first, "perf_model": _model, "top_k": 2},
)(triton.jit(tma_ring))


# ---------------------------------------------------------------- host-side stand-ins


class _Dtype:
    """What Triton reads off a torch dtype: its name (`torch.float16`) and item size."""

    def __init__(self, name, itemsize):
        self.name, self.itemsize = name, itemsize

    def __str__(self):
        return f"torch.{self.name}"


class FakeTensor:
    """A device tensor as Triton's specializer and TensorDescriptor see one (no torch on this machine)."""

    def __init__(self, dtype, shape, address=0x7F0000000000):
        self.dtype = {"float16": _Dtype("float16", 2), "float32": _Dtype("float32", 4)}[dtype]
        self.shape = list(shape)
        self.address = address

    def data_ptr(self):
        return self.address

    def stride(self):
        strides = [1]
        for size in reversed(self.shape[1:]):
            strides.insert(0, strides[0] * size)
        return tuple(strides)


class NoGPUError(RuntimeError):
    pass


class CPUDriver:
    """A stand-in for Triton's CUDA driver on a machine without a GPU (an H200 as far as Triton asks).

    Loading checks that it got a cubin; a launch is recorded and advances a virtual clock by `cost(metadata)`
    ms; CUDA events read that clock, so stock `triton.testing.do_bench` measures the stand-in's costs.
    `launch=False` refuses launches instead (what a machine without a GPU does, one step later)."""

    def __init__(self, cost=lambda metadata: 1.0, launch=True, target=SM90):
        self.cost, self.launch, self.target = cost, launch, target
        self.clock = 0.0
        self.launches = []
        self.loaded = []
        driver_ = self

        class Utils:
            @staticmethod
            def get_device_properties(device):
                return {"max_shared_mem": 232448, "multiprocessor_count": 132, "max_num_regs": 65536, "warpSize": 32}

            @staticmethod
            def load_binary(name, cubin, shared, device):
                assert cubin[:4] == b"\x7fELF", "the launcher was handed something else than a cubin"
                driver_.loaded.append(name)
                return f"module:{name}", f"function:{name}", 32, 0, 1024

        class Event:
            def __init__(self, enable_timing=True):
                self.time = None

            def record(self):
                self.time = driver_.clock

            def elapsed_time(self, end):
                return end.time - self.time

        class DeviceInterface:
            pass

        DeviceInterface.Event = Event
        DeviceInterface.synchronize = staticmethod(lambda: None)
        self.utils = Utils()
        self.device_interface = DeviceInterface()

    def is_active(self):
        return True

    def get_current_device(self):
        return 0

    def get_current_stream(self, device=None):
        return 0

    def get_current_target(self):
        return self.target

    def get_device_interface(self):
        return self.device_interface

    def get_empty_cache_for_benchmark(self):
        return object()

    def clear_cache(self, cache):
        pass

    def get_benchmarker(self):
        return triton.testing.do_bench

    def launcher_cls(self, src, metadata):
        def launch(gx, gy, gz, stream, function, packed_metadata, launch_metadata, enter, exit_, *args):
            if not self.launch:
                raise NoGPUError(f"no GPU to launch {function}")
            self.clock += self.cost(metadata)
            self.launches.append({"grid": (gx, gy, gz), "function": function, "metadata": metadata, "args": args})

        return launch


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """Fresh Triton cache, no driver chosen yet, and autotuners and JIT functions with nothing remembered."""
    monkeypatch.setattr(triton.knobs.cache, "dir", str(tmp_path / "cache"))
    monkeypatch.setattr(driver, "_active", None)
    for tuner in (ring, pruned_ring, oversized_tmem_ring):
        tuner.cache.clear()
        tuner.__dict__.pop("do_bench", None)  # a cached_property: the benchmarker of the driver it first saw
        tuner.fn.device_caches.clear()


@pytest.fixture
def cpu_driver(fresh, monkeypatch):
    stand_in = CPUDriver(cost=lambda metadata: {4: 2.0, 8: 1.0}[metadata.num_warps])
    monkeypatch.setattr(driver, "_active", stand_in)
    return stand_in


def arguments(k=16):
    a = FakeTensor("float16", (64, 64 * k))
    return TensorDescriptor(a, a.shape, list(a.stride()), [64, 64]), FakeTensor("float32", (64, 64)), k


SIGNATURE = {"a_desc": "tensordesc<fp16[64, 64]>", "Y": "*fp32", "K": "i32", "NUM_STAGES": "constexpr"}


def check_tlx_compiled(kernel, num_stages, num_warps):
    ttgir = kernel.asm["ttgir"]
    assert kernel.asm["cubin"][:4] == b"\x7fELF"
    assert "tlx." not in ttgir, "every carrier was lowered"
    assert f"!ttg.memdesc<{num_stages}x64x64xf16" in ttgir, "the ring has NUM_STAGES buffers"
    assert f'"ttg.num-warps" = {num_warps}' in ttgir
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in kernel.asm["ptx"]


# ---------------------------------------------------------------- tests


@pytest.mark.needs_tlx_passes
def test_each_autotune_config_compiles_through_tlx_to_its_own_cubin(fresh):
    kernels = []
    for config in ring.configs:
        stages = config.kwargs["NUM_STAGES"]
        kernel = compile_kernel(
            ring.fn, SIGNATURE, {"NUM_STAGES": stages}, num_warps=config.num_warps, num_stages=config.num_stages
        )
        check_tlx_compiled(kernel, config.kwargs["NUM_STAGES"], config.num_warps)
        kernels.append(kernel)
    assert len({k.hash for k in kernels}) == len({k.asm["cubin"] for k in kernels}) == 2


def _tlx_frames(error):
    frames = traceback.extract_tb(error.__traceback__)
    return [f"{f.filename}:{f.lineno}" for f in frames if Path(f.filename).resolve().is_relative_to(TLX_DIR)]


def _gpu_driver_present() -> bool:
    try:
        driver.default  # noqa: B018 - creates Triton's driver: raises where there is none
    except RuntimeError:
        return False
    return True


def test_without_a_gpu_launching_fails_for_the_missing_driver_only(fresh):
    if _gpu_driver_present():
        pytest.skip("a GPU driver is present: launches do not fail here")
    desc, y, k = arguments()
    attempts = {
        "warmup": lambda: ring.warmup(desc, y, k, grid=(1,)),
        "kernel[grid]": lambda: ring[(1,)](desc, y, k),
        "jit kernel[grid]": lambda: ring.fn[(1,)](desc, y, k, NUM_STAGES=2),
        "do_bench": lambda: triton.testing.do_bench(lambda: ring[(1,)](desc, y, k)),
    }
    for what, attempt in attempts.items():
        with pytest.raises(RuntimeError, match=r"0 active drivers") as info:
            attempt()
        assert not _tlx_frames(info.value), (what, _tlx_frames(info.value))
        assert info.value.__traceback__ is not None


@pytest.mark.needs_tlx_passes
def test_autotuner_warmup_compiles_every_config_through_the_jit_and_tlx(cpu_driver, monkeypatch):
    kernels = ring.warmup(*arguments(), grid=(1,))
    for kernel, config in zip(kernels, CONFIGS, strict=True):
        check_tlx_compiled(kernel, config.kwargs["NUM_STAGES"], config.num_warps)
    assert len({k.hash for k in kernels}) == 2
    assert not cpu_driver.launches and not cpu_driver.loaded, "warmup compiles only"
    # the JIT's kernel cache now holds both: the next warmup compiles nothing
    events = []
    monkeypatch.setattr(triton.knobs.compilation, "listener", lambda **kw: events.append(kw))
    again = ring.warmup(*arguments(), grid=(1,))
    assert [k.hash for k in again] == [k.hash for k in kernels] and not events


@pytest.mark.needs_tlx_passes
def test_autotuner_benchmarks_each_config_with_do_bench_and_keeps_the_fastest(cpu_driver):
    desc, y, k = arguments()
    ring[(1,)](desc, y, k)
    key = (16, "torch.float32")  # `key=["K"]`, then the dtypes of the arguments that have one (Y)
    assert list(ring.cache) == [key]
    best = ring.cache[key]
    assert best is CONFIGS[1] and ring.best_config is best, "8 warps cost 1 ms a launch, 4 warps 2 ms"
    timings = {config.kwargs["NUM_STAGES"]: times[0] for config, times in ring.configs_timings.items()}
    assert timings == {2: 2.0, 3: 1.0}, "do_bench's median, on the stand-in's clock"
    # do_bench launched each config many times; the last launch is the tuned kernel with the caller's arguments
    warps = [launch["metadata"].num_warps for launch in cpu_driver.launches]
    assert warps.count(4) > 10 and warps.count(8) > 10 and warps[-1] == 8
    last = cpu_driver.launches[-1]
    assert last["grid"] == (1, 1, 1) and last["args"] == (desc, y, k, 3)  # every bound argument, constexprs too
    assert len(set(cpu_driver.loaded)) == 1 and len(cpu_driver.loaded) == 2, "each config's cubin loaded once"
    jit_kernels = list(ring.fn.device_caches[0][0].values())
    for kernel in jit_kernels:
        stages = 3 if kernel.metadata.num_warps == 8 else 2
        check_tlx_compiled(kernel, stages, kernel.metadata.num_warps)
    assert len(jit_kernels) == 2

    # the same key: no new tuning, one launch; another K: tuned again
    launches = len(cpu_driver.launches)
    ring[(2,)](desc, y, k)
    assert len(cpu_driver.launches) == launches + 1 and cpu_driver.launches[-1]["grid"] == (2, 1, 1)
    ring[(1,)](*arguments(k=32))
    assert set(ring.cache) == {key, (32, "torch.float32")} and len(cpu_driver.launches) > launches + 20
    # and do_bench on the tuned kernel measures the tuned config
    assert triton.testing.do_bench(lambda: ring[(1,)](desc, y, k)) == pytest.approx(1.0)


@pytest.mark.needs_tlx_passes
def test_prune_configs_by_prunes_before_anything_compiles(cpu_driver):
    desc, y, k = arguments()
    pruned_ring.nargs = dict(zip(pruned_ring.arg_names, (desc, y, k), strict=False))
    kept = pruned_ring.prune_configs({})
    pruned_ring.nargs = None
    assert [c.kwargs["NUM_STAGES"] for c in kept] == [2, 3]
    kernels = pruned_ring.warmup(desc, y, k, grid=(1,))
    assert sorted(kernel.metadata.num_warps for kernel in kernels) == [4, 8]
    pruned_ring[(1,)](desc, y, k)
    assert pruned_ring.cache[(16, "torch.float32")].kwargs["NUM_STAGES"] == 3
    assert len(pruned_ring.fn.device_caches[0][0]) == 2, "the pruned configs were never compiled"


#: 40 stages of 8 KiB: more shared memory than an sm_90 CTA has. Public TLX kernels list such configurations
#: among their autotune configs (hopper_gemm_ws: 256x256 tiles with 3 or more stages).
oversized_ring = triton.autotune(
    configs=[triton.Config({"NUM_STAGES": 40}, num_warps=8), triton.Config({"NUM_STAGES": 2}, num_warps=4)],
    key=["K"],
)(triton.jit(tma_ring))


@pytest.mark.needs_tlx_passes
def test_the_autotuner_skips_a_config_over_shared_memory(cpu_driver):
    """The TLX error is an ``OutOfResources`` too, as a launch over the limit is: the autotuner times the
    configuration as infinitely slow and keeps another, instead of failing the call."""
    from triton.runtime.errors import OutOfResources

    from tlx.compiler import TLXOutOfResources

    desc, y, k = arguments()
    oversized_ring[(1,)](desc, y, k)
    best = oversized_ring.cache[(16, "torch.float32")]
    assert best.kwargs["NUM_STAGES"] == 2
    timings = {config.kwargs["NUM_STAGES"]: times[0] for config, times in oversized_ring.configs_timings.items()}
    assert timings[40] == float("inf") and timings[2] == 2.0
    with pytest.raises(TLXOutOfResources) as info:  # the configuration on its own: at the user's line
        oversized_ring.fn[(1,)](desc, y, k, NUM_STAGES=40)
    assert isinstance(info.value, OutOfResources)
    assert (info.value.required, info.value.limit, info.value.name) == (40 * 8192 + 40 * 8, 232448, "shared memory")
    assert f"{Path(__file__).name}:" in str(info.value), str(info.value)  # the tlx.local_alloc line


def tmem_ring(Y, NUM_BUFFERS: tl.constexpr):
    """Stage a 128x128 fp32 tile through the last of NUM_BUFFERS tensor-memory buffers."""
    bufs = tlx.local_alloc((128, 128), tl.float32, NUM_BUFFERS, storage=tlx.storage_kind.tmem)
    offs = tl.arange(0, 128)[:, None] * 128 + tl.arange(0, 128)[None, :]
    tlx.local_store(bufs[NUM_BUFFERS - 1], tl.load(Y + offs) + 1.0)
    tl.store(Y + offs, tlx.local_load(bufs[NUM_BUFFERS - 1]))


#: 5 x 128 columns: more tensor memory than a CTA has (512 columns). Public Blackwell GEMMs list such
#: configurations (blackwell_gemm_ws: six 64x128 fp32 accumulators, which the fork's allocator packs in pairs).
oversized_tmem_ring = triton.autotune(
    configs=[triton.Config({"NUM_BUFFERS": 5}, num_warps=4), triton.Config({"NUM_BUFFERS": 2}, num_warps=4)],
    key=[],
)(triton.jit(tmem_ring))


@pytest.mark.needs_tlx_passes
def test_the_autotuner_skips_a_config_over_tensor_memory(fresh, monkeypatch):
    from tlx.compiler import TLXOutOfResources

    monkeypatch.setattr(driver, "_active", CPUDriver(target=SM100))
    y = FakeTensor("float32", (128, 128))
    oversized_tmem_ring[(1,)](y)
    (best,) = oversized_tmem_ring.cache.values()
    assert best.kwargs["NUM_BUFFERS"] == 2
    timings = {config.kwargs["NUM_BUFFERS"]: times[0] for config, times in oversized_tmem_ring.configs_timings.items()}
    assert timings[5] == float("inf") and timings[2] == 1.0
    with pytest.raises(TLXOutOfResources) as info:
        oversized_tmem_ring.fn[(1,)](y, NUM_BUFFERS=5)
    assert (info.value.required, info.value.limit, info.value.name) == (640, 512, "tensor memory columns")
    assert f"{Path(__file__).name}:" in str(info.value), str(info.value)  # the tlx.local_alloc line


@pytest.mark.needs_tlx_passes
def test_a_refused_launch_is_the_drivers_error_after_tlx_compiled(fresh, monkeypatch):
    """One step further than no driver at all: the driver refuses the launch, after the TLX compile."""
    stand_in = CPUDriver(launch=False)
    monkeypatch.setattr(driver, "_active", stand_in)
    desc, y, k = arguments()
    with pytest.raises(NoGPUError) as info:
        ring.fn[(1,)](desc, y, k, NUM_STAGES=2)
    assert not _tlx_frames(info.value)
    (kernel,) = ring.fn.device_caches[0][0].values()
    check_tlx_compiled(kernel, 2, 4)
