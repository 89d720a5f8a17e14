//===- Types.cpp - TLX types ------------------------------------*- C++ -*-===//

#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tlx;

/// Parses `128x64xf16` into its static shape and element type.
static ParseResult parseShapeAndElement(AsmParser &parser,
                                        SmallVector<int64_t> &shape,
                                        Type &elementType) {
  if (parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  return success();
}

static void printShapeAndElement(AsmPrinter &printer, ArrayRef<int64_t> shape,
                                 Type elementType) {
  for (int64_t dim : shape)
    printer << dim << 'x';
  printer << elementType;
}

/// Parses a storage keyword; an unknown one names the valid choices.
static ParseResult parseStorageKind(AsmParser &parser, StorageKind &storage) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<StorageKind> parsed = symbolizeStorageKind(keyword);
  if (!parsed)
    return parser.emitError(loc) << "unknown TLX storage kind '" << keyword
                                 << "'; expected smem, tmem or smemCluster";
  storage = *parsed;
  return success();
}

static void printStorageKind(AsmPrinter &printer, StorageKind storage) {
  printer << stringifyStorageKind(storage);
}

#define GET_TYPEDEF_CLASSES
#include "tlx/Dialect/TLX/IR/Types.cpp.inc"

void TLXDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tlx/Dialect/TLX/IR/Types.cpp.inc"
      >();
}

/// The checks shared by one buffer and a set of buffers.
static LogicalResult
verifyBufferShape(function_ref<InFlightDiagnostic()> emitError,
                  ArrayRef<int64_t> shape, Type elementType,
                  StorageKind storage) {
  if (shape.empty())
    return emitError() << "a TLX buffer needs at least one dimension";
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "TLX buffer dimensions must be positive, got "
                         << dim;
  if (!elementType.isIntOrFloat())
    return emitError() << "TLX buffers hold integers or floats, not "
                       << elementType;
  if (storage == StorageKind::tmem && shape.size() != 2)
    return emitError() << "tensor memory buffers are 2-D (rows x columns), "
                          "got rank "
                       << shape.size();
  return success();
}

LogicalResult BuffersType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t count, ArrayRef<int64_t> shape,
                                  Type elementType, StorageKind storage) {
  if (count <= 0)
    return emitError() << "a TLX allocation holds at least one buffer, got "
                       << count;
  return verifyBufferShape(emitError, shape, elementType, storage);
}

BufferType BuffersType::getBufferType() const {
  return BufferType::get(getContext(), getShape(), getElementType(),
                         getStorage());
}

LogicalResult BufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> shape, Type elementType,
                                 StorageKind storage) {
  return verifyBufferShape(emitError, shape, elementType, storage);
}

LogicalResult
MBarriersType::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t count) {
  if (count <= 0)
    return emitError() << "a TLX barrier allocation holds at least one "
                          "mbarrier, got "
                       << count;
  return success();
}
