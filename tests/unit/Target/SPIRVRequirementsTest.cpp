//===- SPIRVRequirementsTest.cpp - Per-type requirements, as MLIR 19's ----===//
//
// updateVCETriple and getSPIRVConversionTarget ask each type for its
// capabilities and extensions once, and each op name with its attributes
// (where the op has no properties), where MLIR 19's spirv-update-vce and
// SPIRVConversionTarget ask at each use; the answers must be theirs: the
// same triple, capabilities and extensions in the same order (the order of
// the OpCapability and OpExtension words), the same errors, and the same
// ops legal in each environment.
//
//===----------------------------------------------------------------------===//

#include "SPIRVConversionTarget.h"
#include "SPIRVUpdateVCE.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;
using namespace tilec;

namespace {

/// A Vulkan environment of SPIR-V 1.5 with `capabilities`.
std::string vulkanEnv(const std::string &capabilities) {
  return "#spirv.target_env<#spirv.vce<v1.5, [" + capabilities +
         "], [SPV_KHR_float_controls]>, #spirv.resource_limits<>>";
}

/// A module in `env` whose ops and types need Int64, Float16, Int8 and the
/// 8- and 16-bit storage capabilities, the float-controls extension and
/// SPIR-V 1.3, several of them more than once and in an order of their own.
std::string moduleIn(const std::string &env) {
  return R"(
spirv.module Logical GLSL450 attributes {spirv.target_env = )" +
         env + R"(} {
  spirv.GlobalVariable @halves bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
  spirv.GlobalVariable @bytes bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %zero = spirv.Constant 0 : i32
    %wide = spirv.Constant 7 : i64
    %sum = spirv.IAdd %wide, %wide : i64
    %halves = spirv.mlir.addressof @halves : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
    %half = spirv.AccessChain %halves[%zero, %zero] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32
    %h = spirv.Load "StorageBuffer" %half : f16
    %h2 = spirv.FAdd %h, %h : f16
    spirv.Store "StorageBuffer" %half, %h2 : f16
    %vector = spirv.CompositeConstruct %h, %h2 : (f16, f16) -> vector<2xf16>
    %true = spirv.Constant true
    %ballot = spirv.GroupNonUniformBallot <Subgroup> %true : vector<4xi32>
    %wide2 = spirv.IAdd %sum, %wide : i64
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
  spirv.ExecutionMode @main "SignedZeroInfNanPreserve", 16
}
)";
}

class SPIRVRequirementsTest : public ::testing::Test {
protected:
  void SetUp() override { context.loadDialect<spirv::SPIRVDialect>(); }

  /// The spirv.module of `text`, parsed without verifying it (a test of
  /// the legality gives ops types that SPIR-V refuses).
  OwningOpRef<ModuleOp> parse(const std::string &text) {
    ParserConfig config(&context, /*verifyAfterParse=*/false);
    return parseSourceString<ModuleOp>(text, config);
  }

  static spirv::ModuleOp spirvModule(ModuleOp module) {
    return *module.getOps<spirv::ModuleOp>().begin();
  }

  /// The triple updateVCETriple or spirv-update-vce gives `text`'s module
  /// (null where it fails), with the errors reported on the way.
  std::pair<Attribute, std::string> deduce(const std::string &text,
                                           bool upstream) {
    OwningOpRef<ModuleOp> module = parse(text);
    EXPECT_TRUE(module);
    if (!module)
      return {};
    std::string errors;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
      errors += diagnostic.str() + "\n";
      return success();
    });
    LogicalResult result = failure();
    if (upstream) {
      PassManager passes(&context);
      passes.nest<spirv::ModuleOp>().addPass(spirv::createSPIRVUpdateVCEPass());
      result = passes.run(*module);
    } else {
      result = updateVCETriple(spirvModule(*module));
    }
    Attribute triple =
        spirvModule(*module)->getAttr(spirv::ModuleOp::getVCETripleAttrName());
    return {succeeded(result) ? triple : Attribute(), errors};
  }

  MLIRContext context;
};

TEST_F(SPIRVRequirementsTest, DeducesSpirvUpdateVCEsTriple) {
  std::string text =
      moduleIn(vulkanEnv("Shader, Int8, Int16, Int64, Float16, Float64, "
                         "GroupNonUniformBallot, StorageBuffer8BitAccess, "
                         "StorageBuffer16BitAccess, SignedZeroInfNanPreserve"));
  auto [triple, errors] = deduce(text, /*upstream=*/false);
  ASSERT_TRUE(triple) << errors;
  EXPECT_EQ(triple, deduce(text, /*upstream=*/true).first);
  std::string printed;
  llvm::raw_string_ostream(printed) << triple;
  EXPECT_EQ(printed,
            "#spirv.vce<v1.3, [Shader, StorageBuffer16BitAccess, "
            "StorageBuffer8BitAccess, Int64, Float16, GroupNonUniformBallot, "
            "SignedZeroInfNanPreserve], [SPV_KHR_16bit_storage, "
            "SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, "
            "SPV_KHR_float_controls]>");
}

TEST_F(SPIRVRequirementsTest, RefusesWhatTheEnvironmentLacksAsSpirvUpdateVCE) {
  // Each environment lacks one thing the module needs, and each error is
  // the first op's that needs it.
  std::pair<std::string, std::string> cases[] = {
      {vulkanEnv("Shader, Int8, Float16, GroupNonUniformBallot, "
                 "StorageBuffer8BitAccess, StorageBuffer16BitAccess, "
                 "SignedZeroInfNanPreserve"),
       "'spirv.Constant' requires at least one capability in [Int64]"},
      {vulkanEnv("Shader, Int8, Int64, Float16, GroupNonUniformBallot, "
                 "StorageBuffer8BitAccess, SignedZeroInfNanPreserve"),
       "'spirv.GlobalVariable' requires at least one capability in "
       "[StorageBuffer16BitAccess]"},
      {"#spirv.target_env<#spirv.vce<v1.0, [Shader, Int8, Int64, Float16, "
       "GroupNonUniformBallot, StorageBuffer8BitAccess, "
       "StorageBuffer16BitAccess, SignedZeroInfNanPreserve], "
       "[SPV_KHR_float_controls, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage, "
       "SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>",
       "'spirv.GroupNonUniformBallot' requires min version v1.3 but target "
       "environment allows up to v1.0"}};
  for (const auto &[env, error] : cases) {
    std::string text = moduleIn(env);
    auto [triple, errors] = deduce(text, /*upstream=*/false);
    EXPECT_FALSE(triple);
    EXPECT_EQ(errors.rfind(error, 0), 0u) << errors;
    EXPECT_EQ(errors, deduce(text, /*upstream=*/true).second);
  }
}

TEST_F(SPIRVRequirementsTest, HasTheOpsLegalThatSPIRVConversionTargetHas) {
  // GLSL.std.450 and OpenCL builtins, 64-bit integers and floats, a
  // SPIR-V 1.3 op and an op of a type that SPIR-V lacks (index).
  std::string text = R"(
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @halves bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
  spirv.GlobalVariable @shared : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
  spirv.func @f(%x : f32, %d : f64, %i : i64, %n : index) "None" {
    %gl = spirv.GL.Exp %x : f32
    %cl = spirv.CL.exp %x : f32
    %gl64 = spirv.GL.Exp %d : f64
    %sum = spirv.IAdd %i, %i : i64
    %index = spirv.IAdd %n, %n : index
    %true = spirv.Constant true
    %ballot = spirv.GroupNonUniformBallot <Subgroup> %true : vector<4xi32>
    %vector = spirv.CompositeConstruct %x, %x : (f32, f32) -> vector<2xf32>
    spirv.Return
  }
}
)";
  OwningOpRef<ModuleOp> module = parse(text);
  ASSERT_TRUE(module);
  std::string envs[] = {
      vulkanEnv("Shader, Int64, Float16, Float64, GroupNonUniformBallot, "
                "StorageBuffer16BitAccess"),
      vulkanEnv("Shader"),
      "#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int64, "
      "Float64, Float16], []>, #spirv.resource_limits<>>",
      "#spirv.target_env<#spirv.vce<v1.2, [Shader, Float64, "
      "GroupNonUniformBallot], []>, #spirv.resource_limits<>>"};
  for (const std::string &envText : envs) {
    auto env = cast<spirv::TargetEnvAttr>(parseAttribute(envText, &context));
    std::unique_ptr<ConversionTarget> ours = getSPIRVConversionTarget(env);
    std::unique_ptr<ConversionTarget> upstream =
        SPIRVConversionTarget::get(env);
    int legal = 0, illegal = 0;
    module->walk([&](Operation *op) {
      bool isLegal = ours->isLegal(op).has_value();
      EXPECT_EQ(isLegal, upstream->isLegal(op).has_value())
          << op->getName().getStringRef().str() << " in " << envText;
      ++(isLegal ? legal : illegal);
    });
    // Every environment has both.
    EXPECT_GT(legal, 0) << envText;
    EXPECT_GT(illegal, 0) << envText;
  }
}

} // namespace
