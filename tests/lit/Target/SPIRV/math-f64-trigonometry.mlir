// The f64 trigonometric functions and erf, which GLSL.std.450 has for 16-
// and 32-bit floats only, are built from f64 and i64 arithmetic
// (SPIRVTrigonometry.cpp, SPIRVInverseTrigonometry.cpp, SPIRVErf.cpp):
// sin, cos and tan reduce |x| by pi/2 (Cody-Waite below 2^20, Payne-Hanek
// with the bits of 2/pi above) and evaluate Taylor polynomials; asin, acos
// and atan are the f32 constructions with longer series and pi split at f64;
// erf is an odd series below 1 and Taylor polynomials at 1.5 ... 5.5.
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @sine(%x: memref<4xf64>, %y: memref<4xf64>, %out: memref<4xf64>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %x[%t] : memref<4xf64>
      %b = memref.load %y[%t] : memref<4xf64>
      %r = math.sin %a : f64
      memref.store %r, %out[%t] : memref<4xf64>
      gpu.return
    }
    gpu.func @cosine(%x: memref<4xf64>, %y: memref<4xf64>, %out: memref<4xf64>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %x[%t] : memref<4xf64>
      %b = memref.load %y[%t] : memref<4xf64>
      %r = math.cos %a : f64
      memref.store %r, %out[%t] : memref<4xf64>
      gpu.return
    }
    gpu.func @tangent(%x: memref<4xf64>, %y: memref<4xf64>, %out: memref<4xf64>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %x[%t] : memref<4xf64>
      %b = memref.load %y[%t] : memref<4xf64>
      %r = math.tan %a : f64
      memref.store %r, %out[%t] : memref<4xf64>
      gpu.return
    }
    gpu.func @arcsine(%x: memref<4xf64>, %y: memref<4xf64>, %out: memref<4xf64>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %x[%t] : memref<4xf64>
      %b = memref.load %y[%t] : memref<4xf64>
      %r = math.asin %a : f64
      memref.store %r, %out[%t] : memref<4xf64>
      gpu.return
    }
    gpu.func @arccosine(%x: memref<4xf64>, %y: memref<4xf64>, %out: memref<4xf64>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %x[%t] : memref<4xf64>
      %b = memref.load %y[%t] : memref<4xf64>
      %r = math.acos %a : f64
      memref.store %r, %out[%t] : memref<4xf64>
      gpu.return
    }
    gpu.func @arctangent(%x: memref<4xf64>, %y: memref<4xf64>, %out: memref<4xf64>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %x[%t] : memref<4xf64>
      %b = memref.load %y[%t] : memref<4xf64>
      %r = math.atan %a : f64
      memref.store %r, %out[%t] : memref<4xf64>
      gpu.return
    }
    gpu.func @arctangent2(%x: memref<4xf64>, %y: memref<4xf64>, %out: memref<4xf64>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %x[%t] : memref<4xf64>
      %b = memref.load %y[%t] : memref<4xf64>
      %r = math.atan2 %a, %b : f64
      memref.store %r, %out[%t] : memref<4xf64>
      gpu.return
    }
    gpu.func @erf(%x: memref<4xf64>, %y: memref<4xf64>, %out: memref<4xf64>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %x[%t] : memref<4xf64>
      %b = memref.load %y[%t] : memref<4xf64>
      %r = math.erf %a : f64
      memref.store %r, %out[%t] : memref<4xf64>
      gpu.return
    }
  }
}

// No 32-bit detour and no GLSL instruction that is 32-bit only.
// CHECK-NOT: OpTypeFloat 32
// CHECK-NOT: {{ (Sin|Cos|Tan|Asin|Acos|Atan|Atan2) }}

// sin: the Cody-Waite reduction, k = floor(|x| 2/pi + 1/2) and four parts
// of pi/2, three of 33 bits, each subtraction's error kept ...
// CHECK-LABEL: %sine = OpFunction
// CHECK: OpFOrdGreaterThanEqual %bool %[[ABS:[0-9]+]] %double_1048576
// CHECK: OpFMul %double %{{[0-9]+}} %double_0_63661977236758138
// CHECK: Floor
// CHECK: OpFMul %double %[[K:[0-9]+]] %double_1_5707963267341256
// CHECK: OpFMul %double %[[K]] %double_6_077100506303966en11
// CHECK: OpFMul %double %[[K]] %double_2_0222662487111665en21
// CHECK: OpFMul %double %[[K]] %double_8_4784276603688996en32
// ... the Payne-Hanek reduction: the window's start in the table of 2/pi
// (the exponent + 62 - 1075), the table's chunks (0xa2f9836e first), the
// 32-bit products, the 128-bit fraction negated past a half and converted,
// its product with pi/2 exact as two (Veltkamp's split by 2^27 + 1) ...
// CHECK: OpBitcast %ulong %[[ABS]]
// CHECK: OpShiftRightLogical %ulong %{{[0-9]+}} %ulong_52
// CHECK: OpIAdd %ulong %{{[0-9]+}} %ulong_18446744073709550603
// CHECK: OpSelect %ulong %{{[0-9]+}} %ulong_2734261102
// CHECK: OpIMul %ulong
// CHECK: OpBitwiseXor %ulong %{{[0-9]+}} %ulong_18446744073709551615
// CHECK: OpConvertUToF %double
// CHECK: OpFMul %double %{{[0-9]+}} %double_2_9387358770557188en39
// CHECK: OpFMul %double %[[HIGH:[0-9]+]] %double_134217729
// CHECK: OpFMul %double %[[HIGH]] %double_1_5707963267948966
// ... and the Taylor series of sin and cos.
// CHECK: OpFAdd %double %{{[0-9]+}} %double_n0_16666666666666666
// CHECK: OpFAdd %double %{{[0-9]+}} %double_n0_0013888888888888889
// CHECK: OpFunctionEnd

// cos is sin a quadrant on, tan sin / cos or -cos / sin.
// CHECK-LABEL: %cosine = OpFunction
// CHECK: OpIAdd %ulong %{{[0-9]+}} %ulong_1
// CHECK: OpFunctionEnd
// CHECK-LABEL: %tangent = OpFunction
// CHECK: OpFDiv %double
// CHECK: OpFunctionEnd

// asin and acos: sqrt((1 - |x|) / 2) beyond 1/2, the series to s^49
// (binomial(48, 24) / (4^24 49)), pi/2's rest at f64.
// CHECK-LABEL: %arcsine = OpFunction
// CHECK: Sqrt
// CHECK: OpFMul %double %{{[0-9]+}} %double_0_002338091892111975
// CHECK: OpFAdd %double %{{[0-9]+}} %double_6_123233995736766en17
// CHECK-LABEL: %arccosine = OpFunction
// CHECK: Sqrt
// CHECK: OpFAdd %double %{{[0-9]+}} %double_6_123233995736766en17

// atan: beyond tan(3pi/8), the series to z^41, and atan2 from it.
// CHECK-LABEL: %arctangent = OpFunction
// CHECK: OpFOrdGreaterThan %bool %{{[0-9]+}} %double_2_4142135623730949
// CHECK: OpFMul %double %{{[0-9]+}} %double_0_024390243902439025
// CHECK-LABEL: %arctangent2 = OpFunction
// CHECK: OpFDiv %double
// CHECK: OpFMul %double %{{[0-9]+}} %double_0_024390243902439025

// erf: the odd series (2/sqrt(pi) - 1 its last coefficient), the center of
// |x|'s interval, 1 beyond 6.
// CHECK-LABEL: %erf = OpFunction
// CHECK: OpFAdd %double %{{[0-9]+}} %double_0_12837916709551259
// CHECK: OpSelect %double %{{[0-9]+}} %double_5_5
// CHECK: OpFOrdGreaterThan %bool %{{[0-9]+}} %double_6
// CHECK: OpFunctionEnd
