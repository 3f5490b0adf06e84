// The kernel IR's atomics (addi, ori, andi on 32-bit words of a global
// buffer) become OpenCL C 1.2's atomic_add, atomic_or and atomic_and, a
// statement where the old value is unused; spirv.MemoryBarrier at Device
// scope becomes a fence of global memory. A buffer that only atomics touch
// is written, so not const.
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @count(%words: memref<4xi32>, %counter: memref<1xi32>, %out: memref<1xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4]>} {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %bits = arith.index_cast %t : index to i32
      %0 = memref.atomic_rmw ori %bits, %words[%t] : (i32, memref<4xi32>) -> i32
      spirv.MemoryBarrier <Device>, <AcquireRelease|UniformMemory>
      %old = memref.atomic_rmw addi %one, %counter[%c0] : (i32, memref<1xi32>) -> i32
      %read = memref.atomic_rmw andi %zero, %words[%t] : (i32, memref<4xi32>) -> i32
      %sum = arith.addi %old, %read : i32
      memref.store %sum, %out[%c0] : memref<1xi32>
      gpu.return
    }
  }
}

// CHECK:      void count(__global int *restrict arg0,
// CHECK-NEXT:            __global int *restrict arg1,
// CHECK-NEXT:            __global int *restrict arg2) {
// CHECK:        atomic_or(&arg0[v{{[0-9]+}}], v{{[0-9]+}});
// CHECK-NEXT:   mem_fence(CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT:   int [[OLD:v[0-9]+]] = atomic_add(&arg1[0], 1);
// CHECK-NEXT:   int [[READ:v[0-9]+]] = atomic_and(&arg0[v{{[0-9]+}}], 0);
// CHECK-NEXT:   int {{v[0-9]+}} = (int)((uint)[[OLD]] + (uint)[[READ]]);
