//===- TritonGPUTypes.td - ttg types --------------------------------------===//

#ifndef TLX_TRITONGPU_TYPES_TD
#define TLX_TRITONGPU_TYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "tlx/Dialect/Triton/IR/TritonTypes.td"
include "tlx/Dialect/TritonGPU/IR/TritonGPUDialect.td"

class TTG_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TritonGPU_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TTG_AsyncToken : TTG_TypeDef<"AsyncToken", "async.token"> {
  let summary = "completion token of asynchronous copies and MMAs";
}

def TTG_MemDescType : TTG_TypeDef<"MemDesc", "memdesc", [ShapedTypeInterface]> {
  let summary = "a descriptor of memory in shared or tensor memory";
  let description = [{
    `!ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>`: shape, element
    type, layout encoding, memory space, mutability; a view that covers only
    part of its allocation prints the allocation's shape last
    (`..., mutable, 64x64>`).
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding,
                        "::mlir::Attribute":$memorySpace,
                        "bool":$mutableMemory,
                        ArrayRefParameter<"int64_t">:$allocShape);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType, "::mlir::Attribute":$encoding,
        "::mlir::Attribute":$memorySpace, CArg<"bool", "false">:$mutableMemory), [{
      return $_get(elementType.getContext(), shape, elementType, encoding,
                   memorySpace, mutableMemory, shape);
    }]>,
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType, "::mlir::Attribute":$encoding,
        "::mlir::Attribute":$memorySpace, "bool":$mutableMemory,
        "::llvm::ArrayRef<int64_t>":$allocShape), [{
      return $_get(elementType.getContext(), shape, elementType, encoding,
                   memorySpace, mutableMemory, allocShape);
    }]>
  ];
  let extraClassDeclaration = [{
    MemDescType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                          ::mlir::Type elementType) const {
      return MemDescType::get(shape.value_or(getShape()), elementType,
                              getEncoding(), getMemorySpace(),
                              getMutableMemory(), getAllocShape());
    }
    bool hasRank() const { return true; }
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
}

//===----------------------------------------------------------------------===//
// Constraints (here, not with the ops, so ttng can use them too)
//===----------------------------------------------------------------------===//

def TTG_MemDesc : DialectType<TritonGPU_Dialect,
    CPred<"::llvm::isa<::mlir::triton::gpu::MemDescType>($_self)">,
    "memory descriptor", "::mlir::triton::gpu::MemDescType">;
def TTG_AsyncTokenT : DialectType<TritonGPU_Dialect,
    CPred<"::llvm::isa<::mlir::triton::gpu::AsyncTokenType>($_self)">,
    "async token", "::mlir::triton::gpu::AsyncTokenType">,
    BuildableType<"$_builder.getType<::mlir::triton::gpu::AsyncTokenType>()">;
def TT_TensorOrMemDesc : AnyTypeOf<[TT_Tensor, TTG_MemDesc],
                                   "tensor or memory descriptor">;

#endif // TLX_TRITONGPU_TYPES_TD
