// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @yield_types(%X: tensor<4xf32>) {
  // expected-error @+1 {{yields 'tensor<4xf32>' but its results are 'tensor<4xi32>'}}
  %0 = tile.kernel elementwise "k0" -> tensor<4xi32> {
    %1 = tile.ew neg %X : (tensor<4xf32>) -> tensor<4xf32>
    tile.yield %1 : tensor<4xf32>
  }
  return
}

// -----

func.func @copy_with_ops(%X: tensor<4xf32>) {
  // expected-error @+1 {{a copy kernel holds no ops and yields one value}}
  %0 = tile.kernel copy "k0" -> tensor<4xf32> {
    %1 = tile.ew neg %X : (tensor<4xf32>) -> tensor<4xf32>
    tile.yield %1 : tensor<4xf32>
  }
  return
}

// -----

func.func @contraction_first(%X: tensor<4xf32>) {
  // expected-error @+1 {{a contraction kernel starts with its tile.contract}}
  %0 = tile.kernel contraction "k0" -> tensor<4xf32> {
    %1 = tile.ew neg %X : (tensor<4xf32>) -> tensor<4xf32>
    tile.yield %1 : tensor<4xf32>
  }
  return
}

// -----

func.func @contraction_in_elementwise(%X: tensor<4xf32>) {
  %0 = tile.kernel elementwise "k0" -> tensor<f32> {
    // expected-error @+1 {{is not elementwise, in an elementwise kernel}}
    %1 = tile.contract add (i) [] = %X[i] : tensor<4xf32> -> tensor<f32>
    tile.yield %1 : tensor<f32>
  }
  return
}

// -----

func.func @shapes(%X: tensor<4xf32>, %Y: tensor<f32>) {
  %0 = tile.kernel elementwise "k0" -> tensor<4xf32> {
    %1 = tile.ew neg %X : (tensor<4xf32>) -> tensor<4xf32>
    // expected-error @+1 {{does not have the kernel's shape 'tensor<4xf32>'}}
    %2 = tile.ew neg %Y : (tensor<f32>) -> tensor<f32>
    tile.yield %1 : tensor<4xf32>
  }
  return
}

// -----

func.func @yields_outside(%X: tensor<4xf32>) {
  // expected-error @+1 {{yields a value it does not compute}}
  %0:2 = tile.kernel elementwise "k0" -> tensor<4xf32>, tensor<4xf32> {
    %1 = tile.ew neg %X : (tensor<4xf32>) -> tensor<4xf32>
    tile.yield %1, %X : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

func.func @yield_parent(%X: tensor<4xf32>) {
  // expected-error @+1 {{expects parent op 'tile.kernel'}}
  tile.yield %X : tensor<4xf32>
}

// -----

func.func @schedule_extents(%X: tensor<4xf32>) {
  // expected-error @+1 {{local_size needs 3 extents (x, y, z), got 2}}
  %0 = tile.kernel elementwise "k0" attributes {schedule = #tile.schedule<kind = per_element, local_size = [4, 1], num_groups = [1, 1, 1], loop_passes = 1.0>} -> tensor<4xf32> {
    %1 = tile.ew neg %X : (tensor<4xf32>) -> tensor<4xf32>
    tile.yield %1 : tensor<4xf32>
  }
  return
}

// -----

func.func @schedule_flag(%X: tensor<4xf32>) {
  // expected-error @+2 {{expected 'true' or 'false'}}
  // expected-error @+1 {{failed to parse Tile_ScheduleAttr parameter 'compensated'}}
  %0 = tile.kernel elementwise "k0" attributes {schedule = #tile.schedule<kind = per_element, local_size = [4, 1, 1], num_groups = [1, 1, 1], compensated = 1, loop_passes = 1.0>} -> tensor<4xf32> {
    %1 = tile.ew neg %X : (tensor<4xf32>) -> tensor<4xf32>
    tile.yield %1 : tensor<4xf32>
  }
  return
}

// -----

func.func @online_sums_held_row(%X: tensor<4x2xf32>) {
  // expected-error @+1 {{online_sums needs row_chunks above 1 (a streamed row)}}
  %0 = tile.kernel elementwise "k0" attributes {schedule = #tile.schedule<kind = row, local_size = [2, 1, 1], num_groups = [4, 1, 1], row_steps = 1, online_sums = true, loop_passes = 0.0>} -> tensor<4x2xf32> {
    %1 = tile.ew neg %X : (tensor<4x2xf32>) -> tensor<4x2xf32>
    tile.yield %1 : tensor<4x2xf32>
  }
  return
}

// -----

func.func @chunk_bounds(%X: tensor<4x2xf32>) {
  // expected-error @+1 {{chunk_bounds must rise strictly from 0 to the 4 rows of the outermost dimension}}
  %0 = tile.kernel elementwise "k0" attributes {chunk_bounds = array<i64: 0, 2, 2, 4>} -> tensor<4x2xf32> {
    %1 = tile.ew neg %X : (tensor<4x2xf32>) -> tensor<4x2xf32>
    tile.yield %1 : tensor<4x2xf32>
  }
  return
}

// -----

func.func @piece_bytes(%X: tensor<4x2xf32>) {
  // expected-error @+1 {{has 1 results but 2 piece sizes}}
  %0 = tile.kernel elementwise "k0" attributes {piece_bytes = array<i64: 16, 0>} -> tensor<4x2xf32> {
    %1 = tile.ew neg %X : (tensor<4x2xf32>) -> tensor<4x2xf32>
    tile.yield %1 : tensor<4x2xf32>
  }
  return
}
