//===- Ops.cpp - TLX operations ---------------------------------*- C++ -*-===//

#include "tlx/Dialect/TLX/IR/Dialect.h"
#include "tlx/Dialect/TLX/IR/StorageAlias.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tlx;

LogicalResult LocalViewOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  Type source = operands[0].getType();
  if (auto buffers = dyn_cast<BuffersType>(source)) {
    inferredReturnTypes.push_back(buffers.getBufferType());
    return success();
  }
  if (isa<MBarriersType>(source)) {
    inferredReturnTypes.push_back(MBarrierType::get(context));
    return success();
  }
  if (isa<CLCResponsesType>(source)) {
    inferredReturnTypes.push_back(CLCResponseType::get(context));
    return success();
  }
  return emitOptionalError(location,
                           "'tlx.local_view' selects from !tlx.buffers, "
                           "!tlx.mbarriers or !tlx.clc_responses, not ",
                           source);
}

#define GET_OP_CLASSES
#include "tlx/Dialect/TLX/IR/Ops.cpp.inc"

//===----------------------------------------------------------------------===//
// Verifiers: a buffer and the tensor, block or pointers it exchanges with
// must agree in shape and element type.
//===----------------------------------------------------------------------===//

static LogicalResult verifySharedBuffer(Operation *op, BufferType buffer) {
  if (buffer.getStorage() != StorageKind::smem)
    return op->emitOpError("needs a shared-memory buffer (storage smem), got ")
           << stringifyStorageKind(buffer.getStorage());
  return success();
}

/// The bytes of one buffer (the type's verifier bounds them below 2^31).
static int64_t getBufferBytes(BufferType type) {
  int64_t count = 1;
  for (int64_t dim : type.getShape())
    count *= dim;
  return count * type.getElementType().getIntOrFloatBitWidth() / 8;
}

static LogicalResult verifyMatchesBuffer(Operation *op, BufferType buffer,
                                         ArrayRef<int64_t> shape,
                                         Type elementType, StringRef what) {
  if (buffer.getShape() != shape)
    return op->emitOpError()
           << what << " shape [" << shape
           << "] does not match the buffer shape [" << buffer.getShape() << "]";
  if (buffer.getElementType() != elementType)
    return op->emitOpError() << what << " element type " << elementType
                             << " does not match the buffer element type "
                             << buffer.getElementType();
  return success();
}

LogicalResult LocalLoadOp::verify() {
  RankedTensorType result = getResult().getType();
  return verifyMatchesBuffer(*this, getBuffer().getType(), result.getShape(),
                             result.getElementType(), "loaded tensor");
}

LogicalResult LocalStoreOp::verify() {
  RankedTensorType value = getValue().getType();
  return verifyMatchesBuffer(*this, getBuffer().getType(), value.getShape(),
                             value.getElementType(), "stored tensor");
}

/// The TMA block of `desc` must be the buffer, addressed by one offset per
/// dimension; the block may have leading dimensions of 1 the buffer has not
/// (a [1, 1, 64, 128] block of a 4-D tensor into a 64x128 buffer), which only
/// the copies of Triton's own TMA ops take (`inlinePTX`: the copies TLX
/// writes as PTX, one message per box of the buffer).
static LogicalResult verifyTMA(Operation *op, triton::TensorDescType desc,
                               size_t numOffsets, BufferType buffer,
                               bool inlinePTX) {
  if (failed(verifySharedBuffer(op, buffer)))
    return failure();
  RankedTensorType block = desc.getBlockType();
  if (numOffsets != static_cast<size_t>(block.getRank()))
    return op->emitOpError("needs one offset per descriptor dimension: ")
           << block.getRank() << " expected, " << numOffsets << " given";
  // Triton types the blocks of integer descriptors with their signedness (a
  // uint8 tensor's ui8, an int32 tensor's si32); the bytes are the buffer's
  // signless integers all the same.
  Type element = block.getElementType();
  if (auto integer = dyn_cast<IntegerType>(element);
      integer && !integer.isSignless())
    element = IntegerType::get(op->getContext(), integer.getWidth());
  ArrayRef<int64_t> shape = block.getShape();
  size_t extra = shape.size() > buffer.getShape().size()
                     ? shape.size() - buffer.getShape().size()
                     : 0;
  if (extra && llvm::all_of(shape.take_front(extra),
                            [](int64_t dim) { return dim == 1; })) {
    if (inlinePTX)
      return op->emitOpError("copies a descriptor block of shape [")
             << shape << "] into a buffer of fewer dimensions ["
             << buffer.getShape()
             << "]: with multicast, two CTAs or an L2 cache hint the block "
                "must have the buffer's dimensions";
    shape = shape.drop_front(extra);
  }
  return verifyMatchesBuffer(op, buffer, shape, element, "descriptor block");
}

LogicalResult AsyncDescriptorLoadOp::verify() {
  // Triton 3.6's TMA lowering rejects it ("not supported yet"), and a TMA
  // load has no PTX form of its own for it.
  if (getCache() != triton::CacheModifier::NONE)
    return emitOpError("cache modifiers are not supported on TMA loads "
                       "(Triton 3.6 cannot lower them); leave cache_modifier "
                       "unset");
  bool inlinePTX = !getMulticastTargets().empty() || getTwoCTAs() ||
                   getEvict() != triton::EvictionPolicy::NORMAL;
  return verifyTMA(*this, getDesc().getType(), getOffsets().size(),
                   getBuffer().getType(), inlinePTX);
}

/// The element types a TMA reduction of `kind` combines (PTX's
/// `cp.reduce.async.bulk.tensor`, as Triton's descriptor atomics admit them).
static bool isReducible(triton::DescriptorReduceKind kind, Type element) {
  using Kind = triton::DescriptorReduceKind;
  bool i32 = element.isInteger(32), i64 = element.isInteger(64);
  bool f16 = element.isF16() || element.isBF16();
  switch (kind) {
  case Kind::ADD:
    return i32 || i64 || f16 || element.isF32();
  case Kind::MIN:
  case Kind::MAX:
    return i32 || i64 || f16;
  case Kind::INC:
  case Kind::DEC:
    return i32;
  case Kind::AND:
  case Kind::OR:
  case Kind::XOR:
    return i32 || i64;
  }
  return false;
}

LogicalResult AsyncDescriptorStoreOp::verify() {
  if (failed(verifyTMA(*this, getDesc().getType(), getOffsets().size(),
                       getBuffer().getType(),
                       getEvict() != triton::EvictionPolicy::NORMAL)))
    return failure();
  std::optional<triton::DescriptorReduceKind> kind = getReduce();
  Type element = getBuffer().getType().getElementType();
  if (kind && !isReducible(*kind, element))
    return emitOpError("store_reduce='")
           << triton::stringifyDescriptorReduceKind(*kind)
           << "' cannot combine elements of type " << element
           << " (TMA reductions: add on i32, i64, f32, f16, bf16; min and max "
              "on i32, i64, f16, bf16; and, or, xor on i32, i64)";
  return success();
}

LogicalResult AsyncDescriptorPrefetchTensorOp::verify() {
  int64_t rank = getDesc().getType().getBlockType().getRank();
  if (static_cast<int64_t>(getOffsets().size()) != rank)
    return emitOpError("needs one offset per descriptor dimension: ")
           << rank << " expected, " << getOffsets().size() << " given";
  return success();
}

/// A bulk copy of `size` bytes to or from `buffer`, when `size` is constant:
/// what `cp.async.bulk` moves.
static LogicalResult verifyBulkBytes(Operation *op, Value size,
                                     BufferType buffer) {
  APInt value;
  if (!matchPattern(size, m_ConstantInt(&value)))
    return success();
  int64_t bytes = value.getSExtValue();
  int64_t capacity = getBufferBytes(buffer);
  if (bytes <= 0 || bytes % 16 != 0 || bytes > capacity)
    return op->emitOpError("copies ")
           << bytes << " bytes; a bulk copy moves a positive multiple of 16 "
           << "bytes, at most the buffer's " << capacity;
  return success();
}

LogicalResult AsyncStoreOp::verify() {
  if (failed(verifySharedBuffer(*this, getSource().getType())))
    return failure();
  return verifyBulkBytes(*this, getSize(), getSource().getType());
}

LogicalResult AsyncBulkLoadOp::verify() {
  BufferType buffer = getBuffer().getType();
  if (failed(verifySharedBuffer(*this, buffer)))
    return failure();
  if (buffer.getShape().size() != 1)
    return emitOpError("copies bytes in order into a 1-D buffer, got shape [")
           << buffer.getShape() << "]";
  return verifyBulkBytes(*this, getSize(), buffer);
}

/// A gather's or scatter's indices against its buffer: same rank, the axis a
/// dimension, and every other dimension no larger than the buffer's.
static LogicalResult verifyIndexedAccess(Operation *op, BufferType buffer,
                                         RankedTensorType indices,
                                         int32_t axis) {
  if (failed(verifySharedBuffer(op, buffer)))
    return failure();
  int64_t rank = buffer.getShape().size();
  if (indices.getRank() != rank)
    return op->emitOpError("indices of rank ")
           << indices.getRank() << " for a buffer of rank " << rank;
  if (axis < 0 || axis >= rank)
    return op->emitOpError("axis ")
           << axis << " is not a dimension of the " << rank << "-D buffer";
  for (int64_t dim = 0; dim < rank; ++dim)
    if (dim != axis && indices.getShape()[dim] > buffer.getShape()[dim])
      return op->emitOpError("indices extend ")
             << indices.getShape()[dim] << " along dimension " << dim
             << ", past the buffer's " << buffer.getShape()[dim];
  int64_t bits = buffer.getElementType().getIntOrFloatBitWidth();
  if (bits != 16 && bits != 32 && bits != 64)
    return op->emitOpError("moves elements of 16, 32 or 64 bits, not ")
           << buffer.getElementType();
  return success();
}

LogicalResult LocalGatherOp::verify() {
  if (failed(verifyIndexedAccess(*this, getBuffer().getType(),
                                 getIndices().getType(), getAxis())))
    return failure();
  RankedTensorType result = getResult().getType();
  if (result.getShape() != getIndices().getType().getShape() ||
      result.getElementType() != getBuffer().getType().getElementType())
    return emitOpError("result must have the indices' shape and the "
                       "buffer's element type");
  return success();
}

LogicalResult LocalScatterOp::verify() {
  if (failed(verifyIndexedAccess(*this, getBuffer().getType(),
                                 getIndices().getType(), getAxis())))
    return failure();
  RankedTensorType value = getValue().getType();
  if (value.getShape() != getIndices().getType().getShape() ||
      value.getElementType() != getBuffer().getType().getElementType())
    return emitOpError("the scattered tensor must have the indices' shape "
                       "and the buffer's element type");
  return success();
}

LogicalResult RemoteShmemStoreOp::verify() {
  if (failed(verifySharedBuffer(*this, getBuffer().getType())))
    return failure();
  RankedTensorType value = getValue().getType();
  return verifyMatchesBuffer(*this, getBuffer().getType(), value.getShape(),
                             value.getElementType(), "stored tensor");
}

LogicalResult AsyncRemoteShmemStoreOp::verify() {
  if (failed(verifySharedBuffer(*this, getBuffer().getType())))
    return failure();
  RankedTensorType value = getValue().getType();
  if (failed(verifyMatchesBuffer(*this, getBuffer().getType(), value.getShape(),
                                 value.getElementType(), "stored tensor")))
    return failure();
  // st.async moves 32-bit words at least.
  int64_t bytes = getBufferBytes(getBuffer().getType());
  if (bytes % 4 != 0)
    return emitOpError("stores ")
           << bytes << " bytes; st.async moves whole 32-bit words";
  return success();
}

LogicalResult AsyncRemoteShmemCopyOp::verify() {
  BufferType destination = getDestination().getType();
  BufferType source = getSource().getType();
  if (failed(verifySharedBuffer(*this, destination)) ||
      failed(verifySharedBuffer(*this, source)))
    return failure();
  if (failed(verifyMatchesBuffer(*this, destination, source.getShape(),
                                 source.getElementType(), "source buffer")))
    return failure();
  // cp.async.bulk moves whole 16-byte units.
  int64_t bytes = getBufferBytes(destination);
  if (bytes % 16 != 0)
    return emitOpError("copies ")
           << bytes << " bytes; a bulk copy moves a multiple of 16 bytes";
  return success();
}

LogicalResult AsyncLoadOp::verify() {
  if (failed(verifySharedBuffer(*this, getBuffer().getType())))
    return failure();
  RankedTensorType src = getSrc().getType();
  return verifyMatchesBuffer(*this, getBuffer().getType(), src.getShape(),
                             triton::getPointeeType(src.getElementType()),
                             "pointed-to");
}

//===----------------------------------------------------------------------===//
// Buffer views
//===----------------------------------------------------------------------===//

static LogicalResult verifySameStorage(Operation *op, BufferType source,
                                       BufferType result) {
  if (source.getStorage() != result.getStorage())
    return op->emitOpError("a view stays in the storage of its buffer (")
           << stringifyStorageKind(source.getStorage()) << ")";
  return success();
}

LogicalResult LocalTransOp::verify() {
  BufferType source = getSource().getType(), result = getResult().getType();
  ArrayRef<int32_t> order = getOrder();
  size_t rank = source.getShape().size();
  SmallVector<bool> seen(rank, false);
  for (int32_t dim : order) {
    if (dim < 0 || static_cast<size_t>(dim) >= rank || seen[dim])
      return emitOpError("dims must be a permutation of 0..")
             << rank - 1 << ", got [" << order << "]";
    seen[dim] = true;
  }
  if (order.size() != rank)
    return emitOpError("dims must be a permutation of 0..")
           << rank - 1 << ", got [" << order << "]";
  SmallVector<int64_t> expected;
  for (int32_t dim : order)
    expected.push_back(source.getShape()[dim]);
  if (result.getShape() != ArrayRef<int64_t>(expected) ||
      result.getElementType() != source.getElementType())
    return emitOpError("result must be the source buffer with its dimensions "
                       "permuted: expected shape [")
           << expected << "] of " << source.getElementType();
  return verifySameStorage(*this, source, result);
}

LogicalResult LocalSliceOp::verify() {
  BufferType source = getSource().getType(), result = getResult().getType();
  ArrayRef<int32_t> offsets = getOffsets();
  if (offsets.size() != source.getShape().size() ||
      result.getShape().size() != source.getShape().size())
    return emitOpError("needs one offset per dimension of the ")
           << source.getShape().size() << "-D buffer";
  if (result.getElementType() != source.getElementType())
    return emitOpError("a slice keeps the element type of its buffer");
  for (auto [dim, offset, size, full] :
       llvm::enumerate(offsets, result.getShape(), source.getShape())) {
    if (offset < 0 || offset + size > full)
      return emitOpError("slice [")
             << offset << ", " << offset + size << ") of dimension " << dim
             << " leaves the buffer of size " << full;
    // Sizes are powers of two (the buffer type says so): a split one never
    // straddles two tiles of its size when its offset is a multiple of it.
    if (size == full)
      continue;
    if (offset % size != 0)
      return emitOpError("offset ")
             << offset << " of dimension " << dim
             << " must be a multiple of the slice size " << size;
  }
  if (source.getStorage() == StorageKind::tmem &&
      (offsets[0] != 0 || result.getShape()[0] != source.getShape()[0]))
    return emitOpError("tensor memory is sliced along columns only: keep all ")
           << source.getShape()[0] << " rows";
  return verifySameStorage(*this, source, result);
}

LogicalResult LocalReshapeOp::verify() {
  BufferType source = getSource().getType(), result = getResult().getType();
  if (source.getElementType() != result.getElementType())
    return emitOpError("keeps the element type (")
           << source.getElementType()
           << "); change it with tlx.local_reinterpret";
  if (getBufferBytes(source) != getBufferBytes(result))
    return emitOpError("reshaping [")
           << source.getShape() << "] to [" << result.getShape()
           << "]: the number of elements must stay the same";
  if (source.getStorage() != StorageKind::smem)
    return emitOpError("reshapes shared-memory buffers only");
  return verifySameStorage(*this, source, result);
}

LogicalResult LocalReinterpretOp::verify() {
  BufferType source = getSource().getType(), result = getResult().getType();
  if (getBufferBytes(source) != getBufferBytes(result))
    return emitOpError("reinterpreting ")
           << getBufferBytes(source) << " bytes as " << getBufferBytes(result)
           << "; the byte size must stay the same";
  return verifySameStorage(*this, source, result);
}

//===----------------------------------------------------------------------===//
// Asynchronous MMA
//===----------------------------------------------------------------------===//

LogicalResult AsyncDotOp::verify() {
  BufferType b = getB().getType();
  RankedTensorType acc = getAcc().getType();
  // `a` comes from a shared buffer or, as a tensor, from registers.
  ArrayRef<int64_t> aShape;
  Type aElement;
  if (auto aBuffer = dyn_cast<BufferType>(getA().getType())) {
    if (aBuffer.getStorage() != StorageKind::smem)
      return emitOpError("on Hopper `a` is read from a shared-memory buffer "
                         "(storage smem) or from registers");
    aShape = aBuffer.getShape();
    aElement = aBuffer.getElementType();
  } else {
    auto aTensor = cast<RankedTensorType>(getA().getType());
    aShape = aTensor.getShape();
    aElement = aTensor.getElementType();
    // Of the element types checked below, wgmma reads all but tf32 from
    // registers.
    if (isa<Float32Type>(aElement))
      return emitOpError("`a` from registers must be fp16, bf16 or fp8 "
                         "(e4m3, e5m2), got ")
             << aElement;
  }
  if (b.getStorage() != StorageKind::smem)
    return emitOpError("on Hopper `b` is read from a shared-memory buffer "
                       "(storage smem)");
  if (aShape.size() != 2 || b.getShape().size() != 2 || acc.getRank() != 2)
    return emitOpError("operands and accumulator must be 2-D");
  int64_t m = aShape[0], k = aShape[1], n = b.getShape()[1];
  if (b.getShape()[0] != k)
    return emitOpError("inner dimensions differ: a is ")
           << m << "x" << k << ", b is " << b.getShape()[0] << "x" << n;
  if (acc.getShape() != ArrayRef<int64_t>{m, n})
    return emitOpError("accumulator must be ")
           << m << "x" << n << ", got " << acc.getShape()[0] << "x"
           << acc.getShape()[1];
  if (aElement != b.getElementType())
    return emitOpError("a and b must have one element type, got ")
           << aElement << " and " << b.getElementType();
  if (!isa<Float16Type, BFloat16Type, Float32Type, Float8E4M3FNType,
           Float8E5M2Type>(aElement))
    return emitOpError("wgmma multiplies f16, bf16, f32 (as tf32) or fp8 "
                       "(e4m3, e5m2) operands into a float32 accumulator, "
                       "not ")
           << aElement;
  // 0 leaves it to the lowering (stock tl.dot's 2^30 for fp8); below 32 an fp8
  // wgmma cannot fold its partial sums into float32 (Triton's rule).
  int32_t imprecise = getMaxNumImpreciseAcc();
  if (aElement.getIntOrFloatBitWidth() == 8 && imprecise != 0 && imprecise < 32)
    return emitOpError("maxNumImpreciseAcc = ")
           << imprecise
           << ": fp8 operands with a float32 accumulator take 0 (the "
              "default) or at least 32 products between folds into float32";
  // One wgmma consumes 32 bytes of K per row.
  int64_t instructionK = 256 / aElement.getIntOrFloatBitWidth();
  if (k % instructionK != 0)
    return emitOpError("K = ")
           << k << " is not a multiple of " << instructionK << ", the K of one "
           << "wgmma for " << aElement << " operands";
  if (m % 64 != 0 || n % 8 != 0 || n > 256 * 8)
    return emitOpError("wgmma tiles need M a multiple of 64 and N a multiple "
                       "of 8, got ")
           << m << "x" << n;
  return success();
}

LogicalResult TCGen05MMAOp::verify() {
  BufferType a = getA().getType(), b = getB().getType(),
             acc = getAcc().getType();
  if (acc.getStorage() != StorageKind::tmem)
    return emitOpError("tcgen05 accumulates in tensor memory: `acc` must be "
                       "a buffer of tlx.local_alloc(..., storage="
                       "tlx.storage_kind.tmem), got storage ")
           << stringifyStorageKind(acc.getStorage());
  if (a.getStorage() == StorageKind::smemCluster)
    return emitOpError("tcgen05 reads `a` from shared or tensor memory, not ")
           << stringifyStorageKind(a.getStorage());
  if (b.getStorage() != StorageKind::smem)
    return emitOpError("tcgen05 reads `b` from a shared-memory buffer "
                       "(storage smem), got ")
           << stringifyStorageKind(b.getStorage());
  ArrayRef<int64_t> aShape = a.getShape(), bShape = b.getShape(),
                    accShape = acc.getShape();
  if (aShape.size() != 2 || bShape.size() != 2 || accShape.size() != 2)
    return emitOpError("operands and accumulator must be 2-D");
  int64_t m = aShape[0], k = aShape[1], n = bShape[1];
  if (bShape[0] != k)
    return emitOpError("inner dimensions differ: a is ")
           << m << "x" << k << ", b is " << bShape[0] << "x" << n;
  // Two CTAs: each holds half of b's columns and all N of its accumulator.
  if (getTwoCTAs())
    n *= 2;
  if (accShape != ArrayRef<int64_t>{m, n})
    return emitOpError("accumulator must be ")
           << m << "x" << n << ", got " << accShape[0] << "x" << accShape[1]
           << (getTwoCTAs() ? " (two_ctas: b is each CTA's half of the N "
                              "columns)"
                            : "");
  if (getTwoCTAs() && m != 128)
    return emitOpError("two_ctas (tcgen05 cta_group::2) takes 128 rows of "
                       "`a` per CTA, got ")
           << m;
  // Triton 3.6 waits for a two-CTA MMA without mbarriers on one it
  // initializes behind a cluster barrier, which the other tasks of a
  // warp-specialized kernel never reach.
  if (getTwoCTAs() && getBarriers().empty() && !getIsAsync())
    return emitOpError("two_ctas (tcgen05 cta_group::2) without mBarriers "
                       "must be asynchronous (force_async=True, its completion "
                       "tracked by a later tcgen05_commit): Triton 3.6 would "
                       "wait for it behind a cluster barrier");
  Type element = a.getElementType();
  if (element != b.getElementType())
    return emitOpError("a and b must have one element type, got ")
           << element << " and " << b.getElementType();
  if (!isa<Float16Type, BFloat16Type, Float32Type, Float8E4M3FNType,
           Float8E5M2Type>(element))
    return emitOpError("tcgen05 multiplies f16, bf16, f32 (as tf32) or fp8 "
                       "(e4m3, e5m2) operands, not ")
           << element;
  if (!acc.getElementType().isF32())
    return emitOpError("the tcgen05 accumulator must be float32, got ")
           << acc.getElementType();
  // One tcgen05.mma consumes 32 bytes of K per row.
  int64_t instructionK = 256 / element.getIntOrFloatBitWidth();
  if (k % instructionK != 0)
    return emitOpError("K = ")
           << k << " is not a multiple of " << instructionK << ", the K of one "
           << "tcgen05.mma for " << element << " operands";
  int64_t stepN = m == 64 ? 8 : 16;
  if ((m != 64 && m != 128) || n % stepN != 0 || n < stepN || n > 256)
    return emitOpError("tcgen05.mma tiles are M = 64 or 128 rows by N a "
                       "multiple of 8 (M = 64) or 16 (M = 128) up to 256, got ")
           << m << "x" << n;
  return success();
}

//===----------------------------------------------------------------------===//
// Block scales (tcgen05 block-scaled MMA)
//===----------------------------------------------------------------------===//

/// Whether `shape` is one of the shared-memory forms of rows x cols block
/// scales (the public API's tmem_copy sources).
static bool isBlockScaleShape(ArrayRef<int64_t> shape, int64_t rows,
                              int64_t cols) {
  if (rows <= 0 || cols <= 0 || rows % 128 != 0 || cols % 4 != 0)
    return false;
  // Every form is the same bytes: 512-byte blocks (128 rows x 4 columns,
  // row r of a block at byte 16 (r % 32) + 4 (r / 32)), the blocks of one
  // 128-row group consecutive along the columns.
  int64_t groups = rows / 128, blocks = cols / 4;
  SmallVector<SmallVector<int64_t>> forms = {{1, groups, blocks, 2, 256},
                                             {groups, blocks, 32, 16},
                                             {groups, blocks, 32, 4, 4},
                                             {groups, blocks * 512}};
  if (groups == 1)
    forms.push_back({32 * blocks, 16});
  return llvm::any_of(forms,
                      [&](ArrayRef<int64_t> form) { return shape == form; });
}

/// The shapes isBlockScaleShape accepts, for a diagnostic.
static std::string describeBlockScaleShapes(int64_t rows, int64_t cols) {
  std::string text;
  llvm::raw_string_ostream os(text);
  int64_t groups = rows / 128, blocks = cols / 4;
  os << "[1, " << groups << ", " << blocks << ", 2, 256], [" << groups << ", "
     << blocks << ", 32, 16], [" << groups << ", " << blocks
     << ", 32, 4, 4] or [" << groups << ", " << blocks * 512 << "]";
  if (groups == 1)
    os << " or [" << 32 * blocks << ", 16]";
  return text;
}

/// Scales of `rows` x `cols` e8m0 values: a tensor-memory buffer of that
/// shape, or shared memory in the cuBLAS block-scaling layout.
static LogicalResult verifyScales(Operation *op, StringRef name,
                                  BufferType scales, int64_t rows,
                                  int64_t cols) {
  if (!scales.getElementType().isInteger(8))
    return op->emitOpError("`")
           << name << "` holds e8m0 scales, one byte each (tl.uint8), got "
           << scales.getElementType();
  if (scales.getStorage() == StorageKind::tmem) {
    if (scales.getShape() != ArrayRef<int64_t>{rows, cols})
      return op->emitOpError("`")
             << name << "` in tensor memory must be [" << rows << ", " << cols
             << "] (one scale per 32 elements along K), got ["
             << scales.getShape() << "]";
    return success();
  }
  if (scales.getStorage() != StorageKind::smem)
    return op->emitOpError("`")
           << name << "` must be in shared or tensor memory, got "
           << stringifyStorageKind(scales.getStorage());
  if (rows % 128 != 0 || cols % 4 != 0)
    return op->emitOpError("`")
           << name << "` in shared memory is copied to tensor memory in "
           << "blocks of 128 rows x 4 scales: its " << rows << " x " << cols
           << " scales are not whole blocks";
  if (!isBlockScaleShape(scales.getShape(), rows, cols))
    return op->emitOpError("`")
           << name << "` in shared memory holds " << rows << " x " << cols
           << " scales in the cuBLAS block-scaling layout: shape "
           << describeBlockScaleShapes(rows, cols) << ", got ["
           << scales.getShape() << "]";
  return success();
}

/// A shared-memory operand of a block-scaled MMA in `format`: fp8 of that
/// kind (or raw bytes), e2m1 packed two to a byte.
static LogicalResult verifyScaledOperand(Operation *op, StringRef name,
                                         BufferType operand,
                                         triton::ScaleDotElemType format) {
  if (operand.getStorage() != StorageKind::smem)
    return op->emitOpError("reads `")
           << name << "` from a shared-memory buffer (storage smem), got "
           << stringifyStorageKind(operand.getStorage());
  if (operand.getShape().size() != 2)
    return op->emitOpError("`") << name << "` must be 2-D";
  Type element = operand.getElementType();
  bool matches = element.isInteger(8);
  if (format == triton::ScaleDotElemType::E4M3)
    matches |= isa<Float8E4M3FNType>(element);
  else if (format == triton::ScaleDotElemType::E5M2)
    matches |= isa<Float8E5M2Type>(element);
  if (!matches)
    return op->emitOpError("`")
           << name << "` in format "
           << triton::stringifyScaleDotElemType(format) << " must hold "
           << (format == triton::ScaleDotElemType::E2M1
                   ? "bytes of two e2m1 values (tl.uint8)"
                   : "that fp8 type or bytes (tl.uint8)")
           << ", got " << element;
  return success();
}

LogicalResult TCGen05MMAScaledOp::verify() {
  using triton::ScaleDotElemType;
  ScaleDotElemType aType = getAType(), bType = getBType();
  for (ScaleDotElemType format : {aType, bType})
    if (format != ScaleDotElemType::E4M3 && format != ScaleDotElemType::E5M2 &&
        format != ScaleDotElemType::E2M1)
      return emitOpError("block-scaled tcgen05.mma takes e4m3, e5m2 or e2m1 "
                         "operands, not ")
             << triton::stringifyScaleDotElemType(format);
  bool aFP4 = aType == ScaleDotElemType::E2M1;
  bool bFP4 = bType == ScaleDotElemType::E2M1;
  if (aFP4 != bFP4)
    return emitOpError("mixing e2m1 with fp8 (kind::mxf8f6f4) needs e2m1 "
                       "padded to a byte per value in shared memory, which "
                       "this TLX release does not lay out yet: use e2m1 for "
                       "both operands (kind::mxf4) or fp8 for both");
  BufferType a = getA().getType(), b = getB().getType(),
             acc = getAcc().getType();
  if (failed(verifyScaledOperand(*this, "A", a, aType)) ||
      failed(verifyScaledOperand(*this, "B", b, bType)))
    return failure();
  if (acc.getStorage() != StorageKind::tmem || !acc.getElementType().isF32() ||
      acc.getShape().size() != 2)
    return emitOpError("accumulates into a 2-D float32 tensor-memory buffer "
                       "(tlx.local_alloc(..., tl.float32, storage="
                       "tlx.storage_kind.tmem)), got ")
           << acc;
  // e2m1 operands are packed along K: their buffers hold K / 2 bytes.
  int64_t m = a.getShape()[0], n = b.getShape()[1];
  int64_t k = a.getShape()[1] * (aFP4 ? 2 : 1);
  if (b.getShape()[0] * (bFP4 ? 2 : 1) != k)
    return emitOpError("inner dimensions differ: A is ")
           << m << " x " << k << " elements, B "
           << b.getShape()[0] * (bFP4 ? 2 : 1) << " x " << n
           << (aFP4 ? " (e2m1: two per byte along K)" : "");
  if (acc.getShape() != ArrayRef<int64_t>{m, n})
    return emitOpError("accumulator must be ")
           << m << "x" << n << ", got " << acc.getShape()[0] << "x"
           << acc.getShape()[1];
  if (m != 128 || n % 8 != 0 || n < 8 || n > 256)
    return emitOpError("block-scaled tcgen05.mma tiles are M = 128 rows by N "
                       "a multiple of 8 up to 256, got ")
           << m << "x" << n;
  // One instruction consumes 32 bytes of K per row: 32 fp8 or 64 e2m1.
  int64_t instructionK = aFP4 ? 64 : 32;
  if (k % instructionK != 0)
    return emitOpError("K = ")
           << k << " is not a multiple of " << instructionK
           << ", the K of one block-scaled tcgen05.mma for "
           << triton::stringifyScaleDotElemType(aType) << " operands";
  return failure(
      failed(
          verifyScales(*this, "A_scale", getAScale().getType(), m, k / 32)) ||
      failed(verifyScales(*this, "B_scale", getBScale().getType(), n, k / 32)));
}

LogicalResult TMEMCopyOp::verify() {
  BufferType src = getSrc().getType(), dst = getDst().getType();
  if (src.getStorage() != StorageKind::smem)
    return emitOpError("tcgen05.cp copies from a shared-memory buffer "
                       "(storage smem), got ")
           << stringifyStorageKind(src.getStorage());
  if (dst.getStorage() != StorageKind::tmem)
    return emitOpError("tcgen05.cp copies into a tensor-memory buffer "
                       "(storage tmem), got ")
           << stringifyStorageKind(dst.getStorage());
  // 8-bit tensor memory holds block scales (tlx-assign-layouts).
  if (dst.getElementType().isInteger(8)) {
    ArrayRef<int64_t> shape = dst.getShape();
    if (!src.getElementType().isInteger(8))
      return emitOpError("block scales are copied from bytes (tl.uint8), got ")
             << src.getElementType();
    if (shape.size() != 2 || shape[0] % 128 != 0 || shape[1] % 4 != 0)
      return emitOpError("block scales are copied in blocks of 128 rows x 4 "
                         "scales: the destination must be 2-D, rows a "
                         "multiple of 128 and columns of 4, got [")
             << shape << "]";
    if (!isBlockScaleShape(src.getShape(), shape[0], shape[1]))
      return emitOpError("the source of ")
             << shape[0] << " x " << shape[1]
             << " block scales is in the cuBLAS block-scaling layout: shape "
             << describeBlockScaleShapes(shape[0], shape[1]) << ", got ["
             << src.getShape() << "]";
    return success();
  }
  if (src.getShape() != dst.getShape() ||
      src.getElementType() != dst.getElementType())
    return emitOpError("source and destination must have one shape and "
                       "element type, got ")
           << "[" << src.getShape() << "] " << src.getElementType() << " and ["
           << dst.getShape() << "] " << dst.getElementType();
  if (dst.getShape().size() != 2 || dst.getShape()[0] != 128 ||
      dst.getElementType().getIntOrFloatBitWidth() != 32)
    return emitOpError("Triton 3.6 copies 128-row buffers of 32-bit "
                       "elements into tensor memory, got [")
           << dst.getShape() << "] " << dst.getElementType();
  return success();
}

LogicalResult StochRoundOp::verify() {
  RankedTensorType src = getSrc().getType(), bits = getRandBits().getType(),
                   result = getResult().getType();
  if (src.getShape() != bits.getShape() ||
      src.getShape() != result.getShape() ||
      src.getEncoding() != bits.getEncoding() ||
      src.getEncoding() != result.getEncoding())
    return emitOpError("src, rand_bits and the result must have one shape, "
                       "got ")
           << src << ", " << bits << " and " << result;
  Type element = result.getElementType();
  if (!isa<Float8E4M3FNType, Float8E5M2Type, BFloat16Type, Float16Type>(
          element))
    return emitOpError("rounds to fp8 (e4m3, e5m2), bf16 or fp16, not ")
           << element;
  return success();
}

LogicalResult VoteBallotSyncOp::verify() {
  auto pred = dyn_cast<RankedTensorType>(getPred().getType());
  auto result = dyn_cast<RankedTensorType>(getResult().getType());
  if (!pred && !result)
    return success();
  if (!pred || !result || pred.getShape() != result.getShape() ||
      pred.getEncoding() != result.getEncoding())
    return emitOpError("the result has the shape of `pred` (one i32 per "
                       "element, or one for a scalar), got ")
           << getPred().getType() << " -> " << getResult().getType();
  if (getMask() != -1)
    return emitOpError("a tensor `pred` is voted on by every lane, so the "
                       "mask must be 0xFFFFFFFF (a lane outside the mask may "
                       "not execute vote.sync), got ")
           << llvm::formatv("{0:x8}", static_cast<uint32_t>(getMask())).str();
  return success();
}

LogicalResult ScaleRowsOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto scale = cast<RankedTensorType>(getScale().getType());
  if (src.getRank() != 2 || scale.getRank() != 1 ||
      scale.getDimSize(0) != src.getDimSize(0))
    return emitOpError("scales the rows of a 2-D `src` by a 1-D `scale` of "
                       "one factor per row, got ")
           << src << " and " << scale;
  return success();
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

LogicalResult AsyncTasksOp::verify() {
  if ((*this)->getParentOfType<AsyncTasksOp>())
    return emitOpError("cannot be nested: async tasks already run inside "
                       "another tlx.async_tasks");
  unsigned defaults = 0;
  for (Operation &op : getBody().front()) {
    auto task = dyn_cast<AsyncTaskOp>(op);
    if (!task)
      return op.emitOpError("cannot appear directly in tlx.async_tasks; put "
                            "it inside a tlx.async_task");
    defaults += task.getIsDefault();
  }
  if (defaults != 1)
    return emitOpError("needs exactly one default task (the kernel's own "
                       "warps run it), found ")
           << defaults;
  if (getExclusive()) {
    // The promise is about the whole kernel (the public compiler checks its
    // module, which holds one kernel).
    SmallVector<AsyncTasksOp> sets;
    if (auto kernel = (*this)->getParentOfType<FunctionOpInterface>())
      kernel->walk([&](AsyncTasksOp tasks) { sets.push_back(tasks); });
    if (sets.size() > 1) {
      InFlightDiagnostic error =
          emitOpError("exclusive=True promises the kernel's only tasks, but "
                      "the kernel has ")
          << sets.size() << " tlx.async_tasks";
      for (AsyncTasksOp other : sets)
        if (other != *this)
          error.attachNote(other.getLoc()) << "another tlx.async_tasks";
      return error;
    }
  }
  return success();
}

int64_t AsyncTasksOp::getTaskWarps() {
  int64_t warps = 0;
  for (AsyncTaskOp task : getBody().getOps<AsyncTaskOp>())
    if (!task.getIsDefault())
      warps += int64_t(task.getNumWarps().value_or(0)) * task.getReplicate();
  return warps;
}

int64_t AsyncTasksOp::getIdleWarps() {
  return (kWarpsPerGroup - getTaskWarps() % kWarpsPerGroup) % kWarpsPerGroup;
}

std::optional<int64_t> AsyncTaskOp::getClusterBarrierCount() {
  int64_t count = 0;
  bool countable = true;
  getBody().walk([&](ClusterBarrierOp barrier) {
    if (barrier->getParentOp() == getOperation())
      ++count;
    else
      countable = false;
  });
  if (!countable)
    return std::nullopt;
  return count;
}

LogicalResult AsyncTaskOp::verify() {
  if (getIsDefault() && getReplicate() != 1)
    return emitOpError("the default task runs once, on the kernel's warps: "
                       "it cannot be replicated");
  if (!getIsDefault() && !getNumWarps())
    return emitOpError("a non-default task needs num_warps");
  if (std::optional<uint32_t> numWarps = getNumWarps()) {
    if (!llvm::isPowerOf2_32(*numWarps))
      return emitOpError("num_warps must be a power of 2, got ") << *numWarps;
    // Before any lowering builds one partition per replica.
    int64_t warps = int64_t(*numWarps) * getReplicate();
    if (warps > 32)
      return emitOpError("needs ")
             << warps << " warps (" << *numWarps << " x " << getReplicate()
             << " replicas); a CTA has at most 32";
  }
  if (std::optional<uint32_t> registers = getRegisters())
    if (int64_t(*registers) < kMinTaskRegisters ||
        int64_t(*registers) > kMaxTaskRegisters || *registers % 8 != 0)
      return emitOpError("registers must be a multiple of 8 in ")
             << kMinTaskRegisters << ".." << kMaxTaskRegisters
             << " (setmaxnreg), got " << *registers;
  return success();
}

LogicalResult AsyncTaskReplicaIdOp::verify() {
  if (!(*this)->getParentOfType<AsyncTaskOp>())
    return emitOpError("is only meaningful inside a tlx.async_task");
  return success();
}

LogicalResult LocalAllocOp::verify() {
  Value reuse = getReuse();
  if (!reuse)
    return success();
  BuffersType type = getType();
  if (auto spec = dyn_cast<StorageAliasSpecType>(reuse.getType())) {
    if (spec.getStorage() != type.getStorage())
      return emitOpError("allocates ")
             << stringifyStorageKind(type.getStorage())
             << " buffers with reuse=<a storage_alias_spec in "
             << stringifyStorageKind(spec.getStorage())
             << ">: the storage kinds must match";
    return success();
  }
  auto other = cast<BuffersType>(reuse.getType());
  if (other.getStorage() != type.getStorage())
    return emitOpError("allocates ") << stringifyStorageKind(type.getStorage())
                                     << " buffers with reuse=<buffers in "
                                     << stringifyStorageKind(other.getStorage())
                                     << ">: the storage kinds must match";
  if (auto reused = reuse.getDefiningOp<LocalAllocOp>();
      reused && reused.getReuse() &&
      isa<StorageAliasSpecType>(reused.getReuse().getType()))
    return emitOpError("reuses buffers that are a view of a "
                       "storage_alias_spec; allocate these with reuse=<that "
                       "spec> and place them with set_buffer_overlap");
  // In the units each set is indexed in (StorageAlias.h): bytes, or
  // tensor-memory columns, which depend on the element type and layout.
  auto reused = reuse.getDefiningOp<LocalAllocOp>();
  int64_t needed = getAliasUnitsPerBuffer(*this) * type.getCount();
  int64_t available = reused ? getAliasUnitsPerBuffer(reused) * other.getCount()
                      : other.getStorage() == StorageKind::tmem
                          ? other.getTensorMemoryColumns(/*colStride=*/1)
                          : other.getAllocationBytes();
  if (needed <= available)
    return success();
  if (type.getStorage() == StorageKind::tmem)
    return emitOpError("needs ")
           << needed << " tensor-memory columns, more than the " << available
           << " columns of the buffers it reuses";
  return emitOpError("needs ")
         << needed << " bytes, more than the " << available
         << " bytes of the buffers it reuses";
}

//===----------------------------------------------------------------------===//
// TMA descriptors in slots of the kernel's own
//===----------------------------------------------------------------------===//

/// A descriptor slot is global memory addressed bytewise.
static LogicalResult verifyDescriptorSlot(Operation *op, Type type,
                                          StringRef what) {
  auto pointer = dyn_cast<triton::PointerType>(type);
  if (!pointer || pointer.getAddressSpace() != 1 ||
      !pointer.getPointeeType().isInteger(8))
    return op->emitOpError()
           << what << " must be a global !tt.ptr<i8> (a "
           << "slot of tlx.allocate_tensor_descriptor), got " << type;
  return success();
}

/// TMA copies blocks of 1 to 5 dimensions.
static LogicalResult verifyDescriptorRank(Operation *op, int64_t rank) {
  if (rank < 1 || rank > 5)
    return op->emitOpError("TMA descriptors have 1 to 5 dimensions, got ")
           << rank;
  return success();
}

LogicalResult AllocateTensorDescriptorOp::verify() {
  // The scratch size is an i32 of ttg.global_scratch_alloc.
  if (getNum() > (1 << 23))
    return emitOpError("at most ")
           << (1 << 23) << " descriptors of 128 bytes, got " << getNum();
  return verifyDescriptorSlot(*this, getResult().getType(), "the result");
}

LogicalResult MakeTensorDescriptorOp::verify() {
  if (failed(verifyDescriptorSlot(*this, getDescPtr().getType(), "descPtr")))
    return failure();
  ArrayRef<int32_t> block = getBlockShape();
  if (failed(verifyDescriptorRank(*this, block.size())))
    return failure();
  if (getShape().size() != block.size() || getStrides().size() != block.size())
    return emitOpError("needs one size and one stride per block dimension: ")
           << block.size() << " expected, " << getShape().size()
           << " sizes and " << getStrides().size() << " strides given";
  if (llvm::any_of(block, [](int32_t size) { return size <= 0; }))
    return emitOpError("block dimensions must be positive, got [")
           << block << "]";
  auto base = cast<triton::PointerType>(getBase().getType());
  Type element = base.getPointeeType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
      element.getIntOrFloatBitWidth() > 64)
    return emitOpError("base must point to elements of 1, 2, 4 or 8 bytes, "
                       "got ")
           << element;
  int64_t rowBytes =
      int64_t(block.back()) * element.getIntOrFloatBitWidth() / 8;
  if (rowBytes < 16)
    return emitOpError("the block's last dimension must span at least 16 "
                       "bytes, got ")
           << block.back() << " x " << element;
  if (getPadding() == triton::PaddingOption::PAD_NAN &&
      !isa<FloatType>(element))
    return emitOpError("padding with NaN needs floating-point elements, got ")
           << element;
  return success();
}

LogicalResult ReinterpretTensorDescriptorOp::verify() {
  if (failed(verifyDescriptorSlot(*this, getDescPtr().getType(), "descPtr")))
    return failure();
  return verifyDescriptorRank(*this,
                              getResult().getType().getBlockType().getRank());
}

//===----------------------------------------------------------------------===//
// Register layouts
//===----------------------------------------------------------------------===//

LogicalResult AssertSameLayoutOp::verify() {
  if (static_cast<bool>(getRhs()) == static_cast<bool>(getExpectedAttr()))
    return emitOpError("compares `lhs` with either `rhs` or an `expected` "
                       "layout");
  if (!getRhs())
    return success();
  Type lhs = getLhs().getType(), rhs = getRhs().getType();
  if (isa<RankedTensorType>(lhs) != isa<RankedTensorType>(rhs))
    return emitOpError("compares a register tensor with a buffer: register "
                       "and shared layouts are never the same");
  auto shapeOf = [](Type type) -> ArrayRef<int64_t> {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      return tensor.getShape();
    return cast<BufferType>(type).getShape();
  };
  if (shapeOf(lhs) != shapeOf(rhs))
    return emitOpError("compares layouts of two shapes, [")
           << shapeOf(lhs) << "] and [" << shapeOf(rhs)
           << "]: a layout is the same only over one shape";
  return success();
}
