//===- TMAOpToTritonGPU.cpp - TMA and bulk copies, fences -> ttng ---------===//
//
// The descriptors already carry their buffers' layouts (tlx-assign-layouts
// rewrote the kernel signature or tt.make_tensor_descriptor), which is what
// the host-side tensor map and the ttng copies agree on. What Triton 3.6's
// ttng ops cannot express (multicast and two-CTA TMA loads, L2 cache hints,
// bulk copies) is inline PTX of one thread, on the buffers' addresses.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"
#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

/// The bytes of a TMA descriptor (CUtensorMap), and its alignment.
constexpr uint32_t kDescriptorBytes = 128;

bool areMemDescs(ValueRange converted) {
  return llvm::all_of(converted, [](Value value) {
    return static_cast<bool>(getMemDescType(value));
  });
}

/// Whether Triton 3.6's ttng TMA load can express `load`: no multicast, no
/// CTA pair, no L2 cache hint (it rejects eviction policies).
bool isStockDescriptorLoad(AsyncDescriptorLoadOp load) {
  return load.getMulticastTargets().empty() && !load.getTwoCTAs() &&
         load.getEvict() == triton::EvictionPolicy::NORMAL;
}

struct AsyncDescriptorLoadOpConversion
    : OpConversionPattern<AsyncDescriptorLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncDescriptorLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isStockDescriptorLoad(op))
      return rewriter.notifyMatchFailure(op, "a load of inline PTX");
    if (!areMemDescs({adaptor.getBuffer(), adaptor.getBarrier()}))
      return rewriter.notifyMatchFailure(op, "buffer or barrier unconverted");
    Value pred = getPredicateOrTrue(rewriter, op.getLoc(), adaptor.getPred());
    rewriter.replaceOpWithNewOp<ttng::AsyncTMACopyGlobalToLocalOp>(
        op, adaptor.getDesc(), adaptor.getOffsets(), adaptor.getBarrier(),
        adaptor.getBuffer(), pred, op.getCacheAttr(), op.getEvictAttr(),
        /*isVolatile=*/rewriter.getBoolAttr(false));
    return success();
  }
};

/// The TMA loads Triton 3.6 cannot express, as inline PTX issued by one
/// thread, one message per box of the block (as Triton splits a block wider
/// than its swizzle): multicast (written to every target CTA, completing
/// their mbarriers), two_ctas (completing on the mbarrier of the pair's even
/// CTA, `mapa`-mapped, with `.cta_group::2`), and L2 cache hints.
struct PTXDescriptorLoadOpConversion
    : OpConversionPattern<AsyncDescriptorLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncDescriptorLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isStockDescriptorLoad(op))
      return rewriter.notifyMatchFailure(op, "a ttng TMA load");
    ttg::MemDescType buffer = getMemDescType(adaptor.getBuffer());
    if (!buffer || !getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "buffer or barrier unconverted");
    Location loc = op.getLoc();
    FailureOr<std::pair<Value, TMABoxes>> boxes =
        getTMABoxesOf(rewriter, loc, adaptor.getBuffer(), op);
    if (failed(boxes))
      return failure();
    FailureOr<Value> barrierAddress =
        getSharedAddress(rewriter, loc, adaptor.getBarrier(), op);
    if (failed(barrierAddress))
      return failure();
    auto [destination, placement] = *boxes;
    Value barrier = *barrierAddress;
    unsigned rank = buffer.getShape().size();

    // Operands: $0 pred, $1 destination, $2 descriptor, the coordinates,
    // the barrier, then the CTA mask and the cache policy when present.
    std::string constraints = "b,r,l";
    for (unsigned i = 0; i < rank; ++i)
      constraints += ",r";
    constraints += ",r";
    std::string suffix, extra;
    SmallVector<Value> trailing;
    unsigned next = 4 + rank;
    if (!op.getMulticastTargets().empty()) {
      suffix += ".multicast::cluster";
      Value mask = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
      Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 32);
      for (Value target : adaptor.getMulticastTargets())
        mask = arith::OrIOp::create(
            rewriter, loc, mask,
            arith::ShLIOp::create(rewriter, loc, one, target));
      trailing.push_back(
          arith::TruncIOp::create(rewriter, loc, rewriter.getI16Type(), mask));
      constraints += ",h";
      extra += ", $" + std::to_string(next++);
    }
    if (op.getTwoCTAs()) {
      suffix += ".cta_group::2";
      // The pair's even CTA: its rank with the lowest bit cleared.
      Value ctaRank =
          NVVM::ClusterId::create(rewriter, loc, rewriter.getI32Type());
      Value even = arith::AndIOp::create(
          rewriter, loc, ctaRank,
          arith::ConstantIntOp::create(rewriter, loc, ~1, 32));
      barrier = mapToCTA(rewriter, loc, barrier, even);
    }
    if (Value policy = createL2CachePolicy(rewriter, loc, op.getEvict())) {
      suffix += ".L2::cache_hint";
      trailing.push_back(policy);
      constraints += ",l";
      extra += ", $" + std::to_string(next++);
    }
    std::string ptx = llvm::formatv(
        "@$0 cp.async.bulk.tensor.{0}d.shared::cluster.global.mbarrier::"
        "complete_tx::bytes{1} [$1], [$2, {{{2}}], [${3}]{4};",
        rank, suffix, getOperandList(3, rank), 3 + rank, extra);
    Value pred = getIssuerPredicate(rewriter, loc, adaptor.getPred());
    Value desc = getDescriptorAddress(rewriter, loc, adaptor.getDesc());
    createBarrierBeforeAsyncCopy(rewriter, loc);
    forEachTMABox(rewriter, loc, placement, adaptor.getOffsets(), destination,
                  [&](ArrayRef<Value> coordinates, Value address) {
                    SmallVector<Value> operands{pred, address, desc};
                    operands.append(coordinates.begin(), coordinates.end());
                    operands.push_back(barrier);
                    operands.append(trailing);
                    createPtx(rewriter, loc, ptx, constraints, operands);
                  });
    rewriter.eraseOp(op);
    return success();
  }
};

/// A TMA store or reduction Triton 3.6's ttng ops express: no L2 cache hint
/// (neither op has an eviction policy).
struct AsyncDescriptorStoreOpConversion
    : OpConversionPattern<AsyncDescriptorStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncDescriptorStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getEvict() != triton::EvictionPolicy::NORMAL)
      return rewriter.notifyMatchFailure(op, "a store with a cache hint");
    if (!areMemDescs(adaptor.getBuffer()))
      return rewriter.notifyMatchFailure(op, "buffer is not a memdesc");
    if (std::optional<triton::DescriptorReduceKind> kind = op.getReduce())
      rewriter.replaceOpWithNewOp<ttng::AsyncTMAReduceOp>(
          op, *kind, adaptor.getDesc(), adaptor.getOffsets(),
          adaptor.getBuffer());
    else
      rewriter.replaceOpWithNewOp<ttng::AsyncTMACopyLocalToGlobalOp>(
          op, adaptor.getDesc(), adaptor.getOffsets(), adaptor.getBuffer());
    return success();
  }
};

/// A TMA store or reduction with an L2 cache hint: inline PTX of one thread,
/// one message per box, committed as a bulk group of that thread (what
/// tlx.async_descriptor_store_wait counts).
struct PTXDescriptorStoreOpConversion
    : OpConversionPattern<AsyncDescriptorStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncDescriptorStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getEvict() == triton::EvictionPolicy::NORMAL)
      return rewriter.notifyMatchFailure(op, "a ttng TMA store");
    ttg::MemDescType buffer = getMemDescType(adaptor.getBuffer());
    if (!buffer)
      return rewriter.notifyMatchFailure(op, "buffer is not a memdesc");
    Location loc = op.getLoc();
    FailureOr<std::pair<Value, TMABoxes>> boxes =
        getTMABoxesOf(rewriter, loc, adaptor.getBuffer(), op);
    if (failed(boxes))
      return failure();
    auto [source, placement] = *boxes;
    unsigned rank = buffer.getShape().size();
    std::string instruction = "cp.async.bulk.tensor";
    std::string kind;
    if (std::optional<triton::DescriptorReduceKind> reduce = op.getReduce()) {
      instruction = "cp.reduce.async.bulk.tensor";
      kind = ("." + triton::stringifyDescriptorReduceKind(*reduce)).str();
    }
    // $0 pred, $1 descriptor, the coordinates, the source, the policy.
    std::string ptx = llvm::formatv(
        "@$0 {0}.{1}d.global.shared::cta{2}.bulk_group.L2::cache_hint "
        "[$1, {{{3}}], [${4}], ${5};",
        instruction, rank, kind, getOperandList(2, rank), 2 + rank, 3 + rank);
    std::string constraints = "b,l";
    for (unsigned i = 0; i < rank; ++i)
      constraints += ",r";
    constraints += ",r,l";
    Value pred = getIssuerPredicate(rewriter, loc, Value());
    Value desc = getDescriptorAddress(rewriter, loc, adaptor.getDesc());
    Value policy = createL2CachePolicy(rewriter, loc, op.getEvict());
    createBarrierBeforeAsyncCopy(rewriter, loc);
    forEachTMABox(rewriter, loc, placement, adaptor.getOffsets(), source,
                  [&](ArrayRef<Value> coordinates, Value address) {
                    SmallVector<Value> operands{pred, desc};
                    operands.append(coordinates.begin(), coordinates.end());
                    operands.push_back(address);
                    operands.push_back(policy);
                    createPtx(rewriter, loc, ptx, constraints, operands);
                  });
    createPtx(rewriter, loc, "@$0 cp.async.bulk.commit_group;", "b", {pred});
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncDescriptorStoreWaitOpConversion
    : OpConversionPattern<AsyncDescriptorStoreWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncDescriptorStoreWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ttng::TMAStoreWaitOp>(op, op.getPendingsAttr());
    return success();
  }
};

struct FenceAsyncSharedOpConversion : OpConversionPattern<FenceAsyncSharedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FenceAsyncSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ttng::FenceAsyncSharedOp>(
        op, /*bCluster=*/rewriter.getBoolAttr(false));
    return success();
  }
};

/// A TMA prefetch into L2: one thread, one message per box of the block.
struct AsyncDescriptorPrefetchTensorOpConversion
    : OpConversionPattern<AsyncDescriptorPrefetchTensorOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncDescriptorPrefetchTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType block =
        cast<triton::TensorDescType>(adaptor.getDesc().getType())
            .getBlockType();
    FailureOr<TMABoxes> boxes = getTMABoxes(
        block.getShape(), block.getElementType(), block.getEncoding(), op);
    if (failed(boxes))
      return failure();
    unsigned rank = block.getRank();
    Value policy = createL2CachePolicy(rewriter, loc, op.getEvict());
    // $0 pred, $1 descriptor, the coordinates, the cache policy if any.
    std::string ptx = llvm::formatv(
        "@$0 cp.async.bulk.prefetch.tensor.{0}d.L2.global{1} [$1, {{{2}}]{3};",
        rank, policy ? ".L2::cache_hint" : "", getOperandList(2, rank),
        policy ? ", $" + std::to_string(2 + rank) : "");
    std::string constraints = "b,l";
    for (unsigned i = 0; i < rank; ++i)
      constraints += ",r";
    if (policy)
      constraints += ",l";
    Value pred = getIssuerPredicate(rewriter, loc, adaptor.getPred());
    Value desc = getDescriptorAddress(rewriter, loc, adaptor.getDesc());
    forEachTMABox(rewriter, loc, *boxes, adaptor.getOffsets(), Value(),
                  [&](ArrayRef<Value> coordinates, Value) {
                    SmallVector<Value> operands{pred, desc};
                    operands.append(coordinates.begin(), coordinates.end());
                    if (policy)
                      operands.push_back(policy);
                    createPtx(rewriter, loc, ptx, constraints, operands);
                  });
    rewriter.eraseOp(op);
    return success();
  }
};

/// A bulk copy of `size` bytes from a buffer to a global address, committed
/// as a bulk group of the issuing thread (what the TMA store waits count).
struct AsyncStoreOpConversion : OpConversionPattern<AsyncStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getMemDescType(adaptor.getSource()))
      return rewriter.notifyMatchFailure(op, "source is not a memdesc");
    Location loc = op.getLoc();
    FailureOr<Value> source =
        getSharedAddress(rewriter, loc, adaptor.getSource(), op);
    if (failed(source))
      return failure();
    auto global = LLVM::LLVMPointerType::get(getContext(), /*addressSpace=*/1);
    Value destination = UnrealizedConversionCastOp::create(
                            rewriter, loc, global, adaptor.getDestination())
                            .getResult(0);
    createBarrierBeforeAsyncCopy(rewriter, loc);
    createPtx(rewriter, loc,
              "@$0 cp.async.bulk.global.shared::cta.bulk_group [$1], [$2], "
              "$3;\n\t@$0 cp.async.bulk.commit_group;",
              "b,l,r,r",
              {getIssuerPredicate(rewriter, loc, Value()), destination, *source,
               adaptor.getSize()});
    rewriter.eraseOp(op);
    return success();
  }
};

/// A bulk copy of `size` bytes from a global address into a buffer,
/// completing transaction bytes on an mbarrier as a TMA load does.
struct AsyncBulkLoadOpConversion : OpConversionPattern<AsyncBulkLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncBulkLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!areMemDescs({adaptor.getBuffer(), adaptor.getBarrier()}))
      return rewriter.notifyMatchFailure(op, "buffer or barrier unconverted");
    // The copy writes the bytes in order: element i must be at byte i x size.
    if (!isRowMajorUnswizzled(getMemDescType(adaptor.getBuffer())))
      return op.emitOpError("copies bytes in order, into an unswizzled "
                            "buffer only; give local_alloc no layout (or an "
                            "unswizzled one)");
    Location loc = op.getLoc();
    FailureOr<SmallVector<Value>> addresses = getSharedAddresses(
        rewriter, loc, {adaptor.getBuffer(), adaptor.getBarrier()}, op);
    if (failed(addresses))
      return failure();
    auto global = LLVM::LLVMPointerType::get(getContext(), /*addressSpace=*/1);
    Value source = UnrealizedConversionCastOp::create(rewriter, loc, global,
                                                      adaptor.getSource())
                       .getResult(0);
    createBarrierBeforeAsyncCopy(rewriter, loc);
    createPtx(rewriter, loc,
              "@$0 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
              "bytes [$1], [$2], $3, [$4];",
              "b,r,l,r,r",
              {getIssuerPredicate(rewriter, loc, Value()), (*addresses)[0],
               source, adaptor.getSize(), (*addresses)[1]});
    rewriter.eraseOp(op);
    return success();
  }
};

/// Slots of the program's global scratch; the launcher sizes the scratch from
/// the allocations Triton finds.
struct AllocateTensorDescriptorOpConversion
    : OpConversionPattern<AllocateTensorDescriptorOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllocateTensorDescriptorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ttg::GlobalScratchAllocOp>(
        op, op.getType(), kDescriptorBytes * op.getNum(), kDescriptorBytes);
    return success();
  }
};

struct ReinterpretTensorDescriptorOpConversion
    : OpConversionPattern<ReinterpretTensorDescriptorOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReinterpretTensorDescriptorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().getBlockType().getEncoding())
      return op.emitOpError("the descriptor has no layout; run "
                            "tlx-assign-layouts before tlx-lower-to-ttg");
    rewriter.replaceOpWithNewOp<ttng::ReinterpretTensorDescOp>(
        op, op.getType(), adaptor.getDescPtr());
    return success();
  }
};

/// The element-type field of a tensor map (CUtensorMapDataType), as Triton
/// 3.6 writes it for tl.make_tensor_descriptor. Pointers carry signless
/// integers; Triton's are signed unless declared unsigned (tl.int32).
int32_t getTensorMapElementType(Type element) {
  if (element.isBF16())
    return 10;
  if (element.isF16())
    return 6;
  if (element.isF32())
    return 7;
  if (element.isF64())
    return 9;
  switch (element.getIntOrFloatBitWidth()) {
  case 8:
    return 0;
  case 16:
    return 1;
  case 32:
    return element.isUnsignedInteger() ? 2 : 3;
  default:
    return element.isUnsignedInteger() ? 4 : 5;
  }
}

/// The tensor map of the op's tensor, written into its slot by
/// `ttng.tensormap_create` (fields innermost dimension first) and acquired for
/// the TMA unit: what Triton 3.6 does for tl.make_tensor_descriptor, in a
/// slot of the user's.
struct MakeTensorDescriptorOpConversion
    : OpConversionPattern<MakeTensorDescriptorOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MakeTensorDescriptorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Attribute layout = op.getLayoutAttr();
    if (!layout)
      return op.emitOpError("the descriptor has no layout; run "
                            "tlx-assign-layouts before tlx-lower-to-ttg");
    Type element =
        cast<triton::PointerType>(op.getBase().getType()).getPointeeType();
    SmallVector<int64_t> block(op.getBlockShape());
    // tlx-assign-layouts checked that TMA copies blocks in this layout.
    FailureOr<TMABoxes> boxes = getTMABoxes(block, element, layout, op);
    FailureOr<int32_t> swizzle = getTensorMapSwizzle(layout);
    if (failed(boxes) || failed(swizzle))
      return rewriter.notifyMatchFailure(op, "not a layout TMA copies");
    auto i32 = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, value, 32);
    };
    int64_t rank = block.size();
    SmallVector<Value> boxDims{i32(boxes->innerSize)};
    for (int64_t dim = rank - 2; dim >= 0; --dim)
      boxDims.push_back(i32(block[dim]));
    SmallVector<Value> globalDims(llvm::reverse(adaptor.getShape()));
    // Strides in bytes, of every dimension but the innermost (contiguous).
    SmallVector<Value> globalStrides;
    for (int64_t dim = rank - 2; dim >= 0; --dim)
      globalStrides.push_back(arith::MulIOp::create(
          rewriter, loc, adaptor.getStrides()[dim],
          arith::ConstantIntOp::create(
              rewriter, loc, element.getIntOrFloatBitWidth() / 8, 64)));
    SmallVector<Value> elementStrides(rank, i32(1));
    int32_t fill = op.getPadding() == triton::PaddingOption::PAD_NAN ? 1 : 0;
    ttng::TensormapCreateOp::create(
        rewriter, loc, adaptor.getDescPtr(), adaptor.getBase(), boxDims,
        globalDims, globalStrides, elementStrides,
        /*elem_type=*/uint32_t(getTensorMapElementType(element)),
        /*interleave_layout=*/uint32_t(0), /*swizzle_mode=*/uint32_t(*swizzle),
        /*fill_mode=*/uint32_t(fill));
    ttng::TensormapFenceproxyAcquireOp::create(rewriter, loc,
                                               adaptor.getDescPtr());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tlx::populateTMAOpToTritonGPUPatterns(RewritePatternSet &patterns) {
  patterns
      .add<AsyncDescriptorLoadOpConversion, PTXDescriptorLoadOpConversion,
           AsyncDescriptorStoreOpConversion, PTXDescriptorStoreOpConversion,
           AsyncDescriptorStoreWaitOpConversion, FenceAsyncSharedOpConversion,
           AsyncDescriptorPrefetchTensorOpConversion, AsyncStoreOpConversion,
           AsyncBulkLoadOpConversion, AllocateTensorDescriptorOpConversion,
           ReinterpretTensorDescriptorOpConversion,
           MakeTensorDescriptorOpConversion>(patterns.getContext());
}
