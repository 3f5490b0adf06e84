// f16 and bf16 are storage formats: values are floats holding them exactly,
// loads and stores convert, and truncf rounds (in the store when that is
// its only use).
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @halves(%a: memref<8xf16>, %b: memref<8xbf16>, %o: memref<8xf16>, %p: memref<8xbf16>, %f: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %ha = memref.load %a[%i] : memref<8xf16>
      %xa = arith.extf %ha : f16 to f32
      %hb = memref.load %b[%i] : memref<8xbf16>
      %xb = arith.extf %hb : bf16 to f32
      %s = arith.addf %xa, %xb : f32
      // Rounded only by the stores.
      %sh = arith.truncf %s : f32 to f16
      memref.store %sh, %o[%i] : memref<8xf16>
      %sb = arith.truncf %s : f32 to bf16
      memref.store %sb, %p[%i] : memref<8xbf16>
      // Rounded values used in arithmetic: a round trip through the format.
      %rh = arith.truncf %s : f32 to f16
      %eh = arith.extf %rh : f16 to f32
      %rb = arith.truncf %s : f32 to bf16
      %eb = arith.extf %rb : bf16 to f32
      %d = arith.subf %eh, %eb : f32
      memref.store %d, %f[%i] : memref<8xf32>
      // A constant of the format is its exact float.
      %c = arith.constant 0.1 : f16
      memref.store %c, %o[%i] : memref<8xf16>
      gpu.return
    }
  }
}

// CHECK: float tilec_round_to_half(float x) {
// CHECK-NEXT:   ushort bits;
// CHECK-NEXT:   vstore_half_rte(x, 0, (__private half *)&bits);
// CHECK-NEXT:   return vload_half(0, (__private const half *)&bits);
// CHECK: ushort tilec_float_to_bf16(float x) {
// CHECK: float tilec_round_to_bf16(float x) {
// CHECK-NEXT:   return as_float((uint)tilec_float_to_bf16(x) << 16);

// CHECK-LABEL: void halves(__global const half *restrict arg0,
// CHECK-NEXT:                   __global const ushort *restrict arg1,
// CHECK-NEXT:                   __global half *restrict arg2,
// CHECK-NEXT:                   __global ushort *restrict arg3,
// CHECK-NEXT:                   __global float *restrict arg4) {
// CHECK-NEXT:   int v0 = (int)get_local_id(0);
// CHECK-NEXT:   float v1 = vload_half(v0, arg0);
// CHECK-NEXT:   float v2 = as_float((uint)arg1[v0] << 16);
// CHECK-NEXT:   float v3 = v1 + v2;
// CHECK-NEXT:   vstore_half_rte(v3, v0, arg2);
// CHECK-NEXT:   arg3[v0] = tilec_float_to_bf16(v3);
// CHECK-NEXT:   float v4 = tilec_round_to_half(v3);
// CHECK-NEXT:   float v5 = tilec_round_to_bf16(v3);
// CHECK-NEXT:   float v6 = v4 - v5;
// CHECK-NEXT:   arg4[v0] = v6;
// CHECK-NEXT:   vstore_half_rte(0.099975586f, v0, arg2);
// CHECK-NEXT: }
