// RUN: tile-opt %s -split-input-file "--tile-lower-to-kernel-ir=profile=%S/Inputs/small-alloc.json" | FileCheck %s
// RUN: tile-opt %s -split-input-file "--tile-lower-to-kernel-ir=profile=%S/Inputs/small-alloc.json explain" 2>&1 >/dev/null | FileCheck %s --check-prefix=EXPLAIN

// The last pass builds the kernel IR from the kernels, their schedules and
// the memory plan alone: one gpu.func per chunk of the split launch, each
// launched with the pieces of the tensors that hold its rows.

// CHECK-LABEL: gpu.module @kernels
// CHECK: gpu.func @k0_C_c0(%arg0: memref<9600xf32> {tile.name = "A_p0"}, %arg1: memref<9600xf32> {tile.name = "B_p0"}, %arg2: memref<9600xf32> {tile.name = "C_p0"}) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [256, 1, 1]>, tile.bytes = 1.152000e+05 : f64, tile.flops = 1.920000e+04 : f64
// CHECK: gpu.func @k0_C_c1(
// CHECK: gpu.func @k0_C_c2(%arg0: memref<1800xf32> {tile.name = "A_p2"}, %arg1: memref<1800xf32> {tile.name = "B_p2"}, %arg2: memref<1800xf32> {tile.name = "C_p2"})
// CHECK-LABEL: func.func @scale
// CHECK-SAME: (%{{.*}}: memref<21000xf32> {tile.dtype = "f32", tile.kind = "input", tile.name = "A", tile.shape = [70, 300]}, %{{.*}}: memref<21000xf32> {{.*}}, %{{.*}}: memref<21000xf32> {tile.dtype = "f32", tile.kind = "output", tile.name = "C", tile.shape = [70, 300]})
// CHECK: %[[A0:.*]] = memref.alloc() {tile.byte_offset = 0 : i64, tile.dtype = "f32", tile.name = "A.0", tile.piece_of = "A", tile.shape = [32, 300]} : memref<9600xf32>
// CHECK: gpu.launch_func @kernels::@k0_C_c0 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%[[A0]] : memref<9600xf32>
// CHECK: gpu.launch_func @kernels::@k0_C_c1
// CHECK: gpu.launch_func @kernels::@k0_C_c2
// EXPLAIN: split: tensor 'A' tensor<70x300xf32> needs 84000 bytes, more than one buffer of device 'small-alloc' holds (65536): 3 pieces of at most 32 rows (38400 bytes) of its outermost dimension
// EXPLAIN: kernel k0_C_c0 (
// EXPLAIN-NEXT: computes: 2 fused elementwise ops over tensor<70x300xf32>
// EXPLAIN-NEXT: split: rows [0, 32) of the outermost dimension, chunk 1 of 3; pieces A.0, B.0, C.0
// EXPLAIN-NEXT: schedule: per element; work-groups 10x1x1 of 256x1x1
// EXPLAIN: why: hand-written
func.func @scale(%A: tensor<70x300xf32> {tile.name = "A"}, %B: tensor<70x300xf32> {tile.name = "B"})
    -> (tensor<70x300xf32> {tile.name = "C"}) {
  %two = tile.constant 2.0 : f32
  %0 = tile.kernel elementwise "k0_C" attributes {chunk_bounds = array<i64: 0, 32, 64, 70>, schedule = #tile.schedule<kind = per_element, local_size = [256, 1, 1], num_groups = [21, 1, 1], active_items = 21000, walk_width = 4, walk_steps = 5250, vector_accesses = 3, accesses = 3, loop_passes = 0.0, registers = 24, reason = "hand-written">} -> tensor<70x300xf32> {
    %1 = tile.ew mul %A, %two : (tensor<70x300xf32>, tensor<f32>) -> tensor<70x300xf32>
    %2 = tile.ew add %1, %B : (tensor<70x300xf32>, tensor<70x300xf32>) -> tensor<70x300xf32>
    tile.yield %2 : tensor<70x300xf32>
  }
  return %0 : tensor<70x300xf32>
}
