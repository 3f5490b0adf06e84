// The f64 builtins that GLSL.std.450 lacks (its Exp, Log, Pow, Sinh, Cosh
// and Tanh are 32-bit only) are built from f64 arithmetic: exp by
// reduction to r = x - k ln2 (ln2 in two parts) and a Taylor polynomial,
// scaled by 2^k as two exponent-field powers; log from the exponent and
// 2 atanh((m - 1) / (m + 1)); pow as exp(y log |x|) inside the same special
// cases as f32; tanh, sinh and cosh from exp and a Taylor expm1 near 0.
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @builtins(%x: memref<4xf64>, %y: memref<4xf64>, %out: memref<4xf64>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %x[%t] : memref<4xf64>
      %b = memref.load %y[%t] : memref<4xf64>
      %e = math.exp %a : f64
      memref.store %e, %out[%t] : memref<4xf64>
      %l = math.log %a : f64
      memref.store %l, %out[%t] : memref<4xf64>
      %p = math.powf %a, %b : f64
      memref.store %p, %out[%t] : memref<4xf64>
      %h = math.tanh %a : f64
      %s = math.sinh %h : f64
      %c = math.cosh %s : f64
      memref.store %c, %out[%t] : memref<4xf64>
      gpu.return
    }
  }
}

// No 32-bit detour and no GLSL instruction that is 32-bit only.
// CHECK-NOT: OpTypeFloat 32
// CHECK-NOT: {{ (Exp|Log|Pow|Sinh|Cosh|Tanh) }}
// CHECK-LABEL: %builtins = OpFunction

// exp: k = floor(x log2(e) + 1/2), r = x - k ln2_hi - k ln2_lo, then 2^k
// as ((k >> 1) + 1023) << 52 times ((k - (k >> 1)) + 1023) << 52.
// CHECK: OpFMul %double %{{[0-9]+}} %double_1_4426950408889634
// CHECK: Floor
// CHECK: OpFMul %double %{{[0-9]+}} %double_0_69314718036912382
// CHECK-NEXT: OpFMul %double %{{[0-9]+}} %double_1_9082149292705877en10
// CHECK: OpConvertFToS %ulong
// CHECK: OpShiftRightArithmetic %ulong %{{[0-9]+}} %ulong_1
// CHECK: OpShiftLeftLogical %ulong %{{[0-9]+}} %ulong_52
// CHECK: OpFOrdGreaterThan %bool %{{[0-9]+}} %double_709_78271289338397
// CHECK: OpStore

// log: the exponent field, the mantissa scaled into [sqrt(2)/2, sqrt(2)).
// CHECK: OpShiftRightLogical %ulong %{{[0-9]+}} %ulong_52
// CHECK: OpBitwiseOr %ulong %{{[0-9]+}} %ulong_4607182418800017408
// CHECK: OpFOrdGreaterThan %bool %{{[0-9]+}} %double_1_4142135623730951
// CHECK: OpFDiv %double
// CHECK: OpStore
