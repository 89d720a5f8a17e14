//===- BarrierOpToTritonGPU.cpp - mbarriers -> ttg / ttng -----------------===//
//
// mbarriers live in one `Nx1xi64` shared allocation; each entry is
// initialized where the mbarriers are allocated, and the initialization is
// made visible to the whole CTA before any other use.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"
#include "tlx/Dialect/Triton/IR/Dialect.h"
#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

/// Sets of at most this many mbarriers are initialized one op each; larger
/// ones in a loop, so that thousands of mbarriers compile in linear time.
constexpr int64_t kMaxUnrolledBarrierInits = 64;

struct AllocBarriersOpConversion : OpConversionPattern<AllocBarriersOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllocBarriersOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Attribute layout = getUnswizzled1DLayout(op.getContext());
    int64_t count = op.getType().getCount();
    Type i64 = rewriter.getI64Type();
    auto all = ttg::LocalAllocOp::create(
        rewriter, loc, getSharedMemDesc({count, 1}, i64, layout), Value(),
        /*alignment=*/IntegerAttr());
    auto oneType = getSharedMemDesc({1}, i64, layout);
    auto initAt = [&](OpBuilder &builder, Value position) {
      Value barrier =
          ttg::MemDescIndexOp::create(builder, loc, oneType, all, position);
      ttng::InitBarrierOp::create(builder, loc, barrier,
                                  op.getArriveCountAttr());
    };
    if (count <= kMaxUnrolledBarrierInits) {
      for (int64_t index = 0; index < count; ++index)
        initAt(rewriter,
               arith::ConstantIntOp::create(rewriter, loc, index, 32));
    } else {
      Value zero = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
      Value end = arith::ConstantIntOp::create(rewriter, loc, count, 32);
      Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 32);
      scf::ForOp::create(
          rewriter, loc, zero, end, one, ValueRange(),
          [&](OpBuilder &builder, Location, Value index, ValueRange) {
            initAt(builder, index);
            scf::YieldOp::create(builder, loc);
          });
    }
    // One thread initializes; every thread must see it before the first use.
    ttg::LocalBarrierOp::create(rewriter, loc);
    rewriter.replaceOp(op, all);
    return success();
  }
};

struct BarrierExpectBytesOpConversion
    : OpConversionPattern<BarrierExpectBytesOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierExpectBytesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "barrier is not a memdesc");
    Value pred = getPredicateOrTrue(rewriter, op.getLoc(), adaptor.getPred());
    rewriter.replaceOpWithNewOp<ttng::BarrierExpectOp>(op, adaptor.getBarrier(),
                                                       op.getBytesAttr(), pred);
    return success();
  }
};

/// The module attribute of the opt-in bounded waits: microseconds a
/// `tlx.barrier_wait` may wait before the kernel reports and traps.
constexpr llvm::StringLiteral kWaitTimeoutAttr = "tlx.wait-timeout-us";

/// `file:line` of a location (through names and call sites); empty if none.
std::string describeLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().str() + ":" + std::to_string(file.getLine()));
  if (auto named = dyn_cast<NameLoc>(loc))
    return describeLocation(named.getChildLoc());
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return describeLocation(call.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string text = describeLocation(inner); !text.empty())
        return text;
  return "";
}

/// Which mbarrier a TLX barrier value is, in the user's terms.
std::string describeBarrier(Value barrier) {
  auto view = barrier.getDefiningOp<LocalViewOp>();
  auto alloc = view ? view.getSource().getDefiningOp<AllocBarriersOp>()
                    : AllocBarriersOp();
  if (!alloc)
    return "an mbarrier";
  APInt index;
  std::string which = matchPattern(view.getIndex(), m_ConstantInt(&index))
                          ? "mbarrier " + std::to_string(index.getSExtValue())
                          : "an mbarrier";
  std::string where = describeLocation(alloc.getLoc());
  return which + " of the tlx.alloc_barriers" +
         (where.empty() ? "" : " at " + where);
}

/// With `tlx.wait-timeout-us` on the module (TLX_WAIT_TIMEOUT_MS): the wait
/// polls `mbarrier.try_wait` (the timer is read only once a first try fails)
/// against `%globaltimer`; once the time is up, one
/// thread of the task prints the kernel, the barrier, the phase and the line,
/// and every timed-out thread traps, so the launch fails instead of hanging.
LogicalResult lowerBoundedWait(BarrierWaitOp op, Value barrier, Value phase,
                               Value pred, int64_t timeoutUs,
                               ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  FailureOr<Value> address = getSharedAddress(rewriter, loc, barrier, op);
  if (failed(address))
    return failure();
  std::string ptx = llvm::formatv(
      "{{ .reg .pred p_done, p_late; .reg .u64 t_start, t_now; mov.u32 $0, "
      "1; @!$3 bra DONE; mbarrier.try_wait.parity.shared::cta.b64 p_done, "
      "[$1], $2; @p_done bra DONE; mov.u64 t_start, %globaltimer; WAIT: "
      "mbarrier.try_wait.parity.shared::cta.b64 p_done, [$1], $2; @p_done bra "
      "DONE; mov.u64 t_now, %globaltimer; sub.u64 t_now, t_now, t_start; "
      "setp.lt.u64 p_late, t_now, {0}; @p_late bra WAIT; mov.u32 $0, 0; DONE: "
      "}",
      timeoutUs * 1000);
  Type i32 = rewriter.getI32Type();
  Value waited =
      LLVM::InlineAsmOp::create(
          rewriter, loc, i32,
          ValueRange{*address, phase, getPredicateOrTrue(rewriter, loc, pred)},
          ptx, "=r,r,r,b", /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::TailCallKind::None,
          LLVM::AsmDialectAttr::get(rewriter.getContext(),
                                    LLVM::AsmDialect::AD_ATT),
          /*operand_attrs=*/ArrayAttr())
          .getResult(0);
  Value zero = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
  Value timedOut = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::eq, waited, zero);
  auto kernel = op->getParentOfType<FunctionOpInterface>();
  std::string where = describeLocation(loc);
  std::string message = llvm::formatv(
      " TLX: mbarrier wait timed out after {0} ms in kernel `{1}` at {2}: {3} "
      "never completed the phase; phase waited for:",
      timeoutUs % 1000 == 0 ? std::to_string(timeoutUs / 1000)
                            : llvm::formatv("{0:F3}", timeoutUs / 1000.0).str(),
      kernel ? kernel.getName() : "?", where.empty() ? "?" : where,
      describeBarrier(op.getBarrier()));
  auto onTimeout = scf::IfOp::create(rewriter, loc, timedOut);
  rewriter.setInsertionPointToStart(&onTimeout.getThenRegion().front());
  auto report = scf::IfOp::create(rewriter, loc,
                                  getIssuerPredicate(rewriter, loc, Value()));
  rewriter.setInsertionPointToStart(&report.getThenRegion().front());
  triton::PrintOp::create(rewriter, loc, message, /*hex=*/false,
                          ValueRange{phase},
                          rewriter.getDenseI32ArrayAttr({0}));
  rewriter.setInsertionPointAfter(report);
  // llvm.trap is noreturn: nothing stays live across the print's call, so the
  // report costs the waits' fast path no registers.
  LLVM::Trap::create(rewriter, loc);
  rewriter.setInsertionPointAfter(onTimeout);
  rewriter.eraseOp(op);
  return success();
}

struct BarrierWaitOpConversion : OpConversionPattern<BarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "barrier is not a memdesc");
    auto module = op->getParentOfType<ModuleOp>();
    if (auto timeout = module->getAttrOfType<IntegerAttr>(kWaitTimeoutAttr))
      return lowerBoundedWait(op, adaptor.getBarrier(), adaptor.getPhase(),
                              adaptor.getPred(), timeout.getInt(), rewriter);
    rewriter.replaceOpWithNewOp<ttng::WaitBarrierOp>(
        op, adaptor.getBarrier(), adaptor.getPhase(), adaptor.getPred(),
        /*deps=*/ValueRange());
    return success();
  }
};

struct BarrierArriveOpConversion : OpConversionPattern<BarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getRemoteCTARank())
      return rewriter.notifyMatchFailure(op, "a remote arrive (clusters)");
    if (op.getPerThread())
      return rewriter.notifyMatchFailure(op, "a per-thread arrive");
    if (!getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "barrier is not a memdesc");
    rewriter.replaceOpWithNewOp<ttng::ArriveBarrierOp>(
        op, adaptor.getBarrier(), op.getCountAttr(), adaptor.getPred());
    return success();
  }
};

/// A warp barrier's arrive: every thread arrives (ttng.arrive_barrier has
/// one thread arrive).
struct PerThreadBarrierArriveOpConversion
    : OpConversionPattern<BarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getPerThread())
      return rewriter.notifyMatchFailure(op, "a one-thread arrive");
    if (!getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "barrier is not a memdesc");
    Location loc = op.getLoc();
    FailureOr<Value> address =
        getSharedAddress(rewriter, loc, adaptor.getBarrier(), op);
    if (failed(address))
      return failure();
    Value count =
        arith::ConstantIntOp::create(rewriter, loc, op.getCount(), 32);
    createPtx(rewriter, loc, "@$0 mbarrier.arrive.shared::cta.b64 _, [$1], $2;",
              "b,r,r",
              {getPredicateOrTrue(rewriter, loc, adaptor.getPred()), *address,
               count});
    rewriter.eraseOp(op);
    return success();
  }
};

/// barrier.cluster.arrive (release) then barrier.cluster.wait (acquire).
struct ClusterBarrierOpConversion : OpConversionPattern<ClusterBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ClusterBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttng::ClusterArriveOp::create(rewriter, op.getLoc(), /*relaxed=*/false);
    rewriter.replaceOpWithNewOp<ttng::ClusterWaitOp>(op);
    return success();
  }
};

} // namespace

void mlir::tlx::populateBarrierOpToTritonGPUPatterns(
    RewritePatternSet &patterns) {
  patterns.add<AllocBarriersOpConversion, BarrierExpectBytesOpConversion,
               BarrierWaitOpConversion, BarrierArriveOpConversion,
               PerThreadBarrierArriveOpConversion, ClusterBarrierOpConversion>(
      patterns.getContext());
}
