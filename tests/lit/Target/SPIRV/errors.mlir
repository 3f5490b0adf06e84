// What the SPIR-V target refuses: a module without its index width.
// RUN: not tile-translate --kernel-ir-to-spirv %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @nothing() kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      gpu.return
    }
  }
}
// CHECK: :5:3: error: the kernel IR's module needs tile.index_bits, 32 or 64
