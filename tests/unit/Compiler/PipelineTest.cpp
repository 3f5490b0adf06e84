//===- PipelineTest.cpp - The pipeline reports its own bugs as such -------===//
//
// A module the compiler itself made invalid must never show a user the
// verifier's (or the bundle reader's) text: the pipeline's hooks corrupt
// the module between stages, and the one error reported must be an
// internal error at the statement, asking for a report.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/Pipeline.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Frontend.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {

/// One diagnostic the SourceMgr printed.
struct Reported {
  llvm::SourceMgr::DiagKind kind;
  std::string message;
  int line = 0, column = 0;
};

void collect(const llvm::SMDiagnostic &diag, void *context) {
  static_cast<std::vector<Reported> *>(context)->push_back(
      {diag.getKind(), diag.getMessage().str(), diag.getLineNo(),
       diag.getColumnNo() + 1});
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

/// The source of test.tile: `F = A * 2 + 1;` at line 2, column 3.
constexpr const char *kOneStatement =
    "function f(A) -> (F) {\n  F = A * 2 + 1;\n}\n";

/// Compiles `source` (A: f32[4, 5] and, where it has one, B: f32[5, 4]) with
/// `hooks`; returns what was reported, and the bundle if one came out.
std::vector<Reported> compileSource(const char *source,
                                    const PipelineHooks &hooks,
                                    std::optional<Bundle> &bundle,
                                    CompileTargets targets = {}) {
  std::vector<Reported> reported;
  llvm::SourceMgr sourceMgr;
  sourceMgr.setDiagHandler(collect, &reported);
  unsigned buffer = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "test.tile"), llvm::SMLoc());
  std::unique_ptr<ast::Module> module = parseModule(sourceMgr, buffer);
  const ast::Function *function =
      module ? selectFunction(*module, "", sourceMgr) : nullptr;
  EXPECT_NE(function, nullptr);
  if (!function)
    return reported;
  std::vector<ArgBinding> args = {{"A", DType::F32, {4, 5}}};
  if (function->params.size() > 1)
    args.push_back({"B", DType::F32, {5, 4}});
  std::optional<Program> program = specialize(*function, args, sourceMgr);
  EXPECT_TRUE(program.has_value());
  if (!program)
    return reported;
  bundle = compileProgram(*program, makeProfile(), sourceMgr, targets, hooks);
  return reported;
}

/// Compiles kOneStatement with `hooks`; returns what was reported, and
/// whether a bundle came out.
std::vector<Reported> compile(const PipelineHooks &hooks, bool &compiled,
                              CompileTargets targets = {}) {
  std::optional<Bundle> bundle;
  std::vector<Reported> reported =
      compileSource(kOneStatement, hooks, bundle, targets);
  compiled = bundle.has_value();
  return reported;
}

/// Makes the first op of `kind` in `module` use its own result: invalid IR
/// (an operand that does not dominate its use) at the op's location.
void useOwnResult(mlir::ModuleOp module, llvm::StringRef kind) {
  mlir::Operation *victim = nullptr;
  module.walk([&](mlir::Operation *op) {
    if (!victim && op->getName().getStringRef() == kind &&
        op->getNumOperands() > 0 && op->getNumResults() == 1 &&
        op->getOperand(0).getType() == op->getResult(0).getType())
      victim = op;
  });
  ASSERT_NE(victim, nullptr) << kind.str();
  victim->setOperand(0, victim->getResult(0));
}

/// Expects one error, an internal error about `stage` at the statement of
/// `line`.
void expectInternalError(const std::vector<Reported> &reported,
                         llvm::StringRef stage, int line = 2) {
  ASSERT_EQ(reported.size(), 1u);
  const Reported &error = reported.front();
  EXPECT_EQ(error.kind, llvm::SourceMgr::DK_Error);
  EXPECT_EQ(error.message.rfind("internal error: " + stage.str(), 0), 0u)
      << error.message;
  EXPECT_NE(error.message.find("please report it"), std::string::npos)
      << error.message;
  EXPECT_EQ(error.message.find("dominate"), std::string::npos) << error.message;
  EXPECT_EQ(error.line, line);
}

TEST(PipelineTest, CompilesWithoutHooks) {
  bool compiled = false;
  std::vector<Reported> reported = compile({}, compiled);
  EXPECT_TRUE(compiled);
  EXPECT_TRUE(reported.empty());
}

TEST(PipelineTest, InvalidTileModuleIsAnInternalError) {
  PipelineHooks hooks;
  hooks.afterTileModule = [](mlir::ModuleOp module) {
    useOwnResult(module, "tile.ew");
  };
  bool compiled = true;
  std::vector<Reported> reported = compile(hooks, compiled);
  EXPECT_FALSE(compiled);
  expectInternalError(reported, "verifying the `tile` module");
}

TEST(PipelineTest, InvalidKernelIRIsAnInternalError) {
  PipelineHooks hooks;
  hooks.afterLowering = [](mlir::ModuleOp module) {
    useOwnResult(module, "arith.mulf");
  };
  bool compiled = true;
  std::vector<Reported> reported = compile(hooks, compiled);
  EXPECT_FALSE(compiled);
  expectInternalError(reported, "verifying the kernel IR");
}

TEST(PipelineTest, InconsistentKernelIRIsAnInternalError) {
  // Valid IR that the bundle reader refuses (as it refused a split
  // temporary's pieces once): a host argument without its tile.kind. The
  // error is at the function, line 1.
  PipelineHooks hooks;
  hooks.afterLowering = [](mlir::ModuleOp module) {
    for (auto host : module.getOps<mlir::func::FuncOp>())
      host.setArgAttrs(0, mlir::DictionaryAttr::get(module.getContext()));
  };
  bool compiled = true;
  std::vector<Reported> reported = compile(hooks, compiled);
  EXPECT_FALSE(compiled);
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_EQ(reported.front().message.rfind(
                "internal error: extracting the bundle failed", 0),
            0u)
      << reported.front().message;
  EXPECT_EQ(reported.front().message.find("tile.kind"), std::string::npos);
  EXPECT_EQ(reported.front().line, 1);
}

/// Three statements, three kernels: an elementwise one, a row sum and a
/// matrix product.
constexpr const char *kThreeKernels =
    "function f(A, B) -> (F, G, H) {\n"
    "  F = A * 2 + 1;\n"
    "  G[i : 4] = +(A[i, j]);\n"
    "  H[i, j : 4, 4] = +(A[i, k] * B[k, j]);\n"
    "}\n";

TEST(PipelineTest, KernelsTranslatedAtOnceAsOneAtATime) {
  CompileTargets targets;
  targets.spirv = true;
  const unsigned threads[2] = {1, 4};
  std::optional<Bundle> bundles[2];
  for (int i = 0; i < 2; ++i) {
    PipelineHooks hooks;
    hooks.spirvThreads = threads[i];
    EXPECT_TRUE(
        compileSource(kThreeKernels, hooks, bundles[i], targets).empty());
    ASSERT_TRUE(bundles[i].has_value());
  }
  ASSERT_EQ(bundles[0]->kernels.size(), 3u);
  ASSERT_EQ(bundles[1]->kernels.size(), 3u);
  for (auto [one, parallel] :
       llvm::zip(bundles[0]->kernels, bundles[1]->kernels)) {
    EXPECT_EQ(one.name, parallel.name);
    EXPECT_FALSE(one.spirv.empty());
    EXPECT_EQ(one.spirv, parallel.spirv) << one.name;
  }
}

TEST(PipelineTest, SPIRVConversionFailureIsAnInternalErrorAtItsKernel) {
  // The second kernel without its work-group size: MLIR cannot convert it
  // to an entry point. The kernels translate at once; the error names it.
  std::string second;
  PipelineHooks hooks;
  hooks.spirvThreads = 4;
  hooks.afterLowering = [&](mlir::ModuleOp module) {
    unsigned index = 0;
    module.walk([&](mlir::gpu::GPUFuncOp kernel) {
      if (index++ != 1)
        return;
      second = kernel.getName().str();
      kernel->removeAttr("spirv.entry_point_abi");
    });
  };
  CompileTargets targets;
  targets.spirv = true;
  std::optional<Bundle> bundle;
  std::vector<Reported> reported =
      compileSource(kThreeKernels, hooks, bundle, targets);
  EXPECT_FALSE(bundle.has_value());
  ASSERT_FALSE(second.empty());
  expectInternalError(reported,
                      "the SPIR-V conversion of kernel '" + second + "'", 3);
}

} // namespace
