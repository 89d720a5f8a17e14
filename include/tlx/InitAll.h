//===- InitAll.h - every dialect and pass TLX tools know --------*- C++ -*-===//
//
// One list, shared by tlx-opt and the Python bridge, so that a module that
// parses in one parses in the other.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_INITALL_H
#define TLX_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tlx {

/// Adds the TLX dialect and the upstream dialects found in Triton IR.
void registerAllDialects(DialectRegistry &registry);

/// Registers TLX passes (the production ones: test passes live in
/// tlx-test-opt) and the upstream passes TLX pipelines use. Safe to call
/// more than once.
void registerAllPasses();

/// The TLX version string, also part of the Triton cache key of TLX kernels.
const char *getVersionString();

} // namespace mlir::tlx

#endif // TLX_INITALL_H
