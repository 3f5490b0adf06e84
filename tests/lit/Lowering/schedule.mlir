// RUN: tile-opt %s -split-input-file --tile-schedule | FileCheck %s
// RUN: tile-opt %s -split-input-file "--tile-schedule=profile=%S/Inputs/cpu.json" | FileCheck %s --check-prefix=CPU

// Scheduling writes each kernel's schedule as a #tile.schedule: a dense
// matrix product gets work-group and register tiles, a long reduction over few
// elements a work-group per element (here several, whose partials the last
// of them combines, each work-item taking 4 consecutive tuples per step),
// elementwise kernels one step of consecutive elements per work-item.

// CHECK-LABEL: func.func @matmul
// CHECK: tile.kernel contraction "k0_C" attributes {schedule = #tile.schedule<kind = tiled, local_size = [8, 8, 1], num_groups = [4, 4, 1], active_items = 16384, block_m = 32, block_n = 32, block_k = 8, reg_m = 4, reg_n = 4, stride_a = 36, stride_b = 32, vector_width = 4, stage_width_a = 4, stage_width_b = 4, double_buffered = true, loop_passes = 3.210000e+02 : f64, local_mem_bytes = 4352, registers = 44, reason = "dense matrix product (M=128, N=128, K=256)
// A CPU (one megabyte of local memory, work-groups up to 4096) takes larger
// tiles and reads them as scalars.
// CPU-LABEL: func.func @matmul
// CPU: schedule = #tile.schedule<kind = tiled, local_size = [16, 16, 1], num_groups = [2, 2, 1], active_items = 16384, block_m = 64, block_n = 64, block_k = 8, reg_m = 4, reg_n = 4, stride_a = 65, stride_b = 64, double_buffered = true, loop_passes = 3.210000e+02 : f64, local_mem_bytes = 8256, registers = 40,
func.func @matmul(%A: tensor<128x256xf32>, %B: tensor<256x128xf32>) -> tensor<128x128xf32> {
  %0 = tile.kernel contraction "k0_C" -> tensor<128x128xf32> {
    %1 = tile.contract add, mul (i, j, k) [i, j] = %A[i, k], %B[k, j]
        : tensor<128x256xf32>, tensor<256x128xf32> -> tensor<128x128xf32>
    tile.yield %1 : tensor<128x128xf32>
  }
  return %0 : tensor<128x128xf32>
}

// -----

// CHECK-LABEL: func.func @sum
// CHECK: tile.kernel contraction "k0_S" attributes {schedule = #tile.schedule<kind = reduction, local_size = [256, 1, 1], num_groups = [128, 1, 1], active_items = 32768, merged_levels = 1, step_width = 4, partial_groups = 128, last_group_combines = true, compensated = true, loop_passes = 1.100000e+01 : f64, local_mem_bytes = 2052, registers = 27,
// A CPU's work-items take contiguous chunks of the reduction.
// CPU-LABEL: func.func @sum
// CPU: schedule = #tile.schedule<kind = reduction, local_size = [256, 1, 1], num_groups = [2, 1, 1], active_items = 512, merged_levels = 1, contiguous = true, partial_groups = 2, last_group_combines = true, compensated = true, loop_passes = 2.051000e+03 : f64,
func.func @sum(%X: tensor<1048576xf32>) -> tensor<f32> {
  %0 = tile.kernel contraction "k0_S" -> tensor<f32> {
    %1 = tile.contract add (i) [] = %X[i] : tensor<1048576xf32> -> tensor<f32>
    tile.yield %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @elementwise
// CHECK: tile.kernel elementwise "k0_Y" attributes {schedule = #tile.schedule<kind = per_element, local_size = [256, 1, 1], num_groups = [4, 1, 1], active_items = 4096, walk_width = 4, walk_steps = 1024, vector_accesses = 2, accesses = 2, loop_passes = 0.000000e+00 : f64, registers = 24,
// CPU-LABEL: func.func @elementwise
// CPU: schedule = #tile.schedule<kind = per_element, local_size = [256, 1, 1], num_groups = [16, 1, 1], active_items = 4096, walk_steps = 4096, accesses = 2, loop_passes = 0.000000e+00 : f64, registers = 18,
func.func @elementwise(%X: tensor<4096xf32>) -> tensor<4096xf32> {
  %0 = tile.kernel elementwise "k0_Y" -> tensor<4096xf32> {
    %1 = tile.ew exp %X : (tensor<4096xf32>) -> tensor<4096xf32>
    %2 = tile.ew neg %1 : (tensor<4096xf32>) -> tensor<4096xf32>
    tile.yield %2 : tensor<4096xf32>
  }
  return %0 : tensor<4096xf32>
}
