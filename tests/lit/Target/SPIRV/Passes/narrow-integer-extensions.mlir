// tilec-spirv-narrow-integer-extensions: a comparison of an integer
// extension with a constant that no narrow value can change is its constant
// result; otherwise a signed or equality comparison of a sign extension with
// a constant compares the narrow value with the constant truncated (either
// operand order). Unsigned comparisons of sign extensions, other comparisons
// of zero extensions, and comparisons with a value that is not a constant,
// stay. A conversion of a sign extension to float converts the narrow value;
// of a zero extension, it stays.
// RUN: tile-opt --tilec-spirv-narrow-integer-extensions %s | FileCheck %s

module {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @compare
    // CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i64, %[[OUT:.*]]: memref<7xi1>)
    // CHECK: %[[WIDE:.*]] = arith.extsi %[[X]] : i32 to i64
    // CHECK: %[[SEVEN:.*]] = arith.constant 7 : i32
    // CHECK: %[[GT:.*]] = arith.cmpi sgt, %[[X]], %[[SEVEN]] : i32
    // CHECK: %[[MINUS:.*]] = arith.constant -3 : i32
    // CHECK: %[[LT:.*]] = arith.cmpi sgt, %[[X]], %[[MINUS]] : i32
    // CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
    // CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[X]], %[[ZERO]] : i32
    // CHECK: %[[ABOVE:.*]] = arith.constant true
    // CHECK: %[[BELOW:.*]] = arith.constant false
    // CHECK: %[[U:.*]] = arith.cmpi ugt, %[[WIDE]], %{{.*}} : i64
    // CHECK: %[[V:.*]] = arith.cmpi sgt, %[[WIDE]], %[[Y]] : i64
    // CHECK: memref.store %[[GT]], %[[OUT]]
    // CHECK: memref.store %[[LT]], %[[OUT]]
    // CHECK: memref.store %[[EQ]], %[[OUT]]
    // CHECK: memref.store %[[ABOVE]], %[[OUT]]
    // CHECK: memref.store %[[BELOW]], %[[OUT]]
    // CHECK: memref.store %[[U]], %[[OUT]]
    // CHECK: memref.store %[[V]], %[[OUT]]
    gpu.func @compare(%x: i32, %y: i64, %out: memref<7xi1>) kernel {
      %wide = arith.extsi %x : i32 to i64
      %c7 = arith.constant 7 : i64
      %cm3 = arith.constant -3 : i64
      %c0 = arith.constant 0 : i64
      %huge = arith.constant 5000000000 : i64
      %gt = arith.cmpi sgt, %wide, %c7 : i64
      %lt = arith.cmpi slt, %cm3, %wide : i64
      %eq = arith.cmpi eq, %wide, %c0 : i64
      %above = arith.cmpi slt, %wide, %huge : i64
      %below = arith.cmpi sge, %wide, %huge : i64
      %u = arith.cmpi ugt, %wide, %c7 : i64
      %v = arith.cmpi sgt, %wide, %y : i64
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i3 = arith.constant 3 : index
      %i4 = arith.constant 4 : index
      %i5 = arith.constant 5 : index
      %i6 = arith.constant 6 : index
      memref.store %gt, %out[%i0] : memref<7xi1>
      memref.store %lt, %out[%i1] : memref<7xi1>
      memref.store %eq, %out[%i2] : memref<7xi1>
      memref.store %above, %out[%i3] : memref<7xi1>
      memref.store %below, %out[%i4] : memref<7xi1>
      memref.store %u, %out[%i5] : memref<7xi1>
      memref.store %v, %out[%i6] : memref<7xi1>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @zero_extended
    // CHECK-SAME: (%[[B:.*]]: i1, %[[X:.*]]: i8, %[[OUT:.*]]: memref<8xi1>)
    // CHECK: %[[BYTE:.*]] = arith.extui %[[X]] : i8 to i32
    // CHECK: %[[INSIDE:.*]] = arith.cmpi slt, %[[BYTE]], %{{.*}} : i32
    // CHECK: %[[MAYBE:.*]] = arith.cmpi eq, %[[BYTE]], %{{.*}} : i32
    // CHECK: memref.store %false{{.*}}, %[[OUT]]
    // CHECK: memref.store %true{{.*}}, %[[OUT]]
    // CHECK: memref.store %true{{.*}}, %[[OUT]]
    // CHECK: memref.store %[[INSIDE]], %[[OUT]]
    // CHECK: memref.store %false{{.*}}, %[[OUT]]
    // CHECK: memref.store %false{{.*}}, %[[OUT]]
    // CHECK: memref.store %[[MAYBE]], %[[OUT]]
    // CHECK: memref.store %true{{.*}}, %[[OUT]]
    gpu.func @zero_extended(%b: i1, %x: i8, %out: memref<8xi1>) kernel {
      %bit = arith.extui %b : i1 to i32
      %byte = arith.extui %x : i8 to i32
      %c0 = arith.constant 0 : i32
      %c2 = arith.constant 2 : i32
      %c255 = arith.constant 255 : i32
      %c256 = arith.constant 256 : i32
      %cm1 = arith.constant -1 : i32
      %negative = arith.cmpi slt, %bit, %c0 : i32
      %small = arith.cmpi ult, %bit, %c2 : i32
      %atMost = arith.cmpi sle, %byte, %c255 : i32
      %inside = arith.cmpi slt, %byte, %c2 : i32
      %never = arith.cmpi eq, %cm1, %byte : i32
      %wider = arith.cmpi eq, %byte, %c256 : i32
      %maybe = arith.cmpi eq, %byte, %c255 : i32
      %swapped = arith.cmpi uge, %c2, %bit : i32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i3 = arith.constant 3 : index
      %i4 = arith.constant 4 : index
      %i5 = arith.constant 5 : index
      %i6 = arith.constant 6 : index
      %i7 = arith.constant 7 : index
      memref.store %negative, %out[%i0] : memref<8xi1>
      memref.store %small, %out[%i1] : memref<8xi1>
      memref.store %atMost, %out[%i2] : memref<8xi1>
      memref.store %inside, %out[%i3] : memref<8xi1>
      memref.store %never, %out[%i4] : memref<8xi1>
      memref.store %wider, %out[%i5] : memref<8xi1>
      memref.store %maybe, %out[%i6] : memref<8xi1>
      memref.store %swapped, %out[%i7] : memref<8xi1>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @convert
    // CHECK-SAME: (%[[X:.*]]: i32, %[[OUT:.*]]: memref<3xf32>)
    // CHECK: %[[ZEXT:.*]] = arith.extui %[[X]] : i32 to i64
    // CHECK: %[[S:.*]] = arith.sitofp %[[X]] : i32 to f32
    // CHECK: %[[Z:.*]] = arith.sitofp %[[ZEXT]] : i64 to f32
    // CHECK: %[[S64:.*]] = arith.sitofp %[[X]] : i32 to f64
    gpu.func @convert(%x: i32, %out: memref<3xf32>) kernel {
      %wide = arith.extsi %x : i32 to i64
      %zext = arith.extui %x : i32 to i64
      %s = arith.sitofp %wide : i64 to f32
      %z = arith.sitofp %zext : i64 to f32
      %s64 = arith.sitofp %wide : i64 to f64
      %d = arith.truncf %s64 : f64 to f32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      memref.store %s, %out[%i0] : memref<3xf32>
      memref.store %z, %out[%i1] : memref<3xf32>
      memref.store %d, %out[%i2] : memref<3xf32>
      gpu.return
    }
  }
}
