//===- LowerToTritonGPU.cpp - TLX ops -> ttg / ttng / NVVM ----------------===//

#include "tlx/Conversion/TLXToTritonGPU/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
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

/// The warps the non-default tasks of `tasks` add to the kernel's own.
int32_t getExtraWarps(AsyncTasksOp tasks) {
  int32_t extra = 0;
  for (auto task : tasks.getBody().getOps<AsyncTaskOp>())
    if (!task.getIsDefault())
      extra += task.getNumWarps().value_or(0) * task.getReplicate();
  return extra;
}

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
  LogicalResult lowerAsyncTasks(AsyncTasksOp tasks);
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
  /// Each kernel module's warps once warp-specialized: stock Triton gives
  /// every ttg.warp_specialize the most extra warp groups any of them needs.
  DenseMap<Operation *, int32_t> kernelWarps;
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
/// (Tensor ops in an async task run on that many warps too: lowerAsyncTasks
/// rejects tensors in a task of another warp count.)
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
        Value b = memdesc(dot.getB());
        unsigned elementBits = cast<ttg::MemDescType>(b.getType())
                                   .getElementType()
                                   .getIntOrFloatBitWidth();
        auto layout = getWgmmaLayout(dot.getContext(), accType.getShape(),
                                     elementBits, lookupNumWarps(dot));
        auto mmaType = RankedTensorType::get(accType.getShape(),
                                             accType.getElementType(), layout);
        // `a` from registers takes the wgmma operand layout: 32 bits of K
        // per thread and register.
        Value a;
        if (auto aTensor = dyn_cast<RankedTensorType>(dot.getA().getType())) {
          auto operandLayout = ttg::DotOperandEncodingAttr::get(
              dot.getContext(), /*opIdx=*/0, layout, 32 / elementBits);
          a = ttg::ConvertLayoutOp::create(
              builder, loc,
              RankedTensorType::get(aTensor.getShape(),
                                    aTensor.getElementType(), operandLayout),
              dot.getA());
        } else {
          a = memdesc(dot.getA());
        }
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
  SmallVector<AsyncTasksOp> taskSets;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isa<TLXDialect>(op->getDialect()))
      return;
    // Tasks become ttg.warp_specialize once their bodies are lowered.
    if (auto tasks = dyn_cast<AsyncTasksOp>(op))
      taskSets.push_back(tasks);
    if (isa<AsyncTasksOp, AsyncTaskOp, AsyncTaskReplicaIdOp>(op))
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
  for (AsyncTasksOp tasks : taskSets) {
    auto kernel = tasks->getParentOfType<ModuleOp>();
    int32_t warps =
        lookupNumWarps(kernel) + llvm::divideCeil(getExtraWarps(tasks), 4) * 4;
    kernelWarps[kernel] = std::max(kernelWarps.lookup(kernel), warps);
  }
  for (AsyncTasksOp tasks : taskSets)
    if (mlir::failed(lowerAsyncTasks(tasks)))
      return failure();
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Warp specialization: tlx.async_tasks -> ttg.warp_specialize
//===----------------------------------------------------------------------===//

namespace {

constexpr int kThreadsPerWarp = 32;
constexpr int kRegistersPerSM = 64 * 1024;
constexpr int kMaxWarpsPerCTA = 32;

/// One partition of the ttg.warp_specialize: a replica of a task.
struct Partition {
  AsyncTaskOp task;
  int32_t replica;
};

int32_t roundDown8(int64_t value) { return value / 8 * 8; }

/// How values from above enter the partitions, which see only their
/// explicit captures: constants and register tensors are recomputed inside
/// (a tensor's layout belongs to the warps that hold it), everything else is
/// passed in.
class Captures {
public:
  /// Classifies every value the tasks use from above.
  LogicalResult collect(ArrayRef<AsyncTaskOp> tasks) {
    for (AsyncTaskOp task : tasks) {
      SetVector<Value> above;
      getUsedValuesDefinedAbove(task.getBody(), above);
      for (Value value : above)
        if (failed(classify(value, task)))
          return failure();
    }
    return success();
  }

  ArrayRef<Value> passed() const { return passedValues.getArrayRef(); }

  /// Maps the values from above inside a partition whose block arguments
  /// stand for `passed()`; recomputed values are cloned at the builder.
  void map(OpBuilder &builder, Block &entry, IRMapping &mapping) {
    for (auto [value, argument] : llvm::zip(passedValues, entry.getArguments()))
      mapping.map(value, argument);
    for (Operation *op : recomputed)
      builder.clone(*op, mapping);
  }

private:
  LogicalResult classify(Value value, AsyncTaskOp task) {
    Operation *def = value.getDefiningOp();
    if (passedValues.contains(value) || (def && recomputed.contains(def)))
      return success();
    bool isTensor = isa<RankedTensorType>(value.getType());
    bool recomputable = def && def->getNumRegions() == 0 &&
                        isMemoryEffectFree(def) &&
                        (isTensor || def->hasTrait<OpTrait::ConstantLike>());
    if (!recomputable) {
      if (isTensor) {
        // The value is used inside the task: that is why it is classified.
        Operation *user = *llvm::find_if(value.getUsers(), [&](Operation *op) {
          return task->isAncestor(op);
        });
        InFlightDiagnostic diag =
            mlir::emitError(user->getLoc())
            << "uses a tensor computed outside its async task; a task "
               "runs on other warps, with registers of its own: compute "
               "the tensor inside the task, or pass it through a "
               "tlx.local_alloc buffer";
        diag.attachNote(value.getLoc()) << "the tensor is computed here";
        return diag;
      }
      passedValues.insert(value);
      return success();
    }
    for (Value operand : def->getOperands())
      if (failed(classify(operand, task)))
        return failure();
    // Operands first: `recomputed` stays in dependency order.
    recomputed.insert(def);
    return success();
  }

  SetVector<Value> passedValues;
  SetVector<Operation *> recomputed;
};

/// The first op of `region` that has a tensor operand or result.
Operation *findTensorOp(Region &region) {
  Operation *found = nullptr;
  region.walk([&](Operation *op) {
    auto isTensor = [](Type type) { return isa<RankedTensorType>(type); };
    if (llvm::any_of(op->getOperandTypes(), isTensor) ||
        llvm::any_of(op->getResultTypes(), isTensor)) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

void replaceReplicaIds(Region &region, int32_t replica) {
  region.walk([&](AsyncTaskReplicaIdOp op) {
    OpBuilder builder(op);
    op.getResult().replaceAllUsesWith(
        arith::ConstantIntOp::create(builder, op.getLoc(), replica, 32));
    op.erase();
  });
}

} // namespace

LogicalResult Lowering::lowerAsyncTasks(AsyncTasksOp tasks) {
  auto module = tasks->getParentOfType<ModuleOp>();
  int32_t baseWarps = lookupNumWarps(module);
  AsyncTaskOp defaultTask;
  SmallVector<AsyncTaskOp> others;
  for (auto task : tasks.getBody().getOps<AsyncTaskOp>())
    (task.getIsDefault() ? defaultTask : others.emplace_back()) = task;

  if (std::optional<uint32_t> numWarps = defaultTask.getNumWarps())
    if (*numWarps != static_cast<uint32_t>(baseWarps))
      return defaultTask.emitOpError("the default task runs on the kernel's ")
             << baseWarps << " warps, not num_warps=" << *numWarps
             << "; launch the kernel with num_warps=" << *numWarps
             << " or drop num_warps here";

  SmallVector<Partition> partitions;
  SmallVector<int32_t> partitionWarps;
  int32_t extraWarps = getExtraWarps(tasks);
  for (AsyncTaskOp task : others) {
    int32_t numWarps = *task.getNumWarps();
    // Register tensors carry layouts made for the kernel's warp count.
    if (numWarps != baseWarps)
      if (Operation *tensorOp = findTensorOp(task.getBody()))
        return tensorOp->emitOpError("uses tensors inside a task of ")
               << numWarps << " warps, but tensor layouts are made for the "
               << "kernel's num_warps=" << baseWarps
               << "; give the task num_warps=" << baseWarps
               << " or keep it to scalars, TMA and barriers";
    for (int32_t replica = 0; replica < task.getReplicate(); ++replica) {
      partitions.push_back({task, replica});
      partitionWarps.push_back(numWarps);
    }
  }
  int32_t totalWarps = baseWarps + llvm::divideCeil(extraWarps, 4) * 4;
  if (totalWarps > kMaxWarpsPerCTA)
    return tasks.emitOpError("the tasks need ")
           << totalWarps << " warps in all (" << baseWarps
           << " for the default task, " << extraWarps
           << " for the others, rounded up to whole warp groups); a CTA has "
              "at most "
           << kMaxWarpsPerCTA;

  // Register budgets: each warp group of a task holds its registers; the
  // default task gets what is left (or what it asked for, when that fits).
  bool anyRegisters = defaultTask.getRegisters().has_value() ||
                      llvm::any_of(others, [](AsyncTaskOp task) {
                        return task.getRegisters().has_value();
                      });
  DenseI32ArrayAttr requestedRegisters;
  if (anyRegisters && !partitions.empty()) {
    if (int32_t warps = kernelWarps.lookup(module); warps != totalWarps)
      return tasks.emitOpError("register budgets need every tlx.async_tasks "
                               "of the kernel to use the same number of "
                               "warps: this one uses ")
             << totalWarps << ", another " << warps;
    if (extraWarps % 4 != 0)
      return tasks.emitOpError("register budgets (setmaxnreg) are set per "
                               "warp group: the non-default tasks must add up "
                               "to whole warp groups, got ")
             << extraWarps << " warps";
    int32_t uniform =
        roundDown8(kRegistersPerSM / (totalWarps * kThreadsPerWarp));
    SmallVector<int32_t> requested;
    int64_t partitionRegisters = 0; // registers per thread x warps
    for (Partition &partition : partitions) {
      int32_t registers = partition.task.getRegisters().value_or(uniform);
      requested.push_back(registers);
      partitionRegisters += int64_t(registers) * *partition.task.getNumWarps();
    }
    // With `entry` registers per thread at launch, the default task gets
    // (entry * totalWarps - partitionRegisters) / baseWarps.
    auto defaultGets = [&](int64_t entry) {
      return roundDown8((entry * totalWarps - partitionRegisters) / baseWarps);
    };
    int32_t wanted = defaultTask.getRegisters().value_or(
        std::min<int32_t>(256, defaultGets(uniform)));
    int32_t entry = roundDown8(
        (int64_t(wanted) * baseWarps + partitionRegisters) / totalWarps);
    while (entry + 8 <= uniform && defaultGets(entry + 8) <= wanted)
      entry += 8;
    int32_t available = defaultGets(std::min(entry, uniform));
    bool shortOfAsked = defaultTask.getRegisters() && available < wanted;
    if (entry > uniform || available < 24 || shortOfAsked)
      return tasks.emitOpError("register budgets do not fit: the tasks ask "
                               "for ")
             << partitionRegisters * kThreadsPerWarp
             << " registers and leave the default task "
             << std::max(0, defaultGets(uniform)) << " per thread"
             << (defaultTask.getRegisters()
                     ? " (it asks for " +
                           std::to_string(*defaultTask.getRegisters()) + ")"
                     : std::string())
             << "; an SM has " << kRegistersPerSM << " for all of its "
             << totalWarps * kThreadsPerWarp << " threads";
    requestedRegisters = builder.getDenseI32ArrayAttr(requested);
    // The launch cap; stock allocate-warp-groups reads it back to give the
    // default task its share. It is one number for the whole kernel.
    if (auto earlier = module->getAttrOfType<IntegerAttr>("ttg.maxnreg");
        earlier && earlier.getInt() != entry)
      return tasks.emitOpError("needs a launch cap of ")
             << entry << " registers per thread where an earlier "
             << "tlx.async_tasks of this kernel needs " << earlier.getInt()
             << "; give the register-budgeted async_tasks of one kernel the "
                "same warps and budgets";
    module->setAttr("ttg.maxnreg", builder.getI32IntegerAttr(entry));
  }

  Captures captures;
  if (failed(captures.collect(others)))
    return failure();

  builder.setInsertionPoint(tasks);
  Location loc = tasks.getLoc();
  auto ws = ttg::WarpSpecializeOp::create(
      builder, loc, TypeRange(), partitionWarps, DenseI32ArrayAttr(),
      requestedRegisters, DenseI32ArrayAttr());

  // The default region runs on the kernel's warps and may use values from
  // above as they are.
  Block &defaultBlock = ws.getDefaultRegion().emplaceBlock();
  defaultBlock.getOperations().splice(
      defaultBlock.end(), defaultTask.getBody().front().getOperations());
  replaceReplicaIds(ws.getDefaultRegion(), 0);
  builder.setInsertionPointToEnd(&defaultBlock);
  ttg::WarpYieldOp::create(builder, loc, ValueRange());

  Block &holder = ws.getPartitionOpHolder().emplaceBlock();
  builder.setInsertionPointToStart(&holder);
  auto partitionsOp = ttg::WarpSpecializePartitionsOp::create(
      builder, loc, captures.passed(), partitions.size());
  for (auto [region, partition] :
       llvm::zip(partitionsOp.getPartitionRegions(), partitions)) {
    Block &entry = region.emplaceBlock();
    for (Value value : captures.passed())
      entry.addArgument(value.getType(), value.getLoc());
    OpBuilder inside = OpBuilder::atBlockBegin(&entry);
    IRMapping mapping;
    captures.map(inside, entry, mapping);
    for (Operation &op : partition.task.getBody().front())
      inside.clone(op, mapping);
    replaceReplicaIds(region, partition.replica);
    ttg::WarpReturnOp::create(inside, partition.task.getLoc());
  }
  tasks.erase();
  return success();
}

namespace {

struct LowerToTritonGPUPass
    : tlx::impl::TLXLowerToTritonGPUBase<LowerToTritonGPUPass> {
  void runOnOperation() override {
    if (failed(Lowering(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
