// tilec-spirv-unsigned-divisions alone: a signed division or remainder whose
// operands the integer range analysis proves non-negative (group and
// work-item ids, a loop counter from them, the coordinates of an index
// space) becomes the unsigned one; one whose dividend may be negative (a
// padded coordinate, a loaded value) stays signed. The ranges are asked for
// on demand: an `scf.if` of two non-negative values is non-negative, and a
// value carried by a loop gets the range of its type, so its quotient stays
// signed.
// RUN: tile-opt --tilec-spirv-unsigned-divisions %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @coordinates(%in: memref<401408xf32>, %out: memref<256xf32>, %d: memref<1xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [256, 1, 1]>} {
      %g = gpu.block_id x
      %t = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c6 = arith.constant 6 : index
      %c56 = arith.constant 56 : index
      %c256 = arith.constant 256 : index
      %n = arith.constant 401408 : index
      %step = arith.constant 1536 : index
      %group = arith.remsi %g, %c6 : index
      %first = arith.muli %group, %c256 : index
      %lb = arith.addi %first, %t : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %i = %lb to %n step %step iter_args(%acc = %zero) -> f32 {
        %x = arith.remsi %i, %c56 : index
        %xy = arith.divsi %i, %c56 : index
        %k = arith.addi %x, %xy : index
        %v = memref.load %in[%k] : memref<401408xf32>
        %a = arith.addf %acc, %v : f32
        scf.yield %a : f32
      }
      %padded = arith.subi %t, %c1 : index
      %p = arith.divsi %padded, %c56 : index
      %c0 = arith.constant 0 : index
      %loaded = memref.load %d[%c0] : memref<1xi32>
      %c3 = arith.constant 3 : i32
      %q = arith.remsi %loaded, %c3 : i32
      memref.store %q, %d[%c0] : memref<1xi32>
      memref.store %sum, %out[%p] : memref<256xf32>
      %low = arith.cmpi ult, %t, %c56 : index
      %either = scf.if %low -> index {
        scf.yield %t : index
      } else {
        scf.yield %g : index
      }
      %e = arith.divsi %either, %c6 : index
      %carried = scf.for %j = %c0 to %c56 step %c1 iter_args(%count = %t) -> index {
        %next = arith.addi %count, %c1 : index
        scf.yield %next : index
      }
      %f = arith.divsi %carried, %c6 : index
      %sum2 = arith.addi %e, %f : index
      memref.store %sum, %out[%sum2] : memref<256xf32>
      gpu.return
    }
  }
}

// CHECK-LABEL: gpu.func @coordinates(
// CHECK: arith.remui %{{.*}}, %{{.*}} : index
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK: arith.remui %[[I]], %{{.*}} : index
// CHECK: arith.divui %[[I]], %{{.*}} : index
// CHECK: arith.divsi %{{.*}}, %{{.*}} : index
// CHECK: arith.remsi %{{.*}}, %{{.*}} : i32
// CHECK: scf.if
// CHECK: arith.divui %{{.*}}, %{{.*}} : index
// CHECK: scf.for
// CHECK: arith.divsi %{{.*}}, %{{.*}} : index
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
