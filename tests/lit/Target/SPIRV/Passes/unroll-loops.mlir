// tilec-spirv-unroll-loops alone: a loop marked tile.unroll with constant
// bounds becomes its iterations, in order, each with its induction variable
// a constant and the previous iteration's results as its arguments; the
// mark is gone. An unmarked loop stays a loop.
// RUN: tile-opt --tilec-spirv-unroll-loops %s | FileCheck %s

module {
  gpu.module @kernels {
    gpu.func @loops(%in: memref<64xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c6 = arith.constant 6 : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %k = %c0 to %c6 step %c2 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %in[%k] : memref<64xf32>
        %y = math.fma %x, %x, %acc : f32
        scf.yield %y : f32
      } {tile.unroll}
      scf.for %i = %c0 to %c2 step %c1 {
        memref.store %sum, %out[%i] : memref<64xf32>
      }
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @loops
// CHECK-NOT: tile.unroll
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK-NOT: scf.for
// CHECK: %[[X0:.*]] = memref.load %arg0[%c0] : memref<64xf32>
// CHECK-NEXT: %[[Y0:.*]] = math.fma %[[X0]], %[[X0]], %[[ZERO]] : f32
// CHECK: %[[X1:.*]] = memref.load %arg0[%{{.*}}] : memref<64xf32>
// CHECK-NEXT: %[[Y1:.*]] = math.fma %[[X1]], %[[X1]], %[[Y0]] : f32
// CHECK: %[[X2:.*]] = memref.load %arg0[%{{.*}}] : memref<64xf32>
// CHECK-NEXT: %[[Y2:.*]] = math.fma %[[X2]], %[[X2]], %[[Y1]] : f32
// CHECK-NOT: math.fma
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK-NEXT: memref.store %[[Y2]], %arg1
// CHECK-NOT: tile.unroll
