//===- ClusterOpToTritonGPU.cpp - distributed shared memory ops -----------===//
//
// The ops that reach another CTA's shared memory: a remote mbarrier arrive,
// stores and bulk copies into a peer CTA's buffer. (Multicast and two-CTA
// TMA loads are TMAOpToTritonGPU.cpp's.)
// Triton 3.6 has no TritonGPU op for them: they are inline PTX on the
// buffers' addresses (Utility.h), `mapa`-mapped into the peer, issued by one
// thread of the task where they act once for the CTA.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"
#include "tlx/Dialect/NVGPU/IR/Dialect.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"
#include "tlx/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;

namespace {

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// barrier_arrive(..., remote_cta_rank=r): arrive on CTA r's mbarrier, with
/// the default (release, CTA scope) semantics as the public TLX lowers it;
/// one thread of the task arrives, or every thread on a warp barrier.
/// `.release.cluster` would put a GPU-wide memory barrier (MEMBAR.ALL.GPU)
/// before every arrive; the pipelines these arrives drive release buffers
/// whose reads have completed, which needs no such fence.
struct RemoteBarrierArriveOpConversion : OpConversionPattern<BarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getRemoteCTARank())
      return rewriter.notifyMatchFailure(op, "a local arrive");
    if (!getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "barrier is not a memdesc");
    Location loc = op.getLoc();
    FailureOr<Value> local =
        getSharedAddress(rewriter, loc, adaptor.getBarrier(), op);
    if (failed(local))
      return failure();
    Value remote = mapToCTA(rewriter, loc, *local, adaptor.getRemoteCTARank());
    Value arrives = op.getPerThread()
                        ? getPredicateOrTrue(rewriter, loc, adaptor.getPred())
                        : getIssuerPredicate(rewriter, loc, adaptor.getPred());
    createMbarrierArrive(rewriter, loc, MbarrierSpace::Cluster, arrives, remote,
                         op.getCount());
    rewriter.eraseOp(op);
    return success();
  }
};

/// remote_shmem_store: each thread stores its elements at their place in
/// the peer's buffer (address = mapped base + row-major offset).
struct RemoteShmemStoreOpConversion : OpConversionPattern<RemoteShmemStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RemoteShmemStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType buffer = getMemDescType(adaptor.getBuffer());
    if (!buffer)
      return rewriter.notifyMatchFailure(op, "buffer is not a memdesc");
    if (!isRowMajorUnswizzled(buffer))
      return op.emitOpError("stores element by element into a row-major, "
                            "unswizzled buffer: use a 1-D buffer, or give "
                            "local_alloc an unswizzled layout");
    auto valueType = cast<RankedTensorType>(adaptor.getValue().getType());
    int64_t bits = valueType.getElementTypeBitWidth();
    auto [registerClass, ptxType] = getRegisterClass(bits);
    if (registerClass.empty())
      return op.emitOpError("stores elements of 16, 32 or 64 bits, not ")
             << bits;
    Location loc = op.getLoc();
    FailureOr<Value> local =
        getSharedAddress(rewriter, loc, adaptor.getBuffer(), op);
    if (failed(local))
      return failure();
    Value remote = mapToCTA(rewriter, loc, *local, adaptor.getRemoteCTARank());
    Type i32 = rewriter.getI32Type();
    Value base = LLVM::PtrToIntOp::create(rewriter, loc, i32, remote);

    // The address of every element in the peer, in the value's own layout.
    Value addresses = getElementAddresses(rewriter, loc, valueType, base,
                                          buffer.getShape(), bits / 8, {});
    auto addressType = valueType.clone(i32);
    Type integer = rewriter.getIntegerType(bits);
    Value bitsValue = adaptor.getValue();
    if (valueType.getElementType() != integer)
      bitsValue = triton::BitcastOp::create(
          rewriter, loc, valueType.clone(integer), bitsValue);
    std::string ptx = llvm::formatv(
        "st.shared::cluster.{0} [$1], $2; mov.u32 $0, 0;", ptxType);
    std::string constraints = llvm::formatv("=r,r,{0}", registerClass).str();
    // The instruction has no result; Triton's elementwise asm needs one.
    triton::ElementwiseInlineAsmOp::create(
        rewriter, loc, TypeRange{addressType}, ptx, constraints,
        /*pure=*/false, /*packed_element=*/1, ValueRange{addresses, bitsValue});
    rewriter.eraseOp(op);
    return success();
  }
};

/// async_remote_shmem_store: the tensor goes to a staging buffer of the
/// destination's layout, then the task's threads move its 32-bit words to the
/// peer with `st.async`, each word once, so the peer's mbarrier counts the
/// buffer's bytes exactly. (An elementwise form would count an element once
/// per thread holding it, and Triton moves elementwise ops between layouts.)
/// The staging buffer is read synchronously and fenced by barriers on both
/// sides, so it can be freed right after.
struct AsyncRemoteShmemStoreOpConversion
    : OpConversionPattern<AsyncRemoteShmemStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncRemoteShmemStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType buffer = getMemDescType(adaptor.getBuffer());
    if (!buffer || !getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "buffer or barrier unconverted");
    Location loc = op.getLoc();
    auto staging = ttg::MemDescType::get(
        buffer.getShape(), buffer.getElementType(), buffer.getEncoding(),
        buffer.getMemorySpace(), /*mutableMemory=*/false);
    Value copy =
        ttg::LocalAllocOp::create(rewriter, loc, staging, adaptor.getValue(),
                                  /*alignment=*/IntegerAttr());
    ttg::LocalBarrierOp::create(rewriter, loc);

    FailureOr<SmallVector<Value>> addresses = getSharedAddresses(
        rewriter, loc, {copy, adaptor.getBuffer(), adaptor.getBarrier()}, op);
    if (failed(addresses))
      return failure();
    Value from = (*addresses)[0];
    Value rank = adaptor.getRemoteCTARank();
    Value remote = mapToCTA(rewriter, loc, (*addresses)[1], rank);
    Value remoteBarrier = mapToCTA(rewriter, loc, (*addresses)[2], rank);

    int64_t bytes = getByteSize(buffer);
    Type i32 = rewriter.getI32Type();
    auto constant = [&](int64_t value) {
      return arith::ConstantIntOp::create(rewriter, loc, value, 32);
    };
    // Word w goes from thread w % threads: warp (from the task's first) x 32
    // + lane.
    Value thread = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(
            rewriter, loc, triton::nvgpu::WarpIdOp::create(rewriter, loc, i32),
            constant(32)),
        NVVM::LaneIdOp::create(rewriter, loc, i32));
    int64_t threads = int64_t(lookupNumWarps(op)) * 32;
    auto sharedPtr =
        LLVM::LLVMPointerType::get(getContext(), kSharedAddressSpace);
    auto clusterPtr =
        LLVM::LLVMPointerType::get(getContext(), kSharedClusterAddressSpace);
    scf::ForOp::create(
        rewriter, loc, thread, constant(bytes / 4), constant(threads),
        ValueRange(),
        [&](OpBuilder &builder, Location, Value word, ValueRange) {
          Value offset = arith::MulIOp::create(
              builder, loc, word,
              arith::ConstantIntOp::create(builder, loc, 4, 32));
          Value source =
              LLVM::GEPOp::create(builder, loc, sharedPtr, builder.getI8Type(),
                                  from, ValueRange{offset});
          Value target =
              LLVM::GEPOp::create(builder, loc, clusterPtr, builder.getI8Type(),
                                  remote, ValueRange{offset});
          createPtx(builder, loc,
                    "{ .reg .b32 w; ld.shared.b32 w, [$0]; "
                    "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 "
                    "[$1], w, [$2]; }",
                    "r,r,r", {source, target, remoteBarrier});
          scf::YieldOp::create(builder, loc);
        });
    // Every thread has read the staging buffer before its memory is reused.
    ttg::LocalBarrierOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

/// async_remote_shmem_copy: one bulk copy into the peer, completing on the
/// peer's mbarrier, issued after a barrier of the task.
struct AsyncRemoteShmemCopyOpConversion
    : OpConversionPattern<AsyncRemoteShmemCopyOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncRemoteShmemCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType source = getMemDescType(adaptor.getSource());
    if (!source || !getMemDescType(adaptor.getDestination()) ||
        !getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "buffers unconverted");
    Location loc = op.getLoc();
    FailureOr<SmallVector<Value>> addresses = getSharedAddresses(
        rewriter, loc,
        {adaptor.getSource(), adaptor.getDestination(), adaptor.getBarrier()},
        op);
    if (failed(addresses))
      return failure();
    Value from = (*addresses)[0], to = (*addresses)[1],
          barrier = (*addresses)[2];
    Value rank = adaptor.getRemoteCTARank();
    SmallVector<Value> operands = {
        getIssuerPredicate(rewriter, loc, Value()),
        mapToCTA(rewriter, loc, to, rank), from,
        arith::ConstantIntOp::create(rewriter, loc, getByteSize(source), 32),
        mapToCTA(rewriter, loc, barrier, rank)};
    // The source may have just been written by every thread of the task.
    createBarrierBeforeAsyncCopy(rewriter, loc);
    createPtx(rewriter, loc,
              "@$0 cp.async.bulk.shared::cluster.shared::cta.mbarrier::"
              "complete_tx::bytes [$1], [$2], $3, [$4];",
              "b,r,r,r,r", operands);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tlx::populateClusterOpToTritonGPUPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<RemoteBarrierArriveOpConversion, RemoteShmemStoreOpConversion,
           AsyncRemoteShmemStoreOpConversion, AsyncRemoteShmemCopyOpConversion>(
          patterns.getContext());
}
