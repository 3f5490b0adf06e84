// tilec-spirv-start-loops-at-zero alone: a loop whose lower bound may be
// negative runs from 0 to upper - lower with its step, and the body reads
// lower + t where it read the induction variable (NVIDIA's Vulkan driver
// dropped iterations of loops that start below zero); loops from a constant
// of at least zero stay as they are.
// RUN: tile-opt --tilec-spirv-start-loops-at-zero %s | FileCheck %s

module {
  gpu.module @kernels {
    gpu.func @loops(%in: memref<64xi32>, %out: memref<64xi32>, %j: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c5 = arith.constant 5 : index
      %cm1 = arith.constant -1 : index
      %zero = arith.constant 0 : i32
      %lower = arith.subi %cm1, %j : index
      %upper = arith.subi %c5, %j : index
      %sum = scf.for %k = %lower to %upper step %c2 iter_args(%acc = %zero) -> (i32) {
        %row = arith.addi %k, %j : index
        %x = memref.load %in[%row] : memref<64xi32>
        %y = arith.addi %acc, %x : i32
        scf.yield %y : i32
      }
      scf.for %i = %c1 to %c5 step %c1 {
        memref.store %sum, %out[%i] : memref<64xi32>
      }
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @loops
// CHECK:      %[[LOWER:.*]] = arith.subi %c-1, %arg2 : index
// CHECK-NEXT: %[[UPPER:.*]] = arith.subi %c5, %arg2 : index
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[COUNT:.*]] = arith.subi %[[UPPER]], %[[LOWER]] : index
// CHECK-NEXT: scf.for %[[T:.*]] = %[[ZERO]] to %[[COUNT]] step %c2 iter_args
// CHECK-NEXT:   %[[K:.*]] = arith.addi %[[T]], %[[LOWER]] : index
// CHECK-NEXT:   arith.addi %[[K]], %arg2 : index
// CHECK:      scf.for %{{.*}} = %c1 to %c5 step %c1 {
