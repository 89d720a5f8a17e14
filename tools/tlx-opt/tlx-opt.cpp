//===- tlx-opt.cpp - the TLX optimizer driver -----------------------------===//
//
// mlir-opt over every dialect and pass TLX knows: reproduces any step of a
// TLX compile from a dumped IR file.
//
//===----------------------------------------------------------------------===//

#include "tlx/InitAll.h"
#include "tlx/Support/InputLimits.h"
#include "tlx/Support/InputRespelling.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// mlir-opt's main, with the input read once (stdin included), refused first
/// where MLIR's parser would overflow its stack or abort (InputLimits.h), and
/// respelled where it cannot read it back or would abort on it
/// (InputRespelling.h).
static LogicalResult runOptMain(int argc, char **argv,
                                DialectRegistry &registry) {
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "TLX optimizer driver (MLIR 22.1.8)\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return MlirOptMain(argc, argv, inputFilename, outputFilename, registry);
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  if (std::optional<tlx::RefusedInput> refused = tlx::findRefusedInput(
          input->getBuffer(), config.shouldAllowUnregisteredDialects())) {
    llvm::errs() << inputFilename << ":" << refused->line << ":"
                 << refused->column << ": error: " << refused->message << "\n";
    return failure();
  }
  if (std::optional<std::string> respelled =
          tlx::respellForParsing(input->getBuffer()))
    input = llvm::MemoryBuffer::getMemBufferCopy(*respelled,
                                                 input->getBufferIdentifier());
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return failure();
  output->keep();
  return success();
}

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "TLX version " << tlx::getVersionString() << "\n";
  });
  DialectRegistry registry;
  tlx::registerAllDialects(registry);
  tlx::registerAllPasses();
  return asMainReturnCode(runOptMain(argc, argv, registry));
}
