// A float min with the constant 1 prints a select on isnan before fmin:
// NVIDIA's OpenCL compiler (driver 580) made relu(fmin(x, 1)) a saturate,
// which maps a NaN x to 0 where fmin gives 1 (difftest seed 12038693,
// tests/e2e/relu_of_min_one.tile). Other limits print fmin alone.
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @clamps(%a: memref<4xf32>, %d: memref<4xf64>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      %two = arith.constant 2.0 : f32
      %done = arith.constant 1.0 : f64
      %x = memref.load %a[%i] : memref<4xf32>
      %m = arith.minnumf %x, %one : f32
      %n = arith.minnumf %one, %m : f32
      %o = arith.minnumf %n, %two : f32
      memref.store %o, %a[%i] : memref<4xf32>
      %y = memref.load %d[%i] : memref<4xf64>
      %p = arith.minnumf %y, %done : f64
      memref.store %p, %d[%i] : memref<4xf64>
      gpu.return
    }
  }
}

// CHECK-LABEL: void clamps(
// CHECK:      float v1 = arg0[v0];
// CHECK-NEXT: float v2 = isnan(v1) ? 1.0f : fmin(v1, 1.0f);
// CHECK-NEXT: float v3 = isnan(v2) ? 1.0f : fmin(v2, 1.0f);
// CHECK-NEXT: float v4 = fmin(v3, 2.0f);
// CHECK:      double v6 = isnan(v5) ? 1.0 : fmin(v5, 1.0);
