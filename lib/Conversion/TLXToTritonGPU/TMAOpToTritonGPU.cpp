//===- TMAOpToTritonGPU.cpp - TMA copies and fences -> ttng ---------------===//
//
// The descriptors already carry their buffers' layouts (tlx-assign-layouts
// rewrote the kernel signature or tt.make_tensor_descriptor), which is what
// the host-side tensor map and the ttng copies agree on.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"
#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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

struct AsyncDescriptorLoadOpConversion
    : OpConversionPattern<AsyncDescriptorLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncDescriptorLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getMulticastTargets().empty())
      return rewriter.notifyMatchFailure(op, "a multicast load (clusters)");
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

struct AsyncDescriptorStoreOpConversion
    : OpConversionPattern<AsyncDescriptorStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncDescriptorStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!areMemDescs(adaptor.getBuffer()))
      return rewriter.notifyMatchFailure(op, "buffer is not a memdesc");
    rewriter.replaceOpWithNewOp<ttng::AsyncTMACopyLocalToGlobalOp>(
        op, adaptor.getDesc(), adaptor.getOffsets(), adaptor.getBuffer());
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
    int64_t rank = block.getRank();
    // $0 pred, $1 descriptor, then the coordinates innermost first.
    std::string coords;
    for (int64_t i = 0; i < rank; ++i)
      coords += llvm::formatv("{0}${1}", i ? ", " : "", 2 + i).str();
    std::string ptx = llvm::formatv(
        "@$0 cp.async.bulk.prefetch.tensor.{0}d.L2.global [$1, {{{1}}];", rank,
        coords);
    std::string constraints = "b,l";
    for (int64_t i = 0; i < rank; ++i)
      constraints += ",r";
    Value pred = getIssuerPredicate(rewriter, loc, adaptor.getPred());
    Value desc = getDescriptorAddress(rewriter, loc, adaptor.getDesc());
    for (int64_t box = 0; box < boxes->count; ++box) {
      SmallVector<Value> offsets(adaptor.getOffsets());
      if (box)
        offsets.back() = arith::AddIOp::create(
            rewriter, loc, offsets.back(),
            arith::ConstantIntOp::create(rewriter, loc, box * boxes->innerSize,
                                         32));
      SmallVector<Value> operands{pred, desc};
      operands.append(offsets.rbegin(), offsets.rend());
      createPtx(rewriter, loc, ptx, constraints, operands);
    }
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
      .add<AsyncDescriptorLoadOpConversion, AsyncDescriptorStoreOpConversion,
           AsyncDescriptorStoreWaitOpConversion, FenceAsyncSharedOpConversion,
           AsyncDescriptorPrefetchTensorOpConversion, AsyncStoreOpConversion,
           AllocateTensorDescriptorOpConversion,
           ReinterpretTensorDescriptorOpConversion,
           MakeTensorDescriptorOpConversion>(patterns.getContext());
}
