// RUN: not tile-opt %s -split-input-file "--tile-plan-memory=profile=%S/Inputs/small-alloc.json" 2>&1 | FileCheck %s

// A transposition reads its input's rows along the output's columns: the
// input, stored in pieces of rows, cannot be taken a chunk at a time.
func.func @transpose(%A: tensor<300x100xf32> loc("A"("t.tile":1:1))) -> tensor<100x300xf32> {
  // CHECK: :8: error: tensor 'A' (120000 bytes) is stored as 3 buffers of at most 128 rows of its outermost dimension, since device 'small-alloc' allows at most 65536 bytes per buffer; this kernel cannot be split along its outermost dimension to match, because its outermost index is `i`, not the output's `j`
  %0 = tile.kernel contraction "k0_T" attributes {schedule = #tile.schedule<kind = generic, local_size = [256, 1, 1], num_groups = [118, 1, 1], active_items = 30000, loop_passes = 0.0, registers = 18>} -> tensor<100x300xf32> {
    %1 = tile.contract assign (i, j) [j, i] = %A[i, j] : tensor<300x100xf32> -> tensor<100x300xf32>
    tile.yield %1 : tensor<100x300xf32>
  }
  return %0 : tensor<100x300xf32>
}

// -----

// One row of 80000 bytes: no piece of whole rows fits a buffer.
func.func @row(%A: tensor<2x20000xf32> loc("A"("t.tile":1:1))) -> tensor<2x20000xf32> {
  // CHECK: t.tile:1:1: error: tensor 'A' needs 160000 bytes, more than the largest buffer device 'small-alloc' allows (65536 bytes), and cannot be split: one row of its outermost dimension alone needs 80000 bytes
  %0 = tile.kernel elementwise "k0_B" attributes {schedule = #tile.schedule<kind = per_element, local_size = [256, 1, 1], num_groups = [40, 1, 1], active_items = 10000, walk_width = 4, walk_steps = 10000, vector_accesses = 2, accesses = 2, loop_passes = 0.0, registers = 17>} -> tensor<2x20000xf32> {
    %1 = tile.ew neg %A : (tensor<2x20000xf32>) -> tensor<2x20000xf32>
    tile.yield %1 : tensor<2x20000xf32>
  }
  return %0 : tensor<2x20000xf32>
}

// -----

// Memory planning reads the schedules: scheduling runs first.
func.func @unscheduled(%A: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: :8: error: kernel k0_B has no schedule: run scheduling (--tile-schedule) first
  %0 = tile.kernel elementwise "k0_B" -> tensor<4xf32> {
    %1 = tile.ew neg %A : (tensor<4xf32>) -> tensor<4xf32>
    tile.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// Kernels are formed first.
func.func @unformed(%A: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: :8: error: expected in a tile.kernel: run kernel formation (--tile-form-kernels) first
  %0 = tile.ew neg %A : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A copy kernel fills a function result.
func.func @copy(%A: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: :8: error: the result of copy kernel k0_copy_0 must be returned, once
  %0 = tile.kernel copy "k0_copy_0" -> tensor<4xf32> {
    tile.yield %A : tensor<4xf32>
  }
  %1 = tile.kernel elementwise "k1_B" -> tensor<4xf32> {
    %2 = tile.ew neg %0 : (tensor<4xf32>) -> tensor<4xf32>
    tile.yield %2 : tensor<4xf32>
  }
  return %1 : tensor<4xf32>
}
