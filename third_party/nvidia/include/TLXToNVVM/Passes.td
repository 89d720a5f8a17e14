//===- Passes.td - TLX -> NVVM lowering ------------------------*- tablegen -*-===//

#ifndef TLX_TLXTONVVM_PASSES_TD
#define TLX_TLXTONVVM_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLXLowerToNVVM : Pass<"tlx-lower-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower the TLX ops TritonGPU has no op for to NVVM";
  let description = [{
    Named barriers become `nvvm.barrier` (`bar.sync id, n`) and
    `nvvm.barrier.arrive` (`bar.arrive id, n`); `tlx.thread_id` becomes the
    `%tid.x/y/z` special register read, `tlx.clock64` the `%clock64` one.
    Stock Triton 3.6 takes NVVM ops in TTGIR through to PTX. Every other TLX
    op is left for `tlx-lower-to-ttg`.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

#endif // TLX_TLXTONVVM_PASSES_TD
