// Lowering's passes size buffers and kernels from the function's signature:
// an argument or result that is not a tensor of static shape and a Tile
// dtype is an error at the function, never a crash (tile-plan-memory and
// tile-lower-to-kernel-ir crashed on an f32 argument).
// RUN: not tile-opt -split-input-file --tile-form-kernels %s 2>&1 | FileCheck %s
// RUN: not tile-opt -split-input-file --tile-schedule %s 2>&1 | FileCheck %s
// RUN: not tile-opt -split-input-file --tile-plan-memory %s 2>&1 | FileCheck %s
// RUN: not tile-opt -split-input-file --tile-lower-to-kernel-ir %s 2>&1 | FileCheck %s
// RUN: not tile-opt -split-input-file --tile-lower-to-kernels %s 2>&1 | FileCheck %s

// CHECK: signature-errors.mlir:{{[0-9]+}} offset :{{[0-9]+}}:1: error: lowering expects arguments and results that are tensors of static shape and a Tile dtype, found 'f32'
func.func @scalar(%a: f32) -> f32 {
  return %a : f32
}

// -----
// CHECK: signature-errors.mlir:{{[0-9]+}} offset :{{[0-9]+}}:1: error: lowering expects arguments and results that are tensors of static shape and a Tile dtype, found 'tensor<?xf32>'
func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}

// -----
// CHECK: signature-errors.mlir:{{[0-9]+}} offset :{{[0-9]+}}:1: error: lowering expects arguments and results that are tensors of static shape and a Tile dtype, found 'tensor<4xindex>'
func.func @index(%a: tensor<4xindex>) -> tensor<4xindex> {
  return %a : tensor<4xindex>
}
