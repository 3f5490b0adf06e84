//===- SPIRVConversionTarget.h - Which SPIR-V ops a device allows -*- C++ -*-=//
//
// The conversion target of the kernels' SPIR-V conversion: MLIR 19's
// SPIRVConversionTarget's legality, with each type's requirements looked up
// once per conversion instead of once per use (SPIRVConversionTarget.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_SPIRVCONVERSIONTARGET_H
#define TILEC_LIB_TARGET_SPIRV_SPIRVCONVERSIONTARGET_H

#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Transforms/DialectConversion.h"

#include <memory>

namespace tilec {

/// A conversion target on which a spirv-dialect op is legal exactly where
/// `SPIRVConversionTarget::get(targetAttr)` has it legal: its version range
/// holds the environment's version, the environment allows an extension and
/// a capability of each alternative it and its types require, and its
/// operands and results are of SPIR-V types. The conversion's patterns rely
/// on the refusals to fall back on one another (a GLSL.std.450 builtin or an
/// OpenCL one). No op of another dialect is legal.
std::unique_ptr<mlir::ConversionTarget>
getSPIRVConversionTarget(mlir::spirv::TargetEnvAttr targetAttr);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_SPIRVCONVERSIONTARGET_H
