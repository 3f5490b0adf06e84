// tilec-spirv-keep-infinity-operands-exact alone: a max with -inf and a min
// with +inf (either operand, scalar or vector) become a select on the other
// operand being NaN, which MLIR's folder does not turn into that operand; a
// max with +inf and a max of two values stay.
// RUN: tile-opt --tilec-spirv-keep-infinity-operands-exact %s | FileCheck %s
// The full preparation folds (and merges the two compares): the selects
// survive it.
// RUN: tile-opt --tilec-spirv-prepare %s | FileCheck %s --check-prefix=PREPARED

module {
  gpu.module @kernels {
    gpu.func @bounds(%x: f32, %y: f32, %v: vector<4xf32>, %out: memref<8xf32>,
                     %vout: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %lowest = arith.constant 0xFF800000 : f32
      %highest = arith.constant 0x7F800000 : f32
      %lowestV = arith.constant dense<0xFF800000> : vector<4xf32>
      %max = arith.maxnumf %lowest, %x : f32
      %min = arith.minnumf %x, %highest : f32
      %maxOfHighest = arith.maxnumf %x, %highest : f32
      %pair = arith.maxnumf %x, %y : f32
      %maxV = arith.maxnumf %v, %lowestV : vector<4xf32>
      memref.store %max, %out[%c0] : memref<8xf32>
      memref.store %min, %out[%c1] : memref<8xf32>
      memref.store %maxOfHighest, %out[%c2] : memref<8xf32>
      memref.store %pair, %out[%c3] : memref<8xf32>
      vector.store %maxV, %vout[%c4] : memref<8xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @bounds(
// CHECK-SAME: %[[X:[a-z0-9]+]]: f32, %[[Y:[a-z0-9]+]]: f32, %[[V:[a-z0-9]+]]: vector<4xf32>
// CHECK-DAG: %[[LOWEST:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[HIGHEST:.*]] = arith.constant 0x7F800000 : f32
// CHECK-DAG: %[[LOWESTV:.*]] = arith.constant dense<0xFF800000> : vector<4xf32>
// CHECK: %[[XNAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: %[[MAX:.*]] = arith.select %[[XNAN]], %[[LOWEST]], %[[X]] : f32
// CHECK: %[[XNAN2:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: %[[MIN:.*]] = arith.select %[[XNAN2]], %[[HIGHEST]], %[[X]] : f32
// CHECK: %[[MAXOFHIGHEST:.*]] = arith.maxnumf %[[X]], %[[HIGHEST]] : f32
// CHECK: %[[PAIR:.*]] = arith.maxnumf %[[X]], %[[Y]] : f32
// CHECK: %[[VNAN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : vector<4xf32>
// CHECK: %[[MAXV:.*]] = arith.select %[[VNAN]], %[[LOWESTV]], %[[V]] : vector<4xi1>, vector<4xf32>
// CHECK: memref.store %[[MAX]], %{{.*}}[%{{.*}}]
// CHECK: memref.store %[[MIN]], %{{.*}}[%{{.*}}]
// CHECK: memref.store %[[MAXOFHIGHEST]], %{{.*}}[%{{.*}}]
// CHECK: memref.store %[[PAIR]], %{{.*}}[%{{.*}}]
// CHECK-NOT: arith.maxnumf
// CHECK-NOT: arith.minnumf

// PREPARED-LABEL: gpu.func @bounds(
// PREPARED: %[[XNAN:.*]] = arith.cmpf uno, %arg0, %arg0 : f32
// PREPARED: arith.select %[[XNAN]], %{{.*}}, %arg0 : f32
// PREPARED: arith.select %[[XNAN]], %{{.*}}, %arg0 : f32
// PREPARED: %[[VNAN:.*]] = arith.cmpf uno, %arg2, %arg2 : vector<4xf32>
// PREPARED: arith.select %[[VNAN]], %{{.*}}, %arg2 : vector<4xi1>, vector<4xf32>
