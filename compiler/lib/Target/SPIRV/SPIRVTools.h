//===- SPIRVTools.h - Validating SPIR-V with SPIRV-Tools --------*- C++ -*-===//
//
// The SPIR-V target converts a prepared clone of the kernels
// (tilec/Target/SPIRV/Passes.h) in SPIRVConversion.cpp, which validates
// every module with SPIRVTools.cpp's validateSPIRV before anything else sees
// it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_SPIRVTOOLS_H
#define TILEC_LIB_TARGET_SPIRV_SPIRVTOOLS_H

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

#endif // TILEC_LIB_TARGET_SPIRV_SPIRVTOOLS_H
