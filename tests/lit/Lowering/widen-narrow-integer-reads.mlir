// RUN: tile-opt %s --tile-widen-narrow-integer-reads | FileCheck %s

// The value-dependent reads of i8 and i16 integers take them widened to 32
// bits, the sign extension written as (zext(x) ^ 2^(n-1)) - 2^(n-1): NVIDIA's
// compilers gave +32768 for the negation of -32768 as i16, widened. The
// operations that read only the low bits (the negation itself, addition,
// the bitwise ones, a truncation) stay as they are, and so do wide integers.

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @negation_widened
  gpu.func @negation_widened(%a: memref<4xi16>, %b: memref<4xi64>) kernel {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0 : i16
    %x = memref.load %a[%c0] : memref<4xi16>
    // CHECK: %[[N:.*]] = arith.subi %{{.*}}, %{{.*}} : i16
    %n = arith.subi %zero, %x : i16
    // CHECK: %[[Z:.*]] = arith.extui %[[N]] : i16 to i64
    // CHECK: %[[S:.*]] = arith.constant 32768 : i64
    // CHECK: %[[F:.*]] = arith.xori %[[Z]], %[[S]] : i64
    // CHECK: %[[W:.*]] = arith.subi %[[F]], %[[S]] : i64
    // CHECK-NOT: arith.extsi
    // CHECK: memref.store %[[W]]
    %w = arith.extsi %n : i16 to i64
    memref.store %w, %b[%c0] : memref<4xi64>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @reads
  gpu.func @reads(%a: memref<4xi8>, %b: memref<4xi8>, %f: memref<4xf32>,
                  %p: memref<4xi1>) kernel {
    %c0 = arith.constant 0 : index
    %x = memref.load %a[%c0] : memref<4xi8>
    %y = memref.load %b[%c0] : memref<4xi8>
    // Each narrow value is extended once, right after its definition: with
    // zeros, and from that as a signed value.
    // CHECK: %[[X:.*]] = memref.load %arg0
    // CHECK-NEXT: %[[XZ:.*]] = arith.extui %[[X]] : i8 to i32
    // CHECK-NEXT: %[[XB:.*]] = arith.constant 128 : i32
    // CHECK-NEXT: %[[XF:.*]] = arith.xori %[[XZ]], %[[XB]] : i32
    // CHECK-NEXT: %[[XS:.*]] = arith.subi %[[XF]], %[[XB]] : i32
    // CHECK: %[[Y:.*]] = memref.load %arg1
    // CHECK-NEXT: %[[YZ:.*]] = arith.extui %[[Y]] : i8 to i32
    // CHECK: %[[YS:.*]] = arith.subi
    // A signed comparison compares the sign extensions, an equality one the
    // zero extensions.
    // CHECK: arith.cmpi slt, %[[XS]], %[[YS]] : i32
    %lt = arith.cmpi slt, %x, %y : i8
    memref.store %lt, %p[%c0] : memref<4xi1>
    // CHECK: arith.cmpi eq, %[[XZ]], %[[YZ]] : i32
    %eq = arith.cmpi eq, %x, %y : i8
    memref.store %eq, %p[%c0] : memref<4xi1>
    // A division runs on i32 and is truncated back.
    // CHECK: %[[Q:.*]] = arith.divsi %[[XS]], %[[YS]] : i32
    // CHECK-NEXT: %[[QT:.*]] = arith.trunci %[[Q]] : i32 to i8
    // CHECK-NEXT: memref.store %[[QT]], %arg1
    %q = arith.divsi %x, %y : i8
    memref.store %q, %b[%c0] : memref<4xi8>
    // CHECK: %[[U:.*]] = arith.maxui %[[XZ]], %[[YZ]] : i32
    // CHECK-NEXT: %[[UT:.*]] = arith.trunci %[[U]] : i32 to i8
    // CHECK-NEXT: memref.store %[[UT]], %arg1
    %u = arith.maxui %x, %y : i8
    memref.store %u, %b[%c0] : memref<4xi8>
    // A conversion to float converts the 32-bit sign extension.
    // CHECK: arith.sitofp %[[XS]] : i32 to f32
    %v = arith.sitofp %x : i8 to f32
    memref.store %v, %f[%c0] : memref<4xf32>
    // CHECK: %[[ADD:.*]] = arith.addi %{{.*}}, %{{.*}} : i8
    // CHECK-NEXT: memref.store %[[ADD]]
    %add = arith.addi %x, %y : i8
    memref.store %add, %b[%c0] : memref<4xi8>
    gpu.return
  }

  // An unsigned conversion of a sign extension to float adds 2^w to the
  // conversion of a negative value (f16: in f32, rounded once): NVIDIA's
  // Vulkan compiler converted it as signed.
  // CHECK-LABEL: gpu.func @unsigned_conversion_of_extension
  gpu.func @unsigned_conversion_of_extension(%a: memref<4xi8>,
                                             %f: memref<4xf32>,
                                             %h: memref<4xf16>) kernel {
    %c0 = arith.constant 0 : index
    // CHECK: %[[X:.*]] = memref.load
    // CHECK: %[[S:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
    %x = memref.load %a[%c0] : memref<4xi8>
    %w = arith.extsi %x : i8 to i32
    // CHECK: %[[V:.*]] = arith.sitofp %[[S]] : i32 to f32
    // CHECK: %[[P:.*]] = arith.constant 4.2949673E+9 : f32
    // CHECK: %[[W:.*]] = arith.addf %[[V]], %[[P]] : f32
    // CHECK: %[[Z:.*]] = arith.constant 0 : i32
    // CHECK: %[[N:.*]] = arith.cmpi slt, %[[S]], %[[Z]] : i32
    // CHECK: %[[R:.*]] = arith.select %[[N]], %[[W]], %[[V]] : f32
    // CHECK: memref.store %[[R]], %arg1
    %u = arith.uitofp %w : i32 to f32
    memref.store %u, %f[%c0] : memref<4xf32>
    // CHECK: %[[V16:.*]] = arith.sitofp %[[S]] : i32 to f32
    // CHECK: arith.constant 6.553600e+04 : f32
    // CHECK: %[[R16:.*]] = arith.select
    // CHECK: %[[T:.*]] = arith.truncf %[[R16]] : f32 to f16
    // CHECK: memref.store %[[T]], %arg2
    // CHECK-NOT: arith.extsi
    %w16 = arith.extsi %x : i8 to i16
    %u16 = arith.uitofp %w16 : i16 to f16
    memref.store %u16, %h[%c0] : memref<4xf16>
    gpu.return
  }

  // CHECK-LABEL: gpu.func @vectors_and_wide_integers
  gpu.func @vectors_and_wide_integers(%a: memref<8xi16>, %b: memref<8xi32>,
                                      %c: memref<4xi32>) kernel {
    %c0 = arith.constant 0 : index
    // CHECK: %[[Z:.*]] = arith.extui %{{.*}} : vector<4xi16> to vector<4xi32>
    // CHECK: %[[S:.*]] = arith.constant dense<32768> : vector<4xi32>
    // CHECK: %[[F:.*]] = arith.xori %[[Z]], %[[S]] : vector<4xi32>
    // CHECK: arith.subi %[[F]], %[[S]] : vector<4xi32>
    %x = vector.load %a[%c0] : memref<8xi16>, vector<4xi16>
    %w = arith.extsi %x : vector<4xi16> to vector<4xi32>
    vector.store %w, %b[%c0] : memref<8xi32>, vector<4xi32>
    // CHECK: %[[I:.*]] = memref.load %arg2
    // CHECK-NEXT: arith.sitofp %[[I]] : i32 to f32
    %i = memref.load %c[%c0] : memref<4xi32>
    %g = arith.sitofp %i : i32 to f32
    %gi = arith.fptosi %g : f32 to i32
    memref.store %gi, %c[%c0] : memref<4xi32>
    gpu.return
  }
}
