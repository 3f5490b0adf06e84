// Every float operation is rounded on its own, as the language (and OpenCL's
// FP_CONTRACT OFF) requires: float arithmetic is decorated NoContraction, so
// a Vulkan driver neither fuses a product and a sum into an fma nor
// reassociates them. Integer arithmetic has no such decoration.
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<8xf32>, %d: memref<8xf64>, %n: memref<8xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %x[%t] : memref<8xf32>
      %c100 = arith.constant 100.0 : f32
      %c3 = arith.constant 3.0 : f32
      %m = arith.mulf %a, %c100 : f32
      %s = arith.addf %m, %a : f32
      %u = arith.subf %s, %c3 : f32
      %q = arith.divf %u, %c3 : f32
      %r = arith.remf %q, %c3 : f32
      %ng = arith.negf %r : f32
      memref.store %ng, %x[%t] : memref<8xf32>
      %b = memref.load %d[%t] : memref<8xf64>
      %bb = arith.mulf %b, %b : f64
      %bs = arith.addf %bb, %b : f64
      memref.store %bs, %d[%t] : memref<8xf64>
      %i = memref.load %n[%t] : memref<8xi32>
      %ii = arith.muli %i, %i : i32
      %is = arith.addi %ii, %i : i32
      memref.store %is, %n[%t] : memref<8xi32>
      gpu.return
    }
  }
}

// CHECK: OpDecorate %[[M:[0-9a-z_]+]] NoContraction
// CHECK-NEXT: OpDecorate %[[S:[0-9a-z_]+]] NoContraction
// CHECK-NEXT: OpDecorate %[[U:[0-9a-z_]+]] NoContraction
// CHECK-NEXT: OpDecorate %[[Q:[0-9a-z_]+]] NoContraction
// CHECK-NEXT: OpDecorate %[[R:[0-9a-z_]+]] NoContraction
// CHECK-NEXT: OpDecorate %[[NG:[0-9a-z_]+]] NoContraction
// CHECK-NEXT: OpDecorate %[[BB:[0-9a-z_]+]] NoContraction
// CHECK-NEXT: OpDecorate %[[BS:[0-9a-z_]+]] NoContraction
// CHECK-NOT: NoContraction
// CHECK: %[[M]] = OpFMul %float
// CHECK-NEXT: %[[S]] = OpFAdd %float %[[M]]
// CHECK-NEXT: %[[U]] = OpFSub %float %[[S]]
// CHECK-NEXT: %[[Q]] = OpFDiv %float %[[U]]
// CHECK-NEXT: %[[R]] = OpFRem %float %[[Q]]
// CHECK-NEXT: %[[NG]] = OpFNegate %float %[[R]]
// CHECK: %[[BB]] = OpFMul %double
// CHECK-NEXT: %[[BS]] = OpFAdd %double %[[BB]]
// CHECK: OpIMul %uint
