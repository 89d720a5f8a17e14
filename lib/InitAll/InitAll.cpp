//===- InitAll.cpp - every dialect and pass TLX tools know ----------------===//

#include "tlx/InitAll.h"

#include "TLXToNVVM/Passes.h"
#include "tlx/Conversion/TLXToTritonGPU/Passes.h"
#include "tlx/Dialect/NVGPU/IR/Dialect.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"
#include "tlx/Dialect/TLX/Transforms/Passes.h"
#include "tlx/Dialect/Triton/IR/Dialect.h"
#include "tlx/Dialect/TritonGPU/IR/Dialect.h"
#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/InlinerInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <mutex>

void mlir::tlx::registerAllDialects(DialectRegistry &registry) {
  registry.insert<
      TLXDialect, triton::TritonDialect, triton::gpu::TritonGPUDialect,
      triton::nvidia_gpu::TritonNvidiaGPUDialect, triton::nvgpu::NVGPUDialect,
      arith::ArithDialect, cf::ControlFlowDialect, func::FuncDialect,
      gpu::GPUDialect, LLVM::LLVMDialect, math::MathDialect, NVVM::NVVMDialect,
      scf::SCFDialect, ub::UBDialect>();
  // Interfaces the dialects promise but implement out of line: without them
  // the inliner aborts on the first func.call or llvm.call.
  func::registerInlinerExtension(registry);
  LLVM::registerInlinerInterface(registry);
  NVVM::registerInlinerInterface(registry);
}

void mlir::tlx::registerAllPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerTransformsPasses();
    registerTLXPasses();
    registerTLXToTritonGPUPasses();
    registerTLXToNVVMPasses();
  });
}

const char *mlir::tlx::getVersionString() { return TLX_VERSION; }
