//===- Passes.td - TLX dialect passes ----------------------*- tablegen -*-===//

#ifndef TLX_TRANSFORMS_PASSES_TD
#define TLX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLXCheckStaticBounds : Pass<"tlx-check-static-bounds"> {
  let summary = "Reject constant buffer indices and mbarrier phases that "
                "cannot be valid";
  let description = [{
    A kernel that selects buffer 3 of three, or waits on mbarrier phase 2,
    reads or waits on memory it does not own; on the GPU that is a silent
    corruption or a hang. When the index or phase is a compile-time constant
    this pass reports it at the operation's location (the user's Python line
    once TLX kernels carry locations), naming the value and the valid range.
  }];
  let dependentDialects = ["::mlir::tlx::TLXDialect"];
}

#endif // TLX_TRANSFORMS_PASSES_TD
