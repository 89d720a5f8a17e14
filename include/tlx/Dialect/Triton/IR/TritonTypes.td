//===- TritonTypes.td - tt types and type constraints --------------------===//

#ifndef TLX_TRITON_TYPES_TD
#define TLX_TRITON_TYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "tlx/Dialect/Triton/IR/TritonDialect.td"

class TT_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Triton_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TT_PtrType : TT_TypeDef<"Pointer", "ptr"> {
  let summary = "pointer to a scalar or, for block pointers, to a tensor";
  let description = [{
    `!tt.ptr<f16>` in address space 1 (global); other address spaces print
    after the pointee: `!tt.ptr<i8, 3>`.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType, "int":$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType,
                                        "int":$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let skipDefaultBuilders = 1;
}

def TT_TensorDescType : TT_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "TMA tensor descriptor of a block shape and layout";
  let description = [{
    `!tt.tensordesc<tensor<64x64xf16, #shared>>`: the block a descriptor
    loads or stores, with its shared-memory encoding once TTGIR assigns one.
  }];
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
}

//===----------------------------------------------------------------------===//
// Constraints: what Triton accepts where. Tensors are builtin ranked tensors
// (with a layout encoding in TTGIR).
//===----------------------------------------------------------------------===//

def TT_Float : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F16,
                          BF16, F32, F64], "floating-point">;
def TT_FloatTensor : RankedTensorOf<[TT_Float]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;

def TT_BoolTensor : RankedTensorOf<[I1]>;
def TT_BoolLike : AnyTypeOf<[I1, TT_BoolTensor]>;

def TT_Int : AnyTypeOf<[I1, I<4>, I8, I16, I32, I64], "integer">;
def TT_IntTensor : RankedTensorOf<[TT_Int]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;

def TT_I32Like : AnyTypeOf<[I32, RankedTensorOf<[I32]>]>;
def TT_I64Like : AnyTypeOf<[I64, RankedTensorOf<[I64]>]>;

def TT_Ptr : DialectType<Triton_Dialect,
                         CPred<"::llvm::isa<::mlir::triton::PointerType>($_self)">,
                         "pointer", "::mlir::triton::PointerType">;
def TT_PtrTensor : RankedTensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;

def TT_TensorDesc : DialectType<Triton_Dialect,
    CPred<"::llvm::isa<::mlir::triton::TensorDescType>($_self)">,
    "tensor descriptor", "::mlir::triton::TensorDescType">;

def TT_Tensor : RankedTensorOf<[TT_Float, TT_Int, TT_Ptr]>;
def TT_Type : AnyTypeOf<[TT_FloatLike, TT_IntLike, TT_PtrLike, TT_TensorDesc]>;

/// The memory tt.load, tt.store and friends read and write.
def TT_GlobalMemory : Resource<"::mlir::triton::GlobalMemory">;

#endif // TLX_TRITON_TYPES_TD
