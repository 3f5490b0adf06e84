//===- Passes.cpp - Lowering's passes, pipeline and registration ----------===//
//
// tile-opt runs each pass alone, or `--tile-lower-to-kernels` for the six
// in order; the compiler's pipeline adds them for its device profile. A
// pass run from tile-opt schedules for a built-in reference profile,
// overridden by a JSON profile file so that tests can pretend to be any
// device.
//
//===----------------------------------------------------------------------===//

#include "PassDetail.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace tilec;

DeviceProfile tilec::getReferenceProfile() {
  DeviceProfile profile;
  profile.name = "reference";
  profile.type = DeviceType::GPU;
  profile.maxWorkGroupSize = 256;
  profile.maxWorkItemSizes = {256, 256, 64};
  profile.localMemBytes = 32 * 1024;
  profile.computeUnits = 16;
  profile.maxAllocBytes = uint64_t(1) << 30;
  profile.globalMemBytes = uint64_t(4) << 30;
  profile.supportsFp64 = true;
  return profile;
}

FailureOr<DeviceProfile>
tilec::resolveProfile(const std::optional<DeviceProfile> &given, StringRef path,
                      Operation *op) {
  if (given)
    return *given;
  DeviceProfile profile = getReferenceProfile();
  if (!path.empty()) {
    Status status = applyProfileFile(profile, path.str());
    if (!status.ok())
      return emitError(op->getLoc()) << status.error().message();
  }
  return profile;
}

FailureOr<KernelPassInput>
tilec::readKernelPassInput(const std::optional<DeviceProfile> &given,
                           StringRef path, ModuleOp module) {
  FailureOr<DeviceProfile> profile = resolveProfile(given, path, module);
  if (failed(profile))
    return failure();
  FailureOr<func::FuncOp> function = lowering::getTileFunction(module);
  if (failed(function))
    return failure();
  FailureOr<lowering::KernelPlan> plan = lowering::readKernels(*function);
  if (failed(plan))
    return failure();
  return KernelPassInput{std::move(*profile), *function, std::move(*plan)};
}

void tilec::buildLoweringPipeline(OpPassManager &pm,
                                  const DeviceProfile &profile,
                                  llvm::raw_ostream *explain) {
  pm.addPass(createMergeCommonExpressionsPass());
  pm.addPass(createFormKernelsPass(profile));
  pm.addPass(createSchedulePass(profile));
  pm.addPass(createPlanMemoryPass(profile));
  pm.addPass(createLowerToKernelIRPass(profile, explain));
  pm.addPass(createWidenNarrowIntegerReadsPass());
}

namespace {

struct LowerToKernelsOptions
    : public PassPipelineOptions<LowerToKernelsOptions> {
  Option<std::string> profilePath{
      *this, "profile",
      llvm::cl::desc("JSON device profile overriding the reference profile")};
  Option<bool> explain{*this, "explain",
                       llvm::cl::desc("Print each kernel's schedule to stderr"),
                       llvm::cl::init(false)};
};

/// The option string that gives a pass of the pipeline `options`.
std::string getPassOptions(const LowerToKernelsOptions &options,
                           bool withExplain) {
  std::string text;
  if (!options.profilePath.empty())
    text += "profile=" + options.profilePath.getValue();
  if (withExplain && options.explain)
    text += std::string(text.empty() ? "" : " ") + "explain=true";
  return text;
}

} // namespace

void tilec::registerLoweringPasses() {
  registerPass([] { return createMergeCommonExpressionsPass(); });
  registerPass([] { return createFormKernelsPass(); });
  registerPass([] { return createSchedulePass(); });
  registerPass([] { return createPlanMemoryPass(); });
  registerPass([] { return createLowerToKernelIRPass(); });
  registerPass([] { return createWidenNarrowIntegerReadsPass(); });
  PassPipelineRegistration<LowerToKernelsOptions>(
      "tile-lower-to-kernels",
      "Fuse, schedule and lower a tile function to the kernel IR (the six "
      "passes of lowering in order)",
      [](OpPassManager &pm, const LowerToKernelsOptions &options) {
        auto configure = [&](std::unique_ptr<Pass> pass, bool withExplain) {
          // The options are valid: they are the passes' own.
          (void)pass->initializeOptions(
              getPassOptions(options, withExplain),
              [](const Twine &) { return failure(); });
          return pass;
        };
        pm.addPass(createMergeCommonExpressionsPass());
        pm.addPass(configure(createFormKernelsPass(), false));
        pm.addPass(configure(createSchedulePass(), false));
        pm.addPass(configure(createPlanMemoryPass(), false));
        pm.addPass(configure(createLowerToKernelIRPass(), true));
        pm.addPass(createWidenNarrowIntegerReadsPass());
      });
}
