// A buffer of 2^32 elements or more is a runtime array: MLIR 19's SPIR-V
// array type holds a 32-bit length, and a buffer of 2^33 f32 (a 32 GiB
// tensor, which a device with 35 GiB buffers allows) became an array of
// length 0, which spirv-val refused as an internal error (found by the
// front-end fuzzer). Smaller buffers keep their fixed length; a vector
// buffer counts its vectors.
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 64 : i64} {
  gpu.module @kernels {
    gpu.func @huge(%in: memref<16xf32>, %out: memref<8589934592xf32>, %wide: memref<17179869184xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<16xf32>
      %c = arith.constant 8589934000 : index
      %i = arith.addi %t, %c : index
      memref.store %x, %out[%i] : memref<8589934592xf32>
      %v = vector.broadcast %x : f32 to vector<4xf32>
      %c4 = arith.constant 4 : index
      %j = arith.muli %i, %c4 : index
      vector.store %v, %wide[%j] : memref<17179869184xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// CHECK-DAG: %{{.*}} = OpTypeArray %float %uint_16
// CHECK-DAG: %{{.*}} = OpTypeRuntimeArray %float
// CHECK-DAG: %{{.*}} = OpTypeRuntimeArray %v4float
// CHECK-NOT: OpTypeArray %float %uint_0
