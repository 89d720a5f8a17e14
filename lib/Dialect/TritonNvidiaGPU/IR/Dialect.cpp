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
