//===- TritonDialect.td - the tt dialect as Triton 3.6 prints it ---------===//
//
// TLX cannot link libtriton, so it speaks Triton IR through text. This is our
// own definition of the `tt` dialect whose names and textual syntax match
// Triton 3.6.0 exactly (proven by the round-trip oracle in python/test).
//
//===----------------------------------------------------------------------===//

#ifndef TLX_TRITON_DIALECT_TD
#define TLX_TRITON_DIALECT_TD

include "mlir/IR/OpBase.td"

def Triton_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::mlir::triton";
  let summary = "Triton's tile-level IR (TTIR), as Triton 3.6 prints it";
  let dependentDialects = [
    "arith::ArithDialect",
    "math::MathDialect",
    "scf::SCFDialect",
    "cf::ControlFlowDialect",
    "ub::UBDialect",
  ];
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

// Every tensor a tt op takes or gives holds a power of two (or zero) of at most
// 2^20 elements, as stock Triton requires of its tt ops.
def TT_TensorSizeLimit : NativeOpTrait<"TensorSizeLimit"> {
  let cppNamespace = "::mlir::triton";
}

class TT_Op<string mnemonic, list<Trait> traits = []>
    : Op<Triton_Dialect, mnemonic, !listconcat(traits, [TT_TensorSizeLimit])>;

#endif // TLX_TRITON_DIALECT_TD
