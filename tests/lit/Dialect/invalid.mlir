// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @combination_arity(%A: tensor<4xf32>) {
  // expected-error @+1 {{combination 'mul' takes 2 inputs, got 1}}
  %0 = tile.contract add, mul (i) [] = %A[i] : tensor<4xf32> -> tensor<f32>
  return
}

// -----

func.func @combination_arity_one(%A: tensor<4xf32>) {
  // expected-error @+1 {{combination 'none' takes 1 input, got 2}}
  %0 = tile.contract add, none (i) [] = %A[i], %A[i] : tensor<4xf32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

func.func @repeated_index(%A: tensor<4xf32>) {
  // expected-error @+1 {{index 'i' is repeated}}
  %0 = "tile.contract"(%A) <{aggregation = #tile<agg add>, combination = #tile<combo none>, index_names = ["i", "i"], input_maps = [#tile.map<(d0, d1) -> (d0)>], operandSegmentSizes = array<i32: 1, 0>, output_map = #tile.map<(d0, d1) -> ()>}> : (tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @repeated_index_in_syntax(%A: tensor<4xf32>) {
  // expected-error @+1 {{index 'i' is repeated}}
  %0 = tile.contract add (i, i) [] = %A[i] : tensor<4xf32> -> tensor<f32>
  return
}

// -----

func.func @empty_index_name(%A: tensor<4xf32>) {
  // expected-error @+1 {{has an empty index name}}
  %0 = "tile.contract"(%A) <{aggregation = #tile<agg add>, combination = #tile<combo none>, index_names = [""], input_maps = [#tile.map<(d0) -> (d0)>], operandSegmentSizes = array<i32: 1, 0>, output_map = #tile.map<(d0) -> ()>}> : (tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @output_map_dims(%A: tensor<4xf32>) {
  // expected-error @+1 {{output map has 2 dims but there are 1 indices}}
  %0 = "tile.contract"(%A) <{aggregation = #tile<agg add>, combination = #tile<combo none>, index_names = ["i"], input_maps = [#tile.map<(d0) -> (d0)>], operandSegmentSizes = array<i32: 1, 0>, output_map = #tile.map<(d0, d1) -> ()>}> : (tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @output_map_rank(%A: tensor<4xf32>) {
  // expected-error @+1 {{output map has 1 results but the tensor has rank 2}}
  %0 = tile.contract add (i) [i] = %A[i] : tensor<4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @input_map_count(%A: tensor<4xf32>) {
  // expected-error @+1 {{has 2 input maps for 1 inputs}}
  %0 = "tile.contract"(%A) <{aggregation = #tile<agg add>, combination = #tile<combo none>, index_names = ["i"], input_maps = [#tile.map<(d0) -> (d0)>, #tile.map<(d0) -> (d0)>], operandSegmentSizes = array<i32: 1, 0>, output_map = #tile.map<(d0) -> ()>}> : (tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @input_map_rank(%A: tensor<4x4xf32>) {
  // expected-error @+1 {{input 0 map has 1 results but the tensor has rank 2}}
  %0 = tile.contract add (i) [] = %A[i] : tensor<4x4xf32> -> tensor<f32>
  return
}

// -----

func.func @default_type(%A: tensor<4xf32>, %D: tensor<f64>) {
  // expected-error @+1 {{default has type 'tensor<f64>' but the result has type 'tensor<f32>'}}
  %0 = "tile.contract"(%A, %D) <{aggregation = #tile<agg add>, combination = #tile<combo none>, index_names = ["i"], input_maps = [#tile.map<(d0) -> (d0)>], operandSegmentSizes = array<i32: 1, 1>, output_map = #tile.map<(d0) -> ()>}> : (tensor<4xf32>, tensor<f64>) -> tensor<f32>
  return
}

// -----

func.func @constraints_without_bounds(%A: tensor<4xf32>) {
  // expected-error @+1 {{needs both 'constraints' and 'constraint_bounds' or neither}}
  %0 = "tile.contract"(%A) <{aggregation = #tile<agg add>, combination = #tile<combo none>, constraints = #tile.map<(d0) -> (d0)>, index_names = ["i"], input_maps = [#tile.map<(d0) -> (d0)>], operandSegmentSizes = array<i32: 1, 0>, output_map = #tile.map<(d0) -> ()>}> : (tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @constraint_dims(%A: tensor<4xf32>) {
  // expected-error @+1 {{constraint map has 2 dims but there are 1 indices}}
  %0 = "tile.contract"(%A) <{aggregation = #tile<agg add>, combination = #tile<combo none>, constraint_bounds = array<i64: 3>, constraints = #tile.map<(d0, d1) -> (d0)>, index_names = ["i"], input_maps = [#tile.map<(d0) -> (d0)>], operandSegmentSizes = array<i32: 1, 0>, output_map = #tile.map<(d0) -> ()>}> : (tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @constraint_count(%A: tensor<4xf32>) {
  // expected-error @+1 {{has 1 constraints but 2 bounds}}
  %0 = "tile.contract"(%A) <{aggregation = #tile<agg add>, combination = #tile<combo none>, constraint_bounds = array<i64: 3, 4>, constraints = #tile.map<(d0) -> (d0)>, index_names = ["i"], input_maps = [#tile.map<(d0) -> (d0)>], operandSegmentSizes = array<i32: 1, 0>, output_map = #tile.map<(d0) -> ()>}> : (tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @negative_bound(%A: tensor<4xf32>) {
  // expected-error @+1 {{constraint bound -1 is negative}}
  %0 = tile.contract add (i) [] = %A[i] where i < -1 : tensor<4xf32> -> tensor<f32>
  return
}

// -----

func.func @input_element_type(%A: tensor<4xf32>, %B: tensor<4xi32>) {
  // expected-error @+1 {{input 1 has element type 'i32' but the result has 'f32'; convert it with tile.cast}}
  %0 = tile.contract add, mul (i) [] = %A[i], %B[i] : tensor<4xf32>, tensor<4xi32> -> tensor<f32>
  return
}

// -----

func.func @eq_result(%A: tensor<4xf32>) {
  // expected-error @+1 {{with combination 'eq' must yield i1, not 'f32'}}
  %0 = tile.contract add, eq (i) [] = %A[i], %A[i] : tensor<4xf32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

func.func @eq_operands(%A: tensor<4xf32>, %B: tensor<4xi32>) {
  // expected-error @+1 {{compares inputs of different element types 'f32' and 'i32'}}
  %0 = tile.contract assign, eq (i) [] = %A[i], %B[i] : tensor<4xf32>, tensor<4xi32> -> tensor<i1>
  return
}

// -----

func.func @cond_value(%A: tensor<4xf32>, %C: tensor<4xi32>) {
  // expected-error @+1 {{input 2 has element type 'i32' but the result has 'f32'}}
  %0 = tile.contract max, cond (i) [] = %A[i], %A[i], %C[i] : tensor<4xf32>, tensor<4xf32>, tensor<4xi32> -> tensor<f32>
  return
}

// -----

func.func @unknown_aggregation(%A: tensor<4xf32>) {
  // expected-error @+1 {{unknown aggregation 'sum'}}
  %0 = tile.contract sum (i) [] = %A[i] : tensor<4xf32> -> tensor<f32>
  return
}

// -----

func.func @unknown_index(%A: tensor<4xf32>) {
  // expected-error @+1 {{unknown index 'k'}}
  %0 = tile.contract add (i) [] = %A[k] : tensor<4xf32> -> tensor<f32>
  return
}

// -----

func.func @zero_divisor(%A: tensor<4xf32>) {
  // expected-error @+1 {{expected a positive divisor}}
  %0 = tile.contract add (i) [] = %A[i div 0] : tensor<4xf32> -> tensor<f32>
  return
}

// -----

func.func @juxtaposed_terms(%A: tensor<4xf32>) {
  // expected-error @+1 {{expected '+' or '-' between terms}}
  %0 = tile.contract add (i) [] = %A[i 3] : tensor<4xf32> -> tensor<f32>
  return
}

// -----

// expected-error @+1 {{coefficient does not fit in 64 bits}}
#overflow = #tile.map<(i) -> (9223372036854775807*i + i)>

// -----

func.func @ew_unknown_kind(%X: tensor<4xf32>) {
  // expected-error @+2 {{unknown elementwise operation 'cube'}}
  // expected-error @+1 {{failed to parse Tile_ElementwiseKindAttr parameter 'value'}}
  %0 = tile.ew cube %X : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @ew_arity(%X: tensor<4xf32>) {
  // expected-error @+1 {{'add' takes 2 operands, got 1}}
  %0 = tile.ew add %X : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @ew_arity_one(%X: tensor<4xf32>) {
  // expected-error @+1 {{'neg' takes 1 operand, got 2}}
  %0 = tile.ew neg %X, %X : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @ew_broadcast(%X: tensor<3x4xf32>, %Y: tensor<3xf32>) {
  // expected-error @+1 {{operand shapes [3, 4], [3] do not broadcast}}
  %0 = tile.ew add %X, %Y : (tensor<3x4xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @ew_result_shape(%X: tensor<3x1xf32>, %Y: tensor<4xf32>) {
  // expected-error @+1 {{result shape [3, 1] is not the broadcast shape [3, 4]}}
  %0 = tile.ew add %X, %Y : (tensor<3x1xf32>, tensor<4xf32>) -> tensor<3x1xf32>
  return
}

// -----

func.func @ew_comparison_result(%X: tensor<4xf32>) {
  // expected-error @+1 {{'lt' needs a result of type 'i1', got 'f32'}}
  %0 = tile.ew lt %X, %X : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @ew_comparison_operands(%X: tensor<4xf32>, %Y: tensor<4xf64>) {
  // expected-error @+1 {{'eq' needs operands of type 'f32', got 'f64'}}
  %0 = tile.ew eq %X, %Y : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xi1>
  return
}

// -----

func.func @ew_logical(%X: tensor<4xi32>) {
  // expected-error @+1 {{'not' needs operands of type 'i1', got 'i32'}}
  %0 = tile.ew not %X : (tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

func.func @ew_select_condition(%X: tensor<4xf32>) {
  // expected-error @+1 {{'select' needs a condition of type 'i1', got 'f32'}}
  %0 = tile.ew select %X, %X, %X : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @ew_select_values(%C: tensor<4xi1>, %X: tensor<4xf32>, %Y: tensor<4xi32>) {
  // expected-error @+1 {{'select' needs values of type 'f32', got 'i32'}}
  %0 = tile.ew select %C, %X, %Y : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @ew_integer_only(%X: tensor<4xf32>) {
  // expected-error @+1 {{'shl' needs integers, got 'f32'}}
  %0 = tile.ew shl %X, %X : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @ew_float_only(%X: tensor<4xi32>) {
  // expected-error @+1 {{'exp' needs floats, got 'i32'}}
  %0 = tile.ew exp %X : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @ew_uniform(%X: tensor<4xi32>, %Y: tensor<4xui32>) {
  // expected-error @+1 {{'add' needs operands of type 'i32', got 'ui32'}}
  %0 = tile.ew add %X, %Y : (tensor<4xi32>, tensor<4xui32>) -> tensor<4xi32>
  return
}

// -----

func.func @constant_type() {
  // expected-error @+1 {{value of type 'i32' does not match the result element type 'f32'}}
  %0 = "tile.constant"() <{value = 1 : i32}> : () -> tensor<f32>
  return
}

// -----

func.func @constant_index() {
  // expected-error @+1 {{constant value must be an integer or float attribute, got type 'index'}}
  %0 = tile.constant 1 : index
  return
}

// -----

func.func @cast_shape(%X: tensor<4xf32>) {
  // expected-error @+1 {{changes the shape from 'tensor<4xf32>' to 'tensor<2x2xi32>'; a cast keeps the shape}}
  %0 = tile.cast %X : tensor<4xf32> -> tensor<2x2xi32>
  return
}

// -----

func.func @reshape_element_type(%X: tensor<4xf32>) {
  // expected-error @+1 {{changes the element type from 'f32' to 'i32'}}
  %0 = tile.reshape %X : tensor<4xf32> -> tensor<2x2xi32>
  return
}

// -----

func.func @reshape_count(%X: tensor<4xf32>) {
  // expected-error @+1 {{reshapes 4 elements into 6}}
  %0 = tile.reshape %X : tensor<4xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @index_axis() {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = tile.index 2 : tensor<3x4xi32>
  return
}

// -----

func.func @shape_extent(%X: tensor<3x4xf32>) {
  // expected-error @+1 {{result must hold 2 extents, one per dimension of the input, but has 3}}
  %0 = tile.shape %X : tensor<3x4xf32> -> tensor<3xi32>
  return
}

// -----

func.func @dynamic_shape(%X: tensor<?xf32>) {
  // expected-error @+1 {{must be statically shaped tensor}}
  %0 = tile.cast %X : tensor<?xf32> -> tensor<?xf64>
  return
}

// -----

func.func @element_type(%X: tensor<4xindex>) {
  // expected-error @+1 {{must be statically shaped tensor of}}
  %0 = tile.reshape %X : tensor<4xindex> -> tensor<2x2xindex>
  return
}
