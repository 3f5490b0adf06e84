//===- FormKernelsPass.cpp - tile-form-kernels ----------------------------===//

#include "PassDetail.h"

#include "tilec/Lowering/KernelFormation.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace tilec {
#define GEN_PASS_DECL_TILEFORMKERNELS
#define GEN_PASS_DEF_TILEFORMKERNELS
#include "tilec/Lowering/Passes.h.inc"
} // namespace tilec

namespace {

struct FormKernelsPass
    : public tilec::impl::TileFormKernelsBase<FormKernelsPass> {
  using TileFormKernelsBase::TileFormKernelsBase;
  FormKernelsPass() = default;
  explicit FormKernelsPass(std::optional<DeviceProfile> profile)
      : givenProfile(std::move(profile)) {}

  void runOnOperation() override {
    FailureOr<DeviceProfile> profile =
        resolveProfile(givenProfile, profilePath, getOperation());
    if (failed(profile))
      return signalPassFailure();
    FailureOr<func::FuncOp> function = getTileFunction(getOperation());
    if (failed(function))
      return signalPassFailure();
    for (Operation &op : function->getBody().front())
      if (isa<tile::KernelOp>(op)) {
        op.emitError("kernels are already formed");
        return signalPassFailure();
      }
    KernelPlan plan = formKernels(*function, *profile);
    writeKernels(*function, plan);
  }

  std::optional<DeviceProfile> givenProfile;
};

} // namespace

std::unique_ptr<Pass>
tilec::createFormKernelsPass(std::optional<DeviceProfile> profile) {
  return std::make_unique<FormKernelsPass>(std::move(profile));
}
