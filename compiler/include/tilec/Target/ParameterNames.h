//===- ParameterNames.h - Kernel parameters named after tensors -*- C++ -*-===//
//
// Every target names a kernel's buffer parameters after the tensors they
// hold (docs/codegen.md, "Parameter names"), one spelling for all of them:
// OpenCL C prints it, SPIR-V carries it as the OpName of the buffer's
// variable, and SPIRV-Cross takes it from there into MSL.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PARAMETERNAMES_H
#define TILEC_TARGET_PARAMETERNAMES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <string>
#include <vector>

namespace tilec {

/// The argument attribute of a kernel IR gpu.func that says what the
/// argument holds (`A`, `A_p1`, `_t0`, `S_partials`), set by lowering.
inline constexpr llvm::StringLiteral kParameterNameAttr = "tile.name";

/// One identifier per parameter of `kernel`, each valid and unreserved in
/// OpenCL C, MSL and SPIR-V symbol tables, all distinct and none the
/// kernel's own name: its `tile.name` made an identifier, or `arg<N>` where
/// it has none.
std::vector<std::string> getParameterNames(mlir::gpu::GPUFuncOp kernel);

} // namespace tilec

#endif // TILEC_TARGET_PARAMETERNAMES_H
