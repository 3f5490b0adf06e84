// tilec-spirv-keep-zero-operands-exact alone: the operations that llvmpipe
// simplifies by operand identity get exact equivalents; x / 0.0 - x / 0.0
// is merged into x - x first. A comparison of a value with itself that is
// false for every value folds first, so that the zero Mesa would make of
// (float)(x < x) is a constant here too, and so does a comparison of |x| or
// -|x| with a constant that their sign decides (relu(-|x|) is +0), and a
// comparison of choices among constants that all their values decide
// (shape(C) != 0, through conversions).
// RUN: tile-opt --tilec-spirv-keep-zero-operands-exact %s | FileCheck %s

module {
  gpu.module @kernels {
    gpu.func @zeros(%x: f32, %out: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      %div = arith.divf %x, %zero : f32
      %mul = arith.mulf %zero, %x : f32
      %add = arith.addf %x, %zero : f32
      %div2 = arith.divf %x, %zero : f32
      %sub = arith.subf %div, %div2 : f32
      memref.store %div, %out[%c0] : memref<8xf32>
      memref.store %mul, %out[%c1] : memref<8xf32>
      memref.store %add, %out[%c2] : memref<8xf32>
      memref.store %sub, %out[%c3] : memref<8xf32>
      gpu.return
    }

    gpu.func @self_comparison(%x: f32, %out: memref<2xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %never = arith.cmpf olt, %x, %x : f32
      %zero = arith.uitofp %never : i1 to f32
      %quotient = arith.divf %x, %zero : f32
      %always = arith.cmpf uge, %x, %x : f32
      %one = arith.uitofp %always : i1 to f32
      %kept = arith.cmpf oeq, %x, %x : f32
      %maybe = arith.uitofp %kept : i1 to f32
      %sum = arith.addf %one, %maybe : f32
      memref.store %quotient, %out[%c0] : memref<2xf32>
      memref.store %sum, %out[%c1] : memref<2xf32>
      gpu.return
    }

    gpu.func @sign_decided(%x: f32, %out: memref<4xi1>, %q: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %zero = arith.constant 0.0 : f32
      %minus_one = arith.constant -1.0 : f32
      %abs = math.absf %x : f32
      %negated = arith.negf %abs : f32
      %positive = arith.cmpf ogt, %negated, %zero : f32
      %relu = arith.select %positive, %negated, %zero : f32
      %quotient = arith.divf %x, %relu : f32
      %below = arith.cmpf ogt, %minus_one, %abs : f32
      %not_above = arith.cmpf ule, %negated, %zero : f32
      %undecided = arith.cmpf olt, %negated, %zero : f32
      %kept = arith.cmpf ogt, %negated, %minus_one : f32
      memref.store %below, %out[%c0] : memref<4xi1>
      memref.store %not_above, %out[%c1] : memref<4xi1>
      memref.store %undecided, %out[%c2] : memref<4xi1>
      memref.store %kept, %out[%c3] : memref<4xi1>
      memref.store %quotient, %q[%c0] : memref<1xf32>
      gpu.return
    }

    gpu.func @choices(%x: f64, %axis: i32, %out: memref<4xi1>, %q: memref<1xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %i0 = arith.constant 0 : i32
      %i1 = arith.constant 1 : i32
      %e3 = arith.constant 3 : i32
      %e5 = arith.constant 5 : i32
      %e7 = arith.constant 7 : i32
      %zero = arith.constant 0.0 : f64
      %one = arith.constant 1.0 : f64
      %four = arith.constant 4.0 : f32
      // shape(C) of C[3, 5, 7], element %axis.
      %is0 = arith.cmpi eq, %axis, %i0 : i32
      %is1 = arith.cmpi eq, %axis, %i1 : i32
      %tail = arith.select %is1, %e5, %e7 : i32
      %extent = arith.select %is0, %e3, %tail : i32
      %float = arith.sitofp %extent : i32 to f64
      %isZero = arith.cmpf oeq, %float, %zero : f64
      %not = arith.select %isZero, %one, %zero : f64
      %quotient = arith.divf %x, %not : f64
      %wide = arith.extsi %extent : i32 to i64
      %c5 = arith.constant 5 : i64
      %above = arith.cmpi sgt, %wide, %c5 : i64
      %narrow = arith.truncf %float : f64 to f32
      %belowFour = arith.cmpf olt, %narrow, %four : f32
      %positive = arith.cmpi sgt, %extent, %i0 : i32
      %varying = arith.cmpi sgt, %extent, %axis : i32
      memref.store %above, %out[%c0] : memref<4xi1>
      memref.store %belowFour, %out[%c1] : memref<4xi1>
      memref.store %positive, %out[%c2] : memref<4xi1>
      memref.store %varying, %out[%c3] : memref<4xi1>
      memref.store %quotient, %q[%c0] : memref<1xf64>
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @zeros
// x / +0.0 is x * +inf.
// CHECK: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: %[[DIV:.*]] = arith.mulf %arg0, %[[INF]] : f32
// +0.0 * x is copysign(0, x) for a finite x, else NaN.
// CHECK: %[[ABS:.*]] = math.absf %arg0 : f32
// CHECK: %[[FINITE:.*]] = arith.cmpf olt, %[[ABS]], %{{.*}} : f32
// CHECK: %[[SIGNED:.*]] = math.copysign %{{.*}}, %arg0 : f32
// CHECK: %[[MUL:.*]] = arith.select %[[FINITE]], %[[SIGNED]], %{{.*}} : f32
// x + +0.0 is +0 for a zero x, else x.
// CHECK: %[[ISZERO:.*]] = arith.cmpf oeq, %arg0, %{{.*}} : f32
// CHECK: %[[ADD:.*]] = arith.select %[[ISZERO]], %{{.*}}, %arg0 : f32
// x / 0.0 - x / 0.0, merged into x - x: +0 for a finite x, else NaN.
// CHECK: %[[ABSDIV:.*]] = math.absf %[[DIV]] : f32
// CHECK: %[[DIVFINITE:.*]] = arith.cmpf olt, %[[ABSDIV]], %{{.*}} : f32
// CHECK: %[[SUB:.*]] = arith.select %[[DIVFINITE]], %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.divf
// CHECK-NOT: arith.subf
// CHECK-NOT: arith.addf
// CHECK: memref.store %[[DIV]], %arg1[%c0]
// CHECK: memref.store %[[MUL]], %arg1[%c1]
// CHECK: memref.store %[[ADD]], %arg1[%c2]
// CHECK: memref.store %[[SUB]], %arg1[%c3]

// CHECK-LABEL: gpu.func @self_comparison
// x / (float)(x < x) is x * +inf; x >= x unordered is true; x == x stays
// (false for NaN).
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK-DAG: %[[QUOTIENT:.*]] = arith.mulf %arg0, %[[INF]] : f32
// CHECK: %[[KEPT:.*]] = arith.cmpf oeq, %arg0, %arg0 : f32
// CHECK: %[[MAYBE:.*]] = arith.uitofp %[[KEPT]] : i1 to f32
// CHECK: arith.addf %[[MAYBE]], %[[ONE]] : f32
// CHECK: memref.store %[[QUOTIENT]]

// CHECK-LABEL: gpu.func @sign_decided
// -|x| > 0 is false, so x / relu(-|x|) is x * +inf; -1 > |x| is false and
// -|x| <= 0 unordered true; -|x| < 0 (false for 0) and -|x| > -1 stay.
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK-DAG: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK-DAG: %[[QUOTIENT:.*]] = arith.mulf %arg0, %[[INF]] : f32
// CHECK: %[[UNDECIDED:.*]] = arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK: %[[KEPT:.*]] = arith.cmpf ogt, %{{.*}}, %{{.*}} : f32
// CHECK: memref.store %[[FALSE]], %arg1[%c0]
// CHECK: memref.store %[[TRUE]], %arg1[%c1]
// CHECK: memref.store %[[UNDECIDED]], %arg1[%c2]
// CHECK: memref.store %[[KEPT]], %arg1[%c3]
// CHECK: memref.store %[[QUOTIENT]], %arg2[%c0]

// CHECK-LABEL: gpu.func @choices
// shape(C) is 3, 5 or 7: as a float it is never 0, so x / !shape(C) is
// x * +inf, and it is positive; > 5 and < 4 differ among its values and
// stay, as does a comparison with a value that is not a constant.
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK-DAG: %[[INF:.*]] = arith.constant 0x7FF0000000000000 : f64
// CHECK-DAG: %[[QUOTIENT:.*]] = arith.mulf %arg0, %[[INF]] : f64
// CHECK-DAG: %[[ABOVE:.*]] = arith.cmpi sgt, %{{.*}}, %{{.*}} : i64
// CHECK-DAG: %[[BELOW:.*]] = arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK-DAG: %[[VARYING:.*]] = arith.cmpi sgt, %{{.*}}, %arg1 : i32
// CHECK: memref.store %[[ABOVE]], %arg2[%c0]
// CHECK: memref.store %[[BELOW]], %arg2[%c1]
// CHECK: memref.store %[[TRUE]], %arg2[%c2]
// CHECK: memref.store %[[VARYING]], %arg2[%c3]
// CHECK: memref.store %[[QUOTIENT]], %arg3[%c0]
