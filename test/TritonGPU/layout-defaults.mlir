// The layout helpers through their test pass (their oracle tests against stock
// Triton and Gluon are in python/test/test_layout_defaults.py).
// REQUIRES: tlx-test-opt
// RUN: tlx-test-opt %s --test-ttg-layout-defaults | FileCheck %s
// Test passes are not part of the production driver:
// RUN: not tlx-opt %s --test-ttg-layout-defaults 2>&1 | FileCheck %s --check-prefix=PRODUCTION
// PRODUCTION: Unknown command line argument '--test-ttg-layout-defaults'

// CHECK-DAG: #[[B1:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]}>
// CHECK-DAG: #[[B2:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-DAG: #[[N1:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[N2:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[N3:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, rank = 1}>
module attributes {"ttg.num-warps" = 8 : i32} {
  // CHECK: @wide() attributes {test.default_blocked = #[[B1]]
  tt.func private @wide() attributes {test.default_blocked_for = array<i64: 64, 256>} {
    tt.return
  }
  // CHECK: @narrow() attributes {test.default_blocked = #[[B2]]
  tt.func private @narrow() attributes {test.default_blocked_for = array<i64: 128, 4>} {
    tt.return
  }
  // CHECK: @tile() attributes {test.bits = 16 : i32, test.nvmma = #[[N1]]
  tt.func private @tile() attributes {test.nvmma_for = array<i64: 128, 64>, test.bits = 16 : i32} {
    tt.return
  }
  // CHECK: @fp8_tile() attributes {test.bits = 8 : i32, test.nvmma = #[[N2]]
  tt.func private @fp8_tile() attributes {test.nvmma_for = array<i64: 64, 64>, test.bits = 8 : i32} {
    tt.return
  }
  // CHECK: @vector() attributes {test.bits = 16 : i32, test.nvmma = #[[N3]]
  tt.func private @vector() attributes {test.nvmma_for = array<i64: 256>, test.bits = 16 : i32} {
    tt.return
  }
}
