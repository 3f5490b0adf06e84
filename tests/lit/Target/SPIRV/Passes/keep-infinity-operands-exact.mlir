// tilec-spirv-keep-infinity-operands-exact alone: every max and min (scalar
// or vector) takes each operand's NaN case out before the maxnumf or
// minnumf, isnan(x) ? y : (isnan(y) ? x : maxnumf(x, y)), so that MLIR 19's
// folder, which folds maxnumf(x, -inf) and minnumf(x, +inf) to x and
// maxnumf(NaN, 3.0) to NaN, never decides what a NaN operand gives.
// RUN: tile-opt --tilec-spirv-keep-infinity-operands-exact %s | FileCheck %s
// The full preparation folds (and merges the two compares): the selects
// survive it.
// RUN: tile-opt --tilec-spirv-prepare %s | FileCheck %s --check-prefix=PREPARED

module {
  gpu.module @kernels {
    gpu.func @bounds(%x: f32, %y: f32, %v: vector<4xf32>, %out: memref<8xf32>,
                     %vout: memref<8xf32>, %folded: memref<1xf32>) kernel {
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
      %nan = arith.constant 0x7FC00000 : f32
      %three = arith.constant 3.0 : f32
      %ofNaN = arith.maxnumf %nan, %three : f32
      memref.store %ofNaN, %folded[%c0] : memref<1xf32>
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
// CHECK: %[[LOWEST:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAX:.*]] = arith.maxnumf %[[LOWEST]], %[[X]] : f32
// CHECK: %[[XNAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: %[[UNLESSX:.*]] = arith.select %[[XNAN]], %[[LOWEST]], %[[MAX]] : f32
// CHECK: %[[LNAN:.*]] = arith.cmpf uno, %[[LOWEST]], %[[LOWEST]] : f32
// CHECK: arith.select %[[LNAN]], %[[X]], %[[UNLESSX]] : f32
// CHECK: arith.minnumf %[[X]], %{{.*}} : f32
// CHECK: %[[MAXP:.*]] = arith.maxnumf %[[X]], %[[Y]] : f32
// CHECK: %[[YNAN:.*]] = arith.cmpf uno, %[[Y]], %[[Y]] : f32
// CHECK: %[[UNLESSY:.*]] = arith.select %[[YNAN]], %[[X]], %[[MAXP]] : f32
// CHECK: %[[XNAN2:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: %[[PAIR:.*]] = arith.select %[[XNAN2]], %[[Y]], %[[UNLESSY]] : f32
// CHECK: arith.maxnumf %[[V]], %{{.*}} : vector<4xf32>
// CHECK: memref.store %[[PAIR]], %{{.*}}[%{{.*}}]

// PREPARED-LABEL: gpu.func @bounds(
// PREPARED: %[[XNAN:.*]] = arith.cmpf uno, %arg0, %arg0 : f32
// PREPARED: arith.select %[[XNAN]], %{{.*}}, %arg0 : f32
// PREPARED: arith.select %[[XNAN]], %{{.*}}, %arg0 : f32
// PREPARED: %[[VNAN:.*]] = arith.cmpf uno, %arg2, %arg2 : vector<4xf32>
// PREPARED: arith.select %[[VNAN]], %{{.*}}, %arg2 : vector<4xi1>, vector<4xf32>
// PREPARED: %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
// PREPARED: memref.store %[[THREE]], %arg5[%{{.*}}] : memref<1xf32>
