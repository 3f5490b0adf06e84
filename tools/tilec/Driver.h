//===- Driver.h - Shared pieces of the tilec subcommands --------*- C++ -*-===//

#ifndef TILEC_TOOLS_TILEC_DRIVER_H
#define TILEC_TOOLS_TILEC_DRIVER_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Frontend.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// tilec's exit status (docs/cli.md).
enum ExitCode : int {
  ExitSuccess = 0,
  /// An error in the program or its input data.
  ExitProgramError = 1,
  /// A bad command line.
  ExitUsageError = 2,
  /// A device or runtime failure.
  ExitDeviceError = 3,
};

/// Prints "tilec: error: <message>" to stderr.
void reportError(const llvm::Twine &message);

/// Parses "NAME=DTYPE[d0,d1,...]" (`--arg`); "NAME=DTYPE[]" is a scalar.
/// Returns nullopt and sets `error` otherwise.
std::optional<ArgBinding> parseArgSpec(llvm::StringRef spec,
                                       std::string &error);

/// A parsed .tile file and the function chosen from it. The SourceMgr owns
/// the buffer that every SMLoc of the AST and the Program points into.
struct LoadedSource {
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<ast::Module> module;
  const ast::Function *function = nullptr;
};

/// Reads and parses `path`, then selects `entry` (or the only function).
/// Diagnostics are printed; returns null on any error.
std::unique_ptr<LoadedSource> loadSource(llvm::StringRef path,
                                         llvm::StringRef entry);

/// What `tilec compile` prints.
enum class EmitKind { Tile, Mlir };

struct CompileOptions {
  std::string inputPath;
  std::string entry;
  std::vector<std::string> argSpecs;
  EmitKind emit = EmitKind::Tile;
  /// With --emit mlir: print each op's .tile source location.
  bool printLocations = false;
  std::string outputPath;
};
int runCompile(const CompileOptions &options);

struct RunOptions {
  std::string inputPath;
  std::string entry;
  std::vector<std::string> argSpecs;
  std::vector<std::string> inputFiles;
  bool random = false;
  uint64_t seed = 1;
  std::string outDir;
  std::string backend;
  bool check = false;
};
int runRun(const RunOptions &options);

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_DRIVER_H
