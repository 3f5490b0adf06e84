// A one-dimensional kernel: the signature, work-item ids, bounds check and
// the preamble of a program without f64 or helpers.
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

// CHECK-NOT: cl_khr_fp64
// CHECK: #pragma OPENCL FP_CONTRACT OFF
// CHECK-NOT: tilec_
// CHECK-LABEL: // Kernel vadd: computes the statement at add.tile:3:3.
// CHECK-NEXT: __kernel __attribute__((reqd_work_group_size(64, 1, 1)))
// CHECK-NEXT: void vadd(__global const float *restrict arg0,
// CHECK-NEXT:           __global const float *restrict arg1,
// CHECK-NEXT:           __global float *restrict arg2) {
// CHECK-NEXT:   int v0 = (int)get_local_id(0);
// CHECK-NEXT:   int v1 = (int)get_group_id(0);
// CHECK-NEXT:   int v2 = (int)get_local_size(0);
// nsw arithmetic is C's; without it, it wraps through uint.
// CHECK-NEXT:   int v3 = v1 * v2;
// CHECK-NEXT:   int v4 = (int)((uint)v3 + (uint)v0);
// CHECK-NEXT:   bool v5 = v4 < 100;
// CHECK-NEXT:   if (v5) {
// CHECK-NEXT:     float v6 = arg0[v4];
// CHECK-NEXT:     float v7 = arg1[v4];
// CHECK-NEXT:     float v8 = v6 + v7;
// CHECK-NEXT:     float v9 = v8 * 0.1f;
// CHECK-NEXT:     arg2[v4] = v9;
// CHECK-NEXT:   }
// CHECK-NEXT: }

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @vadd(%a: memref<100xf32>, %b: memref<100xf32>, %c: memref<100xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>,
                    tile.source = "add.tile:3:3", tile.flops = 100.0 : f64, tile.bytes = 1200.0 : f64} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim overflow<nsw> : index
      %i = arith.addi %base, %tid : index
      %n = arith.constant 100 : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        %x = memref.load %a[%i] : memref<100xf32>
        %y = memref.load %b[%i] : memref<100xf32>
        %s = arith.addf %x, %y : f32
        %k = arith.constant 0.1 : f32
        %t = arith.mulf %s, %k : f32
        memref.store %t, %c[%i] : memref<100xf32>
      }
      gpu.return
    }
    // 64-bit index arithmetic and the grid ids.
    gpu.func @ids(%out: memref<8xi64>) kernel {
      %y = gpu.thread_id y
      %z = gpu.block_id z
      %g = gpu.grid_dim y
      %s = arith.addi %y, %z overflow<nsw> : index
      %t = arith.addi %s, %g overflow<nsw> : index
      %v = arith.index_cast %t : index to i64
      memref.store %v, %out[%y] : memref<8xi64>
      gpu.return
    }
  }
  func.func @add(%A: memref<100xf32> {tile.name = "A", tile.dtype = "f32", tile.shape = [100], tile.kind = "input"},
                 %B: memref<100xf32> {tile.name = "B", tile.dtype = "f32", tile.shape = [100], tile.kind = "input"},
                 %C: memref<100xf32> {tile.name = "C", tile.dtype = "f32", tile.shape = [100], tile.kind = "output"}) {
    %one = arith.constant 1 : index
    %g = arith.constant 2 : index
    %l = arith.constant 64 : index
    gpu.launch_func @kernels::@vadd blocks in (%g, %one, %one) threads in (%l, %one, %one) args(%A : memref<100xf32>, %B : memref<100xf32>, %C : memref<100xf32>)
    return
  }
}

// CHECK-LABEL: // Kernel ids.
// CHECK-NEXT: __kernel void ids(__global long *restrict arg0) {
// CHECK-NEXT:   int v0 = (int)get_local_id(1);
// CHECK-NEXT:   int v1 = (int)get_group_id(2);
// CHECK-NEXT:   int v2 = (int)get_num_groups(1);
// CHECK:        long v5 = (long)v4;
// CHECK-NEXT:   arg0[v0] = v5;
