//===- Compile.cpp - `tilec compile` --------------------------------------===//

#include "Driver.h"

#include "tilec/Compiler/Pipeline.h"
#include "tilec/Conversion/ProgramToTile.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace llvm;

namespace tilec {

/// Prints the `--emit tile|mlir` forms, which need no device.
static bool printSourceForm(const CompileOptions &options, LoadedSource &source,
                            const Program &program, raw_ostream &os) {
  if (options.emit == EmitKind::Tile) {
    printProgram(program, os);
    return true;
  }
  mlir::MLIRContext context;
  context.loadDialect<tile::TileDialect, mlir::func::FuncDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      emitTileModule(context, program, source.sourceMgr);
  if (!module)
    return false;
  mlir::OpPrintingFlags flags;
  if (options.printLocations)
    flags.enableDebugInfo().useLocalScope();
  module->print(os, flags);
  return true;
}

int runCompile(const CompileOptions &options) {
  if (options.emit == EmitKind::None && !options.explain) {
    reportError("nothing to do: pass --emit tile|mlir|opencl|bundle, or "
                "--explain");
    return ExitUsageError;
  }
  std::unique_ptr<LoadedSource> source =
      loadSource(options.inputPath, options.entry);
  if (!source)
    return ExitProgramError;
  int exitCode = ExitSuccess;
  std::optional<Program> program =
      specializeFromArgs(*source, options.argSpecs, exitCode);
  if (!program)
    return exitCode;

  std::optional<Bundle> bundle;
  if (options.explain || options.emit == EmitKind::OpenCL ||
      options.emit == EmitKind::Bundle) {
    std::optional<DeviceProfile> profile =
        chooseTargetProfile(options.device, options.profile);
    if (!profile)
      return ExitDeviceError;
    bundle = compileProgram(*program, *profile, source->sourceMgr);
    if (!bundle)
      return ExitProgramError;
  }
  if (options.explain)
    outs() << bundle->explanation;
  if (options.emit == EmitKind::None)
    return ExitSuccess;

  // A bundle file is written atomically: a tool that picks it up never sees
  // half of one.
  if (options.emit == EmitKind::Bundle && options.outputPath != "-") {
    if (Status status = writeBundle(options.outputPath, *bundle); !status) {
      reportError(status.error().message());
      return ExitProgramError;
    }
    return ExitSuccess;
  }

  std::error_code ec;
  ToolOutputFile output(options.outputPath, ec, sys::fs::OF_Text);
  if (ec) {
    reportError("cannot write '" + options.outputPath + "': " + ec.message());
    return ExitProgramError;
  }
  if (options.emit == EmitKind::OpenCL)
    output.os() << bundle->openclSource;
  else if (options.emit == EmitKind::Bundle)
    output.os() << serializeBundle(*bundle);
  else if (!printSourceForm(options, *source, *program, output.os()))
    return ExitProgramError;
  output.keep();
  return ExitSuccess;
}

} // namespace tilec
