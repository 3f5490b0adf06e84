//===- tile-translate.cpp - Translations out of the kernel IR -------------===//
//
// mlir-translate for the project: `--kernel-ir-to-opencl` prints a kernel-IR
// module's kernels as OpenCL C, `--kernel-ir-to-spirv` as the assembly of
// their validated Vulkan SPIR-V module.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/OpenCL/OpenCL.h"
#include "tilec/Target/SPIRV/SPIRV.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  tilec::registerKernelIRToOpenCLTranslation();
  tilec::registerKernelIRToSPIRVTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "tile translation driver\n"));
}
