// tilec-spirv-approximate-math alone: f32 tanh and erf become MLIR's
// rational approximations; f16 tanh stays (GLSL's Tanh).
// RUN: tile-opt --tilec-spirv-approximate-math %s | FileCheck %s

module {
  gpu.module @kernels {
    gpu.func @approximated(%x: f32, %h: f16, %out: memref<2xf32>, %outh: memref<2xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %t = math.tanh %x : f32
      %e = math.erf %x : f32
      %th = math.tanh %h : f16
      memref.store %t, %out[%c0] : memref<2xf32>
      memref.store %e, %out[%c1] : memref<2xf32>
      memref.store %th, %outh[%c0] : memref<2xf16>
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @approximated
// CHECK-NOT: math.tanh %arg0
// CHECK-NOT: math.erf
// CHECK: math.fma
// CHECK-NOT: math.tanh %arg0
// CHECK-NOT: math.erf
// CHECK: %[[HALF:.*]] = math.tanh %arg1 : f16
// CHECK-NEXT: memref.store %{{.*}}, %arg2[%c0]
// CHECK-NEXT: memref.store %{{.*}}, %arg2[%c1]
// CHECK-NEXT: memref.store %[[HALF]], %arg3[%c0]
