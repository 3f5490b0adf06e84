// Float arithmetic on two constants is printed as its IEEE result, never as
// C arithmetic on literals: C leaves a division by zero undefined, and with
// `float v6 = 0.0f / 0.0f;` NVIDIA's OpenCL compiler took the NaN it stored
// for a number in a `v6 != v6` beside it (difftest seeds 12003159,
// 13033938). An operation with a non-constant operand stays as it is.
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
// CHECK:        float v1 = NAN;
// CHECK-NEXT:   float v2 = INFINITY;
// CHECK-NEXT:   float v3 = 1.3333334f;
// CHECK-NEXT:   float v4 = 0.11111112f;
// CHECK-NEXT:   float v5 = (-1.0f);
// CHECK-NEXT:   float v6 = arg0[v0];
// CHECK-NEXT:   bool v7 = v1 != v1;
// CHECK-NEXT:   float v8 = v7 ? v2 : v3;
// CHECK-NEXT:   float v9 = v8 + v4;
// CHECK-NEXT:   float v10 = v9 / v5;
// CHECK-NEXT:   float v11 = v6 / 0.0f;
// CHECK:        double v{{[0-9]+}} = ((double)NAN);
// CHECK-NOT:    0.0f / 0.0f
