//===- tilec.cpp - The tilec command-line driver --------------------------===//
//
// tilec compile FILE.tile --arg NAME=DTYPE[dims] ...
//               [--emit tile|mlir|opencl|spirv|spirv-asm|msl|bundle]
//               [--backend opencl|vulkan|metal] [--target opencl,spirv,msl]
//               [--kernel NAME] [--explain] [--print-ir-after-all] [-o OUT]
// tilec run FILE.tile [--input NAME=VALUES|NAME=@FILE.npy | --arg ...
//                     --random] [--print] [--checksum]
//                     [--output NAME=FILE.npy] [--output-dir DIR]
//                     [--backend opencl|vulkan|reference] [--check]
// tilec bench FILE.tile --arg NAME=DTYPE[dims] ... [--repeat N]
//                       [--backend opencl|vulkan]
// tilec devices [--json [--backend opencl|vulkan]]
// tilec grad FILE.tile --wrt W,B --arg NAME=DTYPE[dims] ... [-o OUT]
// compile, run, bench and devices take --device SEL and --profile FILE.
// The options tile-run shares are declared in tools/common/CommandLine.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include "CommandLine.h"
#include "tilec/Support/BugReport.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/InitLLVM.h"

using namespace llvm;
using namespace tilec;

namespace {

/// Every option of every subcommand; each subcommand reads its own.
struct Arguments {
  std::string inputPath, entry, device, profile;
  std::vector<std::string> argSpecs;
  // compile
  std::string emit, compileBackend, kernel, outputPath = "-";
  std::vector<std::string> targets;
  bool explain = false, printLocations = false, printIRAfterAll = false;
  // run
  InputDataArguments inputData;
  OutputArguments outputs;
  std::string formerOutDir, runBackend = "opencl";
  bool check = false, memoryReport = false, unoptimized = false;
  Perturbation perturbation;
  // grad
  std::vector<std::string> wrt;
  // bench and devices
  std::string deviceBackend = "opencl";
  unsigned repeat = 10;
  bool json = false;
};

} // namespace

/// The .tile file, `--entry` and `--arg` of compile, run and bench.
static void addProgramOptions(CLI::App &app, Arguments &arguments) {
  app.add_option("FILE.tile", arguments.inputPath,
                 "The .tile file (- for standard input)")
      ->required();
  app.add_option("--entry", arguments.entry,
                 "The function to use when the file holds several")
      ->type_name("NAME");
  app.add_option("--arg", arguments.argSpecs,
                 "Bind an input's dtype and shape (A=f32[64,32]; a scalar is "
                 "S=f32[])")
      ->type_name("NAME=DTYPE[d0,d1,...]")
      ->allow_extra_args(false);
}

static void addCompileCommand(CLI::App &app, Arguments &arguments) {
  CLI::App *compile =
      app.add_subcommand("compile", "Compile a .tile function and print it");
  addProgramOptions(*compile, arguments);
  compile
      ->add_option("--emit", arguments.emit,
                   "What to print: the specialised Tile program, the `tile` "
                   "MLIR dialect, the kernels' OpenCL C, a kernel's Vulkan "
                   "SPIR-V module (binary) or every kernel's (assembly), "
                   "their Metal Shading Language, or the kernel bundle that "
                   "tile-run executes")
      ->type_name("tile|mlir|opencl|spirv|spirv-asm|msl|bundle");
  addDeviceOptions(*compile, arguments.compileBackend, "opencl|vulkan|metal",
                   "The backend to compile for: its device's profile, and its "
                   "code (default: what --emit implies; opencl for --emit "
                   "bundle)",
                   arguments.device, arguments.profile);
  compile
      ->add_option("--target", arguments.targets,
                   "With --emit bundle, the code it carries (default: the "
                   "--backend's, or opencl,spirv)")
      ->type_name("opencl,spirv,msl")
      ->delimiter(',')
      ->allow_extra_args(false);
  compile
      ->add_option("--kernel", arguments.kernel,
                   "With --emit spirv, spirv-asm or msl, the one kernel to "
                   "print (--emit spirv needs it for a program of several "
                   "kernels)")
      ->type_name("NAME");
  compile->add_flag("--explain", arguments.explain,
                    "Print each kernel's schedule for the device, and why");
  compile->add_flag("--print-locations", arguments.printLocations,
                    "With --emit mlir, print each op's .tile source location");
  compile->add_flag(
      "--print-ir-after-all", arguments.printIRAfterAll,
      "Print the `tile` module, then the IR after each lowering "
      "pass, to stderr (as mlir-opt's --mlir-print-ir-after-all)");
  compile->add_option("-o", arguments.outputPath, "The output file")
      ->type_name("OUT");
}

static void addRunCommand(CLI::App &app, Arguments &arguments) {
  CLI::App *run = app.add_subcommand(
      "run", "Run a .tile function on inline, .npy or random inputs");
  addProgramOptions(*run, arguments);
  addInputDataOptions(*run, arguments.inputData);
  addOutputOptions(*run, arguments.outputs, arguments.formerOutDir);
  addDeviceOptions(*run, arguments.runBackend, "opencl|vulkan|reference",
                   "Where to run: an OpenCL or a Vulkan device, or the "
                   "reference interpreter (default: opencl)",
                   arguments.device, arguments.profile);
  run->add_flag("--check", arguments.check,
                "Compare every output with the reference interpreter");
  addMemoryReportOption(*run, arguments.memoryReport);
  addDriverOptimizationOption(*run, arguments.unoptimized);
  CLI::Option *perturb =
      run->add_option(
             "--perturb", arguments.perturbation.seed,
             "With --backend reference, for differential testing: move "
             "each inexact builtin's result by up to 16 ulps (1 for "
             "f16/bf16), deterministically in the seed N (docs/testing.md)")
          ->type_name("N");
  run->add_flag("--perturb-divisions", arguments.perturbation.divisions,
                "With --perturb, move each float quotient by up to 3 ulps "
                "too (Vulkan's accuracy)")
      ->needs(perturb);
  run->add_flag("--flush-subnormals", arguments.perturbation.flushSubnormals,
                "With --backend reference, for differential testing: count "
                "f32 and bf16 subnormal operands and results as zeros, as a "
                "device that keeps no f32 subnormals does");
}

static void addBenchCommand(CLI::App &app, Arguments &arguments) {
  CLI::App *bench = app.add_subcommand(
      "bench", "Time a .tile function's kernels on a device");
  addProgramOptions(*bench, arguments);
  bench
      ->add_option("--seed", arguments.inputData.seed,
                   "The seed of the random inputs (default 1)")
      ->type_name("N");
  bench
      ->add_option("--repeat", arguments.repeat,
                   "Timed runs after the warm-up (default 10)")
      ->type_name("N");
  addDeviceOptions(*bench, arguments.deviceBackend, "opencl|vulkan",
                   "The backend of the device (default: opencl)",
                   arguments.device, arguments.profile);
}

static void addDevicesCommand(CLI::App &app, Arguments &arguments) {
  CLI::App *devices = app.add_subcommand(
      "devices", "List the OpenCL and Vulkan devices and their profiles");
  devices->add_flag("--json", arguments.json,
                    "Print the chosen device's profile as JSON (the form "
                    "--profile reads)");
  addDeviceOptions(*devices, arguments.deviceBackend, "opencl|vulkan",
                   "With --json, the backend of the device (default: opencl)",
                   arguments.device, arguments.profile);
}

static void addGradCommand(CLI::App &app, Arguments &arguments) {
  CLI::App *grad = app.add_subcommand(
      "grad", "Print the gradient program of a .tile function");
  addProgramOptions(*grad, arguments);
  grad->add_option("--wrt", arguments.wrt,
                   "The inputs to differentiate with respect to")
      ->type_name("W,B,...")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->required();
  grad->add_option("-o", arguments.outputPath, "The output file")
      ->type_name("OUT");
}

/// `--emit`'s value as an EmitKind; reports an unknown one.
static std::optional<EmitKind> parseEmit(StringRef name) {
  if (name.empty())
    return EmitKind::None;
  std::optional<EmitKind> kind = StringSwitch<std::optional<EmitKind>>(name)
                                     .Case("tile", EmitKind::Tile)
                                     .Case("mlir", EmitKind::Mlir)
                                     .Case("opencl", EmitKind::OpenCL)
                                     .Case("spirv", EmitKind::Spirv)
                                     .Case("spirv-asm", EmitKind::SpirvAsm)
                                     .Case("msl", EmitKind::Msl)
                                     .Case("bundle", EmitKind::Bundle)
                                     .Default(std::nullopt);
  if (!kind)
    reportError("unknown --emit '" + name +
                "' (available: tile, mlir, opencl, spirv, spirv-asm, msl, "
                "bundle)");
  return kind;
}

/// `--target`'s values as TargetKinds; reports an unknown one.
static std::optional<std::vector<TargetKind>>
parseTargets(ArrayRef<std::string> names) {
  std::vector<TargetKind> targets;
  for (StringRef name : names) {
    std::optional<TargetKind> target =
        StringSwitch<std::optional<TargetKind>>(name)
            .Case("opencl", TargetKind::OpenCL)
            .Case("spirv", TargetKind::Spirv)
            .Case("msl", TargetKind::Msl)
            .Default(std::nullopt);
    if (!target) {
      reportError("unknown --target '" + name +
                  "' (available: opencl, spirv, msl)");
      return std::nullopt;
    }
    targets.push_back(*target);
  }
  return targets;
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  tilec::setBugReportMessage();
  CLI::App app("tilec: compiles Tile tensor programs to GPU kernels\n\n"
               "  tilec compile FILE.tile --arg A=f32[64,32] ... --emit "
               "tile|mlir|opencl|spirv|spirv-asm|msl|bundle\n"
               "  tilec run FILE.tile --input A=2x3xf32=1,2,3,4,5,6 --input "
               "B=@b.npy ... [--print]\n"
               "                     [--output C=c.npy] [--output-dir DIR] "
               "[--check]\n"
               "  tilec run FILE.tile --arg A=f32[64,32] ... --random "
               "[--backend vulkan]\n"
               "  tilec bench FILE.tile --arg A=f32[64,32] ... [--repeat N]\n"
               "  tilec devices\n"
               "  tilec grad FILE.tile --wrt W,B --arg A=f32[64,32] ...\n\n"
               "  `tilec SUBCOMMAND --help` lists a subcommand's options.",
               "tilec");
  app.set_version_flag("--version", std::string("tilec ") + TILEC_VERSION);
  app.footer(kExitStatusHelp);
  Arguments arguments;
  addCompileCommand(app, arguments);
  addRunCommand(app, arguments);
  addBenchCommand(app, arguments);
  addDevicesCommand(app, arguments);
  addGradCommand(app, arguments);
  int exitCode = ExitSuccess;
  if (!parseCommandLine(app, argc, argv, "tilec", exitCode))
    return exitCode;

  if (app.got_subcommand("compile")) {
    std::optional<EmitKind> emit = parseEmit(arguments.emit);
    std::optional<std::vector<TargetKind>> targets =
        emit ? parseTargets(arguments.targets) : std::nullopt;
    if (!targets)
      return ExitUsageError;
    CompileCommand command{arguments.inputPath,      arguments.entry,
                           arguments.argSpecs,       *emit,
                           arguments.compileBackend, *targets,
                           arguments.kernel,         arguments.printLocations,
                           arguments.explain,        arguments.printIRAfterAll,
                           arguments.outputPath,     arguments.device,
                           arguments.profile};
    return runCompile(command);
  }
  if (app.got_subcommand("run")) {
    if (!checkFormerOutDir(*app.get_subcommand("run"), "tilec"))
      return ExitUsageError;
    RunOptions options{
        arguments.inputPath,    arguments.entry,       arguments.argSpecs,
        arguments.inputData,    arguments.outputs,     arguments.runBackend,
        arguments.check,        arguments.device,      arguments.profile,
        arguments.memoryReport, arguments.unoptimized, arguments.perturbation};
    return runRun(options);
  }
  if (app.got_subcommand("bench")) {
    BenchOptions options{arguments.inputPath, arguments.entry,
                         arguments.argSpecs,  arguments.inputData.seed,
                         arguments.repeat,    arguments.deviceBackend,
                         arguments.device,    arguments.profile};
    return runBench(options);
  }
  if (app.got_subcommand("devices")) {
    DevicesOptions options{arguments.deviceBackend, arguments.device,
                           arguments.profile, arguments.json};
    return runDevices(options);
  }
  if (app.got_subcommand("grad")) {
    GradOptions options{arguments.inputPath, arguments.entry,
                        arguments.argSpecs, arguments.wrt,
                        arguments.outputPath};
    return runGrad(options);
  }
  reportError("no subcommand (see tilec --help)");
  return ExitUsageError;
}
