// Vector loads and stores (vector<2|4xT>, from the vectorising lowering)
// become scalar accesses: MLIR 19 would turn them into a bitcast of the
// element pointer, which Vulkan's logical addressing forbids. The elements
// stored are the scalars loaded; arithmetic and broadcasts stay vectors.
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @vectors(%in: memref<64xf32>, %out: memref<64xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>} {
      %tile = memref.alloc() : memref<64xf32, 3>
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %base = arith.muli %t, %c4 : index
      %v = vector.load %in[%base] : memref<64xf32>, vector<4xf32>
      vector.store %v, %tile[%base] : memref<64xf32, 3>, vector<4xf32>
      gpu.barrier
      %w = vector.load %tile[%base] : memref<64xf32, 3>, vector<2xf32>
      %a = vector.extract %w[0] : f32 from vector<2xf32>
      %b = vector.extract %w[1] : f32 from vector<2xf32>
      %s = arith.addf %a, %b : f32
      %splat = vector.broadcast %s : f32 to vector<4xf32>
      %sum = arith.addf %splat, %v : vector<4xf32>
      vector.store %sum, %out[%base] : memref<64xf32>, vector<4xf32>
      gpu.return
    }
    // A vector built of scalars stores the scalars themselves.
    gpu.func @built(%in: memref<8xf32>, %out: memref<8xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [2, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %in[%t] : memref<8xf32>
      %b = arith.addf %a, %a : f32
      %v = vector.from_elements %a, %b : vector<2xf32>
      %c2 = arith.constant 2 : index
      %at = arith.muli %t, %c2 : index
      vector.store %v, %out[%at] : memref<8xf32>, vector<2xf32>
      gpu.return
    }
  }
}

// CHECK-NOT: OpTypePointer {{.*}} %v4float
// CHECK-LABEL: %vectors = OpFunction
// CHECK: [[BASE:%[0-9]+]] = OpIMul %uint %{{[0-9]+}} %uint_4
// CHECK: OpAccessChain %_ptr_StorageBuffer_float %arg0 %uint_0 [[BASE]]
// CHECK: [[I1:%[0-9]+]] = OpIAdd %uint [[BASE]] %uint_1
// CHECK: OpAccessChain %_ptr_StorageBuffer_float %arg0 %uint_0 [[I1]]
// CHECK: [[I3:%[0-9]+]] = OpIAdd %uint [[BASE]] %uint_3
// CHECK: OpAccessChain %_ptr_StorageBuffer_float %arg0 %uint_0 [[I3]]
// CHECK: OpCompositeInsert %v4float %{{[0-9]+}} %{{[0-9]+}} 3
// CHECK-COUNT-4: OpStore
// CHECK: OpControlBarrier
// CHECK: OpAccessChain %_ptr_Workgroup_float %__workgroup_mem__0 %uint_0 [[BASE]]
// CHECK: OpFAdd %float
// CHECK: OpCompositeConstruct %v4float
// CHECK: OpFAdd %v4float
// CHECK: OpCompositeExtract %float %{{[0-9]+}} 3
// CHECK: OpStore

// CHECK-LABEL: %built = OpFunction
// CHECK: [[B:%[0-9]+]] = OpFAdd %float
// CHECK-NOT: OpCompositeConstruct
// CHECK: OpStore %{{[0-9]+}} %{{[0-9]+}}
// CHECK: OpStore %{{[0-9]+}} [[B]]
