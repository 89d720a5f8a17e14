//===- TritonGPUAttrInterfaces.td - ttg attribute interfaces --------------===//

#ifndef TLX_TRITONGPU_ATTRINTERFACES_TD
#define TLX_TRITONGPU_ATTRINTERFACES_TD

include "mlir/IR/OpBase.td"

def TTG_MemDescEncodingAttrInterface
    : AttrInterface<"MemDescEncodingAttrInterface"> {
  let cppNamespace = "::mlir::triton::gpu";
  let description = [{
    An encoding defined outside ttg (tensor memory, in ttng) that checks the
    `!ttg.memdesc` types using it.
  }];
  let methods = [
    InterfaceMethod<"Checks a memdesc with this encoding.", "::mlir::LogicalResult",
      "verifyMemDesc", (ins
        "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
        "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType,
        "::mlir::Attribute":$memorySpace,
        "::llvm::ArrayRef<int64_t>":$allocShape)>
  ];
}

#endif // TLX_TRITONGPU_ATTRINTERFACES_TD
