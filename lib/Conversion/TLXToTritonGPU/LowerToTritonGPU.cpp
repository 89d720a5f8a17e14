//===- LowerToTritonGPU.cpp - TLX ops -> ttg / ttng / NVVM ----------------===//

#include "tlx/Conversion/TLXToTritonGPU/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXLOWERTOTRITONGPU
#include "tlx/Conversion/TLXToTritonGPU/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

/// Lowers the TLX ops of one module. TLX values (buffers, mbarriers) are
/// replaced by memory descriptors; the TLX ops go once all are lowered.
class Lowering {
public:
  explicit Lowering(ModuleOp module)
      : module(module), builder(module.getContext()),
        sharedMemory(ttg::SharedMemorySpaceAttr::get(module.getContext())) {}

  LogicalResult run();

private:
  LogicalResult lower(Operation *op);
  LogicalResult lowerAlloc(LocalAllocOp alloc);
  LogicalResult lowerBarriers(AllocBarriersOp alloc);
  FailureOr<Attribute> chooseLayout(LocalAllocOp alloc);
  LogicalResult giveDescriptorLayout(Operation *user, Value desc,
                                     Attribute layout);
  Value memdesc(Value tlxValue) { return memdescs.lookup(tlxValue); }
  Value predicateOrTrue(Location loc, Value pred) {
    return pred ? pred
                : arith::ConstantIntOp::create(builder, loc, /*value=*/1,
                                               /*width=*/1)
                      .getResult();
  }

  ModuleOp module;
  OpBuilder builder;
  Attribute sharedMemory;
  DenseMap<Value, Value> memdescs;
  SmallVector<Operation *> lowered;
};

ttg::MemDescType getMemDesc(ArrayRef<int64_t> shape, Type elementType,
                            Attribute layout, Attribute memorySpace) {
  return ttg::MemDescType::get(shape, elementType, layout, memorySpace,
                               /*mutableMemory=*/true);
}

FailureOr<Attribute> Lowering::chooseLayout(LocalAllocOp alloc) {
  BuffersType type = alloc.getType();
  MLIRContext *context = alloc.getContext();
  if (Attribute explicitLayout = alloc.getLayoutAttr()) {
    if (!ttg::isSharedEncoding(explicitLayout))
      return alloc.emitOpError("layout ")
             << explicitLayout << " is not a shared-memory layout";
    if (ttg::getEncodingRank(explicitLayout) != type.getShape().size())
      return alloc.emitOpError("layout ")
             << explicitLayout << " has rank "
             << ttg::getEncodingRank(explicitLayout)
             << " but the buffers have rank " << type.getShape().size();
    return explicitLayout;
  }
  if (type.getShape().size() >= 2)
    return Attribute(ttg::getDefaultNVMMASharedEncoding(
        context, type.getShape(),
        type.getElementType().getIntOrFloatBitWidth()));
  return Attribute(ttg::SwizzledSharedEncodingAttr::get(
      context, /*vec=*/1, /*perPhase=*/1, /*maxPhase=*/1, /*order=*/{0},
      /*cgaBases=*/{}));
}

LogicalResult Lowering::lowerAlloc(LocalAllocOp alloc) {
  BuffersType type = alloc.getType();
  if (type.getStorage() != StorageKind::smem)
    return alloc.emitOpError("lowering of ")
           << stringifyStorageKind(type.getStorage())
           << " buffers is not implemented yet; use storage smem";
  FailureOr<Attribute> layout = chooseLayout(alloc);
  if (failed(layout))
    return failure();
  SmallVector<int64_t> shape{type.getCount()};
  llvm::append_range(shape, type.getShape());
  auto memdescType =
      getMemDesc(shape, type.getElementType(), *layout, sharedMemory);
  memdescs[alloc] =
      ttg::LocalAllocOp::create(builder, alloc.getLoc(), memdescType, Value(),
                                /*alignment=*/IntegerAttr());
  return success();
}

LogicalResult Lowering::lowerBarriers(AllocBarriersOp alloc) {
  MLIRContext *context = alloc.getContext();
  Location loc = alloc.getLoc();
  auto layout = ttg::SwizzledSharedEncodingAttr::get(context, 1, 1, 1, {0},
                                                     /*cgaBases=*/{});
  int64_t count = alloc.getType().getCount();
  Type i64 = builder.getI64Type();
  auto all = ttg::LocalAllocOp::create(
      builder, loc, getMemDesc({count, 1}, i64, layout, sharedMemory), Value(),
      IntegerAttr());
  auto oneType = getMemDesc({1}, i64, layout, sharedMemory);
  for (int64_t index = 0; index < count; ++index) {
    Value position = arith::ConstantIntOp::create(builder, loc, index, 32);
    Value barrier =
        ttg::MemDescIndexOp::create(builder, loc, oneType, all, position);
    ttng::InitBarrierOp::create(builder, loc, barrier,
                                alloc.getArriveCountAttr());
  }
  // One thread initializes; every thread must see it before the first use.
  ttg::LocalBarrierOp::create(builder, loc);
  memdescs[alloc] = all;
  return success();
}

LogicalResult Lowering::giveDescriptorLayout(Operation *user, Value desc,
                                             Attribute layout) {
  auto type = cast<triton::TensorDescType>(desc.getType());
  RankedTensorType block = type.getBlockType();
  if (block.getEncoding()) {
    if (block.getEncoding() != layout)
      return user->emitOpError("this descriptor is also used with a buffer "
                               "of another layout (")
             << block.getEncoding() << "); use one buffer layout per "
             << "descriptor";
    return success();
  }
  auto newType = triton::TensorDescType::get(
      desc.getContext(),
      RankedTensorType::get(block.getShape(), block.getElementType(), layout));
  if (auto argument = dyn_cast<BlockArgument>(desc)) {
    auto func = dyn_cast<triton::FuncOp>(argument.getOwner()->getParentOp());
    if (!func || argument.getOwner() != &func.getBody().front())
      return user->emitOpError("TMA descriptors must come from a kernel "
                               "argument or tl.make_tensor_descriptor");
    argument.setType(newType);
    SmallVector<Type> inputs(func.getArgumentTypes());
    inputs[argument.getArgNumber()] = newType;
    func.setFunctionType(
        FunctionType::get(desc.getContext(), inputs, func.getResultTypes()));
    return success();
  }
  if (auto make = desc.getDefiningOp<triton::MakeTensorDescOp>()) {
    make.getResult().setType(newType);
    return success();
  }
  return user->emitOpError("TMA descriptors must come from a kernel argument "
                           "or tl.make_tensor_descriptor");
}

/// The layout of a transposed view: swizzled layouts permute their order,
/// 2-D NVMMA layouts flip between K-major and MN-major.
static FailureOr<Attribute> getTransposedLayout(LocalTransOp trans,
                                                Attribute layout) {
  ArrayRef<int32_t> order = trans.getOrder();
  if (auto swizzled = dyn_cast<ttg::SwizzledSharedEncodingAttr>(layout)) {
    SmallVector<unsigned> inverse(order.size());
    for (auto [index, dim] : llvm::enumerate(order))
      inverse[dim] = index;
    SmallVector<unsigned> newOrder;
    for (unsigned dim : swizzled.getOrder())
      newOrder.push_back(inverse[dim]);
    return Attribute(ttg::SwizzledSharedEncodingAttr::get(
        layout.getContext(), swizzled.getVec(), swizzled.getPerPhase(),
        swizzled.getMaxPhase(), newOrder, swizzled.getCgaBases()));
  }
  if (auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(layout))
    if (nvmma.getRank() == 2 && order == ArrayRef<int32_t>{1, 0})
      return Attribute(ttg::NVMMASharedEncodingAttr::get(
          layout.getContext(), nvmma.getSwizzlingByteWidth(),
          !nvmma.getTransposed(), nvmma.getElementBitWidth(),
          nvmma.getFp4Padded(), nvmma.getRank(), nvmma.getCgaBases()));
  return trans.emitOpError("cannot transpose a buffer with layout ")
         << layout << " by [" << order << "]";
}

/// The layout of the same bytes seen with another element type and shape:
/// only layouts whose byte pattern does not depend on the element type.
static FailureOr<Attribute> getReinterpretedLayout(LocalReinterpretOp op,
                                                   ttg::MemDescType source) {
  BufferType result = op.getResult().getType();
  Attribute layout = source.getEncoding();
  unsigned bits = result.getElementType().getIntOrFloatBitWidth();
  if (auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(layout)) {
    ArrayRef<int64_t> oldShape = source.getShape(),
                      newShape = result.getShape();
    bool sameRows =
        oldShape.size() == newShape.size() &&
        oldShape.drop_back() == newShape.drop_back() &&
        oldShape.back() * nvmma.getElementBitWidth() == newShape.back() * bits;
    if (sameRows && !nvmma.getTransposed())
      return Attribute(ttg::NVMMASharedEncodingAttr::get(
          layout.getContext(), nvmma.getSwizzlingByteWidth(), false, bits,
          nvmma.getFp4Padded(), newShape.size(), nvmma.getCgaBases()));
  }
  if (auto swizzled = dyn_cast<ttg::SwizzledSharedEncodingAttr>(layout))
    if (swizzled.getMaxPhase() == 1 && result.getShape().size() == 1)
      return Attribute(ttg::SwizzledSharedEncodingAttr::get(layout.getContext(),
                                                            1, 1, 1, {0}, {}));
  return op.emitOpError("cannot reinterpret a buffer with layout ")
         << layout << " as " << result
         << ": the rows must keep their byte length (and an unswizzled "
            "buffer must become 1-D)";
}

/// The warps that run `op`: its function's or module's "ttg.num-warps".
static unsigned lookupNumWarps(Operation *op) {
  for (Operation *current = op; current; current = current->getParentOp())
    if (auto numWarps = current->getAttrOfType<IntegerAttr>("ttg.num-warps"))
      return numWarps.getInt();
  return 4;
}

/// The wgmma accumulator layout for an MxN result of `elementBits`-bit
/// operands: warp groups stacked along M (4 warps per 64 rows) while M
/// allows, the rest along N; the widest N per instruction that divides it.
static ttg::NvidiaMmaEncodingAttr getWgmmaLayout(MLIRContext *context,
                                                 ArrayRef<int64_t> shape,
                                                 unsigned elementBits,
                                                 unsigned numWarps) {
  unsigned warpsM = 4;
  while (warpsM < numWarps && warpsM * 16 < shape[0])
    warpsM *= 2;
  unsigned warpsN = std::max(1u, numWarps / warpsM);
  int64_t perWarpN = std::max<int64_t>(8, shape[1] / warpsN);
  unsigned instrN = 8;
  for (unsigned candidate = 256; candidate >= 8; candidate -= 8)
    if (perWarpN % candidate == 0) {
      instrN = candidate;
      break;
    }
  unsigned instrK = 256 / elementBits;
  return ttg::NvidiaMmaEncodingAttr::get(context, 3, 0, {warpsM, warpsN},
                                         /*cgaBases=*/{}, {16, instrN, instrK});
}

LogicalResult Lowering::lower(Operation *op) {
  Location loc = op->getLoc();
  builder.setInsertionPoint(op);
  auto viewType = [&](Value set) {
    auto type = cast<ttg::MemDescType>(set.getType());
    return getMemDesc(type.getShape().drop_front(), type.getElementType(),
                      type.getEncoding(), type.getMemorySpace());
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<LocalAllocOp>([&](auto alloc) { return lowerAlloc(alloc); })
      .Case<AllocBarriersOp>([&](auto alloc) { return lowerBarriers(alloc); })
      .Case<LocalViewOp>([&](LocalViewOp view) {
        Value set = memdesc(view.getSource());
        memdescs[view] = ttg::MemDescIndexOp::create(
            builder, loc, viewType(set), set, view.getIndex());
        return success();
      })
      .Case<LocalTransOp>([&](LocalTransOp trans) -> LogicalResult {
        Value source = memdesc(trans.getSource());
        auto sourceType = cast<ttg::MemDescType>(source.getType());
        FailureOr<Attribute> layout =
            getTransposedLayout(trans, sourceType.getEncoding());
        if (failed(layout))
          return failure();
        BufferType result = trans.getResult().getType();
        // A view of a larger allocation keeps that allocation, transposed.
        SmallVector<int64_t> allocShape(sourceType.getAllocShape());
        size_t lead = allocShape.size() - trans.getOrder().size();
        SmallVector<int64_t> tile(allocShape.begin() + lead, allocShape.end());
        for (auto [index, dim] : llvm::enumerate(trans.getOrder()))
          allocShape[lead + index] = tile[dim];
        memdescs[trans] = ttg::MemDescTransOp::create(
            builder, loc,
            ttg::MemDescType::get(result.getShape(), result.getElementType(),
                                  *layout, sourceType.getMemorySpace(),
                                  sourceType.getMutableMemory(), allocShape),
            source, trans.getOrderAttr());
        return success();
      })
      .Case<LocalSliceOp>([&](LocalSliceOp slice) {
        Value source = memdesc(slice.getSource());
        auto sourceType = cast<ttg::MemDescType>(source.getType());
        BufferType result = slice.getResult().getType();
        auto type = ttg::MemDescType::get(
            result.getShape(), result.getElementType(),
            sourceType.getEncoding(), sourceType.getMemorySpace(),
            sourceType.getMutableMemory(), sourceType.getAllocShape());
        memdescs[slice] = ttg::MemDescSubsliceOp::create(
            builder, loc, type, source, slice.getOffsetsAttr());
        return success();
      })
      .Case<LocalReinterpretOp>([&](LocalReinterpretOp cast) -> LogicalResult {
        Value source = memdesc(cast.getSource());
        auto sourceType = llvm::cast<ttg::MemDescType>(source.getType());
        FailureOr<Attribute> layout = getReinterpretedLayout(cast, sourceType);
        if (failed(layout))
          return failure();
        BufferType result = cast.getResult().getType();
        memdescs[cast] = ttg::MemDescReinterpretOp::create(
            builder, loc,
            getMemDesc(result.getShape(), result.getElementType(), *layout,
                       sourceType.getMemorySpace()),
            source);
        return success();
      })
      .Case<AsyncDotOp>([&](AsyncDotOp dot) {
        RankedTensorType accType = dot.getAcc().getType();
        Value a = memdesc(dot.getA()), b = memdesc(dot.getB());
        auto layout = getWgmmaLayout(
            dot.getContext(), accType.getShape(),
            dot.getA().getType().getElementType().getIntOrFloatBitWidth(),
            lookupNumWarps(dot));
        auto mmaType = RankedTensorType::get(accType.getShape(),
                                             accType.getElementType(), layout);
        Value acc =
            ttg::ConvertLayoutOp::create(builder, loc, mmaType, dot.getAcc());
        auto wgmma = ttng::WarpGroupDotOp::create(
            builder, loc, mmaType, a, b, acc, dot.getUseAcc(),
            dot.getInputPrecisionAttr(), dot.getMaxNumImpreciseAccAttr(),
            builder.getBoolAttr(true));
        dot.getResult().replaceAllUsesWith(
            ttg::ConvertLayoutOp::create(builder, loc, accType, wgmma)
                .getResult());
        return success();
      })
      .Case<AsyncDotWaitOp>([&](AsyncDotWaitOp wait) {
        // Wait on the accumulator in its wgmma layout: converting it back to
        // the user's layout reads registers an in-flight wgmma still writes.
        Value acc = wait.getAcc();
        auto convert = acc.getDefiningOp<ttg::ConvertLayoutOp>();
        Value waited = convert ? convert.getSrc() : acc;
        auto waitOp = ttng::WarpGroupDotWaitOp::create(
            builder, loc, ValueRange{waited}, wait.getPendingsAttr());
        Value result = waitOp.getResult(0);
        if (convert)
          result =
              ttg::ConvertLayoutOp::create(builder, loc, acc.getType(), result);
        wait.getResult().replaceAllUsesWith(result);
        return success();
      })
      .Case<BarrierExpectBytesOp>([&](BarrierExpectBytesOp expect) {
        ttng::BarrierExpectOp::create(
            builder, loc, memdesc(expect.getBarrier()), expect.getBytesAttr(),
            predicateOrTrue(loc, expect.getPred()));
        return success();
      })
      .Case<BarrierWaitOp>([&](BarrierWaitOp wait) {
        ttng::WaitBarrierOp::create(builder, loc, memdesc(wait.getBarrier()),
                                    wait.getPhase(), wait.getPred(),
                                    ValueRange());
        return success();
      })
      .Case<BarrierArriveOp>([&](BarrierArriveOp arrive) {
        ttng::ArriveBarrierOp::create(builder, loc,
                                      memdesc(arrive.getBarrier()),
                                      arrive.getCountAttr(), Value());
        return success();
      })
      .Case<AsyncDescriptorLoadOp>([&](AsyncDescriptorLoadOp load) {
        Value buffer = memdesc(load.getBuffer());
        auto layout = cast<ttg::MemDescType>(buffer.getType()).getEncoding();
        if (failed(giveDescriptorLayout(load, load.getDesc(), layout)))
          return failure();
        ttng::AsyncTMACopyGlobalToLocalOp::create(
            builder, loc, load.getDesc(), load.getOffsets(),
            memdesc(load.getBarrier()), buffer,
            predicateOrTrue(loc, load.getPred()), load.getCacheAttr(),
            load.getEvictAttr(), builder.getBoolAttr(false));
        return success();
      })
      .Case<AsyncDescriptorStoreOp>([&](AsyncDescriptorStoreOp store) {
        Value buffer = memdesc(store.getBuffer());
        auto layout = cast<ttg::MemDescType>(buffer.getType()).getEncoding();
        if (failed(giveDescriptorLayout(store, store.getDesc(), layout)))
          return failure();
        ttng::AsyncTMACopyLocalToGlobalOp::create(builder, loc, store.getDesc(),
                                                  store.getOffsets(), buffer);
        return success();
      })
      .Case<AsyncDescriptorStoreWaitOp>([&](AsyncDescriptorStoreWaitOp wait) {
        ttng::TMAStoreWaitOp::create(builder, loc, wait.getPendingsAttr());
        return success();
      })
      .Case<FenceAsyncSharedOp>([&](auto) {
        ttng::FenceAsyncSharedOp::create(builder, loc,
                                         builder.getBoolAttr(false));
        return success();
      })
      .Case<LocalLoadOp>([&](LocalLoadOp load) {
        load.getResult().replaceAllUsesWith(ttg::LocalLoadOp::create(
            builder, loc, load.getType(), memdesc(load.getBuffer()), Value()));
        return success();
      })
      .Case<LocalStoreOp>([&](LocalStoreOp store) {
        ttg::LocalStoreOp::create(builder, loc, store.getValue(),
                                  memdesc(store.getBuffer()));
        return success();
      })
      .Case<AsyncLoadOp>([&](AsyncLoadOp load) {
        ttg::AsyncCopyGlobalToLocalOp::create(
            builder, loc, load.getSrc(), memdesc(load.getBuffer()),
            load.getMask(), load.getOther(), load.getCacheAttr(),
            load.getEvictAttr(), load.getIsVolatileAttr(),
            builder.getI32IntegerAttr(1));
        return success();
      })
      .Case<AsyncLoadCommitGroupOp>([&](auto) {
        ttg::AsyncCommitGroupOp::create(builder, loc, ValueRange());
        return success();
      })
      .Case<AsyncLoadWaitGroupOp>([&](AsyncLoadWaitGroupOp wait) {
        ttg::AsyncWaitOp::create(builder, loc, ValueRange(),
                                 wait.getPendingsAttr());
        return success();
      })
      .Case<NamedBarrierWaitOp>([&](NamedBarrierWaitOp wait) {
        NVVM::BarrierOp::create(builder, loc, TypeRange{}, wait.getId(),
                                wait.getNumThreads(), {}, Value());
        return success();
      })
      .Case<NamedBarrierArriveOp>([&](NamedBarrierArriveOp arrive) {
        NVVM::BarrierArriveOp::create(builder, loc, arrive.getId(),
                                      arrive.getNumThreads());
        return success();
      })
      .Case<ThreadIdOp>([&](ThreadIdOp tid) {
        Type i32 = builder.getI32Type();
        Value value;
        switch (tid.getAxis()) {
        case 0:
          value = NVVM::ThreadIdXOp::create(builder, loc, i32);
          break;
        case 1:
          value = NVVM::ThreadIdYOp::create(builder, loc, i32);
          break;
        default:
          value = NVVM::ThreadIdZOp::create(builder, loc, i32);
          break;
        }
        tid.getResult().replaceAllUsesWith(value);
        return success();
      })
      .Case<Clock64Op>([&](Clock64Op clock) {
        clock.getResult().replaceAllUsesWith(
            NVVM::Clock64Op::create(builder, loc, builder.getI64Type()));
        return success();
      })
      .Default([](Operation *other) {
        return other->emitOpError("has no lowering to TritonGPU yet");
      });
}

LogicalResult Lowering::run() {
  bool failed = false;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isa<TLXDialect>(op->getDialect()))
      return;
    if (mlir::failed(lower(op)))
      failed = true;
    lowered.push_back(op);
  });
  if (failed)
    return failure();
  for (Operation *op : llvm::reverse(lowered)) {
    op->dropAllUses();
    op->erase();
  }
  return success();
}

struct LowerToTritonGPUPass
    : tlx::impl::TLXLowerToTritonGPUBase<LowerToTritonGPUPass> {
  void runOnOperation() override {
    if (failed(Lowering(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
