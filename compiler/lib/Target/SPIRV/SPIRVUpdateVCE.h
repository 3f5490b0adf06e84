//===- SPIRVUpdateVCE.h - A spirv.module's vce_triple -----------*- C++ -*-===//
//
// The vce_triple of a converted spirv.module, deduced as MLIR 19's
// spirv-update-vce deduces it, with each type's requirements looked up
// once per module instead of once per use (SPIRVUpdateVCE.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_SPIRVUPDATEVCE_H
#define TILEC_LIB_TARGET_SPIRV_SPIRVUPDATEVCE_H

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Support/LogicalResult.h"

namespace tilec {

/// Sets the vce_triple of `module` to the least version and the
/// capabilities and extensions, in the order the ops first need them, that
/// its ops and their types require within the target environment that
/// `module` or an op around it carries: the triple, and so the words, that
/// MLIR 19's spirv-update-vce gives. An op that needs what the environment
/// does not allow is an error at the op, as the missing environment is at
/// `module`; the triple is left alone then.
mlir::LogicalResult updateVCETriple(mlir::spirv::ModuleOp module);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_SPIRVUPDATEVCE_H
