//===- PhaseParity.h - mbarrier phases through loops ------------*- C++ -*-===//
//
// Part of tlx-check-protocol: replays the kernel's loops on concrete
// iteration numbers and checks that each task's waits on an mbarrier flip
// their phase parity every time the barrier completes again.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_DIALECT_TLX_TRANSFORMS_PHASEPARITY_H
#define TLX_DIALECT_TLX_TRANSFORMS_PHASEPARITY_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir::tlx {

/// Reports, at the wait, a task's two successive waits on one mbarrier with
/// the same phase parity while the barrier completes once per wait (an
/// error when every trip count is static, else a warning: the replay then
/// assumed trip counts). Fails when it reported an error.
LogicalResult checkPhaseParity(Operation *root);

} // namespace mlir::tlx

#endif // TLX_DIALECT_TLX_TRANSFORMS_PHASEPARITY_H
