"""Compile specs of the round-trip corpus: which kernel, with which signature, for which archs.

A :class:`KernelSpec` holds what ``triton.compile`` needs besides the target: the signature as the JIT
would spell it (``"*fp16"``, ``"i32"``, ``"tensordesc<fp16[128, 64]>"``, ``"constexpr"``), the constexpr
values, the ``tt.divisibility`` specialisations the JIT would have found for aligned pointers and strides,
and the options (``num_warps``, ``num_stages``, ``debug`` ...).
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
from dataclasses import dataclass, field

from . import gluon_kernels as gk
from . import kernels as k

ALL_ARCHS = (90, 100)


@dataclass(frozen=True)
class KernelSpec:
    name: str
    fn: object
    signature: dict
    constexprs: dict = field(default_factory=dict)
    divisible_by_16: tuple = ()
    num_warps: int = 4
    num_stages: int = 3
    archs: tuple = ALL_ARCHS
    options: dict = field(default_factory=dict)
    gluon: bool = False

    @property
    def attrs(self) -> dict:
        """``ASTSource`` attrs: ``{(arg_index,): [["tt.divisibility", 16]]}`` as the JIT specialiser makes them."""
        names = self.fn.arg_names
        return {(names.index(a),): [["tt.divisibility", 16]] for a in self.divisible_by_16}

    def compile_options(self) -> dict:
        return {"num_warps": self.num_warps, "num_stages": self.num_stages, **self.options}

    def key(self) -> str:
        """What the compiled texts depend on, besides the triton version and the kernel sources."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "fn"}
        fields["fn"] = f"{self.fn.__module__}.{self.fn.__name__}"
        return hashlib.sha256(repr(sorted(fields.items())).encode()).hexdigest()


def spec(name, fn, types, constexprs=None, *, div16="ptrs", **kwargs) -> KernelSpec:
    """Build a spec. ``types`` maps every runtime argument to its signature type; constexpr arguments are taken
    from ``constexprs`` (or declared ``"constexpr"`` here too). ``div16`` names the arguments specialised as
    divisible by 16; the default ``"ptrs"`` means every pointer argument plus nothing else."""
    constexprs = dict(constexprs or {})
    signature = {}
    for name_ in fn.arg_names:
        if name_ in constexprs:
            signature[name_] = "constexpr"
        elif name_ in types:
            signature[name_] = types[name_]
        else:
            raise ValueError(f"{name}: argument {name_!r} of {fn.__name__} has no type and no constexpr value")
    extra = set(types) - set(fn.arg_names)
    if extra:
        raise ValueError(f"{name}: {sorted(extra)} are not arguments of {fn.__name__}")
    if div16 == "ptrs":
        div16 = tuple(a for a, t in signature.items() if t.startswith("*"))
    elif div16 == "ptrs+":
        div16 = tuple(a for a, t in signature.items() if t.startswith("*") or (t == "i32" and a.startswith("stride")))
    return KernelSpec(
        name=name, fn=fn, signature=signature, constexprs=constexprs, divisible_by_16=tuple(div16), **kwargs
    )


def gspec(name, fn, types, constexprs=None, **kwargs) -> KernelSpec:
    return spec(name, fn, types, constexprs, gluon=True, **kwargs)


def _matmul(
    name,
    a,
    b,
    c,
    bm,
    bn,
    bk,
    *,
    precision=None,
    activation="",
    num_warps=4,
    num_stages=3,
    archs=ALL_ARCHS,
    options=None,
):
    types = {
        "a_ptr": a,
        "b_ptr": b,
        "c_ptr": c,
        "M": "i32",
        "N": "i32",
        "K": "i32",
        "stride_am": "i32",
        "stride_bk": "i32",
        "stride_cm": "i32",
    }
    consts = {
        "stride_ak": 1,
        "stride_bn": 1,
        "stride_cn": 1,
        "BLOCK_M": bm,
        "BLOCK_N": bn,
        "BLOCK_K": bk,
        "GROUP_M": 8,
        "INPUT_PRECISION": precision,
        "ACTIVATION": activation,
    }
    return spec(
        name,
        k.matmul_kernel,
        types,
        consts,
        div16="ptrs+",
        num_warps=num_warps,
        num_stages=num_stages,
        archs=archs,
        options=options or {},
    )


def _desc(dtype, block, layout=None) -> str:
    shape = ", ".join(str(b) for b in block)
    return f"tensordesc<{dtype}[{shape}]>" if layout is None else f"tensordesc<{dtype}[{shape}],{layout}>"


def _nvmma(swizzle, bits, transposed=False) -> str:
    return f"NVMMASharedLayout(swizzle_byte_width={swizzle}, element_bitwidth={bits}, rank=2, transposed={transposed})"


F32, F16, BF16, I32, U32, I64 = "*fp32", "*fp16", "*bf16", "*i32", "*u32", "*i64"

TRITON_SPECS = [
    spec(
        "vector_add", k.vector_add, {"x_ptr": F32, "y_ptr": F32, "out_ptr": F32, "n_elements": "i32"}, {"BLOCK": 1024}
    ),
    spec(
        "saxpy_pdl",
        k.saxpy_pdl,
        {"x_ptr": F32, "y_ptr": F32, "out_ptr": F32, "alpha": "fp32", "n_elements": "i32"},
        {"BLOCK": 512},
        options={"launch_pdl": True},
    ),
    spec(
        "swiglu_fwd",
        k.swiglu_fwd,
        {"a_ptr": BF16, "b_ptr": BF16, "out_ptr": BF16, "n_elements": "i64"},
        {"BLOCK": 2048},
        num_warps=8,
    ),
    spec(
        "math_ops",
        k.math_ops,
        {
            "x_ptr": F32,
            "y_ptr": F32,
            "u_ptr": U32,
            "out_ptr": F32,
            "out_u_ptr": U32,
            "out_d_ptr": "*fp64",
            "n_elements": "i32",
        },
        {"BLOCK": 256},
    ),
    spec(
        "fp8_quantize_rows",
        k.fp8_quantize_rows,
        {
            "x_ptr": BF16,
            "q4_ptr": "*fp8e4nv",
            "q5_ptr": "*fp8e5",
            "scale_ptr": F32,
            "n_cols": "i32",
            "stride_row": "i32",
        },
        {"BLOCK": 1024},
    ),
    spec(
        "dropout_rand",
        k.dropout_rand,
        {
            "x_ptr": F32,
            "out_ptr": F32,
            "noise_ptr": F32,
            "idx_ptr": U32,
            "n_elements": "i32",
            "p": "fp32",
            "seed": "i32",
        },
        {"BLOCK": 1024},
    ),
    spec(
        "inline_asm_ops",
        k.inline_asm_ops,
        {"x_ptr": U32, "y_ptr": U32, "out_ptr": U32, "out2_ptr": I32, "clock_ptr": "*i64", "n_elements": "i32"},
        {"BLOCK": 512},
    ),
    spec(
        "mapped_elementwise",
        k.mapped_elementwise,
        {"x_ptr": F32, "t_ptr": F32, "out_ptr": F32, "n_elements": "i32"},
        {"BLOCK": 512},
    ),
    spec(
        "fused_softmax",
        k.fused_softmax,
        {
            "out_ptr": F32,
            "in_ptr": F32,
            "in_row_stride": "i32",
            "out_row_stride": "i32",
            "n_rows": "i32",
            "n_cols": "i32",
        },
        {"BLOCK": 1024, "NUM_STAGES": 4},
        num_warps=8,
    ),
    spec(
        "layer_norm_fwd",
        k.layer_norm_fwd,
        {"X": F16, "Y": F16, "W": F32, "B": F32, "Mean": F32, "Rstd": F32, "stride": "i32", "N": "i32", "eps": "fp32"},
        {"BLOCK_SIZE": 1024},
        num_warps=8,
    ),
    spec(
        "layer_norm_bwd_dx_fused",
        k.layer_norm_bwd_dx_fused,
        {
            "DX": F16,
            "DY": F16,
            "DW": F32,
            "DB": F32,
            "X": F16,
            "W": F32,
            "Mean": F32,
            "Rstd": F32,
            "Lock": I32,
            "stride": "i32",
            "N": "i32",
        },
        {"GROUP_SIZE_M": 64, "BLOCK_SIZE_N": 1024},
        num_warps=8,
    ),
    spec(
        "layer_norm_bwd_dwdb",
        k.layer_norm_bwd_dwdb,
        {"DW": F32, "DB": F32, "FINAL_DW": F32, "FINAL_DB": F32, "M": "i32", "N": "i32"},
        {"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 128},
    ),
    spec(
        "row_reductions",
        k.row_reductions,
        {
            "x_ptr": F32,
            "i_ptr": I32,
            "sum_ptr": F32,
            "max_ptr": F32,
            "argmax_ptr": I32,
            "min_ptr": F32,
            "argmin_ptr": I32,
            "cargmax_ptr": I32,
            "var_ptr": F32,
            "bits_ptr": I32,
            "M": "i32",
            "N": "i32",
        },
        {"BLOCK_M": 16, "BLOCK_N": 128},
    ),
    spec(
        "cross_entropy_fwd",
        k.cross_entropy_fwd,
        {
            "logits_ptr": BF16,
            "labels_ptr": I64,
            "loss_ptr": F32,
            "lse_ptr": F32,
            "stride": "i64",
            "n_cols": "i32",
            "ignore_index": "i64",
        },
        {"BLOCK": 2048},
        num_warps=8,
    ),
    spec(
        "sort_topk",
        k.sort_topk,
        {"x_ptr": F32, "sorted_ptr": F32, "top_ptr": F32, "flipped_ptr": F32},
        {"BLOCK_M": 8, "BLOCK_N": 64, "K": 8},
    ),
    spec(
        "cumsum_cumprod",
        k.cumsum_cumprod,
        {"x_ptr": F32, "sum_ptr": F32, "prod_ptr": F32, "n_cols": "i32"},
        {"BLOCK": 1024},
    ),
    spec(
        "linear_recurrence_scan",
        k.linear_recurrence_scan,
        {"a_ptr": F32, "b_ptr": F32, "h_ptr": F32, "T": "i32", "D": "i32"},
        {"BLOCK_T": 64, "BLOCK_D": 32},
    ),
    spec(
        "atomic_ops",
        k.atomic_ops,
        {
            "x_ptr": F32,
            "i_ptr": I32,
            "sum_ptr": F32,
            "hsum_ptr": F16,
            "max_ptr": I32,
            "min_ptr": I32,
            "bits_ptr": I32,
            "flag_ptr": I32,
            "old_ptr": I32,
            "n_elements": "i32",
        },
        {"BLOCK": 256},
    ),
    spec(
        "histogram_kernel",
        k.histogram_kernel,
        {"x_ptr": I32, "hist_ptr": I32, "hist2_ptr": I32, "n_elements": "i32"},
        {"BLOCK": 1024, "NUM_BINS": 64},
    ),
    spec("collatz_while", k.collatz_while, {"x_ptr": I64, "steps_ptr": I32, "max_steps": "i32"}, num_warps=1),
    spec(
        "binary_search",
        k.binary_search,
        {"sorted_ptr": F32, "queries_ptr": F32, "out_ptr": I32, "n_sorted": "i32"},
        {"BLOCK": 128},
    ),
    spec(
        "gelu_call", k.gelu_call, {"x_ptr": F32, "out_ptr": F32, "scale": "fp32", "n_elements": "i32"}, {"BLOCK": 1024}
    ),
    spec(
        "debug_ops",
        k.debug_ops,
        {"x_ptr": I32, "out_ptr": I32, "n_elements": "i32"},
        {"BLOCK": 128},
        options={"debug": True},
    ),
    spec("grid_3d", k.grid_3d, {"out_ptr": I32, "nx_ptr": I32}, {"BLOCK": 32}, num_warps=1),
    spec("loop_hints", k.loop_hints, {"x_ptr": F32, "out_ptr": F32, "n_rows": "i32", "n_cols": "i32"}, {"BLOCK": 256}),
    spec(
        "gather_scatter",
        k.gather_scatter,
        {"src_ptr": F32, "idx_ptr": I32, "out_ptr": F32, "scat_ptr": F32, "n_rows": "i32"},
        {"BLOCK_M": 32, "BLOCK_N": 64},
    ),
    spec("shape_ops", k.shape_ops, {"x_ptr": F32, "y_ptr": F32, "out_ptr": F32}, {"BLOCK": 64}),
    spec(
        "transpose_2d",
        k.transpose_2d,
        {"x_ptr": F16, "y_ptr": F16, "M": "i32", "N": "i32", "stride_xm": "i32", "stride_yn": "i32"},
        {"BLOCK_M": 64, "BLOCK_N": 64},
        div16="ptrs+",
    ),
    _matmul("matmul_fp16", F16, F16, F16, 128, 128, 64, activation="leaky_relu", num_warps=8),
    _matmul("matmul_bf16", BF16, BF16, BF16, 128, 64, 64, num_stages=4),
    _matmul(
        "matmul_fp16_2cta_maxnreg", F16, F16, F32, 256, 128, 64, num_warps=8, options={"num_ctas": 2, "maxnreg": 168}
    ),
    _matmul("matmul_fp8_e4m3", "*fp8e4nv", "*fp8e4nv", F16, 128, 128, 128, num_warps=8),
    _matmul("matmul_fp8_e5m2", "*fp8e5", "*fp8e5", F16, 64, 128, 128),
    _matmul("matmul_tf32", F32, F32, F32, 128, 128, 32, precision="tf32", num_warps=8),
    _matmul("matmul_fp32_ieee", F32, F32, F32, 64, 64, 32, precision="ieee", num_stages=2),
    spec(
        "matmul_int8",
        k.matmul_int8,
        {
            "a_ptr": "*i8",
            "b_ptr": "*i8",
            "c_ptr": I32,
            "M": "i32",
            "N": "i32",
            "K": "i32",
            "stride_am": "i32",
            "stride_bk": "i32",
            "stride_cm": "i32",
        },
        {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64},
        div16="ptrs+",
        num_warps=8,
    ),
    spec(
        "matmul_block_ptr",
        k.matmul_block_ptr,
        {
            "a_ptr": F16,
            "b_ptr": F16,
            "c_ptr": F16,
            "M": "i32",
            "N": "i32",
            "K": "i32",
            "stride_am": "i32",
            "stride_bk": "i32",
            "stride_cm": "i32",
        },
        {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64},
        div16="ptrs+",
        num_warps=8,
    ),
    spec(
        "matmul_split_k",
        k.matmul_split_k,
        {
            "a_ptr": BF16,
            "b_ptr": BF16,
            "c_ptr": F32,
            "M": "i32",
            "N": "i32",
            "K": "i32",
            "stride_am": "i32",
            "stride_bk": "i32",
            "stride_cm": "i32",
        },
        {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64, "SPLIT_K": 4},
        div16="ptrs+",
    ),
    spec(
        "batched_dot_3d",
        k.batched_dot_3d,
        {"a_ptr": F16, "b_ptr": F16, "c_ptr": F32},
        {"B": 2, "M": 32, "N": 32, "K": 32},
    ),
    spec(
        "matmul_tma_persistent_device",
        k.matmul_tma_persistent_device,
        {"a_ptr": F16, "b_ptr": F16, "c_ptr": F16, "M": "i32", "N": "i32", "K": "i32"},
        {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "NUM_SMS": 132},
        num_warps=8,
        num_stages=3,
    ),
    spec(
        "matmul_tma_host_desc",
        k.matmul_tma_host_desc,
        {
            "a_desc": _desc("fp16", [128, 64]),
            "b_desc": _desc("fp16", [128, 64]),
            "c_desc": _desc("fp16", [128, 128]),
            "M": "i32",
            "N": "i32",
            "K": "i32",
        },
        {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "NUM_SMS": 132, "WARP_SPECIALIZE": False},
        num_warps=8,
        num_stages=4,
    ),
    spec(
        "matmul_tma_host_desc_ws",
        k.matmul_tma_host_desc,
        {
            "a_desc": _desc("fp16", [128, 64]),
            "b_desc": _desc("fp16", [128, 64]),
            "c_desc": _desc("fp16", [128, 128]),
            "M": "i32",
            "N": "i32",
            "K": "i32",
        },
        {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "NUM_SMS": 148, "WARP_SPECIALIZE": True},
        num_warps=4,
        num_stages=3,
        archs=(100,),
    ),
    spec(
        "tma_gather_scatter",
        k.tma_gather_scatter,
        {"in_ptr": F32, "out_ptr": F32, "idx_ptr": I32, "acc_ptr": F32, "M": "i32", "N": "i32", "y_offset": "i32"},
        {"BLOCK_Y": 8, "BLOCK_X": 64},
        archs=(100,),
    ),
    spec(
        "matmul_dot_scaled",
        k.matmul_dot_scaled,
        {
            "a_ptr": "*fp8e4nv",
            "a_scale_ptr": "*u8",
            "b_ptr": "*fp8e5",
            "b_scale_ptr": "*u8",
            "c_ptr": BF16,
            "M": "i32",
            "N": "i32",
            "K": "i32",
        },
        {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128, "VEC": 32},
    ),
    spec(
        "attention_fwd",
        k.attention_fwd,
        {
            "Q": F16,
            "K": F16,
            "V": F16,
            "Out": F16,
            "Lse": F32,
            "sm_scale": "fp32",
            **{f"stride_{t}{d}": "i32" for t in "qkvo" for d in ("z", "h")},
            "stride_qm": "i32",
            "stride_kn": "i32",
            "stride_vn": "i32",
            "stride_om": "i32",
            "H": "i32",
            "N_CTX": "i32",
        },
        {"HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "CAUSAL": False},
        div16="ptrs+",
        num_warps=4,
    ),
    spec(
        "attention_fwd_causal",
        k.attention_fwd,
        {
            "Q": BF16,
            "K": BF16,
            "V": BF16,
            "Out": BF16,
            "Lse": F32,
            "sm_scale": "fp32",
            **{f"stride_{t}{d}": "i32" for t in "qkvo" for d in ("z", "h")},
            "stride_qm": "i32",
            "stride_kn": "i32",
            "stride_vn": "i32",
            "stride_om": "i32",
            "H": "i32",
            "N_CTX": "i32",
        },
        {"HEAD_DIM": 128, "BLOCK_M": 128, "BLOCK_N": 64, "CAUSAL": True},
        div16="ptrs+",
        num_warps=8,
        num_stages=2,
    ),
]

_NV16 = _nvmma(128, 16)
_NV32 = _nvmma(128, 32)

GLUON_SPECS = [
    gspec(
        "gl_blocked_copy",
        gk.gl_blocked_copy,
        {"in_ptr": F32, "out_ptr": F32, "M": "i32", "N": "i32"},
        {"BLOCK_M": 64, "BLOCK_N": 64},
    ),
    gspec(
        "gl_shared_memory_ops", gk.gl_shared_memory_ops, {"in_ptr": F16, "out_ptr": F16}, {"BLOCK_M": 64, "BLOCK_N": 64}
    ),
    gspec(
        "gl_reduce_scan_histogram",
        gk.gl_reduce_scan_histogram,
        {"x_ptr": F32, "idx_ptr": I32, "out_ptr": F32, "hist_ptr": I32},
        {"BLOCK_M": 16, "BLOCK_N": 64, "NUM_BINS": 64},
    ),
    gspec(
        "gl_elementwise_misc",
        gk.gl_elementwise_misc,
        {"x_ptr": F32, "y_ptr": F32, "out_ptr": F32, "flag_ptr": I32, "n": "i32"},
        {"BLOCK": 512},
    ),
    gspec(
        "gl_tma_copy",
        gk.gl_tma_copy,
        {"in_desc": _desc("fp16", [64, 64], _NV16), "out_desc": _desc("fp16", [64, 64], _NV16)},
    ),
    gspec(
        "gl_device_tma_descriptor",
        gk.gl_device_tma_descriptor,
        {"in_ptr": F32, "out_ptr": F32, "M": "i32", "N": "i32"},
        {"BLOCK_M": 64, "BLOCK_N": 32},
    ),
    gspec(
        "gl_cp_async_pipeline",
        gk.gl_cp_async_pipeline,
        {"in_ptr": F32, "out_ptr": F32, "n_rows": "i32"},
        {"BLOCK": 512, "NUM_STAGES": 3},
    ),
    gspec(
        "gl_mma_v2_dot_operands",
        gk.gl_mma_v2_dot_operands,
        {"a_ptr": F16, "b_ptr": F16, "c_ptr": F32, "d_ptr": F32},
        {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32},
    ),
    gspec(
        "gl_wgmma_matmul",
        gk.gl_wgmma_matmul,
        {
            "a_desc": _desc("fp16", [128, 64], _NV16),
            "b_desc": _desc("fp16", [64, 128], _NV16),
            "c_desc": _desc("fp16", [128, 128], _NV16),
            "K": "i32",
        },
        {"NUM_BUFFERS": 3},
        archs=(90,),
    ),
    gspec(
        "gl_warp_specialize_pipeline",
        gk.gl_warp_specialize_pipeline,
        {"in_ptr": F32, "out_ptr": F32, "n_tiles": "i32"},
        {"BLOCK": 128},
    ),
    gspec(
        "gl_shared_linear_wgmma",
        gk.gl_shared_linear_mma,
        {"a_ptr": F16, "b_ptr": F16, "c_ptr": F32},
        {"TCGEN05": False},
        archs=(90,),
    ),
    gspec(
        "gl_shared_linear_tcgen05",
        gk.gl_shared_linear_mma,
        {"a_ptr": F16, "b_ptr": F16, "c_ptr": F32},
        {"TCGEN05": True},
        archs=(100,),
    ),
    gspec(
        "gl_tcgen05_matmul",
        gk.gl_tcgen05_matmul,
        {
            "a_desc": _desc("fp16", [128, 64], _NV16),
            "b_desc": _desc("fp16", [128, 64], _NV16),
            "c_desc": _desc("fp16", [128, 128], _NV16),
            "K": "i32",
        },
        archs=(100,),
    ),
    gspec(
        "gl_ws_tcgen05_matmul",
        gk.gl_ws_tcgen05_matmul,
        {
            "a_desc": _desc("fp16", [128, 64], _NV16),
            "b_desc": _desc("fp16", [128, 64], _NV16),
            "c_desc": _desc("fp16", [128, 64], _NV16),
            "K": "i32",
        },
        {"NUM_BUFFERS": 3},
        archs=(100,),
    ),
    gspec(
        "gl_tmem_ops", gk.gl_tmem_ops, {"in_ptr": F32, "out_ptr": F32}, {"BLOCK_M": 128, "BLOCK_N": 64}, archs=(100,)
    ),
    gspec(
        "gl_tma_gather_scatter",
        gk.gl_tma_gather_scatter,
        {
            "in_desc": _desc("fp32", [1, 64], _NV32),
            "out_desc": _desc("fp32", [1, 64], _NV32),
            "idx_ptr": I32,
            "y_offset": "i32",
        },
        {"BLOCK_Y": 32},
        archs=(100,),
    ),
    gspec("gl_linear_layouts", gk.gl_linear_layouts, {"in_ptr": F32, "out_ptr": F32}),
    gspec(
        "gl_tcgen05_mma_scaled",
        gk.gl_tcgen05_mma_scaled,
        {
            "a_desc": _desc("fp8e4nv", [128, 128], _nvmma(128, 8)),
            "b_desc": _desc("fp8e4nv", [128, 128], _nvmma(128, 8)),
            "a_scale_ptr": "*u8",
            "b_scale_ptr": "*u8",
            "c_ptr": BF16,
        },
        archs=(100,),
    ),
    gspec("gl_memdesc_views", gk.gl_memdesc_views, {"in_ptr": F16, "out_ptr": F16}, {"BLOCK_M": 64, "BLOCK_N": 64}),
]


def all_specs() -> list:
    specs = TRITON_SPECS + GLUON_SPECS
    names = [s.name for s in specs]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, f"duplicate corpus names: {dup}"
    return specs


def source_files() -> list:
    """The files whose text the compiled corpus depends on (they also appear in its locations)."""
    return [inspect.getsourcefile(k), inspect.getsourcefile(gk), __file__]
