//===- tlx-opt.cpp - the TLX optimizer driver -----------------------------===//
//
// mlir-opt over every dialect and pass TLX knows: reproduces any step of a
// TLX compile from a dumped IR file.
//
//===----------------------------------------------------------------------===//

#include "tlx/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "TLX version " << mlir::tlx::getVersionString() << "\n";
  });
  mlir::DialectRegistry registry;
  mlir::tlx::registerAllDialects(registry);
  mlir::tlx::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "TLX optimizer driver (MLIR 22.1.8)\n", registry));
}
