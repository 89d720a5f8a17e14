//===- WarpSpecializationToTritonGPU.cpp - tasks -> ttg.warp_specialize ---===//
//
// A tlx.async_tasks becomes one ttg.warp_specialize: the default task runs in
// its default region on the kernel's warps, every replica of every other task
// in a partition of its own. It runs after the other TLX ops are converted,
// so that the task bodies hold TritonGPU values, captured as they are.
//
// planWarpSpecialization checks the tasks against the kernel first; the
// pattern then cannot fail.
//
//===----------------------------------------------------------------------===//

#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"
#include "tlx/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;

namespace {

constexpr int kThreadsPerWarp = 32;
constexpr int kRegistersPerSM = 64 * 1024;
constexpr int kMaxWarpsPerCTA = 32;
/// Set by planWarpSpecialization on a tlx.async_tasks whose register budgets
/// do not fit: it lowers without them.
constexpr llvm::StringLiteral kWithoutBudgets = "tlx.without_register_budgets";

/// setmaxnreg takes register counts in steps of 8.
int32_t roundDown8(int64_t value) { return value / 8 * 8; }

/// One partition of the ttg.warp_specialize: a replica of a task.
struct Partition {
  AsyncTaskOp task;
  int32_t replica;
};

/// The tasks of one tlx.async_tasks and the warps they take.
struct TaskSet {
  explicit TaskSet(AsyncTasksOp tasks);

  /// The kernel's warps once specialized: the other tasks' warps are added
  /// in whole warp groups.
  int32_t getTotalWarps() const {
    return baseWarps +
           llvm::divideCeil(extraWarps, kWarpsPerGroup) * kWarpsPerGroup;
  }
  /// Whether a task asks for a register budget, and a partition exists to
  /// give one to (budgets are set per partition).
  bool hasRegisterBudgets();

  AsyncTasksOp op;
  AsyncTaskOp defaultTask;
  SmallVector<AsyncTaskOp> others;
  /// Every replica of every non-default task, in order.
  SmallVector<Partition> partitions;
  SmallVector<int32_t> partitionWarps;
  /// The kernel's warps, which run the default task.
  int32_t baseWarps;
  /// The warps of the other tasks, all replicas.
  int32_t extraWarps;
};

TaskSet::TaskSet(AsyncTasksOp tasks)
    : op(tasks), baseWarps(lookupNumWarps(tasks->getParentOfType<ModuleOp>())),
      extraWarps(tasks.getTaskWarps()) {
  for (AsyncTaskOp task : tasks.getBody().getOps<AsyncTaskOp>()) {
    if (task.getIsDefault()) {
      defaultTask = task;
      continue;
    }
    others.push_back(task);
    int32_t numWarps = task.getNumWarps().value_or(0);
    for (int32_t replica = 0; replica < task.getReplicate(); ++replica) {
      partitions.push_back({task, replica});
      partitionWarps.push_back(numWarps);
    }
  }
}

bool TaskSet::hasRegisterBudgets() {
  bool anyRegisters = defaultTask.getRegisters().has_value() ||
                      llvm::any_of(others, [](AsyncTaskOp task) {
                        return task.getRegisters().has_value();
                      });
  return anyRegisters && !partitions.empty();
}

/// Whether `region` may call the driver's assert or print: stock
/// allocate-warp-groups gives such a partition at least 32 registers (an
/// NVIDIA driver bug).
bool usesAssertOrPrint(Region &region) {
  return region
      .walk([](Operation *op) {
        return isa<triton::AssertOp, triton::PrintOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// A warp group of the partitions, as stock allocate-warp-groups forms them
/// (Triton 3.6, lib/Conversion/TritonGPUToLLVM/AllocateWarpGroups.cpp): it
/// pads the partitions to whole warp groups with empty ones (powers of 2,
/// largest first) that ask for 16 registers, places all of them largest
/// first from the kernel's warps on (equal sizes in order), and a partition
/// that starts on a multiple of 4 warps opens a warp group. `setmaxnreg`
/// sets a whole warp group: each runs at the largest budget of its
/// partitions.
struct WarpGroup {
  /// Indices into TaskSet::partitions; padding has none.
  SmallVector<int32_t> members;
  int32_t warps = 0;
  int32_t registers = 0;
};

constexpr int32_t kPaddingRegisters = 16;
constexpr int32_t kAssertOrPrintRegisters = 32;

SmallVector<WarpGroup> formWarpGroups(TaskSet &set,
                                      ArrayRef<int32_t> requested) {
  struct Slot {
    int32_t partition; // -1: padding
    int32_t warps;
    int32_t registers;
  };
  SmallVector<Slot> slots;
  for (auto [index, partition] : llvm::enumerate(set.partitions)) {
    int32_t registers = requested[index];
    if (usesAssertOrPrint(partition.task.getBody()))
      registers = std::max(registers, kAssertOrPrintRegisters);
    slots.push_back(
        {static_cast<int32_t>(index), set.partitionWarps[index], registers});
  }
  int32_t padding = set.op.getIdleWarps();
  while (padding > 0) {
    int32_t size = llvm::NextPowerOf2(padding) / 2;
    slots.push_back({-1, size, kPaddingRegisters});
    padding -= size;
  }
  llvm::stable_sort(slots, [](const Slot &lhs, const Slot &rhs) {
    return lhs.warps > rhs.warps;
  });
  SmallVector<WarpGroup> groups;
  int32_t start = set.baseWarps;
  for (const Slot &slot : slots) {
    if (start % kWarpsPerGroup == 0 || groups.empty())
      groups.emplace_back();
    WarpGroup &group = groups.back();
    if (slot.partition >= 0)
      group.members.push_back(slot.partition);
    group.warps += slot.warps;
    group.registers =
        std::max(group.registers,
                 static_cast<int32_t>(llvm::divideCeil(slot.registers, 8) * 8));
    start += slot.warps;
  }
  return groups;
}

/// Register budgets: each warp group holds the largest budget of its
/// partitions; the default task gets what is left (or what it asked for,
/// when that fits).
struct RegisterBudgets {
  /// Registers per thread each partition asks for.
  SmallVector<int32_t> requested;
  /// Registers per thread each partition runs with: its warp group's.
  SmallVector<int32_t> granted;
  /// Registers per thread times warps, over all warp groups of partitions.
  int64_t partitionRegisters = 0;
  /// Registers per thread at launch (`ttg.maxnreg`).
  int32_t launchCap = 0;
  /// What the default task would keep if every warp launched with an equal
  /// share.
  int32_t defaultAtEqualShare = 0;
  bool fits = false;
};

RegisterBudgets computeRegisterBudgets(TaskSet &set) {
  int32_t totalWarps = set.getTotalWarps();
  int32_t uniform =
      roundDown8(kRegistersPerSM / (totalWarps * kThreadsPerWarp));
  RegisterBudgets budgets;
  for (Partition &partition : set.partitions)
    budgets.requested.push_back(
        partition.task.getRegisters().value_or(uniform));
  budgets.granted.assign(budgets.requested.size(), 0);
  for (const WarpGroup &group : formWarpGroups(set, budgets.requested)) {
    budgets.partitionRegisters += int64_t(group.registers) * group.warps;
    for (int32_t member : group.members)
      budgets.granted[member] = group.registers;
  }
  // With `entry` registers per thread at launch, the default task gets
  // (entry * totalWarps - partitionRegisters) / baseWarps.
  auto defaultGets = [&](int64_t entry) {
    return roundDown8((entry * totalWarps - budgets.partitionRegisters) /
                      set.baseWarps);
  };
  std::optional<uint32_t> asked = set.defaultTask.getRegisters();
  int32_t wanted = asked.value_or(
      std::min<int32_t>(kMaxTaskRegisters, defaultGets(uniform)));
  int32_t entry = roundDown8(
      (int64_t(wanted) * set.baseWarps + budgets.partitionRegisters) /
      totalWarps);
  while (entry + 8 <= uniform && defaultGets(entry + 8) <= wanted)
    entry += 8;
  // A step of the launch cap moves the default task by about 8 * totalWarps /
  // baseWarps registers: where no cap lands on what it asks for, the next cap
  // up gives it more rather than less.
  if (asked && defaultGets(entry) < wanted)
    entry += 8;
  int32_t available = defaultGets(std::min(entry, uniform));
  int32_t minimum = usesAssertOrPrint(set.defaultTask.getBody())
                        ? kAssertOrPrintRegisters
                        : kMinTaskRegisters;
  budgets.launchCap = entry;
  budgets.defaultAtEqualShare = defaultGets(uniform);
  budgets.fits = entry <= uniform && available >= minimum &&
                 available <= kMaxTaskRegisters &&
                 !(asked && available < wanted);
  return budgets;
}

//===----------------------------------------------------------------------===//
// Captures
//===----------------------------------------------------------------------===//

/// The values from above every partition takes as block arguments: what the
/// tasks use from above once recomputeValuesFromAbove has run.
SetVector<Value> collectCaptures(ArrayRef<AsyncTaskOp> tasks) {
  SetVector<Value> captures;
  for (AsyncTaskOp task : tasks)
    getUsedValuesDefinedAbove(task.getBody(), captures);
  return captures;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// The first op of `region` with a tensor result laid out over other than
/// `numWarps` warps, and that tensor's type.
std::pair<Operation *, Type> findMisfitTensor(Region &region,
                                              unsigned numWarps) {
  std::pair<Operation *, Type> found;
  region.walk([&](Operation *op) {
    for (Type type : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !tensor.getEncoding())
        continue;
      std::optional<int64_t> warps = getLayoutWarps(tensor.getEncoding());
      if (warps && *warps != numWarps) {
        found = {op, type};
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return found;
}

/// The default task runs on the kernel's warps; a task's tensors are laid
/// out over its own warps (tlx-fit-task-layouts); a CTA holds at most 32
/// warps.
LogicalResult verifyTaskWarps(TaskSet &set) {
  if (std::optional<uint32_t> numWarps = set.defaultTask.getNumWarps())
    if (*numWarps != static_cast<uint32_t>(set.baseWarps))
      return set.defaultTask.emitOpError(
                 "the default task runs on the kernel's ")
             << set.baseWarps << " warps, not num_warps=" << *numWarps
             << "; launch the kernel with num_warps=" << *numWarps
             << " or drop num_warps here";
  // Stock Triton places the tasks' warps after whole warp groups of the
  // kernel's (its ttg.warp_specialize verifier).
  if (!set.partitions.empty() && set.baseWarps % kWarpsPerGroup != 0)
    return set.op.emitOpError("warp specialization needs the kernel's "
                              "num_warps to be a multiple of 4 (whole warp "
                              "groups for the default task), got ")
           << set.baseWarps;
  for (AsyncTaskOp task : set.others) {
    int32_t numWarps = *task.getNumWarps();
    if (auto [op, type] = findMisfitTensor(task.getBody(), numWarps); op)
      return op->emitOpError("holds a ")
             << type << " laid out over other than the " << numWarps
             << " warps of its async task (run tlx-fit-task-layouts first)";
  }
  int32_t totalWarps = set.getTotalWarps();
  if (totalWarps > kMaxWarpsPerCTA)
    return set.op.emitOpError("the tasks need ")
           << totalWarps << " warps in all (" << set.baseWarps
           << " for the default task, " << set.extraWarps
           << " for the others, rounded up to whole warp groups); a CTA has "
              "at most "
           << kMaxWarpsPerCTA;
  return success();
}

/// The launch cap is one number for the whole kernel: stock
/// allocate-warp-groups reads it back to give each default task its share.
LogicalResult recordLaunchCap(TaskSet &set, int32_t launchCap) {
  auto module = set.op->getParentOfType<ModuleOp>();
  if (auto earlier = module->getAttrOfType<IntegerAttr>("ttg.maxnreg");
      earlier && earlier.getInt() != launchCap)
    return set.op.emitOpError("needs a launch cap of ")
           << launchCap << " registers per thread where an earlier "
           << "tlx.async_tasks of this kernel needs " << earlier.getInt()
           << "; give the register-budgeted async_tasks of one kernel the "
              "same warps and budgets";
  module->setAttr(
      "ttg.maxnreg",
      IntegerAttr::get(IntegerType::get(module.getContext(), 32), launchCap));
  return success();
}

/// A task whose replicas share a warp group with a larger budget runs with
/// that budget (as stock Triton and the public TLX do), and one that may
/// call assert or print with at least 32: say so at the task.
void warnAboutRaisedBudgets(TaskSet &set, const RegisterBudgets &budgets) {
  DenseSet<Operation *> warned;
  for (auto [partition, requested, granted] :
       llvm::zip(set.partitions, budgets.requested, budgets.granted)) {
    AsyncTaskOp task = partition.task;
    if (!task.getRegisters() || granted <= int32_t(*task.getRegisters()) ||
        !warned.insert(task).second)
      continue;
    InFlightDiagnostic warning = task.emitWarning("runs with ")
                                 << granted << " registers per thread, not the "
                                 << requested << " it asks for: ";
    if (granted == kAssertOrPrintRegisters &&
        usesAssertOrPrint(task.getBody())) {
      warning << "it may call the driver's assert or print, and Triton gives "
                 "such code at least "
              << kAssertOrPrintRegisters
              << " (the work-around of an NVIDIA driver bug)";
      continue;
    }
    warning << "its " << *task.getNumWarps()
            << (*task.getNumWarps() == 1 ? " warp shares" : " warps share")
            << " a warp group with tasks of a larger budget, and setmaxnreg "
               "sets a whole warp group, to the largest budget in it; give "
               "the tasks of a warp group equal budgets";
  }
}

/// Budgets are set per warp group and must leave the default task enough;
/// every budgeted task set of a kernel launches with the same warps. Sets
/// `fits` to whether the budgets apply: budgets that do not fit are dropped
/// with a warning, as the public TLX drops them (no setmaxnreg at all).
LogicalResult verifyRegisterBudgets(TaskSet &set, int32_t kernelWarps,
                                    bool &fits) {
  int32_t totalWarps = set.getTotalWarps();
  if (kernelWarps != totalWarps)
    return set.op.emitOpError("register budgets need every tlx.async_tasks "
                              "of the kernel to use the same number of "
                              "warps: this one uses ")
           << totalWarps << ", another " << kernelWarps;
  RegisterBudgets budgets = computeRegisterBudgets(set);
  fits = budgets.fits;
  std::optional<uint32_t> asked = set.defaultTask.getRegisters();
  if (!fits) {
    set.op.emitWarning("register budgets do not fit: the tasks ask for ")
        << budgets.partitionRegisters * kThreadsPerWarp
        << " registers and leave the default task "
        << std::max(0, budgets.defaultAtEqualShare) << " per thread"
        << (asked ? " (it asks for " + std::to_string(*asked) + ")"
                  : std::string())
        << "; an SM has " << kRegistersPerSM << " for all of its "
        << totalWarps * kThreadsPerWarp
        << " threads. Compiled without register budgets (no setmaxnreg), as "
           "the public TLX does";
    return success();
  }
  warnAboutRaisedBudgets(set, budgets);
  return recordLaunchCap(set, budgets.launchCap);
}

} // namespace

LogicalResult mlir::tlx::planWarpSpecialization(ModuleOp module) {
  SmallVector<TaskSet> taskSets;
  module.walk<WalkOrder::PreOrder>(
      [&](AsyncTasksOp tasks) { taskSets.emplace_back(tasks); });
  // Each kernel module's warps once warp-specialized: stock Triton gives
  // every ttg.warp_specialize the most extra warp groups any of them needs.
  DenseMap<Operation *, int32_t> kernelWarps;
  for (TaskSet &set : taskSets) {
    int32_t &warps = kernelWarps[set.op->getParentOfType<ModuleOp>()];
    warps = std::max(warps, set.getTotalWarps());
  }
  for (TaskSet &set : taskSets) {
    if (failed(verifyTaskWarps(set)))
      return failure();
    bool fits = true;
    if (set.hasRegisterBudgets() &&
        failed(verifyRegisterBudgets(
            set, kernelWarps.lookup(set.op->getParentOfType<ModuleOp>()),
            fits)))
      return failure();
    if (!fits)
      set.op->setAttr(kWithoutBudgets, UnitAttr::get(set.op.getContext()));
    for (AsyncTaskOp task : set.others)
      if (failed(recomputeValuesFromAbove(task)))
        return failure();
  }
  return success();
}

namespace {

/// Clones, at the start of a task, the tensors and constants it uses from
/// above, operands first.
class Recomputer {
public:
  explicit Recomputer(AsyncTaskOp task)
      : task(task),
        builder(&task.getBody().front(), task.getBody().front().begin()) {}

  LogicalResult run() {
    SmallVector<OpOperand *> fromAbove;
    task.getBody().walk([&](Operation *op) {
      for (OpOperand &operand : op->getOpOperands())
        if (isFromAbove(operand.get()) && mustRecompute(operand.get()))
          fromAbove.push_back(&operand);
    });
    for (OpOperand *operand : fromAbove) {
      FailureOr<Value> local = recompute(operand->get(), operand->getOwner());
      if (failed(local))
        return failure();
      operand->set(*local);
    }
    return success();
  }

private:
  bool isFromAbove(Value value) {
    return !task.getBody().isAncestor(value.getParentRegion());
  }

  static bool mustRecompute(Value value) {
    if (isa<RankedTensorType>(value.getType()))
      return true;
    Operation *def = value.getDefiningOp();
    return def && def->hasTrait<OpTrait::ConstantLike>();
  }

  FailureOr<Value> recompute(Value value, Operation *user) {
    if (Value known = mapping.lookupOrNull(value))
      return known;
    Operation *def = value.getDefiningOp();
    if (!def || def->getNumRegions() != 0 || !isMemoryEffectFree(def)) {
      InFlightDiagnostic diag =
          user->emitOpError("uses a tensor computed outside its async task by "
                            "an op the task cannot recompute; a task runs on "
                            "other warps, with registers of its own: compute "
                            "the tensor inside the task, or pass it through a "
                            "tlx.local_alloc buffer");
      diag.attachNote(value.getLoc()) << "the tensor is computed here";
      return diag;
    }
    for (Value operand : def->getOperands())
      if (isFromAbove(operand) && mustRecompute(operand) &&
          failed(recompute(operand, user)))
        return failure();
    Operation *copy = builder.clone(*def, mapping);
    return copy->getResult(cast<OpResult>(value).getResultNumber());
  }

  AsyncTaskOp task;
  OpBuilder builder;
  IRMapping mapping;
};

} // namespace

LogicalResult mlir::tlx::recomputeValuesFromAbove(AsyncTaskOp task) {
  return Recomputer(task).run();
}

//===----------------------------------------------------------------------===//
// The pattern
//===----------------------------------------------------------------------===//

namespace {

/// Replaces every tlx.async_task_replica_id in `region` by `replica`.
void replaceReplicaIds(ConversionPatternRewriter &rewriter, Region &region,
                       int32_t replica) {
  SmallVector<AsyncTaskReplicaIdOp> ids;
  region.walk([&](AsyncTaskReplicaIdOp id) { ids.push_back(id); });
  for (AsyncTaskReplicaIdOp id : ids) {
    rewriter.setInsertionPoint(id);
    rewriter.replaceOpWithNewOp<arith::ConstantIntOp>(id, replica, 32);
  }
}

struct AsyncTasksOpConversion : OpConversionPattern<AsyncTasksOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncTasksOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    TaskSet set(op);
    // With only the default task there is nothing to specialize (and
    // ttg.warp_specialize needs a partition): its body runs in place.
    if (set.partitions.empty()) {
      replaceReplicaIds(rewriter, set.defaultTask.getBody(), /*replica=*/0);
      rewriter.inlineBlockBefore(&set.defaultTask.getBody().front(), op);
      rewriter.eraseOp(op);
      return success();
    }
    DenseI32ArrayAttr requestedRegisters;
    if (set.hasRegisterBudgets() && !op->hasAttr(kWithoutBudgets))
      requestedRegisters =
          rewriter.getDenseI32ArrayAttr(computeRegisterBudgets(set).requested);
    SetVector<Value> captures = collectCaptures(set.others);
    auto ws = ttg::WarpSpecializeOp::create(
        rewriter, op.getLoc(), TypeRange(), captures.getArrayRef(),
        set.partitionWarps, /*warpGroupStartIds=*/DenseI32ArrayAttr(),
        requestedRegisters, /*actualRegisters=*/DenseI32ArrayAttr());
    moveDefaultTask(rewriter, set.defaultTask, ws);
    buildPartitions(rewriter, set, captures, ws);
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// The default region runs on the kernel's warps and may use values from
  /// above as they are: the task's body moves there.
  static void moveDefaultTask(ConversionPatternRewriter &rewriter,
                              AsyncTaskOp task, ttg::WarpSpecializeOp ws) {
    Region &region = ws.getDefaultRegion();
    rewriter.inlineRegionBefore(task.getBody(), region, region.end());
    replaceReplicaIds(rewriter, region, /*replica=*/0);
    rewriter.setInsertionPointToEnd(&region.front());
    ttg::WarpYieldOp::create(rewriter, ws.getLoc(), ValueRange());
  }

  /// Each partition gets a copy of its task's body, with the captures as
  /// block arguments.
  static void buildPartitions(ConversionPatternRewriter &rewriter, TaskSet &set,
                              const SetVector<Value> &captures,
                              ttg::WarpSpecializeOp ws) {
    rewriter.createBlock(&ws.getPartitionOpHolder());
    auto partitionsOp = ttg::WarpSpecializePartitionsOp::create(
        rewriter, ws.getLoc(), set.partitions.size());
    SmallVector<Type> types;
    SmallVector<Location> locs;
    for (Value value : captures) {
      types.push_back(value.getType());
      locs.push_back(value.getLoc());
    }
    for (auto [region, partition] :
         llvm::zip(partitionsOp.getPartitionRegions(), set.partitions)) {
      Block *entry = rewriter.createBlock(&region, region.end(), types, locs);
      IRMapping mapping;
      mapping.map(captures.getArrayRef(), entry->getArguments());
      for (Operation &op : partition.task.getBody().front())
        rewriter.clone(op, mapping);
      replaceReplicaIds(rewriter, region, partition.replica);
      rewriter.setInsertionPointToEnd(entry);
      ttg::WarpReturnOp::create(rewriter, partition.task.getLoc());
    }
  }
};

} // namespace

void mlir::tlx::populateWarpSpecializationToTritonGPUPatterns(
    RewritePatternSet &patterns) {
  patterns.add<AsyncTasksOpConversion>(patterns.getContext());
}
