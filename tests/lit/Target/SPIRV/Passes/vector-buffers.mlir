// tilec-spirv-vector-buffers alone: a buffer accessed only through vectors
// of one width becomes an array of those vectors, indexed by %i / W; a
// stored vector.from_elements becomes insertions into a zero vector. A
// work-group array accessed both ways becomes its rows of W (@stage): a
// vector access at %i the row %i / W, a scalar one the element
// [%i / W, %i mod W]; an index that is a sum of multiples of W (%t * 4 + 8)
// is divided term by term (%t + 2, column 0), and a quotient or remainder
// made for an access is taken again by the later accesses that it dominates
// (the load of %j). A kernel argument accessed both ways, or a buffer
// accessed through two widths, keeps its scalars.
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

    gpu.func @stage(%in: memref<64xf32>, %out: memref<64xf32>, %a: f32) kernel {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %c17 = arith.constant 17 : index
      %i = arith.muli %t, %c4 : index
      %tile = memref.alloc() : memref<64xf32, 3>
      %v = vector.load %in[%i] : memref<64xf32>, vector<4xf32>
      %e = vector.extract %v[2] : f32 from vector<4xf32>
      %j = arith.addi %i, %c17 : index
      memref.store %e, %tile[%j] : memref<64xf32, 3>
      %c8 = arith.constant 8 : index
      %k = arith.addi %i, %c8 : index
      memref.store %e, %tile[%k] : memref<64xf32, 3>
      %w = vector.from_elements %a, %a, %a, %a : vector<4xf32>
      vector.store %w, %tile[%i] : memref<64xf32, 3>, vector<4xf32>
      %r = vector.load %tile[%i] : memref<64xf32, 3>, vector<4xf32>
      %x = memref.load %tile[%j] : memref<64xf32, 3>
      %s = vector.extract %r[0] : f32 from vector<4xf32>
      %y = arith.addf %s, %x : f32
      memref.store %y, %out[%i] : memref<64xf32>
      gpu.return
    }

    gpu.func @loop(%in: memref<64xf32>, %out: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      scf.for %t = %c0 to %c16 step %c1 {
        %i = arith.muli %t, %c4 : index
        %v = vector.load %in[%i] : memref<64xf32>, vector<4xf32>
        vector.store %v, %out[%i] : memref<64xf32>, vector<4xf32>
        %w = vector.load %in[%i] : memref<64xf32>, vector<4xf32>
        vector.store %w, %out[%i] : memref<64xf32>, vector<4xf32>
      }
      gpu.return
    }

    gpu.func @halves(%in: memref<64xf16>, %out: memref<64xf16>) kernel {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 : index
      %v = vector.load %in[%i] : memref<64xf16>, vector<4xf16>
      vector.store %v, %out[%i] : memref<64xf16>, vector<4xf16>
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

// CHECK-LABEL: gpu.func @stage
// CHECK-SAME: (%[[IN:.*]]: memref<16xvector<4xf32>>, %[[OUT:.*]]: memref<64xf32>,
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[I:.*]] = arith.muli %[[T]], %{{.*}} : index
// CHECK: %[[TILE:.*]] = memref.alloc() : memref<16x4xf32, 3>
// CHECK-NOT: arith.muli
// CHECK: memref.load %[[IN]][%[[T]]] : memref<16xvector<4xf32>>
// CHECK: %[[J:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[SR:.*]] = arith.divui %[[J]], %[[C4:.*]] : index
// CHECK: %[[SC:.*]] = arith.remui %[[J]], %{{.*}} : index
// CHECK: memref.store %{{.*}}, %[[TILE]][%[[SR]], %[[SC]]] : memref<16x4xf32, 3>
// CHECK: %[[KR:.*]] = arith.addi %[[T]], %[[C2:.*]] : index
// CHECK: %[[K0:.*]] = arith.constant 0 : index
// CHECK: memref.store %{{.*}}, %[[TILE]][%[[KR]], %[[K0]]] : memref<16x4xf32, 3>
// CHECK: vector.insert
// CHECK: %[[W:.*]] = vector.insert %arg2, %{{.*}} [3] : f32 into vector<4xf32>
// CHECK-NEXT: vector.store %[[W]], %[[TILE]][%[[T]], %[[K0]]] : memref<16x4xf32, 3>, vector<4xf32>
// CHECK-NEXT: vector.load %[[TILE]][%[[T]], %[[K0]]] : memref<16x4xf32, 3>, vector<4xf32>
// CHECK-NEXT: memref.load %[[TILE]][%[[SR]], %[[SC]]] : memref<16x4xf32, 3>
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[I]]] : memref<64xf32>

// The quotient of a product of the loop's counter by the width is the
// counter itself, which every access of the loop's body takes.
// CHECK-LABEL: gpu.func @loop
// CHECK: scf.for %[[LT:.*]] = 
// CHECK-NEXT: arith.muli
// CHECK-NEXT: %[[LV:.*]] = memref.load %{{.*}}[%[[LT]]] : memref<16xvector<4xf32>>
// CHECK-NEXT: memref.store %[[LV]], %{{.*}}[%[[LT]]] : memref<16xvector<4xf32>>
// CHECK-NEXT: %[[LW:.*]] = memref.load %{{.*}}[%[[LT]]] : memref<16xvector<4xf32>>
// CHECK-NEXT: memref.store %[[LW]], %{{.*}}[%[[LT]]] : memref<16xvector<4xf32>>

// f16 buffers too, as the per-element schedule's f16 vectors need.
// CHECK-LABEL: gpu.func @halves
// CHECK-SAME: (%[[HIN:.*]]: memref<16xvector<4xf16>>, %[[HOUT:.*]]: memref<16xvector<4xf16>>)
// CHECK: %[[HV:.*]] = memref.load %[[HIN]][%{{.*}}] : memref<16xvector<4xf16>>
// CHECK: memref.store %[[HV]], %[[HOUT]][%{{.*}}] : memref<16xvector<4xf16>>
