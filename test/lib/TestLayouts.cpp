//===- TestLayouts.cpp - exercise the ttg layout helpers ------------------===//
//
// test-ttg-layout-defaults: for every op carrying
//   test.default_blocked_for = array<i64: shape...>
// sets test.default_blocked to getDefaultBlockedEncoding (with the module's
// ttg.num-warps / ttg.threads-per-warp); for every op carrying
//   test.nvmma_for = array<i64: shape...>, test.bits = N [, test.transposed]
//   [, test.fp4_padded]
// sets test.nvmma to getDefaultNVMMASharedEncoding; and checks that every
// tt.expand_dims of a sliced tensor has the encoding
// inferExpandDimsEncoding predicts.
//
//===----------------------------------------------------------------------===//

#include "tlx/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::triton::gpu;

namespace {

unsigned getModuleInt(ModuleOp module, StringRef name, unsigned fallback) {
  if (auto value = module->getAttrOfType<IntegerAttr>(name))
    return value.getInt();
  return fallback;
}

struct TestLayoutDefaultsPass
    : PassWrapper<TestLayoutDefaultsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestLayoutDefaultsPass)

  StringRef getArgument() const final { return "test-ttg-layout-defaults"; }
  StringRef getDescription() const final {
    return "Annotate ops with the default ttg layouts the helpers choose";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    unsigned numWarps = getModuleInt(module, "ttg.num-warps", 4);
    unsigned threadsPerWarp = getModuleInt(module, "ttg.threads-per-warp", 32);
    bool failed = false;
    module.walk([&](Operation *op) {
      if (auto shape =
              op->getAttrOfType<DenseI64ArrayAttr>("test.default_blocked_for"))
        op->setAttr("test.default_blocked",
                    getDefaultBlockedEncoding(context, shape.asArrayRef(),
                                              numWarps, threadsPerWarp));
      if (auto shape = op->getAttrOfType<DenseI64ArrayAttr>("test.nvmma_for")) {
        auto bits = op->getAttrOfType<IntegerAttr>("test.bits");
        if (!bits) {
          op->emitOpError("test.nvmma_for needs test.bits");
          failed = true;
          return;
        }
        op->setAttr("test.nvmma",
                    getDefaultNVMMASharedEncoding(
                        context, shape.asArrayRef(), bits.getInt(),
                        op->hasAttr("test.transposed"),
                        op->hasAttr("test.fp4_padded")));
      }
      if (op->getName().getStringRef() != "tt.expand_dims")
        return;
      auto source = cast<RankedTensorType>(op->getOperand(0).getType());
      auto result = cast<RankedTensorType>(op->getResult(0).getType());
      auto axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
      FailureOr<Attribute> inferred =
          inferExpandDimsEncoding(source.getEncoding(), axis);
      if (succeeded(inferred) && *inferred != result.getEncoding()) {
        op->emitOpError("expand_dims result encoding ")
            << result.getEncoding() << " differs from the inferred "
            << *inferred;
        failed = true;
      }
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace

namespace mlir::tlx::test {
void registerTestLayoutPasses() { PassRegistration<TestLayoutDefaultsPass>(); }
} // namespace mlir::tlx::test
