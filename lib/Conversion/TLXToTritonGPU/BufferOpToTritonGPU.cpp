//===- BufferOpToTritonGPU.cpp - buffers and their views -> ttg -----------===//
//
// A `!tlx.buffers` allocation becomes one ttg.local_alloc with the count as
// its leading dimension; a view of it becomes a memdesc view whose layout
// Layouts.h derives, the same way tlx-assign-layouts did for descriptors.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"
#include "tlx/Dialect/TLX/IR/StorageAlias.h"

#include "tlx/Dialect/Triton/IR/Dialect.h"
#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "tlx/Support/OutOfResources.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

/// The units (StorageAlias.h) of a spec's allocation, and the number of its
/// own buffers each aliasing buffer set sees in it.
static constexpr StringLiteral kAliasSizeAttr = "tlx.alias_size";
static constexpr StringLiteral kAliasCountAttr = "tlx.alias_count";

/// Buffer `index` of `placement` as an index of the view of the whole
/// allocation in buffers of its size (StorageAlias.h).
static Value getAliasedIndex(OpBuilder &builder, Location loc, Value index,
                             const StorageAliasPlacement &placement) {
  int64_t size = placement.bufferSize;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(builder, loc, value, 32);
  };
  int64_t perSlot = placement.getBuffersPerSlot();
  Value slot = perSlot == 1 ? index
                            : arith::DivSIOp::create(builder, loc, index,
                                                     constant(perSlot));
  auto times = [&](Value value, int64_t factor) -> Value {
    return factor == 1
               ? value
               : arith::MulIOp::create(builder, loc, value, constant(factor));
  };
  Value result = times(slot, placement.slotSize / size);
  int64_t below = perSlot;
  for (auto [k, unit] : placement.digits) {
    below /= k;
    Value digit =
        arith::RemSIOp::create(builder, loc, index, constant(perSlot));
    if (below > 1)
      digit = arith::DivSIOp::create(builder, loc, digit, constant(below));
    if (k != perSlot / below)
      digit = arith::RemSIOp::create(builder, loc, digit, constant(k));
    digit = times(digit, unit / size);
    result = arith::AddIOp::create(builder, loc, result, digit);
  }
  if (placement.offset != 0)
    result = arith::AddIOp::create(builder, loc, result,
                                   constant(placement.offset / size));
  return result;
}

/// Checks what only tensor memory limits: the target and its 512 columns.
static LogicalResult verifyTensorMemorySpec(StorageAliasSpecOp spec,
                                            const StorageAliasPlan &plan) {
  if (failed(verifyBlackwellTarget(spec, "tensor memory (storage tmem)")))
    return failure();
  if (plan.size > kTensorMemoryColumns) {
    InFlightDiagnostic diag = spec.emitOpError("in tensor memory needs ")
                              << plan.size << " columns; tensor memory has "
                              << kTensorMemoryColumns
                              << " columns of 32 bits per CTA";
    return markOutOfResources(
        diag, {"tensor memory columns", plan.size, kTensorMemoryColumns});
  }
  return success();
}

LogicalResult mlir::tlx::prepareStorageAliases(ModuleOp module) {
  SmallVector<StorageAliasSpecOp> specs;
  module.walk([&](StorageAliasSpecOp spec) { specs.push_back(spec); });
  for (StorageAliasSpecOp spec : specs) {
    FailureOr<StorageAliasPlan> plan =
        computeStorageAliasPlan(spec, /*diagnose=*/true);
    if (failed(plan))
      return failure();
    if (spec.getType().getStorage() == StorageKind::tmem &&
        failed(verifyTensorMemorySpec(spec, *plan)))
      return failure();
    OpBuilder builder(spec);
    spec->setAttr(kAliasSizeAttr, builder.getI64IntegerAttr(plan->size));
    for (const StorageAliasPlacement &placement : plan->placements) {
      LocalAllocOp alloc = placement.alloc;
      alloc->setAttr(kAliasCountAttr, builder.getI64IntegerAttr(
                                          plan->size / placement.bufferSize));
      bool identity = placement.offset == 0 && placement.digits.empty() &&
                      placement.slotSize == placement.bufferSize;
      if (identity)
        continue;
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (auto view = dyn_cast<LocalViewOp>(user)) {
          builder.setInsertionPoint(view);
          view.getIndexMutable().assign(getAliasedIndex(
              builder, view.getLoc(), view.getIndex(), placement));
        }
    }
  }
  // The overlap trees have been read: nothing lowers them.
  SmallVector<Operation *> trees;
  module.walk([&](Operation *op) {
    if (isa<SetBufferOverlapOp, ReuseGroupOp>(op))
      trees.push_back(op);
  });
  for (Operation *op : llvm::reverse(trees))
    op->erase();
  return success();
}

namespace {

/// `type` in the register layout of tcgen05.ld/st for `buffer` (checked
/// possible by tlx-assign-layouts).
FailureOr<RankedTensorType>
getTensorMemoryRegisterType(Operation *op, RankedTensorType type,
                            ttg::MemDescType buffer) {
  FailureOr<ttg::BlockedEncodingAttr> layout = getTensorMemoryRegisterLayout(
      op->getContext(), type.getShape(), lookupNumWarps(op),
      getTensorMemoryElementsPerColumn(buffer.getElementType(),
                                       buffer.getEncoding()));
  if (failed(layout))
    return failure();
  return RankedTensorType::get(type.getShape(), type.getElementType(), *layout);
}

struct LocalAllocOpConversion : OpConversionPattern<LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BuffersType type = op.getType();
    Attribute layout = op.getLayoutAttr();
    if (type.getStorage() == StorageKind::smemCluster || !layout)
      return rewriter.notifyMatchFailure(
          op, "needs shared- or tensor-memory buffers with a layout");
    SmallVector<int64_t> shape{type.getCount()};
    llvm::append_range(shape, type.getShape());
    bool tensorMemory = type.getStorage() == StorageKind::tmem;
    auto getMemDesc = [&](ArrayRef<int64_t> shape) {
      return tensorMemory
                 ? getTensorMemDesc(shape, type.getElementType(), layout)
                 : getSharedMemDesc(shape, type.getElementType(), layout);
    };
    if (Value reuse = adaptor.getReuse()) {
      // A view of the spec's (or the reused buffers') allocation, counted in
      // buffers of this set's size: its columns in tensor memory, which
      // Triton's memdesc_index steps by.
      if (auto count = op->getAttrOfType<IntegerAttr>(kAliasCountAttr))
        shape[0] = count.getInt();
      if (!isa<ttg::MemDescType>(reuse.getType()))
        return rewriter.notifyMatchFailure(op, "needs a memdesc to view");
      rewriter.replaceOpWithNewOp<ttg::MemDescReinterpretOp>(
          op, getMemDesc(shape), reuse);
      return success();
    }
    // Triton 3.6 allocates block scales one buffer at a time (a set of one,
    // checked by getTensorMemoryLayout): no leading dimension to index.
    if (isa<ttng::TensorMemoryScalesEncodingAttr>(layout))
      shape.erase(shape.begin());
    if (tensorMemory) {
      rewriter.replaceOpWithNewOp<ttng::TMEMAllocOp>(
          op, getMemDesc(shape), /*token=*/Type(), /*src=*/Value());
      return success();
    }
    rewriter.replaceOpWithNewOp<ttg::LocalAllocOp>(
        op, getMemDesc(shape), Value(), /*alignment=*/IntegerAttr());
    return success();
  }
};

/// The allocation of a storage alias spec. Shared memory: bytes, aligned for
/// any swizzle. Tensor memory: its columns as one-column buffers of all 128
/// lanes, which Triton allocates without rounding them to a power of two.
struct StorageAliasSpecOpConversion : OpConversionPattern<StorageAliasSpecOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(StorageAliasSpecOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto size = op->getAttrOfType<IntegerAttr>(kAliasSizeAttr);
    if (!size)
      return rewriter.notifyMatchFailure(op, "not prepared");
    // An unused spec still takes its size, so that its users fit.
    int64_t units = std::max<int64_t>(size.getInt(), 1);
    if (op.getType().getStorage() == StorageKind::tmem) {
      auto layout = ttng::TensorMemoryEncodingAttr::get(
          op.getContext(), /*blockM=*/128, /*blockN=*/1, /*colStride=*/1,
          /*CTASplitM=*/1, /*CTASplitN=*/1, /*twoCTAs=*/false);
      rewriter.replaceOpWithNewOp<ttng::TMEMAllocOp>(
          op, getTensorMemDesc({units, 128, 1}, rewriter.getI32Type(), layout),
          /*token=*/Type(), /*src=*/Value());
      return success();
    }
    auto type = getSharedMemDesc({units}, rewriter.getI8Type(),
                                 getUnswizzled1DLayout(op.getContext()));
    rewriter.replaceOpWithNewOp<ttg::LocalAllocOp>(
        op, type, Value(), rewriter.getI32IntegerAttr(1024));
    return success();
  }
};

/// One buffer (or mbarrier) of a set: index the leading dimension.
struct LocalViewOpConversion : OpConversionPattern<LocalViewOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType set = getMemDescType(adaptor.getSource());
    if (!set)
      return rewriter.notifyMatchFailure(op, "source is not a memdesc");
    // The one buffer of a set of block scales is its allocation.
    if (isa<ttng::TensorMemoryScalesEncodingAttr>(set.getEncoding())) {
      rewriter.replaceOp(op, adaptor.getSource());
      return success();
    }
    auto type = ttg::MemDescType::get(
        set.getShape().drop_front(), set.getElementType(), set.getEncoding(),
        set.getMemorySpace(), /*mutableMemory=*/true);
    rewriter.replaceOpWithNewOp<ttg::MemDescIndexOp>(
        op, type, adaptor.getSource(), adaptor.getIndex());
    return success();
  }
};

struct LocalTransOpConversion : OpConversionPattern<LocalTransOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalTransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType source = getMemDescType(adaptor.getSource());
    if (!source)
      return rewriter.notifyMatchFailure(op, "source is not a memdesc");
    FailureOr<Attribute> layout =
        getTransposedLayout(source.getEncoding(), op.getOrder());
    if (failed(layout))
      return rewriter.notifyMatchFailure(op, "layout cannot be transposed");
    // A view of a larger allocation keeps that allocation, transposed.
    SmallVector<int64_t> allocShape(source.getAllocShape());
    size_t lead = allocShape.size() - op.getOrder().size();
    SmallVector<int64_t> tile(allocShape.begin() + lead, allocShape.end());
    for (auto [index, dim] : llvm::enumerate(op.getOrder()))
      allocShape[lead + index] = tile[dim];
    BufferType result = op.getResult().getType();
    auto type = ttg::MemDescType::get(
        result.getShape(), result.getElementType(), *layout,
        source.getMemorySpace(), source.getMutableMemory(), allocShape);
    rewriter.replaceOpWithNewOp<ttg::MemDescTransOp>(
        op, type, adaptor.getSource(), op.getOrderAttr());
    return success();
  }
};

/// A tile of a buffer: same layout, the allocation's shape kept.
struct LocalSliceOpConversion : OpConversionPattern<LocalSliceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType source = getMemDescType(adaptor.getSource());
    if (!source)
      return rewriter.notifyMatchFailure(op, "source is not a memdesc");
    BufferType result = op.getResult().getType();
    if (isTensorMemory(source)) {
      // Columns [N, N + width) of all rows: Triton's tmem_subslice.
      FailureOr<Attribute> layout = getViewLayout(op, source.getEncoding());
      if (failed(layout))
        return rewriter.notifyMatchFailure(op, "no tensor memory layout");
      auto type = ttg::MemDescType::get(
          result.getShape(), result.getElementType(), *layout,
          source.getMemorySpace(), source.getMutableMemory(),
          source.getAllocShape());
      rewriter.replaceOpWithNewOp<ttng::TMEMSubSliceOp>(
          op, type, adaptor.getSource(),
          static_cast<uint32_t>(op.getOffsets()[1]));
      return success();
    }
    auto type = ttg::MemDescType::get(
        result.getShape(), result.getElementType(), source.getEncoding(),
        source.getMemorySpace(), source.getMutableMemory(),
        source.getAllocShape());
    rewriter.replaceOpWithNewOp<ttg::MemDescSubsliceOp>(
        op, type, adaptor.getSource(), op.getOffsetsAttr());
    return success();
  }
};

/// The same elements with another shape: Triton's memdesc_reshape.
struct LocalReshapeOpConversion : OpConversionPattern<LocalReshapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType source = getMemDescType(adaptor.getSource());
    if (!source)
      return rewriter.notifyMatchFailure(op, "source is not a memdesc");
    ArrayRef<int64_t> shape = op.getResult().getType().getShape();
    FailureOr<Attribute> layout = getViewLayout(op, source.getEncoding());
    if (failed(layout))
      return rewriter.notifyMatchFailure(op, "layout cannot be reshaped");
    auto type = ttg::MemDescType::get(shape, source.getElementType(), *layout,
                                      source.getMemorySpace(),
                                      /*mutableMemory=*/true);
    rewriter.replaceOpWithNewOp<ttg::MemDescReshapeOp>(op, type,
                                                       adaptor.getSource());
    return success();
  }
};

struct LocalReinterpretOpConversion : OpConversionPattern<LocalReinterpretOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalReinterpretOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType source = getMemDescType(adaptor.getSource());
    if (!source)
      return rewriter.notifyMatchFailure(op, "source is not a memdesc");
    BufferType result = op.getResult().getType();
    FailureOr<Attribute> layout = getViewLayout(op, source.getEncoding());
    if (failed(layout))
      return rewriter.notifyMatchFailure(op, "layout cannot be reinterpreted");
    auto type =
        ttg::MemDescType::get(result.getShape(), result.getElementType(),
                              *layout, source.getMemorySpace(),
                              /*mutableMemory=*/true);
    rewriter.replaceOpWithNewOp<ttg::MemDescReinterpretOp>(op, type,
                                                           adaptor.getSource());
    return success();
  }
};

struct LocalLoadOpConversion : OpConversionPattern<LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType buffer = getMemDescType(adaptor.getBuffer());
    if (!buffer)
      return rewriter.notifyMatchFailure(op, "buffer is not a memdesc");
    if (isTensorMemory(buffer)) {
      // tcgen05.ld in its own register layout, then the result's.
      FailureOr<RankedTensorType> type =
          getTensorMemoryRegisterType(op, op.getType(), buffer);
      if (failed(type))
        return rewriter.notifyMatchFailure(op, "no tcgen05.ld layout");
      Value loaded = ttng::TMEMLoadOp::create(rewriter, op.getLoc(), *type,
                                              /*token=*/Type(),
                                              adaptor.getBuffer(), Value())
                         .getResult();
      if (*type != op.getType())
        loaded = ttg::ConvertLayoutOp::create(rewriter, op.getLoc(),
                                              op.getType(), loaded);
      rewriter.replaceOp(op, loaded);
      return success();
    }
    rewriter.replaceOpWithNewOp<ttg::LocalLoadOp>(op, op.getType(),
                                                  adaptor.getBuffer(), Value());
    return success();
  }
};

struct LocalStoreOpConversion : OpConversionPattern<LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType buffer = getMemDescType(adaptor.getBuffer());
    if (!buffer)
      return rewriter.notifyMatchFailure(op, "buffer is not a memdesc");
    if (isTensorMemory(buffer)) {
      // The value in tcgen05.st's register layout, then tcgen05.st.
      auto valueType = cast<RankedTensorType>(adaptor.getValue().getType());
      FailureOr<RankedTensorType> type =
          getTensorMemoryRegisterType(op, valueType, buffer);
      if (failed(type))
        return rewriter.notifyMatchFailure(op, "no tcgen05.st layout");
      Value value = adaptor.getValue();
      if (*type != valueType)
        value =
            ttg::ConvertLayoutOp::create(rewriter, op.getLoc(), *type, value);
      Value pred = getPredicateOrTrue(rewriter, op.getLoc(), Value());
      ttng::TMEMStoreOp::create(rewriter, op.getLoc(), /*token=*/Type(),
                                adaptor.getBuffer(), /*dep=*/Value(), value,
                                pred);
      rewriter.eraseOp(op);
      return success();
    }
    rewriter.replaceOpWithNewOp<ttg::LocalStoreOp>(op, adaptor.getValue(),
                                                   adaptor.getBuffer());
    return success();
  }
};

/// The shared-memory address of a row-major, unswizzled buffer as an i32
/// (what `ld.shared` / `st.shared` take); failure after an error at `op`
/// for other layouts.
FailureOr<Value> getRowMajorBase(OpBuilder &builder, Location loc, Value buffer,
                                 Operation *op, StringRef what) {
  if (!isRowMajorUnswizzled(cast<ttg::MemDescType>(buffer.getType())))
    return op->emitOpError()
           << what << " element by element a row-major, unswizzled buffer: "
           << "use a 1-D buffer, or give local_alloc an unswizzled layout";
  FailureOr<Value> address = getSharedAddress(builder, loc, buffer, op);
  if (failed(address))
    return failure();
  return LLVM::PtrToIntOp::create(builder, loc, builder.getI32Type(), *address)
      .getResult();
}

/// local_gather: a barrier of the task (earlier stores to the buffer must
/// land: Triton cannot see these loads), then one `ld.shared` per element at
/// its address with the index along the axis taken from `indices`.
struct LocalGatherOpConversion : OpConversionPattern<LocalGatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType buffer = getMemDescType(adaptor.getBuffer());
    if (!buffer)
      return rewriter.notifyMatchFailure(op, "buffer is not a memdesc");
    Location loc = op.getLoc();
    FailureOr<Value> base =
        getRowMajorBase(rewriter, loc, adaptor.getBuffer(), op, "reads");
    if (failed(base))
      return failure();
    ttg::LocalBarrierOp::create(rewriter, loc);
    auto indices = cast<RankedTensorType>(adaptor.getIndices().getType());
    int64_t bits = buffer.getElementType().getIntOrFloatBitWidth();
    SmallVector<Value> axisIndex(buffer.getShape().size());
    axisIndex[op.getAxis()] = adaptor.getIndices();
    Value addresses = getElementAddresses(
        rewriter, loc, indices, *base, buffer.getShape(), bits / 8, axisIndex);
    auto [registerClass, ptxType] = getRegisterClass(bits);
    auto integerType = indices.clone(rewriter.getIntegerType(bits));
    Value loaded =
        triton::ElementwiseInlineAsmOp::create(
            rewriter, loc, TypeRange{integerType},
            llvm::formatv("ld.shared.{0} $0, [$1];", ptxType).str(),
            llvm::formatv("={0},r", registerClass).str(), /*pure=*/false,
            /*packed_element=*/1, ValueRange{addresses})
            .getResult()[0];
    RankedTensorType resultType = op.getResult().getType();
    if (resultType.getElementType() != integerType.getElementType())
      loaded = triton::BitcastOp::create(rewriter, loc, resultType, loaded);
    rewriter.replaceOp(op, loaded);
    return success();
  }
};

/// local_scatter: one `st.shared` per element, then a barrier of the task
/// (later reads of the buffer must see the stores).
struct LocalScatterOpConversion : OpConversionPattern<LocalScatterOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType buffer = getMemDescType(adaptor.getBuffer());
    if (!buffer)
      return rewriter.notifyMatchFailure(op, "buffer is not a memdesc");
    Location loc = op.getLoc();
    FailureOr<Value> base =
        getRowMajorBase(rewriter, loc, adaptor.getBuffer(), op, "writes");
    if (failed(base))
      return failure();
    auto valueType = cast<RankedTensorType>(adaptor.getValue().getType());
    int64_t bits = buffer.getElementType().getIntOrFloatBitWidth();
    SmallVector<Value> axisIndex(buffer.getShape().size());
    axisIndex[op.getAxis()] = adaptor.getIndices();
    Value addresses =
        getElementAddresses(rewriter, loc, valueType, *base, buffer.getShape(),
                            bits / 8, axisIndex);
    auto [registerClass, ptxType] = getRegisterClass(bits);
    Value value = adaptor.getValue();
    auto integerType = valueType.clone(rewriter.getIntegerType(bits));
    if (valueType.getElementType() != integerType.getElementType())
      value = triton::BitcastOp::create(rewriter, loc, integerType, value);
    // The instruction has no result; Triton's elementwise asm needs one.
    triton::ElementwiseInlineAsmOp::create(
        rewriter, loc, TypeRange{valueType.clone(rewriter.getI32Type())},
        llvm::formatv("st.shared.{0} [$1], $2; mov.u32 $0, 0;", ptxType).str(),
        llvm::formatv("=r,r,{0}", registerClass).str(), /*pure=*/false,
        /*packed_element=*/1, ValueRange{addresses, value});
    ttg::LocalBarrierOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tlx::populateBufferOpToTritonGPUPatterns(
    RewritePatternSet &patterns) {
  patterns.add<StorageAliasSpecOpConversion, LocalAllocOpConversion,
               LocalViewOpConversion, LocalTransOpConversion,
               LocalSliceOpConversion, LocalReinterpretOpConversion,
               LocalReshapeOpConversion, LocalLoadOpConversion,
               LocalStoreOpConversion, LocalGatherOpConversion,
               LocalScatterOpConversion>(patterns.getContext());
}
