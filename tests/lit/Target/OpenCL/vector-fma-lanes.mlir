// The tiled product's register tile in the kernel IR: a vector of columns
// that a loop carries and a vector fma updates. The printer gives each lane
// a scalar of its own (NVIDIA's OpenCL compiler ran float4 accumulators
// slower): one scalar fma a lane, a float a lane carried by the loop, the
// broadcast row element used as it is, the lanes of the vector read from
// local memory taken out once, after its load.
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @rank1(%a: memref<64xf32>, %b: memref<64xf32>, %c: memref<64xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16]>} {
      %tile = memref.alloc() : memref<64xf32, 3>
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %i = arith.muli %t, %c4 overflow<nsw> : index
      %zero = arith.constant 0.0 : f32
      %zeros = vector.broadcast %zero : f32 to vector<4xf32>
      %sums:2 = scf.for %k = %c0 to %c8 step %c1 iter_args(%row0 = %zeros, %row1 = %zeros) -> (vector<4xf32>, vector<4xf32>) {
        %x = vector.load %tile[%i] : memref<64xf32, 3>, vector<4xf32>
        %a0 = memref.load %a[%k] : memref<64xf32>
        %a1 = memref.load %a[%i] : memref<64xf32>
        %s0 = vector.broadcast %a0 : f32 to vector<4xf32>
        %next0 = math.fma %s0, %x, %row0 : vector<4xf32>
        %s1 = vector.broadcast %a1 : f32 to vector<4xf32>
        %next1 = math.fma %s1, %x, %row1 : vector<4xf32>
        scf.yield %next0, %next1 : vector<4xf32>, vector<4xf32>
      } {tile.unroll}
      %out0 = vector.extract %sums#0[0] : f32 from vector<4xf32>
      %out1 = vector.extract %sums#1[3] : f32 from vector<4xf32>
      memref.store %out0, %c[%t] : memref<64xf32>
      memref.store %out1, %c[%i] : memref<64xf32>
      gpu.return
    }
  }
}

// CHECK-LABEL: void rank1(
// CHECK-NOT: float4
// CHECK-COUNT-8: float [[R:r[0-9]+]] = 0.0f;
// CHECK-NOT: float4
// CHECK: for (int [[K:i[0-9]+]] = 0; [[K]] < 8; [[K]] += 1) {
// CHECK-NEXT: float4 [[X:v[0-9]+]] = *(__local const float4 *)(local0 + {{v[0-9]+}});
// CHECK-NEXT: float [[X0:v[0-9]+]] = [[X]].s0;
// CHECK-NEXT: float [[X1:v[0-9]+]] = [[X]].s1;
// CHECK-NEXT: float [[X2:v[0-9]+]] = [[X]].s2;
// CHECK-NEXT: float [[X3:v[0-9]+]] = [[X]].s3;
// CHECK-NEXT: float [[A0:v[0-9]+]] = arg0[[[K]]];
// CHECK-NEXT: float [[A1:v[0-9]+]] = arg0[{{v[0-9]+}}];
// CHECK-NEXT: float {{v[0-9]+}} = fma([[A0]], [[X0]], {{r[0-9]+}});
// CHECK-NEXT: float {{v[0-9]+}} = fma([[A0]], [[X1]], {{r[0-9]+}});
// CHECK-NEXT: float {{v[0-9]+}} = fma([[A0]], [[X2]], {{r[0-9]+}});
// CHECK-NEXT: float {{v[0-9]+}} = fma([[A0]], [[X3]], {{r[0-9]+}});
// CHECK-NEXT: float {{v[0-9]+}} = fma([[A1]], [[X0]], {{r[0-9]+}});
// CHECK-COUNT-3: = fma([[A1]],
// CHECK-NOT: float4
// CHECK: }
// CHECK-NOT: float4
// CHECK: arg2[{{v[0-9]+}}] = {{r[0-9]+}};
// CHECK: arg2[{{v[0-9]+}}] = {{r[0-9]+}};
// CHECK-NEXT: }
