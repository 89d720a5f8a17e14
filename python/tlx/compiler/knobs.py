"""The TLX compiler's environment knobs, read when a kernel's compile options are made (each launch).

* ``TLX_PROTOCOL_CHECK=0`` turns off the asynchronous-protocol checks (``tlx-check-async-hazards``
  and ``tlx-check-protocol``), which are on by default: for a kernel whose protocol the checker
  rejects although you know it to be right (tell us: a false positive is a bug).
* ``TLX_WAIT_TIMEOUT_MS=<ms>`` bounds every ``tlx.barrier_wait``, for debugging hangs: a wait still
  incomplete after that long fails a device assertion (``__assertfail``, as ``tl.device_assert`` does)
  whose message names the kernel, the mbarrier, the phase parity and the source line, so a deadlocked
  kernel fails its launch instead of hanging the process (H200, 200 ms: the launch failed after 0.43 s
  and the driver printed the report). Off by default, and a debugging tool only: with it on, the
  warp-specialized GEMM and attention tutorials ran at 0.21x and 0.29x of their speed (the call in the
  register-limited tasks makes ptxas spill).

They become fields of the compile options (``tlx_protocol_check``, ``tlx_wait_timeout_us``; see
``tlx.compiler.clusters``), so Triton's cache keys them like ``num_warps``: switching one recompiles.
"""

from __future__ import annotations

import os
from typing import Any

#: The option fields and their values when the environment sets nothing.
DEFAULTS: dict[str, Any] = {"tlx_protocol_check": True, "tlx_wait_timeout_us": 0}
#: The passes tlx_protocol_check=False leaves out.
PROTOCOL_CHECKS = ("tlx-check-async-hazards", "tlx-check-protocol")
#: The module attribute the bounded waits are lowered from (microseconds).
WAIT_TIMEOUT_ATTR = "tlx.wait-timeout-us"


def protocol_check() -> bool:
    """Whether the asynchronous-protocol checks run (TLX_PROTOCOL_CHECK, default on)."""
    value = os.environ.get("TLX_PROTOCOL_CHECK", "1").strip().lower()
    return value not in ("0", "off", "false", "no")


def wait_timeout_us() -> int:
    """TLX_WAIT_TIMEOUT_MS in microseconds, 0 when unset; a clear error for a value that is not a positive
    number of milliseconds (at most an hour)."""
    text = os.environ.get("TLX_WAIT_TIMEOUT_MS", "").strip()
    if not text:
        return 0
    try:
        milliseconds = float(text)
    except ValueError:
        raise ValueError(f"TLX_WAIT_TIMEOUT_MS must be a number of milliseconds, got {text!r}") from None
    if not 0 < milliseconds <= 3_600_000:
        raise ValueError(f"TLX_WAIT_TIMEOUT_MS must be in (0, 3600000] ms, got {text!r}")
    return max(1, round(milliseconds * 1000))


def from_environment() -> dict[str, Any]:
    """The option fields the environment asks for (DEFAULTS where it says nothing)."""
    return {"tlx_protocol_check": protocol_check(), "tlx_wait_timeout_us": wait_timeout_us()}


def effective_pipeline(pipeline: str, options: Any) -> str:
    """``pipeline`` without the protocol checks when the compile options turn them off."""
    if getattr(options, "tlx_protocol_check", True):
        return pipeline
    for name in PROTOCOL_CHECKS:
        pipeline = pipeline.replace(f"{name},", "").replace(f",{name}", "")
    return pipeline


def annotate_module(module: Any, options: Any) -> None:
    """Put the bounded-wait knob of the compile options on a converted TTGIR module (the lowering reads it)."""
    from triton._C.libtriton import ir

    timeout = getattr(options, "tlx_wait_timeout_us", 0)
    if timeout:
        module.set_attr(WAIT_TIMEOUT_ATTR, ir.builder(module.context).get_int32_attr(timeout))
