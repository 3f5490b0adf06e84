// Float comparisons (ordered and unordered), math builtins and exact
// constants.
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @floats(%a: memref<4xf32>, %o: memref<4xi8>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xf32>
      %inf = arith.constant 0x7F800000 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %nan = arith.constant 0x7FC00000 : f32
      %tiny = arith.constant 1.0e-45 : f32
      %big = arith.constant 3.40282347e+38 : f32
      %hundred = arith.constant 100.0 : f32
      %third = arith.constant 0.333333343 : f32
      %c1 = arith.cmpf one, %x, %inf : f32
      %c2 = arith.cmpf ueq, %x, %ninf : f32
      %c3 = arith.cmpf uno, %x, %nan : f32
      %c4 = arith.cmpf ult, %x, %tiny : f32
      %c5 = arith.cmpf ord, %x, %big : f32
      %c6 = arith.cmpf une, %x, %hundred : f32
      %c7 = arith.cmpf uge, %x, %third : f32
      %e = math.exp %x : f32
      %l = math.log1p %e : f32
      %p = math.powf %l, %x : f32
      %r = math.roundeven %p : f32
      %t = math.tanh %r : f32
      %f = math.fma %t, %x, %e : f32
      %q = math.rsqrt %f : f32
      %m = arith.remf %q, %x : f32
      %three = arith.constant 3 : i32
      %n = math.fpowi %m, %three : f32, i32
      %s = math.atan2 %n, %x : f32
      %er = math.erf %s : f32
      memref.store %er, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
}

// CHECK-LABEL: void floats(
// CHECK:        float v1 = arg0[v0];
// CHECK-NEXT:   bool v2 = v1 < INFINITY || v1 > INFINITY;
// CHECK-NEXT:   bool v3 = !(v1 < (-INFINITY) || v1 > (-INFINITY));
// CHECK-NEXT:   bool v4 = isnan(v1) || isnan(NAN);
// CHECK-NEXT:   bool v5 = !(v1 >= 1e-45f);
// CHECK-NEXT:   bool v6 = !(isnan(v1) || isnan(3.4028235e+38f));
// CHECK-NEXT:   bool v7 = v1 != 100.0f;
// CHECK-NEXT:   bool v8 = !(v1 < 0.33333334f);
// CHECK-NEXT:   float v9 = exp(v1);
// CHECK-NEXT:   float v10 = log1p(v9);
// CHECK-NEXT:   float v11 = pow(v10, v1);
// CHECK-NEXT:   float v12 = rint(v11);
// CHECK-NEXT:   float v13 = tanh(v12);
// CHECK-NEXT:   float v14 = fma(v13, v1, v9);
// CHECK-NEXT:   float v15 = rsqrt(v14);
// CHECK-NEXT:   float v16 = fmod(v15, v1);
// CHECK-NEXT:   float v17 = pown(v16, 3);
// CHECK-NEXT:   float v18 = atan2(v17, v1);
// CHECK-NEXT:   float v19 = erf(v18);
// CHECK-NOT: native_
