// f16 vectors: an f16 value is a float in C, so an f16 vector is a float
// vector. Its bits move as one aligned ushort vector access and convert in
// private memory (vload_half4, vstore_half4_rte). A truncation to f16 whose
// only uses are the elements of stored vectors is left to the store, which
// rounds to nearest even; one with another use rounds on its own.
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @halves(%a: memref<64xf16>, %b: memref<64xf16>, %c: memref<64xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16]>} {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %i = arith.muli %t, %c4 overflow<nsw> : index
      %v = vector.load %a[%i] : memref<64xf16>, vector<4xf16>
      %h0 = vector.extract %v[0] : f16 from vector<4xf16>
      %h3 = vector.extract %v[3] : f16 from vector<4xf16>
      %x0 = arith.extf %h0 : f16 to f32
      %x3 = arith.extf %h3 : f16 to f32
      %sum = arith.addf %x0, %x3 : f32
      %stored = arith.truncf %sum : f32 to f16
      %kept = arith.truncf %x3 : f32 to f16
      %built = vector.from_elements %stored, %stored, %kept, %kept : vector<4xf16>
      vector.store %built, %b[%i] : memref<64xf16>, vector<4xf16>
      %wide = arith.extf %kept : f16 to f32
      memref.store %wide, %c[%t] : memref<64xf32>
      %pair = vector.load %b[%i] : memref<64xf16>, vector<2xf16>
      vector.store %pair, %b[%i] : memref<64xf16>, vector<2xf16>
      gpu.return
    }
  }
}

// CHECK-LABEL: void halves(__global const half *restrict arg0,
// CHECK-NEXT:              __global half *restrict arg1,
// CHECK-NEXT:              __global float *restrict arg2) {
// CHECK-NEXT:   int v0 = (int)get_local_id(0);
// CHECK-NEXT:   int v1 = v0 * 4;
// CHECK-NEXT:   ushort4 h2 = *(__global const ushort4 *)(arg0 + v1);
// CHECK-NEXT:   float4 v3 = vload_half4(0, (__private const half *)&h2);
// CHECK-NEXT:   float v4 = v3.s0;
// CHECK-NEXT:   float v5 = v3.s3;
// CHECK-NEXT:   float v6 = v4 + v5;
// CHECK-NEXT:   float v7 = tilec_round_to_half(v5);
// CHECK-NEXT:   float4 v8 = (float4)(v6, v6, v7, v7);
// CHECK-NEXT:   ushort4 h9;
// CHECK-NEXT:   vstore_half4_rte(v8, 0, (__private half *)&h9);
// CHECK-NEXT:   *(__global ushort4 *)(arg1 + v1) = h9;
// CHECK-NEXT:   arg2[v0] = v7;
// CHECK-NEXT:   ushort2 h10 = *(__global const ushort2 *)(arg1 + v1);
// CHECK-NEXT:   float2 v11 = vload_half2(0, (__private const half *)&h10);
// CHECK-NEXT:   ushort2 h12;
// CHECK-NEXT:   vstore_half2_rte(v11, 0, (__private half *)&h12);
// CHECK-NEXT:   *(__global ushort2 *)(arg1 + v1) = h12;
// CHECK-NEXT: }
