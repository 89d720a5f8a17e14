//===- Passes.td - TLX -> TritonGPU lowering -------------------*- tablegen -*-===//

#ifndef TLX_CONVERSION_TLXTOTRITONGPU_PASSES_TD
#define TLX_CONVERSION_TLXTOTRITONGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLXLowerToTritonGPU : Pass<"tlx-lower-to-ttg", "::mlir::ModuleOp"> {
  let summary = "Lower TLX ops to ttg/ttng and NVVM, choosing buffer layouts";
  let description = [{
    Buffers become `ttg.local_alloc` in shared memory with the user's layout,
    or else the NVMMA shared layout with the widest swizzle the shape allows
    (one layout that both TMA and wgmma read at full speed); views become
    `ttg.memdesc_index`. mbarriers become a `Nx1xi64` allocation whose
    entries are initialized (`ttng.init_barrier`) and made visible to the CTA
    (`ttg.local_barrier`) where they are allocated. Barrier, TMA, cp.async and
    fence ops map onto their ttng/ttg counterparts; special registers onto
    NVVM. TMA descriptors used with a buffer take that buffer's layout
    (kernel argument types or `tt.make_tensor_descriptor` results), which is
    what the host-side tensor map is built from.
  }];
  let dependentDialects = [
    "::mlir::triton::gpu::TritonGPUDialect",
    "::mlir::triton::nvidia_gpu::TritonNvidiaGPUDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::arith::ArithDialect",
  ];
}

#endif // TLX_CONVERSION_TLXTOTRITONGPU_PASSES_TD
