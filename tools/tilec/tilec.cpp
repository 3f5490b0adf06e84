//===- tilec.cpp - The tilec command-line driver --------------------------===//
//
// tilec compile FILE.tile --arg NAME=DTYPE[dims] ...
//               [--emit tile|mlir|opencl|spirv|spirv-asm|msl|bundle]
//               [--target opencl,spirv,msl] [--kernel NAME] [--explain]
//               [-o OUT]
// tilec run FILE.tile [--in NAME=FILE.npy | --arg ... --random] [--out DIR]
//                     [--backend opencl|vulkan|reference] [--check]
// tilec bench FILE.tile --arg NAME=DTYPE[dims] ... [--repeat N]
//                       [--backend opencl|vulkan]
// tilec devices [--json [--backend opencl|vulkan]]
// compile, run, bench and devices take --device SEL and --profile FILE.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "Grad.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tilec;

static cl::OptionCategory tilecCategory("tilec options");

static cl::SubCommand compileCommand("compile",
                                     "Compile a .tile function and print it");
static cl::SubCommand
    runCommand("run", "Run a .tile function on .npy or random inputs");
static cl::SubCommand
    benchCommand("bench", "Time a .tile function's kernels on a device");
static cl::SubCommand
    devicesCommand("devices",
                   "List the OpenCL and Vulkan devices and their profiles");

static cl::opt<std::string>
    inputPath(cl::Positional, cl::Required, cl::desc("<file.tile>"),
              cl::sub(compileCommand), cl::sub(runCommand),
              cl::sub(benchCommand), cl::cat(tilecCategory));
static cl::opt<std::string>
    entry("entry", cl::desc("The function to use when the file holds several"),
          cl::value_desc("name"), cl::sub(compileCommand), cl::sub(runCommand),
          cl::sub(benchCommand), cl::cat(tilecCategory));
static cl::list<std::string>
    argSpecs("arg", cl::desc("Bind an input's dtype and shape"),
             cl::value_desc("NAME=DTYPE[d0,d1,...]"), cl::sub(compileCommand),
             cl::sub(runCommand), cl::sub(benchCommand),
             cl::cat(tilecCategory));
static cl::opt<std::string> device(
    "device",
    cl::desc("The device of the backend: an index or a substring of its "
             "name (see tilec devices); default: the first GPU, else the "
             "first CPU"),
    cl::value_desc("SEL"), cl::sub(compileCommand), cl::sub(runCommand),
    cl::sub(benchCommand), cl::sub(devicesCommand), cl::cat(tilecCategory));
static cl::opt<std::string> profile(
    "profile",
    cl::desc("A JSON device profile that overrides the device's (or, "
             "compiling on a machine without devices, describes the target)"),
    cl::value_desc("FILE"), cl::sub(compileCommand), cl::sub(runCommand),
    cl::sub(benchCommand), cl::sub(devicesCommand), cl::cat(tilecCategory));

static cl::opt<EmitKind> emit(
    "emit", cl::desc("What to print"), cl::init(EmitKind::None),
    cl::values(clEnumValN(EmitKind::Tile, "tile",
                          "the specialised Tile program"),
               clEnumValN(EmitKind::Mlir, "mlir", "the `tile` MLIR dialect"),
               clEnumValN(EmitKind::OpenCL, "opencl",
                          "the OpenCL C of the kernels, for the device"),
               clEnumValN(EmitKind::Spirv, "spirv",
                          "a kernel's Vulkan SPIR-V module (binary)"),
               clEnumValN(EmitKind::SpirvAsm, "spirv-asm",
                          "every kernel's Vulkan SPIR-V module (assembly)"),
               clEnumValN(EmitKind::Msl, "msl",
                          "the Metal Shading Language of every kernel"),
               clEnumValN(EmitKind::Bundle, "bundle",
                          "the kernel bundle that tile-run executes")),
    cl::sub(compileCommand), cl::cat(tilecCategory));
static cl::list<TargetKind> targets(
    "target",
    cl::desc("With --emit bundle, the code it carries (default: "
             "opencl,spirv)"),
    cl::CommaSeparated,
    cl::values(clEnumValN(TargetKind::OpenCL, "opencl", "OpenCL C"),
               clEnumValN(TargetKind::Spirv, "spirv", "SPIR-V for Vulkan"),
               clEnumValN(TargetKind::Msl, "msl", "MSL for Metal")),
    cl::sub(compileCommand), cl::cat(tilecCategory));
static cl::opt<std::string> kernel(
    "kernel",
    cl::desc("With --emit spirv, spirv-asm or msl, the one kernel to print "
             "(--emit spirv needs it for a program of several kernels)"),
    cl::value_desc("name"), cl::sub(compileCommand), cl::cat(tilecCategory));
static cl::opt<bool>
    explain("explain",
            cl::desc("Print each kernel's schedule for the device, and why"),
            cl::sub(compileCommand), cl::cat(tilecCategory));
static cl::opt<bool> printLocations(
    "print-locations",
    cl::desc("With --emit mlir, print each op's .tile source location"),
    cl::sub(compileCommand), cl::cat(tilecCategory));
static cl::opt<std::string> outputPath("o", cl::desc("Output file"),
                                       cl::value_desc("path"), cl::init("-"),
                                       cl::sub(compileCommand),
                                       cl::cat(tilecCategory));

static cl::list<std::string> inputFiles("in", cl::desc("An input's data"),
                                        cl::value_desc("NAME=FILE.npy"),
                                        cl::sub(runCommand),
                                        cl::cat(tilecCategory));
static cl::opt<bool>
    randomInputs("random",
                 cl::desc("Fill inputs bound by --arg with random "
                          "values"),
                 cl::sub(runCommand), cl::cat(tilecCategory));
static cl::opt<uint64_t>
    seed("seed",
         cl::desc("Seed of the random inputs (run: --random; bench: always)"),
         cl::init(1), cl::sub(runCommand), cl::sub(benchCommand),
         cl::cat(tilecCategory));
static cl::opt<std::string>
    outDir("out", cl::desc("Write every output to DIR/<output>.npy"),
           cl::value_desc("DIR"), cl::sub(runCommand), cl::cat(tilecCategory));
static cl::opt<std::string> backend(
    "backend",
    cl::desc("Where to run: an OpenCL or a Vulkan device, or (run only) the "
             "reference interpreter"),
    cl::value_desc("opencl|vulkan|reference"), cl::init("opencl"),
    cl::sub(runCommand), cl::sub(benchCommand), cl::sub(devicesCommand),
    cl::cat(tilecCategory));
static cl::opt<bool>
    check("check",
          cl::desc("Compare every output with the reference interpreter"),
          cl::sub(runCommand), cl::cat(tilecCategory));
static cl::opt<bool>
    memoryReport("memory-report",
                 cl::desc("Print the most device memory the run held at once"),
                 cl::sub(runCommand), cl::cat(tilecCategory));

static cl::opt<unsigned> repeat("repeat",
                                cl::desc("Timed runs after the warm-up"),
                                cl::init(10), cl::sub(benchCommand),
                                cl::cat(tilecCategory));

static cl::opt<bool>
    printJson("json",
              cl::desc("Print the chosen device's profile as JSON (the form "
                       "--profile reads)"),
              cl::sub(devicesCommand), cl::cat(tilecCategory));

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  for (cl::SubCommand *sub : {&cl::SubCommand::getTopLevel(), &compileCommand,
                              &runCommand, &benchCommand, &devicesCommand})
    cl::HideUnrelatedOptions(tilecCategory, *sub);
  prepareGradCommand();
  cl::SetVersionPrinter(
      [](raw_ostream &os) { os << "tilec " << TILEC_VERSION << "\n"; });

  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "tilec: compiles Tile tensor programs to GPU kernels\n\n"
          "  tilec compile FILE.tile --arg A=f32[64,32] ... "
          "--emit tile|mlir|opencl|spirv|spirv-asm|msl|bundle\n"
          "  tilec run FILE.tile --in A=a.npy ... [--out DIR] [--check]\n"
          "  tilec run FILE.tile --arg A=f32[64,32] ... --random "
          "[--backend vulkan]\n"
          "  tilec bench FILE.tile --arg A=f32[64,32] ... [--repeat N]\n"
          "  tilec devices\n\n"
          "  `tilec SUBCOMMAND --help` lists a subcommand's options.\n",
          &errs()))
    return ExitUsageError;

  if (compileCommand) {
    CompileOptions options{inputPath,  entry,  argSpecs,       emit,
                           targets,    kernel, printLocations, explain,
                           outputPath, device, profile};
    return runCompile(options);
  }
  if (runCommand) {
    InputOptions inputs{argSpecs, inputFiles, randomInputs, seed};
    RunOptions options{inputPath, entry,  inputs,  outDir,      backend,
                       check,     device, profile, memoryReport};
    return runRun(options);
  }
  if (benchCommand) {
    BenchOptions options{inputPath, entry,   argSpecs, seed,
                         repeat,    backend, device,   profile};
    return runBench(options);
  }
  if (std::optional<int> status = runGradIfChosen())
    return *status;
  if (devicesCommand) {
    DevicesOptions options{backend, device, profile, printJson};
    return runDevices(options);
  }
  errs() << "tilec: no subcommand (see tilec --help)\n";
  return ExitUsageError;
}
