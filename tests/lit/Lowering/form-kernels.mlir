// RUN: tile-opt %s -split-input-file --tile-form-kernels | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-form-kernels | tile-opt -split-input-file | FileCheck %s

// Kernel formation records its decisions as tile.kernel ops: an elementwise
// chain fuses into one kernel, a contraction takes the elementwise ops of its
// epilogue, a returned input gets a copy kernel. Values read outside their
// kernel leave it as its results; generators stay outside, recomputed by
// every kernel that reads them.

// CHECK-LABEL: func.func @chain
func.func @chain(%X: tensor<16xf32>) -> tensor<16xf32> {
  // CHECK: %[[TWO:.*]] = tile.constant 2.000000e+00
  // CHECK: %[[K:.*]] = tile.kernel elementwise "k0_Z" -> tensor<16xf32> {
  // CHECK-NEXT: %[[A:.*]] = tile.ew mul %{{.*}}, %[[TWO]]
  // CHECK-NEXT: %[[B:.*]] = tile.ew exp %[[A]]
  // CHECK-NEXT: %[[C:.*]] = tile.ew neg %[[B]]
  // CHECK-NEXT: tile.yield %[[C]] : tensor<16xf32>
  // CHECK-NEXT: }
  // CHECK-NEXT: return %[[K]]
  %two = tile.constant 2.0 : f32
  %a = tile.ew mul %X, %two : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32> loc("Y"(unknown))
  %b = tile.ew exp %a : (tensor<16xf32>) -> tensor<16xf32>
  %c = tile.ew neg %b : (tensor<16xf32>) -> tensor<16xf32> loc("Z"(unknown))
  return %c : tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @epilogue
func.func @epilogue(%A: tensor<8x16xf32>, %W: tensor<16x4xf32>,
                    %B: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  // The product is stored too: it is returned.
  // CHECK: %[[K:.*]]:2 = tile.kernel contraction "k0_Y" -> tensor<8x4xf32>, tensor<8x4xf32> {
  // CHECK-NEXT: %[[C:.*]] = tile.contract add, mul
  // CHECK-NEXT: %[[S:.*]] = tile.ew add %[[C]], %{{.*}}
  // CHECK-NEXT: %[[Y:.*]] = tile.ew relu %[[S]]
  // CHECK-NEXT: tile.yield %[[C]], %[[Y]] : tensor<8x4xf32>, tensor<8x4xf32>
  // CHECK: return %[[K]]#1, %[[K]]#0
  %c = tile.contract add, mul (m, n, k) [m, n] = %A[m, k], %W[k, n]
      : tensor<8x16xf32>, tensor<16x4xf32> -> tensor<8x4xf32> loc("C"(unknown))
  %s = tile.ew add %c, %B : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  %y = tile.ew relu %s : (tensor<8x4xf32>) -> tensor<8x4xf32> loc("Y"(unknown))
  return %y, %c : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @copies
func.func @copies(%X: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<16xf32>, tensor<16xf32>) {
  // A returned input, and a reshape of a value returned twice: each output
  // that a kernel's own buffer does not hold is filled by a copy kernel.
  // CHECK: %[[N:.*]] = tile.kernel elementwise "k0_N" -> tensor<4x4xf32>
  // CHECK: %[[R:.*]] = tile.reshape %[[N]]
  // CHECK: %[[C1:.*]] = tile.kernel copy "k1_copy_0" -> tensor<4x4xf32> {
  // CHECK-NEXT: tile.yield %{{.*}} : tensor<4x4xf32>
  // CHECK: %[[C2:.*]] = tile.kernel copy "k2_copy_1" -> tensor<16xf32> {
  // CHECK-NEXT: tile.yield %[[R]] : tensor<16xf32>
  // CHECK: %[[C3:.*]] = tile.kernel copy "k3_copy_2" -> tensor<16xf32> {
  // CHECK-NEXT: tile.yield %[[R]] : tensor<16xf32>
  // CHECK: return %[[C1]], %[[C2]], %[[C3]]
  %n = tile.ew neg %X : (tensor<4x4xf32>) -> tensor<4x4xf32> loc("N"(unknown))
  %r = tile.reshape %n : tensor<4x4xf32> -> tensor<16xf32>
  return %X, %r, %r : tensor<4x4xf32>, tensor<16xf32>, tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @shape_only
func.func @shape_only(%X: tensor<2x3xf32>) -> tensor<2xi32> {
  // A value whose shape only is read leaves its kernel, without a buffer.
  // CHECK: %[[E:.*]] = tile.kernel elementwise "k0" -> tensor<2x3xf32>
  // CHECK: tile.shape %[[E]]
  %e = tile.ew exp %X : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = tile.shape %e : tensor<2x3xf32> -> tensor<2xi32>
  %two = tile.constant 2 : i32
  %d = tile.ew mul %s, %two : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  return %d : tensor<2xi32>
}
