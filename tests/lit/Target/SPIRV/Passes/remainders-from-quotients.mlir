// tilec-spirv-remainders-from-quotients alone: a signed remainder by a
// constant becomes x - (x / c) * c, whose quotient the translation's CSE
// merges with the kernel's own x / c; a remainder by a value, by 0 or by
// -1 becomes |x| urem |y| negated where x < 0 (MLIR 19's conversion tested
// the sign as x == |x|, true of INT_MIN: INT_MIN rem 5 gave +3). An
// unsigned remainder likewise, but by a power of two
// (one mask) it stays. In the translation the coordinates are non-negative
// (tilec-spirv-unsigned-divisions): one OpUDiv per coordinate and no
// OpUMod.
// RUN: tile-opt --tilec-spirv-remainders-from-quotients %s | FileCheck %s
// RUN: tile-translate --kernel-ir-to-spirv %s | FileCheck %s --check-prefix=SPIRV

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @coordinates(%in: memref<3136xf32>, %out: memref<3136xf32>, %d: memref<1xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %g = gpu.block_id x
      %t = gpu.thread_id x
      %c56 = arith.constant 56 : index
      %c64 = arith.constant 64 : index
      %base = arith.muli %g, %c64 : index
      %i = arith.addi %base, %t : index
      %x = arith.remsi %i, %c56 : index
      %y = arith.divsi %i, %c56 : index
      %j = arith.muli %x, %c56 : index
      %k = arith.addi %j, %y : index
      %v = memref.load %in[%k] : memref<3136xf32>
      memref.store %v, %out[%i] : memref<3136xf32>
      %c0 = arith.constant 0 : index
      %n = memref.load %d[%c0] : memref<1xi32>
      %ci = arith.index_cast %i : index to i32
      %byValue = arith.remsi %ci, %n : i32
      %zero = arith.constant 0 : i32
      %byZero = arith.remsi %ci, %zero : i32
      %minusOne = arith.constant -1 : i32
      %byMinusOne = arith.remsi %ci, %minusOne : i32
      %s1 = arith.addi %byValue, %byZero : i32
      %s2 = arith.addi %s1, %byMinusOne : i32
      %c8 = arith.constant 8 : index
      %u56 = arith.remui %i, %c56 : index
      %u8 = arith.remui %i, %c8 : index
      %u = arith.addi %u56, %u8 : index
      %cu = arith.index_cast %u : index to i32
      %s3 = arith.addi %s2, %cu : i32
      memref.store %s3, %d[%c0] : memref<1xi32>
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @coordinates(
// CHECK: %[[I:.*]] = arith.addi
// CHECK: %[[Q:.*]] = arith.divsi %[[I]], %[[C56:.*]] : index
// CHECK: %[[M:.*]] = arith.muli %[[Q]], %[[C56]] : index
// CHECK: %[[X:.*]] = arith.subi %[[I]], %[[M]] : index
// CHECK: arith.divsi %[[I]], %[[C56]] : index
// CHECK: arith.muli %[[X]], %[[C56]]
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[XNEG:.*]] = arith.cmpi slt, %[[CI:.*]], %[[ZERO]] : i32
// CHECK: %[[XNEGATED:.*]] = arith.subi %[[ZERO]], %[[CI]] : i32
// CHECK: %[[XABS:.*]] = arith.select %[[XNEG]], %[[XNEGATED]], %[[CI]] : i32
// CHECK: %[[YNEG:.*]] = arith.cmpi slt, %[[N:.*]], %[[ZERO]] : i32
// CHECK: %[[YNEGATED:.*]] = arith.subi %[[ZERO]], %[[N]] : i32
// CHECK: %[[YABS:.*]] = arith.select %[[YNEG]], %[[YNEGATED]], %[[N]] : i32
// CHECK: %[[R:.*]] = arith.remui %[[XABS]], %[[YABS]] : i32
// CHECK: %[[RNEG:.*]] = arith.cmpi slt, %[[CI]], %[[ZERO]] : i32
// CHECK: %[[RNEGATED:.*]] = arith.subi %[[ZERO]], %[[R]] : i32
// CHECK: arith.select %[[RNEG]], %[[RNEGATED]], %[[R]] : i32
// CHECK: arith.remui
// CHECK: arith.remui
// CHECK-NOT: arith.remsi
// CHECK: %[[UQ:.*]] = arith.divui %[[I]], %[[C56]] : index
// CHECK: %[[UM:.*]] = arith.muli %[[UQ]], %[[C56]] : index
// CHECK: arith.subi %[[I]], %[[UM]] : index
// CHECK: arith.remui %[[I]], %{{.*}} : index
// CHECK-NOT: arith.remui

// SPIRV-LABEL: %coordinates = OpFunction
// SPIRV-NOT: OpUMod %uint %{{.*}} %uint_56
// SPIRV: OpUDiv %uint %{{.*}} %uint_56
// SPIRV-NOT: OpUDiv %uint %{{.*}} %uint_56
// SPIRV-NOT: OpUMod %uint %{{.*}} %uint_56
// SPIRV-NOT: OpSDiv %uint %{{.*}} %uint_56
// SPIRV: OpFunctionEnd
