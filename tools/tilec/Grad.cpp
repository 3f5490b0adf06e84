//===- Grad.cpp - `tilec grad` --------------------------------------------===//
//
// tilec grad FILE.tile --wrt W,B [--entry F] --arg NAME=DTYPE[dims] ...
//                      [-o OUT]
//
// Prints the gradient program (docs/training.md) as canonical Tile source.
//
//===----------------------------------------------------------------------===//

#include "Grad.h"

#include "Driver.h"

#include "tilec/Autodiff/Gradient.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace llvm;

namespace tilec {

static cl::OptionCategory gradCategory("tilec grad options");
static cl::SubCommand
    gradCommand("grad", "Print the gradient program of a .tile function");

static cl::opt<std::string> gradInputPath(cl::Positional, cl::Required,
                                          cl::desc("<file.tile>"),
                                          cl::sub(gradCommand),
                                          cl::cat(gradCategory));
static cl::list<std::string>
    gradWrt("wrt", cl::desc("The inputs to differentiate with respect to"),
            cl::value_desc("W,B,..."), cl::CommaSeparated, cl::OneOrMore,
            cl::sub(gradCommand), cl::cat(gradCategory));
static cl::opt<std::string> gradEntry(
    "entry", cl::desc("The function to use when the file holds several"),
    cl::value_desc("name"), cl::sub(gradCommand), cl::cat(gradCategory));
static cl::list<std::string>
    gradArgSpecs("arg", cl::desc("Bind an input's dtype and shape"),
                 cl::value_desc("NAME=DTYPE[d0,d1,...]"), cl::sub(gradCommand),
                 cl::cat(gradCategory));
static cl::opt<std::string> gradOutputPath("o", cl::desc("Output file"),
                                           cl::value_desc("path"),
                                           cl::init("-"), cl::sub(gradCommand),
                                           cl::cat(gradCategory));

void prepareGradCommand() {
  cl::HideUnrelatedOptions(gradCategory, gradCommand);
}

/// Reports a `--wrt` name that is no parameter of `function`, or one named
/// twice, like a bad `--arg`: a usage error.
static bool checkWrtNames(const ast::Function &function) {
  std::vector<ParamInfo> params = getParams(function);
  for (auto it = gradWrt.begin(); it != gradWrt.end(); ++it) {
    if (llvm::none_of(params, [&](const ParamInfo &param) {
          return param.name == *it;
        })) {
      reportError("--wrt names '" + *it + "', which is not an input (inputs: " +
                  listParams(params) + ")");
      return false;
    }
    if (std::find(gradWrt.begin(), it, *it) != it) {
      reportError("--wrt names '" + *it + "' twice");
      return false;
    }
  }
  return true;
}

static int runGrad() {
  std::unique_ptr<LoadedSource> source = loadSource(gradInputPath, gradEntry);
  if (!source)
    return ExitProgramError;
  if (!checkWrtNames(*source->function))
    return ExitUsageError;
  int exitCode = ExitSuccess;
  std::optional<Program> program =
      specializeFromArgs(*source, gradArgSpecs, exitCode);
  if (!program)
    return exitCode;
  std::optional<Program> gradient =
      differentiate(*program, gradWrt, source->sourceMgr);
  if (!gradient)
    return ExitProgramError;

  std::error_code error;
  ToolOutputFile output(gradOutputPath, error, sys::fs::OF_Text);
  if (error) {
    reportError("cannot write '" + gradOutputPath + "': " + error.message());
    return ExitUsageError;
  }
  printProgram(*gradient, output.os());
  output.keep();
  return ExitSuccess;
}

std::optional<int> runGradIfChosen() {
  if (!gradCommand)
    return std::nullopt;
  return runGrad();
}

} // namespace tilec
