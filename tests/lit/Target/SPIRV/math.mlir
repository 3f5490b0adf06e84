// The math builtins in SPIR-V. GLSL.std.450's Pow is undefined for x < 0 and
// for x = 0 with y <= 0, and its Atan2 is missing from MLIR's dialect: both
// are expanded with C's special cases around the GLSL instruction. tanh and
// erf are MLIR's f32 rational approximations (about 4 ulp; 2.4e-7); asin,
// acos and atan (atan2's too) are tilec's series on a reduced argument, as
// GLSL.std.450's are far looser; the others are their GLSL.std.450
// instructions.
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s --check-prefix=NOGLSL
// NOGLSL-NOT: {{Asin|Acos|Atan}}

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @builtins(%x: memref<4xf32>, %y: memref<4xf32>, %out: memref<4xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %x[%t] : memref<4xf32>
      %b = memref.load %y[%t] : memref<4xf32>
      %p = math.powf %a, %b : f32
      memref.store %p, %out[%t] : memref<4xf32>
      %q = math.atan2 %a, %b : f32
      memref.store %q, %out[%t] : memref<4xf32>
      %h = math.tanh %a : f32
      memref.store %h, %out[%t] : memref<4xf32>
      %e = math.erf %a : f32
      memref.store %e, %out[%t] : memref<4xf32>
      %r = math.round %a : f32
      memref.store %r, %out[%t] : memref<4xf32>
      %s = math.sin %a : f32
      %c = math.cos %s : f32
      %tn = math.tan %c : f32
      %ex = math.exp %tn : f32
      %lg = math.log %ex : f32
      %sq = math.sqrt %lg : f32
      %rs = math.rsqrt %sq : f32
      %sh = math.sinh %rs : f32
      %ch = math.cosh %sh : f32
      %as = math.asin %ch : f32
      %ac = math.acos %as : f32
      %at = math.atan %ac : f32
      memref.store %at, %out[%t] : memref<4xf32>
      gpu.return
    }
  }
}

// CHECK-LABEL: %builtins = OpFunction
// CHECK: [[X:%[0-9]+]] = OpLoad %float
// CHECK: [[Y:%[0-9]+]] = OpLoad %float

// pow: GLSL's Pow on |x| only; zero bases, negative bases (odd integer y:
// negated; other y: NaN for a finite base), NaNs, and the cases that give 1.
// CHECK: [[ABS:%[0-9]+]] = OpExtInst %float %{{[0-9]+}} FAbs [[X]]
// CHECK: OpExtInst %float %{{[0-9]+}} Pow %{{[0-9]+}} [[Y]]
// CHECK: OpFOrdEqual %bool [[ABS]] %float_0
// CHECK: OpExtInst %float %{{[0-9]+}} Floor [[Y]]
// CHECK: OpFMul %float [[Y]] %float_0_5
// A finite negative base with a non-integer y is NaN; -inf is not.
// CHECK: OpFOrdLessThan %bool [[X]] %float_0
// CHECK: OpFOrdNotEqual %bool [[X]] %float_n0x1p_128
// CHECK: OpIsNan %bool [[X]]
// CHECK: OpIsNan %bool [[Y]]
// CHECK: OpFOrdEqual %bool [[X]] %float_1
// CHECK: OpFOrdEqual %bool [[Y]] %float_0
// CHECK: [[POW:%[0-9]+]] = OpSelect %float %{{[0-9]+}} %float_1
// CHECK: OpStore %{{[0-9]+}} [[POW]]

// atan2(y = X, x = Y): atan of the quotient, +-pi for a negative x, then
// two zeros and two infinities. The quotient's operands are scaled by 1/4
// where |x| > 2^126 (tilec-spirv-divisor-range).
// CHECK: [[XS:%[0-9]+]] = OpFMul %float [[X]] [[S:%[0-9]+]]
// CHECK: [[YS:%[0-9]+]] = OpFMul %float [[Y]] [[S]]
// CHECK: OpFDiv %float [[XS]] [[YS]]
// CHECK: OpFOrdGreaterThan %bool %{{[0-9]+}} %float_2_41421366
// CHECK: OpSelect %float %{{[0-9]+}} %float_3_14159274 %float_0
// CHECK: OpSelect %float %{{[0-9]+}} %float_2_3561945 %float_0_785398185
// CHECK: OpStore

// tanh: clamped to +-7.99881172, x itself below 0.0004, else a rational.
// CHECK: OpFUnordLessThan %bool [[X]] %float_7_99881172
// CHECK: OpFOrdLessThan %bool %{{[0-9]+}} %float_0_00039999999
// CHECK: OpFDiv %float
// CHECK: OpStore

// erf: piecewise rational, 1 from 3.75 on, odd.
// CHECK: OpFOrdLessThan %bool %{{[0-9]+}} %float_0_800000012
// CHECK: OpFUnordLessThan %bool %{{[0-9]+}} %float_3_75
// CHECK: OpStore

// round: half away from zero, exactly (floor(|x|) + (|x| - floor(|x|) >= 0.5)
// with x's sign), not GLSL's Round, whose halfway direction is undefined.
// CHECK: OpExtInst %float %{{[0-9]+}} Floor
// CHECK: OpFOrdGreaterThanEqual %bool %{{[0-9]+}} %float_0_5
// CHECK-NOT: Round
// CHECK: OpStore

// CHECK: Sin [[X]]
// CHECK: Cos
// CHECK: Tan
// CHECK: Exp
// CHECK: Log
// CHECK: Sqrt
// CHECK: InverseSqrt
// CHECK: Sinh
// CHECK: Cosh
// asin: pi/2 - 2 asin(sqrt((1 - |x|) / 2)) above 1/2, NaN above 1.
// CHECK: OpFOrdGreaterThan %bool [[ASIN_T:%[0-9]+]] %float_0_5
// CHECK: OpExtInst %float %{{[0-9]+}} Sqrt
// CHECK: OpFOrdGreaterThan %bool [[ASIN_T]] %float_1
// CHECK: OpFSub %float %float_1_57079637
// acos: the same reduction; pi/2 - asin x, 2 asin(s) or pi - 2 asin(s).
// CHECK: OpFOrdGreaterThan %bool [[ACOS_T:%[0-9]+]] %float_0_5
// CHECK: OpExtInst %float %{{[0-9]+}} Sqrt
// CHECK: OpFOrdGreaterThan %bool [[ACOS_T]] %float_1
// CHECK: OpFSub %float %float_1_57079637
// CHECK: OpFSub %float %float_3_14159274
// atan: pi/2 + atan(-1/|x|) above tan(3pi/8), pi/4 + atan((|x|-1)/(|x|+1))
// above tan(pi/8).
// CHECK: OpFOrdGreaterThan %bool [[ATAN_T:%[0-9]+]] %float_2_41421366
// CHECK: OpFOrdGreaterThan %bool [[ATAN_T]] %float_0_414213568
// CHECK: OpFSub %float %float_0_785398185
// CHECK: OpFSub %float %float_1_57079637
// CHECK: OpStore
