// Kernel IR whose arguments' tile.name attributes need the naming rule of
// docs/codegen.md ("Parameter names"): a prime, a name that the prime's
// spelling collides with, a macro of the OpenCL C and MSL headers, a
// printer's local, a temporary's leading underscore, a double underscore,
// the kernel's own name, and an argument without a name.
module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @k0_B(%a: memref<4xf32> {tile.name = "A'"},
                   %b: memref<4xf32> {tile.name = "A_prime"},
                   %c: memref<4xf32> {tile.name = "NAN"},
                   %d: memref<4xf32> {tile.name = "v0"},
                   %e: memref<4xf32> {tile.name = "_t0"},
                   %f: memref<4xf32> {tile.name = "X__Y"},
                   %g: memref<4xf32> {tile.name = "k0_B"},
                   %h: memref<4xf32>,
                   %out: memref<4xf32> {tile.name = "B"}) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %t = gpu.thread_id x
      %x0 = memref.load %a[%t] : memref<4xf32>
      %x1 = memref.load %b[%t] : memref<4xf32>
      %x2 = memref.load %c[%t] : memref<4xf32>
      %x3 = memref.load %d[%t] : memref<4xf32>
      %x4 = memref.load %e[%t] : memref<4xf32>
      %x5 = memref.load %f[%t] : memref<4xf32>
      %x6 = memref.load %g[%t] : memref<4xf32>
      %x7 = memref.load %h[%t] : memref<4xf32>
      %s0 = arith.addf %x0, %x1 : f32
      %s1 = arith.addf %s0, %x2 : f32
      %s2 = arith.addf %s1, %x3 : f32
      %s3 = arith.addf %s2, %x4 : f32
      %s4 = arith.addf %s3, %x5 : f32
      %s5 = arith.addf %s4, %x6 : f32
      %s6 = arith.addf %s5, %x7 : f32
      memref.store %s6, %out[%t] : memref<4xf32>
      gpu.return
    }
  }
}
