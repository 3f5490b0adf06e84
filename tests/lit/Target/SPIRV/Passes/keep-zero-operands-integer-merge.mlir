// tilec-spirv-keep-zero-operands-exact on a kernel that computes with floats
// only through fma (a contraction without an epilogue): nothing to rewrite,
// and no CSE; the integer arithmetic computed twice is merged instead, where
// the first op dominates the second (before it in its block, or in a block
// around it), and only between ops that compute the same: the same
// operands, constants and properties. Loads are not merged.
// RUN: tile-opt --tilec-spirv-keep-zero-operands-exact %s | FileCheck %s

module {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @contraction
    gpu.func @contraction(%a: memref<64xf32>, %out: memref<64xf32>) kernel {
      // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
      // CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
      // CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
      // CHECK: %[[TX:.*]] = gpu.thread_id x
      // CHECK-NEXT: %[[I:.*]] = arith.muli %[[TX]], %[[C4]] : index
      // CHECK-NEXT: %[[K:.*]] = arith.muli %[[TX]], %[[C8]] : index
      // CHECK-NEXT: %[[NSW:.*]] = arith.muli %[[TX]], %[[C4]] overflow<nsw> : index
      // CHECK-NEXT: %[[X:.*]] = memref.load %{{.*}}[%[[I]]]
      // CHECK-NEXT: %[[Y:.*]] = memref.load %{{.*}}[%[[I]]]
      // CHECK-NEXT: %[[F:.*]] = math.fma %[[X]], %[[Y]], %[[X]] : f32
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %tx = gpu.thread_id x
      %i = arith.muli %tx, %c4 : index
      %j = arith.muli %tx, %c4 : index
      %k = arith.muli %tx, %c8 : index
      %nsw = arith.muli %tx, %c4 overflow<nsw> : index
      %x = memref.load %a[%i] : memref<64xf32>
      %y = memref.load %a[%j] : memref<64xf32>
      %f = math.fma %x, %y, %x : f32
      // CHECK: scf.if
      // CHECK-NEXT: %[[N:.*]] = arith.addi %[[K]], %[[C4]] : index
      // CHECK-NEXT: memref.store %[[F]], %{{.*}}[%[[I]]]
      // CHECK-NEXT: memref.store %[[F]], %{{.*}}[%[[N]]]
      // CHECK: } else {
      // CHECK-NEXT: %[[N2:.*]] = arith.addi %[[K]], %[[C4]] : index
      // CHECK-NEXT: memref.store %[[F]], %{{.*}}[%[[N2]]]
      %inside = arith.cmpi ult, %tx, %c8 : index
      scf.if %inside {
        %m = arith.muli %tx, %c4 : index
        %n = arith.addi %k, %c4 : index
        memref.store %f, %out[%m] : memref<64xf32>
        memref.store %f, %out[%n] : memref<64xf32>
      } else {
        %n2 = arith.addi %k, %c4 : index
        memref.store %f, %out[%n2] : memref<64xf32>
      }
      // CHECK: scf.for
      // CHECK-NEXT: %[[P:.*]] = arith.addi %[[TX]], %[[C8]] : index
      // CHECK-NEXT: memref.store %[[F]], %{{.*}}[%[[P]]]
      // CHECK: }
      // CHECK-NEXT: %[[Q:.*]] = arith.addi %[[TX]], %[[C8]] : index
      // CHECK-NEXT: memref.store %[[F]], %{{.*}}[%[[Q]]]
      // CHECK-NEXT: memref.store %[[F]], %{{.*}}[%[[NSW]]]
      scf.for %t = %c0 to %c4 step %c4 {
        %p = arith.addi %tx, %c8 : index
        memref.store %f, %out[%p] : memref<64xf32>
      }
      %q = arith.addi %tx, %c8 : index
      memref.store %f, %out[%q] : memref<64xf32>
      memref.store %f, %out[%nsw] : memref<64xf32>
      gpu.return
    }
  }
}
