// A work-group array that the kernel stores one element at a time and reads
// back as vectors (the tiled product's A tile, staged transposed) is an
// array of vec4: each vector load one OpLoad of a vec4, as OpenCL C's float4
// read of the __local array, and each scalar store an OpStore to the
// component [%i / 4][%i mod 4] of one, so that no work-item writes the
// components another writes. The same for loads of elements and stores of
// whole rows; spirv-val accepts the module (tile-translate validates it).
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @stage(%in: memref<64xf32>, %out: memref<64xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>} {
      %tile = memref.alloc() : memref<80xf32, 3>
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %c20 = arith.constant 20 : index
      %base = arith.muli %t, %c4 : index
      %v = vector.load %in[%base] : memref<64xf32>, vector<4xf32>
      // Transposed: element j of the vector to row j of a 20-wide tile.
      %x0 = vector.extract %v[0] : f32 from vector<4xf32>
      memref.store %x0, %tile[%t] : memref<80xf32, 3>
      %j1 = arith.addi %t, %c20 : index
      %x1 = vector.extract %v[1] : f32 from vector<4xf32>
      memref.store %x1, %tile[%j1] : memref<80xf32, 3>
      gpu.barrier
      %row = arith.remui %base, %c20 : index
      %u = vector.load %tile[%row] : memref<80xf32, 3>, vector<4xf32>
      %y = memref.load %tile[%j1] : memref<80xf32, 3>
      %s = vector.extract %u[3] : f32 from vector<4xf32>
      %sum = arith.addf %s, %y : f32
      memref.store %sum, %out[%t] : memref<64xf32>
      gpu.barrier
      vector.store %u, %tile[%row] : memref<80xf32, 3>, vector<4xf32>
      gpu.return
    }
  }
}

// CHECK: %_arr_v4float_uint_20 = OpTypeArray %v4float %uint_20
// CHECK: %__workgroup_mem__0 = OpVariable %_ptr_Workgroup_{{.*}} Workgroup
// CHECK-NOT: OpTypeArray %float %uint_80
// CHECK-LABEL: %stage = OpFunction
// CHECK: [[T:%[0-9]+]] = OpCompositeExtract %uint %{{[0-9]+}} 0
// CHECK: [[R0:%[0-9]+]] = OpUDiv %uint [[T]] %uint_4
// CHECK: [[C0:%[0-9]+]] = OpUMod %uint [[T]] %uint_4
// CHECK: [[P0:%[0-9]+]] = OpAccessChain %_ptr_Workgroup_float %__workgroup_mem__0 %uint_0 [[R0]] [[C0]]
// CHECK: OpStore [[P0]] %{{[0-9]+}}
// CHECK: [[J1:%[0-9]+]] = OpIAdd %uint [[T]] %uint_20
// CHECK: [[R1:%[0-9]+]] = OpUDiv %uint [[J1]] %uint_4
// CHECK: [[C1:%[0-9]+]] = OpUMod %uint [[J1]] %uint_4
// CHECK: [[P1:%[0-9]+]] = OpAccessChain %_ptr_Workgroup_float %__workgroup_mem__0 %uint_0 [[R1]] [[C1]]
// CHECK: OpStore [[P1]] %{{[0-9]+}}
// CHECK: OpControlBarrier
// CHECK: [[Q:%[0-9]+]] = OpUDiv %uint %{{[0-9]+}} %uint_4
// CHECK: [[PV:%[0-9]+]] = OpAccessChain %_ptr_Workgroup_v4float %__workgroup_mem__0 %uint_0 [[Q]]
// CHECK: [[U:%[0-9]+]] = OpLoad %v4float [[PV]]
// CHECK: [[PY:%[0-9]+]] = OpAccessChain %_ptr_Workgroup_float %__workgroup_mem__0 %uint_0 [[R1]] [[C1]]
// CHECK: OpLoad %float [[PY]]
// CHECK: OpControlBarrier
// CHECK: [[PS:%[0-9]+]] = OpAccessChain %_ptr_Workgroup_v4float %__workgroup_mem__0 %uint_0 [[Q]]
// CHECK: OpStore [[PS]] [[U]]
// CHECK-NOT: OpAccessChain %_ptr_Workgroup_float
// CHECK: OpFunctionEnd
