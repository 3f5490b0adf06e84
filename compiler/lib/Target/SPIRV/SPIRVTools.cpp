//===- SPIRVTools.cpp - Validating and disassembling with SPIRV-Tools -----===//

#include "tilec/Target/SPIRV/SPIRV.h"

#include "SPIRVTools.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/raw_ostream.h"

#include <spirv-tools/libspirv.h>

using namespace mlir;

namespace tilec {

/// kSPIRVTargetEnvName as SPIRV-Tools' enumerator.
static constexpr spv_target_env kTargetEnv = SPV_ENV_VULKAN_1_2;

/// Takes SPIRV-Tools' message out of `diagnostic` (which may be null).
static std::string takeMessage(spv_diagnostic diagnostic) {
  std::string message =
      diagnostic && diagnostic->error ? diagnostic->error : "no message";
  spvDiagnosticDestroy(diagnostic);
  return message;
}

LogicalResult validateSPIRV(llvm::ArrayRef<uint32_t> words,
                            std::string &error) {
  spv_context context = spvContextCreate(kTargetEnv);
  spv_validator_options options = spvValidatorOptionsCreate();
  auto cleanup = llvm::make_scope_exit([&] {
    spvValidatorOptionsDestroy(options);
    spvContextDestroy(context);
  });
  spv_const_binary_t binary = {words.data(), words.size()};
  spv_diagnostic diagnostic = nullptr;
  if (spvValidateWithOptions(context, options, &binary, &diagnostic) ==
      SPV_SUCCESS) {
    spvDiagnosticDestroy(diagnostic);
    return success();
  }
  error = takeMessage(diagnostic);
  return failure();
}

LogicalResult printSPIRVAssembly(llvm::ArrayRef<uint32_t> words,
                                 llvm::raw_ostream &os, std::string &error) {
  spv_context context = spvContextCreate(kTargetEnv);
  auto destroyContext =
      llvm::make_scope_exit([&] { spvContextDestroy(context); });
  spv_text text = nullptr;
  spv_diagnostic diagnostic = nullptr;
  uint32_t options = SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES |
                     SPV_BINARY_TO_TEXT_OPTION_INDENT |
                     SPV_BINARY_TO_TEXT_OPTION_COMMENT;
  if (spvBinaryToText(context, words.data(), words.size(), options, &text,
                      &diagnostic) != SPV_SUCCESS) {
    error = takeMessage(diagnostic);
    return failure();
  }
  spvDiagnosticDestroy(diagnostic);
  os << llvm::StringRef(text->str, text->length);
  spvTextDestroy(text);
  return success();
}

} // namespace tilec
