// Float operations on a constant +0.0 and x - x become exact equivalents
// without such an operand (SPIRVZeroOperands.cpp), because llvmpipe's code
// generator simplifies them by operand identity whatever the float controls
// say (x / +0.0 gave NaN); each kernel declares SignedZeroInfNanPreserve for
// f32.
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @zeros(%in: memref<8xf32>, %out: memref<8xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<8xf32>
      %zero = arith.constant 0.0 : f32
      %byZero = arith.divf %x, %zero : f32
      %ofZero = arith.divf %zero, %x : f32
      %product = arith.mulf %x, %zero : f32
      %sum = arith.addf %zero, %x : f32
      %a = arith.divf %x, %zero : f32
      %b = arith.divf %x, %zero : f32
      %difference = arith.subf %a, %b : f32
      %s0 = arith.addf %byZero, %ofZero : f32
      %s1 = arith.addf %s0, %product : f32
      %s2 = arith.addf %s1, %sum : f32
      %s3 = arith.addf %s2, %difference : f32
      memref.store %s3, %out[%t] : memref<8xf32>
      gpu.return
    }
    gpu.func @negative(%in: memref<8xf32>, %out: memref<8xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<8xf32>
      %zero = arith.constant -0.0 : f32
      %byZero = arith.divf %x, %zero : f32
      memref.store %byZero, %out[%t] : memref<8xf32>
      gpu.return
    }
  }
}

// CHECK-LABEL: ; Kernel zeros
// CHECK: OpCapability SignedZeroInfNanPreserve
// CHECK: OpExecutionMode %zeros SignedZeroInfNanPreserve 32
// CHECK-DAG: [[ZERO:%[a-z_0-9]+]] = OpConstant %float 0
// CHECK-DAG: [[INF:%[a-z_0-9]+]] = OpConstant %float 0x1p+128
// CHECK-DAG: [[NAN:%[a-z_0-9]+]] = OpConstant %float 0x1.8p+128
// CHECK-LABEL: %zeros = OpFunction
// CHECK: [[X:%[0-9]+]] = OpLoad %float
// x / 0: x * inf, once (the second x / 0 is the same value).
// CHECK: OpFMul %float [[X]] [[INF]]
// CHECK-NOT: OpFDiv
// CHECK-NOT: OpFMul %float [[X]] [[INF]]
// 0 / x, x * 0 and x - x: selects of a signed zero or NaN; 0 + x: a select.
// CHECK-COUNT-4: OpSelect %float
// CHECK-NOT: OpFDiv
// CHECK-NOT: OpFSub
// CHECK: OpFunctionEnd

// -0.0 is left alone: gallivm does not take it for zero.
// CHECK-LABEL: ; Kernel negative
// CHECK: OpFDiv %float %{{[0-9]+}} %float_n0
