//===- Grad.cpp - `tilec grad` --------------------------------------------===//
//
// tilec grad FILE.tile --wrt W,B [--entry F] --arg NAME=DTYPE[dims] ...
//                      [-o OUT]
//
// Prints the gradient program (docs/training.md) as canonical Tile source.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "tilec/Autodiff/Gradient.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace llvm;
using namespace tilec;

/// Reports a `--wrt` name that is no parameter of `function`, or one named
/// twice, like a bad `--arg`: a usage error.
static bool checkWrtNames(const ast::Function &function,
                          ArrayRef<std::string> wrt) {
  std::vector<ParamInfo> params = getParams(function);
  for (auto it = wrt.begin(); it != wrt.end(); ++it) {
    if (llvm::none_of(params, [&](const ParamInfo &param) {
          return param.name == *it;
        })) {
      reportError("--wrt names '" + *it + "', which is not an input (inputs: " +
                  listParams(params) + ")");
      return false;
    }
    if (std::find(wrt.begin(), it, *it) != it) {
      reportError("--wrt names '" + *it + "' twice");
      return false;
    }
  }
  return true;
}

int tilec::runGrad(const GradOptions &options) {
  std::unique_ptr<MemoryBuffer> source = readSourceFile(options.inputPath);
  if (!source)
    return ExitProgramError;
  SourceMgr sourceMgr;
  int exitCode = ExitProgramError;
  std::optional<Program> program = specializeSource(
      std::move(source), options.entry,
      [&](const ast::Function &function)
          -> std::optional<std::vector<ArgBinding>> {
        std::optional<std::vector<ArgBinding>> bindings;
        if (checkWrtNames(function, options.wrt))
          bindings = bindParamsFromArgs(options.argSpecs, function);
        if (!bindings)
          exitCode = ExitUsageError;
        return bindings;
      },
      sourceMgr);
  if (!program)
    return exitCode;
  std::optional<Program> gradient =
      differentiate(*program, options.wrt, sourceMgr);
  if (!gradient)
    return ExitProgramError;

  std::error_code error;
  ToolOutputFile output(options.outputPath, error, sys::fs::OF_Text);
  if (error) {
    reportError("cannot write '" + options.outputPath +
                "': " + error.message());
    return ExitUsageError;
  }
  printProgram(*gradient, output.os());
  output.keep();
  return ExitSuccess;
}
