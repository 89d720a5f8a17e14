//===- TLXDialect.td - TLX dialect definition --------------*- tablegen -*-===//
//
// The TLX dialect holds the explicit-control operations of TLX kernels
// (buffers, mbarriers, asynchronous copies and MMA, warp specialization)
// between the moment they are raised from their carriers and the moment they
// are lowered to TritonGPU and NVVM.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_DIALECT_TD
#define TLX_DIALECT_TD

include "mlir/IR/OpBase.td"

def TLX_Dialect : Dialect {
  let name = "tlx";
  let cppNamespace = "::mlir::tlx";
  let summary = "Triton Low-level Language Extensions";
  let description = [{
    Operations that give a Triton kernel explicit control over where tiles
    live (shared or tensor memory), how warp groups synchronize (mbarriers,
    named barriers) and which asynchronous engines move and multiply data.
    Values of TLX types are handles: a `!tlx.buffers` names N equally shaped
    buffers, a `!tlx.mbarriers` names N mbarriers in shared memory.
  }];
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = ["arith::ArithDialect", "triton::TritonDialect"];
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

class TLX_Op<string mnemonic, list<Trait> traits = []>
    : Op<TLX_Dialect, mnemonic, traits>;

// What an op needs from the threads of its task (tlx-check-divergent-sync).
// Every thread of its warp group executes it together: its instruction is
// `.sync.aligned` (wgmma, tcgen05, barrier.cluster, setmaxnreg).
def TLX_WarpGroupAligned : NativeOpTrait<"WarpGroupAligned"> {
  let cppNamespace = "::mlir::tlx";
}
// It touches shared memory or an mbarrier: Triton's membar may put a
// task-wide `bar.sync` before it, which every thread of the task must reach.
def TLX_TaskSynchronized : NativeOpTrait<"TaskSynchronized"> {
  let cppNamespace = "::mlir::tlx";
}

#endif // TLX_DIALECT_TD
