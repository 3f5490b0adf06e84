// tilec-spirv-unroll-loops alone: a loop marked tile.unroll with constant
// bounds becomes its iterations, in order, each with its induction variable
// a constant and the previous iteration's results as its arguments; the
// mark is gone. An unmarked loop stays a loop. A loop marked
// tile.unroll_factor = N runs N iterations per trip, the trips that N does
// not divide in a loop after it; the remainder of the unrolled loop's
// induction variable (plus a constant) by a divisor of its lower bound and
// step is a constant.
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
    gpu.func @one_trip(%in: memref<64xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %s = scf.for %k = %c0 to %c1 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %in[%k] : memref<64xf32>
        %y = math.fma %x, %x, %acc : f32
        scf.yield %y : f32
      } {tile.unroll}
      memref.store %s, %out[%c0] : memref<64xf32>
      gpu.return
    }
    gpu.func @pairs(%in: memref<64xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.0 : f32
      %n = gpu.block_id x
      %c2 = arith.constant 2 : index
      %sum = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
        %p = arith.remui %t, %c2 : index
        %i = arith.muli %p, %c32 : index
        %j = arith.addi %i, %c5 : index
        %x = memref.load %in[%j] : memref<64xf32>
        %y = arith.addf %x, %acc : f32
        scf.yield %y : f32
      } {tile.unroll_factor = 2 : i64}
      memref.store %sum, %out[%c0] : memref<64xf32>
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

// A marked loop of one trip becomes its body too.
// CHECK-LABEL: gpu.func @one_trip
// CHECK-NOT: scf.for
// CHECK: math.fma
// CHECK-NOT: scf.for
// CHECK: gpu.return

// The folded addresses are constants where the fold left them, in the loop
// (the preparation's loop-invariant code motion hoists them).
// CHECK-LABEL: gpu.func @pairs
// CHECK: %[[N:.*]] = gpu.block_id x
// CHECK: %[[ODD:.*]] = arith.remsi %[[N]], %{{.*}} : index
// CHECK: %[[PAIRS_END:.*]] = arith.subi %[[N]], %[[ODD]] : index
// CHECK: %[[PAIRS:.*]] = scf.for %{{.*}} = %{{.*}} to %[[PAIRS_END]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT: %[[X0:.*]] = memref.load %arg0[%[[C5]]] : memref<64xf32>
// CHECK-NEXT: %[[Y0:.*]] = arith.addf %[[X0]], %[[ACC]] : f32
// CHECK-NEXT: %[[C37:.*]] = arith.constant 37 : index
// CHECK-NEXT: %[[X1:.*]] = memref.load %arg0[%[[C37]]] : memref<64xf32>
// CHECK-NEXT: %[[Y1:.*]] = arith.addf %[[X1]], %[[Y0]] : f32
// CHECK-NEXT: scf.yield %[[Y1]] : f32
// CHECK-NEXT: }
// The trip left over keeps its remainder.
// CHECK-NEXT: scf.for %[[T:.*]] = %[[PAIRS_END]] to %[[N]] step %c1 iter_args(%{{.*}} = %[[PAIRS]]) -> (f32) {
// CHECK-NEXT: arith.remui %[[T]], %{{c2(_[0-9]+)?}} : index
// CHECK-NOT: tile.unroll
