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

/// Validates `binary`, naming ids in the message by their OpNames where
/// `friendlyNames` is set.
static spv_result_t validate(spv_context context, spv_const_binary_t binary,
                             bool friendlyNames, spv_diagnostic *diagnostic) {
  spv_validator_options options = spvValidatorOptionsCreate();
  auto cleanup =
      llvm::make_scope_exit([&] { spvValidatorOptionsDestroy(options); });
  spvValidatorOptionsSetFriendlyNames(options, friendlyNames);
  return spvValidateWithOptions(context, options, &binary, diagnostic);
}

LogicalResult validateSPIRV(llvm::ArrayRef<uint32_t> words,
                            std::string &error) {
  spv_context context = spvContextCreate(kTargetEnv);
  auto destroyContext =
      llvm::make_scope_exit([&] { spvContextDestroy(context); });
  spv_const_binary_t binary = {words.data(), words.size()};
  spv_diagnostic diagnostic = nullptr;
  // Without the friendly names, whose table of every id's name took a third
  // of the validation's time (docs/codegen.md, "Compile time"); a module
  // that fails is validated again with them for the message.
  if (validate(context, binary, /*friendlyNames=*/false, &diagnostic) ==
      SPV_SUCCESS) {
    spvDiagnosticDestroy(diagnostic);
    return success();
  }
  spvDiagnosticDestroy(diagnostic);
  diagnostic = nullptr;
  (void)validate(context, binary, /*friendlyNames=*/true, &diagnostic);
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
