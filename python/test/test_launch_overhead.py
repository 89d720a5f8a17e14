"""The launch-overhead pairs (tlx.tools.launch_overhead) do the same work in stock Triton and with TLX ops:
each compiles on the CPU for sm_90, and the TLX one of each pair takes the TLX path (TMA through an
mbarrier; a shared-memory stage) while the stock one does not."""

import pytest

from tlx.tools import launch_overhead
from tlx.tutorials import compile_kernel

DESCRIPTOR = f"tensordesc<fp16[{launch_overhead.BLOCK_M}, {launch_overhead.BLOCK_N}]>"
SIGNATURES = {
    "descriptors": (
        {
            "in_desc": DESCRIPTOR,
            "out_desc": DESCRIPTOR,
            "alpha": "fp32",
            "BLOCK_M": "constexpr",
            "BLOCK_N": "constexpr",
        },
        {"BLOCK_M": launch_overhead.BLOCK_M, "BLOCK_N": launch_overhead.BLOCK_N},
    ),
    "pointers": (
        {"src": "*fp32", "dst": "*fp32", "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": launch_overhead.BLOCK},
    ),
}


def _compile(kernel, pair):
    signature, constexprs = SIGNATURES[pair]
    return compile_kernel(kernel, signature, constexprs)


@pytest.mark.parametrize("pair", sorted(launch_overhead.PAIRS))
def test_each_pair_compiles_and_only_the_tlx_kernel_takes_the_tlx_path(pair):
    stock, ours = launch_overhead.PAIRS[pair]
    stock_kernel, tlx_kernel = _compile(stock, pair), _compile(ours, pair)
    assert stock_kernel.asm["cubin"][:4] == tlx_kernel.asm["cubin"][:4] == b"\x7fELF"
    assert tlx_kernel.metadata.shared > 0, "the TLX kernel stages through shared memory"
    if pair == "descriptors":
        assert "mbarrier.try_wait" in tlx_kernel.asm["ptx"]
        assert "cp.async.bulk.tensor.2d.shared::cluster.global" in tlx_kernel.asm["ptx"]
    # Neither adds global scratch, which the launcher would allocate on every call.
    assert stock_kernel.metadata.global_scratch_size == tlx_kernel.metadata.global_scratch_size == 0
