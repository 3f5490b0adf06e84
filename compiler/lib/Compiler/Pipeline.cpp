//===- Pipeline.cpp - From a specialised program to a bundle --------------===//

#include "tilec/Compiler/Pipeline.h"

#include "tilec/Bundle/BundleExtraction.h"
#include "tilec/Conversion/ProgramToTile.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Lowering/Lowering.h"
#include "tilec/Target/MSL/MSL.h"
#include "tilec/Target/SPIRV/SPIRV.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Threading.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tilec {

/// The .tile position of `loc`: the first file location inside it.
static llvm::SMLoc findSourceLoc(Location loc, llvm::SourceMgr &sourceMgr) {
  std::optional<FileLineColLoc> fileLoc;
  loc->walk([&](Location inner) {
    if (auto found = dyn_cast<FileLineColLoc>(inner)) {
      fileLoc = found;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!fileLoc)
    return {};
  for (unsigned id = 1; id <= sourceMgr.getNumBuffers(); ++id)
    if (sourceMgr.getMemoryBuffer(id)->getBufferIdentifier() ==
        fileLoc->getFilename().strref())
      return sourceMgr.FindLocForLineAndColumn(id, fileLoc->getLine(),
                                               fileLoc->getColumn());
  return {};
}

static llvm::SourceMgr::DiagKind getDiagKind(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return llvm::SourceMgr::DK_Error;
  case DiagnosticSeverity::Warning:
    return llvm::SourceMgr::DK_Warning;
  case DiagnosticSeverity::Note:
    return llvm::SourceMgr::DK_Note;
  case DiagnosticSeverity::Remark:
    return llvm::SourceMgr::DK_Remark;
  }
  return llvm::SourceMgr::DK_Error;
}

/// Reports an MLIR diagnostic through the SourceMgr, as every other
/// diagnostic of the compiler is reported (so a handler installed there, the
/// JIT's, sees these too).
static void reportThroughSourceMgr(Diagnostic &diag,
                                   llvm::SourceMgr &sourceMgr) {
  sourceMgr.PrintMessage(findSourceLoc(diag.getLocation(), sourceMgr),
                         getDiagKind(diag.getSeverity()), diag.str());
  for (Diagnostic &note : diag.getNotes())
    sourceMgr.PrintMessage(findSourceLoc(note.getLocation(), sourceMgr),
                           llvm::SourceMgr::DK_Note, note.str());
}

/// Runs `stage`, a step that only sees IR the compiler produced, so that
/// any error it reports is a compiler bug. The diagnostics it emits (a
/// verifier's text, which means nothing to a user) are not shown: the
/// location of the first error is kept in `errorLoc`. Fails where the stage
/// failed or reported an error.
static LogicalResult
captureInternalErrors(MLIRContext &context, std::optional<Location> &errorLoc,
                      llvm::function_ref<LogicalResult()> stage) {
  LogicalResult result = success();
  {
    ScopedDiagnosticHandler capture(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error && !errorLoc)
        errorLoc = diag.getLocation();
      return success();
    });
    result = stage();
  }
  return success(succeeded(result) && !errorLoc);
}

/// Reports that the internal stage `what` failed, as one internal error at
/// the source location of its first error.
static void reportInternalError(llvm::SourceMgr &sourceMgr, const Twine &what,
                                std::optional<Location> errorLoc) {
  llvm::SMLoc at =
      errorLoc ? findSourceLoc(*errorLoc, sourceMgr) : llvm::SMLoc();
  sourceMgr.PrintMessage(at, llvm::SourceMgr::DK_Error,
                         "internal error: " + what +
                             " failed; this is a bug in tilec, please report "
                             "it with the program and the command line");
}

/// Runs the internal stage `what` (captureInternalErrors), reporting its
/// failure.
static LogicalResult
runInternalStage(MLIRContext &context, llvm::SourceMgr &sourceMgr,
                 StringRef what, llvm::function_ref<LogicalResult()> stage) {
  std::optional<Location> errorLoc;
  if (succeeded(captureInternalErrors(context, errorLoc, stage)))
    return success();
  reportInternalError(sourceMgr, what, errorLoc);
  return failure();
}

/// Fills each kernel's SPIR-V module for `profile`'s device and, when asked,
/// its MSL, from the kernel IR's gpu.module. Errors are reported at the
/// kernels. Where there are several kernels, they are translated at once on
/// the threads of `pool`: each translation works on a clone of its kernel,
/// and the translations share nothing but the context (docs/codegen.md,
/// "Compile time").
static LogicalResult addSPIRVAndMSL(ModuleOp module,
                                    const DeviceProfile &profile, bool msl,
                                    Bundle &bundle, llvm::SourceMgr &sourceMgr,
                                    llvm::ThreadPoolInterface &pool) {
  auto kernelModules = module.getOps<gpu::GPUModuleOp>();
  if (llvm::range_size(kernelModules) != 1)
    return module.emitError("expected one gpu.module in the kernel IR");
  gpu::GPUModuleOp kernels = *kernelModules.begin();
  SmallVector<gpu::GPUFuncOp> funcs;
  for (BundleKernel &kernel : bundle.kernels) {
    auto func = kernels.lookupSymbol<gpu::GPUFuncOp>(kernel.name);
    if (!func)
      return kernels.emitError("no kernel named '") << kernel.name << "'";
    funcs.push_back(func);
  }

  MLIRContext &context = *module.getContext();
  bool parallel = funcs.size() > 1 && pool.getMaxConcurrency() > 1;
  if (parallel) {
    loadSPIRVTranslationDialects(context);
    context.setThreadPool(pool);
  }
  // A translation that did not run (one before it failed) stays empty.
  std::vector<std::optional<FailureOr<std::vector<uint32_t>>>> words(
      funcs.size());
  std::optional<Location> errorLoc;
  LogicalResult translated = captureInternalErrors(context, errorLoc, [&] {
    return failableParallelForEachN(&context, 0, funcs.size(), [&](size_t i) {
      words[i] = translateToSPIRV(funcs[i], profile);
      return LogicalResult(*words[i]);
    });
  });
  if (parallel)
    context.disableMultithreading();
  if (failed(translated)) {
    // The first kernel that failed, in the order of the bundle: the errors
    // of parallel translations come in that order too.
    std::string what = "the SPIR-V conversion of the kernels";
    for (auto [kernel, spirv] : llvm::zip(bundle.kernels, words))
      if (spirv && failed(*spirv)) {
        what = "the SPIR-V conversion of kernel '" + kernel.name + "'";
        break;
      }
    reportInternalError(sourceMgr, what, errorLoc);
    return failure();
  }

  for (auto [kernel, func, spirv] : llvm::zip(bundle.kernels, funcs, words)) {
    kernel.spirv = std::move(**spirv);
    if (!msl)
      continue;
    FailureOr<std::string> source = translateToMSL(func, kernel.spirv);
    if (failed(source))
      return failure();
    kernel.msl = std::move(*source);
  }
  return success();
}

std::optional<Bundle> compileProgram(const Program &program,
                                     const DeviceProfile &profile,
                                     llvm::SourceMgr &sourceMgr,
                                     const CompileTargets &targets,
                                     const PipelineHooks &hooks) {
  // No thread pool for the context: the lowering's passes run on one
  // module, so a pool would only cost its threads, once per compile (the JIT
  // runs many compiles at once, each on its caller's thread). Only the
  // translation of several kernels to SPIR-V uses `pool`, which starts its
  // threads when given work, and must outlive the context.
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(hooks.spirvThreads));
  MLIRContext context(MLIRContext::Threading::DISABLED);
  context.loadDialect<tile::TileDialect, func::FuncDialect, gpu::GPUDialect,
                      scf::SCFDialect, arith::ArithDialect, math::MathDialect,
                      memref::MemRefDialect, spirv::SPIRVDialect,
                      vector::VectorDialect>();
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    reportThroughSourceMgr(diag, sourceMgr);
    return success();
  });

  OwningOpRef<ModuleOp> module = emitTileModule(context, program, sourceMgr);
  if (!module)
    return std::nullopt;
  auto verifyModule = [&](StringRef what) {
    return runInternalStage(context, sourceMgr, what,
                            [&] { return verify(*module); });
  };
  if (hooks.afterTileModule)
    hooks.afterTileModule(*module);
  if (failed(verifyModule("verifying the `tile` module")))
    return std::nullopt;

  std::string explanation;
  llvm::raw_string_ostream explain(explanation);
  // Lowering's passes (docs/scheduler.md); they report their errors through
  // the handler. The kernel IR is verified below, as an internal stage.
  PassManager lowering(&context);
  lowering.enableVerifier(false);
  buildLoweringPipeline(lowering, profile, &explain);
  if (hooks.printIRAfterAll) {
    // As mlir-opt's --mlir-print-ir-after-all prints it, with the module the
    // first pass starts from.
    *hooks.printIRAfterAll << "// -----// IR Dump Before lowering (the `tile` "
                              "module) //----- //\n"
                           << *module << "\n\n";
    lowering.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
        /*shouldPrintAfterPass=*/[](Pass *, Operation *) { return true; },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false, *hooks.printIRAfterAll);
  }
  if (failed(lowering.run(*module)))
    return std::nullopt;
  if (hooks.afterLowering)
    hooks.afterLowering(*module);
  if (failed(verifyModule("verifying the kernel IR")))
    return std::nullopt;

  std::optional<Bundle> bundle;
  if (failed(runInternalStage(context, sourceMgr, "extracting the bundle", [&] {
        bundle = extractBundle(*module, "tilec " TILEC_VERSION, targets);
        return success(bundle.has_value());
      })))
    return std::nullopt;
  bundle->explanation = std::move(explanation);
  // Only when asked: an OpenCL user does not pay for the SPIR-V conversion.
  if ((targets.spirv || targets.msl) &&
      failed(addSPIRVAndMSL(*module, profile, targets.msl, *bundle, sourceMgr,
                            pool)))
    return std::nullopt;
  return bundle;
}

} // namespace tilec
