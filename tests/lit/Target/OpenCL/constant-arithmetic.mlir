// An operation whose operands are all constants is printed as its IEEE
// result, comparisons and selects included, never as C arithmetic on
// literals: C leaves a division by zero undefined, and with `0.0f / 0.0f`
// NVIDIA's OpenCL compiler took the NaN for a number in a `v != v` beside it
// (difftest seeds 12003159, 13033938). An operation with a non-constant
// operand stays as it is.
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @constants(%a: memref<4xf32>, %d: memref<4xf64>) kernel {
      %i = gpu.thread_id x
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %third = arith.constant 0.333333343 : f32
      %nan = arith.divf %zero, %zero : f32
      %inf = arith.divf %one, %zero : f32
      %sum = arith.addf %one, %third : f32
      %product = arith.mulf %third, %third : f32
      %difference = arith.subf %zero, %one : f32
      %x = memref.load %a[%i] : memref<4xf32>
      %isnan = arith.cmpf une, %nan, %nan : f32
      %r = arith.select %isnan, %inf, %sum : f32
      %s = arith.addf %r, %product : f32
      %t = arith.divf %s, %difference : f32
      %u = arith.divf %x, %zero : f32
      %v = arith.addf %t, %u : f32
      memref.store %v, %a[%i] : memref<4xf32>
      %dzero = arith.constant 0.0 : f64
      %dnan = arith.divf %dzero, %dzero : f64
      memref.store %dnan, %d[%i] : memref<4xf64>
      gpu.return
    }
  }
}

// CHECK-LABEL: void constants(
// CHECK:        float v1 = arg0[v0];
// CHECK-NEXT:   float v2 = v1 / 0.0f;
// CHECK-NEXT:   float v3 = (-INFINITY) + v2;
// CHECK-NEXT:   arg0[v0] = v3;
// CHECK-NEXT:   arg1[v0] = ((double)NAN);
// CHECK-NOT:    0.0f / 0.0f
