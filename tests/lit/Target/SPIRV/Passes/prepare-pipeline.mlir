// The pipeline tilec-spirv-prepare runs every step in translateToSPIRV's
// order: here a bf16 exp (through f32, whose exp stays GLSL's) of a vector
// load ends as i16 storage, scalar accesses and bound arguments.
// RUN: tile-opt --tilec-spirv-prepare %s | FileCheck %s

module {
  gpu.module @kernels {
    gpu.func @exp(%in: memref<64xbf16>, %out: memref<64xbf16>) kernel {
      %i = gpu.thread_id x
      %v = vector.load %in[%i] : memref<64xbf16>, vector<2xbf16>
      %w = arith.extf %v : vector<2xbf16> to vector<2xf32>
      %e = math.exp %w : vector<2xf32>
      %b = arith.truncf %e : vector<2xf32> to vector<2xbf16>
      vector.store %b, %out[%i] : memref<64xbf16>, vector<2xbf16>
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @exp(
// CHECK-SAME: %arg0: memref<64xi16> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}
// CHECK-SAME: %arg1: memref<64xi16> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}
// CHECK: memref.load %arg0[%{{.*}}] : memref<64xi16>
// CHECK: memref.load %arg0[%{{.*}}] : memref<64xi16>
// CHECK: arith.shli
// CHECK: math.exp %{{.*}} : vector<2xf32>
// CHECK: arith.trunci %{{.*}} : vector<2xi32> to vector<2xi16>
// CHECK: memref.store %{{.*}}, %arg1[%{{.*}}] : memref<64xi16>
// CHECK: memref.store %{{.*}}, %arg1[%{{.*}}] : memref<64xi16>
// CHECK-NOT: bf16
// CHECK-NOT: vector.load
// CHECK-NOT: vector.store
