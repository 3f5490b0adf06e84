// f64 turns on cl_khr_fp64; IEEE maximum/minimum come from helpers; double
// literals have no suffix.
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @wide(%a: memref<4xf64>, %b: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xf64>
      %y = memref.load %b[%i] : memref<4xf32>
      %wy = arith.extf %y : f32 to f64
      %c = arith.constant 0.1 : f64
      %m = arith.maximumf %x, %c : f64
      %n = arith.minimumf %m, %wy : f64
      %k = arith.constant -0.0 : f32
      %q = arith.maximumf %y, %k : f32
      %p = arith.maxnumf %y, %k : f32
      %s = arith.addf %q, %p : f32
      %nf = arith.truncf %n : f64 to f32
      %t = arith.addf %s, %nf : f32
      memref.store %t, %b[%i] : memref<4xf32>
      gpu.return
    }
  }
}

// CHECK: #pragma OPENCL EXTENSION cl_khr_fp64 : enable
// CHECK-NEXT: #pragma OPENCL FP_CONTRACT OFF
// CHECK: float tilec_maximum_f32(float a, float b) {
// CHECK-NEXT:   if (isnan(a) || isnan(b))
// CHECK-NEXT:     return a + b;
// CHECK-NEXT:   if (a == b)
// CHECK-NEXT:     return signbit(a) ? b : a;
// CHECK-NEXT:   return a > b ? a : b;
// CHECK: double tilec_maximum_f64(double a, double b) {
// CHECK: double tilec_minimum_f64(double a, double b) {
// CHECK:     return signbit(a) ? a : b;
// CHECK-NEXT:   return a < b ? a : b;

// CHECK-LABEL: void wide(
// CHECK:   double v1 = arg0[v0];
// CHECK-NEXT:   float v2 = arg1[v0];
// CHECK-NEXT:   double v3 = (double)v2;
// CHECK-NEXT:   double v4 = tilec_maximum_f64(v1, 0.1);
// CHECK-NEXT:   double v5 = tilec_minimum_f64(v4, v3);
// CHECK-NEXT:   float v6 = tilec_maximum_f32(v2, (-0.0f));
// CHECK-NEXT:   float v7 = fmax(v2, (-0.0f));
// CHECK-NEXT:   float v8 = v6 + v7;
// CHECK-NEXT:   float v9 = (float)v5;
