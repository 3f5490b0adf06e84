//===- tile-translate.cpp - Translations out of the kernel IR -------------===//
//
// mlir-translate for the project: `--kernel-ir-to-opencl` prints a kernel-IR
// module's kernels as OpenCL C, `--kernel-ir-to-spirv` as the assembly of
// their validated Vulkan SPIR-V module. Input that does not parse or verify
// is the user's error, reported in the tools' style (InputIR.h) before the
// translation runs; what the translation refuses it reports at the IR.
//
//===----------------------------------------------------------------------===//

#include "InputIR.h"

#include "tilec/Support/BugReport.h"
#include "tilec/Target/OpenCL/OpenCL.h"
#include "tilec/Target/SPIRV/SPIRV.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

static constexpr llvm::StringLiteral kTool = "tile-translate";

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tilec::setBugReportMessage();
  tilec::registerKernelIRToOpenCLTranslation();
  tilec::registerKernelIRToSPIRVTranslation();
  llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                           llvm::cl::desc("<input file>"),
                                           llvm::cl::init("-"));
  llvm::cl::opt<std::string> outputFilename(
      "o", llvm::cl::desc("Output filename"), llvm::cl::value_desc("filename"),
      llvm::cl::init("-"));
  llvm::cl::opt<std::string> splitMarker(
      "split-input-file", llvm::cl::ValueOptional,
      llvm::cl::desc("Split the input file into chunks at this marker (`// "
                     "-----` without a value) and translate each alone"),
      llvm::cl::init(""));
  llvm::cl::opt<const Translation *, false, TranslationParser> translation(
      "", llvm::cl::desc("Translation to perform"));
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  llvm::cl::ParseCommandLineOptions(argc, argv, "tile translation driver\n");
  if (!translation) {
    llvm::errs() << kTool
                 << ": error: no translation given: --kernel-ir-to-opencl or "
                    "--kernel-ir-to-spirv\n";
    return 2;
  }
  // `--split-input-file` alone means the default marker.
  if (splitMarker.getNumOccurrences() && splitMarker.empty())
    splitMarker = kDefaultSplitMarker;

  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &message);
  if (!input) {
    llvm::errs() << kTool << ": error: " << message << "\n";
    return 1;
  }
  DialectRegistry registry;
  tilec::tools::insertInputDialects(registry);
  tilec::tools::InputIROptions inputOptions;
  inputOptions.splitMarker = splitMarker;
  if (failed(tilec::tools::checkInputIR(kTool, *input, registry, inputOptions)))
    return 1;

  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &message);
  if (!output) {
    llvm::errs() << kTool << ": error: " << message << "\n";
    return 1;
  }
  auto translateChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                            llvm::raw_ostream &os) -> LogicalResult {
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
    MLIRContext context(MLIRContext::Threading::DISABLED);
    // The translation's errors name the IR at its location, without MLIR's
    // dump of the operation.
    context.printOpOnDiagnostic(false);
    SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
    return (*translation)(sourceMgr, os, &context);
  };
  if (failed(splitAndProcessBuffer(std::move(input), translateChunk,
                                   output->os(), splitMarker)))
    return 1;
  output->keep();
  return 0;
}
