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

/// The address of a NUL-terminated constant string, a module-level global
/// (one per distinct text).
Value getStringAddress(OpBuilder &builder, Location loc, ModuleOp module,
                       StringRef text) {
  std::string bytes = (text + llvm::StringRef("\0", 1)).str();
  auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), bytes.size());
  std::string name = "tlx_text_" + std::to_string(llvm::hash_value(bytes));
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    global = LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    builder.getStringAttr(bytes));
  }
  return LLVM::AddressOfOp::create(builder, loc, global);
}

/// CUDA's `__assertfail(message, file, line, function, charSize)`, declared
/// once in the module (as Triton declares it for `tl.device_assert`).
LLVM::LLVMFuncOp getAssertFail(OpBuilder &builder, ModuleOp module) {
  constexpr StringLiteral name = "__assertfail";
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  MLIRContext *context = builder.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto type = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(context),
      {ptr, ptr, builder.getI32Type(), ptr, builder.getI64Type()});
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto function =
      LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
  function.setPassthroughAttr(
      builder.getArrayAttr({builder.getStringAttr("noreturn")}));
  return function;
}

/// ("file", line) of a `file:line` description; ("?", 0) when empty.
std::pair<std::string, int64_t> splitLocation(StringRef where) {
  auto [file, line] = where.rsplit(':');
  int64_t number = 0;
  if (where.empty() || line.getAsInteger(10, number))
    return {where.empty() ? "?" : where.str(), 0};
  return {file.str(), number};
}

/// With `tlx.wait-timeout-us` on the module (TLX_WAIT_TIMEOUT_MS): the wait
/// polls `mbarrier.try_wait` (the timer is read only once a first try fails)
/// against `%globaltimer`; once the time is up, the thread fails a device
/// assertion naming the kernel, the barrier, the phase and the line, so the
/// launch fails with that message instead of hanging.
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
  std::string kernelName = kernel ? kernel.getName().str() : "?";
  std::string where = describeLocation(loc);
  auto messageFor = [&](int parity) -> std::string {
    return llvm::formatv(
        "TLX: mbarrier wait timed out after {0} ms in kernel `{1}` at {2}: {3} "
        "never completed phase parity {4}",
        timeoutUs % 1000 == 0
            ? std::to_string(timeoutUs / 1000)
            : llvm::formatv("{0:F3}", timeoutUs / 1000.0).str(),
        kernelName, where.empty() ? "?" : where,
        describeBarrier(op.getBarrier()), parity);
  };
  auto module = op->getParentOfType<ModuleOp>();
  auto onTimeout = scf::IfOp::create(rewriter, loc, timedOut);
  rewriter.setInsertionPointToStart(&onTimeout.getThenRegion().front());
  // A device assertion, as `tl.device_assert` makes one: the driver prints
  // its message when the launch fails, and `__assertfail` does not return,
  // so the wait's fast path keeps its registers.
  Value isOdd = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                      phase, zero);
  Value message = LLVM::SelectOp::create(
      rewriter, loc, isOdd,
      getStringAddress(rewriter, loc, module, messageFor(1)),
      getStringAddress(rewriter, loc, module, messageFor(0)));
  auto [file, line] = splitLocation(where);
  Type i32Type = rewriter.getI32Type();
  Type i64Type = rewriter.getI64Type();
  LLVM::CallOp::create(
      rewriter, loc, getAssertFail(rewriter, module),
      ValueRange{message, getStringAddress(rewriter, loc, module, file),
                 LLVM::ConstantOp::create(rewriter, loc, i32Type, line),
                 getStringAddress(rewriter, loc, module, kernelName),
                 LLVM::ConstantOp::create(rewriter, loc, i64Type, 1)});
  LLVM::Trap::create(rewriter, loc);
  rewriter.setInsertionPointAfter(onTimeout);
  rewriter.eraseOp(op);
  return success();
}

/// With a suspend-time hint (`async_tasks(mbarrier_try_wait_suspend_ns=)`):
/// the wait polls the four-operand `mbarrier.try_wait`, whose hint lets the
/// thread sleep in the barrier instead of spinning (Triton 3.6's wait has no
/// such form).
LogicalResult lowerSuspendingWait(BarrierWaitOp op, Value barrier, Value phase,
                                  Value pred, int64_t suspendNs,
                                  ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  FailureOr<Value> address = getSharedAddress(rewriter, loc, barrier, op);
  if (failed(address))
    return failure();
  Value hint = arith::ConstantIntOp::create(rewriter, loc, suspendNs, 32);
  createPtx(rewriter, loc,
            "{ .reg .pred complete; @!$3 bra.uni SKIP; WAIT: "
            "mbarrier.try_wait.parity.shared::cta.b64 complete, [$0], $1, $2; "
            "@!complete bra.uni WAIT; SKIP: }",
            "r,r,r,b",
            {*address, phase, hint, getPredicateOrTrue(rewriter, loc, pred)});
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
    if (auto suspend =
            module->getAttrOfType<IntegerAttr>(kTryWaitSuspendNsAttr))
      return lowerSuspendingWait(op, adaptor.getBarrier(), adaptor.getPhase(),
                                 adaptor.getPred(), suspend.getInt(), rewriter);
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

/// A warp barrier's arrive on this CTA's mbarrier: every thread arrives
/// (ttng.arrive_barrier has one thread arrive).
struct PerThreadBarrierArriveOpConversion
    : OpConversionPattern<BarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getPerThread())
      return rewriter.notifyMatchFailure(op, "a one-thread arrive");
    if (op.getRemoteCTARank())
      return rewriter.notifyMatchFailure(op, "a remote arrive (clusters)");
    if (!getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "barrier is not a memdesc");
    Location loc = op.getLoc();
    FailureOr<Value> address =
        getSharedAddress(rewriter, loc, adaptor.getBarrier(), op);
    if (failed(address))
      return failure();
    createMbarrierArrive(rewriter, loc, MbarrierSpace::CTA,
                         getPredicateOrTrue(rewriter, loc, adaptor.getPred()),
                         *address, op.getCount());
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
