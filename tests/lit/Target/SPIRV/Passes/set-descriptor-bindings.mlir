// tilec-spirv-set-descriptor-bindings alone: argument i of every kernel is
// the storage buffer at descriptor set 0, binding i.
// RUN: tile-opt --tilec-spirv-set-descriptor-bindings %s | FileCheck %s

module {
  gpu.module @kernels {
    gpu.func @first(%a: memref<4xf32>, %b: memref<4xf32>) kernel {
      gpu.return
    }
    gpu.func @second(%c: memref<4xi32>) kernel {
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @first
// CHECK-SAME: %arg0: memref<4xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}
// CHECK-SAME: %arg1: memref<4xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}
// CHECK-LABEL: gpu.func @second
// CHECK-SAME: %arg0: memref<4xi32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}
