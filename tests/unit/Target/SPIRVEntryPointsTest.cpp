//===- SPIRVEntryPointsTest.cpp - Entry points, as MLIR 19's pass ---------===//
//
// lowerEntryPointABI makes the kernels' ABI attributes into interface
// variables, entry points and execution modes without the dialect
// conversion of MLIR 19's spirv-lower-abi-attrs; the module it leaves must
// be the one that pass leaves, op for op, and what the pass refuses it must
// refuse.
//
//===----------------------------------------------------------------------===//

#include "SPIRVEntryPoints.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

using namespace mlir;
using namespace tilec;

namespace {

/// A kernel of two buffers and a scalar in `env`, which reads the local
/// invocation id (an Input variable) and a Workgroup array, with the entry
/// point ABI `entryPointABI`.
std::string kernelIn(const std::string &env, const std::string &entryPointABI,
                     const std::string &scalarABI =
                         "#spirv.interface_var_abi<(0, 2), StorageBuffer>") {
  return R"(
spirv.module Logical GLSL450 attributes {spirv.target_env = )" +
         env + R"(} {
  spirv.GlobalVariable @id built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @tile : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
  spirv.func @kernel(
      %in: !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>},
      %out: !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>},
      %scale: f32 {spirv.interface_var_abi = )" +
         scalarABI + R"(}) "None" attributes {spirv.entry_point_abi = )" +
         entryPointABI + R"(} {
    %zero = spirv.Constant 0 : i32
    %ids = spirv.mlir.addressof @id : !spirv.ptr<vector<3xi32>, Input>
    %idv = spirv.Load "Input" %ids : vector<3xi32>
    %i = spirv.CompositeExtract %idv[0 : i32] : vector<3xi32>
    %src = spirv.AccessChain %in[%zero, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %src : f32
    %tile = spirv.mlir.addressof @tile : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
    %slot = spirv.AccessChain %tile[%i] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>, i32
    spirv.Store "Workgroup" %slot, %x : f32
    %y = spirv.FMul %x, %scale : f32
    %dst = spirv.AccessChain %out[%zero, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %dst, %y : f32
    spirv.Return
  }
}
)";
}

const char *kVulkanEnv =
    "#spirv.target_env<#spirv.vce<v1.5, [Shader, SignedZeroInfNanPreserve], "
    "[SPV_KHR_float_controls]>, #spirv.resource_limits<>>";

class SPIRVEntryPointsTest : public ::testing::Test {
protected:
  void SetUp() override { context.loadDialect<spirv::SPIRVDialect>(); }

  /// `text`'s module after lowerEntryPointABI or spirv-lower-abi-attrs,
  /// printed, or nothing where it failed.
  std::optional<std::string> lower(const std::string &text, bool upstream) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    if (!module)
      return std::nullopt;
    ScopedDiagnosticHandler quiet(&context,
                                  [](Diagnostic &) { return success(); });
    LogicalResult result = failure();
    if (upstream) {
      PassManager passes(&context);
      passes.nest<spirv::ModuleOp>().addPass(
          spirv::createSPIRVLowerABIAttributesPass());
      result = passes.run(*module);
    } else {
      result = lowerEntryPointABI(*module->getOps<spirv::ModuleOp>().begin());
    }
    if (failed(result))
      return std::nullopt;
    std::string printed;
    llvm::raw_string_ostream(printed) << *module;
    return printed;
  }

  MLIRContext context;
};

TEST_F(SPIRVEntryPointsTest, LowersAsSpirvLowerABIAttrs) {
  std::string abis[] = {
      "#spirv.entry_point_abi<workgroup_size = [64, 1, 1]>",
      // SubgroupSize needs a capability the environment lacks: the size
      // stays on the function, the float width becomes a mode.
      "#spirv.entry_point_abi<workgroup_size = [32, 2, 1], subgroup_size = "
      "32, target_width = 32>",
      "#spirv.entry_point_abi<>"};
  for (const std::string &abi : abis) {
    std::string text = kernelIn(kVulkanEnv, abi);
    std::optional<std::string> ours = lower(text, /*upstream=*/false);
    ASSERT_TRUE(ours) << abi;
    EXPECT_EQ(*ours, lower(text, /*upstream=*/true)) << abi;
    // The arguments became variables at their bindings, the scalar loaded
    // from its block; the interface lists the Input variable alone.
    EXPECT_NE(ours->find("spirv.GlobalVariable @kernel_arg_2 bind(0, 2) : "
                         "!spirv.ptr<!spirv.struct<(f32 [0])>, "
                         "StorageBuffer>"),
              std::string::npos)
        << *ours;
    EXPECT_NE(ours->find("spirv.EntryPoint \"GLCompute\" @kernel, @id\n"),
              std::string::npos)
        << *ours;
    EXPECT_EQ(ours->find("interface_var_abi"), std::string::npos) << *ours;
  }
}

TEST_F(SPIRVEntryPointsTest, RefusesWhatSpirvLowerABIAttrsRefuses) {
  std::string entry = "#spirv.entry_point_abi<workgroup_size = [64, 1, 1]>";
  // A scalar argument without a storage class.
  std::string text =
      kernelIn(kVulkanEnv, entry, "#spirv.interface_var_abi<(0, 2)>");
  EXPECT_FALSE(lower(text, /*upstream=*/false));
  EXPECT_FALSE(lower(text, /*upstream=*/true));
}

} // namespace
