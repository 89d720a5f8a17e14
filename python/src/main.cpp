//===- main.cpp - the tlx._C Python extension -----------------------------===//
//
// Thin pybind11 layer (built with RTTI and exceptions) over the C interface
// of the compiler core in TLXCore.h.
//
//===----------------------------------------------------------------------===//

#include "TLXCore.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

namespace py = pybind11;

namespace {

using ResultPtr = std::unique_ptr<TlxResult, decltype(&tlxResultDestroy)>;

/// The Python exception type raised on failure (created at module init).
PyObject *pipelineErrorType = nullptr;

std::string formatDiagnostic(const std::string &severity,
                             const std::string &file, unsigned line,
                             unsigned column, const std::string &message) {
  std::string text;
  if (!file.empty())
    text =
        file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
  return text + severity + ": " + message;
}

/// Every diagnostic of `result` as (severity, file, line, column, message).
py::list getDiagnostics(const TlxResult &result) {
  py::list diagnostics;
  size_t count = tlxResultNumDiagnostics(&result);
  for (size_t i = 0; i < count; ++i) {
    const char *severity, *file, *message;
    unsigned line, column;
    tlxResultGetDiagnostic(&result, i, &severity, &file, &line, &column,
                           &message);
    diagnostics.append(py::make_tuple(severity, file, line, column, message));
  }
  return diagnostics;
}

[[noreturn]] void raisePipelineError(const TlxResult &result) {
  py::list diagnostics = getDiagnostics(result);
  std::string stage = tlxResultStage(&result);
  std::string text = "TLX pipeline failed (" + stage + ")";
  for (py::handle entry : diagnostics) {
    auto tuple = entry.cast<py::tuple>();
    text += "\n" + formatDiagnostic(
                       tuple[0].cast<std::string>(),
                       tuple[1].cast<std::string>(), tuple[2].cast<unsigned>(),
                       tuple[3].cast<unsigned>(), tuple[4].cast<std::string>());
  }
  py::object error =
      py::reinterpret_borrow<py::object>(pipelineErrorType)(text);
  py::list outOfResources;
  for (size_t i = 0, e = tlxResultNumDiagnostics(&result); i < e; ++i) {
    const char *resource;
    long long required, limit;
    if (tlxResultGetOutOfResources(&result, i, &resource, &required, &limit))
      outOfResources.append(py::make_tuple(resource, required, limit));
  }
  error.attr("stage") = stage;
  error.attr("diagnostics") = diagnostics;
  error.attr("out_of_resources") = outOfResources;
  PyErr_SetObject(pipelineErrorType, error.ptr());
  throw py::error_already_set();
}

py::str runPipeline(const std::string &ir, const std::string &pipeline,
                    const std::string &sourceName, bool debugInfo,
                    const py::object &onDiagnostic) {
  ResultPtr result(nullptr, &tlxResultDestroy);
  {
    py::gil_scoped_release release;
    result.reset(tlxRunPipeline(ir.data(), ir.size(), pipeline.c_str(),
                                sourceName.c_str(), debugInfo ? 1 : 0));
  }
  if (!tlxResultSucceeded(result.get()))
    raisePipelineError(*result);
  if (!onDiagnostic.is_none())
    for (py::handle entry : getDiagnostics(*result)) {
      std::string severity = entry.cast<py::tuple>()[0].cast<std::string>();
      if (severity == "warning" || severity == "remark")
        onDiagnostic(entry);
    }
  size_t length = 0;
  const char *output = tlxResultOutput(result.get(), &length);
  return py::str(output, length);
}

} // namespace

PYBIND11_MODULE(_C, m) {
  m.doc() = "TLX compiler core: MLIR 22.1.8 with the TLX dialect and passes";

  pipelineErrorType = PyErr_NewExceptionWithDoc(
      "tlx._C.PipelineError",
      "A TLX pipeline failed. `stage` says where (parse, pipeline, pass or "
      "internal); `diagnostics` lists (severity, file, line, column, "
      "message) tuples in emission order; `out_of_resources` lists "
      "(resource, required, limit) for each error that says the kernel needs "
      "more of a CTA's memory than there is.",
      PyExc_RuntimeError, nullptr);
  m.attr("PipelineError") =
      py::reinterpret_borrow<py::object>(pipelineErrorType);

  m.def("run_pipeline", &runPipeline, py::arg("ir_text"), py::arg("pipeline"),
        py::kw_only(), py::arg("source_name") = "<ir>",
        py::arg("debug_info") = false, py::arg("on_diagnostic") = py::none(),
        R"doc(Parse `ir_text`, run the textual pass `pipeline`, return the
printed module. `pipeline` is either anchored (`builtin.module(...)`) or a
bare pass list (`canonicalize,cse`). Raises PipelineError carrying every
diagnostic with its line and column; bad input never ends the process. On
success `on_diagnostic`, when given, is called with each warning's and
remark's (severity, file, line, column, message).)doc");
  m.def(
      "version", [] { return std::string(tlxVersion()); },
      "The TLX version compiled into this extension.");
  m.def(
      "shared_memory_limit",
      [](const std::string &target) -> py::object {
        long long limit = tlxSharedMemoryLimit(target.c_str());
        if (limit < 0)
          return py::none();
        return py::int_(limit);
      },
      "The shared memory one CTA may use on `target` (\"cuda:90\"), in "
      "bytes; None for a target TLX does not know.");
  m.def(
      "op_contracts", [] { return std::string(tlxOpContracts()); },
      "The op contract table (JSON, generated from TLXOps.td): each TLX "
      "op's operands, attributes, results and regions, as carriers carry "
      "them.");
}
