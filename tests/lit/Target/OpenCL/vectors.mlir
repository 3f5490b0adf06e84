// Vectors: loads and stores through a pointer to the OpenCL vector type
// (global and local, the local array aligned to the vector), components as
// .s0 to .s3, broadcasts and vectors built of scalars (from_elements) as
// vector literals, vectors as scf.if results.
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @vectors(%a: memref<64xf32>, %b: memref<64xf32>, %d: memref<32xf64>,
                      %n: memref<64xi32>, %c: memref<64xi8>, %s: memref<16xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16]>} {
      %tile = memref.alloc() : memref<64xf32, 3>
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %c2 = arith.constant 2 : index
      %i = arith.muli %t, %c4 overflow<nsw> : index
      %x = memref.load %a[%i] : memref<64xf32>
      %in = arith.cmpi slt, %t, %c2 : index
      %v = scf.if %in -> (vector<4xf32>) {
        %loaded = vector.load %a[%i] : memref<64xf32>, vector<4xf32>
        scf.yield %loaded : vector<4xf32>
      } else {
        %zero = arith.constant 0.0 : f32
        %zeros = vector.broadcast %zero : f32 to vector<4xf32>
        scf.yield %zeros : vector<4xf32>
      }
      vector.store %v, %tile[%i] : memref<64xf32, 3>, vector<4xf32>
      gpu.barrier
      %w = vector.load %tile[%i] : memref<64xf32, 3>, vector<4xf32>
      %w0 = vector.extract %w[0] : f32 from vector<4xf32>
      %w3 = vector.extract %w[3] : f32 from vector<4xf32>
      %sum = arith.addf %w0, %w3 : f32
      %splat = vector.broadcast %sum : f32 to vector<4xf32>
      vector.store %splat, %b[%i] : memref<64xf32>, vector<4xf32>
      %j = arith.muli %t, %c2 overflow<nsw> : index
      %dv = vector.load %d[%j] : memref<32xf64>, vector<2xf64>
      %d1 = vector.extract %dv[1] : f64 from vector<2xf64>
      %dd = vector.broadcast %d1 : f64 to vector<2xf64>
      vector.store %dd, %d[%j] : memref<32xf64>, vector<2xf64>
      %nv = vector.load %n[%i] : memref<64xi32>, vector<4xi32>
      %n2 = vector.extract %nv[2] : i32 from vector<4xi32>
      %nn = vector.broadcast %n2 : i32 to vector<4xi32>
      vector.store %nn, %n[%i] : memref<64xi32>, vector<4xi32>
      %c0 = arith.constant 0 : index
      %cv = vector.load %c[%c0] : memref<64xi8>, vector<4xi8>
      %cv3 = vector.extract %cv[3] : i8 from vector<4xi8>
      %cv2 = vector.extract %cv[2] : i8 from vector<4xi8>
      %cs = arith.addi %cv3, %cv2 : i8
      %cc = vector.broadcast %cs : i8 to vector<2xi8>
      vector.store %cc, %c[%c0] : memref<64xi8>, vector<2xi8>
      %sv = vector.load %s[%c0] : memref<16xf32>, vector<4xf32>
      %s1 = vector.extract %sv[1] : f32 from vector<4xf32>
      %built = vector.from_elements %s1, %w0, %w3, %sum : vector<4xf32>
      vector.store %built, %b[%i] : memref<64xf32>, vector<4xf32>
      memref.store %s1, %b[%t] : memref<64xf32>
      gpu.return
    }
  }
}

// CHECK: #pragma OPENCL EXTENSION cl_khr_fp64 : enable
// CHECK-LABEL: __kernel __attribute__((reqd_work_group_size(16, 1, 1)))
// CHECK-NEXT: void vectors(__global const float *restrict arg0,
// CHECK-NEXT:              __global float *restrict arg1,
// CHECK-NEXT:              __global double *restrict arg2,
// CHECK-NEXT:              __global int *restrict arg3,
// CHECK-NEXT:              __global char *restrict arg4,
// CHECK-NEXT:              __global const float *restrict arg5) {
// CHECK-NEXT:   __local float local0[64] __attribute__((aligned(16)));
// CHECK-NEXT:   int v1 = (int)get_local_id(0);
// CHECK-NEXT:   int v2 = v1 * 4;
// CHECK-NEXT:   float v3 = arg0[v2];
// CHECK-NEXT:   bool v4 = v1 < 2;
// CHECK-NEXT:   float4 r5;
// CHECK-NEXT:   if (v4) {
// CHECK-NEXT:     float4 v6 = *(__global const float4 *)(arg0 + v2);
// CHECK-NEXT:     r5 = v6;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     float4 v7 = (float4)(0.0f);
// CHECK-NEXT:     r5 = v7;
// CHECK-NEXT:   }
// CHECK-NEXT:   *(__local float4 *)(local0 + v2) = r5;
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   float4 v8 = *(__local const float4 *)(local0 + v2);
// CHECK-NEXT:   float v9 = v8.s0;
// CHECK-NEXT:   float v10 = v8.s3;
// CHECK-NEXT:   float v11 = v9 + v10;
// CHECK-NEXT:   float4 v12 = (float4)(v11);
// CHECK-NEXT:   *(__global float4 *)(arg1 + v2) = v12;
// CHECK-NEXT:   int v13 = v1 * 2;
// CHECK-NEXT:   double2 v14 = *(__global const double2 *)(arg2 + v13);
// CHECK-NEXT:   double v15 = v14.s1;
// CHECK-NEXT:   double2 v16 = (double2)(v15);
// CHECK-NEXT:   *(__global double2 *)(arg2 + v13) = v16;
// CHECK-NEXT:   int4 v17 = *(__global const int4 *)(arg3 + v2);
// CHECK-NEXT:   int v18 = v17.s2;
// CHECK-NEXT:   int4 v19 = (int4)(v18);
// CHECK-NEXT:   *(__global int4 *)(arg3 + v2) = v19;
// CHECK-NEXT:   char4 v20 = *(__global const char4 *)(arg4 + 0);
// CHECK-NEXT:   char v21 = v20.s3;
// CHECK-NEXT:   char v22 = v20.s2;
// CHECK-NEXT:   char v23 = (char)((uint)v21 + (uint)v22);
// CHECK-NEXT:   char2 v24 = (char2)(v23);
// CHECK-NEXT:   *(__global char2 *)(arg4 + 0) = v24;
// CHECK-NEXT:   float4 v25 = *(__global const float4 *)(arg5 + 0);
// CHECK-NEXT:   float v26 = v25.s1;
// CHECK-NEXT:   float4 v27 = (float4)(v26, v9, v10, v11);
// CHECK-NEXT:   *(__global float4 *)(arg1 + v2) = v27;
// CHECK-NEXT:   arg1[v1] = v26;
// CHECK-NEXT: }
