// Workgroup memory becomes a __local array at kernel scope, gpu.barrier a
// local-memory barrier; f16 workgroup memory is kept as its bits.
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @reverse(%in: memref<64xf32>, %out: memref<64xf32>, %h: memref<64xf16>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64]>} {
      %tile = memref.alloc() : memref<64xf32, 3>
      %halves = memref.alloc() : memref<64xf16, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %c63 = arith.constant 63 : index
      %x = memref.load %in[%t] : memref<64xf32>
      memref.store %x, %tile[%t] : memref<64xf32, 3>
      %hx = memref.load %h[%t] : memref<64xf16>
      memref.store %hx, %halves[%t] : memref<64xf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c63, %t : index
      %y = memref.load %tile[%r] : memref<64xf32, 3>
      %hy = memref.load %halves[%r] : memref<64xf16, #gpu.address_space<workgroup>>
      %e = arith.extf %hy : f16 to f32
      %s = arith.addf %y, %e : f32
      memref.store %s, %out[%t] : memref<64xf32>
      gpu.return
    }
  }
}

// CHECK-LABEL: __kernel __attribute__((reqd_work_group_size(64, 1, 1)))
// CHECK-NEXT: void reverse(__global const float *restrict arg0,
// CHECK-NEXT:              __global float *restrict arg1,
// CHECK-NEXT:              __global const half *restrict arg2) {
// CHECK-NEXT:   __local float local0[64];
// CHECK-NEXT:   __local ushort local1[64];
// CHECK-NEXT:   int v2 = (int)get_local_id(0);
// CHECK-NEXT:   float v3 = arg0[v2];
// CHECK-NEXT:   local0[v2] = v3;
// CHECK-NEXT:   float v4 = vload_half(v2, arg2);
// CHECK-NEXT:   vstore_half_rte(v4, v2, (__local half *)local1);
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   int v5 = (int)((uint)63 - (uint)v2);
// CHECK-NEXT:   float v6 = local0[v5];
// CHECK-NEXT:   float v7 = vload_half(v5, (__local half *)local1);
// CHECK-NEXT:   float v8 = v6 + v7;
// CHECK-NEXT:   arg1[v2] = v8;
// CHECK-NEXT: }
