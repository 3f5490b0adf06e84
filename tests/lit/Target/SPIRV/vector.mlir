// Vector loads and stores (vector<2|4xT>, from the vectorising lowering).
// A buffer accessed only through vectors of one width (%in, %out, %tile) is
// an array of vectors, each access one vector OpLoad/OpStore of the element
// at %i / W (%t * 4 divided term by term: %t, no OpUDiv); a buffer accessed through two widths (%mixed) keeps its
// scalars, and each vector access is one scalar access per element: MLIR 19
// would turn it into a bitcast of the element pointer, which Vulkan's
// logical addressing forbids. Arithmetic, fma and broadcasts stay vectors.
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @vectors(%in: memref<64xf32>, %out: memref<64xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>} {
      %tile = memref.alloc() : memref<64xf32, 3>
      %mixed = memref.alloc() : memref<64xf32, 3>
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %base = arith.muli %t, %c4 : index
      %v = vector.load %in[%base] : memref<64xf32>, vector<4xf32>
      vector.store %v, %tile[%base] : memref<64xf32, 3>, vector<4xf32>
      vector.store %v, %mixed[%base] : memref<64xf32, 3>, vector<4xf32>
      gpu.barrier
      %u = vector.load %tile[%base] : memref<64xf32, 3>, vector<4xf32>
      %w = vector.load %mixed[%base] : memref<64xf32, 3>, vector<2xf32>
      %a = vector.extract %w[0] : f32 from vector<2xf32>
      %b = vector.extract %w[1] : f32 from vector<2xf32>
      %s = arith.addf %a, %b : f32
      %splat = vector.broadcast %s : f32 to vector<4xf32>
      %sum = arith.addf %splat, %u : vector<4xf32>
      %fused = math.fma %splat, %u, %sum : vector<4xf32>
      vector.store %fused, %out[%base] : memref<64xf32>, vector<4xf32>
      gpu.return
    }
    // A stored vector built of scalars: in a vector buffer, the vector
    // built with OpCompositeInsert; in a scalar buffer, the scalars
    // themselves.
    gpu.func @built(%in: memref<8xf32>, %out: memref<8xf32>, %both: memref<8xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [2, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %in[%t] : memref<8xf32>
      %b = arith.addf %a, %a : f32
      %v = vector.from_elements %a, %b : vector<2xf32>
      %c2 = arith.constant 2 : index
      %at = arith.muli %t, %c2 : index
      vector.store %v, %out[%at] : memref<8xf32>, vector<2xf32>
      vector.store %v, %both[%at] : memref<8xf32>, vector<2xf32>
      memref.store %a, %both[%t] : memref<8xf32>
      gpu.return
    }
  }
}

// CHECK-LABEL: %vectors = OpFunction
// CHECK: [[T:%[0-9]+]] = OpCompositeExtract %uint %{{[0-9]+}} 0
// CHECK: [[BASE:%[0-9]+]] = OpIMul %uint [[T]] %uint_4
// CHECK-NOT: OpUDiv
// CHECK: [[P:%[0-9]+]] = OpAccessChain %_ptr_StorageBuffer_v4float %arg0 %uint_0 [[T]]
// CHECK: [[V:%[0-9]+]] = OpLoad %v4float [[P]]
// CHECK: OpAccessChain %_ptr_Workgroup_v4float %__workgroup_mem__0 %uint_0 [[T]]
// CHECK: OpStore %{{[0-9]+}} [[V]]
// CHECK: OpCompositeExtract %float [[V]] 0
// CHECK: OpAccessChain %_ptr_Workgroup_float %__workgroup_mem__1 %uint_0 [[BASE]]
// CHECK: OpCompositeExtract %float [[V]] 3
// CHECK: OpStore
// CHECK: OpControlBarrier
// CHECK: OpAccessChain %_ptr_Workgroup_v4float %__workgroup_mem__0 %uint_0
// CHECK: OpLoad %v4float
// CHECK: OpAccessChain %_ptr_Workgroup_float %__workgroup_mem__1 %uint_0 [[BASE]]
// CHECK: OpFAdd %float
// CHECK: OpCompositeConstruct %v4float
// CHECK: [[SUM:%[0-9]+]] = OpFAdd %v4float
// CHECK: [[FUSED:%[0-9]+]] = OpExtInst %v4float %{{[0-9]+}} Fma %{{[0-9]+}} %{{[0-9]+}} [[SUM]]
// CHECK: OpAccessChain %_ptr_StorageBuffer_v4float %arg1 %uint_0
// CHECK: OpStore %{{[0-9]+}} [[FUSED]]

// CHECK-LABEL: %built = OpFunction
// CHECK: [[A:%[0-9]+]] = OpLoad %float
// CHECK: [[B:%[0-9]+]] = OpFAdd %float
// CHECK: [[V0:%[0-9]+]] = OpCompositeInsert %v2float [[A]] %{{.*}} 0
// CHECK: [[V1:%[0-9]+]] = OpCompositeInsert %v2float [[B]] [[V0]] 1
// CHECK: OpAccessChain %_ptr_StorageBuffer_v2float %arg1 %uint_0
// CHECK: OpStore %{{[0-9]+}} [[V1]]
// CHECK: OpAccessChain %_ptr_StorageBuffer_float %arg2 %uint_0
// CHECK: OpStore %{{[0-9]+}} [[A]]
// CHECK: OpStore %{{[0-9]+}} [[B]]
