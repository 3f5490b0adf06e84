// RUN: not tile-opt %s -split-input-file "--tile-lower-to-kernel-ir=profile=%S/Inputs/small-alloc.json" 2>&1 | FileCheck %s

// The chunks the memory plan records must be those the tensors' pieces make.
func.func @chunks(%A: tensor<70x300xf32>) -> tensor<70x300xf32> {
  // CHECK: :8: error: kernel k0_C records the chunk bounds [0, 35, 70], but the pieces of the tensors it touches make [0, 32, 64, 70]
  %0 = tile.kernel elementwise "k0_C" attributes {chunk_bounds = array<i64: 0, 35, 70>, schedule = #tile.schedule<kind = per_element, local_size = [256, 1, 1], num_groups = [21, 1, 1], active_items = 21000, walk_width = 4, walk_steps = 5250, vector_accesses = 2, accesses = 2, loop_passes = 0.0, registers = 24>} -> tensor<70x300xf32> {
    %1 = tile.ew neg %A : (tensor<70x300xf32>) -> tensor<70x300xf32>
    tile.yield %1 : tensor<70x300xf32>
  }
  return %0 : tensor<70x300xf32>
}

// -----

// A schedule must suit its kernel, and fit the device.
func.func @mismatch(%A: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: :8: error: `elementwise` kernels cannot run the `tiled` schedule
  %0 = tile.kernel elementwise "k0_B" attributes {schedule = #tile.schedule<kind = tiled, local_size = [4, 1, 1], num_groups = [1, 1, 1], loop_passes = 1.0>} -> tensor<4xf32> {
    %1 = tile.ew neg %A : (tensor<4xf32>) -> tensor<4xf32>
    tile.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// The implicit GEMM schedule needs a contraction that it views as a matrix
// product; a depthwise convolution is none.
func.func @depthwise(%I: tensor<1x4x4x2xf32>, %F: tensor<3x3x2xf32>) -> tensor<1x4x4x2xf32> {
  // CHECK: :8: error: an implicit GEMM schedule needs a contraction viewed as a matrix product: no output index addresses input 1 alone
  %0 = tile.kernel contraction "k0_O" attributes {schedule = #tile.schedule<kind = implicit_gemm, local_size = [4, 4, 1], num_groups = [1, 1, 1], block_m = 16, block_n = 16, block_k = 16, reg_m = 4, reg_n = 4, stride_a = 16, stride_b = 16, loop_passes = 1.0>} -> tensor<1x4x4x2xf32> {
    %1 = tile.contract add, mul (n, y, x, c, ky, kx) [n, y, x, c] = %I[n, y + ky - 1, x + kx - 1, c], %F[ky, kx, c] : tensor<1x4x4x2xf32>, tensor<3x3x2xf32> -> tensor<1x4x4x2xf32>
    tile.yield %1 : tensor<1x4x4x2xf32>
  }
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// A generic schedule's lanes (walk_width) must share the loop nest: here the
// output's last axis (2) is not a multiple of 4.
func.func @lanes(%I: tensor<1x4x4x2xf32>, %F: tensor<3x3x2xf32>) -> tensor<1x4x4x2xf32> {
  // CHECK: :8: error: a generic schedule cannot take 4 consecutive elements per work-item: the output's last axis is not a multiple of 4
  %0 = tile.kernel contraction "k0_O" attributes {schedule = #tile.schedule<kind = generic, local_size = [256, 1, 1], num_groups = [1, 1, 1], active_items = 8, walk_width = 4, walk_steps = 8, loop_passes = 9.0, registers = 33>} -> tensor<1x4x4x2xf32> {
    %1 = tile.contract add, mul (n, y, x, c, ky, kx) [n, y, x, c] = %I[n, y + ky - 1, x + kx - 1, c], %F[ky, kx, c] : tensor<1x4x4x2xf32>, tensor<3x3x2xf32> -> tensor<1x4x4x2xf32>
    tile.yield %1 : tensor<1x4x4x2xf32>
  }
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// Lanes are 1, 2 or 4.
func.func @lanes_width(%I: tensor<1x4x4x3xf32>, %F: tensor<3x3x3xf32>) -> tensor<1x4x4x3xf32> {
  // CHECK: :8: error: a generic schedule's walk_width (its lanes) must be 1, 2 or 4, not 3
  %0 = tile.kernel contraction "k0_O" attributes {schedule = #tile.schedule<kind = generic, local_size = [256, 1, 1], num_groups = [1, 1, 1], active_items = 16, walk_width = 3, walk_steps = 16, loop_passes = 9.0, registers = 33>} -> tensor<1x4x4x3xf32> {
    %1 = tile.contract add, mul (n, y, x, c, ky, kx) [n, y, x, c] = %I[n, y + ky - 1, x + kx - 1, c], %F[ky, kx, c] : tensor<1x4x4x3xf32>, tensor<3x3x3xf32> -> tensor<1x4x4x3xf32>
    tile.yield %1 : tensor<1x4x4x3xf32>
  }
  return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @too_wide(%A: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: :8: error: the kernel does not fit device 'small-alloc': a work-group of 4096 work-items exceeds its maximum of 256
  %0 = tile.kernel elementwise "k0_B" attributes {schedule = #tile.schedule<kind = per_element, local_size = [4096, 1, 1], num_groups = [1, 1, 1], active_items = 4, walk_steps = 4, accesses = 2, loop_passes = 0.0, registers = 17>} -> tensor<4xf32> {
    %1 = tile.ew neg %A : (tensor<4xf32>) -> tensor<4xf32>
    tile.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// Only reductions share an element among work-items and work-groups (and
// tiled schedules their reduction among work-groups).
func.func @shared(%A: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: :8: error: only a `reduction` schedule shares elements (partial_groups, elements_per_group), and a tiled one its reduction (partial_groups)
  %0 = tile.kernel elementwise "k0_B" attributes {schedule = #tile.schedule<kind = per_element, local_size = [4, 1, 1], num_groups = [1, 1, 1], active_items = 4, walk_steps = 4, accesses = 2, partial_groups = 2, loop_passes = 0.0, registers = 17>} -> tensor<4xf32> {
    %1 = tile.ew neg %A : (tensor<4xf32>) -> tensor<4xf32>
    tile.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @levels(%A: tensor<4096xf32>) -> tensor<f32> {
  // CHECK: :8: error: kernel k0_S's reduction schedule shares loop levels its contraction does not have (1)
  %0 = tile.kernel contraction "k0_S" attributes {schedule = #tile.schedule<kind = reduction, local_size = [256, 1, 1], num_groups = [1, 1, 1], active_items = 256, merged_levels = 0, strided_level = 3, loop_passes = 16.0, local_mem_bytes = 1024, registers = 24>} -> tensor<f32> {
    %1 = tile.contract add (i) [] = %A[i] : tensor<4096xf32> -> tensor<f32>
    tile.yield %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

// Steps of a reduction's shared range: 2 or 4 tuples, where every input
// that moves along them loads one aligned vector per step.
func.func @step_width(%A: tensor<4096xf32>) -> tensor<f32> {
  // CHECK: :8: error: kernel k0_S: only a `reduction` schedule takes steps (step_width), of 2 or 4 tuples, not 3
  %0 = tile.kernel contraction "k0_S" attributes {schedule = #tile.schedule<kind = reduction, local_size = [256, 1, 1], num_groups = [1, 1, 1], active_items = 256, merged_levels = 1, step_width = 3, loop_passes = 6.0, local_mem_bytes = 1024, registers = 24>} -> tensor<f32> {
    %1 = tile.contract add (i) [] = %A[i] : tensor<4096xf32> -> tensor<f32>
    tile.yield %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @step_alignment(%A: tensor<4097xf32>) -> tensor<f32> {
  // CHECK: :8: error: kernel k0_S's reduction schedule cannot take steps of 4 tuples: the innermost merged loop does not run a multiple of 4 iterations from a multiple of 4
  %0 = tile.kernel contraction "k0_S" attributes {schedule = #tile.schedule<kind = reduction, local_size = [256, 1, 1], num_groups = [1, 1, 1], active_items = 256, merged_levels = 1, step_width = 4, loop_passes = 5.0, local_mem_bytes = 1024, registers = 27>} -> tensor<f32> {
    %1 = tile.contract add (i) [] = %A[i] : tensor<4097xf32> -> tensor<f32>
    tile.yield %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @step_address(%A: tensor<64x64xf32>) -> tensor<f32> {
  // CHECK: :8: error: kernel k0_S's reduction schedule cannot take steps of 4 tuples: an input is addressed by the innermost merged loop other than by its index variable alone in its last dimension, a multiple of 4 elements with vectors
  %0 = tile.kernel contraction "k0_S" attributes {schedule = #tile.schedule<kind = reduction, local_size = [256, 1, 1], num_groups = [1, 1, 1], active_items = 256, merged_levels = 2, step_width = 4, loop_passes = 5.0, local_mem_bytes = 1024, registers = 27>} -> tensor<f32> {
    %1 = tile.contract add (i, j) [] = %A[j, i] : tensor<64x64xf32> -> tensor<f32>
    tile.yield %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @combination(%A: tensor<4096xf32>) -> tensor<f32> {
  // CHECK: :8: error: a kernel cannot run the `partial_combination` schedule: lowering adds it after a reduction
  %0 = tile.kernel contraction "k0_S" attributes {schedule = #tile.schedule<kind = partial_combination, local_size = [1, 1, 1], num_groups = [1, 1, 1], active_items = 1, loop_passes = 16.0>} -> tensor<f32> {
    %1 = tile.contract add (i) [] = %A[i] : tensor<4096xf32> -> tensor<f32>
    tile.yield %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}
