// Kernels share their Workgroup variables: Vulkan's validation layer charges
// every kernel with all the Workgroup variables of its module, so three
// kernels with two buffers each (a split tensor's chunks) get the module's
// two variables of those types, and a kernel's second buffer of a type gets
// a second variable; a type no other kernel uses keeps its own.
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @chunk0(%out: memref<64xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %a = memref.alloc() : memref<64xf32, 3>
      %b = memref.alloc() : memref<64xf32, 3>
      %t = gpu.thread_id x
      %x = memref.load %out[%t] : memref<64xf32>
      memref.store %x, %a[%t] : memref<64xf32, 3>
      memref.store %x, %b[%t] : memref<64xf32, 3>
      gpu.barrier
      %y = memref.load %a[%t] : memref<64xf32, 3>
      %z = memref.load %b[%t] : memref<64xf32, 3>
      %s = arith.addf %y, %z : f32
      memref.store %s, %out[%t] : memref<64xf32>
      gpu.return
    }
    gpu.func @chunk1(%out: memref<64xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %a = memref.alloc() : memref<64xf32, 3>
      %b = memref.alloc() : memref<64xf32, 3>
      %t = gpu.thread_id x
      %x = memref.load %out[%t] : memref<64xf32>
      memref.store %x, %a[%t] : memref<64xf32, 3>
      memref.store %x, %b[%t] : memref<64xf32, 3>
      gpu.barrier
      %y = memref.load %a[%t] : memref<64xf32, 3>
      %z = memref.load %b[%t] : memref<64xf32, 3>
      %s = arith.subf %y, %z : f32
      memref.store %s, %out[%t] : memref<64xf32>
      gpu.return
    }
    gpu.func @other(%out: memref<64xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %a = memref.alloc() : memref<64xf32, 3>
      %c = memref.alloc() : memref<32xf32, 3>
      %t = gpu.thread_id x
      %x = memref.load %out[%t] : memref<64xf32>
      memref.store %x, %a[%t] : memref<64xf32, 3>
      memref.store %x, %c[%t] : memref<32xf32, 3>
      gpu.barrier
      %y = memref.load %a[%t] : memref<64xf32, 3>
      %z = memref.load %c[%t] : memref<32xf32, 3>
      %s = arith.mulf %y, %z : f32
      memref.store %s, %out[%t] : memref<64xf32>
      gpu.return
    }
  }
}

// One Workgroup variable of 32 floats and two of 64, no others.
// CHECK: [[SMALL:%__workgroup_mem__[0-9]+]] = OpVariable %_ptr_Workgroup__struct_{{[0-9]+}} Workgroup
// CHECK: OpVariable [[BIG:%_ptr_Workgroup__struct_[0-9]+]] Workgroup
// CHECK: OpVariable [[BIG]] Workgroup
// CHECK-NOT: OpVariable %_ptr_Workgroup

// CHECK-LABEL: %chunk0 = OpFunction
// CHECK: OpAccessChain %_ptr_Workgroup_float [[A:%__workgroup_mem__[0-9]+]]
// CHECK: OpAccessChain %_ptr_Workgroup_float [[B:%__workgroup_mem__[0-9]+]]
// CHECK-LABEL: %chunk1 = OpFunction
// CHECK: OpAccessChain %_ptr_Workgroup_float [[A]]
// CHECK: OpAccessChain %_ptr_Workgroup_float [[B]]
// CHECK-LABEL: %other = OpFunction
// CHECK: OpAccessChain %_ptr_Workgroup_float [[A]]
// CHECK: OpAccessChain %_ptr_Workgroup_float [[SMALL]]
