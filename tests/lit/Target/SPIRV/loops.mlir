// A loop with results whose trip count may be zero: the SPIR-V conversion
// keeps the results in variables that only the loop's body stores, so the
// loop is put in a selection whose other branch stores the initial values
// (a work-item with no tuples keeps the product's identity, 1). A loop
// with constant bounds that surely runs gets no selection. A loop that does
// not start at a constant of at least zero counts from zero to end - start
// (tilec-spirv-start-loops-at-zero).
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @product(%in: memref<64xf32>, %out: memref<64xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %t = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c60 = arith.constant 60 : index
      %one = arith.constant 1.0 : f32
      %start = arith.muli %t, %c4 : index
      %end = arith.minsi %start, %c60 : index
      %p = scf.for %i = %start to %end step %c1 iter_args(%acc = %one) -> (f32) {
        %x = memref.load %in[%i] : memref<64xf32>
        %y = arith.mulf %acc, %x : f32
        scf.yield %y : f32
      }
      %q = scf.for %i = %c1 to %c4 step %c1 iter_args(%acc = %p) -> (f32) {
        %y = arith.mulf %acc, %acc : f32
        scf.yield %y : f32
      }
      memref.store %q, %out[%t] : memref<64xf32>
      gpu.return
    }
  }
}

// CHECK: %[[PRODUCT:.*]] = OpFunction
// CHECK: OpVariable %{{.*}} Function
// CHECK: %[[RUNS:.*]] = OpSLessThan %bool %[[START:[0-9a-z_]+]] %[[END:[0-9a-z_]+]]
// CHECK: OpSelectionMerge %[[JOIN:[0-9a-z_]+]] None
// CHECK-NEXT: OpBranchConditional %[[RUNS]] %[[THEN:[0-9a-z_]+]] %[[ELSE:[0-9a-z_]+]]
// CHECK: %[[COUNT:[0-9a-z_]+]] = OpISub %uint %[[END]] %[[START]]
// CHECK: %[[COUNTER:[0-9a-z_]+]] = OpPhi %uint %{{.*}} %uint_0
// CHECK: OpSLessThan %bool %[[COUNTER]] %[[COUNT]]
// CHECK-NEXT: OpLoopMerge
// CHECK: OpIAdd %uint %[[COUNTER]] %[[START]]
// CHECK: %[[ELSE]] = OpLabel
// CHECK-NEXT: OpStore %[[RESULT:[0-9a-z_]+]] %float_1
// CHECK-NEXT: OpBranch %[[JOIN]]
// CHECK: %[[JOIN]] = OpLabel
// CHECK-NEXT: OpLoad %float %[[RESULT]]
// CHECK-NOT: OpSelectionMerge
// CHECK: OpLoopMerge
// CHECK-NOT: OpSelectionMerge
// CHECK: OpFunctionEnd
