//===- tlx-test-opt.cpp - tlx-opt with the test passes --------------------===//
//
// Every dialect and pass of tlx-opt, plus the test-* passes that exercise C++
// helpers from lit and pytest (test/lib). Not shipped: the production tools
// must not offer passes that exist only for tests.
//
//===----------------------------------------------------------------------===//

#include "tlx/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::tlx::test {
void registerTestLayoutPasses();
} // namespace mlir::tlx::test

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tlx::registerAllDialects(registry);
  mlir::tlx::registerAllPasses();
  mlir::tlx::test::registerTestLayoutPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "TLX optimizer driver with test passes\n", registry));
}
