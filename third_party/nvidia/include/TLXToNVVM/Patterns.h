//===- Patterns.h - TLX -> NVVM conversion patterns -------------*- C++ -*-===//
//
// One populate function per op family, driven by tlx-lower-to-nvvm.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_TLXTONVVM_PATTERNS_H
#define TLX_TLXTONVVM_PATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::tlx {

/// Operand-less inline PTX that nothing moves across (`asm sideeffect`).
void createSideEffectingPtx(OpBuilder &builder, Location loc, StringRef ptx);

/// cluster_cta_rank, fence_mbarrier_init_cluster -> NVVM (%cluster_ctarank,
/// fence.mbarrier_init).
void populateClusterOpToNVVMPatterns(RewritePatternSet &patterns);

/// stoch_round -> cvt.rs.satfinite, as elementwise inline PTX.
void populateConvertOpToNVVMPatterns(RewritePatternSet &patterns);

/// fence("gpu" | "sys") -> fence.acq_rel.gpu / .sys (inline PTX).
void populateFenceOpToNVVMPatterns(RewritePatternSet &patterns);

/// named_barrier_wait, named_barrier_arrive -> nvvm.barrier (and a marker
/// for the stage hook), nvvm.barrier.arrive.
void populateNamedBarrierOpToNVVMPatterns(RewritePatternSet &patterns);

/// thread_id, clock64 -> NVVM special register reads.
void populateSpecialRegisterOpToNVVMPatterns(RewritePatternSet &patterns);

} // namespace mlir::tlx

#endif // TLX_TLXTONVVM_PATTERNS_H
