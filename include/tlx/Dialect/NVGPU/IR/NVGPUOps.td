//===- NVGPUOps.td - nvg as Triton 3.6 prints it ----------*- tablegen -*-===//
//
// Only the ops TLX lowerings emit. Triton's own definition has more.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_NVGPU_OPS_TD
#define TLX_NVGPU_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def NVGPU_Dialect : Dialect {
  let name = "nvg";
  let cppNamespace = "::mlir::triton::nvgpu";
  let summary = "NVIDIA specifics below TritonGPU, lowered by Triton's "
                "NVGPU-to-LLVM conversion";
}

class NVGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<NVGPU_Dialect, mnemonic, traits>;

def NVGPU_WarpIdOp : NVGPU_Op<"warp_id", [Pure]> {
  let summary = "the warp's index in its warp group or warp-specialized "
                "partition, uniform across the warp";
  let description = [{
    Inside a `ttg.warp_specialize` partition Triton counts from the
    partition's first warp, so `nvg.warp_id == 0` names one warp of whatever
    runs the op: what lowerings that must issue once (a TMA, a remote
    arrive) predicate on.
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

#endif // TLX_NVGPU_OPS_TD
