//===- Types.cpp - tt types -----------------------------------------------===//

#include "tlx/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::triton;

#define GET_TYPEDEF_CLASSES
#include "tlx/Dialect/Triton/IR/Types.cpp.inc"

void TritonDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tlx/Dialect/Triton/IR/Types.cpp.inc"
      >();
}

/// The global address space, which Triton leaves out of the printed type.
static constexpr int kGlobalAddressSpace = 1;

Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  int addressSpace = kGlobalAddressSpace;
  if (parser.parseLess() || parser.parseType(pointee))
    return Type();
  if (succeeded(parser.parseOptionalComma()) &&
      parser.parseInteger(addressSpace))
    return Type();
  if (parser.parseGreater())
    return Type();
  return PointerType::get(pointee, addressSpace);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != kGlobalAddressSpace)
    printer << ", " << getAddressSpace();
  printer << ">";
}

Type mlir::triton::getPointeeType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(),
                                 getPointeeType(tensor.getElementType()),
                                 tensor.getEncoding());
  if (auto pointer = dyn_cast<PointerType>(type))
    return pointer.getPointeeType();
  return type;
}

Type mlir::triton::getI1SameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), i1, tensor.getEncoding());
  return i1;
}

Type mlir::triton::getPointerTypeToElement(Type type) {
  auto pointer = cast<PointerType>(type);
  Type pointee = pointer.getPointeeType();
  if (auto tensor = dyn_cast<RankedTensorType>(pointee))
    pointee = tensor.getElementType();
  return PointerType::get(pointee, pointer.getAddressSpace());
}
