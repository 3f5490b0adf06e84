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
    FailureOr<KernelPassInput> input =
        readKernelPassInput(givenProfile, profilePath, getOperation());
    if (failed(input))
      return signalPassFailure();
    KernelAnalysis analysis(input->function, input->plan, input->profile);
    if (failed(analysis.analyse(/*chooseSchedules=*/true)))
      return signalPassFailure();
    analysis.writeSchedules();
    writeKernels(input->function, input->plan);
  }

  std::optional<DeviceProfile> givenProfile;
};

} // namespace

std::unique_ptr<Pass>
tilec::createSchedulePass(std::optional<DeviceProfile> profile) {
  return std::make_unique<SchedulePass>(std::move(profile));
}
