// tilec-spirv-expand-bf16 alone: f32 <-> bf16 conversions become bit
// operations on i16 and i32.
// RUN: tile-opt --tilec-spirv-expand-bf16 %s | FileCheck %s

module {
  gpu.module @kernels {
    gpu.func @bf16(%b: bf16, %f: f32, %out: memref<2xf32>, %outb: memref<2xbf16>) kernel {
      %c0 = arith.constant 0 : index
      %wide = arith.extf %b : bf16 to f32
      %narrow = arith.truncf %f : f32 to bf16
      memref.store %wide, %out[%c0] : memref<2xf32>
      memref.store %narrow, %outb[%c0] : memref<2xbf16>
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @bf16
// bf16 -> f32: the bits shifted to the top of an i32.
// CHECK: %[[BITS:.*]] = arith.bitcast %arg0 : bf16 to i16
// CHECK: %[[WIDE:.*]] = arith.extui %[[BITS]] : i16 to i32
// CHECK: %[[SHIFTED:.*]] = arith.shli %[[WIDE]], %c16_i32 : i32
// CHECK: %[[F32:.*]] = arith.bitcast %[[SHIFTED]] : i32 to f32
// f32 -> bf16: rounded to nearest even on the bits, NaN kept a NaN.
// CHECK: %[[NAN:.*]] = arith.cmpf une, %arg1, %arg1 : f32
// CHECK: arith.addi
// CHECK: %[[TOP:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK: %[[ROUNDED:.*]] = arith.select %[[NAN]], %c32704_i16, %[[TOP]] : i16
// CHECK: %[[BF16:.*]] = arith.bitcast %[[ROUNDED]] : i16 to bf16
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
// CHECK: memref.store %[[F32]], %arg2[%c0]
// CHECK: memref.store %[[BF16]], %arg3[%c0]
