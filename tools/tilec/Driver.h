//===- Driver.h - Shared pieces of the tilec subcommands --------*- C++ -*-===//

#ifndef TILEC_TOOLS_TILEC_DRIVER_H
#define TILEC_TOOLS_TILEC_DRIVER_H

#include "tilec/Compiler/CompileSource.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Frontend.h"
#include "tilec/Interpreter/Interpreter.h"
#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/Device.h"
#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Runtime/Executor.h"
#include "tilec/Runtime/HostTensor.h"

#include "CommandLine.h"
#include "OutputArguments.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
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

/// The text of `path` (standard input for "-"), under that name: what the
/// compiler's front end reads. Reports why not and returns null.
std::unique_ptr<llvm::MemoryBuffer> readSourceFile(llvm::StringRef path);

/// "A, B, C": the parameters' names, for messages.
std::string listParams(llvm::ArrayRef<ParamInfo> params);

/// Parses every `--arg` and checks that each names a parameter of
/// `function`. Reports the first problem and returns nullopt (a usage error).
std::optional<llvm::StringMap<ArgBinding>>
parseArgBindings(llvm::ArrayRef<std::string> specs,
                 const ast::Function &function);

/// The `--arg` bindings of every parameter of `function`, each of which
/// they must bind. Reports the first problem and returns nullopt (a usage
/// error).
std::optional<std::vector<ArgBinding>>
bindParamsFromArgs(llvm::ArrayRef<std::string> specs,
                   const ast::Function &function);

/// The data of every parameter of `function`, from `--input` (or `--in`)
/// or, with `--random`, made from the `--arg` bindings `argSpecs`, and the
/// bindings that specialise the function to it. On an error (printed)
/// returns nullopt with `exitCode` set.
std::optional<std::vector<ArgBinding>>
gatherInputs(llvm::ArrayRef<std::string> argSpecs,
             const InputDataArguments &given, const ast::Function &function,
             llvm::StringMap<HostTensor> &data, int &exitCode);

/// The backends `tilec compile --backend` compiles for.
enum class CompileBackend { OpenCL, Vulkan, Metal };

/// The profile to compile for: a profile file that gives every key, with no
/// `--device` (no device is opened then); else the chosen device's of
/// `backend` with the file over it, or, on a machine without OpenCL
/// devices, the file alone; for Metal, a generic Apple GPU's with the file
/// over it. Errors are printed; the caller exits with ExitDeviceError.
std::optional<DeviceProfile> chooseTargetProfile(CompileBackend backend,
                                                 llvm::StringRef selector,
                                                 llvm::StringRef profilePath);

/// A program compiled for a device, the device open and the bundle's
/// buffers allocated there: ready to run, as often as needed.
struct DeviceProgram {
  /// The chosen device, its profile possibly overridden by `--profile`.
  std::unique_ptr<Device> device;
  Bundle bundle;
  /// Declared after `device`, which it uses, so it is destroyed first.
  std::unique_ptr<Executor> executor;
};

/// Opens the device of `backend` that `--device` and `--profile` choose,
/// into `prepared`, its driver to build unoptimized code when `unoptimized`.
/// Returns the exit code; errors are printed.
int openRunDevice(Backend backend, llvm::StringRef selector,
                  llvm::StringRef profilePath, bool unoptimized,
                  DeviceProgram &prepared);

/// The code a program compiled to run on `backend` needs: OpenCL C, or
/// SPIR-V for Vulkan.
CompileTargets getRunTargets(Backend backend);

/// Prepares the execution of `prepared.bundle` on `prepared.device` (`name`
/// for messages). Returns the exit code; errors are printed.
int prepareExecutor(DeviceProgram &prepared, llvm::StringRef name);

/// The backend `--backend NAME` names for a subcommand that runs on a
/// device; reports an unknown name (listing `choices`) and returns nullopt.
std::optional<Backend> parseDeviceBackend(llvm::StringRef name,
                                          llvm::StringRef choices);

/// The tensors of `data` named by the bundle buffers `indexes` (its inputs
/// or outputs), in that order.
std::vector<HostTensor>
tensorsInBundleOrder(const Bundle &bundle, llvm::ArrayRef<unsigned> indexes,
                     const llvm::StringMap<HostTensor> &data);

/// What `tilec compile` prints.
enum class EmitKind { None, Tile, Mlir, OpenCL, Spirv, SpirvAsm, Msl, Bundle };

/// A target that `--target` names for `--emit bundle`.
enum class TargetKind { OpenCL, Spirv, Msl };

/// `tilec compile`'s command line.
struct CompileCommand {
  std::string inputPath;
  std::string entry;
  std::vector<std::string> argSpecs;
  EmitKind emit = EmitKind::None;
  /// `--backend`: "opencl", "vulkan", "metal", or empty for what `emit`
  /// implies.
  std::string backend;
  /// With --emit bundle: the code it carries (docs/cli.md says the default).
  std::vector<TargetKind> targets;
  /// With --emit spirv, spirv-asm or msl: the one kernel to print (all when
  /// empty).
  std::string kernel;
  /// With --emit mlir: print each op's .tile source location.
  bool printLocations = false;
  /// Print the scheduler's choices and their reasons.
  bool explain = false;
  /// Print the IR after each lowering pass to stderr.
  bool printIRAfterAll = false;
  std::string outputPath;
  /// The device (`--device`) and profile file (`--profile`) to compile for.
  std::string device;
  std::string profile;
};
int runCompile(const CompileCommand &command);

struct RunOptions {
  std::string inputPath;
  std::string entry;
  std::vector<std::string> argSpecs;
  /// `--input`, `--in`, `--random`, `--seed`.
  InputDataArguments inputs;
  /// `--print`, `--checksum`, `--output`, `--output-dir`.
  OutputArguments outputs;
  /// "opencl", "vulkan" or "reference".
  std::string backend;
  bool check = false;
  std::string device;
  std::string profile;
  /// Print the most device memory the run held at once (`--memory-report`).
  bool memoryReport = false;
  /// Build the device code unoptimized (`--no-driver-optimization`).
  bool unoptimized = false;
  /// `--perturb N`, `--perturb-divisions`, `--flush-subnormals`: the
  /// reference's deliberate error, for differential testing.
  Perturbation perturbation;
};
int runRun(const RunOptions &options);

struct BenchOptions {
  std::string inputPath;
  std::string entry;
  std::vector<std::string> argSpecs;
  uint64_t seed = 1;
  /// Timed runs after the warm-up.
  unsigned repeat = 10;
  /// "opencl" or "vulkan".
  std::string backend;
  std::string device;
  std::string profile;
};
int runBench(const BenchOptions &options);

struct DevicesOptions {
  /// With --json: the backend ("opencl" or "vulkan") and device whose
  /// profile to print, and a file that overrides it.
  std::string backend;
  std::string device;
  std::string profile;
  bool json = false;
};
int runDevices(const DevicesOptions &options);

struct GradOptions {
  std::string inputPath;
  std::string entry;
  std::vector<std::string> argSpecs;
  /// `--wrt`: the inputs to differentiate with respect to.
  std::vector<std::string> wrt;
  std::string outputPath;
};
/// Prints the gradient program (docs/training.md) as canonical Tile source.
int runGrad(const GradOptions &options);

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_DRIVER_H
