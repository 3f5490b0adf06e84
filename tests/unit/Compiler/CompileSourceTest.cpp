//===- CompileSourceTest.cpp - Source text to a bundle in one call --------===//
//
// compileSource and specializeSource, the one front-to-back entry that the
// JIT and every tilec subcommand use: a bundle for a good source; for a bad
// one, nullopt and the errors reported through the caller's SourceMgr at
// their file:line:col.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/CompileSource.h"

#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {

/// One diagnostic the SourceMgr reported.
struct Reported {
  llvm::SourceMgr::DiagKind kind;
  std::string file, message;
  int line = 0, column = 0;
};

void collect(const llvm::SMDiagnostic &diag, void *context) {
  static_cast<std::vector<Reported> *>(context)->push_back(
      {diag.getKind(), diag.getFilename().str(), diag.getMessage().str(),
       diag.getLineNo(), diag.getColumnNo() + 1});
}

/// A CPU-like profile every kernel of these programs fits.
DeviceProfile makeProfile() {
  DeviceProfile profile;
  profile.name = "test";
  profile.type = DeviceType::CPU;
  profile.maxWorkGroupSize = 256;
  profile.maxWorkItemSizes = {256, 256, 256};
  profile.localMemBytes = 65536;
  return profile;
}

std::unique_ptr<llvm::MemoryBuffer> makeSource(llvm::StringRef text) {
  return llvm::MemoryBuffer::getMemBufferCopy(text, "test.tile");
}

/// Two functions, so that the entry must be named.
constexpr const char *kTwoFunctions =
    "function scale(A) -> (F) {\n  F = A * 2;\n}\n"
    "function sum(A[N], B[N]) -> (S) {\n  S[i : N] = +(A[i] * B[i]);\n}\n";

class CompileSourceTest : public ::testing::Test {
protected:
  CompileSourceTest() { sourceMgr.setDiagHandler(collect, &reported); }

  std::vector<Reported> reported;
  llvm::SourceMgr sourceMgr;
};

TEST_F(CompileSourceTest, CompilesTheNamedEntry) {
  CompileTargets targets{/*openCL=*/true, /*spirv=*/true, /*msl=*/false};
  std::optional<Bundle> bundle =
      compileSource(makeSource(kTwoFunctions), "sum",
                    {{"A", DType::F32, {8}}, {"B", DType::F32, {8}}},
                    makeProfile(), targets, sourceMgr);
  ASSERT_TRUE(bundle.has_value());
  EXPECT_TRUE(reported.empty());
  EXPECT_EQ(bundle->function, "sum");
  EXPECT_EQ(bundle->inputs.size(), 2u);
  EXPECT_EQ(bundle->outputs.size(), 1u);
  ASSERT_FALSE(bundle->kernels.empty());
  EXPECT_FALSE(bundle->openclSource.empty());
  EXPECT_FALSE(bundle->kernels.front().spirv.empty());
  EXPECT_NE(bundle->kernels.front().sourceLocation.find("test.tile:5:"),
            std::string::npos);
}

TEST_F(CompileSourceTest, ReportsASemaErrorAtItsLocation) {
  // B's extent differs from A's: `N` cannot be both 8 and 4.
  std::optional<Bundle> bundle =
      compileSource(makeSource(kTwoFunctions), "sum",
                    {{"A", DType::F32, {8}}, {"B", DType::F32, {4}}},
                    makeProfile(), {}, sourceMgr);
  EXPECT_FALSE(bundle.has_value());
  ASSERT_FALSE(reported.empty());
  EXPECT_EQ(reported.front().kind, llvm::SourceMgr::DK_Error);
  EXPECT_EQ(reported.front().file, "test.tile");
  EXPECT_EQ(reported.front().line, 4);
  EXPECT_GT(reported.front().column, 1);
}

TEST_F(CompileSourceTest, ReportsAMissingBinding) {
  std::optional<Program> program = specializeSource(
      makeSource(kTwoFunctions), "sum", {{"A", DType::F32, {8}}}, sourceMgr);
  EXPECT_FALSE(program.has_value());
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_EQ(reported.front().message, "parameter 'B' is not bound");
  EXPECT_EQ(reported.front().file, "test.tile");
  EXPECT_EQ(reported.front().line, 4);
}

TEST_F(CompileSourceTest, ReportsAnAmbiguousEntry) {
  std::optional<Program> program = specializeSource(
      makeSource(kTwoFunctions), "", {{"A", DType::F32, {8}}}, sourceMgr);
  EXPECT_FALSE(program.has_value());
  ASSERT_FALSE(reported.empty());
  EXPECT_EQ(reported.front().kind, llvm::SourceMgr::DK_Error);
}

TEST_F(CompileSourceTest, BindsFromTheEntryAndChoosesTheProfileAfter) {
  // The binder sees the selected entry's parameters; the profile is chosen
  // for the specialised program.
  std::vector<std::string> boundNames;
  std::string profiledFunction;
  std::optional<CompiledSource> compiled = compileSource(
      makeSource(kTwoFunctions), "scale",
      [&](const ast::Function &entry) {
        std::vector<ArgBinding> bindings;
        for (const ParamInfo &param : getParams(entry)) {
          boundNames.push_back(param.name);
          bindings.push_back({param.name, DType::F32, {3, 2}});
        }
        return std::optional<std::vector<ArgBinding>>(bindings);
      },
      [&](const Program &program) {
        profiledFunction = program.name;
        return std::optional<DeviceProfile>(makeProfile());
      },
      {}, sourceMgr);
  ASSERT_TRUE(compiled.has_value());
  EXPECT_EQ(boundNames, std::vector<std::string>{"A"});
  EXPECT_EQ(profiledFunction, "scale");
  EXPECT_EQ(compiled->program.name, "scale");
  EXPECT_EQ(compiled->bundle.function, "scale");
}

TEST_F(CompileSourceTest, StopsWhereACallbackDeclines) {
  bool profileChosen = false;
  auto chooseProfile = [&](const Program &) {
    profileChosen = true;
    return std::optional<DeviceProfile>();
  };
  // A binder that declines: nothing is specialised, no profile is chosen.
  EXPECT_FALSE(compileSource(
                   makeSource(kTwoFunctions), "scale",
                   [](const ast::Function &) {
                     return std::optional<std::vector<ArgBinding>>();
                   },
                   chooseProfile, {}, sourceMgr)
                   .has_value());
  EXPECT_FALSE(profileChosen);
  // A profile that cannot be chosen stops the compile after the front half.
  EXPECT_FALSE(compileSource(
                   makeSource(kTwoFunctions), "scale",
                   [](const ast::Function &) {
                     return std::optional<std::vector<ArgBinding>>(
                         {{"A", DType::F32, {2}}});
                   },
                   chooseProfile, {}, sourceMgr)
                   .has_value());
  EXPECT_TRUE(profileChosen);
  EXPECT_TRUE(reported.empty());
}

} // namespace
