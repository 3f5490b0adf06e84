//===- SPIRVLowering.h - Steps of the SPIR-V target -------------*- C++ -*-===//
//
// The SPIR-V target in three steps: rewriting a clone of the kernels into
// what MLIR's conversions translate faithfully (the passes of
// tilec/Target/SPIRV/Passes.h: SPIRVPreparation.cpp, SPIRVFloatConversions.cpp,
// SPIRVZeroOperands.cpp and the math builtins of Math/), the conversion and
// serialisation (SPIRVConversion.cpp), and validation by SPIRV-Tools
// (SPIRVTools.cpp), which this header shares.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_SPIRVLOWERING_H
#define TILEC_LIB_TARGET_SPIRV_SPIRVLOWERING_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace tilec {

/// Validates `words` for kSPIRVTargetEnvName; on failure `error` holds
/// SPIRV-Tools' message.
mlir::LogicalResult validateSPIRV(llvm::ArrayRef<uint32_t> words,
                                  std::string &error);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_SPIRVLOWERING_H
