//===- TritonGPUDialect.td - the ttg dialect as Triton 3.6 prints it -----===//

#ifndef TLX_TRITONGPU_DIALECT_TD
#define TLX_TRITONGPU_DIALECT_TD

include "mlir/IR/OpBase.td"

def TritonGPU_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::mlir::triton::gpu";
  let summary = "Triton's GPU IR (TTGIR): layouts, shared memory, async copies";
  let dependentDialects = ["triton::TritonDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class TTG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TritonGPU_Dialect, mnemonic, traits>;

#endif // TLX_TRITONGPU_DIALECT_TD
