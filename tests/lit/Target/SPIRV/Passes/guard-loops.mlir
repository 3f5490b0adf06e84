// tilec-spirv-guard-loops alone: a loop with results whose bounds do not
// prove that it runs goes in an scf.if whose else branch yields the initial
// values; a loop with constant bounds that runs, and a loop without
// results, stay as they are.
// RUN: tile-opt --tilec-spirv-guard-loops %s | FileCheck %s

module {
  gpu.module @kernels {
    gpu.func @loops(%in: memref<64xf32>, %out: memref<64xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %one = arith.constant 1.0 : f32
      %p = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %one) -> (f32) {
        %x = memref.load %in[%i] : memref<64xf32>
        %y = arith.mulf %acc, %x : f32
        scf.yield %y : f32
      }
      %q = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %p) -> (f32) {
        %y = arith.mulf %acc, %acc : f32
        scf.yield %y : f32
      }
      scf.for %i = %c0 to %n step %c1 {
        memref.store %q, %out[%i] : memref<64xf32>
      }
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @loops
// CHECK: %[[ONE:.*]] = arith.constant 1.0
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %c0, %arg2 : index
// CHECK: %[[P:.*]] = scf.if %[[RUNS]] -> (f32) {
// CHECK-NEXT: %[[LOOP:.*]] = scf.for
// CHECK: scf.yield %[[LOOP]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ONE]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args(%{{.*}} = %[[P]]) -> (f32) {
// CHECK-NOT: scf.if
// CHECK: gpu.return
