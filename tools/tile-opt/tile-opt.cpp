//===- tile-opt.cpp - Parse, verify, transform and print tile IR ----------===//
//
// mlir-opt for the project: the `tile` dialect and the upstream dialects it
// is lowered through.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Lowering/Lowering.h"
#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<tilec::tile::TileDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::gpu::GPUDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect, mlir::spirv::SPIRVDialect,
                  mlir::tensor::TensorDialect, mlir::vector::VectorDialect>();
  tilec::registerLoweringPasses();
  tilec::registerSPIRVPreparationPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tile optimizer driver\n", registry));
}
