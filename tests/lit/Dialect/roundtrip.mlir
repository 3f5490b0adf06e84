// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-debuginfo | tile-opt --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// CHECK-LABEL: func.func @contractions
func.func @contractions(%A: tensor<3x4xf32>, %B: tensor<4x5xf32>,
                        %D: tensor<3x5xf32>, %I: tensor<8xi32>)
    -> (tensor<3x5xf32>, tensor<f32>, tensor<i1>, tensor<4xi32>) {
  // CHECK: tile.contract add, mul (i, j, k) [i, j] = %{{.*}}[i, k], %{{.*}}[k, j] : tensor<3x4xf32>, tensor<4x5xf32> -> tensor<3x5xf32>
  %0 = tile.contract add, mul (i, j, k) [i, j] = %A[i, k], %B[k, j]
      : tensor<3x4xf32>, tensor<4x5xf32> -> tensor<3x5xf32>
  // CHECK: tile.contract mul, add (i, j, k) [i, j] = %{{.*}}[i, k], %{{.*}}[k, j] where i + k < 5, 2*j - 1*k div 3 - 1 < 3 default %{{.*}} no_defract :
  %1 = tile.contract mul, add (i, j, k) [i, j] = %A[i, k], %B[k, j]
      where i + k < 5, 2*j - 1*k div 3 - 1 < 3 default %D no_defract
      : tensor<3x4xf32>, tensor<4x5xf32> -> tensor<3x5xf32>
  // Names that are not MLIR identifiers are quoted; like terms merge.
  // CHECK: tile.contract max ("i'", j) [] = %{{.*}}["i'" div 2 + 1 div 2, -1*j + 4] : tensor<3x5xf32> -> tensor<f32>
  %2 = tile.contract max ("i'", j) [] = %1["i'" div 2 + 1 div 2, j - 2*j + 4]
      : tensor<3x5xf32> -> tensor<f32>
  // CHECK: tile.contract min (i) [] = %{{.*}}[i] : tensor<8xi32> -> tensor<i32>
  %3 = tile.contract min (i) [] = %I[i] : tensor<8xi32> -> tensor<i32>
  // CHECK: tile.contract assign, eq (i) [] = %{{.*}}[i], %{{.*}}[-1*i + 7] : tensor<8xi32>, tensor<8xi32> -> tensor<i1>
  %4 = tile.contract assign, eq (i) [] = %I[i], %I[7 - 1*i]
      : tensor<8xi32>, tensor<8xi32> -> tensor<i1>
  // CHECK: tile.contract max, cond (i, j) [i] = %{{.*}}[i], %{{.*}}[0], %{{.*}}[j] : tensor<8xi32>, tensor<8xi32>, tensor<8xi32> -> tensor<4xi32>
  %5 = tile.contract max, cond (i, j) [i] = %I[i], %I[0], %I[j]
      : tensor<8xi32>, tensor<8xi32>, tensor<8xi32> -> tensor<4xi32>
  return %0, %2, %4, %5 : tensor<3x5xf32>, tensor<f32>, tensor<i1>, tensor<4xi32>
}

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%X: tensor<3x4xf32>, %Y: tensor<4xf32>,
                       %N: tensor<4xui16>, %B: tensor<3x1xi1>) {
  // CHECK: tile.constant 2.500000e+00 : f32
  %c = tile.constant 2.5 : f32
  // CHECK: tile.constant true
  %t = tile.constant true
  // CHECK: tile.constant 7 : ui16
  %u = tile.constant 7 : ui16
  // CHECK: tile.constant -3 : i8
  %i = tile.constant -3 : i8
  // CHECK: tile.constant 1.000000e+00 : bf16
  %h = tile.constant 1.0 : bf16
  // CHECK: tile.ew add %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %0 = tile.ew add %X, %Y : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  // CHECK: tile.ew mul %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %1 = tile.ew mul %0, %c : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  // CHECK: tile.ew lt %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
  %2 = tile.ew lt %Y, %1 : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
  // CHECK: tile.ew and %{{.*}}, %{{.*}} : (tensor<3x4xi1>, tensor<3x1xi1>) -> tensor<3x4xi1>
  %3 = tile.ew and %2, %B : (tensor<3x4xi1>, tensor<3x1xi1>) -> tensor<3x4xi1>
  // CHECK: tile.ew not %{{.*}} : (tensor<i1>) -> tensor<i1>
  %4 = tile.ew not %t : (tensor<i1>) -> tensor<i1>
  // CHECK: tile.ew select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %5 = tile.ew select %3, %1, %c : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  // CHECK: tile.ew shl %{{.*}}, %{{.*}} : (tensor<4xui16>, tensor<ui16>) -> tensor<4xui16>
  %6 = tile.ew shl %N, %u : (tensor<4xui16>, tensor<ui16>) -> tensor<4xui16>
  // CHECK: tile.ew bitnot %{{.*}} : (tensor<i8>) -> tensor<i8>
  %7 = tile.ew bitnot %i : (tensor<i8>) -> tensor<i8>
  // CHECK: tile.ew sigmoid %{{.*}} : (tensor<bf16>) -> tensor<bf16>
  %8 = tile.ew sigmoid %h : (tensor<bf16>) -> tensor<bf16>
  // CHECK: tile.ew atan2 %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %9 = tile.ew atan2 %X, %Y : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  // CHECK: tile.ew relu %{{.*}} : (tensor<4xui16>) -> tensor<4xui16>
  %10 = tile.ew relu %N : (tensor<4xui16>) -> tensor<4xui16>
  return
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%X: tensor<3x4xui16>) -> (tensor<12xf64>, tensor<2xi32>, tensor<3x4xi32>) {
  // CHECK: tile.cast %{{.*}} : tensor<3x4xui16> -> tensor<3x4xf64>
  %0 = tile.cast %X : tensor<3x4xui16> -> tensor<3x4xf64>
  // CHECK: tile.reshape %{{.*}} : tensor<3x4xf64> -> tensor<12xf64>
  %1 = tile.reshape %0 : tensor<3x4xf64> -> tensor<12xf64>
  // CHECK: tile.shape %{{.*}} : tensor<3x4xui16> -> tensor<2xi32>
  %2 = tile.shape %X : tensor<3x4xui16> -> tensor<2xi32>
  // CHECK: tile.index 1 : tensor<3x4xi32>
  %3 = tile.index 1 : tensor<3x4xi32>
  return %1, %2, %3 : tensor<12xf64>, tensor<2xi32>, tensor<3x4xi32>
}

// CHECK-LABEL: func.func @attributes
// CHECK-SAME: tile.empty = #tile.map<() -> ()>
// CHECK-SAME: tile.kinds = [#tile<agg add>, #tile<combo cond>, #tile<ew_kind bitxor>]
// CHECK-SAME: tile.map = #tile.map<(d0, d1, d2) -> (d0, 2*d0 + d2 div 2 - 1, 0)>
func.func @attributes() attributes {
    tile.map = #tile.map<(i, j, k) -> (i, 2*i + k div 2 - 1, j - 1*j)>,
    tile.empty = #tile.map<() -> ()>,
    tile.kinds = [#tile<agg add>, #tile<combo cond>, #tile<ew_kind bitxor>]} {
  return
}

// LOC-LABEL: func.func @located
// LOC: tile.ew neg %{{.*}} : (tensor<5xf64>) -> tensor<5xf64> loc(#[[Y:.*]])
// LOC: #[[FILE:.*]] = loc("net.tile":2:3)
// LOC: #[[Y]] = loc("Y"(#[[FILE]]))
func.func @located(%X: tensor<5xf64>) -> tensor<5xf64> {
  %0 = tile.ew neg %X : (tensor<5xf64>) -> tensor<5xf64> loc("Y"("net.tile":2:3))
  return %0 : tensor<5xf64>
}
