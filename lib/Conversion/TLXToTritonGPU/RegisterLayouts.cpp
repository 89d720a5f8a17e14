//===- RegisterLayouts.cpp - register layouts the user requires -----------===//
//
// tlx.require_layout gives a tensor a register layout, which the tensors
// computed elementwise from it take too. Triton's layout optimizations run
// after the TLX pipeline and choose layouts again: a pinned requirement
// therefore leaves a marker that survives them (an opaque elementwise op
// carrying the layout), and tlx-apply-layout-pins applies the layout again
// once they have run. tlx.release_layout and tlx.assert_same_layout on
// tensors leave markers too: the first bounds a pin, the second is checked
// against the layouts Triton ends with.
//
//===----------------------------------------------------------------------===//

#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Conversion/TLXToTritonGPU/Passes.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"

#include "Utility.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXAPPLYLAYOUTPINS
#define GEN_PASS_DEF_TLXERASELAYOUTASSERTS
#include "tlx/Conversion/TLXToTritonGPU/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;

//===----------------------------------------------------------------------===//
// Register layouts
//===----------------------------------------------------------------------===//

bool mlir::tlx::isRegisterLayout(Attribute layout) {
  return isa_and_nonnull<ttg::BlockedEncodingAttr, ttg::LinearEncodingAttr,
                         ttg::SliceEncodingAttr, ttg::NvidiaMmaEncodingAttr,
                         ttg::DotOperandEncodingAttr>(layout);
}

namespace {

int64_t product(ArrayRef<unsigned> values) {
  int64_t result = 1;
  for (unsigned value : values)
    result *= value;
  return result;
}

/// The threads of a warp and the warps a layout spreads a tensor over, for
/// the layouts that say.
std::optional<std::pair<int64_t, int64_t>>
getThreadsAndWarps(Attribute layout) {
  return llvm::TypeSwitch<Attribute,
                          std::optional<std::pair<int64_t, int64_t>>>(layout)
      .Case<ttg::BlockedEncodingAttr>([](auto blocked) {
        return std::make_pair(product(blocked.getThreadsPerWarp()),
                              product(blocked.getWarpsPerCTA()));
      })
      .Case<ttg::LinearEncodingAttr>([](auto linear) {
        unsigned rank = linear.getRank();
        return std::make_pair(
            int64_t(1) << (linear.getLaneBases().size() / rank),
            int64_t(1) << (linear.getWarpBases().size() / rank));
      })
      .Case<ttg::NvidiaMmaEncodingAttr>([](auto mma) {
        return std::make_pair(int64_t(32), product(mma.getWarpsPerCTA()));
      })
      .Case<ttg::SliceEncodingAttr, ttg::DotOperandEncodingAttr>(
          [](auto derived) { return getThreadsAndWarps(derived.getParent()); })
      .Default([](Attribute) { return std::nullopt; });
}

/// A linear layout names the element each register, lane and warp holds: its
/// bases must reach exactly the elements of `shape`.
bool linearLayoutFits(ttg::LinearEncodingAttr linear, ArrayRef<int64_t> shape) {
  unsigned rank = linear.getRank();
  SmallVector<int64_t> reach(rank, 1);
  for (ArrayRef<int32_t> bases :
       {linear.getRegisterBases(), linear.getLaneBases(), linear.getWarpBases(),
        linear.getBlockBases()})
    for (size_t i = 0; i < bases.size(); ++i) {
      int64_t coordinate = bases[i];
      if (coordinate < 0)
        return false;
      reach[i % rank] = std::max<int64_t>(reach[i % rank], coordinate + 1);
    }
  for (unsigned dim = 0; dim < rank; ++dim)
    if (llvm::PowerOf2Ceil(reach[dim]) != uint64_t(shape[dim]))
      return false;
  return true;
}

} // namespace

LogicalResult mlir::tlx::verifyRegisterLayout(Operation *op, Attribute layout,
                                              RankedTensorType type) {
  if (!isRegisterLayout(layout))
    return op->emitOpError("layout ")
           << layout
           << " is not a register layout (#ttg.blocked, #ttg.linear, "
              "#ttg.slice, #ttg.nvidia_mma or #ttg.dot_op)";
  if (ttg::getEncodingRank(layout) != type.getRank())
    return op->emitOpError("layout ")
           << layout << " has rank " << ttg::getEncodingRank(layout)
           << " but the tensor has rank " << type.getRank();
  unsigned numWarps = lookupNumWarps(op);
  if (auto spread = getThreadsAndWarps(layout);
      spread && (spread->first != 32 || spread->second != numWarps))
    return op->emitOpError("layout ")
           << layout << " spreads a tensor over " << spread->second
           << " warps of " << spread->first << " threads; this code runs on "
           << numWarps << " warps of 32 threads";
  auto linear = dyn_cast<ttg::LinearEncodingAttr>(layout);
  if (linear && !linearLayoutFits(linear, type.getShape()))
    return op->emitOpError("layout ")
           << layout << " does not lay out a tensor of shape ["
           << type.getShape() << "]: its bases must reach each element";
  return success();
}

//===----------------------------------------------------------------------===//
// Markers (Utility.h)
//===----------------------------------------------------------------------===//
//
// A pin carries its layout in `tlx.layout`; an assertion its number, its side
// and where the user wrote it.

namespace {

constexpr StringLiteral kLayoutAttr = "tlx.layout";
constexpr StringLiteral kAssertAttr = "tlx.assert_same_layout";
constexpr StringLiteral kWhereAttr = "tlx.where";
constexpr StringLiteral kPin = "pin";
constexpr StringLiteral kRelease = "release";
constexpr StringLiteral kAssert = "assert";

/// `file:line:col` of the user's line, which the Python check reports at.
std::string describeLocation(Location loc) {
  std::string text;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      text = (file.getFilename().str() + ":" + std::to_string(file.getLine()) +
              ":" + std::to_string(file.getColumn()));
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text;
}

/// `value` as `type`: itself, the source of the conversion it comes from, a
/// splat constant made again, or a new ttg.convert_layout after its
/// definition (one per value and type).
class Converter {
public:
  Value get(Value value, RankedTensorType type) {
    if (value.getType() == type)
      return value;
    if (auto convert = value.getDefiningOp<ttg::ConvertLayoutOp>())
      return get(convert.getSrc(), type);
    auto [it, inserted] = made.try_emplace({value, type}, Value());
    if (!inserted)
      return it->second;
    OpBuilder builder(value.getContext());
    builder.setInsertionPointAfterValue(value);
    DenseElementsAttr splat;
    if (matchPattern(value, m_Constant(&splat)) && splat.isSplat())
      it->second = arith::ConstantOp::create(
          builder, value.getLoc(), type,
          DenseElementsAttr::get(type, splat.getSplatValue<Attribute>()));
    else
      it->second =
          ttg::ConvertLayoutOp::create(builder, value.getLoc(), type, value);
    return it->second;
  }

private:
  DenseMap<std::pair<Value, Type>, Value> made;
};

/// Whether `op` computes each element of its results from the elements at
/// the same place of its tensor operands, all of `shape`: then its results
/// may take any layout its operands have. Pins and releases end a layout;
/// inline assembly over packs of elements depends on its layout.
bool isLayoutTransparent(Operation *op, ArrayRef<int64_t> shape) {
  if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumRegions() != 0 ||
      op->getNumResults() == 0)
    return false;
  StringRef marker = getMarkerKind(op);
  if (marker == kPin || marker == kRelease)
    return false;
  if (auto asm_ = dyn_cast<triton::ElementwiseInlineAsmOp>(op);
      asm_ && asm_.getPackedElement() != 1)
    return false;
  auto fits = [&](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return !tensor || tensor.getShape() == shape;
  };
  return llvm::all_of(op->getResultTypes(),
                      [](Type type) { return isa<RankedTensorType>(type); }) &&
         llvm::all_of(op->getResultTypes(), fits) &&
         llvm::all_of(op->getOperandTypes(), fits);
}

} // namespace

void mlir::tlx::propagateRegisterLayout(Value root, Type rootOldType) {
  auto rootType = cast<RankedTensorType>(root.getType());
  Attribute layout = rootType.getEncoding();
  ArrayRef<int64_t> shape = rootType.getShape();
  // The values that take the layout: the root and, through ops that compute
  // elementwise and through the values a loop carries, what is computed from
  // it.
  SetVector<Value> taking;
  SetVector<Operation *> retyped;
  SetVector<std::pair<scf::ForOp, unsigned>> carried;
  DenseMap<Value, Type> oldTypes{{root, rootOldType}};
  taking.insert(root);
  auto take = [&](Value value) {
    if (taking.insert(value))
      oldTypes[value] = value.getType();
  };
  auto carry = [&](scf::ForOp loop, unsigned index) {
    if (carried.insert({loop, index})) {
      take(loop.getRegionIterArg(index));
      take(loop.getResult(index));
    }
  };
  for (size_t i = 0; i < taking.size(); ++i)
    for (OpOperand &use : taking[i].getUses()) {
      Operation *user = use.getOwner();
      if (isLayoutTransparent(user, shape)) {
        if (retyped.insert(user))
          for (Value result : user->getResults())
            take(result);
      } else if (auto loop = dyn_cast_or_null<scf::ForOp>(user->getParentOp());
                 loop && isa<scf::YieldOp>(user)) {
        carry(loop, use.getOperandNumber());
      } else if (auto loop = dyn_cast<scf::ForOp>(user);
                 loop &&
                 use.getOperandNumber() >= loop.getNumControlOperands()) {
        carry(loop, use.getOperandNumber() - loop.getNumControlOperands());
      }
    }
  for (Value value : taking)
    if (value != root)
      value.setType(
          cast<RankedTensorType>(value.getType()).cloneWithEncoding(layout));
  Converter converter;
  SetVector<Operation *> replacedConstants;
  auto toLayout = [&](OpOperand &operand) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type || taking.contains(operand.get()))
      return;
    if (auto constant = operand.get().getDefiningOp<arith::ConstantOp>())
      replacedConstants.insert(constant);
    operand.set(converter.get(operand.get(), type.cloneWithEncoding(layout)));
  };
  // The other tensor operands of what takes the layout are converted to it
  // (a constant made again in it, the old one erased once unused): those of
  // the elementwise ops, a carried value's initial and yielded values...
  DenseSet<OpOperand *> kept;
  for (Operation *op : retyped)
    for (OpOperand &operand : op->getOpOperands())
      toLayout(operand);
  for (auto [loop, index] : carried) {
    OpOperand &init = loop.getInitArgsMutable()[index];
    OpOperand &yielded = loop.getBody()->getTerminator()->getOpOperand(index);
    toLayout(init);
    toLayout(yielded);
    kept.insert(&init);
    kept.insert(&yielded);
  }
  // ...and every other user gets the layout it had.
  for (Value value : taking) {
    auto oldType = cast<RankedTensorType>(oldTypes[value]);
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : value.getUses())
      if (!retyped.contains(use.getOwner()) && !kept.contains(&use))
        uses.push_back(&use);
    for (OpOperand *use : uses)
      use->set(converter.get(value, oldType));
  }
  for (Operation *constant : replacedConstants)
    if (constant->use_empty())
      constant->erase();
}

//===----------------------------------------------------------------------===//
// Lowering: before Triton's layout optimizations
//===----------------------------------------------------------------------===//

LogicalResult mlir::tlx::lowerLayoutRequirements(ModuleOp module) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<RequireLayoutOp, ReleaseLayoutOp>(op))
      ops.push_back(op);
    else if (auto check = dyn_cast<AssertSameLayoutOp>(op);
             check && isa<RankedTensorType>(check.getLhs().getType()))
      ops.push_back(op);
  });
  bool failed = false;
  int64_t assertion = 0;
  for (Operation *op : ops) {
    OpBuilder builder(op);
    Location loc = op->getLoc();
    if (auto require = dyn_cast<RequireLayoutOp>(op)) {
      RankedTensorType type = require.getSrc().getType();
      if (mlir::failed(verifyRegisterLayout(op, require.getLayout(), type))) {
        failed = true;
        continue;
      }
      // A pin's marker holds the layout through Triton's optimizations;
      // without one, they may choose another.
      Value root = ttg::ConvertLayoutOp::create(
          builder, loc, type.cloneWithEncoding(require.getLayout()),
          require.getSrc());
      if (require.getPin())
        root = createMarker(
            builder, loc, root, kPin,
            {builder.getNamedAttr(kLayoutAttr, require.getLayout())});
      require.getResult().replaceAllUsesWith(root);
      require.erase();
      propagateRegisterLayout(root, type);
    } else if (auto release = dyn_cast<ReleaseLayoutOp>(op)) {
      release.getResult().replaceAllUsesWith(
          createMarker(builder, loc, release.getSrc(), kRelease));
      release.erase();
    } else {
      auto check = cast<AssertSameLayoutOp>(op);
      auto where = builder.getNamedAttr(
          kWhereAttr, builder.getStringAttr(describeLocation(loc)));
      std::string id = std::to_string(assertion++);
      auto side = [&](StringRef name) {
        return builder.getNamedAttr(
            kAssertAttr, builder.getStringAttr(id + " " + name.str()));
      };
      if (Attribute expected = check.getExpectedAttr()) {
        if (mlir::failed(verifyRegisterLayout(
                op, expected,
                cast<RankedTensorType>(check.getLhs().getType())))) {
          failed = true;
          continue;
        }
        createMarker(
            builder, loc, check.getLhs(), kAssert,
            {side("lhs"), where, builder.getNamedAttr(kLayoutAttr, expected)});
      } else {
        createMarker(builder, loc, check.getLhs(), kAssert,
                     {side("lhs"), where});
        createMarker(builder, loc, check.getRhs(), kAssert,
                     {side("rhs"), where});
      }
      check.erase();
    }
  }
  return success(!failed);
}

//===----------------------------------------------------------------------===//
// After Triton's layout optimizations
//===----------------------------------------------------------------------===//

namespace {

struct ApplyLayoutPinsPass
    : tlx::impl::TLXApplyLayoutPinsBase<ApplyLayoutPinsPass> {
  void runOnOperation() override {
    SmallVector<triton::ElementwiseInlineAsmOp> pins, releases, expectations;
    getOperation().walk([&](triton::ElementwiseInlineAsmOp op) {
      StringRef kind = getMarkerKind(op);
      if (kind == kPin)
        pins.push_back(op);
      else if (kind == kRelease)
        releases.push_back(op);
      else if (kind == kAssert && op->hasAttr(kLayoutAttr))
        expectations.push_back(op);
    });
    for (triton::ElementwiseInlineAsmOp pin : pins) {
      auto layout = pin->getAttr(kLayoutAttr);
      Value source = pin.getArgs().front(), result = pin->getResult(0);
      auto oldType = cast<RankedTensorType>(result.getType());
      // A conversion of its own, even where the source already has the
      // layout: only the pin's users take part.
      OpBuilder builder(pin);
      Value root = ttg::ConvertLayoutOp::create(
          builder, pin.getLoc(), oldType.cloneWithEncoding(layout), source);
      result.replaceAllUsesWith(root);
      pin.erase();
      propagateRegisterLayout(root, oldType);
      if (root.getType() == source.getType()) {
        Operation *convert = root.getDefiningOp();
        root.replaceAllUsesWith(source);
        convert->erase();
      }
    }
    Converter converter;
    for (triton::ElementwiseInlineAsmOp release : releases) {
      Value result = release->getResult(0);
      result.replaceAllUsesWith(converter.get(
          release.getArgs().front(), cast<RankedTensorType>(result.getType())));
      release.erase();
    }
    // An expected layout becomes the other side of its assertion: the value
    // converted to it, which the check compares with.
    for (triton::ElementwiseInlineAsmOp lhs : expectations) {
      OpBuilder builder(lhs);
      Value value = lhs.getArgs().front();
      auto type = cast<RankedTensorType>(value.getType())
                      .cloneWithEncoding(lhs->getAttr(kLayoutAttr));
      Value expected =
          ttg::ConvertLayoutOp::create(builder, lhs.getLoc(), type, value);
      StringRef id = lhs->getAttrOfType<StringAttr>(kAssertAttr)
                         .getValue()
                         .split(' ')
                         .first;
      createMarker(
          builder, lhs.getLoc(), expected, kAssert,
          {builder.getNamedAttr(kAssertAttr,
                                builder.getStringAttr(id + " rhs")),
           builder.getNamedAttr(kWhereAttr, lhs->getAttr(kWhereAttr))});
      lhs->removeAttr(kLayoutAttr);
    }
  }
};

struct EraseLayoutAssertsPass
    : tlx::impl::TLXEraseLayoutAssertsBase<EraseLayoutAssertsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> asserts;
    getOperation().walk([&](Operation *op) {
      if (getMarkerKind(op) == kAssert)
        asserts.push_back(op);
    });
    // The conversions that served the check alone (to an expected or a
    // pinned layout) go with the markers; the user's own ops stay.
    SmallVector<Operation *> dead;
    for (Operation *op : asserts) {
      if (auto convert =
              op->getOperand(0).getDefiningOp<ttg::ConvertLayoutOp>())
        dead.push_back(convert);
      op->erase();
    }
    DenseSet<Operation *> erased;
    while (!dead.empty()) {
      Operation *op = dead.pop_back_val();
      if (erased.contains(op) || !op->use_empty())
        continue;
      erased.insert(op);
      if (auto convert =
              op->getOperand(0).getDefiningOp<ttg::ConvertLayoutOp>())
        dead.push_back(convert);
      op->erase();
    }
  }
};

} // namespace

std::optional<int64_t> mlir::tlx::getLayoutWarps(Attribute layout) {
  if (auto spread = getThreadsAndWarps(layout))
    return spread->second;
  return std::nullopt;
}

namespace {

/// `warps` (a product of powers of two) scaled to `numWarps`: halved along
/// the slowest-varying dimension holding the most warps, or doubled along the
/// slowest-varying dimension.
SmallVector<unsigned> scaleWarps(ArrayRef<unsigned> warps,
                                 ArrayRef<unsigned> order, unsigned numWarps) {
  SmallVector<unsigned> result(warps);
  while (product(result) > numWarps) {
    unsigned widest = order.back();
    for (unsigned dim : llvm::reverse(order))
      if (result[dim] > result[widest])
        widest = dim;
    result[widest] /= 2;
  }
  while (product(result) < numWarps)
    result[order.back()] *= 2;
  return result;
}

} // namespace

FailureOr<Attribute> mlir::tlx::fitLayoutToWarps(Attribute layout,
                                                 unsigned numWarps) {
  std::optional<int64_t> warps = getLayoutWarps(layout);
  if (!warps || !llvm::isPowerOf2_32(numWarps) || !llvm::isPowerOf2_64(*warps))
    return failure();
  if (*warps == numWarps)
    return layout;
  MLIRContext *context = layout.getContext();
  return llvm::TypeSwitch<Attribute, FailureOr<Attribute>>(layout)
      .Case([&](ttg::BlockedEncodingAttr blocked) -> FailureOr<Attribute> {
        return Attribute(ttg::BlockedEncodingAttr::get(
            context, blocked.getSizePerThread(), blocked.getThreadsPerWarp(),
            scaleWarps(blocked.getWarpsPerCTA(), blocked.getOrder(), numWarps),
            blocked.getOrder(), blocked.getCgaBases()));
      })
      .Case([&](ttg::NvidiaMmaEncodingAttr mma) -> FailureOr<Attribute> {
        // wgmma runs on whole warp groups: 4 warps along M at least.
        if (mma.isHopper() && numWarps % 4 != 0)
          return failure();
        SmallVector<unsigned> order;
        for (unsigned dim = mma.getRank(); dim-- > 0;)
          order.push_back(dim);
        SmallVector<unsigned> scaled =
            scaleWarps(mma.getWarpsPerCTA(), order, numWarps);
        if (mma.isHopper() && scaled[0] % 4 != 0)
          return failure();
        return Attribute(ttg::NvidiaMmaEncodingAttr::get(
            context, mma.getVersionMajor(), mma.getVersionMinor(), scaled,
            mma.getCgaBases(), mma.getInstrShape()));
      })
      .Case([&](ttg::LinearEncodingAttr linear) -> FailureOr<Attribute> {
        unsigned rank = linear.getRank();
        SmallVector<int32_t> registers(linear.getRegisterBases());
        SmallVector<int32_t> warpBases(linear.getWarpBases());
        size_t keep = rank * llvm::Log2_32(numWarps);
        if (warpBases.size() > keep) {
          registers.append(warpBases.begin() + keep, warpBases.end());
          warpBases.resize(keep);
        }
        // More warps than the layout names hold copies (zero bases).
        warpBases.resize(keep, 0);
        return Attribute(ttg::LinearEncodingAttr::get(
            context, rank, registers, linear.getLaneBases(), warpBases,
            linear.getBlockBases()));
      })
      .Case([&](ttg::SliceEncodingAttr slice) -> FailureOr<Attribute> {
        FailureOr<Attribute> parent =
            fitLayoutToWarps(slice.getParent(), numWarps);
        if (failed(parent))
          return failure();
        return Attribute(
            ttg::SliceEncodingAttr::get(context, slice.getDim(), *parent));
      })
      .Case([&](ttg::DotOperandEncodingAttr operand) -> FailureOr<Attribute> {
        FailureOr<Attribute> parent =
            fitLayoutToWarps(operand.getParent(), numWarps);
        if (failed(parent))
          return failure();
        return Attribute(ttg::DotOperandEncodingAttr::get(
            context, operand.getOpIdx(), *parent, operand.getKWidth()));
      })
      .Default([](Attribute) -> FailureOr<Attribute> { return failure(); });
}
