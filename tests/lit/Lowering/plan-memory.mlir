// RUN: tile-opt %s -split-input-file "--tile-plan-memory=profile=%S/Inputs/small-alloc.json" | FileCheck %s
// RUN: tile-opt %s -split-input-file "--tile-plan-memory=profile=%S/Inputs/small-memory.json" | FileCheck %s --check-prefix=STREAM

// Memory planning records where tensors too large for the device are cut.
// small-alloc allows 64 KiB per buffer: the 84000-byte tensors are stored as
// pieces of 32 rows (of 1200 bytes) and the kernel runs in chunks of rows
// that end where the pieces do. small-memory has 32 KiB in all: the tensors
// stream through it in smaller pieces, whose size is recorded on the
// arguments and results, and the launches hold at most the streamed peak.

// CHECK-LABEL: func.func @scale
// CHECK-SAME: (%{{.*}}: tensor<70x300xf32>, %{{.*}}: tensor<70x300xf32>) -> tensor<70x300xf32> {
// CHECK: tile.kernel elementwise "k0_C" attributes {chunk_bounds = array<i64: 0, 32, 64, 70>, schedule = #tile.schedule<kind = per_element,
// STREAM-LABEL: func.func @scale
// STREAM-SAME: (%{{.*}}: tensor<70x300xf32> {tile.piece_bytes = 9600 : i64}, %{{.*}}: tensor<70x300xf32> {tile.piece_bytes = 9600 : i64}) -> tensor<70x300xf32> attributes {tile.streamed_peak = 28800 : i64} {
// STREAM: tile.kernel elementwise "k0_C" attributes {chunk_bounds = array<i64: 0, 8, 16, 24, 32, 40, 48, 56, 64, 70>, piece_bytes = array<i64: 9600>, schedule =
func.func @scale(%A: tensor<70x300xf32>, %B: tensor<70x300xf32>) -> tensor<70x300xf32> {
  %two = tile.constant 2.0 : f32
  %0 = tile.kernel elementwise "k0_C" attributes {schedule = #tile.schedule<kind = per_element, local_size = [256, 1, 1], num_groups = [21, 1, 1], active_items = 21000, walk_width = 4, walk_steps = 5250, vector_accesses = 3, accesses = 3, loop_passes = 0.0, registers = 24, reason = "hand-written">} -> tensor<70x300xf32> {
    %1 = tile.ew mul %A, %two : (tensor<70x300xf32>, tensor<f32>) -> tensor<70x300xf32>
    %2 = tile.ew add %1, %B : (tensor<70x300xf32>, tensor<70x300xf32>) -> tensor<70x300xf32>
    tile.yield %2 : tensor<70x300xf32>
  }
  return %0 : tensor<70x300xf32>
}

// -----

// A reduction over a split tensor runs in chunks of rows with the generic
// schedule: memory planning rewrites its schedule.
// CHECK-LABEL: func.func @rows
// CHECK: tile.kernel contraction "k0_R" attributes {chunk_bounds = array<i64: 0, 32, 64, 70>, schedule = #tile.schedule<kind = generic, {{.*}}reason = "generic: a reduction over a tensor split into pieces runs in chunks of rows, with the generic schedule;
func.func @rows(%A: tensor<70x300xf32>) -> tensor<70xf32> {
  %0 = tile.kernel contraction "k0_R" attributes {schedule = #tile.schedule<kind = reduction, local_size = [64, 1, 1], num_groups = [70, 1, 1], active_items = 4480, merged_levels = 1, compensated = false, loop_passes = 5.0, local_mem_bytes = 256, registers = 24, reason = "hand-written">} -> tensor<70xf32> {
    %1 = tile.contract add (i, j) [i] = %A[i, j] : tensor<70x300xf32> -> tensor<70xf32>
    tile.yield %1 : tensor<70xf32>
  }
  return %0 : tensor<70xf32>
}
