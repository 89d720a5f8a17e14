//===- Passes.h - TLX dialect passes ----------------------------*- C++ -*-===//

#ifndef TLX_DIALECT_TLX_TRANSFORMS_PASSES_H
#define TLX_DIALECT_TLX_TRANSFORMS_PASSES_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"

namespace mlir::tlx {

/// The shared memory one CTA may use on `target` ("cuda:<capability>"), in
/// bytes; nullopt for a target TLX does not know. tlx-check-shared-memory and
/// the Python compiler (after Triton's own allocation) check against it.
std::optional<int64_t> getSharedMemoryLimit(llvm::StringRef target);

/// CTAs per cluster of a module: the product of its `ttg.cluster-dim-x/y/z`
/// attributes (the `ctas_per_cga` launch option; 1 where absent).
int64_t getClusterSize(ModuleOp module);

#define GEN_PASS_DECL
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"

} // namespace mlir::tlx

#endif // TLX_DIALECT_TLX_TRANSFORMS_PASSES_H
