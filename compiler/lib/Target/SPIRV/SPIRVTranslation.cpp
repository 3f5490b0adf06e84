//===- SPIRVTranslation.cpp - The kernel-ir-to-spirv translation ----------===//

#include "tilec/Target/SPIRV/SPIRV.h"

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

void tilec::registerKernelIRToSPIRVTranslation() {
  static TranslateFromMLIRRegistration registration(
      "kernel-ir-to-spirv",
      "convert each kernel of a kernel-IR module to a Vulkan SPIR-V module, "
      "printed as SPIRV-Tools assembly",
      [](ModuleOp module, llvm::raw_ostream &os) -> LogicalResult {
        auto kernelModules = module.getOps<gpu::GPUModuleOp>();
        size_t count = llvm::range_size(kernelModules);
        if (count != 1)
          return module.emitError()
                 << "expected one gpu.module in the kernel IR, found " << count;
        for (auto kernel : (*kernelModules.begin()).getOps<gpu::GPUFuncOp>()) {
          FailureOr<std::vector<uint32_t>> words =
              translateToSPIRV(kernel, DeviceProfile());
          if (failed(words))
            return failure();
          std::string error;
          os << "; Kernel " << kernel.getName() << "\n";
          if (failed(printSPIRVAssembly(*words, os, error)))
            return module.emitError("cannot disassemble the SPIR-V: ") << error;
        }
        return success();
      },
      [](DialectRegistry &registry) {
        registry
            .insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                    math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                    spirv::SPIRVDialect, vector::VectorDialect>();
      });
}
