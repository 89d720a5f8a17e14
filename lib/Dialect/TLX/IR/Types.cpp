//===- Types.cpp - TLX types ------------------------------------*- C++ -*-===//

#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

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
  if (elementType.isInteger(1))
    return emitError() << "TLX buffers do not hold i1: store booleans as i8 "
                          "(tl.int8)";
  // Triton's shared memory descriptors lay out power-of-two dimensions only.
  if (storage != StorageKind::tmem)
    for (int64_t dim : shape)
      if (!llvm::isPowerOf2_64(dim))
        return emitError() << "shared-memory buffer dimensions must be "
                              "powers of two, got "
                           << dim;
  if (storage == StorageKind::tmem && shape.size() != 2)
    return emitError() << "tensor memory buffers are 2-D (rows x columns), "
                          "got rank "
                       << shape.size();
  return success();
}

/// No memory a kernel allocates (shared, tensor, cluster) comes near this;
/// sizes below it cannot overflow 64-bit arithmetic downstream.
constexpr int64_t kMaxAllocationBytes = int64_t(1) << 31;

/// count x elements x bits / 8, rounded up; nullopt on 64-bit overflow.
static std::optional<int64_t> getBytes(int64_t count, ArrayRef<int64_t> shape,
                                       Type elementType) {
  int64_t bits = elementType.getIntOrFloatBitWidth();
  if (llvm::MulOverflow(bits, count, bits))
    return std::nullopt;
  for (int64_t dim : shape)
    if (llvm::MulOverflow(bits, dim, bits))
      return std::nullopt;
  return llvm::divideCeil(bits, 8);
}

LogicalResult BuffersType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t count, ArrayRef<int64_t> shape,
                                  Type elementType, StorageKind storage) {
  if (count <= 0)
    return emitError() << "a TLX allocation holds at least one buffer, got "
                       << count;
  if (failed(verifyBufferShape(emitError, shape, elementType, storage)))
    return failure();
  std::optional<int64_t> bytes = getBytes(count, shape, elementType);
  if (!bytes || *bytes >= kMaxAllocationBytes)
    return emitError() << "a TLX allocation of " << count << " buffers of "
                       << shape.size() << "-D " << elementType << " needs "
                       << (bytes ? std::to_string(*bytes) : "over 2^63")
                       << " bytes, more than any memory a kernel can "
                          "allocate (2^31)";
  return success();
}

int64_t BuffersType::getAllocationBytes() const {
  return getBytes(getCount(), getShape(), getElementType()).value_or(0);
}

int64_t BuffersType::getTensorMemoryColumns(unsigned colStride) const {
  ArrayRef<int64_t> shape = getShape();
  int64_t bits = getElementType().getIntOrFloatBitWidth();
  int64_t rowBlocks = std::max<int64_t>(1, shape.front() / 128);
  int64_t perBuffer =
      std::max<int64_t>(1, rowBlocks * shape.back() * bits * colStride / 32);
  return getCount() * perBuffer;
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
  if (count > kMaxAllocationBytes / 8)
    return emitError() << "a TLX barrier allocation of " << count
                       << " mbarriers needs more than 2^31 bytes";
  return success();
}

LogicalResult
CLCResponsesType::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t count) {
  if (count <= 0)
    return emitError() << "a TLX allocation of CLC responses holds at least "
                          "one response, got "
                       << count;
  if (count > kMaxAllocationBytes / 16)
    return emitError() << "a TLX allocation of " << count
                       << " CLC responses needs more than 2^31 bytes";
  return success();
}

LogicalResult
StorageAliasSpecType::verify(function_ref<InFlightDiagnostic()> emitError,
                             StorageKind storage) {
  if (storage == StorageKind::smemCluster)
    return emitError() << "a storage_alias_spec lives in smem or tmem, not "
                          "smemCluster";
  return success();
}
