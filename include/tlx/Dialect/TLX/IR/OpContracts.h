//===- OpContracts.h - what the carrier of each TLX op carries --*- C++ -*-===//
//
// The op contract table is generated at build time from the ODS records of
// TLXOps.td (tools/gen-op-contracts): for every TLX op, its operands in ODS
// order (arity, and whether each is a TLX handle, a tensor, a scalar or a
// descriptor), its attributes and how a carrier encodes them, its results and
// regions. The raise pass reads carriers with it; the Python frontend builds
// them from the same table (tlx._C.op_contracts()). docs/carriers.md.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_DIALECT_TLX_IR_OPCONTRACTS_H
#define TLX_DIALECT_TLX_IR_OPCONTRACTS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tlx {

/// What a value of an operand or result may be, as a bit set.
enum ValueKind : unsigned {
  kHandle = 1, ///< a TLX buffer(s) or mbarrier(s): an i64 handle on carriers
  kTensor = 2,
  kScalar = 4,
  kDescriptor = 8,
};

enum class Arity { Single, Optional, Variadic };

/// How a carrier encodes an ODS attribute (`tlx.<name>` on the carrier).
enum class AttributeEncoding {
  Int,      ///< i32 IntegerAttr (I32Attr, I32 enums)
  Bool,     ///< BoolAttr
  Unit,     ///< BoolAttr: true sets the UnitAttr, false leaves it out
  I32Array, ///< dense<[...]> : tensor<Nxi32>, raised to array<i32: ...>
  Text,     ///< StringAttr holding the attribute's MLIR text
};

struct ValueContract {
  std::string name;
  unsigned kinds;
  Arity arity;
};

struct AttributeContract {
  std::string name;
  AttributeEncoding encoding;
  bool optional;
};

struct OpContract {
  std::string name; ///< without the dialect prefix: "local_alloc"
  llvm::SmallVector<ValueContract> operands;
  llvm::SmallVector<AttributeContract> attributes;
  llvm::SmallVector<ValueContract> results;
  unsigned numRegions;
  bool hasOperandSegments; ///< AttrSizedOperandSegments

  const AttributeContract *lookupAttribute(llvm::StringRef name) const;
  /// Whether any operand is optional or variadic (its carrier then says how
  /// many values each operand has: `tlx.operand_segments`).
  bool hasVariableOperands() const;
};

/// The contract of `tlx.<name>`, or null for a name TLX does not define.
const OpContract *lookupOpContract(llvm::StringRef name);

/// The table as JSON text, as generated (tlx._C.op_contracts()).
llvm::StringRef getOpContractsJSON();

} // namespace mlir::tlx

#endif // TLX_DIALECT_TLX_IR_OPCONTRACTS_H
