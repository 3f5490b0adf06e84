//===- OpenCLTranslation.cpp - The kernel-ir-to-opencl translation --------===//

#include "tilec/Target/OpenCL/OpenCL.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"

using namespace mlir;

void tilec::registerKernelIRToOpenCLTranslation() {
  static TranslateFromMLIRRegistration registration(
      "kernel-ir-to-opencl",
      "print the kernels of a kernel-IR module as OpenCL C",
      [](ModuleOp module, llvm::raw_ostream &os) -> LogicalResult {
        auto kernelModules = module.getOps<gpu::GPUModuleOp>();
        size_t count = llvm::range_size(kernelModules);
        if (count != 1)
          return module.emitError()
                 << "expected one gpu.module in the kernel IR, found " << count;
        return printOpenCL(*kernelModules.begin(), os);
      },
      [](DialectRegistry &registry) {
        registry
            .insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                    math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                    spirv::SPIRVDialect, vector::VectorDialect>();
      });
}
