// Every storage dtype in SPIR-V: f16 is the native 16-bit float (Float16,
// 16-bit storage), rounded to from f32 by integer operations; bf16, which SPIR-V lacks, is stored as its 16 bits and
// converted by integer operations (f32 -> bf16 rounds to nearest even, NaN
// becomes 0x7fc0); f64 -> bf16 and f64 -> f16 round once, through f32
// rounded to odd; an empty buffer gets one (never read) element.
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @halves(%h: memref<8xf16>, %b: memref<8xbf16>, %d: memref<8xf64>, %s: memref<8xi16>, %l: memref<8xi64>, %e: memref<0xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      %t = gpu.thread_id x
      %hx = memref.load %h[%t] : memref<8xf16>
      %bx = memref.load %b[%t] : memref<8xbf16>
      %hf = arith.extf %hx : f16 to f32
      %bf = arith.extf %bx : bf16 to f32
      %sum = arith.addf %hf, %bf : f32
      %hr = arith.truncf %sum : f32 to f16
      %br = arith.truncf %sum : f32 to bf16
      memref.store %hr, %h[%t] : memref<8xf16>
      memref.store %br, %b[%t] : memref<8xbf16>
      %dx = memref.load %d[%t] : memref<8xf64>
      %dr = math.sqrt %dx : f64
      %db = arith.truncf %dr : f64 to bf16
      memref.store %db, %b[%t] : memref<8xbf16>
      %dh = arith.truncf %dr : f64 to f16
      memref.store %dh, %h[%t] : memref<8xf16>
      memref.store %dr, %d[%t] : memref<8xf64>
      %sx = memref.load %s[%t] : memref<8xi16>
      %lx = memref.load %l[%t] : memref<8xi64>
      %sl = arith.extsi %sx : i16 to i64
      %q = arith.divsi %lx, %sl : i64
      memref.store %q, %l[%t] : memref<8xi64>
      gpu.return
    }
  }
}

// CHECK-DAG: OpCapability Float16
// CHECK-DAG: OpCapability Float64
// CHECK-DAG: OpCapability Int16
// CHECK-DAG: OpCapability Int64
// CHECK-DAG: OpCapability StorageBuffer16BitAccess
// CHECK-NOT: OpCapability Int8
// CHECK-DAG: %_arr_half_uint_8 ArrayStride 2
// CHECK-DAG: %_arr_ushort_uint_8 ArrayStride 2
// CHECK-DAG: %_arr_double_uint_8 ArrayStride 8
// CHECK-DAG: %_arr_ulong_uint_8 ArrayStride 8
// CHECK-DAG: %arg1 = OpVariable %_ptr_StorageBuffer__struct_[[BF16:[0-9]+]] StorageBuffer
// CHECK-DAG: %_struct_[[BF16]] = OpTypeStruct %_arr_ushort_uint_8
// CHECK-DAG: %_arr_float_uint_1 = OpTypeArray %float %uint_1
// CHECK-DAG: %arg5 = OpVariable %_ptr_StorageBuffer__struct_{{[0-9]+}} StorageBuffer
// CHECK-DAG: %ushort_32704 = OpConstant %ushort 32704

// CHECK-LABEL: %halves = OpFunction
// f16 and bf16 loads, widened to f32.
// CHECK: [[H:%[0-9]+]] = OpLoad %half
// CHECK: [[B:%[0-9]+]] = OpLoad %ushort
// CHECK: [[HF:%[0-9]+]] = OpFConvert %float [[H]]
// CHECK: [[BW:%[0-9]+]] = OpUConvert %uint [[B]]
// CHECK: [[BS:%[0-9]+]] = OpShiftLeftLogical %uint [[BW]] %uint_16
// CHECK: [[BF:%[0-9]+]] = OpBitcast %float [[BS]]
// CHECK: [[SUM:%[0-9]+]] = OpFAdd %float [[HF]] [[BF]]
// f32 -> f16 from the bits, to nearest even whatever the device's
// conversion does: the exponent rebiased (+0xc8000000) with 0xfff and the
// lowest kept bit added, subnormals through 0.5 + |x|; f32 -> bf16: bits +
// 0x7fff + lowest kept bit.
// CHECK: OpBitcast %uint [[SUM]]
// CHECK: OpIAdd %uint %{{[0-9]+}} %uint_3355447295
// CHECK: OpFAdd %float %{{[0-9]+}} %float_0_5
// CHECK: [[HB:%[0-9]+]] = OpSConvert %ushort
// CHECK: [[HR:%[0-9]+]] = OpBitcast %half [[HB]]
// CHECK: [[NAN:%[0-9]+]] = OpFUnordNotEqual %bool [[SUM]] [[SUM]]
// (The bits of SUM are the f16 rounding's, merged by CSE.)
// CHECK: OpIAdd %uint %{{[0-9]+}} %uint_32767
// CHECK: [[BR:%[0-9]+]] = OpSelect %ushort [[NAN]] %ushort_32704
// CHECK: OpStore %{{[0-9]+}} [[HR]]
// CHECK: OpStore %{{[0-9]+}} [[BR]]
// f64 -> bf16 and f64 -> f16 (a driver may convert f64 to f16 through f32
// rounded to nearest) both start from f32 rounded to odd, computed once (the
// preparation's CSE merges the two): to f32, one step toward zero if that
// rounded away, the lowest bit set if inexact.
// CHECK: [[D:%[0-9]+]] = OpExtInst %double %{{[0-9]+}} Sqrt
// CHECK: [[F:%[0-9]+]] = OpFConvert %float [[D]]
// CHECK: OpFOrdGreaterThan %bool
// CHECK: OpISub %uint %{{[0-9]+}} %uint_1
// CHECK: OpFUnordNotEqual %bool %{{[0-9]+}} [[D]]
// CHECK: [[ODD:%[0-9]+]] = OpBitwiseOr %uint %{{[0-9]+}} %uint_1
// CHECK: [[SEL:%[0-9]+]] = OpSelect %uint %{{[0-9]+}} [[ODD]]
// CHECK: [[ODDF:%[0-9]+]] = OpBitcast %float [[SEL]]
// Then to bf16,
// CHECK: [[ODDBITS:%[0-9]+]] = OpBitcast %uint [[ODDF]]
// CHECK: OpIAdd %uint %{{[0-9]+}} %uint_32767
// and to f16 from the bits.
// CHECK: OpBitwiseAnd %uint [[ODDBITS]] %uint_2147483647
// CHECK: OpIAdd %uint %{{[0-9]+}} %uint_3355447295
// CHECK: [[DHB:%[0-9]+]] = OpSConvert %ushort
// CHECK: [[DH:%[0-9]+]] = OpBitcast %half [[DHB]]
// CHECK: OpStore %{{[0-9]+}} [[DH]]
// i16 widened to i64 for a 64-bit division.
// CHECK: OpLoad %ushort
// CHECK: OpLoad %ulong
// CHECK: OpSConvert %ulong
// CHECK: OpSDiv %ulong
