// tilec-spirv-vector-buffers alone: a buffer accessed only through vectors
// of one width becomes an array of those vectors, indexed by %i / W; a
// stored vector.from_elements becomes insertions into a zero vector. A
// buffer accessed both ways, or through two widths, keeps its scalars.
// RUN: tile-opt --tilec-spirv-vector-buffers %s | FileCheck %s

module {
  gpu.module @kernels {
    gpu.func @copy(%in: memref<64xf32>, %out: memref<64xf32>,
                   %mixed: memref<64xf32>, %a: f32, %b: f32) kernel {
      %i = gpu.thread_id x
      %tile = memref.alloc() : memref<64xf32, 3>
      %widths = memref.alloc() : memref<64xf32, 3>
      %v = vector.load %in[%i] : memref<64xf32>, vector<4xf32>
      vector.store %v, %tile[%i] : memref<64xf32, 3>, vector<4xf32>
      %t = vector.load %tile[%i] : memref<64xf32, 3>, vector<4xf32>
      %w = vector.from_elements %a, %b : vector<2xf32>
      vector.store %w, %out[%i] : memref<64xf32>, vector<2xf32>
      %x = memref.load %mixed[%i] : memref<64xf32>
      vector.store %w, %mixed[%i] : memref<64xf32>, vector<2xf32>
      vector.store %w, %widths[%i] : memref<64xf32, 3>, vector<2xf32>
      %y = vector.load %widths[%i] : memref<64xf32, 3>, vector<4xf32>
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @copy
// CHECK-SAME: (%[[IN:.*]]: memref<16xvector<4xf32>>, %[[OUT:.*]]: memref<32xvector<2xf32>>, %[[MIXED:.*]]: memref<64xf32>,
// CHECK: %[[I:.*]] = gpu.thread_id x
// CHECK: %[[TILE:.*]] = memref.alloc() : memref<16xvector<4xf32>, 3>
// CHECK: %[[WIDTHS:.*]] = memref.alloc() : memref<64xf32, 3>
// CHECK: %[[I4:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK: %[[V:.*]] = memref.load %[[IN]][%[[I4]]] : memref<16xvector<4xf32>>
// CHECK: memref.store %[[V]], %[[TILE]][%{{.*}}] : memref<16xvector<4xf32>, 3>
// CHECK: memref.load %[[TILE]][%{{.*}}] : memref<16xvector<4xf32>, 3>
// CHECK: %[[W:.*]] = vector.from_elements
// CHECK: %[[W0:.*]] = vector.insert %arg3, %{{.*}} [0] : f32 into vector<2xf32>
// CHECK: %[[W1:.*]] = vector.insert %arg4, %[[W0]] [1] : f32 into vector<2xf32>
// CHECK: %[[I2:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK: memref.store %[[W1]], %[[OUT]][%[[I2]]] : memref<32xvector<2xf32>>
// CHECK: memref.load %[[MIXED]][%[[I]]] : memref<64xf32>
// CHECK: vector.store %[[W]], %[[MIXED]][%[[I]]] : memref<64xf32>, vector<2xf32>
// CHECK: vector.store %[[W]], %[[WIDTHS]][%[[I]]] : memref<64xf32, 3>, vector<2xf32>
// CHECK: vector.load %[[WIDTHS]][%[[I]]] : memref<64xf32, 3>, vector<4xf32>
