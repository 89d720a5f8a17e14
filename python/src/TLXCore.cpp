//===- TLXCore.cpp - the C interface of the TLX compiler core -------------===//

#include "TLXCore.h"

#include "tlx/Dialect/TLX/IR/OpContracts.h"
#include "tlx/Dialect/TLX/Transforms/Passes.h"
#include "tlx/InitAll.h"
#include "tlx/Support/InputLimits.h"
#include "tlx/Support/InputRespelling.h"
#include "tlx/Support/OutOfResources.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace mlir;

namespace {

struct DiagnosticRecord {
  std::string severity;
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string message;
  std::optional<tlx::OutOfResources> outOfResources;
};

} // namespace

struct TlxResult {
  bool succeeded = false;
  std::string stage;
  std::string output;
  std::vector<DiagnosticRecord> diagnostics;
};

namespace {

const char *getSeverityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

/// The innermost file position of a location: a Python line behind a
/// NameLoc, the caller of a CallSiteLoc, the first file in a FusedLoc.
std::optional<FileLineColLoc> findFileLocation(Location loc) {
  std::optional<FileLineColLoc> found;
  loc->walk([&](Location inner) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(inner)) {
      found = fileLoc;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// The op name in `"dialect.op"(` just before `column` of `line` (1-based),
/// or "" when the text there is not a generic op name.
std::string findGenericOpNameBefore(llvm::StringRef source, unsigned line,
                                    unsigned column) {
  for (unsigned current = 1; current < line; ++current) {
    size_t newline = source.find('\n');
    if (newline == llvm::StringRef::npos)
      return "";
    source = source.drop_front(newline + 1);
  }
  llvm::StringRef head = source.take_front(column > 0 ? column - 1 : 0);
  if (!head.consume_back("\""))
    return "";
  size_t open = head.rfind('"');
  if (open == llvm::StringRef::npos)
    return "";
  return head.drop_front(open + 1).str();
}

void record(TlxResult &result, Diagnostic &diag, llvm::StringRef source) {
  DiagnosticRecord entry;
  entry.severity = getSeverityName(diag.getSeverity());
  if (std::optional<FileLineColLoc> fileLoc =
          findFileLocation(diag.getLocation())) {
    entry.file = fileLoc->getFilename().str();
    entry.line = fileLoc->getLine();
    entry.column = fileLoc->getColumn();
  }
  entry.message = diag.str();
  // MLIR does not say which operation it could not find; name it, since
  // "not defined in the TLX world yet" is the usual reason.
  if (llvm::StringRef(entry.message)
          .starts_with("operation being parsed with an unregistered dialect")) {
    std::string name =
        findGenericOpNameBefore(source, entry.line, entry.column);
    if (!name.empty())
      entry.message = "unknown operation '" + name + "': its dialect '" +
                      llvm::StringRef(name).split('.').first.str() +
                      "' is not registered in TLX";
  }
  entry.outOfResources = tlx::findOutOfResources(diag);
  result.diagnostics.push_back(std::move(entry));
  for (Diagnostic &note : diag.getNotes())
    record(result, note, source);
}

void run(TlxResult &result, llvm::StringRef ir, llvm::StringRef pipeline,
         llvm::StringRef sourceName, bool printDebugInfo) {
  if (std::optional<tlx::RefusedInput> refused = tlx::findRefusedInput(ir)) {
    result.stage = "parse";
    result.diagnostics.push_back({"error", sourceName.str(), refused->line,
                                  refused->column, refused->message});
    return;
  }
  tlx::registerAllPasses();
  DialectRegistry registry;
  tlx::registerAllDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    record(result, diag, ir);
    return success();
  });

  std::optional<std::string> respelled = tlx::respellForParsing(ir);
  if (respelled)
    ir = *respelled;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(ir, sourceName), llvm::SMLoc());
  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module) {
    result.stage = "parse";
    return;
  }

  std::string pipelineErrors;
  llvm::raw_string_ostream pipelineErrorStream(pipelineErrors);
  PassManager pm(&context);
  llvm::StringRef text = pipeline.trim();
  // Accept both an anchored `builtin.module(...)` pipeline and a bare list.
  LogicalResult parsed =
      text.starts_with("builtin.module(") ? [&]() -> LogicalResult {
    FailureOr<OpPassManager> anchored =
        parsePassPipeline(text, pipelineErrorStream);
    if (failed(anchored))
      return failure();
    static_cast<OpPassManager &>(pm) = std::move(*anchored);
    return success();
  }()
      : parsePassPipeline(text, pm, pipelineErrorStream);
  if (failed(parsed)) {
    result.stage = "pipeline";
    DiagnosticRecord entry;
    entry.severity = "error";
    entry.message = "invalid pass pipeline '" + text.str() +
                    "': " + llvm::StringRef(pipelineErrors).trim().str();
    result.diagnostics.push_back(std::move(entry));
    return;
  }
  if (failed(pm.run(*module))) {
    result.stage = "pass";
    return;
  }

  llvm::raw_string_ostream os(result.output);
  OpPrintingFlags flags;
  // Name SSA values after their source variables, as Triton prints them.
  flags.printNameLocAsPrefix(true);
  if (printDebugInfo)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  module->print(os, flags);
  result.succeeded = true;
}

} // namespace

extern "C" TlxResult *tlxRunPipeline(const char *ir, size_t irLength,
                                     const char *pipeline,
                                     const char *sourceName,
                                     int printDebugInfo) {
  auto *result = new TlxResult();
  llvm::StringRef irText(ir ? ir : "", ir ? irLength : 0);
  llvm::StringRef pipelineText(pipeline ? pipeline : "");
  llvm::StringRef name(sourceName && *sourceName ? sourceName : "<ir>");

  // A failed assertion or a fault inside MLIR must not take the user's Python
  // process with it: report it as an internal error instead.
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  bool completed = recovery.RunSafely(
      [&] { run(*result, irText, pipelineText, name, printDebugInfo != 0); });
  llvm::CrashRecoveryContext::Disable();
  if (!completed) {
    result->succeeded = false;
    result->output.clear();
    result->stage = "internal";
    DiagnosticRecord entry;
    entry.severity = "error";
    entry.message = "internal compiler error (signal " +
                    std::to_string(recovery.RetCode) +
                    ") while running the TLX pipeline; please report it "
                    "with the IR that caused it";
    result->diagnostics.push_back(std::move(entry));
  }
  return result;
}

extern "C" int tlxResultSucceeded(const TlxResult *result) {
  return result->succeeded ? 1 : 0;
}

extern "C" const char *tlxResultStage(const TlxResult *result) {
  return result->stage.c_str();
}

extern "C" const char *tlxResultOutput(const TlxResult *result,
                                       size_t *length) {
  if (length)
    *length = result->output.size();
  return result->output.c_str();
}

extern "C" size_t tlxResultNumDiagnostics(const TlxResult *result) {
  return result->diagnostics.size();
}

extern "C" void tlxResultGetDiagnostic(const TlxResult *result, size_t index,
                                       const char **severity, const char **file,
                                       unsigned *line, unsigned *column,
                                       const char **message) {
  static const DiagnosticRecord outOfRange{"error", "", 0, 0,
                                           "no such diagnostic"};
  const DiagnosticRecord &entry = index < result->diagnostics.size()
                                      ? result->diagnostics[index]
                                      : outOfRange;
  *severity = entry.severity.c_str();
  *file = entry.file.c_str();
  *line = entry.line;
  *column = entry.column;
  *message = entry.message.c_str();
}

extern "C" int tlxResultGetOutOfResources(const TlxResult *result, size_t index,
                                          const char **resource,
                                          long long *required,
                                          long long *limit) {
  if (index >= result->diagnostics.size())
    return 0;
  const std::optional<tlx::OutOfResources> &mark =
      result->diagnostics[index].outOfResources;
  if (!mark)
    return 0;
  *resource = mark->resource.c_str();
  *required = mark->required;
  *limit = mark->limit;
  return 1;
}

extern "C" void tlxResultDestroy(TlxResult *result) { delete result; }

extern "C" const char *tlxVersion(void) {
  return mlir::tlx::getVersionString();
}

extern "C" const char *tlxOpContracts(void) {
  return mlir::tlx::getOpContractsJSON().data();
}

extern "C" long long tlxSharedMemoryLimit(const char *target) {
  return mlir::tlx::getSharedMemoryLimit(target ? target : "").value_or(-1);
}
