// Every kernel is a SPIR-V module of its own, holding only its Workgroup
// variables: Vulkan charges each entry point with every Workgroup variable of
// its module, so an f32 kernel and an f64 kernel that each fit the device
// would not fit together in one module.
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

// CHECK-LABEL: ; Kernel narrow
// CHECK-NOT: OpEntryPoint GLCompute %wide
// CHECK: OpEntryPoint GLCompute %narrow "narrow"
// CHECK-NOT: OpTypeFloat 64
// CHECK: OpTypeArray %float %uint_64
// CHECK-NOT: OpTypeFloat 64
// CHECK: OpVariable %{{.*}} Workgroup
// CHECK-NOT: OpTypeFloat 64
// CHECK-LABEL: ; Kernel wide
// CHECK-NOT: OpEntryPoint GLCompute %narrow
// CHECK: OpEntryPoint GLCompute %wide "wide"
// CHECK-NOT: OpTypeFloat 32
// CHECK: OpTypeArray %double %uint_64
// CHECK-NOT: OpTypeFloat 32
// CHECK: OpVariable %{{.*}} Workgroup
// CHECK-NOT: OpTypeFloat 32

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @narrow(%out: memref<64xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %a = memref.alloc() : memref<64xf32, 3>
      %t = gpu.thread_id x
      %x = memref.load %out[%t] : memref<64xf32>
      memref.store %x, %a[%t] : memref<64xf32, 3>
      gpu.barrier
      %y = memref.load %a[%t] : memref<64xf32, 3>
      memref.store %y, %out[%t] : memref<64xf32>
      gpu.return
    }
    gpu.func @wide(%out: memref<64xf64>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %a = memref.alloc() : memref<64xf64, 3>
      %t = gpu.thread_id x
      %x = memref.load %out[%t] : memref<64xf64>
      memref.store %x, %a[%t] : memref<64xf64, 3>
      gpu.barrier
      %y = memref.load %a[%t] : memref<64xf64, 3>
      memref.store %y, %out[%t] : memref<64xf64>
      gpu.return
    }
  }
}
