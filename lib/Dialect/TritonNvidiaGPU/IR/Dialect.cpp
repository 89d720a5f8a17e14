//===- Dialect.cpp - the ttng dialect and its attributes ------------------===//

#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::triton::nvidia_gpu;

#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tlx/Dialect/TritonNvidiaGPU/IR/Attributes.cpp.inc"

namespace {
/// `#tmem` and `#tmem_scales`, as Triton prints them.
struct TritonNvidiaGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<TensorMemoryEncodingAttr>(attr)) {
      os << "tmem";
      return AliasResult::FinalAlias;
    }
    if (isa<TensorMemoryScalesEncodingAttr>(attr)) {
      os << "tmem_scales";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TritonNvidiaGPUDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tlx/Dialect/TritonNvidiaGPU/IR/Ops.cpp.inc"
      >();
  addInterfaces<TritonNvidiaGPUOpAsmInterface>();
}

void TritonNvidiaGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tlx/Dialect/TritonNvidiaGPU/IR/Attributes.cpp.inc"
      >();
}

LogicalResult
TensorMemoryEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 unsigned blockM, unsigned blockN,
                                 unsigned colStride, unsigned ctaSplitM,
                                 unsigned ctaSplitN, bool) {
  if (blockM != 64 && blockM != 128)
    return emitError() << "blockM must be 64 or 128 but got " << blockM;
  if (!llvm::isPowerOf2_32(blockN))
    return emitError() << "blockN must be a power of 2 but got " << blockN;
  if (blockN > 512)
    return emitError() << "blockN must be less than or equal to 512 but got "
                       << blockN;
  if (colStride != 1 && colStride != 2 && colStride != 4)
    return emitError() << "colStride must be 1, 2, or 4 but got " << colStride;
  if (!llvm::isPowerOf2_32(ctaSplitM) || !llvm::isPowerOf2_32(ctaSplitN))
    return emitError() << "CTASplitM and CTASplitN must be greater than 0 "
                          "and a power of 2";
  return success();
}

LogicalResult TensorMemoryEncodingAttr::verifyMemDesc(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> shape,
    Type elementType, Attribute memorySpace,
    ArrayRef<int64_t> allocShape) const {
  if (!isa_and_nonnull<TensorMemorySpaceAttr>(memorySpace))
    return emitError() << "memorySpace must be TensorMemory for tensor memory "
                          "encoding. Got "
                       << memorySpace;
  if (shape.size() != 2 && shape.size() != 3)
    return emitError() << "tensor memory buffers are 2-D or 3-D, got rank "
                       << shape.size();
  unsigned bitwidth = elementType.getIntOrFloatBitWidth();
  if (bitwidth * getColStride() > 32)
    return emitError() << "bitwidth * colStride must be less than or equal to "
                          "32. Got "
                       << bitwidth << " and " << getColStride();
  int64_t minRows = getBlockM() * getCTASplitM();
  int64_t minCols = getBlockN() * getCTASplitN();
  ArrayRef<int64_t> tile = allocShape.take_back(2);
  if (tile[0] < minRows || tile[1] < minCols)
    return emitError() << "the allocation shape must be at least " << minRows
                       << "x" << minCols << ". Got " << tile[0] << ", "
                       << tile[1];
  return success();
}

LogicalResult TensorMemoryScalesEncodingAttr::verifyMemDesc(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t>,
    Type elementType, Attribute memorySpace,
    ArrayRef<int64_t> allocShape) const {
  if (!isa_and_nonnull<TensorMemorySpaceAttr>(memorySpace))
    return emitError() << "memorySpace must be TensorMemory for tensor memory "
                          "encoding. Got "
                       << memorySpace;
  if (allocShape.size() != 2)
    return emitError() << "Scales don't currently support multibuffering";
  if (elementType.getIntOrFloatBitWidth() != 8)
    return emitError() << "tensor memory scales are 8-bit, got " << elementType;
  return success();
}
