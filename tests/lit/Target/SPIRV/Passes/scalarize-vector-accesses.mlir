// tilec-spirv-scalarize-vector-accesses alone: a vector load becomes one
// scalar load per element inserted into a vector, a vector store one scalar
// store per element, and a stored vector.from_elements stores its scalars.
// The rows of a work-group array (rank 2, from tilec-spirv-vector-buffers)
// stay whole vectors.
// RUN: tile-opt --tilec-spirv-scalarize-vector-accesses %s | FileCheck %s

module {
  gpu.module @kernels {
    gpu.func @copy(%in: memref<64xf32>, %out: memref<64xf32>, %a: f32, %b: f32) kernel {
      %i = gpu.thread_id x
      %v = vector.load %in[%i] : memref<64xf32>, vector<2xf32>
      vector.store %v, %out[%i] : memref<64xf32>, vector<2xf32>
      %w = vector.from_elements %a, %b : vector<2xf32>
      vector.store %w, %out[%i] : memref<64xf32>, vector<2xf32>
      %rows = memref.alloc() : memref<32x2xf32, 3>
      %c0 = arith.constant 0 : index
      vector.store %v, %rows[%i, %c0] : memref<32x2xf32, 3>, vector<2xf32>
      %r = vector.load %rows[%i, %c0] : memref<32x2xf32, 3>, vector<2xf32>
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @copy
// CHECK: %[[I:.*]] = gpu.thread_id x
// CHECK: %[[X0:.*]] = memref.load %arg0[%[[I]]] : memref<64xf32>
// CHECK: %[[V0:.*]] = vector.insert %[[X0]], %{{.*}} [0]
// CHECK: %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[X1:.*]] = memref.load %arg0[%[[I1]]] : memref<64xf32>
// CHECK: %[[V:.*]] = vector.insert %[[X1]], %[[V0]] [1]
// CHECK: %[[Y0:.*]] = vector.extract %[[V]][0]
// CHECK: memref.store %[[Y0]], %arg1[%[[I]]]
// CHECK: %[[Y1:.*]] = vector.extract %[[V]][1]
// CHECK: memref.store %[[Y1]], %arg1[%{{.*}}]
// CHECK: memref.store %arg2, %arg1[%[[I]]]
// CHECK: memref.store %arg3, %arg1[%{{.*}}]
// CHECK: vector.store %[[V]], %{{.*}}[%[[I]], %{{.*}}] : memref<32x2xf32, 3>, vector<2xf32>
// CHECK: vector.load %{{.*}}[%[[I]], %{{.*}}] : memref<32x2xf32, 3>, vector<2xf32>
// CHECK-NOT: vector.load
// CHECK-NOT: vector.store
// CHECK-NOT: vector.from_elements
// CHECK: gpu.return
