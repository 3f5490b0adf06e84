//===- Passes.h - The SPIR-V target's preparation passes --------*- C++ -*-===//
//
// The steps that rewrite a clone of the kernels into what MLIR's SPIR-V
// conversion translates with Tile's meaning, as passes on a gpu.module
// (Passes.td). translateToSPIRV runs them through a PassManager;
// `tile-opt --tilec-spirv-...` runs one alone.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_SPIRV_PASSES_H
#define TILEC_TARGET_SPIRV_PASSES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace tilec {

#define GEN_PASS_DECL
#include "tilec/Target/SPIRV/Passes.h.inc"

/// Adds the preparation passes, in their order, to `kernels`, a pass
/// manager on a gpu.module: the math and the float conversions first (the
/// conversions they expand are not expanded again), the last one that folds
/// before the zero operands are made exact, the storage types and bindings
/// at the end.
void addSPIRVPreparationPasses(mlir::OpPassManager &kernels);

/// Registers every preparation pass, and the pipeline tilec-spirv-prepare
/// (a gpu.module's passes, in addSPIRVPreparationPasses' order), with the
/// pass registry: `tile-opt --tilec-spirv-expand-math`, ...
void registerSPIRVPreparationPasses();

} // namespace tilec

#endif // TILEC_TARGET_SPIRV_PASSES_H
