// tilec-spirv-retype-for-storage alone: bf16 values, arguments and
// constants become i16 (the bitcasts between them vanish), and an empty
// buffer gets one element.
// RUN: tile-opt --tilec-spirv-retype-for-storage %s | FileCheck %s

module {
  gpu.module @kernels {
    gpu.func @storage(%in: memref<8xbf16>, %out: memref<8xbf16>, %empty: memref<0xf32>, %bits: memref<8xi16>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : bf16
      %x = memref.load %in[%c0] : memref<8xbf16>
      %b = arith.bitcast %x : bf16 to i16
      memref.store %b, %bits[%c0] : memref<8xi16>
      memref.store %one, %out[%c0] : memref<8xbf16>
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @storage(%arg0: memref<8xi16>, %arg1: memref<8xi16>, %arg2: memref<1xf32>, %arg3: memref<8xi16>)
// CHECK: %[[ONE:.*]] = arith.constant 16256 : i16
// CHECK: %[[X:.*]] = memref.load %arg0[%c0] : memref<8xi16>
// CHECK-NOT: arith.bitcast
// CHECK: memref.store %[[X]], %arg3[%c0] : memref<8xi16>
// CHECK: memref.store %[[ONE]], %arg1[%c0] : memref<8xi16>
// CHECK-NOT: bf16
