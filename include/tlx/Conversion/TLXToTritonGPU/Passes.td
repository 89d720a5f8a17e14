//===- Passes.td - TLX -> TritonGPU lowering -------------------*- tablegen -*-===//

#ifndef TLX_CONVERSION_TLXTOTRITONGPU_PASSES_TD
#define TLX_CONVERSION_TLXTOTRITONGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLXFitTaskLayouts : Pass<"tlx-fit-task-layouts", "::mlir::ModuleOp"> {
  let summary = "Lay out the tensors of an async task over the task's warps";
  let description = [{
    Triton's conversion lays every tensor out over the kernel's num_warps. In
    an async task with another `num_warps`, each tensor's layout is made for
    the task's warps instead (a blocked layout keeps its elements per thread,
    threads and order, and spreads over fewer or more warps; the elements of
    warps that go move into registers), and a tensor the task takes from
    outside is recomputed inside first (pure ops only; anything else is an
    error at its use). A layout that cannot run on the task's warps (a wgmma
    accumulator on fewer than 4 warps) is an error at the op. Runs before
    `tlx-assign-layouts`, which lays out the TLX ops of a task for its warps.
  }];
  let dependentDialects = ["::mlir::triton::gpu::TritonGPUDialect"];
}

def TLXAssignLayouts : Pass<"tlx-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "Give every TLX buffer and TMA descriptor its shared layout";
  let description = [{
    Every `tlx.local_alloc` in shared memory gets its `layout` attribute: the
    user's, checked to be a shared-memory layout of the buffers' rank, or
    else the NVMMA shared layout with the widest swizzle the shape allows
    (one layout that both TMA and wgmma read at full speed; unswizzled for
    1-D buffers). Views transform the layout of their buffer (a transposed
    view flips an NVMMA layout between K-major and MN-major). A TMA
    descriptor used with a buffer takes the layout of that buffer, seen
    through its views: the kernel argument's type or the
    `tt.make_tensor_descriptor` result is rewritten, which is what the
    host-side tensor map is built from. A descriptor used with buffers of two
    layouts is an error. A tensor-memory allocation (sm_100) gets a
    `#ttng.tensor_memory_encoding` (the user's, checked, or blockM = rows,
    blockN = columns, packed) and must fit the 512 columns of tensor memory.
  }];
  let dependentDialects = ["::mlir::triton::gpu::TritonGPUDialect",
                           "::mlir::triton::nvidia_gpu::TritonNvidiaGPUDialect"];
}

def TLXLowerToTritonGPU : Pass<"tlx-lower-to-ttg", "::mlir::ModuleOp"> {
  let summary = "Lower TLX ops to ttg/ttng";
  let description = [{
    Needs the layouts of `tlx-assign-layouts` and runs after
    `tlx-lower-to-nvvm` (an op without a TritonGPU lowering is an error).
    Buffers become `ttg.local_alloc` in shared memory in their layout; views
    become memdesc views. mbarriers become a `Nx1xi64` allocation whose
    entries are initialized (`ttng.init_barrier`) and made visible to the CTA
    (`ttg.local_barrier`) where they are allocated. Barrier, TMA, cp.async,
    fence and wgmma ops map onto their ttng/ttg counterparts. Once they are
    lowered, each `tlx.async_tasks` becomes a `ttg.warp_specialize`: its
    tasks are checked against the kernel's warps and register file first,
    and the kernel's launch register cap (`ttg.maxnreg`) is set where
    register budgets need one.
  }];
  let dependentDialects = [
    "::mlir::triton::gpu::TritonGPUDialect",
    "::mlir::triton::nvidia_gpu::TritonNvidiaGPUDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::triton::nvgpu::NVGPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
  ];
}

def TLXApplyLayoutPins : Pass<"tlx-apply-layout-pins", "::mlir::ModuleOp"> {
  let summary = "Apply the pinned register layouts again after Triton's layout optimizations";
  let description = [{
    Runs on the final TTGIR of a TLX kernel, once Triton's layout passes have
    run. Each pin marker that `tlx.require_layout(..., pin=True)` left (an
    opaque `tt.elementwise_inline_asm` with `tlx.layout_marker = "pin"` and
    its layout in `tlx.layout`) becomes a `ttg.convert_layout` of its operand
    to that layout, which the tensors computed elementwise from it (and the
    values loops carry for them) take too
    (their other operands are converted to it); every other user keeps the
    layout Triton gave it, through a conversion. Release markers become the
    conversion back to the layout Triton chose after them. An assertion of
    an expected layout gets its other side: the value converted to that
    layout, for the check of the final layouts.
  }];
  let dependentDialects = ["::mlir::triton::gpu::TritonGPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def TLXLowerWarpBallots : Pass<"tlx-lower-warp-ballots", "::mlir::ModuleOp"> {
  let summary = "Write the PTX of tensor warp ballots, and of the row scalings that branch on them, once the register layouts are final";
  let description = [{
    Runs on the final TTGIR of a TLX kernel. Each ballot marker that
    `tlx.vote_ballot_sync` of a tensor left (an opaque
    `tt.elementwise_inline_asm` with `tlx.layout_marker = "ballot"`, the
    predicate as i32 flags; the op's verifier allows the whole warp's mask
    only) becomes inline PTX
    over all `tlx.elements_per_thread` elements a thread holds (set by the
    compiler from the final layout): their OR, `vote.sync.ballot.b32`, and
    the ballot in every element of the result. Each scale marker that
    `tlx.scale_rows` left (`tlx.layout_marker = "scale_rows"` over the rows,
    their factors and the ballot of the factors that differ from 1, all in
    the rows' shape) becomes inline PTX over all the elements a thread
    holds: a `bra.uni` on the ballot around one `mul.f32` per element, each
    result tied to its row's register so that the skipped path moves
    nothing.
  }];
}

def TLXEraseLayoutAsserts : Pass<"tlx-erase-layout-asserts", "::mlir::ModuleOp"> {
  let summary = "Erase the layout assertion markers once they are checked";
  let description = [{
    The markers of `tlx.assert_same_layout` on tensors (and the conversions
    to an expected layout that feed them) emit no code: once the layouts are
    compared, they go.
  }];
}

def TLXRecordDescriptorLayouts
    : Pass<"tlx-record-descriptor-layouts", "::mlir::ModuleOp"> {
  let summary = "Record the layout TLX gave each TMA descriptor before stock "
                "optimize-descriptor-encoding";
  let description = [{
    Runs right before Triton's `optimize-descriptor-encoding`, which the TLX
    compiler runs only for modules with a descriptor without a layout (one
    only stock TMA ops use). Every descriptor whose block has a layout (the
    ones `tlx-assign-layouts` gave the layout of the buffers they copy) has
    its type recorded in a `tlx.descriptor_type` attribute where it is
    defined: on the kernel argument, or on the op that makes or reads it.
    A `ttg.warp_specialize` partition argument of such a descriptor that its
    task does not use gets a use the stock pass sees (an
    `unrealized_conversion_cast` marked `tlx.descriptor_anchor`): the stock
    pass retypes only the values it sees used, and the partition would keep
    another type than its capture.
  }];
}

def TLXRestoreDescriptorLayouts
    : Pass<"tlx-restore-descriptor-layouts", "::mlir::ModuleOp"> {
  let summary = "Give TLX's TMA descriptors back the layout of their buffers "
                "after stock optimize-descriptor-encoding";
  let description = [{
    Runs right after Triton's `optimize-descriptor-encoding`, which retypes
    every descriptor from the stock TMA ops using it and gives each one it
    sees no such use of the default layout of its block, whatever the buffers
    it copies: a kernel-argument descriptor would get a host tensor map of
    another swizzle than its buffer's, silently. The anchors of
    `tlx-record-descriptor-layouts` go; each descriptor with a
    `tlx.descriptor_type` gets that type back, and so does every
    `ttg.warp_specialize` partition argument it is captured as; the kernel's
    function type follows, and the attributes go. A recorded descriptor that
    reaches any other op carrying it to another value (a loop, a branch, a
    call) is an error.
  }];
  let dependentDialects = ["::mlir::triton::gpu::TritonGPUDialect"];
}

#endif // TLX_CONVERSION_TLXTOTRITONGPU_PASSES_TD
