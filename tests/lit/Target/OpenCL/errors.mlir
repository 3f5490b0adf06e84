// Ops and types outside the kernel IR are errors at the op.
// RUN: not tile-translate --kernel-ir-to-opencl --split-input-file %s 2>&1 | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xf32>
      %s = gpu.subgroup_size : index
      gpu.return
    }
  }
}
// CHECK: :9:12: error: 'gpu.subgroup_size' is not part of the kernel IR; the OpenCL printer cannot translate it

// -----

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf16>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xf16>
      %y = arith.addf %x, %x : f16
      memref.store %y, %a[%i] : memref<4xf16>
      gpu.return
    }
  }
}
// CHECK: error: 'arith.addf' on f16 or bf16 is not part of the kernel IR (arithmetic runs in f32)

// -----

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<2x2xf32>) kernel {
      gpu.return
    }
  }
}
// CHECK: error: argument #0 of type 'memref<2x2xf32>' is not a flat global buffer (a static 1-D memref)

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
  }
}
// CHECK: error: expected the enclosing module to have 'tile.index_bits' = 32 or 64

// -----

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xi32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xi32>
      %v = arith.extsi %x : i32 to i128
      gpu.return
    }
  }
}
// CHECK: error: type 'i128' is not part of the kernel IR; the OpenCL printer cannot translate it

// -----

// Vectors: 2 or 4 elements of f16, f32, f64 or i8 to i64 (the widths SPIR-V for
// Vulkan has too); no arithmetic, constant positions only, no buffers of
// vectors.
module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<12xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = vector.load %a[%c0] : memref<12xf32>, vector<3xf32>
      gpu.return
    }
  }
}
// CHECK: error: type 'vector<3xf32>' is not part of the kernel IR (vectors have 2 or 4 elements of f16, f32, f64 or i8 to i64)

// -----

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = vector.load %a[%c0] : memref<16xf32>, vector<8xf32>
      gpu.return
    }
  }
}
// CHECK: error: type 'vector<8xf32>' is not part of the kernel IR

// -----

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8xbf16>) kernel {
      %c0 = arith.constant 0 : index
      %v = vector.load %a[%c0] : memref<8xbf16>, vector<4xbf16>
      gpu.return
    }
  }
}
// CHECK: error: type 'vector<4xbf16>' is not part of the kernel IR

// -----

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = vector.load %a[%c0] : memref<8xf32>, vector<4xf32>
      %s = arith.addf %v, %v : vector<4xf32>
      gpu.return
    }
  }
}
// CHECK: error: 'arith.addf' on vectors is not part of the kernel IR; the OpenCL printer cannot translate it

// -----

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %i = gpu.thread_id x
      %v = vector.load %a[%c0] : memref<8xf32>, vector<4xf32>
      %x = vector.extract %v[%i] : f32 from vector<4xf32>
      gpu.return
    }
  }
}
// CHECK: error: 'vector.extract' is part of the kernel IR with one constant position only

// -----

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = vector.load %a[%c0] : memref<8xf32>, vector<2x4xf32>
      gpu.return
    }
  }
}
// CHECK: error: a vector access of 'vector<2x4xf32>' is not part of the kernel IR (1-D only)

// -----

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8xvector<4xf32>>) kernel {
      gpu.return
    }
  }
}
// CHECK: error: a buffer of 'vector<4xf32>' is not part of the kernel IR (buffers hold scalars; vector ops access them)

// -----

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8xf32>) kernel {
      %c = arith.constant dense<1.0> : vector<4xf32>
      gpu.return
    }
  }
}
// CHECK: error: constant dense<1.000000e+00> : vector<4xf32> is not a scalar of the kernel IR
