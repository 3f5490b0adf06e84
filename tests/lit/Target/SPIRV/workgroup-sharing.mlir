// Kernels share their Workgroup variables: Vulkan's validation layer charges
// every kernel with all the Workgroup variables of its module. Each kernel's
// arrays, longest first, join a variable of the same elements that the
// kernel does not use yet, if the module's Workgroup memory stays within the
// most that one kernel uses (512 bytes here): the chunks share two
// variables, `other` uses them for its 64 and 32 floats, and `wide`'s 128
// floats get a variable of their own (sharing would give the chunks 768
// bytes).
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
    gpu.func @wide(%out: memref<128xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %w = memref.alloc() : memref<128xf32, 3>
      %t = gpu.thread_id x
      %x = memref.load %out[%t] : memref<128xf32>
      memref.store %x, %w[%t] : memref<128xf32, 3>
      gpu.barrier
      %y = memref.load %w[%t] : memref<128xf32, 3>
      memref.store %y, %out[%t] : memref<128xf32>
      gpu.return
    }
  }
}

// Two Workgroup variables of 64 floats and one of 128, no others.
// CHECK-COUNT-3: = OpVariable %_ptr_Workgroup_{{.*}} Workgroup
// CHECK-NOT: OpVariable %_ptr_Workgroup

// CHECK-LABEL: %chunk0 = OpFunction
// CHECK: OpAccessChain %_ptr_Workgroup_float [[A:%__workgroup_mem__[0-9]+]]
// CHECK: OpAccessChain %_ptr_Workgroup_float [[B:%__workgroup_mem__[0-9]+]]
// CHECK-LABEL: %chunk1 = OpFunction
// CHECK: OpAccessChain %_ptr_Workgroup_float [[A]]
// CHECK: OpAccessChain %_ptr_Workgroup_float [[B]]
// CHECK-LABEL: %other = OpFunction
// CHECK: OpAccessChain %_ptr_Workgroup_float [[A]]
// CHECK: OpAccessChain %_ptr_Workgroup_float [[B]]
// CHECK-LABEL: %wide = OpFunction
// CHECK-NOT: [[A]]
// CHECK-NOT: [[B]]
// CHECK: OpFunctionEnd
