//===- LowerToKernelIRPass.cpp - tile-lower-to-kernel-ir ------------------===//

#include "PassDetail.h"

#include "KernelIR/HostLowering.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace tilec {
#define GEN_PASS_DECL_TILELOWERTOKERNELIR
#define GEN_PASS_DEF_TILELOWERTOKERNELIR
#include "tilec/Lowering/Passes.h.inc"
} // namespace tilec

namespace {

struct LowerToKernelIRPass
    : public tilec::impl::TileLowerToKernelIRBase<LowerToKernelIRPass> {
  using TileLowerToKernelIRBase::TileLowerToKernelIRBase;
  LowerToKernelIRPass() = default;
  LowerToKernelIRPass(std::optional<DeviceProfile> profile,
                      llvm::raw_ostream *explainStream)
      : givenProfile(std::move(profile)), explainStream(explainStream) {}

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
    llvm::raw_ostream *stream =
        explainStream ? explainStream : (explain ? &llvm::errs() : nullptr);
    if (failed(HostLowering(getOperation(), *function, *plan, *profile, stream)
                   .run()))
      signalPassFailure();
  }

  std::optional<DeviceProfile> givenProfile;
  llvm::raw_ostream *explainStream = nullptr;
};

} // namespace

std::unique_ptr<Pass>
tilec::createLowerToKernelIRPass(std::optional<DeviceProfile> profile,
                                 llvm::raw_ostream *explain) {
  return std::make_unique<LowerToKernelIRPass>(std::move(profile), explain);
}
