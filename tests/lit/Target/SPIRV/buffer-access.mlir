// Every storage buffer is Restrict (a launch never passes a buffer that the
// kernel writes twice), and NonWritable where the kernel only loads from it,
// as OpenCL C's `const T *restrict`: a buffer that is only read (%in), one
// that is only written (%out), one read and written in place (%acc) and one
// written through a vector store (%pair). The decorations go on the
// variables: %in, %out and %acc share their struct type.
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @access(%in: memref<64xf32>, %out: memref<64xf32>, %acc: memref<64xf32>, %pair: memref<128xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %t = gpu.thread_id x
      %x = memref.load %in[%t] : memref<64xf32>
      memref.store %x, %out[%t] : memref<64xf32>
      %a = memref.load %acc[%t] : memref<64xf32>
      %s = arith.addf %a, %x : f32
      memref.store %s, %acc[%t] : memref<64xf32>
      %v = vector.broadcast %x : f32 to vector<2xf32>
      %c2 = arith.constant 2 : index
      %i = arith.muli %t, %c2 : index
      vector.store %v, %pair[%i] : memref<128xf32>, vector<2xf32>
      gpu.return
    }
  }
}

// CHECK-NOT: NonWritable
// CHECK: OpDecorate %arg0 DescriptorSet 0
// CHECK-NEXT: OpDecorate %arg0 NonWritable
// CHECK-NEXT: OpDecorate %arg0 Restrict
// CHECK-NEXT: OpDecorate %arg1 Binding 1
// CHECK-NEXT: OpDecorate %arg1 DescriptorSet 0
// CHECK-NEXT: OpDecorate %arg1 Restrict
// CHECK-NEXT: OpDecorate %arg2 Binding 2
// CHECK-NEXT: OpDecorate %arg2 DescriptorSet 0
// CHECK-NEXT: OpDecorate %arg2 Restrict
// CHECK-NOT: NonWritable
// CHECK: OpDecorate %arg3 DescriptorSet 0
// CHECK-NEXT: OpDecorate %arg3 Restrict
// CHECK-NOT: NonWritable
