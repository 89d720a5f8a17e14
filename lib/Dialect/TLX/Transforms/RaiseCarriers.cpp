//===- RaiseCarriers.cpp - carriers of tlx.* ops -> TLX dialect -----------===//
//
// The encoding is specified in docs/carriers.md.
//
//===----------------------------------------------------------------------===//

#include "tlx/Dialect/TLX/Transforms/Passes.h"

#include "tlx/Dialect/Triton/IR/Dialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXRAISECARRIERS
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// One carrier: its op name, operands (splat handles already unwrapped) and
/// the `tlx.*` attributes, whatever form carried it.
struct Carrier {
  Operation *op;
  StringRef name;
  SmallVector<Value> operands;
};

class Raiser {
public:
  explicit Raiser(ModuleOp module) : module(module), builder(module) {}

  LogicalResult run();

private:
  LogicalResult raiseRegions();
  LogicalResult raiseRegion(Carrier &carrier);
  std::optional<Carrier> matchCarrier(Operation *op);
  LogicalResult raise(Carrier &carrier);
  FailureOr<Value> handle(Carrier &carrier, unsigned index);
  FailureOr<Type> parseTypeAttr(Carrier &carrier);
  FailureOr<int32_t> intAttr(Carrier &carrier, StringRef name,
                             std::optional<int32_t> fallback = std::nullopt);
  bool boolAttr(Carrier &carrier, StringRef name);
  FailureOr<SmallVector<int32_t>> intsAttr(Carrier &carrier, StringRef name);
  FailureOr<BufferType> resultBufferType(Carrier &carrier);
  InFlightDiagnostic malformed(Carrier &carrier) {
    return carrier.op->emitError("malformed TLX carrier for tlx.")
           << carrier.name << ": ";
  }

  ModuleOp module;
  OpBuilder builder;
  /// i64 handle -> the TLX value it stands for.
  DenseMap<Value, Value> handles;
  /// tlx.link of an async_dot_operand carrier -> its register operand.
  DenseMap<int32_t, Value> linkedOperands;
  SmallVector<Operation *> raised;
};

std::optional<Carrier> Raiser::matchCarrier(Operation *op) {
  auto name = op->getAttrOfType<StringAttr>("tlx.op");
  if (!name)
    return std::nullopt;
  Carrier carrier{op, name.getValue(), {}};
  if (auto call = dyn_cast<triton::CallOp>(op)) {
    llvm::append_range(carrier.operands, call.getOperands());
    return carrier;
  }
  if (auto asmOp = dyn_cast<triton::ElementwiseInlineAsmOp>(op)) {
    // Handles and scalars ride as splats to the carrier's tensor shape.
    for (Value operand : asmOp.getArgs()) {
      if (auto splat = operand.getDefiningOp<triton::SplatOp>())
        if (splat.getSrc().getType().isInteger(64)) {
          carrier.operands.push_back(splat.getSrc());
          continue;
        }
      carrier.operands.push_back(operand);
    }
    return carrier;
  }
  return std::nullopt;
}

FailureOr<Value> Raiser::handle(Carrier &carrier, unsigned index) {
  if (index >= carrier.operands.size()) {
    malformed(carrier) << "missing operand #" << index;
    return failure();
  }
  Value value = carrier.operands[index];
  auto found = handles.find(value);
  if (found != handles.end())
    return found->second;
  carrier.op->emitError("tlx.")
      << carrier.name
      << " uses a buffer or barrier handle that does not come straight from "
         "tlx.local_alloc / tlx.alloc_barriers / indexing; handles cannot "
         "cross loop-carried values, if results or function arguments";
  return failure();
}

FailureOr<Type> Raiser::parseTypeAttr(Carrier &carrier) {
  auto text = carrier.op->getAttrOfType<StringAttr>("tlx.type");
  if (!text) {
    malformed(carrier) << "no tlx.type attribute";
    return failure();
  }
  Type type = parseType(text.getValue(), module.getContext());
  if (!type) {
    malformed(carrier) << "invalid tlx.type '" << text.getValue() << "'";
    return failure();
  }
  return type;
}

FailureOr<int32_t> Raiser::intAttr(Carrier &carrier, StringRef name,
                                   std::optional<int32_t> fallback) {
  auto attr = carrier.op->getAttrOfType<IntegerAttr>(name);
  if (attr)
    return static_cast<int32_t>(attr.getInt());
  if (fallback)
    return *fallback;
  malformed(carrier) << "no " << name << " attribute";
  return failure();
}

bool Raiser::boolAttr(Carrier &carrier, StringRef name) {
  if (auto attr = carrier.op->getAttrOfType<BoolAttr>(name))
    return attr.getValue();
  if (auto attr = carrier.op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt() != 0;
  return false;
}

FailureOr<SmallVector<int32_t>> Raiser::intsAttr(Carrier &carrier,
                                                 StringRef name) {
  Attribute attr = carrier.op->getAttr(name);
  SmallVector<int32_t> values;
  if (auto dense = dyn_cast_or_null<DenseIntElementsAttr>(attr)) {
    for (const APInt &value : dense.getValues<APInt>())
      values.push_back(value.getSExtValue());
    return values;
  }
  if (auto array = dyn_cast_or_null<DenseI32ArrayAttr>(attr))
    return llvm::to_vector(array.asArrayRef());
  if (auto array = dyn_cast_or_null<ArrayAttr>(attr)) {
    for (Attribute element : array) {
      auto integer = dyn_cast<IntegerAttr>(element);
      if (!integer)
        break;
      values.push_back(integer.getInt());
    }
    if (values.size() == array.size())
      return values;
  }
  malformed(carrier) << "no integer array " << name << " attribute";
  return failure();
}

FailureOr<BufferType> Raiser::resultBufferType(Carrier &carrier) {
  FailureOr<Type> type = parseTypeAttr(carrier);
  if (failed(type))
    return failure();
  auto buffer = dyn_cast<BufferType>(*type);
  if (!buffer) {
    malformed(carrier) << "tlx.type must be a !tlx.buffer type";
    return failure();
  }
  return buffer;
}

LogicalResult Raiser::raise(Carrier &carrier) {
  Operation *op = carrier.op;
  Location loc = op->getLoc();
  builder.setInsertionPoint(op);
  StringRef name = carrier.name;
  auto i32Attr = [&](int32_t value) {
    return builder.getI32IntegerAttr(value);
  };
  auto mapHandleResult = [&](Value typed) {
    handles[op->getResult(0)] = typed;
  };
  // Optional trailing `i1` predicate: present when the carrier says so.
  auto optionalPred = [&](unsigned index, bool present) -> Value {
    return present && index < carrier.operands.size() ? carrier.operands[index]
                                                      : Value();
  };

  if (name == "local_alloc") {
    FailureOr<Type> type = parseTypeAttr(carrier);
    if (failed(type))
      return failure();
    auto buffers = dyn_cast<BuffersType>(*type);
    if (!buffers)
      return malformed(carrier) << "tlx.type must be a !tlx.buffers type";
    auto alloc = LocalAllocOp::create(builder, loc, buffers, Attribute());
    if (auto layout = op->getAttrOfType<StringAttr>("tlx.layout")) {
      Attribute parsed = parseAttribute(layout.getValue(), module.getContext());
      if (!parsed)
        return op->emitError("invalid layout for tlx.local_alloc: ")
               << layout.getValue();
      alloc.setLayoutAttr(parsed);
    }
    mapHandleResult(alloc);
  } else if (name == "alloc_barriers") {
    FailureOr<Type> type = parseTypeAttr(carrier);
    FailureOr<int32_t> count = intAttr(carrier, "tlx.arrive_count", 1);
    if (failed(type) || failed(count))
      return failure();
    auto barriers = dyn_cast<MBarriersType>(*type);
    if (!barriers)
      return malformed(carrier) << "tlx.type must be a !tlx.mbarriers type";
    mapHandleResult(
        AllocBarriersOp::create(builder, loc, barriers, i32Attr(*count)));
  } else if (name == "local_view") {
    FailureOr<Value> source = handle(carrier, 0);
    if (failed(source) || carrier.operands.size() != 2)
      return failed(source) ? failure()
                            : malformed(carrier) << "expected 2 operands";
    mapHandleResult(
        LocalViewOp::create(builder, loc, *source, carrier.operands[1]));
  } else if (name == "local_trans" || name == "local_slice" ||
             name == "local_reinterpret") {
    FailureOr<Value> source = handle(carrier, 0);
    FailureOr<BufferType> type = resultBufferType(carrier);
    if (failed(source) || failed(type))
      return failure();
    if (!isa<BufferType>(source->getType()))
      return op->emitError("tlx.")
             << name << " takes one buffer (index the result of "
             << "tlx.local_alloc first)";
    Value view;
    if (name == "local_reinterpret") {
      view = LocalReinterpretOp::create(builder, loc, *type, *source);
    } else {
      FailureOr<SmallVector<int32_t>> ints = intsAttr(
          carrier, name == "local_trans" ? "tlx.order" : "tlx.offsets");
      if (failed(ints))
        return failure();
      auto array = builder.getDenseI32ArrayAttr(*ints);
      view = name == "local_trans"
                 ? LocalTransOp::create(builder, loc, *type, *source, array)
                       .getResult()
                 : LocalSliceOp::create(builder, loc, *type, *source, array)
                       .getResult();
    }
    mapHandleResult(view);
  } else if (name == "barrier_expect_bytes") {
    FailureOr<Value> barrier = handle(carrier, 0);
    FailureOr<int32_t> bytes = intAttr(carrier, "tlx.bytes");
    if (failed(barrier) || failed(bytes))
      return failure();
    BarrierExpectBytesOp::create(builder, loc, *barrier, i32Attr(*bytes),
                                 optionalPred(1, true));
  } else if (name == "barrier_wait") {
    FailureOr<Value> barrier = handle(carrier, 0);
    if (failed(barrier))
      return failure();
    if (carrier.operands.size() < 2)
      return malformed(carrier) << "missing the phase";
    BarrierWaitOp::create(builder, loc, *barrier, carrier.operands[1],
                          optionalPred(2, true));
  } else if (name == "barrier_arrive") {
    FailureOr<Value> barrier = handle(carrier, 0);
    FailureOr<int32_t> count = intAttr(carrier, "tlx.count", 1);
    if (failed(barrier) || failed(count))
      return failure();
    BarrierArriveOp::create(builder, loc, *barrier, i32Attr(*count));
  } else if (name == "async_descriptor_load") {
    // desc, buffer, barrier, offsets..., [pred]
    if (carrier.operands.size() < 3)
      return malformed(carrier) << "expected desc, buffer and barrier";
    FailureOr<Value> buffer = handle(carrier, 1);
    FailureOr<Value> barrier = handle(carrier, 2);
    FailureOr<int32_t> cache = intAttr(carrier, "tlx.cache", 1);
    FailureOr<int32_t> evict = intAttr(carrier, "tlx.evict", 1);
    if (failed(buffer) || failed(barrier) || failed(cache) || failed(evict))
      return failure();
    bool hasPred = boolAttr(carrier, "tlx.has_pred");
    ArrayRef<Value> rest = ArrayRef<Value>(carrier.operands).drop_front(3);
    Value pred = hasPred && !rest.empty() ? rest.back() : Value();
    ArrayRef<Value> offsets = hasPred ? rest.drop_back() : rest;
    auto load = AsyncDescriptorLoadOp::create(builder, loc, carrier.operands[0],
                                              offsets, *buffer, *barrier, pred);
    load.setCacheAttr(triton::CacheModifierAttr::get(
        builder.getContext(), static_cast<triton::CacheModifier>(*cache)));
    load.setEvictAttr(triton::EvictionPolicyAttr::get(
        builder.getContext(), static_cast<triton::EvictionPolicy>(*evict)));
  } else if (name == "async_descriptor_store") {
    if (carrier.operands.size() < 2)
      return malformed(carrier) << "expected desc and buffer";
    FailureOr<Value> buffer = handle(carrier, 1);
    if (failed(buffer))
      return failure();
    AsyncDescriptorStoreOp::create(
        builder, loc, carrier.operands[0],
        ArrayRef<Value>(carrier.operands).drop_front(2), *buffer);
  } else if (name == "async_descriptor_store_wait") {
    FailureOr<int32_t> pendings = intAttr(carrier, "tlx.pendings");
    if (failed(pendings))
      return failure();
    AsyncDescriptorStoreWaitOp::create(builder, loc, i32Attr(*pendings));
  } else if (name == "fence_async_shared") {
    FenceAsyncSharedOp::create(builder, loc);
  } else if (name == "thread_id") {
    FailureOr<int32_t> axis = intAttr(carrier, "tlx.axis");
    if (failed(axis))
      return failure();
    op->getResult(0).replaceAllUsesWith(
        ThreadIdOp::create(builder, loc, builder.getI32Type(), i32Attr(*axis)));
  } else if (name == "clock64") {
    op->getResult(0).replaceAllUsesWith(
        Clock64Op::create(builder, loc, builder.getI64Type()));
  } else if (name == "local_load") {
    FailureOr<Value> buffer = handle(carrier, 0);
    if (failed(buffer))
      return failure();
    op->getResult(0).replaceAllUsesWith(
        LocalLoadOp::create(builder, loc, op->getResult(0).getType(), *buffer));
  } else if (name == "local_store") {
    if (carrier.operands.size() != 2)
      return malformed(carrier) << "expected value and buffer";
    FailureOr<Value> buffer = handle(carrier, 1);
    if (failed(buffer))
      return failure();
    LocalStoreOp::create(builder, loc, carrier.operands[0], *buffer);
  } else if (name == "async_load") {
    // pointers, buffer, [mask], [other]
    if (carrier.operands.size() < 2)
      return malformed(carrier) << "expected pointers and buffer";
    FailureOr<Value> buffer = handle(carrier, 1);
    FailureOr<int32_t> cache = intAttr(carrier, "tlx.cache", 1);
    FailureOr<int32_t> evict = intAttr(carrier, "tlx.evict", 1);
    if (failed(buffer) || failed(cache) || failed(evict))
      return failure();
    unsigned next = 2;
    Value mask =
        boolAttr(carrier, "tlx.has_mask") && next < carrier.operands.size()
            ? carrier.operands[next++]
            : Value();
    Value other =
        boolAttr(carrier, "tlx.has_other") && next < carrier.operands.size()
            ? carrier.operands[next++]
            : Value();
    auto load = AsyncLoadOp::create(builder, loc, carrier.operands[0], *buffer,
                                    mask, other);
    load.setCacheAttr(triton::CacheModifierAttr::get(
        builder.getContext(), static_cast<triton::CacheModifier>(*cache)));
    load.setEvictAttr(triton::EvictionPolicyAttr::get(
        builder.getContext(), static_cast<triton::EvictionPolicy>(*evict)));
    load.setIsVolatile(boolAttr(carrier, "tlx.is_volatile"));
  } else if (name == "async_dot_operand") {
    // The register operand of an async_dot, linked to it by tlx.link.
    FailureOr<int32_t> link = intAttr(carrier, "tlx.link");
    if (failed(link) || carrier.operands.size() != 1)
      return failed(link) ? failure()
                          : malformed(carrier) << "expected one operand";
    if (!op->getResult(0).use_empty())
      return malformed(carrier) << "its result must be unused";
    linkedOperands[*link] = carrier.operands[0];
  } else if (name == "async_dot") {
    // acc, a, b, [use_acc]: a and b ride as splat handles, use_acc as a
    // splat i1. With tlx.a_link, `a` is a register tensor carried by the
    // async_dot_operand carrier of that link, and the operands are
    // acc, b, [use_acc].
    bool linkedA = op->hasAttr("tlx.a_link");
    unsigned bIndex = linkedA ? 1 : 2;
    if (carrier.operands.size() < bIndex + 1)
      return malformed(carrier) << "expected acc, a and b";
    FailureOr<Value> a = failure();
    if (linkedA) {
      FailureOr<int32_t> link = intAttr(carrier, "tlx.a_link");
      if (failed(link))
        return failure();
      if (Value linked = linkedOperands.lookup(*link))
        a = linked;
      else
        return malformed(carrier)
               << "no async_dot_operand carrier with tlx.link = " << *link
               << " precedes it";
    } else {
      a = handle(carrier, 1);
    }
    FailureOr<Value> b = handle(carrier, bIndex);
    FailureOr<int32_t> precision = intAttr(carrier, "tlx.input_precision", 0);
    FailureOr<int32_t> imprecise =
        intAttr(carrier, "tlx.max_num_imprecise_acc", 0);
    if (failed(a) || failed(b) || failed(precision) || failed(imprecise))
      return failure();
    Value useAcc;
    if (boolAttr(carrier, "tlx.has_use_acc")) {
      Value splatted = carrier.operands.size() > bIndex + 1
                           ? carrier.operands[bIndex + 1]
                           : Value();
      // A constant use_acc arrives folded into a dense splat constant.
      DenseElementsAttr dense;
      if (auto splat =
              splatted ? splatted.getDefiningOp<triton::SplatOp>() : nullptr)
        useAcc = splat.getSrc();
      else if (splatted && matchPattern(splatted, m_Constant(&dense)) &&
               dense.isSplat())
        useAcc = arith::ConstantIntOp::create(
            builder, loc, dense.getSplatValue<bool>() ? 1 : 0, 1);
      else
        return malformed(carrier) << "use_acc must be a splat i1 scalar";
    }
    auto dot = AsyncDotOp::create(builder, loc, op->getResult(0).getType(), *a,
                                  *b, carrier.operands[0], useAcc);
    dot.setInputPrecisionAttr(triton::InputPrecisionAttr::get(
        builder.getContext(), static_cast<triton::InputPrecision>(*precision)));
    dot.setMaxNumImpreciseAcc(*imprecise);
    op->getResult(0).replaceAllUsesWith(dot.getResult());
  } else if (name == "async_dot_wait") {
    FailureOr<int32_t> pendings = intAttr(carrier, "tlx.pendings");
    if (failed(pendings) || carrier.operands.empty())
      return failed(pendings)
                 ? failure()
                 : malformed(carrier) << "expected the accumulator";
    op->getResult(0).replaceAllUsesWith(AsyncDotWaitOp::create(
        builder, loc, carrier.operands[0], i32Attr(*pendings)));
  } else if (name == "named_barrier_wait" || name == "named_barrier_arrive") {
    if (carrier.operands.size() != 2)
      return malformed(carrier) << "expected the barrier id and thread count";
    if (name == "named_barrier_wait")
      NamedBarrierWaitOp::create(builder, loc, carrier.operands[0],
                                 carrier.operands[1]);
    else
      NamedBarrierArriveOp::create(builder, loc, carrier.operands[0],
                                   carrier.operands[1]);
  } else if (name == "async_task_replica_id") {
    op->getResult(0).replaceAllUsesWith(
        AsyncTaskReplicaIdOp::create(builder, loc, builder.getI32Type()));
  } else if (name == "async_load_commit_group") {
    AsyncLoadCommitGroupOp::create(builder, loc);
  } else if (name == "async_load_wait_group") {
    FailureOr<int32_t> pendings = intAttr(carrier, "tlx.pendings");
    if (failed(pendings))
      return failure();
    AsyncLoadWaitGroupOp::create(builder, loc, i32Attr(*pendings));
  } else {
    return op->emitError("unknown TLX operation tlx.")
           << name << " (this TLX compiler does not implement it)";
  }
  raised.push_back(op);
  return success();
}

/// `with tlx.async_tasks()` / `with tlx.async_task(...)` reach us as an
/// `scf.if` on the opaque i1 of a carrier; its then-block becomes the body of
/// the TLX region op.
LogicalResult Raiser::raiseRegion(Carrier &carrier) {
  Operation *op = carrier.op;
  Value condition = op->getResult(0);
  // An empty body leaves no scf.if: canonicalization erased it.
  scf::IfOp ifOp;
  if (!condition.use_empty()) {
    ifOp = condition.hasOneUse()
               ? dyn_cast<scf::IfOp>(*condition.getUsers().begin())
               : scf::IfOp();
    if (!ifOp || ifOp.getCondition() != condition ||
        ifOp.getNumResults() != 0 || !ifOp.getElseRegion().empty())
      return malformed(carrier)
             << "expected its i1 to be unused or the condition of a "
                "result-less scf.if without else";
  }
  builder.setInsertionPoint(ifOp ? ifOp.getOperation() : op);
  Location loc = op->getLoc();
  Operation *region;
  if (carrier.name == "async_tasks") {
    region = AsyncTasksOp::create(builder, loc);
  } else {
    FailureOr<int32_t> replicate = intAttr(carrier, "tlx.replicate", 1);
    if (failed(replicate))
      return failure();
    region = AsyncTaskOp::create(
        builder, loc, boolAttr(carrier, "tlx.default"),
        op->getAttrOfType<IntegerAttr>("tlx.num_warps"),
        op->getAttrOfType<IntegerAttr>("tlx.registers"), *replicate);
  }
  Block &body = region->getRegion(0).emplaceBlock();
  if (ifOp) {
    Block &then = ifOp.getThenRegion().front();
    then.getTerminator()->erase();
    body.getOperations().splice(body.end(), then.getOperations());
    ifOp.erase();
  }
  op->erase();
  return success();
}

LogicalResult Raiser::raiseRegions() {
  SmallVector<Carrier> regions;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    std::optional<Carrier> carrier = matchCarrier(op);
    if (carrier &&
        (carrier->name == "async_tasks" || carrier->name == "async_task"))
      regions.push_back(*carrier);
  });
  // Outer regions first: moving a body keeps the inner carriers intact.
  for (Carrier &carrier : regions)
    if (failed(raiseRegion(carrier)))
      return failure();
  return success();
}

LogicalResult Raiser::run() {
  if (failed(raiseRegions()))
    return failure();
  bool failed = false;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    std::optional<Carrier> carrier = matchCarrier(op);
    if (carrier && mlir::failed(raise(*carrier)))
      failed = true;
  });
  if (failed)
    return failure();

  // Every remaining use of a handle must belong to a raised carrier (or a
  // splat feeding one): anything else means a handle escaped into user code.
  DenseSet<Operation *> raisedSet(raised.begin(), raised.end());
  for (auto [handleValue, typed] : handles)
    for (OpOperand &use : handleValue.getUses()) {
      Operation *user = use.getOwner();
      if (raisedSet.contains(user))
        continue;
      if (isa<triton::SplatOp>(user) &&
          llvm::all_of(user->getUsers(), [&](Operation *splatUser) {
            return raisedSet.contains(splatUser);
          }))
        continue;
      user->emitError("a TLX buffer or barrier handle is used by an "
                      "operation that is not a tlx op");
      return failure();
    }

  // Erase in reverse order so that users go before what they use.
  // A set: CSE lets carriers share one splat (two dots reading one buffer).
  SetVector<Operation *> splats;
  for (Operation *op : llvm::reverse(raised)) {
    if (auto asmOp = dyn_cast<triton::ElementwiseInlineAsmOp>(op))
      for (Value arg : asmOp.getArgs())
        if (auto splat = arg.getDefiningOp<triton::SplatOp>())
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
  return success();
}

struct RaiseCarriersPass : tlx::impl::TLXRaiseCarriersBase<RaiseCarriersPass> {
  void runOnOperation() override {
    if (failed(Raiser(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace
