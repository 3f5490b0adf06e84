//===- SPIRVValidationTest.cpp - In-process SPIR-V validation -------------===//
//
// validateSPIRV validates without SPIRV-Tools' friendly names, which cost a
// third of its time, and validates a module that fails again with them, so
// that the message names the ids the module names (docs/codegen.md,
// "Compile time").
//
//===----------------------------------------------------------------------===//

#include "SPIRVTools.h"

#include <spirv-tools/libspirv.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace tilec;

namespace {

/// The words of the SPIR-V assembly `text`, assembled for Vulkan 1.2.
std::vector<uint32_t> assemble(const std::string &text) {
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_2);
  spv_binary binary = nullptr;
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result =
      spvTextToBinary(context, text.data(), text.size(), &binary, &diagnostic);
  std::vector<uint32_t> words;
  if (result == SPV_SUCCESS)
    words.assign(binary->code, binary->code + binary->wordCount);
  spvBinaryDestroy(binary);
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return words;
}

/// A compute shader that stores `value` (an id of the module) to its
/// function variable %counter, of type int.
std::string shaderStoring(const std::string &value) {
  return R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpName %main "main"
               OpName %counter "counter"
               OpName %half "half"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
%ptr_int = OpTypePointer Function %int
      %int_1 = OpConstant %int 1
       %half = OpConstant %float 0.5
       %main = OpFunction %void None %fn
      %entry = OpLabel
    %counter = OpVariable %ptr_int Function
               OpStore %counter )" +
         value + R"(
               OpReturn
               OpFunctionEnd
)";
}

TEST(SPIRVValidation, AcceptsAValidModule) {
  std::vector<uint32_t> words = assemble(shaderStoring("%int_1"));
  ASSERT_FALSE(words.empty());
  std::string error;
  EXPECT_TRUE(succeeded(validateSPIRV(words, error))) << error;
  EXPECT_EQ(error, "");
}

TEST(SPIRVValidation, NamesTheIdsOfAnInvalidModule) {
  // A float stored to an int variable.
  std::vector<uint32_t> words = assemble(shaderStoring("%half"));
  ASSERT_FALSE(words.empty());
  std::string error;
  ASSERT_TRUE(failed(validateSPIRV(words, error)));
  // The ids by their OpNames, as the validation with friendly names gives
  // them: "Pointer <id> '2[%counter]'" (without: '2[%2]').
  EXPECT_NE(error.find("[%counter]"), std::string::npos) << error;
}

} // namespace
