//===- OpenCLBuildTest.cpp - Printed OpenCL C builds and computes right ---===//
//
// Hand-written kernel-IR modules are printed, extracted into bundles and
// run on the default OpenCL device (PoCL's CPU device in CI), with outputs
// poisoned first; the lit tests' modules are built, so every construct the
// printer emits is known to compile.
//
//===----------------------------------------------------------------------===//

#include "tilec/Bundle/BundleExtraction.h"
#include "tilec/Runtime/HostTensor.h"
#include "OpenCL/OpenCL.h"
#include "tilec/Target/OpenCL/OpenCL.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

using namespace tilec;

namespace {

/// The bytes of `values`.
template <class T> std::vector<uint8_t> bytesOf(const std::vector<T> &values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <class T> std::vector<T> valuesOf(const std::vector<uint8_t> &bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

class OpenCLBuildTest : public ::testing::Test {
protected:
  void SetUp() override {
    context
        .loadDialect<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                     mlir::gpu::GPUDialect, mlir::math::MathDialect,
                     mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                     mlir::spirv::SPIRVDialect, mlir::vector::VectorDialect>();
    Expected<std::vector<opencl::DeviceDescriptor>> devices =
        opencl::enumerateDevices();
    ASSERT_TRUE(devices) << devices.error().message();
    Expected<opencl::DeviceDescriptor> chosen =
        opencl::selectDevice(*devices, "");
    ASSERT_TRUE(chosen) << chosen.error().message();
    Expected<std::unique_ptr<opencl::Device>> opened =
        opencl::Device::open(*chosen);
    ASSERT_TRUE(opened) << opened.error().message();
    device = std::move(*opened);
  }

  mlir::OwningOpRef<mlir::ModuleOp> parse(const std::string &text) {
    return mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  }

  /// Prints `module`'s kernels and builds them; returns the source.
  std::string printAndBuild(mlir::ModuleOp module, const std::string &name) {
    auto kernelModules = module.getOps<mlir::gpu::GPUModuleOp>();
    EXPECT_FALSE(kernelModules.empty()) << name;
    if (kernelModules.empty())
      return "";
    std::string source;
    llvm::raw_string_ostream os(source);
    EXPECT_TRUE(mlir::succeeded(tilec::printOpenCL(*kernelModules.begin(), os)))
        << name;
    Expected<std::shared_ptr<const opencl::Program>> program =
        device->buildProgram(source, "", name);
    EXPECT_TRUE(program) << name << ":\n"
                         << source << "\n"
                         << (program ? "" : program.error().message());
    return source;
  }

  /// Runs `bundle` with `inputs` (the bytes of each input in order) and
  /// returns the bytes of every output; outputs and temporaries are
  /// poisoned (all bits set) first.
  std::vector<std::vector<uint8_t>>
  run(const Bundle &bundle, const std::vector<std::vector<uint8_t>> &inputs) {
    std::vector<opencl::Buffer> buffers;
    for (const BundleBuffer &buffer : bundle.buffers) {
      size_t bytes = *numElements(buffer.shape) * dtypeSize(buffer.dtype);
      Expected<opencl::Buffer> allocated = device->allocate(bytes, buffer.name);
      EXPECT_TRUE(allocated) << allocated.error().message();
      if (!allocated)
        return {};
      std::vector<uint8_t> poison(bytes, 0xff);
      EXPECT_TRUE(device->write(*allocated, poison.data(), bytes));
      buffers.push_back(std::move(*allocated));
    }
    EXPECT_EQ(inputs.size(), bundle.inputs.size());
    for (size_t i = 0; i < inputs.size() && i < bundle.inputs.size(); ++i) {
      const opencl::Buffer &buffer = buffers[bundle.inputs[i]];
      EXPECT_EQ(inputs[i].size(), buffer.size());
      EXPECT_TRUE(device->write(buffer, inputs[i].data(), buffer.size()));
    }
    Expected<std::shared_ptr<const opencl::Program>> program =
        device->buildProgram(bundle.openclSource, "", bundle.function);
    EXPECT_TRUE(program) << bundle.openclSource << "\n"
                         << (program ? "" : program.error().message());
    if (!program)
      return {};
    for (const BundleLaunch &launch : bundle.launches) {
      Expected<opencl::Kernel> kernel =
          device->createKernel(*program, bundle.kernels[launch.kernel].name);
      EXPECT_TRUE(kernel) << kernel.error().message();
      if (!kernel)
        return {};
      std::vector<opencl::KernelArg> args;
      for (unsigned buffer : launch.args)
        args.push_back(opencl::KernelArg::buffer(buffers[buffer]));
      auto range = [&](const std::array<uint64_t, 3> &size) {
        return opencl::NDRange(size[0], size[1], size[2]);
      };
      Expected<opencl::Event> event = device->launch(
          *kernel, args, range(launch.globalSize), range(launch.localSize));
      EXPECT_TRUE(event) << event.error().message();
      if (!event)
        return {};
    }
    std::vector<std::vector<uint8_t>> outputs;
    for (unsigned output : bundle.outputs) {
      std::vector<uint8_t> bytes(buffers[output].size());
      EXPECT_TRUE(device->read(buffers[output], bytes.data(), bytes.size()));
      outputs.push_back(std::move(bytes));
    }
    return outputs;
  }

  std::optional<Bundle> extract(const std::string &text,
                                const CompileTargets &targets = {}) {
    mlir::OwningOpRef<mlir::ModuleOp> module = parse(text);
    EXPECT_TRUE(module);
    if (!module)
      return std::nullopt;
    return extractBundle(*module, "tilec test", targets);
  }

  mlir::MLIRContext context;
  std::unique_ptr<opencl::Device> device;
};

const char *const kVectorAdd = R"(
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
  }
  func.func @add(%A: memref<100xf32> {tile.name = "A", tile.dtype = "f32", tile.shape = [10, 10], tile.kind = "input"},
                 %B: memref<100xf32> {tile.name = "B", tile.dtype = "f32", tile.shape = [10, 10], tile.kind = "input"},
                 %C: memref<100xf32> {tile.name = "C", tile.dtype = "f32", tile.shape = [10, 10], tile.kind = "output"}) {
    %one = arith.constant 1 : index
    %g = arith.constant 2 : index
    %l = arith.constant 64 : index
    gpu.launch_func @kernels::@vadd blocks in (%g, %one, %one) threads in (%l, %one, %one)
        args(%A : memref<100xf32>, %B : memref<100xf32>, %C : memref<100xf32>)
    return
  }
}
)";

TEST_F(OpenCLBuildTest, VectorAddBundle) {
  std::optional<Bundle> bundle = extract(kVectorAdd);
  ASSERT_TRUE(bundle);
  EXPECT_EQ(bundle->function, "add");
  EXPECT_EQ(bundle->producer, "tilec test");
  ASSERT_EQ(bundle->kernels.size(), 1u);
  EXPECT_EQ(bundle->kernels[0].name, "vadd");
  EXPECT_EQ(bundle->kernels[0].sourceLocation, "add.tile:3:3");
  EXPECT_EQ(bundle->kernels[0].flops, 100.0);
  EXPECT_EQ(bundle->kernels[0].bytes, 1200.0);
  ASSERT_EQ(bundle->buffers.size(), 3u);
  EXPECT_EQ(bundle->buffers[2].name, "C");
  EXPECT_EQ(bundle->buffers[2].kind, BundleBuffer::Kind::Output);
  EXPECT_EQ(bundle->buffers[2].shape, (Shape{10, 10}));
  EXPECT_EQ(bundle->inputs, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(bundle->outputs, (std::vector<unsigned>{2}));
  ASSERT_EQ(bundle->launches.size(), 1u);
  const BundleLaunch &launch = bundle->launches[0];
  EXPECT_EQ(launch.dims, 1u);
  EXPECT_EQ(launch.globalSize, (std::array<uint64_t, 3>{128, 1, 1}));
  EXPECT_EQ(launch.localSize, (std::array<uint64_t, 3>{64, 1, 1}));
  EXPECT_EQ(launch.args, (std::vector<unsigned>{0, 1, 2}));
  // The kernel's signature: what its code addresses, and its geometry.
  const BundleKernel &kernel = bundle->kernels[0];
  ASSERT_EQ(kernel.params.size(), 3u);
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_EQ(kernel.params[i].dtype, DType::F32) << i;
    EXPECT_EQ(kernel.params[i].elements, 100u) << i;
    EXPECT_EQ(kernel.params[i].written, i == 2) << i;
  }
  EXPECT_EQ(kernel.dims, launch.dims);
  EXPECT_EQ(kernel.globalSize, launch.globalSize);
  EXPECT_EQ(kernel.localSize, launch.localSize);
  EXPECT_TRUE(validateBundle(*bundle));

  std::vector<float> a(100), b(100);
  for (int i = 0; i < 100; ++i) {
    a[i] = 0.37f * i - 11.0f;
    b[i] = 1.0f / (i + 1);
  }
  std::vector<std::vector<uint8_t>> outputs =
      run(*bundle, {bytesOf(a), bytesOf(b)});
  ASSERT_EQ(outputs.size(), 1u);
  std::vector<float> c = valuesOf<float>(outputs[0]);
  for (int i = 0; i < 100; ++i) {
    float sum = a[i] + b[i];
    EXPECT_EQ(c[i], sum * 0.1f) << i;
  }
}

TEST_F(OpenCLBuildTest, OpenCLPrintedOnlyWhenAsked) {
  // A kernel that the OpenCL printer refuses: only a bundle that asks for
  // OpenCL C runs the printer, and fails.
  std::string text = kVectorAdd;
  text.replace(text.find("%n = arith.constant 100 : index"),
               strlen("%n = arith.constant 100 : index"),
               "%n = arith.constant 100 : index\n"
               "      %size = gpu.subgroup_size : index");
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    diagnostics += diag.str() + "\n";
    return mlir::success();
  });
  CompileTargets vulkanOnly{/*openCL=*/false, /*spirv=*/true, /*msl=*/false};
  std::optional<Bundle> withoutOpenCL = extract(text, vulkanOnly);
  ASSERT_TRUE(withoutOpenCL) << diagnostics;
  EXPECT_TRUE(withoutOpenCL->openclSource.empty());
  EXPECT_EQ(withoutOpenCL->kernels.size(), 1u);
  EXPECT_EQ(diagnostics, "");
  EXPECT_FALSE(extract(text));
  EXPECT_NE(
      diagnostics.find("'gpu.subgroup_size' is not part of the kernel IR"),
      std::string::npos)
      << diagnostics;
  // The same module without the refused op carries its OpenCL C.
  std::optional<Bundle> withOpenCL = extract(kVectorAdd);
  ASSERT_TRUE(withOpenCL);
  EXPECT_NE(withOpenCL->openclSource.find("void vadd("), std::string::npos);
}

TEST_F(OpenCLBuildTest, BundleErrors) {
  std::string text = kVectorAdd;
  // A launch whose work-group differs from the kernel's required one.
  std::string wrongGroup = text;
  wrongGroup.replace(wrongGroup.find("%l = arith.constant 64"),
                     strlen("%l = arith.constant 64"),
                     "%l = arith.constant 32");
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    diagnostics += diag.str() + "\n";
    return mlir::success();
  });
  EXPECT_FALSE(extract(wrongGroup));
  EXPECT_NE(diagnostics.find("work-group differs"), std::string::npos)
      << diagnostics;
  // A shape that does not match the buffer.
  std::string wrongShape = text;
  wrongShape.replace(wrongShape.find("[10, 10]"), 8, "[10, 11]");
  diagnostics.clear();
  EXPECT_FALSE(extract(wrongShape));
  EXPECT_NE(diagnostics.find("buffer 'A' has 100 elements"), std::string::npos)
      << diagnostics;
  // An output buffer passed twice to a kernel that writes it.
  std::string aliased = text;
  aliased.replace(aliased.find("%B : memref<100xf32>, %C"),
                  strlen("%B : memref<100xf32>, %C"),
                  "%C : memref<100xf32>, %C");
  diagnostics.clear();
  EXPECT_FALSE(extract(aliased));
  EXPECT_NE(diagnostics.find("written by the kernel and passed to it twice"),
            std::string::npos)
      << diagnostics;
}

// Per work-item: (a, b) <- (b, a + b) i times, then (p, q) swapped i times
// through a second loop; out = p - q.
const char *const kLoops = R"(
module attributes {gpu.container_module, tile.index_bits = 64 : i64} {
  gpu.module @kernels {
    gpu.func @loops(%out: memref<32xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 2]>,
                    tile.flops = 0.0 : f64, tile.bytes = 128.0 : f64} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %gx = arith.muli %bx, %c8 : index
      %x = arith.addi %gx, %tx : index
      %c2 = arith.constant 2 : index
      %gy = arith.muli %by, %c2 : index
      %y = arith.addi %gy, %ty : index
      %row = arith.muli %y, %c8 : index
      %i = arith.addi %row, %x : index
      %r:2 = scf.for %k = %c0 to %i step %c1 iter_args(%a = %zero, %b = %one) -> (f32, f32) {
        %s = arith.addf %a, %b : f32
        scf.yield %b, %s : f32, f32
      }
      %w:2 = scf.for %k = %c0 to %i step %c1 iter_args(%p = %r#0, %q = %r#1) -> (f32, f32) {
        scf.yield %q, %p : f32, f32
      }
      %d = arith.subf %w#0, %w#1 : f32
      memref.store %d, %out[%i] : memref<32xf32>
      gpu.return
    }
  }
  func.func @loops(%O: memref<32xf32> {tile.name = "O", tile.dtype = "f32", tile.shape = [32], tile.kind = "output"}) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@loops blocks in (%c1, %c2, %c1) threads in (%c8, %c2, %c1)
        args(%O : memref<32xf32>)
    return
  }
}
)";

TEST_F(OpenCLBuildTest, LoopsWithCarriedValues) {
  std::optional<Bundle> bundle = extract(kLoops);
  ASSERT_TRUE(bundle);
  ASSERT_EQ(bundle->launches.size(), 1u);
  EXPECT_EQ(bundle->launches[0].dims, 2u);
  EXPECT_EQ(bundle->launches[0].globalSize, (std::array<uint64_t, 3>{8, 4, 1}));
  std::vector<std::vector<uint8_t>> outputs = run(*bundle, {});
  ASSERT_EQ(outputs.size(), 1u);
  std::vector<float> out = valuesOf<float>(outputs[0]);
  for (int i = 0; i < 32; ++i) {
    float a = 0, b = 1;
    for (int k = 0; k < i; ++k) {
      float s = a + b;
      a = b;
      b = s;
    }
    if (i % 2)
      std::swap(a, b);
    EXPECT_EQ(out[i], a - b) << i;
  }
}

// Each work-group reverses its 16 elements through local memory (f32 and
// f16 copies) and adds them.
const char *const kLocalReverse = R"(
module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @reverse(%in: memref<48xf32>, %h: memref<48xf16>, %out: memref<48xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>,
                    tile.flops = 48.0 : f64, tile.bytes = 480.0 : f64} {
      %tile = memref.alloc() : memref<16xf32, 3>
      %halves = memref.alloc() : memref<16xf16, 3>
      %t = gpu.thread_id x
      %g = gpu.block_id x
      %c16 = arith.constant 16 : index
      %c15 = arith.constant 15 : index
      %base = arith.muli %g, %c16 : index
      %i = arith.addi %base, %t : index
      %x = memref.load %in[%i] : memref<48xf32>
      memref.store %x, %tile[%t] : memref<16xf32, 3>
      %hx = memref.load %h[%i] : memref<48xf16>
      memref.store %hx, %halves[%t] : memref<16xf16, 3>
      gpu.barrier
      %r = arith.subi %c15, %t : index
      %y = memref.load %tile[%r] : memref<16xf32, 3>
      %hy = memref.load %halves[%r] : memref<16xf16, 3>
      %e = arith.extf %hy : f16 to f32
      %s = arith.addf %y, %e : f32
      memref.store %s, %out[%i] : memref<48xf32>
      gpu.return
    }
  }
  func.func @reverse(%I: memref<48xf32> {tile.name = "I", tile.dtype = "f32", tile.shape = [3, 16], tile.kind = "input"},
                     %H: memref<48xf16> {tile.name = "H", tile.dtype = "f16", tile.shape = [3, 16], tile.kind = "input"},
                     %O: memref<48xf32> {tile.name = "O", tile.dtype = "f32", tile.shape = [3, 16], tile.kind = "output"}) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@reverse blocks in (%c3, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%I : memref<48xf32>, %H : memref<48xf16>, %O : memref<48xf32>)
    return
  }
}
)";

TEST_F(OpenCLBuildTest, LocalMemoryAndBarrier) {
  std::optional<Bundle> bundle = extract(kLocalReverse);
  ASSERT_TRUE(bundle);
  std::vector<float> in(48);
  std::vector<uint16_t> halves(48);
  for (int i = 0; i < 48; ++i) {
    in[i] = 1000.0f * i;
    halves[i] = doubleToHalf(0.5 * i + 0.25);
  }
  std::vector<std::vector<uint8_t>> outputs =
      run(*bundle, {bytesOf(in), bytesOf(halves)});
  ASSERT_EQ(outputs.size(), 1u);
  std::vector<float> out = valuesOf<float>(outputs[0]);
  for (int i = 0; i < 48; ++i) {
    int mirror = i / 16 * 16 + 15 - i % 16;
    EXPECT_EQ(out[i], in[mirror] + float(halfToDouble(halves[mirror]))) << i;
  }
}

// f32 inputs rounded to f16 and bf16: stored (rounding in the store), and
// round-tripped (rounded, widened, then used) into f32 outputs.
const char *const kRoundTrips = R"(
module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @round_trip(%x: memref<16xf32>, %h: memref<16xf16>, %b: memref<16xbf16>,
                    %rh: memref<16xf32>, %rb: memref<16xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>,
                    tile.flops = 0.0 : f64, tile.bytes = 0.0 : f64} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<16xf32>
      %th = arith.truncf %v : f32 to f16
      memref.store %th, %h[%i] : memref<16xf16>
      %tb = arith.truncf %v : f32 to bf16
      memref.store %tb, %b[%i] : memref<16xbf16>
      %uh = arith.truncf %v : f32 to f16
      %eh = arith.extf %uh : f16 to f32
      %one = arith.constant 1.0 : f32
      %sh = arith.mulf %eh, %one : f32
      memref.store %sh, %rh[%i] : memref<16xf32>
      %ub = arith.truncf %v : f32 to bf16
      %eb = arith.extf %ub : bf16 to f32
      %sb = arith.mulf %eb, %one : f32
      memref.store %sb, %rb[%i] : memref<16xf32>
      gpu.return
    }
  }
  func.func @round(%X: memref<16xf32> {tile.name = "X", tile.dtype = "f32", tile.shape = [16], tile.kind = "input"},
                   %H: memref<16xf16> {tile.name = "H", tile.dtype = "f16", tile.shape = [16], tile.kind = "output"},
                   %B: memref<16xbf16> {tile.name = "B", tile.dtype = "bf16", tile.shape = [16], tile.kind = "output"},
                   %RH: memref<16xf32> {tile.name = "RH", tile.dtype = "f32", tile.shape = [16], tile.kind = "output"},
                   %RB: memref<16xf32> {tile.name = "RB", tile.dtype = "f32", tile.shape = [16], tile.kind = "output"}) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@round_trip blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%X : memref<16xf32>, %H : memref<16xf16>, %B : memref<16xbf16>, %RH : memref<16xf32>, %RB : memref<16xf32>)
    return
  }
}
)";

TEST_F(OpenCLBuildTest, HalfAndBFloat16RoundTrips) {
  std::optional<Bundle> bundle = extract(kRoundTrips);
  ASSERT_TRUE(bundle);
  const float inf = std::numeric_limits<float>::infinity();
  // Ties to even in both formats, overflow, subnormals, signed zero, NaN.
  std::vector<float> x = {1.0f + 1.0f / 2048,
                          1.0f + 3.0f / 2048,
                          1.0f + 1.0f / 256,
                          1.0f + 3.0f / 256,
                          65519.0f,
                          65520.0f,
                          -3.0e38f,
                          3.4028235e38f,
                          5.9604645e-8f,
                          2.9802322e-8f,
                          -0.0f,
                          inf,
                          -inf,
                          std::nanf(""),
                          0.1f,
                          -1234.5678f};
  std::vector<std::vector<uint8_t>> outputs = run(*bundle, {bytesOf(x)});
  ASSERT_EQ(outputs.size(), 4u);
  std::vector<uint16_t> halves = valuesOf<uint16_t>(outputs[0]);
  std::vector<uint16_t> bfloats = valuesOf<uint16_t>(outputs[1]);
  std::vector<float> roundHalf = valuesOf<float>(outputs[2]);
  std::vector<float> roundBFloat = valuesOf<float>(outputs[3]);
  auto sameFloat = [](float a, float b) {
    return (std::isnan(a) && std::isnan(b)) ||
           std::memcmp(&a, &b, sizeof(float)) == 0;
  };
  for (size_t i = 0; i < x.size(); ++i) {
    uint16_t half = doubleToHalf(x[i]);
    uint16_t bfloat = doubleToBFloat16(x[i]);
    // vstore_half leaves a NaN's payload to the device.
    if (std::isnan(x[i]))
      EXPECT_TRUE((halves[i] & 0x7c00) == 0x7c00 && (halves[i] & 0x3ff));
    else
      EXPECT_EQ(halves[i], half) << i << ": " << x[i];
    EXPECT_EQ(bfloats[i], bfloat) << i << ": " << x[i];
    EXPECT_TRUE(sameFloat(roundHalf[i], float(halfToDouble(half))))
        << i << ": " << x[i] << " -> " << roundHalf[i];
    EXPECT_TRUE(sameFloat(roundBFloat[i], float(bfloat16ToDouble(bfloat))))
        << i << ": " << x[i] << " -> " << roundBFloat[i];
  }
}

// Each work-item moves a float4 from global memory to local memory, where
// the work-group reverses the order of the vectors, and back; its lanes are
// combined and broadcast. Half the work-items load a double2 (the others
// take a broadcast zero) and store the product of its lanes broadcast.
const char *const kVectors = R"(
module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @vectors(%in: memref<32xf32>, %d: memref<16xf64>, %copy: memref<32xf32>,
                      %span: memref<32xf32>, %product: memref<16xf64>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>,
                    tile.flops = 0.0 : f64, tile.bytes = 0.0 : f64} {
      %tile = memref.alloc() : memref<32xf32, 3>
      %t = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %i = arith.muli %t, %c4 overflow<nsw> : index
      %mirror = arith.subi %c7, %t overflow<nsw> : index
      %m = arith.muli %mirror, %c4 overflow<nsw> : index
      %v = vector.load %in[%i] : memref<32xf32>, vector<4xf32>
      vector.store %v, %tile[%m] : memref<32xf32, 3>, vector<4xf32>
      gpu.barrier
      %w = vector.load %tile[%i] : memref<32xf32, 3>, vector<4xf32>
      vector.store %w, %copy[%i] : memref<32xf32>, vector<4xf32>
      %first = vector.extract %w[0] : f32 from vector<4xf32>
      %last = vector.extract %w[3] : f32 from vector<4xf32>
      %s = arith.subf %last, %first : f32
      %sv = vector.broadcast %s : f32 to vector<4xf32>
      vector.store %sv, %span[%i] : memref<32xf32>, vector<4xf32>
      %j = arith.muli %t, %c2 overflow<nsw> : index
      %low = arith.cmpi slt, %t, %c4 : index
      %dv = scf.if %low -> (vector<2xf64>) {
        %loaded = vector.load %d[%j] : memref<16xf64>, vector<2xf64>
        scf.yield %loaded : vector<2xf64>
      } else {
        %zero = arith.constant 0.0 : f64
        %zeros = vector.broadcast %zero : f64 to vector<2xf64>
        scf.yield %zeros : vector<2xf64>
      }
      %d0 = vector.extract %dv[0] : f64 from vector<2xf64>
      %d1 = vector.extract %dv[1] : f64 from vector<2xf64>
      %p = arith.mulf %d0, %d1 : f64
      %pv = vector.broadcast %p : f64 to vector<2xf64>
      vector.store %pv, %product[%j] : memref<16xf64>, vector<2xf64>
      gpu.return
    }
  }
  func.func @vectors(%I: memref<32xf32> {tile.name = "I", tile.dtype = "f32", tile.shape = [32], tile.kind = "input"},
                     %D: memref<16xf64> {tile.name = "D", tile.dtype = "f64", tile.shape = [16], tile.kind = "input"},
                     %C: memref<32xf32> {tile.name = "C", tile.dtype = "f32", tile.shape = [32], tile.kind = "output"},
                     %S: memref<32xf32> {tile.name = "S", tile.dtype = "f32", tile.shape = [32], tile.kind = "output"},
                     %P: memref<16xf64> {tile.name = "P", tile.dtype = "f64", tile.shape = [16], tile.kind = "output"}) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@vectors blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%I : memref<32xf32>, %D : memref<16xf64>, %C : memref<32xf32>, %S : memref<32xf32>, %P : memref<16xf64>)
    return
  }
}
)";

TEST_F(OpenCLBuildTest, VectorLoadsStoresExtractsBroadcasts) {
  std::optional<Bundle> bundle = extract(kVectors);
  ASSERT_TRUE(bundle);
  EXPECT_NE(bundle->openclSource.find("*(__local float4 *)"), std::string::npos)
      << bundle->openclSource;
  std::vector<float> in(32);
  for (int i = 0; i < 32; ++i)
    in[i] = 1.5f * i * i - 7.0f;
  std::vector<double> d(16);
  for (int i = 0; i < 16; ++i)
    d[i] = 0.1 * i + 1.0 / 3;
  std::vector<std::vector<uint8_t>> outputs =
      run(*bundle, {bytesOf(in), bytesOf(d)});
  ASSERT_EQ(outputs.size(), 3u);
  std::vector<float> copy = valuesOf<float>(outputs[0]);
  std::vector<float> span = valuesOf<float>(outputs[1]);
  std::vector<double> product = valuesOf<double>(outputs[2]);
  for (int t = 0; t < 8; ++t) {
    int mirror = 4 * (7 - t);
    for (int lane = 0; lane < 4; ++lane) {
      EXPECT_EQ(copy[4 * t + lane], in[mirror + lane]) << t << "." << lane;
      EXPECT_EQ(span[4 * t + lane], in[mirror + 3] - in[mirror])
          << t << "." << lane;
    }
    double expected = t < 4 ? d[2 * t] * d[2 * t + 1] : 0.0;
    for (int lane = 0; lane < 2; ++lane)
      EXPECT_EQ(product[2 * t + lane], expected) << t << "." << lane;
  }
}

/// Every module of the lit tests that prints builds on the device.
TEST_F(OpenCLBuildTest, LitModulesBuild) {
  unsigned built = 0;
  for (const auto &entry :
       std::filesystem::directory_iterator(TILEC_TARGET_LIT_DIR)) {
    if (entry.path().extension() != ".mlir" ||
        entry.path().filename() == "errors.mlir")
      continue;
    std::ifstream file(entry.path());
    std::stringstream text;
    text << file.rdbuf();
    mlir::OwningOpRef<mlir::ModuleOp> module = parse(text.str());
    ASSERT_TRUE(module) << entry.path();
    printAndBuild(*module, entry.path().filename().string());
    ++built;
  }
  EXPECT_GE(built, 8u);
}

} // namespace
