//===- TritonNvidiaGPUDialect.td - ttng as Triton 3.6 prints it ----------===//

#ifndef TLX_TRITONNVIDIAGPU_DIALECT_TD
#define TLX_TRITONNVIDIAGPU_DIALECT_TD

include "mlir/IR/OpBase.td"

def TritonNvidiaGPU_Dialect : Dialect {
  let name = "ttng";
  let cppNamespace = "::mlir::triton::nvidia_gpu";
  let summary = "Hopper and Blackwell specifics of TTGIR: mbarriers, TMA, "
                "wgmma, tensor memory and tcgen05";
  let dependentDialects = ["triton::TritonDialect",
                           "triton::gpu::TritonGPUDialect"];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

class TTNG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TritonNvidiaGPU_Dialect, mnemonic, traits>;

#endif // TLX_TRITONNVIDIAGPU_DIALECT_TD
