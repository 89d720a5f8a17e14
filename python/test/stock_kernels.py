"""Plain Triton kernels (no TLX) and a script that compiles them, for test_compiler's
stock-path-untouched check: run once without and once with `import tlx`, compare.

    python stock_kernels.py [--tlx] -> one JSON object on stdout
"""

import hashlib
import json
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import ASTSource


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


@triton.jit
def softmax(x_ptr, out_ptr, stride, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(out_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=cols < n)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def tma_copy(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    tile = in_desc.load([tl.program_id(0) * BM, 0])
    out_desc.store([tl.program_id(0) * BM, 0], tile * 2)


KERNELS = [
    (
        vector_add,
        {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 1024},
        (90,),
    ),
    (
        softmax,
        {"x_ptr": "*fp32", "out_ptr": "*fp32", "stride": "i32", "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 256},
        (90,),
    ),
    (
        matmul,
        {
            "a_ptr": "*fp16",
            "b_ptr": "*fp16",
            "c_ptr": "*fp16",
            "M": "i32",
            "N": "i32",
            "K": "i32",
            "BM": "constexpr",
            "BN": "constexpr",
            "BK": "constexpr",
        },
        {"BM": 128, "BN": 128, "BK": 64},
        (90, 100),
    ),
    (
        tma_copy,
        {
            "in_desc": "tensordesc<fp16[64, 64]>",
            "out_desc": "tensordesc<fp16[64, 64]>",
            "BM": "constexpr",
            "BN": "constexpr",
        },
        {"BM": 64, "BN": 64},
        (90,),
    ),
]


def main(with_tlx: bool) -> dict:
    calls = []
    if with_tlx:
        import tlx
        import tlx.compiler.hook as hook

        assert tlx.compiler.installed()
        has_carriers = hook.has_carriers
        hook.has_carriers = lambda module: calls.append(module.get_entry_func_name()) or has_carriers(module)
    triton.knobs.compilation.always_compile = True
    out = {"hook_saw": calls, "kernels": {}}
    for kernel, signature, constexprs, archs in KERNELS:
        names = list(signature)
        constants = {(names.index(k),): v for k, v in constexprs.items()}
        for arch in archs:
            compiled = triton.compile(ASTSource(kernel, signature, constants), target=GPUTarget("cuda", arch, 32))
            out["kernels"][f"{kernel.__name__}-sm{arch}"] = {
                "ptx": compiled.asm["ptx"],
                "ttgir": compiled.asm["ttgir"],
                "cubin": hashlib.sha256(compiled.asm["cubin"]).hexdigest(),
                "cache_key": kernel.cache_key,
                "hash": compiled.hash,
            }
    return out


if __name__ == "__main__":
    print(json.dumps(main("--tlx" in sys.argv)))
