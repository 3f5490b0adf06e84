// tilec-spirv-round-float-conversions alone.
// RUN: tile-opt --tilec-spirv-round-float-conversions %s | FileCheck %s

module {
  gpu.module @kernels {
    gpu.func @conversions(%d: f64, %f: f32, %i: i32, %b: bf16, %out: memref<4xf16>, %outb: memref<4xbf16>, %outd: memref<4xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %h = arith.truncf %d : f64 to f16
      %h2 = arith.truncf %f : f32 to f16
      %bi = arith.sitofp %i : i32 to bf16
      %db = arith.extf %b : bf16 to f64
      memref.store %h, %out[%c0] : memref<4xf16>
      memref.store %h2, %out[%c1] : memref<4xf16>
      memref.store %bi, %outb[%c0] : memref<4xbf16>
      memref.store %db, %outd[%c0] : memref<4xf64>
      gpu.return
    }
  }
}

// f64 -> f16: to f32 rounded to odd (the low bit set where inexact), then
// to f16 to nearest from the bits.
// CHECK-LABEL: gpu.func @conversions
// CHECK: %[[TRUNCATED:.*]] = arith.truncf %arg0 : f64 to f32
// CHECK: arith.cmpf une
// CHECK: %[[ODD:.*]] = arith.ori %{{.*}}, %c1_i32{{.*}} : i32
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.shrui %{{.*}}, %c13_i32
// CHECK: %[[HALFBITS:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK: %[[HALF:.*]] = arith.bitcast %[[HALFBITS]] : i16 to f16
// f32 -> f16 alone: to nearest from the bits, no truncf.
// CHECK: arith.bitcast %arg1 : f32 to i32
// CHECK-NOT: arith.truncf %arg1
// CHECK: %[[HALF2:.*]] = arith.bitcast %{{.*}} : i16 to f16
// i32 -> bf16: exactly to f64, to f32 rounded to odd, then to bf16.
// CHECK: %[[WIDE:.*]] = arith.sitofp %arg2 : i32 to f64
// CHECK: arith.truncf %[[WIDE]] : f64 to f32
// CHECK: %[[BF16:.*]] = arith.truncf %{{.*}} : f32 to bf16
// bf16 -> f64: through f32.
// CHECK: %[[F32:.*]] = arith.extf %arg3 : bf16 to f32
// CHECK: %[[F64:.*]] = arith.extf %[[F32]] : f32 to f64
// CHECK: memref.store %[[HALF]], %arg4[%c0]
// CHECK: memref.store %[[HALF2]], %arg4[%c1]
// CHECK: memref.store %[[BF16]], %arg5[%c0]
// CHECK: memref.store %[[F64]], %arg6[%c0]
