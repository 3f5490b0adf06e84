//===- PlanMemoryPass.cpp - tile-plan-memory ------------------------------===//

#include "PassDetail.h"

#include "KernelAnalysis.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace tilec {
#define GEN_PASS_DECL_TILEPLANMEMORY
#define GEN_PASS_DEF_TILEPLANMEMORY
#include "tilec/Lowering/Passes.h.inc"
} // namespace tilec

namespace {

struct PlanMemoryPass : public tilec::impl::TilePlanMemoryBase<PlanMemoryPass> {
  using TilePlanMemoryBase::TilePlanMemoryBase;
  PlanMemoryPass() = default;
  explicit PlanMemoryPass(std::optional<DeviceProfile> profile)
      : givenProfile(std::move(profile)) {}

  void runOnOperation() override {
    FailureOr<KernelPassInput> input =
        readKernelPassInput(givenProfile, profilePath, getOperation());
    if (failed(input))
      return signalPassFailure();
    KernelAnalysis analysis(input->function, input->plan, input->profile);
    if (failed(analysis.analyse(/*chooseSchedules=*/false)) ||
        failed(analysis.planToFitMemory()))
      return signalPassFailure();
    analysis.writeMemoryPlan();
    writeKernels(input->function, input->plan);
  }

  std::optional<DeviceProfile> givenProfile;
};

} // namespace

std::unique_ptr<Pass>
tilec::createPlanMemoryPass(std::optional<DeviceProfile> profile) {
  return std::make_unique<PlanMemoryPass>(std::move(profile));
}
