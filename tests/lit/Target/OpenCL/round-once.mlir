// Conversions to f16 and bf16 from wider types round once: from f64 and
// from integers wider than 16 bits, the value is first rounded to float to
// odd (toward zero, the lowest bit set when inexact), which the rounding to
// the 16-bit format then rounds correctly. Narrow integers are exact floats.
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @narrow(%d: memref<4xf64>, %i: memref<4xi32>, %l: memref<4xi64>, %s: memref<4xi16>, %h: memref<4xf16>, %b: memref<4xbf16>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %d[%t] : memref<4xf64>
      %dh = arith.truncf %x : f64 to f16
      memref.store %dh, %h[%t] : memref<4xf16>
      %db = arith.truncf %x : f64 to bf16
      memref.store %db, %b[%t] : memref<4xbf16>
      %n = memref.load %i[%t] : memref<4xi32>
      %ih = arith.sitofp %n : i32 to f16
      memref.store %ih, %h[%t] : memref<4xf16>
      %ub = arith.uitofp %n : i32 to bf16
      memref.store %ub, %b[%t] : memref<4xbf16>
      %w = memref.load %l[%t] : memref<4xi64>
      %lh = arith.sitofp %w : i64 to f16
      memref.store %lh, %h[%t] : memref<4xf16>
      %ulb = arith.uitofp %w : i64 to bf16
      memref.store %ulb, %b[%t] : memref<4xbf16>
      %q = memref.load %s[%t] : memref<4xi16>
      %sh = arith.sitofp %q : i16 to f16
      memref.store %sh, %h[%t] : memref<4xf16>
      gpu.return
    }
  }
}

// CHECK: #pragma OPENCL EXTENSION cl_khr_fp64 : enable
// CHECK: float tilec_round_to_half(float x) {
// CHECK: float tilec_round_to_bf16(float x) {
// CHECK: float tilec_odd_float_from_double(double x) {
// CHECK-NEXT:   float f = convert_float_rtz(x);
// CHECK-NEXT:   return (double)f == (double)x ? f : as_float(as_uint(f) | 1u);
// CHECK-NEXT: }
// CHECK: float tilec_odd_float_from_int(int x) {
// CHECK-NEXT:   float f = convert_float_rtz(x);
// CHECK-NEXT:   return (long)f == (long)x ? f : as_float(as_uint(f) | 1u);
// CHECK: float tilec_odd_float_from_uint(uint x) {
// CHECK:   return (ulong)f == (ulong)x ? f : as_float(as_uint(f) | 1u);
// CHECK: float tilec_odd_float_from_long(long x) {
// CHECK:   return (long)f == (long)x ? f : as_float(as_uint(f) | 1u);
// CHECK: float tilec_odd_float_from_ulong(ulong x) {
// CHECK:   return (ulong)f == (ulong)x ? f : as_float(as_uint(f) | 1u);

// CHECK-LABEL: void narrow(
// CHECK:   double v1 = arg0[v0];
// CHECK-NEXT:   float v2 = tilec_round_to_half(tilec_odd_float_from_double(v1));
// CHECK-NEXT:   vstore_half_rte(v2, v0, arg4);
// CHECK-NEXT:   float v3 = tilec_round_to_bf16(tilec_odd_float_from_double(v1));
// CHECK-NEXT:   arg5[v0] = tilec_float_to_bf16(v3);
// CHECK-NEXT:   int v4 = arg1[v0];
// CHECK-NEXT:   float v5 = tilec_round_to_half(tilec_odd_float_from_int(v4));
// CHECK-NEXT:   vstore_half_rte(v5, v0, arg4);
// CHECK-NEXT:   float v6 = tilec_round_to_bf16(tilec_odd_float_from_uint((uint)v4));
// CHECK-NEXT:   arg5[v0] = tilec_float_to_bf16(v6);
// CHECK-NEXT:   long v7 = arg2[v0];
// CHECK-NEXT:   float v8 = tilec_round_to_half(tilec_odd_float_from_long(v7));
// CHECK-NEXT:   vstore_half_rte(v8, v0, arg4);
// CHECK-NEXT:   float v9 = tilec_round_to_bf16(tilec_odd_float_from_ulong((ulong)v7));
// CHECK-NEXT:   arg5[v0] = tilec_float_to_bf16(v9);
// CHECK-NEXT:   short v10 = arg3[v0];
// CHECK-NEXT:   float v11 = tilec_round_to_half((float)v10);
// CHECK-NEXT:   vstore_half_rte(v11, v0, arg4);
