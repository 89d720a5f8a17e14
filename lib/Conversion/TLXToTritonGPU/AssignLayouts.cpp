//===- AssignLayouts.cpp - the tlx-assign-layouts pass --------------------===//
//
// Decides the shared layout of every buffer before anything is lowered, so
// that the lowering patterns only read layouts and the kernel signature is
// rewritten in one place (like Triton's OptimizeDescriptorEncoding).
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Conversion/TLXToTritonGPU/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXASSIGNLAYOUTS
#include "tlx/Conversion/TLXToTritonGPU/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;

namespace {

/// The user's layout, checked, or else the default one, written on `alloc`.
/// Tensor memory takes a tensor memory layout (Layouts.h); cluster-shared
/// allocations keep none.
FailureOr<Attribute> assignBufferLayout(LocalAllocOp alloc) {
  if (alloc.getType().getStorage() == StorageKind::tmem) {
    FailureOr<Attribute> layout = getTensorMemoryLayout(alloc);
    if (succeeded(layout))
      alloc.setLayoutAttr(*layout);
    return layout;
  }
  if (alloc.getType().getStorage() != StorageKind::smem)
    return Attribute();
  if (Attribute explicitLayout = alloc.getLayoutAttr()) {
    if (failed(verifyBufferLayout(alloc, explicitLayout)))
      return failure();
    return explicitLayout;
  }
  Attribute layout = getDefaultBufferLayout(alloc);
  alloc.setLayoutAttr(layout);
  return layout;
}

/// Gives the descriptor `desc` the type `newType` where it is defined: a
/// kernel argument (and with it the kernel's function type) or a
/// tt.make_tensor_descriptor. Anywhere else is an error at `user`.
LogicalResult retypeDescriptor(Operation *user, Value desc,
                               triton::TensorDescType newType) {
  if (auto argument = dyn_cast<BlockArgument>(desc)) {
    auto func = dyn_cast<triton::FuncOp>(argument.getOwner()->getParentOp());
    if (func && argument.getOwner() == &func.getBody().front()) {
      argument.setType(newType);
      SmallVector<Type> inputs(func.getArgumentTypes());
      inputs[argument.getArgNumber()] = newType;
      func.setFunctionType(
          FunctionType::get(desc.getContext(), inputs, func.getResultTypes()));
      return success();
    }
  } else if (auto make = desc.getDefiningOp<triton::MakeTensorDescOp>()) {
    make.getResult().setType(newType);
    return success();
  } else if (auto read = desc.getDefiningOp<ReinterpretTensorDescriptorOp>()) {
    read.getResult().setType(newType);
    return success();
  }
  return user->emitOpError("TMA descriptors must come from a kernel argument, "
                           "tl.make_tensor_descriptor or "
                           "tlx.reinterpret_tensor_descriptor");
}

/// The tlx.allocate_tensor_descriptor whose slot `ptr` is (through
/// indexing); null when it comes from elsewhere (a loop-carried pointer).
Operation *getSlotAllocation(Value ptr) {
  while (auto add = ptr.getDefiningOp<triton::AddPtrOp>())
    ptr = add.getPtr();
  return ptr.getDefiningOp<AllocateTensorDescriptorOp>();
}

/// A descriptor written into a slot and the descriptors read from it must
/// agree on the swizzle the tensor map holds, which nothing checks at run
/// time. Slots are only known by their allocation (indices may be runtime
/// values), so every descriptor of one block type in one allocation's slots
/// takes one layout: that of the buffers the reads are copied with, else the
/// default layout of such a buffer. Reads of two layouts are an error.
LogicalResult assignDescriptorSlotLayouts(ModuleOp module) {
  SmallVector<ReinterpretTensorDescriptorOp> reads;
  SmallVector<MakeTensorDescriptorOp> writes;
  module.walk([&](Operation *op) {
    if (auto read = dyn_cast<ReinterpretTensorDescriptorOp>(op))
      reads.push_back(read);
    else if (auto write = dyn_cast<MakeTensorDescriptorOp>(op))
      writes.push_back(write);
  });
  using Key = std::pair<Operation *, Type>;
  DenseMap<Key, std::pair<Attribute, ReinterpretTensorDescriptorOp>> chosen;
  auto keyOf = [](Value slot, ArrayRef<int64_t> shape, Type element) {
    return Key{getSlotAllocation(slot), RankedTensorType::get(shape, element)};
  };
  for (ReinterpretTensorDescriptorOp read : reads) {
    RankedTensorType block = read.getType().getBlockType();
    Attribute layout = block.getEncoding();
    if (!layout)
      continue;
    Key key =
        keyOf(read.getDescPtr(), block.getShape(), block.getElementType());
    auto [it, inserted] = chosen.try_emplace(key, layout, read);
    if (!inserted && it->second.first != layout) {
      InFlightDiagnostic diag =
          read.emitOpError("copies with buffers of layout ")
          << layout << ", another descriptor read from the same slots with "
          << "buffers of layout " << it->second.first << ": the descriptors "
          << "of one tlx.allocate_tensor_descriptor with the same block share "
          << "one layout";
      diag.attachNote(it->second.second.getLoc()) << "the other read";
      return diag;
    }
  }
  auto layoutOf = [&](Key key, ArrayRef<int64_t> shape, Type element) {
    auto it = chosen.find(key);
    return it != chosen.end() ? it->second.first
                              : getDefaultBlockLayout(shape, element);
  };
  for (ReinterpretTensorDescriptorOp read : reads) {
    RankedTensorType block = read.getType().getBlockType();
    if (block.getEncoding())
      continue;
    Key key =
        keyOf(read.getDescPtr(), block.getShape(), block.getElementType());
    Attribute layout = layoutOf(key, block.getShape(), block.getElementType());
    read.getResult().setType(triton::TensorDescType::get(
        read.getContext(),
        RankedTensorType::get(block.getShape(), block.getElementType(),
                              layout)));
  }
  // What a write gets must be a layout TMA copies blocks in (the lowering
  // writes its swizzle and boxes into the tensor map).
  bool failed = false;
  for (MakeTensorDescriptorOp write : writes) {
    SmallVector<int64_t> shape(write.getBlockShape());
    Type element =
        cast<triton::PointerType>(write.getBase().getType()).getPointeeType();
    if (!write.getLayoutAttr())
      write.setLayoutAttr(
          layoutOf(keyOf(write.getDescPtr(), shape, element), shape, element));
    Attribute layout = write.getLayoutAttr();
    if (mlir::failed(getTMABoxes(shape, element, layout, write)))
      failed = true;
    else if (mlir::failed(getTensorMapSwizzle(layout))) {
      write.emitOpError("TMA cannot copy blocks in shared layout ") << layout;
      failed = true;
    }
  }
  return failure(failed);
}

/// A descriptor a tt.func returns may have taken its layout above, after
/// the function's type was written. A function nothing calls (a test's, or
/// one left after inlining) declares the new type; a called one would
/// hand its callers a descriptor of another type than the call says, so
/// that is an error at the return.
LogicalResult matchReturnedDescriptorTypes(ModuleOp module) {
  bool failed = false;
  for (auto func : module.getOps<triton::FuncOp>()) {
    SmallVector<triton::ReturnOp> returns;
    func.walk([&](triton::ReturnOp ret) { returns.push_back(ret); });
    if (returns.empty())
      continue;
    TypeRange returned = returns.front().getOperandTypes();
    if (llvm::equal(returned, func.getResultTypes()))
      continue;
    bool agree = llvm::all_of(returns, [&](triton::ReturnOp ret) {
      return llvm::equal(ret.getOperandTypes(), returned);
    });
    if (agree && returned.size() == func.getNumResults() &&
        SymbolTable::symbolKnownUseEmpty(func, module)) {
      func.setFunctionType(FunctionType::get(
          func.getContext(), func.getArgumentTypes(), returned));
      continue;
    }
    returns.front().emitOpError("returns (")
        << returned << ") where @" << func.getName() << " is declared to "
        << "return (" << func.getResultTypes()
        << "): a TMA descriptor took the layout of the buffers it copies "
           "here, and @"
        << func.getName()
        << "'s callers expect the declared type; build the "
           "descriptor in the caller, or inline the function";
    failed = true;
  }
  return failure(failed);
}

/// A descriptor's block takes the layout of the buffers it copies: one
/// layout per descriptor.
LogicalResult giveDescriptorLayout(Operation *user, Value desc,
                                   Attribute layout) {
  auto type = dyn_cast<triton::TensorDescType>(desc.getType());
  if (!type)
    return user->emitOpError("needs a !tt.tensordesc descriptor");
  RankedTensorType block = type.getBlockType();
  Attribute bufferLayout = layout;
  layout = getDescriptorLayout(bufferLayout, block.getRank());
  if (!layout)
    return user->emitOpError("copies a descriptor block of rank ")
           << block.getRank() << " with a buffer of layout " << bufferLayout
           << ": a block with more dimensions than its buffer needs an "
              "NVMMA buffer layout";
  if (Attribute current = block.getEncoding()) {
    if (current != layout)
      return user->emitOpError("this descriptor is also used with a buffer "
                               "of another layout (")
             << current << "); use one buffer layout per descriptor";
    return success();
  }
  auto newType = triton::TensorDescType::get(
      desc.getContext(),
      RankedTensorType::get(block.getShape(), block.getElementType(), layout));
  return retypeDescriptor(user, desc, newType);
}

/// Whether an NVMMA operand layout is `layout` K-major: `a` (M x K)
/// untransposed, `b` (K x N) transposed. Other layouts have no major order.
static std::optional<bool> isKMajor(Attribute layout, bool transposedIsKMajor) {
  auto nvmma = dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(layout);
  if (!nvmma)
    return std::nullopt;
  return nvmma.getTransposed() == transposedIsKMajor;
}

/// Operands `instruction` reads K-major only, `bits` wide: an error at `op`
/// where a layout says otherwise.
LogicalResult checkKMajorOperands(Operation *op, StringRef instruction,
                                  unsigned bits, Attribute aLayout,
                                  Attribute bLayout) {
  StringRef kind = bits == 32 ? " (tf32)" : "";
  if (isKMajor(aLayout, /*transposedIsKMajor=*/false) == false)
    return op->emitOpError()
           << instruction << " reads " << bits << "-bit" << kind
           << " `a` K-major only: pass an MxK buffer as it is, not a "
              "transposed view";
  if (isKMajor(bLayout, /*transposedIsKMajor=*/true) == false)
    return op->emitOpError()
           << instruction << " reads " << bits << "-bit" << kind
           << " `b` K-major only: allocate `b` as NxK and pass "
              "tlx.local_trans(b)";
  return success();
}

/// What wgmma reads, checked where the layouts are known (stock Triton would
/// assert or produce IR it cannot parse): whole warp groups, and operands
/// other than 16-bit ones K-major (wgmma transposes f16 and bf16 only).
LogicalResult checkAsyncDotOperands(AsyncDotOp dot, Attribute aLayout,
                                    Attribute bLayout) {
  if (unsigned warps = lookupNumWarps(dot); warps % 4 != 0)
    return dot.emitOpError("wgmma runs on whole warp groups: the kernel (or "
                           "task) needs num_warps a multiple of 4, got ")
           << warps;
  unsigned bits = dot.getB().getType().getElementType().getIntOrFloatBitWidth();
  if (bits == 16)
    return success();
  return checkKMajorOperands(dot, "wgmma", bits, aLayout, bLayout);
}

/// e2m1 operands of a block-scaled MMA are packed two to a byte along K,
/// which Triton 3.6 reads only K-major (it takes the packed dimension to be
/// the contiguous one).
LogicalResult checkScaledDotOperands(TCGen05MMAScaledOp dot, Attribute aLayout,
                                     Attribute bLayout) {
  using triton::ScaleDotElemType;
  if (dot.getAType() == ScaleDotElemType::E2M1 &&
      isKMajor(aLayout, /*transposedIsKMajor=*/false) != true)
    return dot.emitOpError("e2m1 `A` is read K-major only (two values per "
                           "byte along K): pass the M x K/2 buffer as it is, "
                           "in an NVMMA layout");
  if (dot.getBType() == ScaleDotElemType::E2M1 &&
      isKMajor(bLayout, /*transposedIsKMajor=*/true) != true)
    return dot.emitOpError("e2m1 `B` is read K-major only (two values per "
                           "byte along K): allocate `B` as N x K/2 and pass "
                           "tlx.local_trans(b)");
  return success();
}

/// Triton 3.6 lowers tf32 tcgen05.mma with both operands K-major only (it
/// asserts otherwise), and an N-major `b` in rows of 16 bytes or more (it
/// finds no shared-memory layout for narrower ones).
LogicalResult checkTCGen05Operands(TCGen05MMAOp mma, Attribute aLayout,
                                   Attribute bLayout) {
  BufferType b = mma.getB().getType();
  unsigned bits = b.getElementType().getIntOrFloatBitWidth();
  int64_t rowBytes = b.getShape().back() * bits / 8;
  if (isKMajor(bLayout, /*transposedIsKMajor=*/true) == false && rowBytes < 16)
    return mma.emitOpError("tcgen05.mma reads an N-major `b` in rows of 16 "
                           "bytes or more, and these are ")
           << rowBytes << ": allocate `b` as NxK and pass tlx.local_trans(b)";
  if (bits != 32)
    return success();
  return checkKMajorOperands(mma, "tcgen05.mma", bits, aLayout, bLayout);
}

LogicalResult checkDotOperands(Operation *dot, Attribute aLayout,
                               Attribute bLayout) {
  if (auto scaled = dyn_cast<TCGen05MMAScaledOp>(dot))
    return checkScaledDotOperands(scaled, aLayout, bLayout);
  if (auto mma = dyn_cast<TCGen05MMAOp>(dot))
    return checkTCGen05Operands(mma, aLayout, bLayout);
  return checkAsyncDotOperands(cast<AsyncDotOp>(dot), aLayout, bLayout);
}

/// assert_same_layout of buffers: their shared layouts are final here
/// (Triton's passes change register layouts only).
LogicalResult checkBufferAssertion(AssertSameLayoutOp check, Attribute lhs,
                                   Attribute rhs) {
  if (lhs == rhs)
    return success();
  return check.emitOpError("layout assertion failed: the buffer's layout is ")
         << lhs << ", not " << rhs;
}

/// TLX kernels lay out one CTA; clusters of CTAs (num_ctas > 1) are not
/// lowered yet.
LogicalResult checkOneCTA(ModuleOp module) {
  auto numCTAs = module->getAttrOfType<IntegerAttr>("ttg.num-ctas");
  if (!numCTAs || numCTAs.getInt() == 1)
    return success();
  Operation *first = nullptr;
  module.walk([&](Operation *op) {
    if (!first && isa<TLXDialect>(op->getDialect()))
      first = op;
  });
  if (!first)
    return success();
  return first->emitOpError("TLX kernels run with num_ctas=1 (one CTA per "
                            "program); this one is compiled with num_ctas=")
         << numCTAs.getInt();
}

/// Whether tcgen05.ld/st can move `bufferValue` (in `layout`) between tensor
/// memory and the registers of `op`'s warps; an error at `op` if not.
LogicalResult checkTensorMemoryAccess(Operation *op, Value bufferValue,
                                      Attribute layout) {
  auto buffer = cast<BufferType>(bufferValue.getType());
  if (buffer.getStorage() != StorageKind::tmem)
    return success();
  if (isBlockScaleBuffer(buffer))
    return op->emitOpError("8-bit tensor memory holds block scales, which "
                           "tlx.tmem_copy fills and tlx.async_dot_scaled "
                           "reads; tcgen05.ld/st of scales is not supported");
  unsigned numWarps = lookupNumWarps(op);
  if (failed(getTensorMemoryRegisterLayout(op->getContext(), buffer.getShape(),
                                           numWarps, /*elementsPerColumn=*/1)))
    return op->emitOpError("tcgen05.ld/st move 64- or 128-row tensor-memory "
                           "buffers with whole warp groups, each warp group "
                           "an equal share of the columns: got [")
           << buffer.getShape() << "] with num_warps " << numWarps;
  unsigned elementsPerColumn =
      getTensorMemoryElementsPerColumn(buffer.getElementType(), layout);
  if (succeeded(getTensorMemoryRegisterLayout(
          op->getContext(), buffer.getShape(), numWarps, elementsPerColumn)))
    return success();
  return op->emitOpError("tcgen05.ld/st move whole 32-bit columns, which "
                         "hold ")
         << elementsPerColumn << " packed " << buffer.getElementType()
         << " elements here, but " << numWarps << " warps split the ["
         << buffer.getShape()
         << "] buffer's columns finer than that: use fewer warps for this "
            "access, more columns, or an unpacked tensor-memory layout";
}

/// tcgen05 and cluster launch control exist from sm_100 on; tensor memory
/// moves to registers by warp groups.
LogicalResult checkBlackwellOps(ModuleOp module) {
  bool failed = false;
  module.walk([&](Operation *op) {
    if (isa<TCGen05MMAOp>(op))
      failed |= mlir::failed(verifyBlackwellTarget(op, "tcgen05.mma"));
    else if (isa<TCGen05MMAScaledOp>(op))
      failed |=
          mlir::failed(verifyBlackwellTarget(op, "block-scaled tcgen05.mma"));
    else if (isa<StochRoundOp>(op))
      failed |= mlir::failed(
          verifyBlackwellTarget(op, "stochastic rounding (cvt.rs)"));
    else if (isa<TCGen05CommitOp>(op))
      failed |= mlir::failed(verifyBlackwellTarget(op, "tcgen05.commit"));
    else if (isa<TMEMCopyOp>(op))
      failed |= mlir::failed(verifyBlackwellTarget(op, "tcgen05.cp"));
    else if (isa<CLCTryCancelOp>(op))
      failed |= mlir::failed(
          verifyBlackwellTarget(op, "clusterlaunchcontrol.try_cancel"));
    else if (isa<CLCQueryOp>(op))
      failed |= mlir::failed(
          verifyBlackwellTarget(op, "clusterlaunchcontrol.query_cancel"));
  });
  return failure(failed);
}

struct AssignLayoutsPass : tlx::impl::TLXAssignLayoutsBase<AssignLayoutsPass> {
  void runOnOperation() override {
    if (failed(checkOneCTA(getOperation())) ||
        failed(checkBlackwellOps(getOperation())) ||
        failed(propagateBufferLayouts(
            getOperation(), assignBufferLayout, giveDescriptorLayout,
            checkDotOperands, checkBufferAssertion, checkTensorMemoryAccess)) ||
        failed(assignDescriptorSlotLayouts(getOperation())) ||
        failed(matchReturnedDescriptorTypes(getOperation())))
      signalPassFailure();
  }
};

} // namespace
