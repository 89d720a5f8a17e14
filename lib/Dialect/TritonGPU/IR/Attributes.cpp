//===- Attributes.cpp - ttg layout encodings ------------------------------===//
//
// Parsers and printers reproduce Triton 3.6's text: dictionary bodies with a
// fixed key order, defaults left out, the CTA layout as `CGALayout = [[..]]`
// only for multi-CTA layouts.
//
//===----------------------------------------------------------------------===//

#include "tlx/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::triton::gpu;

//===----------------------------------------------------------------------===//
// Reading and writing the pieces layouts are made of
//===----------------------------------------------------------------------===//

namespace {

/// Reads the `{...}` dictionary between `<` and `>` of a layout.
ParseResult parseDictionaryBody(AsmParser &parser, DictionaryAttr &dict) {
  Attribute attr;
  if (parser.parseLess() || parser.parseAttribute(attr))
    return failure();
  dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict)
    return parser.emitError(parser.getNameLoc(),
                            "expected a dictionary of layout parameters");
  return success();
}

ParseResult readInteger(AsmParser &parser, NamedAttribute entry,
                        int64_t &value) {
  auto integer = dyn_cast<IntegerAttr>(entry.getValue());
  if (!integer)
    return parser.emitError(parser.getNameLoc(), "expected an integer for '")
           << entry.getName().strref() << "'";
  value = integer.getValue().getSExtValue();
  return success();
}

ParseResult readUnsigned(AsmParser &parser, NamedAttribute entry,
                         unsigned &value) {
  int64_t signedValue;
  if (readInteger(parser, entry, signedValue))
    return failure();
  if (signedValue < 0)
    return parser.emitError(parser.getNameLoc(), "'")
           << entry.getName().strref() << "' must not be negative";
  value = static_cast<unsigned>(signedValue);
  return success();
}

ParseResult readBool(AsmParser &parser, NamedAttribute entry, bool &value) {
  auto boolean = dyn_cast<BoolAttr>(entry.getValue());
  if (!boolean)
    return parser.emitError(parser.getNameLoc(), "expected true or false for '")
           << entry.getName().strref() << "'";
  value = boolean.getValue();
  return success();
}

ParseResult readUnsignedArray(AsmParser &parser, NamedAttribute entry,
                              SmallVectorImpl<unsigned> &values) {
  auto array = dyn_cast<ArrayAttr>(entry.getValue());
  if (!array)
    return parser.emitError(parser.getNameLoc(), "expected an array for '")
           << entry.getName().strref() << "'";
  for (Attribute element : array) {
    auto integer = dyn_cast<IntegerAttr>(element);
    if (!integer || integer.getValue().isNegative())
      return parser.emitError(parser.getNameLoc(),
                              "expected non-negative integers in '")
             << entry.getName().strref() << "'";
    values.push_back(integer.getValue().getZExtValue());
  }
  return success();
}

/// Reads `[[a, b], [c, d]]` into `flat`; every basis must have `rank`
/// entries (`rank` 0 means: take it from the first basis).
template <typename T>
ParseResult readBases(AsmParser &parser, NamedAttribute entry, unsigned &rank,
                      SmallVectorImpl<T> &flat) {
  auto bases = dyn_cast<ArrayAttr>(entry.getValue());
  if (!bases)
    return parser.emitError(parser.getNameLoc(), "expected array value for '")
           << entry.getName().strref() << "'";
  for (Attribute basis : bases) {
    auto vector = dyn_cast<ArrayAttr>(basis);
    if (!vector)
      return parser.emitError(parser.getNameLoc(),
                              "expected arrays of integers in '")
             << entry.getName().strref() << "'";
    if (rank == 0)
      rank = vector.size();
    if (vector.size() != rank)
      return parser.emitError(parser.getNameLoc(), "'")
             << entry.getName().strref()
             << "' entry length does not match rank " << rank;
    for (Attribute element : vector) {
      auto integer = dyn_cast<IntegerAttr>(element);
      if (!integer)
        return parser.emitError(parser.getNameLoc(),
                                "expected arrays of integers in '")
               << entry.getName().strref() << "'";
      flat.push_back(static_cast<T>(integer.getValue().getSExtValue()));
    }
  }
  return success();
}

ParseResult unexpectedKey(AsmParser &parser, NamedAttribute entry) {
  return parser.emitError(parser.getNameLoc(), "unexpected key: ")
         << entry.getName().strref();
}

using KeyReader =
    std::pair<StringRef, function_ref<ParseResult(NamedAttribute)>>;

/// Hands each `key = value` of a layout dictionary to its reader. `CGALayout`
/// is set aside in `cga` (reading it needs the rank the other keys give).
/// Unknown keys are errors unless `ignoreUnknown` (nvidia_mma in Triton 3.6).
/// Readers for readLayoutKeys that store into a variable.
auto intoUnsigned(AsmParser &parser, unsigned &into) {
  return [&parser, &into](NamedAttribute entry) {
    return readUnsigned(parser, entry, into);
  };
}

auto intoUnsignedArray(AsmParser &parser, SmallVector<unsigned> &into) {
  return [&parser, &into](NamedAttribute entry) {
    return readUnsignedArray(parser, entry, into);
  };
}

auto intoBool(AsmParser &parser, bool &into) {
  return [&parser, &into](NamedAttribute entry) {
    return readBool(parser, entry, into);
  };
}

ParseResult readLayoutKeys(AsmParser &parser, DictionaryAttr dict,
                           ArrayRef<KeyReader> readers,
                           std::optional<NamedAttribute> &cga,
                           bool ignoreUnknown = false) {
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().strref();
    if (key == "CGALayout") {
      cga = entry;
      continue;
    }
    const KeyReader *reader =
        llvm::find_if(readers, [&](const KeyReader &candidate) {
          return candidate.first == key;
        });
    if (reader != readers.end()) {
      if (failed(reader->second(entry)))
        return failure();
    } else if (!ignoreUnknown) {
      return unexpectedKey(parser, entry);
    }
  }
  return success();
}

template <typename T> void printArray(AsmPrinter &printer, ArrayRef<T> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

template <typename T>
void printBases(AsmPrinter &printer, ArrayRef<T> flat, unsigned rank) {
  printer << "[";
  for (size_t start = 0; rank && start < flat.size(); start += rank) {
    if (start)
      printer << ", ";
    printArray(printer, flat.slice(start, rank));
  }
  printer << "]";
}

/// `, CGALayout = [[..]]`, only for layouts spread over several CTAs.
void printCGALayout(AsmPrinter &printer, ArrayRef<unsigned> bases,
                    unsigned rank) {
  if (bases.empty())
    return;
  printer << ", CGALayout = ";
  printBases(printer, bases, rank);
}

bool isPermutation(ArrayRef<unsigned> order) {
  SmallVector<unsigned> sorted(order);
  llvm::sort(sorted);
  for (auto [index, value] : llvm::enumerate(sorted))
    if (value != index)
      return false;
  return true;
}

LogicalResult verifyOrder(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<unsigned> order) {
  if (!isPermutation(order))
    return emitError() << "order must be a permutation of 0.." << order.size()
                       << ", got [" << order << "]";
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// #ttg.blocked
//===----------------------------------------------------------------------===//

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  if (parseDictionaryBody(parser, dict))
    return {};
  SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order,
      cgaBases;
  std::optional<NamedAttribute> cga;
  if (readLayoutKeys(
          parser, dict,
          {{"sizePerThread", intoUnsignedArray(parser, sizePerThread)},
           {"threadsPerWarp", intoUnsignedArray(parser, threadsPerWarp)},
           {"warpsPerCTA", intoUnsignedArray(parser, warpsPerCTA)},
           {"order", intoUnsignedArray(parser, order)}},
          cga))
    return {};
  unsigned rank = order.size();
  if (cga && readBases(parser, *cga, rank, cgaBases))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<BlockedEncodingAttr>(parser.getContext(),
                                                sizePerThread, threadsPerWarp,
                                                warpsPerCTA, order, cgaBases);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{sizePerThread = ";
  printArray(printer, getSizePerThread());
  printer << ", threadsPerWarp = ";
  printArray(printer, getThreadsPerWarp());
  printer << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printer << ", order = ";
  printArray(printer, getOrder());
  printCGALayout(printer, getCgaBases(), getRank());
  printer << "}>";
}

LogicalResult BlockedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> threadsPerWarp,
    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order,
    ArrayRef<unsigned> cgaBases) {
  size_t rank = order.size();
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "sizePerThread, threadsPerWarp, warpsPerCTA and "
                          "order must have the same rank";
  for (ArrayRef<unsigned> field : {sizePerThread, threadsPerWarp, warpsPerCTA})
    for (unsigned value : field)
      if (!llvm::isPowerOf2_32(value))
        return emitError() << "blocked layout sizes must be powers of 2, got "
                           << value;
  return verifyOrder(emitError, order);
}

//===----------------------------------------------------------------------===//
// #ttg.slice and #ttg.dot_op
//===----------------------------------------------------------------------===//

static bool isDistributedEncoding(Attribute attr) {
  return isa<BlockedEncodingAttr, SliceEncodingAttr, DotOperandEncodingAttr,
             NvidiaMmaEncodingAttr, LinearEncodingAttr>(attr);
}

/// Why `parent` has no slice along `dim`; nullopt where it has one.
static std::optional<std::string> whyNoSlice(unsigned dim, Attribute parent) {
  if (!parent || !isDistributedEncoding(parent))
    return std::string("expected a distributed encoding trait");
  unsigned rank = getEncodingRank(parent);
  if (rank < 2)
    return std::string("parent layout must have at least rank >= 2");
  if (dim >= rank)
    return ("slice dim " + Twine(dim) +
            " is out of range for a parent of rank " + Twine(rank))
        .str();
  return std::nullopt;
}

LogicalResult
SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned dim, Attribute parent) {
  if (std::optional<std::string> why = whyNoSlice(dim, parent))
    return emitError() << *why;
  return success();
}

LogicalResult
DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned opIdx, Attribute parent,
                               unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "ttg.dot_op opIdx parameter can be 0 or 1, got: "
                       << opIdx;
  if (!parent)
    return emitError() << "ttg.dot_op parent parameter cannot be null";
  if (auto mma = dyn_cast<NvidiaMmaEncodingAttr>(parent)) {
    unsigned version = mma.getVersionMajor();
    if (kWidth != 0 && version != 2 && version != 3)
      return emitError() << "ttg.dot_op kWidth parameter can only be "
                            "non-zero for Ampere or Hopper MMA parent";
    if (kWidth == 0 && (version == 2 || version == 3))
      return emitError() << "ttg.dot_op kWidth parameter is mandatory for "
                            "Ampere or Hopper MMA parent";
    if (version == 3 && opIdx != 0)
      return emitError() << "ttg.dot_op opIdx parameter must be 0 for "
                            "Hopper MMA parent, since Hopper WGMMA only "
                            "allows first operand to be in registers";
    return success();
  }
  if (isa<BlockedEncodingAttr>(parent)) {
    if (kWidth != 0)
      return emitError() << "ttg.dot_op kWidth parameter is not supported "
                            "when the parent is a blocked layout";
    return success();
  }
  return emitError() << "ttg.dot_op unexpected parent layout: " << parent;
}

//===----------------------------------------------------------------------===//
// #ttg.nvidia_mma
//===----------------------------------------------------------------------===//

Attribute NvidiaMmaEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  if (parseDictionaryBody(parser, dict))
    return {};
  unsigned versionMajor = 0, versionMinor = 0;
  SmallVector<unsigned> warpsPerCTA, instrShape, cgaBases;
  std::optional<NamedAttribute> cga;
  // Triton 3.6 ignores other keys here; so do we.
  if (readLayoutKeys(parser, dict,
                     {{"versionMajor", intoUnsigned(parser, versionMajor)},
                      {"versionMinor", intoUnsigned(parser, versionMinor)},
                      {"warpsPerCTA", intoUnsignedArray(parser, warpsPerCTA)},
                      {"instrShape", intoUnsignedArray(parser, instrShape)}},
                     cga, /*ignoreUnknown=*/true))
    return {};
  unsigned rank = warpsPerCTA.size();
  if (cga && readBases(parser, *cga, rank, cgaBases))
    return {};
  if (parser.parseGreater())
    return {};
  return NvidiaMmaEncodingAttr::get(parser.getContext(), versionMajor,
                                    versionMinor, warpsPerCTA, cgaBases,
                                    instrShape);
}

void NvidiaMmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{versionMajor = " << getVersionMajor()
          << ", versionMinor = " << getVersionMinor() << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printCGALayout(printer, getCgaBases(), getRank());
  printer << ", instrShape = ";
  printArray(printer, getInstrShape());
  printer << "}>";
}

//===----------------------------------------------------------------------===//
// #ttg.linear
//===----------------------------------------------------------------------===//

Attribute LinearEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  if (parseDictionaryBody(parser, dict))
    return {};
  static constexpr StringLiteral kDims[] = {"register", "lane", "warp",
                                            "block"};
  unsigned rank = 0;
  SmallVector<int32_t> bases[4];
  // Rank comes from the first non-empty basis, in register..block order.
  for (auto [index, dim] : llvm::enumerate(kDims)) {
    std::optional<NamedAttribute> entry = dict.getNamed(dim);
    if (!entry) {
      parser.emitError(parser.getNameLoc(), "Expected basis of '")
          << dim << "' not found";
      return {};
    }
    if (readBases(parser, *entry, rank, bases[index]))
      return {};
  }
  for (NamedAttribute entry : dict)
    if (!llvm::is_contained(kDims, entry.getName().strref())) {
      (void)unexpectedKey(parser, entry);
      return {};
    }
  if (rank == 0) {
    parser.emitError(parser.getNameLoc(), "Empty Layout not supported");
    return {};
  }
  if (parser.parseGreater())
    return {};
  return LinearEncodingAttr::get(parser.getContext(), rank, bases[0], bases[1],
                                 bases[2], bases[3]);
}

void LinearEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{register = ";
  printBases(printer, getRegisterBases(), getRank());
  printer << ", lane = ";
  printBases(printer, getLaneBases(), getRank());
  printer << ", warp = ";
  printBases(printer, getWarpBases(), getRank());
  printer << ", block = ";
  printBases(printer, getBlockBases(), getRank());
  printer << "}>";
}

//===----------------------------------------------------------------------===//
// #ttg.swizzled_shared
//===----------------------------------------------------------------------===//

Attribute SwizzledSharedEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  if (parseDictionaryBody(parser, dict))
    return {};
  unsigned vec = 0, perPhase = 0, maxPhase = 0;
  SmallVector<unsigned> order, cgaBases;
  std::optional<NamedAttribute> cga;
  if (readLayoutKeys(parser, dict,
                     {{"vec", intoUnsigned(parser, vec)},
                      {"perPhase", intoUnsigned(parser, perPhase)},
                      {"maxPhase", intoUnsigned(parser, maxPhase)},
                      {"order", intoUnsignedArray(parser, order)}},
                     cga))
    return {};
  unsigned rank = order.size();
  if (cga && readBases(parser, *cga, rank, cgaBases))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<SwizzledSharedEncodingAttr>(
      parser.getContext(), vec, perPhase, maxPhase, order, cgaBases);
}

void SwizzledSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase() << ", order = ";
  printArray(printer, getOrder());
  printCGALayout(printer, getCgaBases(), getOrder().size());
  printer << "}>";
}

LogicalResult SwizzledSharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned, unsigned, unsigned,
    ArrayRef<unsigned> order, ArrayRef<unsigned>) {
  return verifyOrder(emitError, order);
}

//===----------------------------------------------------------------------===//
// #ttg.nvmma_shared
//===----------------------------------------------------------------------===//

Attribute NVMMASharedEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  if (parseDictionaryBody(parser, dict))
    return {};
  unsigned swizzlingByteWidth = 0, elementBitWidth = 0, rank = 0;
  bool transposed = false, fp4Padded = false;
  SmallVector<unsigned> cgaBases;
  std::optional<NamedAttribute> cga;
  if (readLayoutKeys(
          parser, dict,
          {{"swizzlingByteWidth", intoUnsigned(parser, swizzlingByteWidth)},
           {"transposed", intoBool(parser, transposed)},
           {"elementBitWidth", intoUnsigned(parser, elementBitWidth)},
           {"fp4Padded", intoBool(parser, fp4Padded)},
           {"rank", intoUnsigned(parser, rank)}},
          cga))
    return {};
  // Without a `rank` key the rank is that of the CGALayout entries, else 2.
  // (Triton 3.6 assumes 2 even with entries, so it cannot read back its own
  // print of a multi-CTA rank-3 layout; we print the same text but read it.)
  if (cga && readBases(parser, *cga, rank, cgaBases))
    return {};
  if (rank == 0)
    rank = 2;
  if (parser.parseGreater())
    return {};
  return NVMMASharedEncodingAttr::get(parser.getContext(), swizzlingByteWidth,
                                      transposed, elementBitWidth, fp4Padded,
                                      rank, cgaBases);
}

void NVMMASharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{swizzlingByteWidth = " << getSwizzlingByteWidth()
          << ", transposed = " << (getTransposed() ? "true" : "false")
          << ", elementBitWidth = " << getElementBitWidth();
  if (getFp4Padded())
    printer << ", fp4Padded = true";
  // Triton writes the rank only for single-CTA layouts of rank other than
  // 2; a multi-CTA layout carries its rank in the CGALayout entries.
  if (getCgaBases().empty() && getRank() != 2)
    printer << ", rank = " << getRank();
  printCGALayout(printer, getCgaBases(), getRank());
  printer << "}>";
}

//===----------------------------------------------------------------------===//
// #ttg.padded_shared
//===----------------------------------------------------------------------===//

/// The offset bases of the identity layout of `shape`, fastest dim first as
/// `order` gives it; nullopt when a dimension is not a power of 2.
static std::optional<SmallVector<int32_t>>
getIdentityBases(ArrayRef<unsigned> order, ArrayRef<unsigned> shape) {
  SmallVector<int32_t> bases;
  unsigned rank = shape.size();
  for (unsigned dim : order) {
    if (dim >= rank || !llvm::isPowerOf2_32(shape[dim]))
      return std::nullopt;
    for (unsigned stride = 1; stride < shape[dim]; stride *= 2) {
      SmallVector<int32_t> basis(rank, 0);
      basis[dim] = stride;
      bases.append(basis);
    }
  }
  return bases;
}

/// Recovers (order, shape) when `bases` is an identity layout.
static bool matchIdentityBases(ArrayRef<int32_t> bases, unsigned rank,
                               SmallVectorImpl<unsigned> &order,
                               SmallVectorImpl<unsigned> &shape) {
  if (rank == 0)
    return false;
  shape.assign(rank, 1);
  for (size_t start = 0; start < bases.size(); start += rank) {
    ArrayRef<int32_t> basis = bases.slice(start, rank);
    auto nonZero = llvm::find_if(basis, [](int32_t v) { return v != 0; });
    if (nonZero == basis.end())
      return false;
    unsigned dim = nonZero - basis.begin();
    if (static_cast<unsigned>(*nonZero) != shape[dim])
      return false;
    if (shape[dim] == 1) {
      if (llvm::is_contained(order, dim))
        return false;
      order.push_back(dim);
    } else if (order.back() != dim) {
      return false;
    }
    shape[dim] *= 2;
  }
  for (unsigned dim = rank; dim-- > 0;)
    if (!llvm::is_contained(order, dim))
      order.push_back(dim);
  return true;
}

Attribute PaddedSharedEncodingAttr::parse(AsmParser &parser, Type) {
  SmallVector<unsigned> intervals, paddings;
  auto parsePair = [&]() -> ParseResult {
    unsigned interval, padding;
    if (parser.parseInteger(interval) || parser.parseColon() ||
        parser.parsePlus() || parser.parseInteger(padding))
      return failure();
    intervals.push_back(interval);
    paddings.push_back(padding);
    return success();
  };
  Attribute attr;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parsePair) ||
      parser.parseAttribute(attr))
    return {};
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict) {
    parser.emitError(parser.getNameLoc(), "expected a dictionary");
    return {};
  }
  unsigned rank = 0;
  SmallVector<int32_t> offsetBases, blockBases;
  if (dict.get("order") || dict.get("shape")) {
    SmallVector<unsigned> order, shape;
    for (NamedAttribute entry : dict) {
      StringRef key = entry.getName().strref();
      ParseResult result = success();
      if (key == "order")
        result = readUnsignedArray(parser, entry, order);
      else if (key == "shape")
        result = readUnsignedArray(parser, entry, shape);
      else
        result = unexpectedKey(parser, entry);
      if (failed(result))
        return {};
    }
    std::optional<SmallVector<int32_t>> identity =
        order.size() == shape.size() && isPermutation(order)
            ? getIdentityBases(order, shape)
            : std::nullopt;
    if (!identity) {
      parser.emitError(parser.getNameLoc(),
                       "order must be a permutation of the dimensions of a "
                       "power-of-2 shape");
      return {};
    }
    rank = shape.size();
    offsetBases = std::move(*identity);
  } else {
    for (NamedAttribute entry : dict) {
      StringRef key = entry.getName().strref();
      ParseResult result = success();
      if (key == "offset")
        result = readBases(parser, entry, rank, offsetBases);
      else if (key == "block")
        result = readBases(parser, entry, rank, blockBases);
      else
        result = unexpectedKey(parser, entry);
      if (failed(result))
        return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<PaddedSharedEncodingAttr>(
      parser.getContext(), intervals, paddings, rank, offsetBases, blockBases);
}

void PaddedSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(
      llvm::zip(getIntervals(), getPaddings()), printer, [&](auto pair) {
        printer << std::get<0>(pair) << ":+" << std::get<1>(pair);
      });
  printer << "] {";
  SmallVector<unsigned> order, shape;
  if (getBlockBases().empty() &&
      matchIdentityBases(getOffsetBases(), getRank(), order, shape)) {
    printer << "order = ";
    printArray<unsigned>(printer, order);
    printer << ", shape = ";
    printArray<unsigned>(printer, shape);
  } else {
    printer << "offset = ";
    printBases(printer, getOffsetBases(), getRank());
    printer << ", block = ";
    printBases(printer, getBlockBases(), getRank());
  }
  printer << "}>";
}

LogicalResult
PaddedSharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<unsigned> intervals,
                                 ArrayRef<unsigned> paddings, unsigned rank,
                                 ArrayRef<int32_t>, ArrayRef<int32_t>) {
  if (intervals.empty() || intervals.size() != paddings.size())
    return emitError() << "intervals and paddings must be non-empty and of "
                          "the same length";
  for (unsigned value : llvm::concat<const unsigned>(intervals, paddings))
    if (!llvm::isPowerOf2_32(value))
      return emitError() << "intervals and paddings must be powers of 2, got "
                         << value;
  if (rank == 0)
    return emitError() << "padded shared layout needs at least one dimension";
  return success();
}

//===----------------------------------------------------------------------===//
// #ttg.shared_linear
//===----------------------------------------------------------------------===//

Attribute SharedLinearEncodingAttr::parse(AsmParser &parser, Type) {
  DictionaryAttr dict;
  if (parseDictionaryBody(parser, dict))
    return {};
  unsigned rank = 0, alignment = 0;
  SmallVector<int32_t> offsetBases, blockBases;
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().strref();
    ParseResult result = success();
    if (key == "offset")
      result = readBases(parser, entry, rank, offsetBases);
    else if (key == "block")
      result = readBases(parser, entry, rank, blockBases);
    else if (key == "alignment")
      result = parser.emitError(parser.getNameLoc(),
                                "alignment must be specified outside of the "
                                "linear layout braces");
    else
      result = unexpectedKey(parser, entry);
    if (failed(result))
      return {};
  }
  if (parser.parseComma() || parser.parseKeyword("alignment") ||
      parser.parseEqual() || parser.parseInteger(alignment) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<SharedLinearEncodingAttr>(
      parser.getContext(), rank, offsetBases, blockBases, alignment);
}

void SharedLinearEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{offset = ";
  printBases(printer, getOffsetBases(), getRank());
  if (!getBlockBases().empty()) {
    printer << ", block = ";
    printBases(printer, getBlockBases(), getRank());
  }
  printer << "}, alignment = " << getAlignment() << ">";
}

LogicalResult
SharedLinearEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 unsigned rank, ArrayRef<int32_t>,
                                 ArrayRef<int32_t>, unsigned alignment) {
  if (!llvm::isPowerOf2_32(alignment))
    return emitError() << "alignment must be a positive power of two, got "
                       << alignment;
  if (rank == 0)
    return emitError() << "shared linear layout needs at least one dimension";
  return success();
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

bool mlir::triton::gpu::isSharedEncoding(Attribute encoding) {
  return isa_and_nonnull<SwizzledSharedEncodingAttr, NVMMASharedEncodingAttr,
                         PaddedSharedEncodingAttr, SharedLinearEncodingAttr>(
      encoding);
}

unsigned mlir::triton::gpu::getEncodingRank(Attribute encoding) {
  return llvm::TypeSwitch<Attribute, unsigned>(encoding)
      .Case<BlockedEncodingAttr>([](auto attr) { return attr.getRank(); })
      .Case<SliceEncodingAttr>([](auto attr) {
        unsigned parent = getEncodingRank(attr.getParent());
        return parent ? parent - 1 : 0;
      })
      .Case<DotOperandEncodingAttr>(
          [](auto attr) { return getEncodingRank(attr.getParent()); })
      .Case<NvidiaMmaEncodingAttr>([](auto attr) { return attr.getRank(); })
      .Case<LinearEncodingAttr, PaddedSharedEncodingAttr,
            SharedLinearEncodingAttr, NVMMASharedEncodingAttr>(
          [](auto attr) { return attr.getRank(); })
      .Case<SwizzledSharedEncodingAttr>(
          [](auto attr) { return attr.getOrder().size(); })
      .Default([](Attribute) { return 0u; });
}

//===----------------------------------------------------------------------===//
// Layout choices and relations
//===----------------------------------------------------------------------===//

BlockedEncodingAttr mlir::triton::gpu::getDefaultBlockedEncoding(
    MLIRContext *context, ArrayRef<int64_t> shape, unsigned numWarps,
    unsigned threadsPerWarp) {
  unsigned rank = shape.size();
  SmallVector<unsigned> sizePerThread(rank, 1), order, lanes(rank, 1),
      warps(rank, 1);
  for (unsigned dim = rank; dim-- > 0;)
    order.push_back(dim);
  unsigned remainingLanes = threadsPerWarp;
  unsigned remainingWarps = numWarps;
  unsigned remainingThreads = numWarps * threadsPerWarp;
  unsigned usedLanes = 1, usedWarps = 1;
  // Fastest dimension first; the slowest takes whatever is left.
  for (unsigned index = 0; index + 1 < rank; ++index) {
    unsigned dim = order[index];
    unsigned extent = std::max<int64_t>(1, shape[dim] / sizePerThread[dim]);
    unsigned threads = std::clamp<unsigned>(remainingThreads, 1, extent);
    lanes[dim] = std::clamp<unsigned>(threads, 1, remainingLanes);
    warps[dim] = std::clamp<unsigned>(threads / lanes[dim], 1, remainingWarps);
    remainingWarps /= warps[dim];
    remainingLanes /= lanes[dim];
    remainingThreads /= threads;
    usedLanes *= lanes[dim];
    usedWarps *= warps[dim];
  }
  lanes[order.back()] = threadsPerWarp / usedLanes;
  warps[order.back()] = numWarps / usedWarps;
  return BlockedEncodingAttr::get(context, sizePerThread, lanes, warps, order,
                                  /*cgaBases=*/{});
}

NVMMASharedEncodingAttr mlir::triton::gpu::getDefaultNVMMASharedEncoding(
    MLIRContext *context, ArrayRef<int64_t> shape, unsigned elementBitWidth,
    bool transposed, bool fp4Padded) {
  SmallVector<int64_t> logical(shape);
  if (transposed && !logical.empty())
    std::rotate(logical.begin(), logical.begin() + 1, logical.end());
  int64_t packing = fp4Padded ? 2 : 1;
  int64_t contiguousBytes =
      logical.empty() ? 0 : logical.back() * packing * elementBitWidth / 8;
  unsigned swizzle = 0;
  for (unsigned candidate : {128u, 64u, 32u})
    if (contiguousBytes >= candidate && contiguousBytes % candidate == 0) {
      swizzle = candidate;
      break;
    }
  int64_t outerRows = 1;
  for (int64_t size : ArrayRef<int64_t>(logical).drop_back())
    outerRows *= size;
  // A swizzle repeats every 8 rows: fewer rows leave nothing to swizzle.
  if (shape.size() < 2 || outerRows < 8)
    swizzle = 0;
  return NVMMASharedEncodingAttr::get(context, swizzle, transposed,
                                      elementBitWidth, fp4Padded, shape.size(),
                                      /*cgaBases=*/{});
}

FailureOr<Attribute>
mlir::triton::gpu::inferExpandDimsEncoding(Attribute encoding, unsigned axis) {
  auto slice = dyn_cast_or_null<SliceEncodingAttr>(encoding);
  if (!slice || slice.getDim() != axis)
    return failure();
  return slice.getParent();
}

SliceEncodingAttr mlir::triton::gpu::inferReduceEncoding(Attribute encoding,
                                                         unsigned axis) {
  if (whyNoSlice(axis, encoding))
    return {};
  return SliceEncodingAttr::get(encoding.getContext(), axis, encoding);
}

#include "tlx/Dialect/TritonGPU/IR/AttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tlx/Dialect/TritonGPU/IR/Attributes.cpp.inc"

void TritonGPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tlx/Dialect/TritonGPU/IR/Attributes.cpp.inc"
      >();
}
