// scf.for with loop-carried values (a swap needs temporaries), scf.if with
// results, and 64-bit index.
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 64 : i64} {
  gpu.module @kernels {
    gpu.func @fib(%out: memref<2xf32>, %n: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c10 = arith.constant 10 : index
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %count = memref.load %n[%c0] : memref<1xi32>
      %stop = arith.index_cast %count : i32 to index
      %r:2 = scf.for %i = %c0 to %stop step %c1 iter_args(%a = %zero, %b = %one) -> (f32, f32) {
        %s = arith.addf %a, %b : f32
        scf.yield %b, %s : f32, f32
      }
      %w:2 = scf.for %j = %c0 to %c10 step %c2 iter_args(%p = %r#0, %q = %r#1) -> (f32, f32) {
        scf.yield %q, %p : f32, f32
      }
      %big = arith.cmpf ogt, %w#0, %w#1 : f32
      %m = scf.if %big -> (f32) {
        scf.yield %w#0 : f32
      } else {
        %neg = arith.negf %w#1 : f32
        scf.yield %neg : f32
      }
      memref.store %m, %out[%c0] : memref<2xf32>
      scf.if %big {
        memref.store %zero, %out[%c1] : memref<2xf32>
      }
      gpu.return
    }
  }
}

// CHECK-LABEL: void fib(__global float *restrict arg0,
// CHECK-NEXT:           __global const int *restrict arg1) {
// CHECK-NEXT:   int v0 = arg1[0L];
// CHECK-NEXT:   long v1 = (long)v0;
// CHECK-NEXT:   float r2 = 0.0f;
// CHECK-NEXT:   float r3 = 1.0f;
// CHECK-NEXT:   for (long i4 = 0L; i4 < v1; i4 += 1L) {
// CHECK-NEXT:     float v5 = r2 + r3;
// r2 = r3 is first, and r3 is not a value of the yield: no temporaries.
// CHECK-NEXT:     r2 = r3;
// CHECK-NEXT:     r3 = v5;
// CHECK-NEXT:   }
// CHECK-NEXT:   float r6 = r2;
// CHECK-NEXT:   float r7 = r3;
// CHECK-NEXT:   for (long i8 = 0L; i8 < 10L; i8 += 2L) {
// CHECK-NEXT:     {
// CHECK-NEXT:       float t9 = r7;
// CHECK-NEXT:       float t10 = r6;
// CHECK-NEXT:       r6 = t9;
// CHECK-NEXT:       r7 = t10;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   bool v11 = r6 > r7;
// CHECK-NEXT:   float r12;
// CHECK-NEXT:   if (v11) {
// CHECK-NEXT:     r12 = r6;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     float v13 = -r7;
// CHECK-NEXT:     r12 = v13;
// CHECK-NEXT:   }
// CHECK-NEXT:   arg0[0L] = r12;
// CHECK-NEXT:   if (v11) {
// CHECK-NEXT:     arg0[1L] = 0.0f;
// CHECK-NEXT:   }
// CHECK-NEXT: }
