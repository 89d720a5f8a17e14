//===- PhaseParity.cpp - mbarrier phases through loops --------------------===//
//
// A wait names the phase it waits for by its parity, and the parity has to
// flip each time the barrier completes again: the usual `phase ^= 1` or
// `(k // NUM_STAGES) & 1`. A parity that does not flip compiles and then
// races (the wait returns on the previous completion) or hangs.
//
// The check replays the kernel: every loop runs on concrete iteration
// numbers, its index arithmetic is evaluated, and each barrier operation is
// recorded with the barrier it names (allocation, slot) and, for a wait, the
// parity. Trip counts that are not static are assumed (a few iterations; a
// loop bound the kernel computes is bound to the assumed value once, so every
// task sees the same one), as is a program id that starts a persistent loop.
// A task whose waits on a slot are one-to-one with the slot's completions
// (arrivals from every task, counted against the arrive count) must then
// alternate their parities.
//
// Only what the replay computes exactly is judged: a barrier used by an op
// the replay does not model, an arm under a condition it cannot evaluate, or
// a slot it cannot compute leaves that allocation unjudged.
//
//===----------------------------------------------------------------------===//

#include "tlx/Dialect/TLX/Transforms/PhaseParity.h"

#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// Iterations a loop whose trip count is not static is assumed to run.
constexpr int64_t kAssumedTrips = 6;
/// Static loops run at most this many iterations in the replay.
constexpr int64_t kMaxTrips = 24;
/// Ops the replay may visit before it gives up (and judges nothing).
constexpr int64_t kMaxSteps = 1 << 18;
/// Ops an expression may have for the replay to recognize it in another
/// task.
constexpr int64_t kMaxExpressionOps = 64;

/// An allocation of mbarriers whose every use the replay models.
struct Tracked {
  int64_t arriveCount = 1;
  /// An arm the replay could not place (unknown slot or condition, a remote
  /// or per-thread arrival): completions are unknown.
  bool uncertain = false;
  /// Arrivals per slot, from every task.
  DenseMap<int64_t, int64_t> arrivals;
};

struct Wait {
  BarrierWaitOp op;
  int64_t parity;
};

/// Whether the replay models every use of `alloc`'s barriers.
bool isModelled(AllocBarriersOp alloc) {
  for (Operation *user : alloc.getResult().getUsers()) {
    auto view = dyn_cast<LocalViewOp>(user);
    if (!view)
      return false;
    for (Operation *barrierUser : view.getResult().getUsers())
      if (!isa<BarrierWaitOp, BarrierArriveOp, BarrierExpectBytesOp,
               AsyncDescriptorLoadOp, AsyncBulkLoadOp, CLCTryCancelOp>(
              barrierUser))
        return false;
  }
  return true;
}

int64_t wrap(int64_t value, unsigned width) {
  if (width == 1)
    return value & 1;
  if (width >= 64)
    return value;
  uint64_t shift = 64 - width;
  return static_cast<int64_t>(static_cast<uint64_t>(value) << shift) >> shift;
}

uint64_t asUnsigned(int64_t value, unsigned width) {
  if (width >= 64)
    return static_cast<uint64_t>(value);
  return static_cast<uint64_t>(value) & ((uint64_t(1) << width) - 1);
}

unsigned widthOf(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth();
  return 64; // index
}

class Replay {
public:
  explicit Replay(Operation *root) {
    root->walk([&](AllocBarriersOp alloc) {
      if (isModelled(alloc))
        tracked[alloc].arriveCount = alloc.getArriveCount();
    });
  }

  /// Replays every function body; false when the replay gave up.
  bool run(Operation *root) {
    bool complete = true;
    root->walk([&](FunctionOpInterface function) {
      if (complete && !function.isExternal()) {
        timeline = newTimeline();
        complete = runBlock(function.getFunctionBody().front(), 1);
      }
    });
    return complete;
  }

  /// Reports every task's non-alternating waits; fails on an error.
  LogicalResult report() {
    bool failed = false;
    DenseSet<Operation *> reported;
    for (auto &waitsBySlot : timelines) {
      for (auto &[key, waits] : waitsBySlot) {
        auto [alloc, slot] = key;
        Tracked &set = tracked[alloc];
        if (set.uncertain || waits.size() < 2)
          continue;
        int64_t completions = set.arrivals.lookup(slot) / set.arriveCount;
        int64_t count = waits.size();
        // Waits one-to-one with completions (the first may precede all of
        // them: a slot that starts "free" is waited with parity 1).
        if (completions < 2 || completions < count - 1 ||
            completions > count + 1)
          continue;
        for (size_t i = 1; i < waits.size(); ++i) {
          if (waits[i].parity != waits[i - 1].parity)
            continue;
          BarrierWaitOp wait = waits[i].op;
          if (!reported.insert(wait).second)
            break;
          std::string message;
          llvm::raw_string_ostream os(message);
          os << "waits on mbarrier " << slot
             << " of this tlx.alloc_barriers with phase parity "
             << waits[i].parity << " again, while the barrier completes once "
             << "for each wait (" << completions << " completions, " << count
             << " waits by this task in the replayed loops): it returns at "
             << "once on the earlier completion instead of waiting for the "
             << "new one (a race); flip the parity each time the barrier "
             << "comes around, e.g. "
             << "phase = (k // NUM_STAGES) & 1 or phase ^= 1 when the "
             << "stage index wraps";
          if (assumed)
            os << " (found replaying the loops with assumed trip counts)";
          InFlightDiagnostic diag =
              assumed ? wait.emitWarning(message) : wait.emitOpError(message);
          diag.attachNote(waits[i - 1].op.getLoc())
              << "the previous wait on it, with the same parity";
          diag.attachNote(alloc.getLoc()) << "the mbarriers";
          failed |= !assumed;
          break;
        }
      }
    }
    return failure(failed);
  }

private:
  using Key = std::pair<AllocBarriersOp, int64_t>;
  using WaitsBySlot = llvm::MapVector<Key, SmallVector<Wait>>;

  DenseMap<AllocBarriersOp, Tracked> tracked;
  SmallVector<WaitsBySlot> timelines;
  unsigned timeline = 0;
  /// Values bound by the replay: induction variables, iteration arguments,
  /// loop and if results, assumed loop bounds and program ids.
  DenseMap<Value, int64_t> bound;
  /// Values computed in the current iteration.
  DenseMap<Value, int64_t> cache;
  /// Assumed values by the expression that computes them (see spelling()).
  llvm::StringMap<int64_t> assumedBySpelling;
  /// Memoized spellings; empty for a value no other task can recompute.
  DenseMap<Value, std::string> spellings;
  bool assumed = false;
  int64_t steps = 0;

  unsigned newTimeline() {
    timelines.emplace_back();
    return timelines.size() - 1;
  }

  void bind(Value value, std::optional<int64_t> constant) {
    if (constant)
      bound[value] = wrap(*constant, widthOf(value.getType()));
    else
      bound.erase(value);
  }

  std::optional<int64_t> evaluate(Value value) {
    if (auto it = bound.find(value); it != bound.end())
      return it->second;
    if (auto it = cache.find(value); it != cache.end())
      return it->second;
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return wrap(constant.getSExtValue(), widthOf(value.getType()));
    if (!assumedBySpelling.empty()) {
      auto it = assumedBySpelling.find(spelling(value));
      if (it != assumedBySpelling.end())
        return it->second;
    }
    Operation *def = value.getDefiningOp();
    if (!def || def->getNumResults() != 1 ||
        !isa_and_nonnull<arith::ArithDialect>(def->getDialect()))
      return std::nullopt;
    std::optional<int64_t> result = compute(def);
    if (result)
      cache[value] = wrap(*result, widthOf(value.getType()));
    return result ? std::optional<int64_t>(cache[value]) : std::nullopt;
  }

  std::optional<int64_t> compute(Operation *op) {
    SmallVector<int64_t, 3> args;
    for (Value operand : op->getOperands()) {
      std::optional<int64_t> v = evaluate(operand);
      if (!v)
        return std::nullopt;
      args.push_back(*v);
    }
    unsigned width =
        op->getNumOperands() ? widthOf(op->getOperand(0).getType()) : 64;
    auto unsignedArg = [&](unsigned i) { return asUnsigned(args[i], width); };
    using R = std::optional<int64_t>;
    return TypeSwitch<Operation *, R>(op)
        .Case([&](arith::AddIOp) -> R { return args[0] + args[1]; })
        .Case([&](arith::SubIOp) -> R { return args[0] - args[1]; })
        .Case([&](arith::MulIOp) -> R { return args[0] * args[1]; })
        .Case([&](arith::DivSIOp) -> R {
          return args[1] ? R(args[0] / args[1]) : std::nullopt;
        })
        .Case([&](arith::RemSIOp) -> R {
          return args[1] ? R(args[0] % args[1]) : std::nullopt;
        })
        .Case([&](arith::DivUIOp) -> R {
          return unsignedArg(1) ? R(unsignedArg(0) / unsignedArg(1))
                                : std::nullopt;
        })
        .Case([&](arith::RemUIOp) -> R {
          return unsignedArg(1) ? R(unsignedArg(0) % unsignedArg(1))
                                : std::nullopt;
        })
        .Case([&](arith::CeilDivSIOp) -> R {
          if (!args[1])
            return std::nullopt;
          int64_t q = args[0] / args[1];
          bool inexact = q * args[1] != args[0];
          return q + (inexact && ((args[0] < 0) == (args[1] < 0)) ? 1 : 0);
        })
        .Case([&](arith::FloorDivSIOp) -> R {
          if (!args[1])
            return std::nullopt;
          int64_t q = args[0] / args[1];
          bool inexact = q * args[1] != args[0];
          return q - (inexact && ((args[0] < 0) != (args[1] < 0)) ? 1 : 0);
        })
        .Case([&](arith::AndIOp) -> R { return args[0] & args[1]; })
        .Case([&](arith::OrIOp) -> R { return args[0] | args[1]; })
        .Case([&](arith::XOrIOp) -> R { return args[0] ^ args[1]; })
        .Case([&](arith::ShLIOp) -> R {
          return args[1] >= 0 && args[1] < 64 ? R(args[0] << args[1])
                                              : std::nullopt;
        })
        .Case([&](arith::ShRSIOp) -> R {
          return args[1] >= 0 && args[1] < 64 ? R(args[0] >> args[1])
                                              : std::nullopt;
        })
        .Case([&](arith::ShRUIOp) -> R {
          return args[1] >= 0 && args[1] < 64
                     ? R(static_cast<int64_t>(unsignedArg(0) >> args[1]))
                     : std::nullopt;
        })
        .Case([&](arith::MaxSIOp) -> R { return std::max(args[0], args[1]); })
        .Case([&](arith::MinSIOp) -> R { return std::min(args[0], args[1]); })
        .Case([&](arith::SelectOp) -> R { return args[0] ? args[1] : args[2]; })
        .Case([&](arith::ExtSIOp) -> R {
          return width == 1 ? -args[0] : args[0];
        })
        .Case([&](arith::ExtUIOp) -> R {
          return static_cast<int64_t>(unsignedArg(0));
        })
        .Case<arith::TruncIOp, arith::IndexCastOp>(
            [&](Operation *) -> R { return args[0]; })
        .Case([&](arith::IndexCastUIOp) -> R {
          return static_cast<int64_t>(unsignedArg(0));
        })
        .Case([&](arith::CmpIOp cmp) -> R {
          uint64_t a = unsignedArg(0), b = unsignedArg(1);
          switch (cmp.getPredicate()) {
          case arith::CmpIPredicate::eq:
            return args[0] == args[1];
          case arith::CmpIPredicate::ne:
            return args[0] != args[1];
          case arith::CmpIPredicate::slt:
            return args[0] < args[1];
          case arith::CmpIPredicate::sle:
            return args[0] <= args[1];
          case arith::CmpIPredicate::sgt:
            return args[0] > args[1];
          case arith::CmpIPredicate::sge:
            return args[0] >= args[1];
          case arith::CmpIPredicate::ult:
            return a < b;
          case arith::CmpIPredicate::ule:
            return a <= b;
          case arith::CmpIPredicate::ugt:
            return a > b;
          case arith::CmpIPredicate::uge:
            return a >= b;
          }
          return std::nullopt;
        })
        .Default([](Operation *) -> R { return std::nullopt; });
  }

  /// The expression computing `value` from the kernel's arguments,
  /// constants and pure operand-free ops (a program id), as text; empty when
  /// it reads anything else (a loop's iteration, memory) or is too large. Two
  /// tasks computing a loop bound alike spell it alike.
  std::string spelling(Value value) {
    if (auto it = spellings.find(value); it != spellings.end())
      return it->second;
    int64_t budget = kMaxExpressionOps;
    std::string text;
    llvm::raw_string_ostream os(text);
    if (!spell(value, os, budget))
      text.clear();
    return spellings[value] = text;
  }

  bool spell(Value value, raw_ostream &os, int64_t &budget) {
    if (--budget < 0)
      return false;
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      Block *block = argument.getOwner();
      if (!block->isEntryBlock() ||
          !isa<FunctionOpInterface>(block->getParentOp()))
        return false;
      os << "arg" << argument.getArgNumber();
      return true;
    }
    Operation *def = value.getDefiningOp();
    if (def->getNumResults() != 1 || def->getNumRegions() != 0 || !isPure(def))
      return false;
    os << def->getName() << def->getAttrDictionary() << "(";
    for (Value operand : def->getOperands()) {
      if (!spell(operand, os, budget))
        return false;
      os << ",";
    }
    os << ")";
    return true;
  }

  /// Assumes `value` is `assumed` wherever it is spelled alike.
  void assume(Value value, int64_t guess) {
    guess = wrap(guess, widthOf(value.getType()));
    bound[value] = guess;
    std::string text = spelling(value);
    if (!text.empty())
      assumedBySpelling[text] = guess;
    assumed = true;
  }

  /// Assumes the pure operand-free ops that `value` reads (program ids) are
  /// 0: a persistent loop's first tile.
  void assumeLeavesZero(Value value, int64_t &budget) {
    Operation *def = value.getDefiningOp();
    if (!def || --budget < 0 || evaluate(value))
      return;
    if (def->getNumOperands() == 0 && def->getNumResults() == 1 &&
        def->getNumRegions() == 0 && isPure(def)) {
      assume(value, 0);
      return;
    }
    for (Value operand : def->getOperands())
      assumeLeavesZero(operand, budget);
  }

  /// The tracked allocation and slot a barrier value names.
  std::optional<Key> slotOf(Value barrier) {
    auto view = barrier.getDefiningOp<LocalViewOp>();
    if (!view)
      return std::nullopt;
    auto alloc = view.getSource().getDefiningOp<AllocBarriersOp>();
    if (!alloc || !tracked.count(alloc))
      return std::nullopt;
    std::optional<int64_t> slot = evaluate(view.getIndex());
    if (!slot)
      return std::nullopt;
    return Key{alloc, *slot};
  }

  void markUncertain(Value barrier) {
    if (auto view = barrier.getDefiningOp<LocalViewOp>())
      if (auto alloc = view.getSource().getDefiningOp<AllocBarriersOp>())
        if (auto it = tracked.find(alloc); it != tracked.end())
          it->second.uncertain = true;
  }

  /// Whether an op with an optional predicate runs: true, false, or unknown.
  std::optional<bool> runs(Value pred) {
    if (!pred)
      return true;
    std::optional<int64_t> value = evaluate(pred);
    if (!value)
      return std::nullopt;
    return *value != 0;
  }

  void arm(Value barrier, Value pred, int64_t arrivals) {
    std::optional<bool> executes = runs(pred);
    std::optional<Key> key = slotOf(barrier);
    if (!executes || !key) {
      markUncertain(barrier);
      return;
    }
    if (*executes)
      tracked[key->first].arrivals[key->second] += arrivals;
  }

  /// Every arm inside a region the replay does not enter makes its
  /// allocation's completions unknown.
  void skipRegions(Operation *op) {
    op->walk([&](Operation *inner) {
      if (auto arrive = dyn_cast<BarrierArriveOp>(inner))
        markUncertain(arrive.getBarrier());
      else if (auto expect = dyn_cast<BarrierExpectBytesOp>(inner))
        markUncertain(expect.getBarrier());
    });
  }

  bool runBlock(Block &block, int64_t replicas) {
    for (Operation &op : block) {
      if (++steps > kMaxSteps)
        return false;
      if (!runOp(op, replicas))
        return false;
    }
    return true;
  }

  bool runOp(Operation &op, int64_t replicas) {
    if (auto wait = dyn_cast<BarrierWaitOp>(op)) {
      std::optional<bool> executes = runs(wait.getPred());
      std::optional<Key> key = slotOf(wait.getBarrier());
      std::optional<int64_t> parity = evaluate(wait.getPhase());
      if (executes && *executes && key && parity)
        timelines[timeline][*key].push_back({wait, *parity & 1});
      return true;
    }
    if (auto expect = dyn_cast<BarrierExpectBytesOp>(op)) {
      arm(expect.getBarrier(), expect.getPred(), replicas);
      return true;
    }
    if (auto arrive = dyn_cast<BarrierArriveOp>(op)) {
      if (arrive.getRemoteCTARank() || arrive.getPerThread())
        markUncertain(arrive.getBarrier());
      else
        arm(arrive.getBarrier(), arrive.getPred(),
            arrive.getCount() * replicas);
      return true;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return runLoop(loop, replicas);
    if (auto branch = dyn_cast<scf::IfOp>(op))
      return runIf(branch, replicas);
    if (auto tasks = dyn_cast<AsyncTasksOp>(op)) {
      unsigned outer = timeline;
      for (Operation &task : tasks.getBody().front()) {
        auto asyncTask = dyn_cast<AsyncTaskOp>(task);
        if (!asyncTask)
          continue;
        timeline = newTimeline();
        if (!runBlock(asyncTask.getBody().front(),
                      replicas * asyncTask.getReplicate()))
          return false;
      }
      timeline = outer;
      return true;
    }
    if (op.getNumRegions() != 0)
      skipRegions(&op);
    return true;
  }

  bool runIf(scf::IfOp branch, int64_t replicas) {
    std::optional<int64_t> condition = evaluate(branch.getCondition());
    if (!condition) {
      skipRegions(branch);
      for (Value result : branch.getResults())
        bind(result, std::nullopt);
      return true;
    }
    Region &taken =
        *condition ? branch.getThenRegion() : branch.getElseRegion();
    if (taken.empty()) {
      return true;
    }
    Block &body = taken.front();
    if (!runBlock(body, replicas))
      return false;
    auto yield = cast<scf::YieldOp>(body.getTerminator());
    SmallVector<std::optional<int64_t>> results;
    for (Value value : yield.getOperands())
      results.push_back(evaluate(value));
    for (auto [result, value] : llvm::zip(branch.getResults(), results))
      bind(result, value);
    return true;
  }

  bool runLoop(scf::ForOp loop, int64_t replicas) {
    std::optional<int64_t> step = evaluate(loop.getStep());
    if (!step || *step <= 0) {
      skipRegions(loop);
      for (Value result : loop.getResults())
        bind(result, std::nullopt);
      return true;
    }
    std::optional<int64_t> lower = evaluate(loop.getLowerBound());
    if (!lower) { // e.g. a persistent loop starting at the program id
      int64_t budget = kMaxExpressionOps;
      assumeLeavesZero(loop.getLowerBound(), budget);
      lower = evaluate(loop.getLowerBound());
      if (!lower) {
        assume(loop.getLowerBound(), 0);
        lower = 0;
      }
    }
    int64_t trips;
    if (std::optional<int64_t> upper = evaluate(loop.getUpperBound())) {
      trips = std::max<int64_t>(0, (*upper - *lower + *step - 1) / *step);
    } else {
      trips = kAssumedTrips;
      assume(loop.getUpperBound(), *lower + trips * *step);
    }
    trips = std::min(trips, kMaxTrips);
    SmallVector<std::optional<int64_t>> carried;
    for (Value init : loop.getInitArgs())
      carried.push_back(evaluate(init));
    Block &body = *loop.getBody();
    auto yield = cast<scf::YieldOp>(body.getTerminator());
    for (int64_t trip = 0; trip < trips; ++trip) {
      cache.clear();
      bind(loop.getInductionVar(), *lower + trip * *step);
      for (auto [argument, value] :
           llvm::zip(loop.getRegionIterArgs(), carried))
        bind(argument, value);
      if (!runBlock(body, replicas))
        return false;
      for (auto [index, value] : llvm::enumerate(yield.getOperands()))
        carried[index] = evaluate(value);
    }
    cache.clear();
    for (auto [result, value] : llvm::zip(loop.getResults(), carried))
      bind(result,
           trips > 0 ? value
                     : evaluate(loop.getInitArgs()[result.getResultNumber()]));
    return true;
  }
};

} // namespace

LogicalResult mlir::tlx::checkPhaseParity(Operation *root) {
  Replay replay(root);
  if (!replay.run(root))
    return success(); // too large to replay: nothing is judged
  return replay.report();
}
