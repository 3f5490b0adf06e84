// tilec-spirv-divisor-range alone: a float division by a value becomes
// (x * s) / (y * s) with s = 1/4 where |y| is beyond the reciprocal of the
// type's smallest normal number (2^126 for f32, 2^14 for f16), else 1: the
// same quotient, with the divisor inside the range where Vulkan bounds
// OpFDiv's error. A division by a constant within the range stays; one by a
// constant beyond it is scaled too.
// RUN: tile-opt --tilec-spirv-divisor-range %s | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @quotients(%x: f32, %y: f32, %h: f16, %g: f16, %out: memref<4xf32>, %half: memref<1xf16>) kernel {
      %byValue = arith.divf %x, %y : f32
      %three = arith.constant 3.0 : f32
      %byConstant = arith.divf %x, %three : f32
      %huge = arith.constant 3.0e38 : f32
      %byHuge = arith.divf %x, %huge : f32
      %halfQuotient = arith.divf %h, %g : f16
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      memref.store %byValue, %out[%c0] : memref<4xf32>
      memref.store %byConstant, %out[%c1] : memref<4xf32>
      memref.store %byHuge, %out[%c2] : memref<4xf32>
      memref.store %halfQuotient, %half[%c0] : memref<1xf16>
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @quotients(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32, %[[H:[^:]*]]: f16, %[[G:[^:]*]]: f16
// CHECK: %[[ABS:.*]] = math.absf %[[Y]] : f32
// CHECK: %[[LIMIT:.*]] = arith.constant 8.50705917E+37 : f32
// CHECK: %[[BEYOND:.*]] = arith.cmpf ogt, %[[ABS]], %[[LIMIT]] : f32
// CHECK: %[[QUARTER:.*]] = arith.constant 2.500000e-01 : f32
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[S:.*]] = arith.select %[[BEYOND]], %[[QUARTER]], %[[ONE]] : f32
// CHECK: %[[XS:.*]] = arith.mulf %[[X]], %[[S]] : f32
// CHECK: %[[YS:.*]] = arith.mulf %[[Y]], %[[S]] : f32
// CHECK: %[[Q:.*]] = arith.divf %[[XS]], %[[YS]] : f32
// CHECK: %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
// CHECK: %[[BYCONSTANT:.*]] = arith.divf %[[X]], %[[THREE]] : f32
// CHECK: %[[HUGE:.*]] = arith.constant 3.000000e+38 : f32
// CHECK: math.absf %[[HUGE]] : f32
// CHECK: arith.mulf %[[X]],
// CHECK: arith.mulf %[[HUGE]],
// CHECK: %[[GABS:.*]] = math.absf %[[G]] : f16
// CHECK: %[[HLIMIT:.*]] = arith.constant 1.638400e+04 : f16
// CHECK: arith.cmpf ogt, %[[GABS]], %[[HLIMIT]] : f16
// CHECK: arith.mulf %[[H]],
// CHECK: arith.mulf %[[G]],
// CHECK: arith.divf {{.*}} : f16
// CHECK: memref.store %[[Q]], %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK: memref.store %[[BYCONSTANT]],
