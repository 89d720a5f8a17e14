"""The public TLX API's AMD-only names: defined with its signatures, each an error at the kernel line.

The public API gates each of these on an AMD (HIP) target or lowers them to AMD-only ops (``amdg.*``,
``amdgpu.*``, AMD layouts); this TLX targets NVIDIA GPUs (``targets.amd_only``).
"""

from __future__ import annotations

from .builtin import builtin
from .layouts import layout_encoding
from .targets import GatedClass, amd_only

__all__ = [
    "amd_descriptor_prefetch_tensor",
    "amd_mfma_commit",
    "amd_mfma_layout",
    "amd_register_handoff",
    "amd_register_resident",
    "amd_sched_barrier",
    "amd_scheduled_mfma",
    "async_amd_descriptor_load",
    "async_amd_descriptor_load_fused",
    "async_amd_descriptor_store",
    "async_amd_descriptor_wait",
    "buffer_atomic_add",
    "buffer_load",
    "buffer_load_to_local",
    "buffer_store",
    "extract_slice",
    "rematerialized_range",
    "require_amd_wmma_layout",
    "update_tensor_descriptor",
    "warp_pipeline_stage",
]

_TDM = "AMD's tensor data mover (TDM), gfx1250+"


@builtin
def buffer_load(ptr, offsets, mask=None, other=None, cache=None, contiguity=1, _semantic=None, _generator=None):
    """AMD only: a load through a buffer resource descriptor (``amdg.buffer_load``). On NVIDIA: ``tl.load``."""
    amd_only("buffer_load", "a load through an AMD buffer resource descriptor", _semantic, _generator, "tl.load")


@builtin
def buffer_store(stored_value, ptr, offsets, mask=None, cache=None, _semantic=None, _generator=None):
    """AMD only: a store through a buffer resource descriptor (``amdg.buffer_store``). On NVIDIA: ``tl.store``."""
    amd_only("buffer_store", "a store through an AMD buffer resource descriptor", _semantic, _generator, "tl.store")


@builtin
def buffer_atomic_add(
    ptr, offsets, value, mask=None, sem=None, scope=None, contiguity=1, _semantic=None, _generator=None
):
    """AMD only: an atomic add through a buffer resource descriptor. On NVIDIA: ``tl.atomic_add``."""
    amd_only(
        "buffer_atomic_add",
        "an atomic add through an AMD buffer resource descriptor",
        _semantic,
        _generator,
        "tl.atomic_add",
    )


@builtin
def buffer_load_to_local(dest, ptr, offsets, mask=None, other=None, cache_modifier="", _semantic=None, _generator=None):
    """AMD only: a direct-to-LDS load through a buffer resource descriptor. On NVIDIA: ``tlx.async_load``."""
    amd_only(
        "buffer_load_to_local",
        "a direct-to-LDS load through an AMD buffer resource descriptor",
        _semantic,
        _generator,
        "tlx.async_load (cp.async)",
    )


@builtin
def async_amd_descriptor_load(
    desc, result, offsets=None, pred=None, clamp_bounds=True, _semantic=None, _generator=None
):
    """AMD only: a tensor-descriptor load into a local buffer through TDM. On NVIDIA: ``tlx.async_descriptor_load``."""
    amd_only(
        "async_amd_descriptor_load",
        f"a tensor-descriptor load through {_TDM}",
        _semantic,
        _generator,
        "tlx.async_descriptor_load (TMA)",
    )


@builtin
def async_amd_descriptor_load_fused(members, cache_modifier="", _semantic=None, _generator=None):
    """AMD only: one fused TDM load of two to four descriptor tiles."""
    amd_only("async_amd_descriptor_load_fused", f"a fused tensor-descriptor load through {_TDM}", _semantic, _generator)


@builtin
def async_amd_descriptor_store(desc, source, offsets=None, clamp_bounds=True, _semantic=None, _generator=None):
    """AMD only: a tensor-descriptor store through TDM. On NVIDIA: ``tlx.async_descriptor_store``."""
    amd_only(
        "async_amd_descriptor_store",
        f"a tensor-descriptor store through {_TDM}",
        _semantic,
        _generator,
        "tlx.async_descriptor_store (TMA)",
    )


@builtin
def async_amd_descriptor_wait(pendings=0, tokens=None, _semantic=None, _generator=None):
    """AMD only: wait for outstanding TDM transfers."""
    amd_only(
        "async_amd_descriptor_wait",
        f"a wait for {_TDM} transfers",
        _semantic,
        _generator,
        "tlx.barrier_wait for TMA loads and tlx.async_descriptor_store_wait for TMA stores",
    )


@builtin
def amd_descriptor_prefetch_tensor(desc, offsets, pred=None, speculative=False, _semantic=None, _generator=None):
    """AMD only: an L2 prefetch of a descriptor tile through TDM."""
    amd_only(
        "amd_descriptor_prefetch_tensor", f"an L2 prefetch of a descriptor tile through {_TDM}", _semantic, _generator
    )


@builtin
def update_tensor_descriptor(
    desc, add_offsets=None, set_bounds=None, pred=None, clamp_bounds=False, _semantic=None, _generator=None
):
    """AMD only: a TDM descriptor with its offsets, bounds or predicate updated (the public API gates it on
    TDM-capable AMD targets)."""
    amd_only("update_tensor_descriptor", f"updates a descriptor of {_TDM}", _semantic, _generator)


@builtin
def amd_sched_barrier(mask=0, _semantic=None, _generator=None):
    """AMD only: a scheduling barrier machine instructions do not cross."""
    amd_only("amd_sched_barrier", "an AMD instruction-scheduling barrier", _semantic, _generator)


@builtin
def amd_register_resident(value, register_class="agpr", registers_per_group=1, _semantic=None, _generator=None):
    """AMD only: keep a tensor in AGPR or VGPR tuples."""
    amd_only("amd_register_resident", "keeps a tensor in AMD AGPR/VGPR register tuples", _semantic, _generator)


@builtin
def amd_register_handoff(value, register_class="vgpr", _semantic=None, _generator=None):
    """AMD only: start a new AMD register-allocation interval for a tensor."""
    amd_only("amd_register_handoff", "an AMD register-allocation handoff (AGPR/VGPR)", _semantic, _generator)


@builtin
def amd_scheduled_mfma(
    a,
    b,
    acc,
    accumulator_role,
    resident_operand=None,
    accumulator_register_class=None,
    initialize=False,
    _semantic=None,
    _generator=None,
):
    """AMD only: CDNA4 MFMA fragments with source-controlled scheduling. On NVIDIA: ``tlx.async_dot``."""
    amd_only(
        "amd_scheduled_mfma",
        "CDNA MFMA fragments with source-controlled scheduling",
        _semantic,
        _generator,
        "tlx.async_dot (wgmma) or tl.dot",
    )


@builtin
def amd_mfma_commit(value, preserve=None, _semantic=None, _generator=None):
    """AMD only: commit ``amd_scheduled_mfma`` results."""
    amd_only("amd_mfma_commit", "commits CDNA MFMA results of tlx.amd_scheduled_mfma", _semantic, _generator)


@builtin
def require_amd_wmma_layout(
    src,
    version=3,
    transposed=True,
    warp_bases=((0, 2), (2, 0)),
    reg_bases=((0, 1), (1, 0)),
    instr_shape=(16, 16, 128),
    _semantic=None,
    _generator=None,
):
    """AMD only: pin a tensor to an AMD WMMA register layout."""
    amd_only("require_amd_wmma_layout", "pins a tensor to an AMD WMMA register layout", _semantic, _generator)


@builtin
def extract_slice(source, shape, offsets, _semantic=None, _generator=None):
    """AMD only: a register slice without data movement (``amdg.extract_slice``)."""
    amd_only("extract_slice", "a register slice without data movement, amdg.extract_slice", _semantic, _generator)


@builtin
def rematerialized_range(start, end, identity, placement=None, _semantic=None, _generator=None):
    """AMD only: a range recomputed near each use (``amdg.rematerialized_range``). ``tl.arange`` has its values."""
    amd_only(
        "rematerialized_range",
        "a range the AMD backend recomputes near each use, amdg.rematerialized_range",
        _semantic,
        _generator,
        "tl.arange (the same values)",
    )


@builtin
def warp_pipeline_stage(label=None, *, priority=None, _semantic=None, _generator=None):
    """AMD only: ``with tlx.warp_pipeline_stage(label, priority=p):`` marks a stage of an AMD warp pipeline."""
    amd_only(
        "warp_pipeline_stage",
        "a stage of an AMD warp pipeline, with s_setprio priorities",
        _semantic,
        _generator,
        "tlx.async_tasks for warp specialization",
    )


class amd_mfma_layout(GatedClass, layout_encoding):
    """AMD only: a gfx950 MFMA register layout."""

    _what = "a CDNA MFMA register layout"

    def __init__(
        self,
        version,
        instr_shape,
        transposed,
        warps_per_cta,
        element_bitwidth=32,
        tiles_per_warp=None,
        cga_layout=None,
        _semantic=None,
        _generator=None,
    ) -> None:
        self._refuse(_semantic, _generator)
