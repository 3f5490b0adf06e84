// The SPIR-V of a kernel with workgroup memory, a barrier, bool bytes and
// 64-bit indices: one GLCompute entry point whose work-group size is fixed
// in the module, argument i at set 0 / binding i, workgroup memory in the
// Workgroup storage class, and only the capabilities the kernel uses.
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 64 : i64} {
  gpu.module @kernels {
    gpu.func @reverse(%in: memref<64xf32>, %out: memref<64xf32>, %flags: memref<64xi8>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %tile = memref.alloc() : memref<64xf32, 3>
      %bools = memref.alloc() : memref<64xi8, 3>
      %t = gpu.thread_id x
      %g = gpu.block_id x
      %n = gpu.block_dim x
      %c63 = arith.constant 63 : index
      %x = memref.load %in[%t] : memref<64xf32>
      memref.store %x, %tile[%t] : memref<64xf32, 3>
      %f = memref.load %flags[%t] : memref<64xi8>
      memref.store %f, %bools[%t] : memref<64xi8, 3>
      gpu.barrier
      %r = arith.subi %c63, %t : index
      %y = memref.load %tile[%r] : memref<64xf32, 3>
      %b8 = memref.load %bools[%r] : memref<64xi8, 3>
      %zero8 = arith.constant 0 : i8
      %b = arith.cmpi ne, %b8, %zero8 : i8
      %zero = arith.constant 0.0 : f32
      %s = arith.select %b, %y, %zero : f32
      memref.store %s, %out[%t] : memref<64xf32>
      gpu.return
    }
  }
}

// CHECK-DAG: OpCapability Shader
// CHECK-DAG: OpCapability Int8
// CHECK-DAG: OpCapability Int64
// CHECK-DAG: OpCapability StorageBuffer8BitAccess
// CHECK-NOT: OpCapability Float16
// CHECK-NOT: OpCapability Float64
// CHECK: OpMemoryModel Logical GLSL450
// CHECK: OpEntryPoint GLCompute %reverse "reverse"
// CHECK: OpExecutionMode %reverse LocalSize 64 1 1
// CHECK-DAG: OpDecorate %arg0 Binding 0
// CHECK-DAG: OpDecorate %arg0 DescriptorSet 0
// CHECK-DAG: OpDecorate %arg1 Binding 1
// CHECK-DAG: OpDecorate %arg2 Binding 2
// CHECK-DAG: OpDecorate %arg2 DescriptorSet 0
// CHECK-DAG: %__workgroup_mem__0 = OpVariable %{{.*}} Workgroup
// CHECK-DAG: %__workgroup_mem__1 = OpVariable %{{.*}} Workgroup
// CHECK-DAG: %arg2 = OpVariable %_ptr_StorageBuffer_{{.*}} StorageBuffer
// CHECK-DAG: %ulong = OpTypeInt 64 0

// Indices are 64-bit (tile.index_bits = 64), the bool bytes stay bytes.
// CHECK-LABEL: %reverse = OpFunction
// CHECK: [[ID:%[0-9]+]] = OpUConvert %ulong
// CHECK: OpAccessChain %_ptr_StorageBuffer_float %arg0 %ulong_0 [[ID]]
// CHECK: OpLoad %uchar
// CHECK: OpStore
// The barrier: work-group execution and memory scope (2), acquire-release
// of workgroup memory (0x108 = 264).
// CHECK: OpControlBarrier %uint_2 %uint_2 %uint_264
// CHECK: OpISub %ulong %ulong_63 [[ID]]
// CHECK: OpINotEqual %bool
// CHECK: OpSelect %float
// CHECK: OpReturn
