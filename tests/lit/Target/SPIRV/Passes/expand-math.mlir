// tilec-spirv-expand-math alone: pow, atan2 and the f32 inverse
// trigonometric builtins, and the f64 transcendentals, are built from
// arithmetic, and an integer abs from a select (abs(MIN) = MIN, which
// GLSL's SAbs leaves undefined); an f16 atan (GLSL's is precise enough) and
// an f32 exp (GLSL's Exp is defined for 32 bits) are left to the conversion.
// RUN: tile-opt --tilec-spirv-expand-math %s | FileCheck %s

module {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @expanded
    // f32 pow: GLSL's Pow of |x|, with C's cases selected around it.
    // CHECK: %[[MAGNITUDE:.*]] = math.absf %{{.*}} : f32
    // CHECK: math.powf %[[MAGNITUDE]], %{{.*}} : f32
    // CHECK: math.floor
    // atan2 and asin from arithmetic: no math op of their own is left.
    // CHECK-NOT: math.atan2
    // CHECK-NOT: math.asin
    // CHECK-NOT: math.exp
    // CHECK-NOT: math.sin
    // CHECK: memref.store
    // CHECK-NOT: math.atan2
    // CHECK-NOT: math.asin
    // CHECK-NOT: math.exp
    // CHECK-NOT: math.sin
    // CHECK: gpu.return
    gpu.func @expanded(%x: f32, %y: f32, %d: f64, %out: memref<8xf32>, %outd: memref<8xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %pow = math.powf %x, %y : f32
      %atan2 = math.atan2 %y, %x : f32
      %asin = math.asin %x : f32
      %exp = math.exp %d : f64
      %sin = math.sin %d : f64
      memref.store %pow, %out[%c0] : memref<8xf32>
      memref.store %atan2, %out[%c1] : memref<8xf32>
      memref.store %asin, %out[%c2] : memref<8xf32>
      memref.store %exp, %outd[%c0] : memref<8xf64>
      memref.store %sin, %outd[%c1] : memref<8xf64>
      gpu.return
    }
    // The builtins whose GLSL.std.450 instruction is right stay.
    // CHECK-LABEL: gpu.func @kept
    // CHECK: math.atan %{{.*}} : f16
    // CHECK: math.exp %{{.*}} : f32
    // CHECK: gpu.return
    gpu.func @kept(%h: f16, %x: f32, %out: memref<2xf16>, %outf: memref<2xf32>) kernel {
      %c0 = arith.constant 0 : index
      %atan = math.atan %h : f16
      %exp = math.exp %x : f32
      memref.store %atan, %out[%c0] : memref<2xf16>
      memref.store %exp, %outf[%c0] : memref<2xf32>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @integer_abs
    // CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
    // CHECK: %[[NEGATIVE:.*]] = arith.cmpi slt, %[[N:.*]], %[[ZERO]] : i32
    // CHECK: %[[NEGATED:.*]] = arith.subi %[[ZERO]], %[[N]] : i32
    // CHECK: %[[ABS:.*]] = arith.select %[[NEGATIVE]], %[[NEGATED]], %[[N]] : i32
    // CHECK: memref.store %[[ABS]]
    // CHECK-NOT: math.absi
    gpu.func @integer_abs(%n: i32, %out: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %a = math.absi %n : i32
      memref.store %a, %out[%c0] : memref<1xi32>
      gpu.return
    }

    // f32 sinh and cosh: GLSL's Sinh cancels near 0, so below |x| = 2^-5
    // the Taylor polynomial x (1 + x^2/6 + x^4/120) is selected; GLSL's
    // e^|x| overflows before sinh and cosh do, so above |x| = 64 the
    // magnitude is (e^(|x|/2) / 2) e^(|x|/2), with sinh's sign; erf passes a
    // zero through, keeping its sign.
    // CHECK-LABEL: gpu.func @hyperbolic_and_erf
    // CHECK: %[[SINH:.*]] = math.sinh %[[X:[^ ]*]] : f32
    // CHECK: %[[MAGNITUDE:.*]] = math.absf %[[X]] : f32
    // CHECK: %[[HALF:.*]] = arith.mulf %[[MAGNITUDE]], %{{.*}} : f32
    // CHECK: %[[ROOT:.*]] = math.exp %[[HALF]] : f32
    // CHECK: %[[HALVED:.*]] = arith.mulf %[[ROOT]], %{{.*}} : f32
    // CHECK: %[[LARGE:.*]] = arith.mulf %[[HALVED]], %[[ROOT]] : f32
    // CHECK: %[[SIGNED:.*]] = math.copysign %[[LARGE]], %[[X]] : f32
    // CHECK: %[[BIG:.*]] = arith.cmpf ogt, %[[MAGNITUDE]], %{{.*}} : f32
    // CHECK: %[[ABOVE:.*]] = arith.select %[[BIG]], %[[SIGNED]], %[[SINH]] : f32
    // CHECK: %[[SQUARE:.*]] = arith.mulf %[[X]], %[[X]] : f32
    // CHECK: %[[SERIES:.*]] = arith.mulf %[[X]], %{{.*}} : f32
    // CHECK: %[[SMALL:.*]] = arith.cmpf olt, %[[MAGNITUDE]], %{{.*}} : f32
    // CHECK: %[[RESULT:.*]] = arith.select %[[SMALL]], %[[SERIES]], %[[ABOVE]] : f32
    // CHECK: %[[ERF:.*]] = math.erf %[[X]] : f32
    // CHECK: %[[ZERO:.*]] = arith.cmpf oeq, %[[X]], %{{.*}} : f32
    // CHECK: %[[KEPT:.*]] = arith.select %[[ZERO]], %[[X]], %[[ERF]] : f32
    // CHECK: %[[COSH:.*]] = math.cosh %[[X]] : f32
    // CHECK: %[[CMAGNITUDE:.*]] = math.absf %[[X]] : f32
    // CHECK: %[[CHALF:.*]] = arith.mulf %[[CMAGNITUDE]], %{{.*}} : f32
    // CHECK: %[[CROOT:.*]] = math.exp %[[CHALF]] : f32
    // CHECK: %[[CHALVED:.*]] = arith.mulf %[[CROOT]], %{{.*}} : f32
    // CHECK: %[[CLARGE:.*]] = arith.mulf %[[CHALVED]], %[[CROOT]] : f32
    // CHECK-NOT: math.copysign
    // CHECK: %[[CBIG:.*]] = arith.cmpf ogt, %[[CMAGNITUDE]], %{{.*}} : f32
    // CHECK: %[[CRESULT:.*]] = arith.select %[[CBIG]], %[[CLARGE]], %[[COSH]] : f32
    // CHECK: memref.store %[[RESULT]]
    // CHECK: memref.store %[[KEPT]]
    // CHECK: memref.store %[[CRESULT]]
    gpu.func @hyperbolic_and_erf(%x: f32, %out: memref<3xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %s = math.sinh %x : f32
      %e = math.erf %x : f32
      %c = math.cosh %x : f32
      memref.store %s, %out[%c0] : memref<3xf32>
      memref.store %e, %out[%c1] : memref<3xf32>
      memref.store %c, %out[%c2] : memref<3xf32>
      gpu.return
    }

    // f32 log: lavapipe's GLSL Log of a subnormal was log(2^-127), so a
    // positive subnormal is scaled by 2^24 and 24 ln 2 subtracted.
    // CHECK-LABEL: gpu.func @log_of_subnormals
    // CHECK: %[[LOG:.*]] = math.log %[[LX:[^ ]*]] : f32
    // CHECK: %[[SCALED:.*]] = arith.mulf %[[LX]], %{{.*}} : f32
    // CHECK: %[[SCALEDLOG:.*]] = math.log %[[SCALED]] : f32
    // CHECK: %[[SHIFTED:.*]] = arith.subf %[[SCALEDLOG]], %{{.*}} : f32
    // CHECK: %[[POSITIVE:.*]] = arith.cmpf ogt, %[[LX]], %{{.*}} : f32
    // CHECK: %[[BELOW:.*]] = arith.cmpf olt, %[[LX]], %{{.*}} : f32
    // CHECK: %[[SUBNORMAL:.*]] = arith.andi %[[POSITIVE]], %[[BELOW]] : i1
    // CHECK: %[[LRESULT:.*]] = arith.select %[[SUBNORMAL]], %[[SHIFTED]], %[[LOG]] : f32
    // CHECK: memref.store %[[LRESULT]]
    gpu.func @log_of_subnormals(%x: f32, %out: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %l = math.log %x : f32
      memref.store %l, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}
