//===- RaiseCarriers.cpp - carriers of tlx.* ops -> TLX dialect -----------===//
//
// A carrier names its TLX op and carries the op's operands in ODS order and
// its attributes under their ODS names (docs/carriers.md). The raise is
// generic: the op contract table (OpContracts.h, generated from TLXOps.td)
// says how to read any carrier; the op's own verifier judges the result.
// Only what the IR truly needs is special: regions (async tasks) and linked
// operands (an operand of another shape than the carrier's tensors).
//
//===----------------------------------------------------------------------===//

#include "tlx/Dialect/TLX/IR/OpContracts.h"
#include "tlx/Dialect/TLX/Transforms/Passes.h"

#include "tlx/Dialect/Triton/IR/Dialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXRAISECARRIERS
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// Carrier attributes that are not ODS attributes (docs/carriers.md).
constexpr StringLiteral kOpAttr = "tlx.op";
constexpr StringLiteral kTypeAttr = "tlx.type";
constexpr StringLiteral kSegmentsAttr = "tlx.operand_segments";
constexpr StringLiteral kLinkAttr = "tlx.link";
constexpr StringLiteral kLinkedPrefix = "tlx.linked_";
/// The carrier of an operand linked to the op that follows it.
constexpr StringLiteral kLinkedOperandOp = "linked_operand";

bool isMetadata(StringRef name) {
  return name == kOpAttr || name == kTypeAttr || name == kSegmentsAttr ||
         name == kLinkAttr || name.starts_with(kLinkedPrefix);
}

/// The op name a carrier carries, or "" for an op that is no carrier.
StringRef getCarriedName(Operation *op) {
  if (!isa<triton::CallOp, triton::ElementwiseInlineAsmOp>(op))
    return "";
  auto name = op->getAttrOfType<StringAttr>(kOpAttr);
  return name ? name.getValue() : "";
}

ValueRange getCarriedValues(Operation *carrier) {
  if (auto asmOp = dyn_cast<triton::ElementwiseInlineAsmOp>(carrier))
    return asmOp.getArgs();
  return carrier->getOperands();
}

/// More integers than any TLX op's list holds (shapes, operand counts): a
/// splat `dense<0> : tensor<4294967297xi32>` is a few bytes of text.
constexpr int64_t kMaxCarriedIntegers = 1 << 16;

/// Integers of a carrier's list attribute: dense<[...]> (what the frontend
/// writes), array<i32: ...> or [..]; nullopt for anything else.
std::optional<SmallVector<int32_t>> getIntegers(Attribute attr) {
  SmallVector<int32_t> values;
  auto fits = [](int64_t value) { return llvm::isInt<32>(value); };
  if (auto dense = dyn_cast_or_null<DenseIntElementsAttr>(attr)) {
    if (dense.getNumElements() > kMaxCarriedIntegers)
      return std::nullopt;
    for (const APInt &value : dense.getValues<APInt>()) {
      if (value.getBitWidth() > 64 || !fits(value.getSExtValue()))
        return std::nullopt;
      values.push_back(value.getSExtValue());
    }
    return values;
  }
  if (auto array = dyn_cast_or_null<DenseI32ArrayAttr>(attr))
    return llvm::to_vector(array.asArrayRef());
  if (auto array = dyn_cast_or_null<ArrayAttr>(attr)) {
    for (Attribute element : array) {
      auto integer = dyn_cast<IntegerAttr>(element);
      if (!integer || !fits(integer.getValue().getSExtValue()))
        return std::nullopt;
      values.push_back(integer.getInt());
    }
    return values;
  }
  return std::nullopt;
}

/// `text` parsed as a type or attribute by `parse`; on failure the parser's
/// own message (it has no location in the kernel) goes into `why`.
template <typename T, typename ParseFn>
T parseCarriedText(StringRef text, MLIRContext *context, ParseFn parse,
                   std::string &why) {
  // The parser reads past an empty buffer's end: never hand it one.
  if (text.trim().empty()) {
    why = "it is empty";
    return T();
  }
  ScopedDiagnosticHandler capture(context, [&](Diagnostic &diagnostic) {
    why = diagnostic.str();
    return success();
  });
  return parse(text, context);
}

class Raiser {
public:
  explicit Raiser(ModuleOp module) : module(module), builder(module) {}

  LogicalResult run();

private:
  InFlightDiagnostic malformed(Operation *carrier) {
    return carrier->emitError("malformed TLX carrier for tlx.")
           << getCarriedName(carrier) << ": ";
  }

  LogicalResult raiseRegions();
  void splitChosenHandleUses();
  void splitUses(scf::IfOp ifOp, unsigned index);
  void carryLoopViewsByIndex();
  void carryViewByIndex(scf::ForOp loop, unsigned index);
  LogicalResult raiseRegion(Operation *carrier, const OpContract &contract);
  FailureOr<scf::IfOp> getGuardedRegion(Operation *carrier);
  LogicalResult recordLinkedOperand(Operation *carrier);
  LogicalResult raise(Operation *carrier);
  FailureOr<SmallVector<int32_t>> getSegments(Operation *carrier,
                                              const OpContract &contract);
  FailureOr<SmallVector<Value>> raiseOperands(Operation *carrier,
                                              const OpContract &contract,
                                              ArrayRef<int32_t> segments);
  FailureOr<Value> raiseOperand(Operation *carrier,
                                const ValueContract &operand, Value carried);
  FailureOr<Value> unwrapSplat(Operation *carrier, const ValueContract &operand,
                               Value carried);
  FailureOr<Value> getLinkedOperand(Operation *carrier,
                                    const ValueContract &operand);
  LogicalResult raiseAttributes(Operation *carrier, const OpContract &contract,
                                NamedAttrList &attributes);
  FailureOr<Attribute> raiseAttribute(Operation *carrier,
                                      const AttributeContract &contract,
                                      Attribute carried);
  FailureOr<SmallVector<Type>> getResultTypes(Operation *carrier,
                                              const OpContract &contract);
  LogicalResult checkAttributesKept(Operation *carrier, Operation *raised,
                                    const NamedAttrList &attributes);
  void replaceResults(Operation *carrier, Operation *raised,
                      const OpContract &contract);
  LogicalResult checkHandlesStayInTLX();
  bool carriesHandleAcrossRegions(Value carried) const;
  void eraseCarriers();

  ModuleOp module;
  OpBuilder builder;
  /// i64 handle -> the TLX value it stands for.
  DenseMap<Value, Value> handles;
  /// tlx.link of a linked_operand carrier -> the operand it carries.
  DenseMap<int64_t, Value> linkedOperands;
  SmallVector<Operation *> raised;
};

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

/// How many carried values each ODS operand has. Carriers of ops with
/// optional or variadic operands say it (`tlx.operand_segments`); a linked
/// operand counts here but is not among the carried values.
FailureOr<SmallVector<int32_t>>
Raiser::getSegments(Operation *carrier, const OpContract &contract) {
  size_t numOperands = contract.operands.size();
  if (!contract.hasVariableOperands())
    return SmallVector<int32_t>(numOperands, 1);
  std::optional<SmallVector<int32_t>> segments =
      getIntegers(carrier->getAttr(kSegmentsAttr));
  if (!segments || segments->size() != numOperands)
    return malformed(carrier) << "needs " << kSegmentsAttr << " with "
                              << numOperands << " counts, one per operand";
  for (auto [count, operand] : llvm::zip(*segments, contract.operands)) {
    bool valid = operand.arity == Arity::Variadic   ? count >= 0
                 : operand.arity == Arity::Optional ? (count == 0 || count == 1)
                                                    : count == 1;
    if (!valid)
      return malformed(carrier) << "operand `" << operand.name << "` cannot "
                                << "have " << count << " values";
  }
  return *segments;
}

FailureOr<SmallVector<Value>>
Raiser::raiseOperands(Operation *carrier, const OpContract &contract,
                      ArrayRef<int32_t> segments) {
  ValueRange carried = getCarriedValues(carrier);
  SmallVector<Value> operands;
  size_t next = 0;
  for (auto [operand, count] : llvm::zip(contract.operands, segments)) {
    if (carrier->hasAttr((kLinkedPrefix + operand.name).str())) {
      FailureOr<Value> linked = getLinkedOperand(carrier, operand);
      if (failed(linked) || count != 1)
        return failed(linked) ? failure()
                              : malformed(carrier) << "a linked operand is "
                                                      "one value";
      operands.push_back(*linked);
      continue;
    }
    for (int32_t i = 0; i < count; ++i, ++next) {
      if (next >= carried.size())
        return malformed(carrier) << "too few operands for its segments";
      FailureOr<Value> value = raiseOperand(carrier, operand, carried[next]);
      if (failed(value))
        return failure();
      operands.push_back(*value);
    }
  }
  if (next != carried.size())
    return malformed(carrier) << carried.size() << " operands where its "
                              << "segments account for " << next;
  return operands;
}

/// Whether `carried` (an i64, or one splat to a Form B carrier's shape) is a
/// handle that crossed a loop or an if: a loop-carried value that entered the
/// loop as a handle, or an if's result that one of its branches yields as one.
bool Raiser::carriesHandleAcrossRegions(Value carried) const {
  if (auto splat = carried.getDefiningOp<triton::SplatOp>())
    carried = splat.getSrc();
  if (!carried.getType().isInteger(64))
    return false;
  if (auto argument = dyn_cast<BlockArgument>(carried)) {
    auto loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
    unsigned index = argument.getArgNumber();
    return loop && index > 0 && handles.contains(loop.getInitArgs()[index - 1]);
  }
  auto result = dyn_cast<OpResult>(carried);
  auto branch = result ? dyn_cast<scf::IfOp>(result.getOwner()) : nullptr;
  if (!branch)
    return false;
  return llvm::any_of(branch->getRegions(), [&](Region &region) {
    auto yield = region.empty()
                     ? nullptr
                     : dyn_cast<scf::YieldOp>(region.front().getTerminator());
    return yield &&
           handles.contains(yield.getOperand(result.getResultNumber()));
  });
}

FailureOr<Value> Raiser::raiseOperand(Operation *carrier,
                                      const ValueContract &operand,
                                      Value carried) {
  if (Value handle = handles.lookup(carried))
    return handle;
  if (auto splat = carried.getDefiningOp<triton::SplatOp>())
    if (Value handle = handles.lookup(splat.getSrc()))
      return handle;
  if (operand.kinds == kHandle ||
      ((operand.kinds & kHandle) && carriesHandleAcrossRegions(carried))) {
    carrier->emitError("tlx.")
        << getCarriedName(carrier) << " uses a buffer or barrier handle ("
        << "operand `" << operand.name
        << "`) that does not come straight from tlx.local_alloc / "
           "tlx.alloc_barriers / indexing; handles cannot cross loop-carried "
           "values (but for one tlx.local_view of the same buffers, taken "
           "before the loop and again in it) or function arguments, and an "
           "if may choose between "
           "views (tlx.local_view, local_slice, ...) only: select the buffer "
           "where it is used (inside the loop body, in each branch)";
    return failure();
  }
  bool carriedAsTensor = isa<RankedTensorType>(carried.getType());
  if (carriedAsTensor && !(operand.kinds & kTensor))
    return unwrapSplat(carrier, operand, carried);
  return carried;
}

/// Scalars ride a Form B carrier splat to its tensor shape; a constant
/// arrives folded into a splat constant.
FailureOr<Value> Raiser::unwrapSplat(Operation *carrier,
                                     const ValueContract &operand,
                                     Value carried) {
  if (auto splat = carried.getDefiningOp<triton::SplatOp>())
    return splat.getSrc();
  DenseElementsAttr dense;
  if (matchPattern(carried, m_Constant(&dense)) && dense.isSplat()) {
    builder.setInsertionPoint(carrier);
    auto element = dense.getSplatValue<TypedAttr>();
    return arith::ConstantOp::create(builder, carrier->getLoc(), element)
        .getResult();
  }
  return malformed(carrier) << "operand `" << operand.name
                            << "` must be a scalar splat to the carrier's "
                               "shape";
}

FailureOr<Value> Raiser::getLinkedOperand(Operation *carrier,
                                          const ValueContract &operand) {
  std::string name = (kLinkedPrefix + operand.name).str();
  auto link = carrier->getAttrOfType<IntegerAttr>(name);
  Value linked = link ? linkedOperands.lookup(link.getInt()) : Value();
  if (!linked)
    return malformed(carrier)
           << "no " << kLinkedOperandOp << " carrier with " << kLinkAttr
           << " = " << carrier->getAttr(name) << " precedes it";
  return linked;
}

LogicalResult Raiser::recordLinkedOperand(Operation *carrier) {
  auto link = carrier->getAttrOfType<IntegerAttr>(kLinkAttr);
  ValueRange carried = getCarriedValues(carrier);
  if (!link || carried.size() != 1 || carrier->getNumResults() != 1)
    return malformed(carrier) << "expected one operand and " << kLinkAttr;
  if (!carrier->getResult(0).use_empty())
    return malformed(carrier) << "its result must be unused";
  linkedOperands[link.getInt()] = carried.front();
  raised.push_back(carrier);
  return success();
}

//===----------------------------------------------------------------------===//
// Attributes and results
//===----------------------------------------------------------------------===//

LogicalResult Raiser::raiseAttributes(Operation *carrier,
                                      const OpContract &contract,
                                      NamedAttrList &attributes) {
  for (NamedAttribute named : carrier->getAttrs()) {
    StringRef name = named.getName().getValue();
    if (!name.consume_front("tlx.") || isMetadata(named.getName().getValue()))
      continue;
    const AttributeContract *attribute = contract.lookupAttribute(name);
    if (!attribute)
      return malformed(carrier) << "tlx.op `" << contract.name
                                << "` has no attribute `" << name << "`";
    FailureOr<Attribute> value =
        raiseAttribute(carrier, *attribute, named.getValue());
    if (failed(value))
      return failure();
    if (*value)
      attributes.set(attribute->name, *value);
  }
  for (const AttributeContract &attribute : contract.attributes)
    if (!attribute.optional && !attributes.get(attribute.name))
      return malformed(carrier) << "no tlx." << attribute.name << " attribute";
  return success();
}

/// The ODS attribute a carrier attribute encodes; a null attribute for a
/// unit attribute that is not set.
FailureOr<Attribute> Raiser::raiseAttribute(Operation *carrier,
                                            const AttributeContract &contract,
                                            Attribute carried) {
  MLIRContext *context = module.getContext();
  auto fail = [&]() {
    return malformed(carrier) << "tlx." << contract.name << " = " << carried
                              << " does not encode the attribute";
  };
  switch (contract.encoding) {
  case AttributeEncoding::Int: {
    auto integer = dyn_cast<IntegerAttr>(carried);
    if (!integer || !llvm::isInt<32>(integer.getValue().getSExtValue()))
      return fail();
    return Attribute(builder.getI32IntegerAttr(integer.getInt()));
  }
  case AttributeEncoding::Bool:
  case AttributeEncoding::Unit: {
    auto flag = dyn_cast<BoolAttr>(carried);
    if (!flag)
      return fail();
    if (contract.encoding == AttributeEncoding::Bool)
      return Attribute(flag);
    return flag.getValue() ? Attribute(UnitAttr::get(context)) : Attribute();
  }
  case AttributeEncoding::I32Array: {
    std::optional<SmallVector<int32_t>> values = getIntegers(carried);
    if (!values)
      return fail();
    return Attribute(builder.getDenseI32ArrayAttr(*values));
  }
  case AttributeEncoding::Text: {
    auto text = dyn_cast<StringAttr>(carried);
    std::string why = "it is not a string";
    Attribute parsed = text ? parseCarriedText<Attribute>(
                                  text.getValue(), context,
                                  [](StringRef t, MLIRContext *c) {
                                    return parseAttribute(t, c);
                                  },
                                  why)
                            : Attribute();
    if (!parsed)
      return carrier->emitError("invalid ")
             << contract.name << " for tlx." << getCarriedName(carrier) << ": "
             << carried << " (" << why << ")";
    return parsed;
  }
  }
  return fail();
}

/// Results: a TLX handle's type rides as text (`tlx.type`); a tensor's or
/// scalar's is the carrier's own result type.
FailureOr<SmallVector<Type>>
Raiser::getResultTypes(Operation *carrier, const OpContract &contract) {
  SmallVector<Type> types;
  if (contract.results.empty()) {
    // A Form B carrier of an op without results returns a dummy tensor.
    if (llvm::any_of(carrier->getResults(),
                     [](Value result) { return !result.use_empty(); }))
      return malformed(carrier) << "the op has no results, but the "
                                   "carrier's are used";
    return types;
  }
  if (carrier->getNumResults() != contract.results.size())
    return malformed(carrier)
           << "expected " << contract.results.size() << " result(s)";
  // A tensor or scalar result has its own type; an op of several results
  // has scalar ones (clc_query's ids), a handle rides alone with its type.
  if (contract.results.front().kinds != kHandle) {
    for (Value result : carrier->getResults())
      types.push_back(result.getType());
    return types;
  }
  auto text = carrier->getAttrOfType<StringAttr>(kTypeAttr);
  if (!text)
    return malformed(carrier) << "no " << kTypeAttr << " attribute";
  std::string why;
  Type type = parseCarriedText<Type>(
      text.getValue(), module.getContext(),
      [](StringRef t, MLIRContext *c) { return parseType(t, c); }, why);
  // Often the user's own sizes (a buffer type its verifier rejects): say
  // what is wrong with the type, not that the carrier is.
  if (!type)
    return carrier->emitError("tlx.")
           << getCarriedName(carrier) << ": invalid result type '"
           << text.getValue() << "': " << why;
  types.push_back(type);
  return types;
}

/// An attribute value the op cannot hold (an I32 enum out of its cases) is
/// dropped when the op stores it: report it rather than lose it.
LogicalResult Raiser::checkAttributesKept(Operation *carrier, Operation *op,
                                          const NamedAttrList &attributes) {
  for (NamedAttribute named : attributes)
    if (op->getAttr(named.getName()) != named.getValue())
      return malformed(carrier)
             << "tlx." << named.getName().getValue() << " = "
             << named.getValue() << " is not a valid value of the attribute";
  return success();
}

void Raiser::replaceResults(Operation *carrier, Operation *op,
                            const OpContract &contract) {
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    if (contract.results[index].kinds == kHandle)
      handles[carrier->getResult(index)] = result;
    else
      carrier->getResult(index).replaceAllUsesWith(result);
  }
}

//===----------------------------------------------------------------------===//
// One op
//===----------------------------------------------------------------------===//

LogicalResult Raiser::raise(Operation *carrier) {
  StringRef name = getCarriedName(carrier);
  if (name == kLinkedOperandOp)
    return recordLinkedOperand(carrier);
  const OpContract *contract = lookupOpContract(name);
  if (!contract)
    return carrier->emitError("unknown TLX operation tlx.")
           << name << " (this TLX compiler does not implement it)";
  if (contract->numRegions)
    return malformed(carrier) << "a region op outside its region carrier";
  FailureOr<SmallVector<int32_t>> segments = getSegments(carrier, *contract);
  if (failed(segments))
    return failure();
  FailureOr<SmallVector<Value>> operands =
      raiseOperands(carrier, *contract, *segments);
  FailureOr<SmallVector<Type>> types = getResultTypes(carrier, *contract);
  NamedAttrList attributes;
  if (failed(operands) || failed(types) ||
      failed(raiseAttributes(carrier, *contract, attributes)))
    return failure();

  OperationState state(carrier->getLoc(), "tlx." + name.str());
  state.addOperands(*operands);
  state.addTypes(*types);
  state.addAttributes(attributes);
  if (contract->hasOperandSegments)
    state.addAttribute("operandSegmentSizes",
                       builder.getDenseI32ArrayAttr(*segments));
  builder.setInsertionPoint(carrier);
  Operation *op = builder.create(state);
  if (failed(checkAttributesKept(carrier, op, attributes)) ||
      failed(verify(op, /*verifyRecursively=*/false)))
    return failure();
  replaceResults(carrier, op, *contract);
  raised.push_back(carrier);
  return success();
}

//===----------------------------------------------------------------------===//
// Regions: `with tlx.async_tasks()` / `with tlx.async_task(...)`
//===----------------------------------------------------------------------===//

/// The `scf.if` guarded by the carrier's opaque i1; null when canonicalization
/// erased the `scf.if` of an empty body.
/// Stock Triton's canonicalizer merges a region whose body is one `if` with
/// it (`scf.if %region { scf.if %c {...} }` -> `scf.if (%region & %c)`).
/// Where the region's i1 feeds a chain of `arith.andi` (one use each) that is
/// the condition of a result-less `scf.if` without else, the chain and that
/// `if` go back into an `scf.if %region`, with the region's i1 in the chain
/// made true: the nesting before the merge.
static void unmergeNestedIf(Value regionCondition) {
  SmallVector<Operation *> chain;
  Value value = regionCondition;
  while (value.hasOneUse()) {
    Operation *user = *value.getUsers().begin();
    if (auto ifOp = dyn_cast<scf::IfOp>(user)) {
      if (chain.empty() || ifOp.getNumResults() != 0 ||
          !ifOp.getElseRegion().empty())
        return;
      OpBuilder builder(ifOp);
      auto region = scf::IfOp::create(builder, ifOp.getLoc(), regionCondition,
                                      /*withElseRegion=*/false);
      Operation *end = region.thenBlock()->getTerminator();
      builder.setInsertionPoint(end);
      Value isTrue = arith::ConstantIntOp::create(builder, ifOp.getLoc(),
                                                  /*value=*/1, /*width=*/1);
      chain.front()->replaceUsesOfWith(regionCondition, isTrue);
      for (Operation *link : chain)
        link->moveBefore(end);
      ifOp->moveBefore(end);
      return;
    }
    if (!isa<arith::AndIOp>(user))
      return;
    chain.push_back(user);
    value = user->getResult(0);
  }
}

FailureOr<scf::IfOp> Raiser::getGuardedRegion(Operation *carrier) {
  if (carrier->getNumResults() != 1)
    return malformed(carrier) << "a region carrier returns one i1";
  Value condition = carrier->getResult(0);
  if (condition.use_empty())
    return scf::IfOp();
  unmergeNestedIf(condition);
  auto ifOp = condition.hasOneUse()
                  ? dyn_cast<scf::IfOp>(*condition.getUsers().begin())
                  : scf::IfOp();
  if (!ifOp || ifOp.getCondition() != condition || ifOp.getNumResults() != 0 ||
      !ifOp.getElseRegion().empty())
    return malformed(carrier)
           << "expected its i1 to be unused or the condition of a "
              "result-less scf.if without else";
  return ifOp;
}

/// The `scf.if`'s then-block becomes the body of the TLX region op.
LogicalResult Raiser::raiseRegion(Operation *carrier,
                                  const OpContract &contract) {
  FailureOr<scf::IfOp> ifOp = getGuardedRegion(carrier);
  NamedAttrList attributes;
  if (failed(ifOp) || failed(raiseAttributes(carrier, contract, attributes)))
    return failure();
  builder.setInsertionPoint(*ifOp ? ifOp->getOperation() : carrier);
  OperationState state(carrier->getLoc(), "tlx." + contract.name);
  state.addAttributes(attributes);
  state.addRegion();
  Operation *op = builder.create(state);
  if (failed(checkAttributesKept(carrier, op, attributes)))
    return failure();
  Block &body = op->getRegion(0).emplaceBlock();
  if (*ifOp) {
    Block &then = ifOp->getThenRegion().front();
    then.getTerminator()->erase();
    body.getOperations().splice(body.end(), then.getOperations());
    ifOp->erase();
  }
  carrier->erase();
  return success();
}

LogicalResult Raiser::raiseRegions() {
  SmallVector<std::pair<Operation *, const OpContract *>> regions;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    const OpContract *contract = lookupOpContract(getCarriedName(op));
    if (contract && contract->numRegions)
      regions.push_back({op, contract});
  });
  // Outer regions first: moving a body keeps the inner carriers intact.
  for (auto [carrier, contract] : regions)
    if (failed(raiseRegion(carrier, *contract)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Handles chosen at run time: `b = view_a if c else view_b`, then b used
//===----------------------------------------------------------------------===//

/// TLX ops that only name memory another handle names: a copy names the same.
bool isViewCarrier(Operation *op) {
  return llvm::is_contained({"local_view", "local_slice", "local_trans",
                             "local_reinterpret", "local_reshape"},
                            getCarriedName(op));
}

/// Whether what `value` needs from inside `scope` can be built again
/// elsewhere: view carriers and pure ops (not an allocation, not a load).
bool isRebuildable(Value value, Operation *scope) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return !scope->isAncestor(value.getParentBlock()->getParentOp());
  if (!scope->isProperAncestor(def))
    return true;
  return (isViewCarrier(def) || isPure(def)) &&
         llvm::all_of(def->getOperands(), [&](Value operand) {
           return isRebuildable(operand, scope);
         });
}

/// Clones into the builder's block what a rebuildable `value` needs from inside
/// `scope`.
void rebuild(OpBuilder &builder, Value value, Operation *scope,
             IRMapping &mapping) {
  Operation *def = value.getDefiningOp();
  if (mapping.contains(value) || !def || !scope->isProperAncestor(def))
    return;
  for (Value operand : def->getOperands())
    rebuild(builder, operand, scope, mapping);
  builder.clone(*def, mapping);
}

/// Each carrier that uses result `index` of `ifOp` (itself or a splat of it)
/// becomes an `if` on the same condition whose branches rebuild the view each
/// branch chose and run the carrier on it. Where a use or a choice is not of
/// that kind nothing changes (the use is reported when it is raised).
void Raiser::splitUses(scf::IfOp ifOp, unsigned index) {
  Value chosen = ifOp.getResult(index);
  SmallVector<Operation *> users;
  for (Operation *user : chosen.getUsers()) {
    bool viaSplat = isa<triton::SplatOp>(user) &&
                    llvm::all_of(user->getUsers(), [](Operation *u) {
                      return !getCarriedName(u).empty();
                    });
    // A linked operand must stay next to the op it belongs to.
    if ((getCarriedName(user).empty() && !viaSplat) ||
        getCarriedName(user) == kLinkedOperandOp)
      return;
    users.push_back(user);
  }
  Value branches[2] = {ifOp.thenYield()->getOperand(index),
                       ifOp.elseYield()->getOperand(index)};
  for (Value branch : branches) {
    Operation *def = branch.getDefiningOp();
    if (!def || !isViewCarrier(def) || !isRebuildable(branch, ifOp))
      return;
  }
  // The carriers that use the choice, through splats too.
  SetVector<Operation *> carriers;
  for (Operation *user : users) {
    if (isa<triton::SplatOp>(user))
      carriers.insert(user->getUsers().begin(), user->getUsers().end());
    else
      carriers.insert(user);
  }
  for (Operation *carrier : carriers) {
    // A carrier of an op without results has results nobody uses.
    bool used = !carrier->use_empty();
    builder.setInsertionPoint(carrier);
    auto split = scf::IfOp::create(builder, carrier->getLoc(),
                                   used ? TypeRange(carrier->getResultTypes())
                                        : TypeRange(),
                                   ifOp.getCondition(),
                                   /*withElseRegion=*/true);
    for (auto [region, branch] :
         llvm::zip(split->getRegions(), ArrayRef<Value>(branches))) {
      Block *block = region.empty() ? &region.emplaceBlock() : &region.front();
      if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
        block->back().erase();
      builder.setInsertionPointToEnd(block);
      IRMapping mapping;
      rebuild(builder, branch, ifOp, mapping);
      mapping.map(chosen, mapping.lookupOrDefault(branch));
      for (Value operand : getCarriedValues(carrier))
        if (auto splat = operand.getDefiningOp<triton::SplatOp>();
            splat && splat.getSrc() == chosen && !mapping.contains(operand))
          builder.clone(*splat, mapping);
      Operation *copy = builder.clone(*carrier, mapping);
      scf::YieldOp::create(builder, carrier->getLoc(),
                           used ? ValueRange(copy->getResults())
                                : ValueRange());
    }
    if (used)
      carrier->replaceAllUsesWith(split.getResults());
    carrier->erase();
  }
  for (Operation *user : users)
    if (isa<triton::SplatOp>(user) && user->use_empty())
      user->erase();
  // Nothing uses the choice now: the branches' views need not reach the end.
  for (scf::YieldOp yield : {ifOp.thenYield(), ifOp.elseYield()}) {
    builder.setInsertionPoint(yield);
    Value carried = yield->getOperand(index);
    yield->setOperand(index, arith::ConstantOp::create(
                                 builder, yield->getLoc(),
                                 builder.getZeroAttr(carried.getType())));
  }
}

void Raiser::splitChosenHandleUses() {
  SmallVector<std::pair<scf::IfOp, unsigned>> choices;
  module.walk([&](scf::IfOp ifOp) {
    if (ifOp.getElseRegion().empty())
      return;
    for (unsigned index = 0; index < ifOp.getNumResults(); ++index) {
      Operation *def = ifOp.thenYield()->getOperand(index).getDefiningOp();
      if (def && isViewCarrier(def))
        choices.push_back({ifOp, index});
    }
  });
  for (auto [ifOp, index] : choices)
    splitUses(ifOp, index);
}

/// A view a loop carries (`view = tlx.local_view(bufs, i)` before the loop and
/// again in its body, used in the next iteration: the public Blackwell GDPA's
/// `v_view`) is carried as its index: the loop carries `i`, and its body and
/// the code after it take the view again from the same buffers. Each later
/// pass then sees every view come from its allocation. Other carried handles
/// stay, and are reported where they are used.
void Raiser::carryLoopViewsByIndex() {
  SmallVector<scf::ForOp> loops;
  module.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops)
    for (unsigned index = 0; index < loop.getNumRegionIterArgs(); ++index)
      carryViewByIndex(loop, index);
}

void Raiser::carryViewByIndex(scf::ForOp loop, unsigned index) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Operation *before = loop.getInitArgs()[index].getDefiningOp();
  Operation *inside = yield.getOperand(index).getDefiningOp();
  if (!before || !inside || getCarriedName(before) != "local_view" ||
      getCarriedName(inside) != "local_view" ||
      before->getName() != inside->getName() ||
      before->getAttrDictionary() != inside->getAttrDictionary() ||
      before->getNumResults() != 1)
    return;
  ValueRange first = getCarriedValues(before), next = getCarriedValues(inside);
  if (first.size() != 2 || next.size() != 2 || first[0] != next[0] ||
      first[1].getType() != next[1].getType() ||
      loop.getBodyRegion().isAncestor(first[0].getParentRegion()))
    return;
  BlockArgument carried = loop.getRegionIterArg(index);
  Value result = loop.getResult(index);
  SmallVector<OpOperand *> usesInside, usesAfter;
  for (OpOperand &use : carried.getUses())
    usesInside.push_back(&use);
  for (OpOperand &use : result.getUses())
    usesAfter.push_back(&use);
  Value firstIndex = first[1];
  loop.getInitArgsMutable()[index].set(firstIndex);
  yield.setOperand(index, next[1]);
  carried.setType(firstIndex.getType());
  result.setType(firstIndex.getType());
  auto viewAt = [&](Value viewIndex) {
    IRMapping mapping;
    mapping.map(firstIndex, viewIndex);
    return builder.clone(*before, mapping)->getResult(0);
  };
  builder.setInsertionPointToStart(loop.getBody());
  Value viewInside = viewAt(carried);
  for (OpOperand *use : usesInside)
    use->set(viewInside);
  builder.setInsertionPointAfter(loop);
  Value viewAfter = viewAt(result);
  for (OpOperand *use : usesAfter)
    use->set(viewAfter);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Every remaining use of a handle must belong to a raised carrier (or a
/// splat feeding one): anything else means a handle escaped into user code.
LogicalResult Raiser::checkHandlesStayInTLX() {
  DenseSet<Operation *> raisedSet(raised.begin(), raised.end());
  auto isRaised = [&](Operation *user) { return raisedSet.contains(user); };
  for (auto [handleValue, typed] : handles)
    for (Operation *user : handleValue.getUsers()) {
      if (isRaised(user) || (isa<triton::SplatOp>(user) &&
                             llvm::all_of(user->getUsers(), isRaised)))
        continue;
      return user->emitError("a TLX buffer or barrier handle is used by an "
                             "operation that is not a tlx op");
    }
  return success();
}

void Raiser::eraseCarriers() {
  // Users go before what they use. A set: CSE lets carriers share one splat
  // (two dots reading one buffer).
  SetVector<Operation *> splats;
  for (Operation *op : llvm::reverse(raised)) {
    for (Value carried : getCarriedValues(op))
      if (auto splat = carried.getDefiningOp<triton::SplatOp>())
        splats.insert(splat);
    op->dropAllUses();
    op->erase();
  }
  for (Operation *splat : splats)
    if (splat->use_empty())
      splat->erase();

  // The carrier functions are now unused.
  SymbolTable symbols(module);
  for (auto func : llvm::make_early_inc_range(module.getOps<triton::FuncOp>()))
    if (func.getSymName().starts_with("tlx.") && func.isPrivate() &&
        SymbolTable::symbolKnownUseEmpty(func, module))
      symbols.erase(func);
}

LogicalResult Raiser::run() {
  if (failed(raiseRegions()))
    return failure();
  splitChosenHandleUses();
  carryLoopViewsByIndex();
  bool failed = false;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!getCarriedName(op).empty() && mlir::failed(raise(op)))
      failed = true;
  });
  if (failed || mlir::failed(checkHandlesStayInTLX()))
    return failure();
  eraseCarriers();
  return success();
}

struct RaiseCarriersPass : tlx::impl::TLXRaiseCarriersBase<RaiseCarriersPass> {
  void runOnOperation() override {
    if (failed(Raiser(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
