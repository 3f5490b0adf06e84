//===- SPIRVEntryPoints.h - Entry points from ABI attributes -*- C++ -*-===//
//
// The kernels' ABI attributes made into interface variables, entry points
// and execution modes, as MLIR's spirv-lower-abi-attrs does, without its
// dialect conversion of the whole module.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_SPIRVENTRYPOINTS_H
#define TILEC_LIB_TARGET_SPIRV_SPIRVENTRYPOINTS_H

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace tilec {

/// Makes each function of `module` with a `spirv.entry_point_abi` an entry
/// point taking no arguments, as Vulkan requires: each argument becomes a
/// global variable at the descriptor set and binding of its
/// `spirv.interface_var_abi` (a scalar or vector one a block of one member,
/// loaded at the function's start), the `spirv.EntryPoint` lists the
/// variables the function addresses, and the ABI's workgroup size, subgroup
/// size and float width become execution modes where the target environment
/// allows them. The same ops, in the same order, as MLIR 19's
/// spirv-lower-abi-attrs.
mlir::LogicalResult lowerEntryPointABI(mlir::spirv::ModuleOp module);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_SPIRVENTRYPOINTS_H
