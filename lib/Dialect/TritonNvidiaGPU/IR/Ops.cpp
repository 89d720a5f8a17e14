//===- Ops.cpp - ttng operations ------------------------------------------===//

#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::triton;
using namespace mlir::triton::gpu;
using namespace mlir::triton::nvidia_gpu;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `[%dep]`, `[]` or nothing: whether the op yields an async token, and the
/// token it depends on.
static ParseResult
parseToken(OpAsmParser &parser,
           std::optional<OpAsmParser::UnresolvedOperand> &dep,
           Type &tokenType) {
  if (failed(parser.parseOptionalLSquare()))
    return success();
  tokenType = parser.getBuilder().getType<AsyncTokenType>();
  if (succeeded(parser.parseOptionalRSquare()))
    return success();
  OpAsmParser::UnresolvedOperand operand;
  if (parser.parseOperand(operand) || parser.parseRSquare())
    return failure();
  dep = operand;
  return success();
}

static void printToken(OpAsmPrinter &printer, Operation *, Value dep,
                       Type tokenType) {
  if (!tokenType)
    return;
  printer << "[";
  if (dep)
    printer << dep;
  printer << "]";
}

/// `, %bar0[%pred0], %bar1[%pred1]`: the mbarriers an MMA arrives on.
static ParseResult
parseBarriersAndPreds(OpAsmParser &parser,
                      SmallVectorImpl<OpAsmParser::UnresolvedOperand> &barriers,
                      SmallVectorImpl<OpAsmParser::UnresolvedOperand> &preds) {
  while (succeeded(parser.parseOptionalComma())) {
    OpAsmParser::UnresolvedOperand barrier, pred;
    if (parser.parseOperand(barrier) || parser.parseLSquare() ||
        parser.parseOperand(pred) || parser.parseRSquare())
      return failure();
    barriers.push_back(barrier);
    preds.push_back(pred);
  }
  return success();
}

static void printBarriersAndPreds(OpAsmPrinter &printer, Operation *,
                                  OperandRange barriers, OperandRange preds) {
  for (auto [barrier, pred] : llvm::zip(barriers, preds))
    printer << ", " << barrier << "[" << pred << "]";
}

#define GET_OP_CLASSES
#include "tlx/Dialect/TritonNvidiaGPU/IR/Ops.cpp.inc"

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

static LogicalResult verifyBarrierType(Operation *op, MemDescType barrier) {
  if (barrier.getShape().size() != 1 || barrier.getShape()[0] != 1 ||
      !barrier.getElementType().isInteger(64))
    return op->emitOpError("barrier allocation must be a descriptor of 1xi64 "
                           "type");
  return success();
}

static bool isTensorMemory(MemDescType type) {
  return isa_and_nonnull<TensorMemorySpaceAttr>(type.getMemorySpace());
}

LogicalResult InitBarrierOp::verify() {
  return verifyBarrierType(*this, getAlloc().getType());
}

LogicalResult InvalBarrierOp::verify() {
  return verifyBarrierType(*this, getAlloc().getType());
}

LogicalResult BarrierExpectOp::verify() {
  return verifyBarrierType(*this, getAlloc().getType());
}

LogicalResult WaitBarrierOp::verify() {
  return verifyBarrierType(*this, getAlloc().getType());
}

LogicalResult ArriveBarrierOp::verify() {
  if (getCount() < 1)
    return emitOpError("count must be greater than or equal to 1");
  return verifyBarrierType(*this, getAlloc().getType());
}

LogicalResult AsyncTMACopyGlobalToLocalOp::verify() {
  if (failed(verifyBarrierType(*this, getBarrier().getType())))
    return failure();
  if (getCoord().empty() || getCoord().size() > 5)
    return emitOpError("TMA copies must have between 1 and 5 coordinates");
  MemDescType result = getResult().getType();
  if (!result.getMutableMemory())
    return emitOpError("Cannot store into immutable memory");
  if (!isa<NVMMASharedEncodingAttr>(result.getEncoding()))
    return emitOpError("TMA result must have NVMMA shared layout");
  return success();
}

LogicalResult TensormapCreateOp::verify() {
  size_t rank = getBoxDim().size();
  if (getGlobalDim().size() != rank)
    return emitOpError("Rank mismatch for global dim. Got ")
           << getGlobalDim().size() << " but expected " << rank;
  if (getGlobalStride().size() + 1 != rank)
    return emitOpError("Rank mismatch for global stride. Got ")
           << getGlobalStride().size() << " but expected " << rank - 1;
  if (getElementStride().size() != rank)
    return emitOpError("Rank mismatch for element stride. Got ")
           << getElementStride().size() << " but expected " << rank;
  return success();
}

LogicalResult WarpGroupDotOp::verify() {
  auto result = getD().getType();
  auto mma = dyn_cast_or_null<NvidiaMmaEncodingAttr>(result.getEncoding());
  if (!mma || !mma.isHopper())
    return emitOpError("WGMMA result layout must be Hopper NVMMA");
  Type a = getA().getType();
  bool aInSharedMemory = false;
  if (auto buffer = dyn_cast<MemDescType>(a))
    aInSharedMemory = isa<NVMMASharedEncodingAttr, SharedLinearEncodingAttr>(
        buffer.getEncoding());
  bool aInRegisters = false;
  if (auto tensor = dyn_cast<RankedTensorType>(a))
    aInRegisters =
        isa_and_nonnull<DotOperandEncodingAttr>(tensor.getEncoding());
  if (!aInSharedMemory && !aInRegisters)
    return emitOpError("WGMMA A operand must have an NVMMA shared, shared "
                       "linear or dot operand layout");
  if (!isa<NVMMASharedEncodingAttr, SharedLinearEncodingAttr>(
          getB().getType().getEncoding()))
    return emitOpError(
        "WGMMA B operand must have an NVMMA shared or shared linear layout");
  if (result.getRank() != 2)
    return emitOpError("WGMMA result must be 2-D");
  if (result.getDimSize(0) % 64 != 0 || result.getDimSize(1) % 8 != 0)
    return emitOpError("WGMMA result shape must be a multiple of 64x8, got ")
           << result.getDimSize(0) << "x" << result.getDimSize(1);
  return success();
}

LogicalResult WarpGroupDotWaitOp::verify() {
  if (getInputs().empty())
    return emitOpError("expected to be waiting on at least one dependency");
  return success();
}

LogicalResult WarpGroupDotWaitOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &inferredReturnTypes) {
  for (Value operand : operands)
    inferredReturnTypes.push_back(operand.getType());
  return success();
}

/// The shared checks of tc_gen5_mma and tc_gen5_mma_scaled.
static LogicalResult verifyTCGen5(Operation *op, MemDescType a, MemDescType b,
                                  MemDescType d, bool isAsync,
                                  bool hasBarriers) {
  if (hasBarriers && !isAsync)
    return op->emitOpError("The op is synchronous but a barrier is present.");
  if (!isa<NVMMASharedEncodingAttr, SharedLinearEncodingAttr,
           TensorMemoryEncodingAttr>(a.getEncoding()))
    return op->emitOpError("LHS operand must have an NVMMAShared, "
                           "SharedLinear or TensorMemory encoding");
  if (!isa<NVMMASharedEncodingAttr, SharedLinearEncodingAttr>(b.getEncoding()))
    return op->emitOpError(
        "RHS operand must have an NVMMAShared or SharedLinear encoding");
  if (!isa<TensorMemoryEncodingAttr>(d.getEncoding()) || !isTensorMemory(d))
    return op->emitOpError("Return operand must have a TensorMemory encoding");
  return success();
}

LogicalResult TCGen5MMAOp::verify() {
  if (failed(verifyTCGen5(*this, getA().getType(), getB().getType(),
                          getD().getType(), getIsAsync(),
                          !getBarriers().empty())))
    return failure();
  MemDescType d = getD().getType();
  unsigned bitwidth = d.getElementType().getIntOrFloatBitWidth();
  auto encoding = cast<TensorMemoryEncodingAttr>(d.getEncoding());
  if (encoding.getColStride() != 32 / bitwidth)
    return emitOpError("The col stride of the return operand must be 32 / ")
           << bitwidth << " but got " << encoding.getColStride();
  return success();
}

LogicalResult TMEMSubSliceOp::verify() {
  MemDescType src = getSrc().getType(), result = getResult().getType();
  auto srcEncoding = dyn_cast<TensorMemoryEncodingAttr>(src.getEncoding());
  if (!isTensorMemory(src) || !srcEncoding)
    return emitOpError("The source must be a tensor memory buffer.");
  auto resultEncoding =
      dyn_cast<TensorMemoryEncodingAttr>(result.getEncoding());
  if (!isTensorMemory(result) || !resultEncoding)
    return emitOpError("The destination must be a tensor memory buffer.");
  if (srcEncoding.getBlockM() != resultEncoding.getBlockM() ||
      srcEncoding.getCTASplitM() != resultEncoding.getCTASplitM() ||
      srcEncoding.getCTASplitN() != resultEncoding.getCTASplitN())
    return emitOpError("The destination must have the same block size and "
                       "CTASplit size as the source.");
  return success();
}

LogicalResult TCGen5MMAScaledOp::verify() {
  if (!isTensorMemory(getD().getType()))
    return emitOpError("Return operand must have a TensorMemory encoding");
  return success();
}

/// The checks shared by tmem_load and tmem_store.
static LogicalResult verifyTMEMAccess(Operation *op, MemDescType buffer,
                                      RankedTensorType tensor) {
  if (!isTensorMemory(buffer))
    return op->emitOpError("source must be a tensor memory buffer.");
  if (!isa<TensorMemoryEncodingAttr, TensorMemoryScalesEncodingAttr>(
          buffer.getEncoding()))
    return op->emitOpError("should use tensor memory encoding.");
  if (tensor.getRank() != 2)
    return op->emitOpError("only 2-D tensors move to or from tensor memory");
  if (tensor.getElementType() != buffer.getElementType() ||
      tensor.getShape() != buffer.getShape())
    return op->emitOpError("tensor type ")
           << tensor << " does not match the tensor memory buffer " << buffer;
  return success();
}

LogicalResult TMEMLoadOp::verify() {
  return verifyTMEMAccess(*this, getSrc().getType(), getResult().getType());
}

LogicalResult TMEMStoreOp::verify() {
  if (!getDst().getType().getMutableMemory())
    return emitOpError("Cannot store into an immutable alloc");
  return verifyTMEMAccess(*this, getDst().getType(), getSrc().getType());
}

LogicalResult TMEMAllocOp::verify() {
  MemDescType type = getResult().getType();
  if (!isa<TensorMemoryEncodingAttr, TensorMemoryScalesEncodingAttr>(
          type.getEncoding()))
    return emitOpError("should use tensor memory encoding");
  if (!getSrc() && !type.getMutableMemory())
    return emitOpError("uninitialized alloc must have a mutable memdesc type");
  if (type.getShape() != type.getAllocShape())
    return emitOpError("result shape and its alloc shape must match");
  return success();
}
