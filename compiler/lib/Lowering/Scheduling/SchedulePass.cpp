//===- SchedulePass.cpp - tile-schedule -----------------------------------===//

#include "PassDetail.h"

#include "KernelAnalysis.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace tilec {
#define GEN_PASS_DECL_TILESCHEDULE
#define GEN_PASS_DEF_TILESCHEDULE
#include "tilec/Lowering/Passes.h.inc"
} // namespace tilec

namespace {

struct SchedulePass : public tilec::impl::TileScheduleBase<SchedulePass> {
  using TileScheduleBase::TileScheduleBase;
  SchedulePass() = default;
  explicit SchedulePass(std::optional<DeviceProfile> profile)
      : givenProfile(std::move(profile)) {}

  void runOnOperation() override {
    FailureOr<DeviceProfile> profile =
        resolveProfile(givenProfile, profilePath, getOperation());
    if (failed(profile))
      return signalPassFailure();
    FailureOr<func::FuncOp> function = getTileFunction(getOperation());
    if (failed(function))
      return signalPassFailure();
    FailureOr<KernelPlan> plan = readKernels(*function);
    if (failed(plan))
      return signalPassFailure();
    KernelAnalysis analysis(*function, *plan, *profile);
    if (failed(analysis.analyse(/*chooseSchedules=*/true)))
      return signalPassFailure();
    analysis.writeSchedules();
    writeKernels(*function, *plan);
  }

  std::optional<DeviceProfile> givenProfile;
};

} // namespace

std::unique_ptr<Pass>
tilec::createSchedulePass(std::optional<DeviceProfile> profile) {
  return std::make_unique<SchedulePass>(std::move(profile));
}
