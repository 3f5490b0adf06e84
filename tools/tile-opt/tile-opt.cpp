//===- tile-opt.cpp - Parse, verify, transform and print tile IR ----------===//
//
// mlir-opt for the project: the `tile` dialect and the upstream dialects it
// is lowered through. Input that does not parse or verify is the user's
// error, reported in the tools' style before anything runs (InputIR.h); IR
// that a pass leaves unverifiable is an internal error. Both exit 1. With
// -verify-diagnostics, MLIR's own handling checks the expected diagnostics.
//
//===----------------------------------------------------------------------===//

#include "InputIR.h"

#include "tilec/Lowering/Lowering.h"
#include "tilec/Support/BugReport.h"
#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

static constexpr llvm::StringLiteral kTool = "tile-opt";

namespace {
/// Verifies the IR after each pass that succeeds (the pass manager's own
/// verifier prints the verifier's text as if the input were at fault): a
/// pass that leaves invalid IR is a bug of the pass, reported as an internal
/// error at the first failing operation, and the run stops there.
class VerifyAfterEachPass : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    std::optional<Location> failedAt;
    {
      ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &diag) {
        if (!failedAt && diag.getSeverity() == DiagnosticSeverity::Error)
          failedAt = diag.getLocation();
        return success();
      });
      if (succeeded(verify(op)) && !failedAt)
        return;
    }
    llvm::errs() << kTool << ": error: internal error: the IR after pass '"
                 << pass->getArgument() << "' does not verify";
    if (auto at = (*failedAt)->findInstanceOf<FileLineColLoc>())
      llvm::errs() << " (at " << at.getFilename().getValue() << ":"
                   << at.getLine() << ":" << at.getColumn() << ")";
    llvm::errs() << "; this is a bug in tilec, please report it with the "
                    "input and the command line\n";
    // The passes after it would run on IR that breaks their assumptions.
    std::exit(1);
  }
};

/// Test only: erases the terminator of every function's blocks, which leaves
/// IR that does not verify, as a pass with a bug would; the lit tests of the
/// internal-error report run it.
struct BreakTerminatorsPass
    : public PassWrapper<BreakTerminatorsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BreakTerminatorsPass)
  StringRef getArgument() const override {
    return "tile-test-break-terminators";
  }
  StringRef getDescription() const override {
    return "Test only: erase every function's terminators, leaving IR that "
           "does not verify";
  }
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp op) { op->erase(); });
  }
};

/// Test only: crashes on purpose, through LLVM's fatal error; the lit test of
/// what a crash prints runs it.
struct CrashPass : public PassWrapper<CrashPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CrashPass)
  StringRef getArgument() const override { return "tile-test-crash"; }
  StringRef getDescription() const override {
    return "Test only: crash, as a pass with a bug would";
  }
  void runOnOperation() override {
    llvm::report_fatal_error("tile-test-crash: a crash on purpose");
  }
};
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tilec::setBugReportMessage();
  DialectRegistry registry;
  tilec::tools::insertInputDialects(registry);
  tilec::registerLoweringPasses();
  tilec::registerSPIRVPreparationPasses();
  PassRegistration<BreakTerminatorsPass>();
  PassRegistration<CrashPass>();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "tile optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldVerifyDiagnostics() || config.shouldShowDialects())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &message);
  if (!input) {
    llvm::errs() << kTool << ": error: " << message << "\n";
    return 1;
  }
  tilec::tools::InputIROptions inputOptions;
  inputOptions.splitMarker = config.inputSplitMarker();
  inputOptions.allowUnregisteredDialects =
      config.shouldAllowUnregisteredDialects();
  inputOptions.insertImplicitModule = !config.shouldUseExplicitModule();
  if (failed(tilec::tools::checkInputIR(kTool, *input, registry, inputOptions)))
    return 1;

  // A pass's error names the IR at its location; the operation's generic
  // form is MLIR's view, not the user's file.
  MlirOptMainConfig pipeline = config;
  config.setPassPipelineSetupFn([pipeline](PassManager &pm) {
    pm.getContext()->printOpOnDiagnostic(false);
    if (pipeline.shouldVerifyPasses()) {
      pm.enableVerifier(false);
      pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
    }
    return pipeline.setupPassPipeline(pm);
  });
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &message);
  if (!output) {
    llvm::errs() << kTool << ": error: " << message << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
