//===- LowerToNVVM.cpp - the tlx-lower-to-nvvm pass -----------------------===//

#include "TLXToNVVM/Passes.h"
#include "TLXToNVVM/Patterns.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXLOWERTONVVM
#include "TLXToNVVM/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

struct LowerToNVVMPass : tlx::impl::TLXLowerToNVVMBase<LowerToNVVMPass> {
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    populateClusterOpToNVVMPatterns(set);
    populateConvertOpToNVVMPatterns(set);
    populateFenceOpToNVVMPatterns(set);
    populateNamedBarrierOpToNVVMPatterns(set);
    populateSpecialRegisterOpToNVVMPatterns(set);
    loweredOps.clear();
    for (const std::unique_ptr<RewritePattern> &pattern :
         set.getNativePatterns())
      if (std::optional<OperationName> root = pattern->getRootKind())
        loweredOps.push_back(*root);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    // Only the ops this pass has patterns for are illegal: the other TLX
    // ops are tlx-lower-to-ttg's.
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    for (OperationName name : loweredOps)
      target.setOpAction(name, ConversionTarget::LegalizationAction::Illegal);
    if (failed(applyPartialConversion(getOperation(), target, patterns)))
      signalPassFailure();
  }

  SmallVector<OperationName> loweredOps;
  FrozenRewritePatternSet patterns;
};

} // namespace
