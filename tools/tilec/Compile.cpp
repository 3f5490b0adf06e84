//===- Compile.cpp - `tilec compile` --------------------------------------===//

#include "Driver.h"

#include "tilec/Compiler/Pipeline.h"
#include "tilec/Conversion/ProgramToTile.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Target/SPIRV/SPIRV.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/iterator.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace llvm;

namespace tilec {

/// Prints the `--emit tile|mlir` forms, which need no device.
static bool printSourceForm(const CompileCommand &command,
                            const Program &program, SourceMgr &sourceMgr,
                            raw_ostream &os) {
  if (command.emit == EmitKind::Tile) {
    printProgram(program, os);
    return true;
  }
  mlir::MLIRContext context;
  context.loadDialect<tile::TileDialect, mlir::func::FuncDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      emitTileModule(context, program, sourceMgr);
  if (!module)
    return false;
  mlir::OpPrintingFlags flags;
  if (command.printLocations)
    flags.enableDebugInfo().useLocalScope();
  module->print(os, flags);
  return true;
}

/// The backend `--backend` names, or (without it) the one whose code
/// `--emit` prints: Vulkan for SPIR-V, Metal for MSL, else OpenCL. Reports
/// an unknown name, or code that the named backend does not run.
static std::optional<CompileBackend>
chooseCompileBackend(const CompileCommand &command) {
  std::optional<CompileBackend> implied;
  if (command.emit == EmitKind::OpenCL)
    implied = CompileBackend::OpenCL;
  else if (command.emit == EmitKind::Spirv ||
           command.emit == EmitKind::SpirvAsm)
    implied = CompileBackend::Vulkan;
  else if (command.emit == EmitKind::Msl)
    implied = CompileBackend::Metal;
  if (command.backend.empty())
    return implied.value_or(CompileBackend::OpenCL);

  std::optional<CompileBackend> named =
      StringSwitch<std::optional<CompileBackend>>(command.backend)
          .Case("opencl", CompileBackend::OpenCL)
          .Case("vulkan", CompileBackend::Vulkan)
          .Case("metal", CompileBackend::Metal)
          .Default(std::nullopt);
  if (!named) {
    reportError("unknown backend '" + command.backend +
                "' (available: opencl, vulkan, metal)");
    return std::nullopt;
  }
  if (implied && implied != named) {
    static const char *const code[] = {"OpenCL C (--emit opencl)",
                                       "SPIR-V (--emit spirv or spirv-asm)",
                                       "MSL (--emit msl)"};
    reportError("--backend " + command.backend + " runs " +
                code[static_cast<int>(*named)] + ", not what --emit prints");
    return std::nullopt;
  }
  return named;
}

/// The code the bundle must carry for `--emit`: that target's alone, or
/// `--target`'s list for a bundle; by default the named backend's code, or
/// without `--backend` OpenCL C and SPIR-V, what the runtime's backends run.
static CompileTargets chooseTargets(const CompileCommand &command,
                                    CompileBackend backend) {
  switch (command.emit) {
  case EmitKind::Spirv:
  case EmitKind::SpirvAsm:
    return {/*openCL=*/false, /*spirv=*/true, /*msl=*/false};
  case EmitKind::Msl:
    return {/*openCL=*/false, /*spirv=*/false, /*msl=*/true};
  case EmitKind::Bundle:
    break;
  default:
    // OpenCL C, or --explain alone (the schedule is every target's).
    return {/*openCL=*/true, /*spirv=*/false, /*msl=*/false};
  }
  if (command.targets.empty() && command.backend.empty())
    return {/*openCL=*/true, /*spirv=*/true, /*msl=*/false};
  if (command.targets.empty())
    return {/*openCL=*/backend == CompileBackend::OpenCL,
            /*spirv=*/backend == CompileBackend::Vulkan,
            /*msl=*/backend == CompileBackend::Metal};
  CompileTargets targets{/*openCL=*/false, /*spirv=*/false, /*msl=*/false};
  for (TargetKind target : command.targets) {
    targets.openCL |= target == TargetKind::OpenCL;
    targets.spirv |= target == TargetKind::Spirv;
    targets.msl |= target == TargetKind::Msl;
  }
  return targets;
}

/// Writes the SPIR-V module's words as little-endian bytes, as every SPIR-V
/// consumer reads a file.
static void writeSPIRVBinary(llvm::ArrayRef<uint32_t> words, raw_ostream &os) {
  for (uint32_t word : words) {
    char bytes[4];
    support::endian::write32le(bytes, word);
    os.write(bytes, sizeof(bytes));
  }
}

/// "k0_T, k1_C", for messages.
template <class Range>
static std::string joinKernelNames(const Range &kernels) {
  std::string names;
  for (const BundleKernel &kernel : kernels)
    names += (names.empty() ? "" : ", ") + kernel.name;
  return names;
}

/// The kernels to print: the one `--kernel` names, else all, in launch
/// order; nullopt after reporting a name that is no kernel's.
static std::optional<std::vector<const BundleKernel *>>
selectKernels(const Bundle &bundle, StringRef name) {
  std::vector<const BundleKernel *> kernels;
  for (const BundleKernel &kernel : bundle.kernels)
    if (name.empty() || kernel.name == name)
      kernels.push_back(&kernel);
  if (kernels.empty() && !name.empty()) {
    reportError("--kernel " + name.str() +
                ": the program has no kernel of that name; its kernels are " +
                joinKernelNames(bundle.kernels));
    return std::nullopt;
  }
  return kernels;
}

/// Prints the kernels' MSL.
static void printMSL(ArrayRef<const BundleKernel *> kernels, raw_ostream &os) {
  for (const BundleKernel *kernel : kernels) {
    if (kernel != kernels.front())
      os << "\n";
    os << kernel->msl;
  }
}

/// Prints the kernels' SPIR-V modules as assembly, each headed by a
/// `; Kernel <name>` line.
static bool printSPIRVModules(ArrayRef<const BundleKernel *> kernels,
                              raw_ostream &os) {
  for (const BundleKernel *kernel : kernels) {
    os << "; Kernel " << kernel->name << "\n";
    std::string error;
    if (failed(printSPIRVAssembly(kernel->spirv, os, error))) {
      reportError("cannot disassemble the SPIR-V module of kernel '" +
                  kernel->name + "': " + error);
      return false;
    }
  }
  return true;
}

int runCompile(const CompileCommand &command) {
  if (command.emit == EmitKind::None && !command.explain &&
      !command.printIRAfterAll) {
    reportError("nothing to do: pass --emit "
                "tile|mlir|opencl|spirv|spirv-asm|msl|bundle, --explain or "
                "--print-ir-after-all");
    return ExitUsageError;
  }
  if (!command.targets.empty() && command.emit != EmitKind::Bundle) {
    reportError("--target chooses the code of a bundle: it needs --emit "
                "bundle");
    return ExitUsageError;
  }
  if (!command.kernel.empty() && command.emit != EmitKind::Spirv &&
      command.emit != EmitKind::SpirvAsm && command.emit != EmitKind::Msl) {
    reportError("--kernel chooses the kernel to print: it needs --emit spirv, "
                "spirv-asm or msl");
    return ExitUsageError;
  }
  // Like clang: a binary on a terminal helps nobody and may upset it.
  if (command.emit == EmitKind::Spirv && command.outputPath == "-" &&
      sys::Process::StandardOutIsDisplayed()) {
    reportError("refusing to write a SPIR-V binary to the terminal: pass "
                "-o FILE, or --emit spirv-asm to read it");
    return ExitUsageError;
  }
  std::optional<CompileBackend> backend = chooseCompileBackend(command);
  if (!backend)
    return ExitUsageError;
  std::unique_ptr<MemoryBuffer> source = readSourceFile(command.inputPath);
  if (!source)
    return ExitProgramError;

  SourceMgr sourceMgr;
  int exitCode = ExitProgramError;
  auto bind = [&](const ast::Function &function) {
    std::optional<std::vector<ArgBinding>> bindings =
        bindParamsFromArgs(command.argSpecs, function);
    if (!bindings)
      exitCode = ExitUsageError;
    return bindings;
  };
  std::optional<Program> program;
  std::optional<Bundle> bundle;
  if (command.explain || command.printIRAfterAll ||
      (command.emit != EmitKind::None && command.emit != EmitKind::Tile &&
       command.emit != EmitKind::Mlir)) {
    PipelineHooks hooks;
    if (command.printIRAfterAll)
      hooks.printIRAfterAll = &errs();
    std::optional<CompiledSource> compiled = compileSource(
        std::move(source), command.entry, bind,
        [&](const Program &) {
          std::optional<DeviceProfile> profile =
              chooseTargetProfile(*backend, command.device, command.profile);
          if (!profile)
            exitCode = ExitDeviceError;
          return profile;
        },
        chooseTargets(command, *backend), sourceMgr, hooks);
    if (!compiled)
      return exitCode;
    program = std::move(compiled->program);
    bundle = std::move(compiled->bundle);
  } else {
    program =
        specializeSource(std::move(source), command.entry, bind, sourceMgr);
    if (!program)
      return exitCode;
  }
  if (command.explain)
    outs() << bundle->explanation;
  if (command.emit == EmitKind::None)
    return ExitSuccess;

  // A bundle file is written atomically: a tool that picks it up never sees
  // half of one.
  if (command.emit == EmitKind::Bundle && command.outputPath != "-") {
    if (Status status = writeBundle(command.outputPath, *bundle); !status) {
      reportError(status.error().message());
      return ExitProgramError;
    }
    return ExitSuccess;
  }

  std::vector<const BundleKernel *> kernels;
  if (command.emit == EmitKind::Spirv || command.emit == EmitKind::SpirvAsm ||
      command.emit == EmitKind::Msl) {
    std::optional<std::vector<const BundleKernel *>> selected =
        selectKernels(*bundle, command.kernel);
    if (!selected)
      return ExitUsageError;
    kernels = std::move(*selected);
  }
  // A SPIR-V binary is one module, and each kernel has its own.
  if (command.emit == EmitKind::Spirv && kernels.size() != 1) {
    reportError("the program has " + std::to_string(kernels.size()) +
                " kernels, each a SPIR-V module of its own: choose one with "
                "--kernel (" +
                joinKernelNames(make_pointee_range(kernels)) +
                "), or --emit spirv-asm for all");
    return ExitUsageError;
  }

  std::error_code ec;
  ToolOutputFile output(command.outputPath, ec,
                        command.emit == EmitKind::Spirv ? sys::fs::OF_None
                                                        : sys::fs::OF_Text);
  if (ec) {
    reportError("cannot write '" + command.outputPath + "': " + ec.message());
    return ExitProgramError;
  }
  if (command.emit == EmitKind::OpenCL) {
    output.os() << bundle->openclSource;
  } else if (command.emit == EmitKind::Spirv) {
    writeSPIRVBinary(kernels.front()->spirv, output.os());
  } else if (command.emit == EmitKind::SpirvAsm) {
    if (!printSPIRVModules(kernels, output.os()))
      return ExitProgramError;
  } else if (command.emit == EmitKind::Msl) {
    printMSL(kernels, output.os());
  } else if (command.emit == EmitKind::Bundle) {
    output.os() << serializeBundle(*bundle);
  } else if (!printSourceForm(command, *program, sourceMgr, output.os())) {
    return ExitProgramError;
  }
  output.keep();
  return ExitSuccess;
}

} // namespace tilec
