// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// tile.kernel records kernel formation, #tile.schedule the schedule chosen
// for a kernel; both print and parse back unchanged.

// CHECK-LABEL: func.func @kernels
func.func @kernels(%A: tensor<4x8xf32>, %B: tensor<8x4xf32>, %X: tensor<4xf32>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) {
  // CHECK: %[[C:.*]]:2 = tile.kernel contraction "k0_C" -> tensor<4x4xf32>, tensor<4x4xf32> {
  // CHECK-NEXT: %[[P:.*]] = tile.contract add, mul
  // CHECK-NEXT: %[[R:.*]] = tile.ew relu %[[P]]
  // CHECK-NEXT: tile.yield %[[P]], %[[R]] : tensor<4x4xf32>, tensor<4x4xf32>
  %c:2 = tile.kernel contraction "k0_C" -> tensor<4x4xf32>, tensor<4x4xf32> {
    %0 = tile.contract add, mul (i, j, k) [i, j] = %A[i, k], %B[k, j]
        : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
    %1 = tile.ew relu %0 : (tensor<4x4xf32>) -> tensor<4x4xf32>
    tile.yield %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
  }
  // The body reads values defined outside it: a generator, an argument.
  // CHECK: %[[TWO:.*]] = tile.constant
  // CHECK: tile.kernel elementwise "k1_Y" attributes {split_reason = "a new kernel"} -> tensor<4xf32> {
  // CHECK-NEXT: tile.ew mul %{{.*}}, %[[TWO]]
  %two = tile.constant 2.0 : f32
  %y = tile.kernel elementwise "k1_Y" attributes {split_reason = "a new kernel"} -> tensor<4xf32> {
    %0 = tile.ew mul %X, %two : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    tile.yield %0 : tensor<4xf32>
  }
  // A copy kernel yields the value it copies.
  // CHECK: %[[COPY:.*]] = tile.kernel copy "k2_copy_1" -> tensor<4x4xf32> {
  // CHECK-NEXT: tile.yield %[[C]]#1 : tensor<4x4xf32>
  %copy = tile.kernel copy "k2_copy_1" -> tensor<4x4xf32> {
    tile.yield %c#1 : tensor<4x4xf32>
  }
  // CHECK: return %[[C]]#1, %[[COPY]], %{{.*}}
  return %c#1, %copy, %y : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>
}

// Fields at their default are left out; the others print in order.
// CHECK-LABEL: func.func @schedules
func.func @schedules(%X: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<f32>) {
  // CHECK: schedule = #tile.schedule<kind = per_element, local_size = [256, 1, 1], num_groups = [1, 1, 1], active_items = 256, walk_width = 4, walk_steps = 256, vector_accesses = 2, accesses = 2, loop_passes = 1.000000e+00 : f64, registers = 17, reason = "per element: \22vectors\22">
  %y = tile.kernel elementwise "k0_Y" attributes {schedule = #tile.schedule<kind = per_element, local_size = [256, 1, 1], num_groups = [1, 1, 1], active_items = 256, walk_width = 4, walk_steps = 256, vector_accesses = 2, accesses = 2, loop_passes = 1.0, registers = 17, reason = "per element: \"vectors\"">} -> tensor<1024xf32> {
    %0 = tile.ew neg %X : (tensor<1024xf32>) -> tensor<1024xf32>
    tile.yield %0 : tensor<1024xf32>
  }
  // CHECK: schedule = #tile.schedule<kind = reduction, local_size = [256, 1, 1], num_groups = [4, 1, 1], active_items = 1024, merged_levels = 1, contiguous = true, partial_groups = 4, compensated = true, loop_passes = 2.500000e+00 : f64, local_mem_bytes = 2048, registers = 24>
  %s = tile.kernel contraction "k1_S" attributes {schedule = #tile.schedule<kind = reduction, local_size = [256, 1, 1], num_groups = [4, 1, 1], active_items = 1024, merged_levels = 1, strided_level = 0, contiguous = true, partial_groups = 4, tree_combination = false, compensated = true, loop_passes = 2.5, local_mem_bytes = 2048, registers = 24>} -> tensor<f32> {
    %0 = tile.contract add (i) [] = %X[i] : tensor<1024xf32> -> tensor<f32>
    tile.yield %0 : tensor<f32>
  }
  // CHECK: schedule = #tile.schedule<kind = tiled, local_size = [16, 16, 1], num_groups = [1, 1, 1], block_m = 64, block_n = 64, block_k = 16, reg_m = 4, reg_n = 4, stride_a = 68, stride_b = 68, vector_width = 4, stage_width_a = 4, stage_width_b = 4, loop_passes = 6.400000e+01 : f64
  %t = tile.kernel contraction "k2_T" attributes {schedule = #tile.schedule<kind = tiled, local_size = [16, 16, 1], num_groups = [1, 1, 1], block_m = 64, block_n = 64, block_k = 16, reg_m = 4, reg_n = 4, stride_a = 68, stride_b = 68, vector_width = 4, stage_width_a = 4, stage_width_b = 4, loop_passes = 64.0>} -> tensor<f32> {
    %0 = tile.contract max (i) [] = %X[i] : tensor<1024xf32> -> tensor<f32>
    tile.yield %0 : tensor<f32>
  }
  return %y, %s : tensor<1024xf32>, tensor<f32>
}
