// What the SPIR-V target refuses, reported at the op: a 64-bit
// transcendental that GLSL.std.450 lacks and tilec does not expand (sin) and
// a module without its index width.
// RUN: not tile-translate --kernel-ir-to-spirv -split-input-file %s 2>&1 | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @sin64(%x: memref<4xf64>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %t = gpu.thread_id x
      %a = memref.load %x[%t] : memref<4xf64>
      %e = math.sin %a : f64
      memref.store %e, %x[%t] : memref<4xf64>
      gpu.return
    }
  }
}
// CHECK: :12:12: error: the SPIR-V target cannot compute 'math.sin' on f64 yet: GLSL.std.450 defines it for 16- and 32-bit floats only, and tilec has no f64 expansion of it

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @nothing() kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      gpu.return
    }
  }
}
// CHECK: :4:3: error: the kernel IR's module needs tile.index_bits, 32 or 64
