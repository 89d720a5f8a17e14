//===- Utility.cpp - helpers shared by the TLX -> TritonGPU patterns ------===//

#include "Utility.h"
#include "tlx/Dialect/NVGPU/IR/Dialect.h"
#include "tlx/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;

namespace {

/// The tile a view lies in: the trailing dimensions of its allocation (a
/// buffer of a multi-buffered allocation, before any slicing).
ArrayRef<int64_t> getEnclosingTile(ttg::MemDescType view) {
  ArrayRef<int64_t> alloc = view.getAllocShape();
  if (alloc.size() < view.getShape().size())
    return view.getShape();
  return alloc.take_back(view.getShape().size());
}

/// The byte offset of a `ttg.memdesc_subslice` from its source's first byte,
/// laid out as the enclosing tile is, for the layouts where a slice is made
/// of whole pieces of that tile: NVMMA (whole swizzle columns, 8-row groups;
/// each swizzle column of the slice is one contiguous piece) and unswizzled
/// row-major. Failure otherwise.
FailureOr<int64_t> getSubsliceByteOffset(ttg::MemDescSubsliceOp slice) {
  ttg::MemDescType source = slice.getSrc().getType();
  ArrayRef<int32_t> offsets = slice.getOffsets();
  ArrayRef<int64_t> tile = getEnclosingTile(source);
  int64_t elementBits = source.getElementType().getIntOrFloatBitWidth();
  Attribute layout = source.getEncoding();
  if (auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(layout)) {
    int64_t swizzle = nvmma.getSwizzlingByteWidth();
    if (tile.size() != 2 || nvmma.getTransposed() || swizzle == 0)
      return failure();
    int64_t atomColumns = swizzle * 8 / elementBits;
    if (offsets[1] % atomColumns != 0 || offsets[0] % 8 != 0)
      return failure();
    // Swizzle columns follow one another, each as tall as the tile.
    return (offsets[1] / atomColumns) * tile[0] * swizzle +
           offsets[0] * swizzle;
  }
  auto swizzled = dyn_cast<ttg::SwizzledSharedEncodingAttr>(layout);
  if (!swizzled || swizzled.getMaxPhase() != 1)
    return failure();
  // Row-major: order lists dimensions fastest first.
  ArrayRef<unsigned> order = swizzled.getOrder();
  int64_t stride = 1, element = 0;
  for (unsigned dim : order) {
    element += offsets[dim] * stride;
    stride *= tile[dim];
  }
  return element * elementBits / 8;
}

/// Whether a view's bytes are one run of its enclosing tile, laid out as a
/// tile of the view's own shape would be: what a byte-wise copy needs.
bool isContiguousInTile(ttg::MemDescType view) {
  ArrayRef<int64_t> shape = view.getShape(), tile = getEnclosingTile(view);
  if (shape == tile)
    return true;
  Attribute layout = view.getEncoding();
  if (auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(layout)) {
    int64_t swizzle = nvmma.getSwizzlingByteWidth();
    if (shape.size() != 2 || nvmma.getTransposed() || swizzle == 0)
      return false;
    int64_t atomColumns =
        swizzle * 8 / view.getElementType().getIntOrFloatBitWidth();
    // Partial swizzle columns interleave with the rest of each row; several
    // swizzle columns of fewer rows than the tile leave gaps between them.
    if (shape[1] != tile[1] && shape[1] % atomColumns != 0)
      return false;
    return shape[1] <= atomColumns || shape[0] == tile[0];
  }
  auto swizzled = dyn_cast<ttg::SwizzledSharedEncodingAttr>(layout);
  if (!swizzled || swizzled.getMaxPhase() != 1)
    return false;
  // Fastest first: once a dimension is cut short, every slower one is 1.
  bool cut = false;
  for (unsigned dim : swizzled.getOrder()) {
    if (cut && shape[dim] != 1)
      return false;
    cut = cut || shape[dim] != tile[dim];
  }
  return true;
}

/// The address of a view's first byte: its buffer's, plus the offsets of the
/// slices on the way; failure after an error at `user` for slices of layouts
/// getSubsliceByteOffset cannot place.
FailureOr<Value> getFirstByteAddress(OpBuilder &builder, Location loc,
                                     Value memdesc, Operation *user) {
  MLIRContext *context = builder.getContext();
  auto sharedPtr = LLVM::LLVMPointerType::get(context, kSharedAddressSpace);
  if (auto slice = memdesc.getDefiningOp<ttg::MemDescSubsliceOp>()) {
    FailureOr<int64_t> offset = getSubsliceByteOffset(slice);
    if (failed(offset))
      return user->emitOpError(
          "reaches a slice this lowering cannot place in its buffer: slice "
          "whole 128-byte swizzle columns and 8-row groups of a 2-D buffer, "
          "or use a whole buffer");
    FailureOr<Value> base =
        getFirstByteAddress(builder, loc, slice.getSrc(), user);
    if (failed(base))
      return failure();
    Value bytes = LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                           builder.getI32IntegerAttr(*offset));
    return LLVM::GEPOp::create(builder, loc, sharedPtr, builder.getI8Type(),
                               *base, ValueRange{bytes})
        .getResult();
  }
  auto type = cast<ttg::MemDescType>(memdesc.getType());
  SmallVector<Type> fields(1, sharedPtr);
  fields.append(type.getShape().size(), builder.getI32Type());
  auto lowered = LLVM::LLVMStructType::getLiteral(context, fields);
  Value object =
      UnrealizedConversionCastOp::create(builder, loc, lowered, memdesc)
          .getResult(0);
  return LLVM::ExtractValueOp::create(builder, loc, object, 0).getResult();
}

} // namespace

FailureOr<TMABoxes> mlir::tlx::getTMABoxes(ArrayRef<int64_t> shape,
                                           Type elementType, Attribute encoding,
                                           Operation *user) {
  int64_t elementBits = elementType.getIntOrFloatBitWidth();
  int64_t inner = shape.back();
  if (auto nvmma = dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(encoding);
      nvmma && nvmma.getSwizzlingByteWidth() != 0) {
    if (nvmma.getTransposed())
      return user->emitOpError("this TMA form into an MN-major (transposed) "
                               "buffer is not supported");
    inner = nvmma.getSwizzlingByteWidth() * 8 / elementBits;
  }
  if (llvm::any_of(shape, [](int64_t size) { return size > 256; }))
    return user->emitOpError("this TMA form of a block with a dimension over "
                             "256 elements is not supported");
  if (shape.back() % inner != 0)
    return user->emitOpError("TMA copies whole ")
           << inner * elementBits / 8
           << "-byte swizzle columns: the innermost dimension of this block ("
           << shape.back() << " elements) must be a multiple of " << inner;
  int64_t bytes = elementBits / 8 * inner;
  for (int64_t size : shape.drop_back())
    bytes *= size;
  return TMABoxes{shape.back() / inner, inner, bytes};
}

void mlir::tlx::forEachTMABox(OpBuilder &builder, Location loc,
                              const TMABoxes &boxes, ValueRange offsets,
                              Value base,
                              function_ref<void(ArrayRef<Value>, Value)> emit) {
  auto sharedPtr =
      LLVM::LLVMPointerType::get(builder.getContext(), kSharedAddressSpace);
  for (int64_t box = 0; box < boxes.count; ++box) {
    SmallVector<Value> coordinates(llvm::reverse(offsets));
    Value address = base;
    if (box && base) {
      Value bytes = LLVM::ConstantOp::create(
          builder, loc, builder.getI32Type(),
          builder.getI32IntegerAttr(box * boxes.stride));
      address =
          LLVM::GEPOp::create(builder, loc, sharedPtr, builder.getI8Type(),
                              base, ValueRange{bytes});
    }
    if (box)
      coordinates.front() =
          arith::AddIOp::create(builder, loc, coordinates.front(),
                                arith::ConstantIntOp::create(
                                    builder, loc, box * boxes.innerSize, 32));
    emit(coordinates, address);
  }
}

std::string mlir::tlx::getOperandList(unsigned first, unsigned count) {
  std::string list;
  for (unsigned i = 0; i < count; ++i)
    list += (i ? ", $" : "$") + std::to_string(first + i);
  return list;
}

Value mlir::tlx::createL2CachePolicy(OpBuilder &builder, Location loc,
                                     triton::EvictionPolicy evict) {
  StringRef policy;
  if (evict == triton::EvictionPolicy::EVICT_FIRST)
    policy = "evict_first";
  else if (evict == triton::EvictionPolicy::EVICT_LAST)
    policy = "evict_last";
  else
    return Value();
  std::string ptx =
      ("createpolicy.fractional.L2::" + policy + ".b64 $0, 1.0;").str();
  return LLVM::InlineAsmOp::create(
             builder, loc, builder.getI64Type(), ValueRange(), ptx, "=l",
             /*has_side_effects=*/false, /*is_align_stack=*/false,
             LLVM::TailCallKind::None,
             LLVM::AsmDialectAttr::get(builder.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

FailureOr<int32_t> mlir::tlx::getTensorMapSwizzle(Attribute layout) {
  if (auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(layout)) {
    switch (nvmma.getSwizzlingByteWidth()) {
    case 0:
      return 0;
    case 32:
      return 1;
    case 64:
      return 2;
    case 128:
      return 3;
    default:
      return failure();
    }
  }
  auto swizzled = dyn_cast<ttg::SwizzledSharedEncodingAttr>(layout);
  if (swizzled && swizzled.getVec() == 1 && swizzled.getPerPhase() == 1 &&
      swizzled.getMaxPhase() == 1)
    return 0;
  return failure();
}

FailureOr<Value> mlir::tlx::getSharedAddress(OpBuilder &builder, Location loc,
                                             Value memdesc, Operation *user) {
  auto type = cast<ttg::MemDescType>(memdesc.getType());
  if (!isContiguousInTile(type))
    return user->emitOpError(
        "reaches a slice whose bytes are not contiguous in its buffer: "
        "slice whole rows of a buffer wider than one 128-byte swizzle "
        "column, or use a whole buffer");
  return getFirstByteAddress(builder, loc, memdesc, user);
}

FailureOr<std::pair<Value, TMABoxes>>
mlir::tlx::getTMABoxesOf(OpBuilder &builder, Location loc, Value buffer,
                         Operation *user) {
  auto type = cast<ttg::MemDescType>(buffer.getType());
  FailureOr<TMABoxes> boxes = getTMABoxes(
      type.getShape(), type.getElementType(), type.getEncoding(), user);
  if (failed(boxes))
    return failure();
  // A box is one swizzle column of the view; in a slice of fewer rows than
  // its tile the next one starts a whole column of the tile further on.
  ArrayRef<int64_t> shape = type.getShape(), tile = getEnclosingTile(type);
  for (size_t dim = 0; dim + 1 < shape.size(); ++dim)
    boxes->stride = boxes->stride / shape[dim] * tile[dim];
  FailureOr<Value> address = getFirstByteAddress(builder, loc, buffer, user);
  if (failed(address))
    return failure();
  return std::make_pair(*address, *boxes);
}

int64_t mlir::tlx::getByteSize(ttg::MemDescType type) {
  int64_t bytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  for (int64_t size : type.getShape())
    bytes *= size;
  return bytes;
}

FailureOr<SmallVector<Value>> mlir::tlx::getSharedAddresses(OpBuilder &builder,
                                                            Location loc,
                                                            ValueRange memdescs,
                                                            Operation *user) {
  SmallVector<Value> addresses;
  for (Value memdesc : memdescs) {
    FailureOr<Value> address = getSharedAddress(builder, loc, memdesc, user);
    if (failed(address))
      return failure();
    addresses.push_back(*address);
  }
  return addresses;
}

Value mlir::tlx::mapToCTA(OpBuilder &builder, Location loc, Value address,
                          Value rank) {
  auto clusterPtr = LLVM::LLVMPointerType::get(builder.getContext(),
                                               kSharedClusterAddressSpace);
  return NVVM::MapaOp::create(builder, loc, clusterPtr, address, rank);
}

Value mlir::tlx::getDescriptorAddress(OpBuilder &builder, Location loc,
                                      Value desc) {
  auto pointer = LLVM::LLVMPointerType::get(builder.getContext());
  return UnrealizedConversionCastOp::create(builder, loc, pointer, desc)
      .getResult(0);
}

Value mlir::tlx::getIssuerPredicate(OpBuilder &builder, Location loc,
                                    Value pred) {
  Value zero = arith::ConstantIntOp::create(builder, loc, 0, 32);
  Value warp =
      triton::nvgpu::WarpIdOp::create(builder, loc, builder.getI32Type());
  Value lane = NVVM::LaneIdOp::create(builder, loc, builder.getI32Type());
  Value issuer = arith::AndIOp::create(
      builder, loc,
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, warp, zero),
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, lane,
                            zero));
  return pred ? arith::AndIOp::create(builder, loc, issuer, pred).getResult()
              : issuer;
}

bool mlir::tlx::isRowMajorUnswizzled(ttg::MemDescType buffer) {
  auto layout = dyn_cast<ttg::SwizzledSharedEncodingAttr>(buffer.getEncoding());
  return layout && layout.getMaxPhase() == 1 &&
         llvm::equal(layout.getOrder(), llvm::reverse(llvm::seq<unsigned>(
                                            0, buffer.getShape().size())));
}

std::pair<StringRef, StringRef> mlir::tlx::getRegisterClass(int64_t bits) {
  switch (bits) {
  case 16:
    return {"h", "b16"};
  case 32:
    return {"r", "b32"};
  case 64:
    return {"l", "b64"};
  default:
    return {"", ""};
  }
}

Value mlir::tlx::getIndexAlong(OpBuilder &builder, Location loc,
                               RankedTensorType type, int64_t dim) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size();
  Type i32 = builder.getI32Type();
  // A range in the layout with every other dimension sliced away, expanded
  // back. layouts[k]: the layout once dimensions rank-1 .. (k-th other) are
  // gone.
  SmallVector<Attribute> layouts{type.getEncoding()};
  SmallVector<int64_t> sliced;
  for (int64_t other = rank - 1; other >= 0; --other) {
    if (other == dim)
      continue;
    layouts.push_back(ttg::SliceEncodingAttr::get(builder.getContext(), other,
                                                  layouts.back()));
    sliced.push_back(other);
  }
  SmallVector<int64_t> current{shape[dim]};
  Value index = triton::MakeRangeOp::create(
      builder, loc, RankedTensorType::get(current, i32, layouts.back()), 0,
      shape[dim]);
  for (int64_t k = sliced.size() - 1; k >= 0; --k) {
    int64_t axis = sliced[k];
    current.insert(current.begin() + axis, 1);
    index = triton::ExpandDimsOp::create(
        builder, loc, RankedTensorType::get(current, i32, layouts[k]), index,
        axis);
  }
  if (ArrayRef<int64_t>(current) != shape)
    index = triton::BroadcastOp::create(builder, loc, type.clone(i32), index);
  return index;
}

Value mlir::tlx::getElementAddresses(OpBuilder &builder, Location loc,
                                     RankedTensorType type, Value base,
                                     ArrayRef<int64_t> bufferShape,
                                     int64_t elementBytes,
                                     ArrayRef<Value> indices) {
  auto addressType = type.clone(builder.getI32Type());
  auto splat = [&](Value scalar) {
    return triton::SplatOp::create(builder, loc, addressType, scalar);
  };
  Value addresses = splat(base);
  int64_t stride = elementBytes;
  for (int64_t dim = bufferShape.size() - 1; dim >= 0; --dim) {
    Value index = dim < static_cast<int64_t>(indices.size()) && indices[dim]
                      ? indices[dim]
                      : getIndexAlong(builder, loc, type, dim);
    Value scale = splat(arith::ConstantIntOp::create(builder, loc, stride, 32));
    addresses = arith::AddIOp::create(
        builder, loc, addresses,
        arith::MulIOp::create(builder, loc, index, scale));
    stride *= bufferShape[dim];
  }
  return addresses;
}

void mlir::tlx::createBarrierBeforeAsyncCopy(OpBuilder &builder, Location loc) {
  ttg::LocalBarrierOp::create(builder, loc);
}

void mlir::tlx::createPtx(OpBuilder &builder, Location loc, StringRef ptx,
                          StringRef constraints, ValueRange operands) {
  LLVM::InlineAsmOp::create(
      builder, loc, TypeRange(), operands, ptx, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(builder.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}

void mlir::tlx::createMbarrierArrive(OpBuilder &builder, Location loc,
                                     MbarrierSpace space, Value pred,
                                     Value address, int64_t count) {
  bool local = space == MbarrierSpace::CTA;
  std::string arrive = std::string("@$0 mbarrier.arrive.") +
                       (local ? "shared::cta" : "shared::cluster") +
                       ".b64 _, [$1]";
  if (count == 1 && local) {
    createPtx(builder, loc, arrive + ";", "b,r", {pred, address});
    return;
  }
  Value countValue = arith::ConstantIntOp::create(builder, loc, count, 32);
  createPtx(builder, loc, arrive + ", $2;", "b,r,r",
            {pred, address, countValue});
}

StringRef mlir::tlx::getMarkerKind(Operation *op) {
  auto asm_ = dyn_cast<triton::ElementwiseInlineAsmOp>(op);
  auto kind =
      asm_ ? asm_->getAttrOfType<StringAttr>(kLayoutMarkerAttr) : nullptr;
  return kind ? kind.getValue() : StringRef();
}

Value mlir::tlx::createMarker(OpBuilder &builder, Location loc,
                              ValueRange values, StringRef kind,
                              ArrayRef<NamedAttribute> attributes) {
  std::string constraints = "=r";
  for (size_t i = 0; i < values.size(); ++i)
    constraints += ",r";
  auto marker = triton::ElementwiseInlineAsmOp::create(
      builder, loc, TypeRange{values.front().getType()},
      builder.getStringAttr(""), builder.getStringAttr(constraints),
      builder.getBoolAttr(false), builder.getI32IntegerAttr(1), values);
  marker->setAttr(kLayoutMarkerAttr, builder.getStringAttr(kind));
  for (NamedAttribute attribute : attributes)
    marker->setAttr(attribute.getName(), attribute.getValue());
  return marker->getResult(0);
}
