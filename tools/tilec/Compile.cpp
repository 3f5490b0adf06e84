//===- Compile.cpp - `tilec compile` --------------------------------------===//

#include "Driver.h"

#include "tilec/Conversion/ProgramToTile.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace llvm;

namespace tilec {

/// Specialises the loaded function to the `--arg` bindings.
static std::optional<Program> specializeFromArgs(LoadedSource &source,
                                                 ArrayRef<std::string> specs,
                                                 int &exitCode) {
  std::vector<ArgBinding> bindings;
  for (const std::string &spec : specs) {
    std::string error;
    std::optional<ArgBinding> binding = parseArgSpec(spec, error);
    if (!binding) {
      reportError(error);
      exitCode = ExitUsageError;
      return std::nullopt;
    }
    bindings.push_back(std::move(*binding));
  }
  exitCode = ExitProgramError;
  return specialize(*source.function, bindings, source.sourceMgr);
}

int runCompile(const CompileOptions &options) {
  std::unique_ptr<LoadedSource> source =
      loadSource(options.inputPath, options.entry);
  if (!source)
    return ExitProgramError;
  int exitCode = ExitSuccess;
  std::optional<Program> program =
      specializeFromArgs(*source, options.argSpecs, exitCode);
  if (!program)
    return exitCode;

  std::error_code ec;
  ToolOutputFile output(options.outputPath, ec, sys::fs::OF_Text);
  if (ec) {
    reportError("cannot write '" + options.outputPath + "': " + ec.message());
    return ExitProgramError;
  }

  if (options.emit == EmitKind::Tile) {
    printProgram(*program, output.os());
  } else {
    mlir::MLIRContext context;
    context.loadDialect<tile::TileDialect, mlir::func::FuncDialect>();
    mlir::OwningOpRef<mlir::ModuleOp> module =
        emitTileModule(context, *program, source->sourceMgr);
    if (!module)
      return ExitProgramError;
    mlir::OpPrintingFlags flags;
    if (options.printLocations)
      flags.enableDebugInfo().useLocalScope();
    module->print(output.os(), flags);
  }
  output.keep();
  return ExitSuccess;
}

} // namespace tilec
